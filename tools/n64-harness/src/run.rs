//! Running one script against one ROM in one CPU mode, in this process.
//!
//! The video plugin's vertical-interrupt callback is the clock: on the F-th
//! call, everything the script schedules `at F` happens (input changes,
//! screenshots, pixel and memory checks), and after the last frame the
//! callback stops the core. The input plugin asks [`keys`] for each port's
//! buttons; the core's debug callback feeds IS-Viewer lines in.

use crate::audio::{self, Capture};
use crate::emu::{Emulator, Hooks, Paths, StartOptions};
use crate::framebuffer::{self, Image, ViRegs};
use crate::random::{Change, Generator};
use crate::script::{Action, Button, CountOp, CpuMode, Event, ScreenChanges, Script, TextExpect};
use anyhow::{Context as _, Result};
use m64p_abi::m64p;
use m64p_abi::side::ViFrame;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write as _};
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
    /// Keep save files (EEPROM...) here, across runs; `None`: a fresh
    /// temporary directory, removed afterwards.
    pub save_dir: Option<PathBuf>,
    /// `Core/CountPerOp` (`None`: the core's default).
    pub count_per_op: Option<u32>,
    /// Write the trace (IS-Viewer lines with frames, input changes) here;
    /// overrides the script's `trace` line (which is relative to `out_dir`).
    pub trace: Option<PathBuf>,
}

/// IS-Viewer lines shown after a failed check.
pub const FAILURE_TAIL_LINES: usize = 20;

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
    /// CPU time (user + system) this process used during the run, when
    /// known: on a busy machine, frames per CPU second is the fairer speed.
    pub cpu_time: Option<Duration>,
    /// Sorted by script line.
    pub checks: Vec<CheckResult>,
    /// IS-Viewer lines with the frame each arrived in.
    pub is_lines: Vec<(u32, String)>,
    /// Frames at which the framebuffer's content differed from the frame
    /// before (only tracked within `expect screen changes` windows).
    pub screen_changes: Vec<u32>,
    /// What the audio plugin reported (the samples only when the script
    /// checks audio).
    pub audio: Capture,
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
        if self.failed() > 0 {
            let n = self.is_lines.len();
            let tail = &self.is_lines[n.saturating_sub(FAILURE_TAIL_LINES)..];
            if tail.is_empty() {
                let _ = writeln!(s, "  (the ROM wrote no IS-Viewer line)");
            } else {
                let _ = writeln!(s, "  last {} of {n} IS-Viewer lines:", tail.len());
                for (f, l) in tail {
                    let _ = writeln!(s, "  [{f:>6}] {l}");
                }
            }
        }
        let _ = write!(
            s,
            "ran {} frames in {:.2} s ({:.0} frames/s, cpu {}",
            self.frames,
            self.elapsed.as_secs_f64(),
            self.frames_per_second(),
            self.cpu
        );
        match self.cpu_time {
            Some(t) if t.as_secs_f64() > 0.0 => {
                let _ = writeln!(
                    s,
                    "; {:.2} s CPU time, {:.0} frames per CPU second)",
                    t.as_secs_f64(),
                    f64::from(self.frames) / t.as_secs_f64()
                );
            }
            _ => s.push_str(")\n"),
        }
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
    /// `random` lines.
    generators: Vec<Generator>,
    /// Frame windows in which to hash the framebuffer.
    screen_windows: Vec<(u32, u32)>,
    last_hash: Option<u64>,
    screen_changes: Vec<u32>,
    audio: Capture,
    trace: Option<BufWriter<File>>,
    /// Print IS-Viewer lines and resets as they come.
    log: bool,
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
    let trace = match opts
        .trace
        .clone()
        .or_else(|| script.trace.as_ref().map(|t| opts.out_dir.join(t)))
    {
        Some(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            let file =
                File::create(&path).with_context(|| format!("creating {}", path.display()))?;
            Some(BufWriter::new(file))
        }
        None => None,
    };
    let screen_windows = script
        .screen
        .iter()
        .map(|c| (c.from, c.to.unwrap_or(opts.frames)))
        .collect();
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
            generators: script.randoms.iter().map(Generator::new).collect(),
            screen_windows,
            last_hash: None,
            screen_changes: Vec::new(),
            audio: Capture {
                keep: !script.audio.is_empty(),
                ..Capture::default()
            },
            trace,
            log: opts.log,
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
        save_dir: opts.save_dir.clone(),
        count_per_op: opts.count_per_op,
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
        (hooks.audio_set_callbacks)(Some(samples_callback), Some(rate_callback), ctx);
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
    let cpu_before = process_cpu_time();
    let result = emu.execute();
    let elapsed = started.elapsed();
    let cpu_time = process_cpu_time()
        .zip(cpu_before)
        .map(|(after, before)| after.saturating_sub(before));
    let _ = done_tx.send(());
    let timed_out = watchdog.join().unwrap_or(false);
    // SAFETY: unregistering takes no pointers the plugins keep.
    unsafe {
        (hooks.video_set_callback)(None, std::ptr::null_mut());
        (hooks.input_set_callback)(None, std::ptr::null_mut());
        (hooks.audio_set_callbacks)(None, None, std::ptr::null_mut());
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
    if let Some(mut trace) = st.trace.take() {
        let _ = writeln!(trace, "[{:>6}] > end of run", st.frame);
        if let Err(e) = trace.flush() {
            st.errors.push(format!("writing the trace: {e}"));
        }
    }
    let mut report = Report {
        cpu: opts.cpu,
        frames: st.frame,
        elapsed,
        cpu_time,
        checks: std::mem::take(&mut st.checks),
        is_lines: std::mem::take(&mut st.is_lines),
        screen_changes: std::mem::take(&mut st.screen_changes),
        audio: std::mem::take(&mut st.audio),
        errors: std::mem::take(&mut st.errors),
    };
    drop(st);
    check_texts(script, &mut report);
    for a in &script.audio {
        let (passed, detail) = audio::check(&a.check, &report.audio, &report.is_lines);
        report.checks.push(CheckResult {
            line: a.line,
            passed,
            what: audio::describe(&a.check),
            detail,
        });
    }
    for c in &script.screen {
        let result = check_screen(c, &report.screen_changes, report.frames);
        report.checks.push(result);
    }
    report.checks.sort_by_key(|c| c.line);
    // Tear the core down before `shared`, which its callbacks point at.
    drop(emu);
    drop(shared);
    Ok(report)
}

/// User + system CPU time of this process so far (Linux `/proc`; clock
/// ticks of 1/100 s).
fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses): state is
    // field 3, utime 14, stime 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
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
            TextExpect::Absent {
                text,
                from,
                by,
                line,
            } => {
                let what = if *from > 0 {
                    format!("expect no {text:?} from {from} by {by}")
                } else {
                    format!("expect {text:?} not by {by}")
                };
                let hit = report
                    .is_lines
                    .iter()
                    .find(|(f, l)| *f >= *from && *f <= *by && l.contains(text.as_str()));
                let (passed, detail) = match hit {
                    Some((f, l)) => (false, format!("frame {f}: {l:?}")),
                    None if report.frames < *by => {
                        (false, format!("the run ended at frame {}", report.frames))
                    }
                    None => (true, "not seen".to_string()),
                };
                CheckResult {
                    line: *line,
                    passed,
                    what,
                    detail,
                }
            }
            TextExpect::Every {
                text,
                period,
                from,
                to,
                line,
            } => {
                let mut what = format!("expect {text:?} every {period}");
                if *from > 0 {
                    let _ = write!(what, " from {from}");
                }
                if let Some(to) = to {
                    let _ = write!(what, " to {to}");
                }
                let end = to.unwrap_or(report.frames).min(report.frames);
                let frames: Vec<u32> = report
                    .is_lines
                    .iter()
                    .filter(|(f, l)| *f >= *from && *f <= end && l.contains(text.as_str()))
                    .map(|(f, _)| *f)
                    .collect();
                let (passed, detail) = gap_check(*period, *from, end, &frames, "matching lines");
                CheckResult {
                    line: *line,
                    passed,
                    what,
                    detail,
                }
            }
            TextExpect::Sequence { texts, line } => {
                let what = if texts.len() == 2 {
                    format!("expect {:?} after {:?}", texts[1], texts[0])
                } else {
                    let quoted: Vec<String> = texts.iter().map(|t| format!("{t:?}")).collect();
                    format!("expect sequence {}", quoted.join(" "))
                };
                let (passed, detail) = sequence_check(texts, &report.is_lines);
                CheckResult {
                    line: *line,
                    passed,
                    what,
                    detail,
                }
            }
            TextExpect::Count { text, op, n, line } => {
                let matching: Vec<&(u32, String)> = report
                    .is_lines
                    .iter()
                    .filter(|(_, l)| l.contains(text.as_str()))
                    .collect();
                let got = matching.len();
                let mut detail = format!("{got} lines");
                if let (Some((f0, _)), Some((f1, _))) = (matching.first(), matching.last()) {
                    let _ = write!(detail, " (frames {f0}..{f1})");
                }
                CheckResult {
                    line: *line,
                    passed: op.holds(got, *n),
                    what: format!("expect count {text:?} {} {n}", op.symbol()),
                    detail,
                }
            }
            TextExpect::Value {
                text,
                op,
                n,
                from,
                by,
                line,
            } => {
                let what = if *from > 0 {
                    format!("expect {text:?} {} {n} from {from} by {by}", op.symbol())
                } else {
                    format!("expect {text:?} {} {n} by {by}", op.symbol())
                };
                let (passed, detail) = value_check(&report.is_lines, text, *op, *n, *from, *by);
                CheckResult {
                    line: *line,
                    passed,
                    what,
                    detail,
                }
            }
            TextExpect::Bits {
                text,
                mask,
                from,
                by,
                line,
            } => {
                let what = if *from > 0 {
                    format!("expect {text:?} has bits {mask:#x} from {from} by {by}")
                } else {
                    format!("expect {text:?} has bits {mask:#x} by {by}")
                };
                let (passed, detail) = bits_check(&report.is_lines, text, *mask, *from, *by);
                CheckResult {
                    line: *line,
                    passed,
                    what,
                    detail,
                }
            }
        };
        report.checks.push(result);
    }
    report.checks.sort_by_key(|c| c.line);
}

/// `expect "text" has bits M from A by B`: the hexadecimal number after
/// `text` (`0x` optional) in every line of frames `from..=by` that contains
/// it has every bit of `mask` set.
fn bits_check(
    lines: &[(u32, String)],
    text: &str,
    mask: u32,
    from: u32,
    by: u32,
) -> (bool, String) {
    let mut seen = 0;
    for (f, l) in lines.iter().filter(|(f, _)| *f >= from && *f <= by) {
        let Some(at) = l.find(text) else { continue };
        let rest = &l[at + text.len()..];
        let rest = rest.strip_prefix("0x").unwrap_or(rest);
        let digits: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
        let Ok(v) = u32::from_str_radix(&digits, 16) else {
            return (
                false,
                format!("frame {f}: no hexadecimal number after the text: {l:?}"),
            );
        };
        if v & mask != mask {
            return (
                false,
                format!("frame {f}: {v:#010x} lacks bits {:#x}", mask & !v),
            );
        }
        seen += 1;
    }
    if seen == 0 {
        return (false, format!("no line in frames {from}..{by}"));
    }
    (true, format!("{seen} lines, each with bits {mask:#x} set"))
}

/// `expect "text" <= N from A by B`: the number after `text` in every line
/// of frames `from..=by` that contains it.
fn value_check(
    lines: &[(u32, String)],
    text: &str,
    op: CountOp,
    n: u64,
    from: u32,
    by: u32,
) -> (bool, String) {
    let mut values = Vec::new();
    for (f, l) in lines.iter().filter(|(f, _)| *f >= from && *f <= by) {
        let Some(at) = l.find(text) else { continue };
        let digits: String = l[at + text.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        match digits.parse::<u64>() {
            Ok(v) => values.push((*f, v)),
            Err(_) => return (false, format!("frame {f}: no number after the text: {l:?}")),
        }
    }
    let Some(&(f0, _)) = values.first() else {
        return (false, format!("no line in frames {from}..{by}"));
    };
    if let Some((f, v)) = values.iter().find(|(_, v)| !op.holds(*v, n)) {
        return (
            false,
            format!("frame {f}: {v} (of {} lines from frame {f0})", values.len()),
        );
    }
    let (min, max) = values
        .iter()
        .fold((u64::MAX, 0), |(lo, hi), (_, v)| (lo.min(*v), hi.max(*v)));
    (
        true,
        format!(
            "{} lines from frame {f0}, values {min}..{max}",
            values.len()
        ),
    )
}

/// The longest stretch without an event: `events` (sorted frames within
/// `from..=end`) must leave no gap longer than `period` between `from`,
/// themselves and `end`.
fn gap_check(period: u32, from: u32, end: u32, events: &[u32], what: &str) -> (bool, String) {
    let mut worst = (0, from, from);
    let mut prev = from;
    for &f in events.iter().chain(std::iter::once(&end)) {
        let gap = f.saturating_sub(prev);
        if gap > worst.0 {
            worst = (gap, prev, f);
        }
        prev = prev.max(f);
    }
    let (gap, a, b) = worst;
    let passed = gap <= period;
    let detail = if passed {
        format!(
            "{} {what} in frames {from}..{end}, longest gap {gap} frames",
            events.len()
        )
    } else if events.is_empty() {
        format!("no {what} in frames {from}..{end}")
    } else {
        format!(
            "{} {what} in frames {from}..{end}, but none in frames {a}..{b} ({gap} frames)",
            events.len()
        )
    };
    (passed, detail)
}

/// `expect sequence`: each text on a line after the line of the one before.
fn sequence_check(texts: &[String], lines: &[(u32, String)]) -> (bool, String) {
    let mut pos = 0;
    let mut found: Vec<u32> = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        match lines[pos..]
            .iter()
            .position(|(_, l)| l.contains(text.as_str()))
        {
            Some(k) => {
                found.push(lines[pos + k].0);
                pos += k + 1;
            }
            None => {
                let detail = if i == 0 {
                    format!("{text:?} not seen")
                } else {
                    let prev = &texts[i - 1];
                    let anywhere = lines.iter().find(|(_, l)| l.contains(text.as_str()));
                    match anywhere {
                        Some((f, _)) => format!(
                            "{text:?} not seen after {prev:?} (frame {}); only before, at frame {f}",
                            found[i - 1]
                        ),
                        None => format!(
                            "{text:?} not seen (after {prev:?} at frame {})",
                            found[i - 1]
                        ),
                    }
                };
                return (false, detail);
            }
        }
    }
    let frames: Vec<String> = found.iter().map(u32::to_string).collect();
    (true, format!("at frames {}", frames.join(", ")))
}

/// `expect screen changes every N`.
pub fn check_screen(c: &ScreenChanges, changes: &[u32], frames: u32) -> CheckResult {
    let mut what = format!("expect screen changes every {}", c.period);
    if c.from > 0 {
        let _ = write!(what, " from {}", c.from);
    }
    if let Some(to) = c.to {
        let _ = write!(what, " to {to}");
    }
    let end = c.to.unwrap_or(frames).min(frames);
    let inside: Vec<u32> = changes
        .iter()
        .copied()
        .filter(|f| *f > c.from && *f <= end)
        .collect();
    let (passed, detail) = gap_check(c.period, c.from, end, &inside, "changes");
    CheckResult {
        line: c.line,
        passed,
        what,
        detail,
    }
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

impl State {
    /// A harness action worth knowing when reading the trace: written
    /// there as `[frame] > what`, and printed with --log.
    fn note(&mut self, what: &str) {
        let frame = self.frame;
        if let Some(trace) = self.trace.as_mut() {
            let _ = writeln!(trace, "[{frame:>6}] > {what}");
        }
        if self.log {
            say(&format!("[{frame:>6}] > {what}"));
        }
    }

    /// Like `note`, but only into the trace (input changes are many).
    fn trace_only(&mut self, what: std::fmt::Arguments<'_>) {
        let frame = self.frame;
        if let Some(trace) = self.trace.as_mut() {
            let _ = writeln!(trace, "[{frame:>6}] > {what}");
        }
    }

    fn set_present(&mut self, port: u8, present: bool, hooks: &Hooks) {
        if let Some(p) = self.present.get_mut(usize::from(port)) {
            *p = present;
        }
        // SAFETY: plain integers; the plugin only stores them.
        unsafe { (hooks.input_set_present)(c_int::from(port), c_int::from(present)) };
    }

    /// The `random` lines' input for this frame.
    fn apply_random(&mut self, hooks: &Hooks) {
        if self.generators.is_empty() {
            return;
        }
        let frame = self.frame;
        let mut changes = Vec::new();
        for g in &mut self.generators {
            g.step(frame, &mut changes);
        }
        for c in changes {
            match c {
                Change::Buttons { port, mask } => {
                    if let Some(p) = self.ports.get_mut(usize::from(port)) {
                        p.buttons = mask;
                    }
                    self.trace_only(format_args!("port {} {}", port + 1, button_names(mask)));
                }
                Change::Stick { port, x, y } => {
                    if let Some(p) = self.ports.get_mut(usize::from(port)) {
                        p.x = x;
                        p.y = y;
                    }
                    self.trace_only(format_args!("port {} stick {x} {y}", port + 1));
                }
                Change::Plug { port } => {
                    self.set_present(port, true, hooks);
                    self.trace_only(format_args!("plug {}", port + 1));
                }
                Change::Unplug { port } => {
                    self.set_present(port, false, hooks);
                    self.trace_only(format_args!("unplug {}", port + 1));
                }
            }
        }
    }

    /// Hash the framebuffer when an `expect screen changes` window covers
    /// this frame; remember the frame when it differs from the last one.
    fn track_screen(&mut self, screen: &Screen<'_>) {
        let frame = self.frame;
        if !self
            .screen_windows
            .iter()
            .any(|(from, to)| (*from..=*to).contains(&frame))
        {
            return;
        }
        let hash = framebuffer::raw_hash(screen.ram, &screen.vi);
        if self.last_hash.is_some_and(|h| h != hash) {
            self.screen_changes.push(frame);
        }
        self.last_hash = Some(hash);
    }
}

/// `A+START`, or `none`.
fn button_names(mask: u32) -> String {
    let names: Vec<&str> = Button::ALL
        .iter()
        .filter(|b| mask & b.mask() != 0)
        .map(|b| b.name())
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join("+")
    }
}

/// Apply every event due at `st.frame`, then the random input.
fn step(st: &mut State, screen: Option<&Screen<'_>>, hooks: &Hooks) {
    let mut image: Option<Result<Image, String>> = None;
    while let Some(event) = st.events.get(st.next).filter(|e| e.frame <= st.frame) {
        let event = event.clone();
        st.next += 1;
        let frame = st.frame;
        if st.trace.is_some() {
            let text = match &event.action {
                Action::Hold { port, mask } => {
                    Some(format!("port {} hold {}", port + 1, button_names(*mask)))
                }
                Action::Release { port, mask } => {
                    Some(format!("port {} release {}", port + 1, button_names(*mask)))
                }
                Action::Stick { port, x, y } => Some(format!("port {} stick {x} {y}", port + 1)),
                Action::Plug { port } => Some(format!("plug {}", port + 1)),
                Action::Unplug { port } => Some(format!("unplug {}", port + 1)),
                _ => None,
            };
            if let Some(text) = text {
                st.trace_only(format_args!("{text} (line {})", event.line));
            }
        }
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
                st.set_present(*port, present, hooks);
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
            Action::Reset { hard } => {
                let name = if *hard { "power-cycle" } else { "reset" };
                let rc = hooks.reset(*hard);
                if rc != m64p::ERR_SUCCESS {
                    st.errors.push(format!(
                        "line {}: {name} at frame {frame} failed (m64p_error {rc})",
                        event.line
                    ));
                }
                st.note(&format!("{name} (line {})", event.line));
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
    st.apply_random(hooks);
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
        st.track_screen(&screen);
        st.stopping = st.frame >= st.end;
        st.stopping
    };
    if stop {
        hooks.stop();
    }
}

/// Audio plugin callback: `frames` stereo samples just played.
unsafe extern "C" fn samples_callback(ctx: *mut c_void, samples: *const i16, frames: u32) {
    if samples.is_null() {
        return;
    }
    // SAFETY: `ctx` is the `Shared` registered in `run`; the plugin passes
    // `2 * frames` interleaved samples, valid for this call.
    let (shared, samples) = unsafe {
        (
            &*(ctx as *const Shared),
            std::slice::from_raw_parts(samples, frames as usize * 2),
        )
    };
    let mut st = lock(&shared.state);
    let frame = st.frame;
    st.audio.push(frame, samples);
}

/// Audio plugin callback: the ROM set AI_DACRATE.
unsafe extern "C" fn rate_callback(ctx: *mut c_void, system_type: c_int, dacrate: u32) {
    // SAFETY: `ctx` is the `Shared` registered in `run`.
    let shared = unsafe { &*(ctx as *const Shared) };
    let mut st = lock(&shared.state);
    let frame = st.frame;
    st.audio.rates.push((frame, system_type, dacrate));
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
        if let Some(trace) = st.trace.as_mut() {
            let _ = writeln!(trace, "[{frame:>6}] {text}");
        }
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

    fn report(lines: &[(u32, &str)], frames: u32) -> Report {
        Report {
            cpu: CpuMode::Dynarec,
            frames,
            elapsed: Duration::from_secs(1),
            cpu_time: None,
            checks: Vec::new(),
            is_lines: lines.iter().map(|(f, l)| (*f, l.to_string())).collect(),
            screen_changes: Vec::new(),
            audio: Capture::default(),
            errors: Vec::new(),
        }
    }

    fn checked(src: &str, lines: &[(u32, &str)], frames: u32) -> Vec<(bool, String)> {
        let script = Script::parse(src).unwrap();
        let mut r = report(lines, frames);
        check_texts(&script, &mut r);
        r.checks.into_iter().map(|c| (c.passed, c.detail)).collect()
    }

    #[test]
    fn values_after_a_text() {
        let lines = [
            (10, "perf frames=60 frame_us_max=9000"),
            (70, "perf frames=60 frame_us_max=15000"),
            (130, "perf frames=59 frame_us_max=17000"),
            (140, "perf frame_us_max=none"),
        ];
        let results = checked(
            r#"expect "frame_us_max=" <= 16000 by 100
expect "frame_us_max=" <= 16000 by 130
expect "frames=" >= 60 from 5 by 100
expect "frames=" = 59 from 100 by 135
expect "frame_us_max=" <= 20000 from 135 by 150
expect "frame_us_max=" <= 1 from 300 by 400
"#,
            &lines,
            400,
        );
        assert_eq!(
            results,
            [
                (
                    true,
                    "2 lines from frame 10, values 9000..15000".to_string()
                ),
                (
                    false,
                    "frame 130: 17000 (of 3 lines from frame 10)".to_string()
                ),
                (true, "2 lines from frame 10, values 60..60".to_string()),
                (true, "1 lines from frame 130, values 59..59".to_string()),
                (
                    false,
                    "frame 140: no number after the text: \"perf frame_us_max=none\"".to_string()
                ),
                (false, "no line in frames 300..400".to_string()),
            ]
        );
        let s = Script::parse("expect \"x=\" <= 5 from 3 by 9").unwrap();
        assert_eq!(s.length(), Some(9));
        for bad in [
            "expect \"x=\" <= five by 9",
            "expect \"x=\" <= 5 from 10 by 9",
            "expect \"x=\" <= 5",
        ] {
            assert!(Script::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn bits_of_a_hex_number() {
        let lines = [
            (3, "pif boot-done 00000008"),
            (40, "pif boot-done 0x0000000c"),
            (80, "pif boot-done 00000001"),
            (90, "pif boot-done none"),
        ];
        let results = checked(
            r#"expect "pif boot-done " has bits 0x8 by 50
expect "pif boot-done " has bits 0xC from 30 by 50
expect "pif boot-done " has bits 0x8 by 85
expect "pif boot-done " has bits 0x1 from 85 by 95
expect "pif boot-done " has bits 0x8 from 100 by 200
"#,
            &lines,
            200,
        );
        assert_eq!(
            results,
            [
                (true, "2 lines, each with bits 0x8 set".to_string()),
                (true, "1 lines, each with bits 0xc set".to_string()),
                (false, "frame 80: 0x00000001 lacks bits 0x8".to_string()),
                (
                    false,
                    "frame 90: no hexadecimal number after the text: \"pif boot-done none\""
                        .to_string()
                ),
                (false, "no line in frames 100..200".to_string()),
            ]
        );
        let s = Script::parse("expect \"x \" has bits 0x8 from 3 by 9").unwrap();
        assert_eq!(s.length(), Some(9));
        for bad in [
            "expect \"x \" has bits eight by 9",
            "expect \"x \" has bits 0x8",
            "expect \"x \" has 0x8 by 9",
            "expect \"x \" has bits 0x8 from 10 by 9",
        ] {
            assert!(Script::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn gaps() {
        assert!(gap_check(10, 0, 30, &[10, 20], "x").0);
        let (ok, detail) = gap_check(10, 0, 30, &[10, 25], "ticks");
        assert!(!ok);
        assert_eq!(
            detail,
            "2 ticks in frames 0..30, but none in frames 10..25 (15 frames)"
        );
        // The stretch after the last event counts too.
        assert!(!gap_check(10, 0, 31, &[10, 20], "x").0);
        assert_eq!(
            gap_check(10, 5, 30, &[], "ticks").1,
            "no ticks in frames 5..30"
        );
    }

    #[test]
    fn every_sequence_count_absent() {
        let lines = [
            (0, "boot"),
            (2, "screen menu"),
            (60, "heartbeat 60"),
            (90, "screen game"),
            (95, "move X b2"),
            (100, "move O a1"),
            (120, "heartbeat 120"),
            (200, "heartbeat 200"),
            (210, "result x-wins"),
        ];
        let results = checked(
            r#"expect heartbeat every 80
expect heartbeat every 60
expect "move X b2" after "screen game"
expect "screen game" after "move X b2"
expect sequence "boot" "screen game" "move " "move " "result"
expect sequence "boot" "move " "move " "move "
expect count "move " = 2
expect count "move " >= 3
expect "result" not by 200
expect "result" not by 210
expect no "move" from 101 by 240
expect "heartbeat" every 80 from 100 to 150
"#,
            &lines,
            240,
        );
        let passed: Vec<bool> = results.iter().map(|r| r.0).collect();
        assert_eq!(
            passed,
            [true, false, true, false, true, false, true, false, true, false, true, true],
            "{results:#?}"
        );
        assert!(
            results[1].1.contains("none in frames 120..200"),
            "{}",
            results[1].1
        );
        assert!(results[3].1.contains("only before"), "{}", results[3].1);
        assert_eq!(results[4].1, "at frames 0, 90, 95, 100, 210");
        assert_eq!(results[6].1, "2 lines (frames 95..100)");
        assert!(results[9].1.contains("frame 210"), "{}", results[9].1);
        // A run that ends early cannot prove absence up to a later frame.
        let r = checked("expect \"zzz\" not by 500\n", &lines, 240);
        assert!(!r[0].0 && r[0].1.contains("ended at frame 240"));
    }

    #[test]
    fn screen_changes() {
        let c = ScreenChanges {
            period: 100,
            from: 50,
            to: None,
            line: 1,
        };
        let changes = [10, 60, 140, 230, 300];
        let r = check_screen(&c, &changes, 390);
        assert!(r.passed, "{}", r.detail);
        let r = check_screen(&c, &changes, 420);
        assert!(!r.passed);
        assert!(r.detail.contains("none in frames 300..420"), "{}", r.detail);
        let c = ScreenChanges { to: Some(200), ..c };
        assert!(check_screen(&c, &[], 1000).detail.contains("no changes"));
    }

    #[test]
    fn failure_shows_the_last_log_lines() {
        let lines: Vec<(u32, String)> = (0..30).map(|i| (i * 10, format!("line {i}"))).collect();
        let mut r = report(&[], 300);
        r.is_lines = lines;
        assert!(!r.format().contains("IS-Viewer lines"));
        r.checks.push(CheckResult {
            line: 1,
            passed: false,
            what: "x".into(),
            detail: "y".into(),
        });
        let text = r.format();
        assert!(text.contains("last 20 of 30 IS-Viewer lines:"), "{text}");
        assert!(
            text.contains("[   100] line 10") && !text.contains("line 9\n"),
            "{text}"
        );
    }

    #[test]
    fn names_of_buttons() {
        assert_eq!(button_names(0), "none");
        assert_eq!(
            button_names(Button::A.mask() | Button::Start.mask()),
            "A+START"
        );
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
