//! The state of a run at the current frame, and what happens each frame:
//! the script's input changes, screenshots, picture and memory checks, and
//! the `random` input.

use crate::audio::Capture;
use crate::emu::Hooks;
use crate::expect::picture;
use crate::expect::CheckResult;
use crate::framebuffer::{self, Image, ViRegs};
use crate::random::{Change, Generator};
use crate::script::{Action, Button, Event, Pak};
use m64p_abi::m64p;
use std::ffi::c_int;
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::PathBuf;

/// The port state the input plugin reads.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Port {
    pub(super) buttons: u32,
    pub(super) x: i8,
    pub(super) y: i8,
}

impl Port {
    /// `BUTTONS.Value`: buttons in bits 0..14, stick X in 16..24, Y in 24..32.
    pub(super) fn value(&self) -> u32 {
        self.buttons | (u32::from(self.x as u8) << 16) | (u32::from(self.y as u8) << 24)
    }
}

/// Everything a run's callbacks share: the script's schedule and what the
/// run has produced so far.
pub(super) struct State {
    pub(super) frame: u32,
    pub(super) end: u32,
    pub(super) events: Vec<Event>,
    pub(super) next: usize,
    pub(super) ports: [Port; 4],
    pub(super) present: [bool; 4],
    /// The Rumble Pak motor of each port, as the core last reported it.
    pub(super) rumble: [bool; 4],
    /// IS-Viewer lines, and the harness's own lines (`> rumble 1 on`),
    /// with the frame each arrived in.
    pub(super) is_lines: Vec<(u32, String)>,
    pub(super) checks: Vec<CheckResult>,
    pub(super) errors: Vec<String>,
    pub(super) out_dir: PathBuf,
    /// `random` lines.
    pub(super) generators: Vec<Generator>,
    /// Frame windows in which to hash the framebuffer.
    pub(super) screen_windows: Vec<(u32, u32)>,
    pub(super) last_hash: Option<u64>,
    pub(super) screen_changes: Vec<u32>,
    pub(super) audio: Capture,
    pub(super) trace: Option<BufWriter<File>>,
    /// Print IS-Viewer lines and resets as they come.
    pub(super) log: bool,
    pub(super) stopping: bool,
    /// The speed limiter is still on (setting it before Execute failed).
    pub(super) limiter_on: bool,
}
/// The current frame as seen by the VI: RDRAM and registers.
pub(super) struct Screen<'a> {
    pub(super) ram: &'a [u8],
    pub(super) vi: ViRegs,
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

    fn set_pak(&mut self, port: u8, pak: Pak, hooks: &Hooks) -> c_int {
        // SAFETY: plain integers; the plugin only stores them.
        unsafe { (hooks.input_set_pak)(c_int::from(port), pak.control_plugin()) }
    }

    /// The core started (`on`) or stopped the Rumble Pak motor of `port`
    /// (0-based). A change of state becomes a harness line in the log,
    /// `> rumble P on` or `> rumble P off`, which the text expectations
    /// see like the ROM's own lines (and the trace and --log show); the
    /// core's repeated writes of the same state (and the stop it sends
    /// when a pak is plugged in) only go into the trace, as
    /// `rumble P off (unchanged)`.
    pub(super) fn rumble(&mut self, port: usize, on: bool) {
        let Some(motor) = self.rumble.get_mut(port) else {
            return;
        };
        let what = format!("rumble {} {}", port + 1, if on { "on" } else { "off" });
        if *motor == on {
            self.trace_only(format_args!("{what} (unchanged)"));
            return;
        }
        *motor = on;
        self.note(&what);
        let frame = self.frame;
        self.is_lines.push((frame, format!("> {what}")));
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
    pub(super) fn track_screen(&mut self, screen: &Screen<'_>) {
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
pub(super) fn step(st: &mut State, screen: Option<&Screen<'_>>, hooks: &Hooks) {
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
                Action::Pak { port, pak } => Some(format!("port {} pak {}", port + 1, pak.name())),
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
            Action::Pak { port, pak } => {
                if st.set_pak(*port, *pak, hooks) != 0 {
                    st.errors.push(format!(
                        "line {}: the input plugin refused pak {} on port {}",
                        event.line,
                        pak.name(),
                        port + 1
                    ));
                }
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
                let (passed, detail) = picture::check_pixel(img, (*x, *y), *rgb, *tolerance);
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
                    Ok(img) => picture::check_rect(img, (*x, *y, *w, *h), *all, *rgb, *tolerance),
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
                let (passed, detail) = picture::check_u32(got, screen.is_some(), *value);
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

pub(super) fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Human-readable form of a frame-bound action.
pub(super) fn describe(action: &Action, frame: u32) -> String {
    match action {
        Action::ExpectPixel {
            x,
            y,
            rgb,
            tolerance,
        } => format!(
            "expect pixel {x},{y} is {} within {tolerance} at {frame}",
            picture::hex(*rgb)
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
            picture::hex(*rgb)
        ),
        Action::ExpectU32 { addr, value } => {
            format!("expect u32 {addr:#010x} is {value:#010x} at {frame}")
        }
        other => format!("{other:?} at {frame}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expect::text;
    use crate::script::Script;

    fn state() -> State {
        State {
            frame: 0,
            end: 600,
            events: Vec::new(),
            next: 0,
            ports: [Port::default(); 4],
            present: [true; 4],
            rumble: [false; 4],
            is_lines: Vec::new(),
            checks: Vec::new(),
            errors: Vec::new(),
            out_dir: PathBuf::new(),
            generators: Vec::new(),
            screen_windows: Vec::new(),
            last_hash: None,
            screen_changes: Vec::new(),
            audio: Capture::default(),
            trace: None,
            log: false,
            stopping: false,
            limiter_on: false,
        }
    }

    #[test]
    fn rumble_changes_become_harness_lines() {
        let mut st = state();
        st.is_lines.push((250, "move X b2".into()));
        // (frame, port, on) as the core reports them: the stop of a pak
        // plugged in, a start, the same start again, a stop, another port.
        for (frame, port, on) in [
            (0, 0, false),
            (310, 0, true),
            (311, 0, true),
            (325, 0, false),
            (400, 1, true),
            (420, 1, false),
            (430, 4, true),
        ] {
            st.frame = frame;
            st.rumble(port, on);
        }
        let expected: Vec<(u32, String)> = [
            (250, "move X b2"),
            (310, "> rumble 1 on"),
            (325, "> rumble 1 off"),
            (400, "> rumble 2 on"),
            (420, "> rumble 2 off"),
        ]
        .iter()
        .map(|(f, l)| (*f, l.to_string()))
        .collect();
        assert_eq!(st.is_lines, expected);
        let script = Script::parse(
            r#"expect "rumble 1 on" from 300 by 330
expect "> rumble 1 off" from 300 by 330
expect count "rumble 1 on" = 1
expect count "> rumble " = 4
expect sequence "move X" "rumble 1 on" "rumble 1 off" "rumble 2 on"
expect "rumble 2 on" after "rumble 1 off"
expect no "rumble 3"
expect no "rumble" from 0 by 300
expect "rumble 1 on" by 300
"#,
        )
        .unwrap();
        let results: Vec<bool> = text::check(&script.texts, &st.is_lines, 600)
            .iter()
            .map(|c| c.passed)
            .collect();
        assert_eq!(
            results,
            [true, true, true, true, true, true, true, true, false]
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
