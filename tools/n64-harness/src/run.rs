//! Running one script against one ROM in one CPU mode, in this process.
//!
//! The video plugin's vertical-interrupt callback is the clock: on the F-th
//! call, everything the script schedules `at F` happens (input changes,
//! screenshots, pixel and memory checks), and after the last frame the
//! callback stops the core. The input plugin asks [`keys`] for each port's
//! buttons; the core's debug callback feeds IS-Viewer lines in.

use crate::emu::{Emulator, Hooks, Paths, StartOptions};
use crate::framebuffer::{self, Image, ViRegs};
use crate::script::{Action, CpuMode, Event, Script, TextExpect};
use anyhow::{Context as _, Result};
use m64p_abi::m64p;
use m64p_abi::side::ViFrame;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How to run a script.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub paths: Paths,
    pub cpu: CpuMode,
    pub rom: Vec<u8>,
    /// Number of frames to run.
    pub frames: u32,
    /// Screenshots are written relative to this directory.
    pub out_dir: PathBuf,
    /// Print IS-Viewer lines as they arrive.
    pub log: bool,
    /// Print every core message to stderr (errors are always printed).
    pub verbose: bool,
    /// Wall-clock limit; the run is stopped (and fails) when it is reached.
    pub timeout: Duration,
}

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    pub line: usize,
    pub passed: bool,
    /// What was checked, e.g. `expect "screen title" by 300`.
    pub what: String,
    /// Why it passed or failed.
    pub detail: String,
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct Report {
    pub cpu: CpuMode,
    /// Vertical interrupts seen.
    pub frames: u32,
    pub elapsed: Duration,
    /// Sorted by script line.
    pub checks: Vec<CheckResult>,
    /// IS-Viewer lines with the frame each arrived in.
    pub is_lines: Vec<(u32, String)>,
    /// Problems outside the checks (timeout, core errors): each one fails
    /// the run.
    pub errors: Vec<String>,
}

impl Report {
    pub fn passed(&self) -> usize {
        self.checks.iter().filter(|c| c.passed).count()
    }

    /// Failed checks plus run errors.
    pub fn failed(&self) -> usize {
        self.checks.iter().filter(|c| !c.passed).count() + self.errors.len()
    }

    pub fn frames_per_second(&self) -> f64 {
        self.frames as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The human-readable result lines (no closing count line).
    pub fn format(&self) -> String {
        let mut s = String::new();
        for c in &self.checks {
            let status = if c.passed { "PASS" } else { "FAIL" };
            let _ = writeln!(s, "{status} line {}: {} -- {}", c.line, c.what, c.detail);
        }
        for e in &self.errors {
            let _ = writeln!(s, "FAIL run: {e}");
        }
        let _ = writeln!(
            s,
            "ran {} frames in {:.2} s ({:.0} frames/s, cpu {})",
            self.frames,
            self.elapsed.as_secs_f64(),
            self.frames_per_second(),
            self.cpu
        );
        s
    }
}

/// The port state the input plugin reads.
#[derive(Clone, Copy, Debug, Default)]
struct Port {
    buttons: u32,
    x: i8,
    y: i8,
}

impl Port {
    /// `BUTTONS.Value`: buttons in bits 0..14, stick X in 16..24, Y in 24..32.
    fn value(&self) -> u32 {
        self.buttons | (u32::from(self.x as u8) << 16) | (u32::from(self.y as u8) << 24)
    }
}

struct State {
    frame: u32,
    end: u32,
    events: Vec<Event>,
    next: usize,
    ports: [Port; 4],
    present: [bool; 4],
    is_lines: Vec<(u32, String)>,
    checks: Vec<CheckResult>,
    errors: Vec<String>,
    out_dir: PathBuf,
    stopping: bool,
    /// The speed limiter is still on (setting it before Execute failed).
    limiter_on: bool,
}

/// Shared between the callbacks (all on the emulation thread) and the
/// watchdog; `ctx` of every callback points at this.
struct Shared {
    state: Mutex<State>,
    hooks: Mutex<Option<Hooks>>,
    log: bool,
    verbose: bool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Run `script` with `opts` in this process. Only call this once per
/// process (mupen64plus-core keeps global state).
pub fn run(script: &Script, opts: &RunOptions) -> Result<Report> {
    let mut events = script.events.clone();
    events.sort_by_key(|e| e.frame);
    let shared = Box::new(Shared {
        state: Mutex::new(State {
            frame: 0,
            end: opts.frames,
            events,
            next: 0,
            ports: [Port::default(); 4],
            present: [true; 4],
            is_lines: Vec::new(),
            checks: Vec::new(),
            errors: Vec::new(),
            out_dir: opts.out_dir.clone(),
            stopping: false,
            limiter_on: true,
        }),
        hooks: Mutex::new(None),
        log: opts.log,
        verbose: opts.verbose,
    });
    let ctx = &*shared as *const Shared as *mut c_void;
    let config_dir =
        std::env::temp_dir().join(format!("n64-harness-{}-{}", std::process::id(), opts.cpu));
    let mut emu = Emulator::start(StartOptions {
        paths: &opts.paths,
        cpu: opts.cpu,
        rom: &opts.rom,
        config_dir,
        debug_callback: Some(debug_callback),
        debug_context: ctx,
    })?;
    let hooks = emu.hooks();
    *lock(&shared.hooks) = Some(hooks);

    if hooks.unlimit_speed() == m64p::ERR_SUCCESS {
        lock(&shared.state).limiter_on = false;
    } else if opts.verbose {
        let _ = writeln!(
            std::io::stderr(),
            "n64-harness: speed limiter: retrying at the first frame"
        );
    }
    // Frame 0: the power-on state (e.g. `unplug 3` without `at`).
    {
        let mut st = lock(&shared.state);
        step(&mut st, None, &hooks);
    }
    // SAFETY: `ctx` points at `shared`, which outlives the emulator run:
    // the callbacks are removed below before `shared` can drop.
    unsafe {
        (hooks.video_set_callback)(Some(vi_callback), ctx);
        (hooks.input_set_callback)(Some(keys_callback), ctx);
    }

    let (done_tx, done_rx) = mpsc::channel::<()>();
    let timeout = opts.timeout;
    let watchdog = std::thread::spawn(move || {
        if let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(timeout) {
            hooks.stop();
            true
        } else {
            false
        }
    });
    let started = Instant::now();
    let result = emu.execute();
    let elapsed = started.elapsed();
    let _ = done_tx.send(());
    let timed_out = watchdog.join().unwrap_or(false);
    // SAFETY: unregistering takes no pointers the plugins keep.
    unsafe {
        (hooks.video_set_callback)(None, std::ptr::null_mut());
        (hooks.input_set_callback)(None, std::ptr::null_mut());
    }
    result?;

    let mut st = lock(&shared.state);
    if timed_out {
        let (frame, end) = (st.frame, st.end);
        st.errors.push(format!(
            "timed out after {} s at frame {frame} of {end}",
            timeout.as_secs()
        ));
    }
    finish(&mut st);
    let mut report = Report {
        cpu: opts.cpu,
        frames: st.frame,
        elapsed,
        checks: std::mem::take(&mut st.checks),
        is_lines: std::mem::take(&mut st.is_lines),
        errors: std::mem::take(&mut st.errors),
    };
    drop(st);
    check_texts(script, &mut report);
    // Tear the core down before `shared`, which its callbacks point at.
    drop(emu);
    drop(shared);
    Ok(report)
}

/// Fail the frame-bound checks the run never reached.
fn finish(st: &mut State) {
    let reached = st.frame;
    let pending: Vec<Event> = st.events[st.next..].to_vec();
    for e in pending.iter().filter(|e| e.action.is_expectation()) {
        st.checks.push(CheckResult {
            line: e.line,
            passed: false,
            what: describe(&e.action, e.frame),
            detail: format!("the run ended at frame {reached}, before frame {}", e.frame),
        });
    }
}

/// Check the IS-Viewer expectations of `script` against a finished report.
pub fn check_texts(script: &Script, report: &mut Report) {
    for t in &script.texts {
        let result = match t {
            TextExpect::Seen {
                text,
                from,
                by,
                line,
            } => {
                let what = if *from > 0 {
                    format!("expect {text:?} from {from} by {by}")
                } else {
                    format!("expect {text:?} by {by}")
                };
                let hit = report
                    .is_lines
                    .iter()
                    .find(|(f, l)| *f >= *from && *f <= *by && l.contains(text.as_str()));
                match hit {
                    Some((f, l)) => CheckResult {
                        line: *line,
                        passed: true,
                        what,
                        detail: format!("frame {f}: {l:?}"),
                    },
                    None => {
                        let later = report
                            .is_lines
                            .iter()
                            .find(|(f, l)| *f > *by && l.contains(text.as_str()));
                        let detail = match later {
                            Some((f, l)) => format!("only at frame {f}: {l:?}"),
                            None if report.frames < *by => {
                                format!("not seen; the run ended at frame {}", report.frames)
                            }
                            None => "not seen".to_string(),
                        };
                        CheckResult {
                            line: *line,
                            passed: false,
                            what,
                            detail,
                        }
                    }
                }
            }
            TextExpect::Never { text, line } => {
                let what = format!("expect no {text:?}");
                match report
                    .is_lines
                    .iter()
                    .find(|(_, l)| l.contains(text.as_str()))
                {
                    Some((f, l)) => CheckResult {
                        line: *line,
                        passed: false,
                        what,
                        detail: format!("frame {f}: {l:?}"),
                    },
                    None => CheckResult {
                        line: *line,
                        passed: true,
                        what,
                        detail: format!("not seen in {} frames", report.frames),
                    },
                }
            }
        };
        report.checks.push(result);
    }
    report.checks.sort_by_key(|c| c.line);
}

/// Human-readable form of a frame-bound action.
pub fn describe(action: &Action, frame: u32) -> String {
    match action {
        Action::ExpectPixel {
            x,
            y,
            rgb,
            tolerance,
        } => format!(
            "expect pixel {x},{y} is {} within {tolerance} at {frame}",
            hex(*rgb)
        ),
        Action::ExpectRect {
            x,
            y,
            w,
            h,
            all,
            rgb,
            tolerance,
        } => format!(
            "expect rect {x},{y} {w}x{h} {} {} within {tolerance} at {frame}",
            if *all { "is" } else { "has" },
            hex(*rgb)
        ),
        Action::ExpectU32 { addr, value } => {
            format!("expect u32 {addr:#010x} is {value:#010x} at {frame}")
        }
        other => format!("{other:?} at {frame}"),
    }
}

fn hex(rgb: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2])
}

/// The current frame as seen by the VI: RDRAM and registers.
struct Screen<'a> {
    ram: &'a [u8],
    vi: ViRegs,
}

/// Apply every event due at `st.frame`.
fn step(st: &mut State, screen: Option<&Screen<'_>>, hooks: &Hooks) {
    let mut image: Option<Result<Image, String>> = None;
    while let Some(event) = st.events.get(st.next).filter(|e| e.frame <= st.frame) {
        let event = event.clone();
        st.next += 1;
        let frame = st.frame;
        match &event.action {
            Action::Hold { port, mask } => {
                if let Some(p) = st.ports.get_mut(usize::from(*port)) {
                    p.buttons |= mask;
                }
            }
            Action::Release { port, mask } => {
                if let Some(p) = st.ports.get_mut(usize::from(*port)) {
                    p.buttons &= !mask;
                }
            }
            Action::Stick { port, x, y } => {
                if let Some(p) = st.ports.get_mut(usize::from(*port)) {
                    p.x = *x;
                    p.y = *y;
                }
            }
            Action::Plug { port } | Action::Unplug { port } => {
                let present = matches!(event.action, Action::Plug { .. });
                if let Some(p) = st.present.get_mut(usize::from(*port)) {
                    *p = present;
                }
                // SAFETY: plain integers; the plugin only stores them.
                unsafe { (hooks.input_set_present)(c_int::from(*port), c_int::from(present)) };
            }
            Action::Shot { path } => {
                let img = image.get_or_insert_with(|| grab(screen));
                let full = st.out_dir.join(path);
                match img {
                    Ok(img) => match img.write_png(&full) {
                        Ok(()) => say(&format!(
                            "shot {} ({}x{}, frame {frame})",
                            full.display(),
                            img.width,
                            img.height
                        )),
                        Err(e) => st.errors.push(format!(
                            "line {}: shot {}: {e:#}",
                            event.line,
                            full.display()
                        )),
                    },
                    Err(e) => st.errors.push(format!(
                        "line {}: shot {} at frame {frame}: {e}",
                        event.line,
                        full.display()
                    )),
                }
            }
            Action::Peek { addr } => {
                let text = match screen.and_then(|s| framebuffer::read_u32(s.ram, *addr)) {
                    Some(v) => format!("{v:#010x} ({v})"),
                    None => "not in RDRAM".to_string(),
                };
                say(&format!(
                    "peek {addr:#010x} = {text} (frame {frame}, line {})",
                    event.line
                ));
            }
            Action::ExpectPixel {
                x,
                y,
                rgb,
                tolerance,
            } => {
                let img = image.get_or_insert_with(|| grab(screen));
                let (passed, detail) = match img {
                    Ok(img) => match img.pixel(*x, *y) {
                        Some(got) => (
                            framebuffer::colour_matches(got, *rgb, *tolerance),
                            format!("got {}", hex(got)),
                        ),
                        None => (
                            false,
                            format!("outside the {}x{} picture", img.width, img.height),
                        ),
                    },
                    Err(e) => (false, e.clone()),
                };
                if !passed {
                    save_failure_shot(st, image.as_ref(), event.line);
                }
                st.checks.push(CheckResult {
                    line: event.line,
                    passed,
                    what: describe(&event.action, event.frame),
                    detail,
                });
            }
            Action::ExpectRect {
                x,
                y,
                w,
                h,
                all,
                rgb,
                tolerance,
            } => {
                let img = image.get_or_insert_with(|| grab(screen));
                let (passed, detail) = match img {
                    Ok(img) => check_rect(img, (*x, *y, *w, *h), *all, *rgb, *tolerance),
                    Err(e) => (false, e.clone()),
                };
                if !passed {
                    save_failure_shot(st, image.as_ref(), event.line);
                }
                st.checks.push(CheckResult {
                    line: event.line,
                    passed,
                    what: describe(&event.action, event.frame),
                    detail,
                });
            }
            Action::ExpectU32 { addr, value } => {
                let got = screen.and_then(|s| framebuffer::read_u32(s.ram, *addr));
                let (passed, detail) = match got {
                    Some(v) => (v == *value, format!("got {v:#010x}")),
                    None if screen.is_none() => {
                        (false, "RDRAM is not available before frame 1".into())
                    }
                    None => (false, "address not in RDRAM".into()),
                };
                st.checks.push(CheckResult {
                    line: event.line,
                    passed,
                    what: describe(&event.action, event.frame),
                    detail,
                });
            }
        }
    }
}

/// `expect rect`: all pixels (or at least one) match.
fn check_rect(
    img: &Image,
    (x, y, w, h): (u32, u32, u32, u32),
    all: bool,
    rgb: [u8; 3],
    tolerance: u8,
) -> (bool, String) {
    let (x_end, y_end) = (x.saturating_add(w), y.saturating_add(h));
    if x_end > img.width || y_end > img.height {
        return (
            false,
            format!("not inside the {}x{} picture", img.width, img.height),
        );
    }
    let mut matching = 0u64;
    let mut first_miss = None;
    for py in y..y_end {
        for px in x..x_end {
            let got = img.pixel(px, py).unwrap_or([0; 3]);
            if framebuffer::colour_matches(got, rgb, tolerance) {
                matching += 1;
            } else if first_miss.is_none() {
                first_miss = Some((px, py, got));
            }
        }
    }
    let total = u64::from(w) * u64::from(h);
    let passed = if all { matching == total } else { matching > 0 };
    let mut detail = format!("{matching} of {total} pixels match");
    if let (true, Some((px, py, got))) = (all && !passed, first_miss) {
        let _ = write!(detail, "; first other: {} at {px},{py}", hex(got));
    }
    (passed, detail)
}

/// On a failed pixel check, keep the picture for whoever debugs it.
fn save_failure_shot(st: &mut State, image: Option<&Result<Image, String>>, line: usize) {
    if let Some(Ok(img)) = image {
        let path = st
            .out_dir
            .join(format!("failed-line{line}-frame{}.png", st.frame));
        if img.write_png(&path).is_ok() {
            say(&format!("  saved {}", path.display()));
        }
    }
}

fn grab(screen: Option<&Screen<'_>>) -> Result<Image, String> {
    let s = screen.ok_or("no picture before frame 1")?;
    framebuffer::decode(s.ram, &s.vi).map_err(|e| e.to_string())
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Video plugin callback: one vertical interrupt.
unsafe extern "C" fn vi_callback(ctx: *mut c_void, frame: *const ViFrame) {
    // SAFETY: `ctx` is the `Shared` registered in `run`, alive while the
    // callback is registered; `frame` is valid for this call.
    let (shared, vi) = unsafe { (&*(ctx as *const Shared), &*frame) };
    // SAFETY: the plugin passes the core's RDRAM and its size; it stays
    // valid (and unchanged: the emulation is paused in this callback) for
    // the duration of the call.
    let ram = unsafe { std::slice::from_raw_parts(vi.rdram, vi.rdram_size as usize) };
    let screen = Screen {
        ram,
        vi: ViRegs {
            ctrl: vi.vi_status,
            origin: vi.vi_origin,
            width: vi.vi_width,
            h_video: vi.vi_h_start,
            v_video: vi.vi_v_start,
            x_scale: vi.vi_x_scale,
            y_scale: vi.vi_y_scale,
        },
    };
    let Some(hooks) = *lock(&shared.hooks) else {
        return;
    };
    let stop = {
        let mut st = lock(&shared.state);
        if st.stopping {
            return;
        }
        st.frame += 1;
        if st.frame == 1 && st.limiter_on {
            st.limiter_on = false;
            let rc = hooks.unlimit_speed();
            if rc != m64p::ERR_SUCCESS {
                st.errors.push(format!(
                    "turning the speed limiter off failed (m64p_error {rc})"
                ));
            }
        }
        step(&mut st, Some(&screen), &hooks);
        st.stopping = st.frame >= st.end;
        st.stopping
    };
    if stop {
        hooks.stop();
    }
}

/// Input plugin callback: the buttons of `port` (0..=3).
unsafe extern "C" fn keys_callback(ctx: *mut c_void, port: c_int) -> u32 {
    // SAFETY: `ctx` is the `Shared` registered in `run`.
    let shared = unsafe { &*(ctx as *const Shared) };
    let st = lock(&shared.state);
    usize::try_from(port)
        .ok()
        .and_then(|p| st.ports.get(p))
        .map_or(0, Port::value)
}

/// Core and plugin messages; `IS64: ` lines are the ROM's IS-Viewer output.
unsafe extern "C" fn debug_callback(ctx: *mut c_void, level: c_int, message: *const c_char) {
    if ctx.is_null() || message.is_null() {
        return;
    }
    // SAFETY: `ctx` is the `Shared` passed to CoreStartup/PluginStartup,
    // alive until after CoreShutdown; `message` is a NUL-terminated string
    // valid for this call.
    let (shared, message) = unsafe { (&*(ctx as *const Shared), CStr::from_ptr(message)) };
    let message = message.to_string_lossy();
    if let Some(text) = message.strip_prefix("IS64: ") {
        let mut st = lock(&shared.state);
        let frame = st.frame;
        st.is_lines.push((frame, text.to_string()));
        drop(st);
        if shared.log {
            say(&format!("[{frame:>6}] {text}"));
        }
        return;
    }
    if shared.verbose || level == m64p::MSG_ERROR {
        let tag = match level {
            m64p::MSG_ERROR => "error",
            m64p::MSG_WARNING => "warning",
            m64p::MSG_INFO => "info",
            m64p::MSG_STATUS => "status",
            _ => "verbose",
        };
        // Never panic here (e.g. on a closed stderr): this is a C callback.
        let _ = writeln!(std::io::stderr(), "mupen64plus {tag}: {message}");
    }
}

/// Read a ROM file, with a readable error.
pub fn read_rom(path: &std::path::Path) -> Result<Vec<u8>> {
    let rom = std::fs::read(path).with_context(|| format!("reading ROM {}", path.display()))?;
    if rom.len() < 0x1000 {
        anyhow::bail!(
            "{} is {} bytes: too small for an N64 ROM",
            path.display(),
            rom.len()
        );
    }
    Ok(rom)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image() -> Image {
        // 4x3, all grey except (2,1) white.
        let mut rgb = vec![160u8; 4 * 3 * 3];
        rgb[(4 + 2) * 3..(4 + 2) * 3 + 3].copy_from_slice(&[255, 255, 255]);
        Image {
            width: 4,
            height: 3,
            rgb,
        }
    }

    #[test]
    fn rect_all_and_any() {
        let img = image();
        let grey = [160, 160, 160];
        assert!(check_rect(&img, (0, 0, 4, 1), true, grey, 0).0);
        let (ok, detail) = check_rect(&img, (0, 0, 4, 3), true, grey, 8);
        assert!(!ok);
        assert_eq!(detail, "11 of 12 pixels match; first other: #ffffff at 2,1");
        assert!(check_rect(&img, (0, 0, 4, 3), false, [255, 255, 255], 0).0);
        assert!(!check_rect(&img, (0, 0, 2, 3), false, [255, 255, 255], 0).0);
        let (ok, detail) = check_rect(&img, (3, 0, 2, 1), true, grey, 0);
        assert!(!ok && detail.contains("not inside"));
        assert!(!check_rect(&img, (u32::MAX, 0, 2, 1), false, grey, 0).0);
    }

    #[test]
    fn buttons_value_layout() {
        let p = Port {
            buttons: 0x80,
            x: -1,
            y: 2,
        };
        assert_eq!(p.value(), 0x02FF_0080);
    }
}
