//! What a parsed script is: its settings, the events scheduled at frames
//! and the expectations checked after the run.
//!
//! Frames count vertical interrupts since power-on (frame 0 is before the
//! first one). Everything scheduled `at F` happens when the F-th vertical
//! interrupt arrives, in the order the lines appear in the script.

use super::names::{CpuMode, Pak};
use crate::expect::audio::{AudioCheck, AudioExpect, AudioWindow};
use crate::expect::screen::ScreenChanges;
use crate::expect::text::TextExpect;
use std::path::PathBuf;

/// Frames a `press` holds its buttons unless `for N` says otherwise: about
/// a tenth of a second, a quick human tap. Long enough for a ROM whose main
/// loop polls the controllers only every few frames.
pub const DEFAULT_PRESS_FRAMES: u32 = 6;

/// Per-channel tolerance of `expect pixel` unless `within N` says otherwise.
/// Covers the loss of 5-bit colour (RGBA5551) with any rounding.
pub const DEFAULT_PIXEL_TOLERANCE: u8 = 8;

/// Largest frame number a script may name (about 46 hours of NTSC video).
pub const MAX_FRAME: u32 = 10_000_000;

/// Something that happens at one frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Hold buttons (a `BUTTONS.Value` mask) on a port (0-based).
    Hold { port: u8, mask: u32 },
    /// Release buttons on a port.
    Release { port: u8, mask: u32 },
    /// Set the analog stick of a port.
    Stick { port: u8, x: i8, y: i8 },
    /// Connect a controller to a port.
    Plug { port: u8 },
    /// Disconnect the controller of a port.
    Unplug { port: u8 },
    /// Put a pak into the controller of a port (or, with `Pak::None`,
    /// take it out).
    Pak { port: u8, pak: Pak },
    /// Write a PNG of the framebuffer to this path (relative to --out).
    Shot { path: PathBuf },
    /// Print the u32 at this address.
    Peek { addr: u32 },
    /// The framebuffer pixel must have this colour.
    ExpectPixel {
        x: u32,
        y: u32,
        rgb: [u8; 3],
        tolerance: u8,
    },
    /// Every pixel (`all`) or at least one pixel (`!all`) of the rectangle
    /// must have this colour.
    ExpectRect {
        x: u32,
        y: u32,
        w: u32,
        h: u32,
        all: bool,
        rgb: [u8; 3],
        tolerance: u8,
    },
    /// The u32 in RDRAM at `addr` must equal `value`.
    ExpectU32 { addr: u32, value: u32 },
    /// Press the console's reset button (`hard: false`, `M64CMD_RESET` 0),
    /// or switch the console off and on (`hard: true`, `M64CMD_RESET` 1).
    /// EEPROM keeps its content either way.
    Reset { hard: bool },
}

impl Action {
    pub fn is_expectation(&self) -> bool {
        matches!(
            self,
            Action::ExpectPixel { .. } | Action::ExpectRect { .. } | Action::ExpectU32 { .. }
        )
    }
}

/// An action with the frame it happens at and the script line it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub frame: u32,
    pub line: usize,
    pub action: Action,
}

/// `random on PORTS from A to B seed S`: seeded pseudo-random input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomInput {
    /// 0-based ports.
    pub ports: Vec<u8>,
    /// First frame with random input.
    pub from: u32,
    /// At this frame everything is released and re-plugged.
    pub to: u32,
    pub seed: u64,
    /// The buttons it may press (`BUTTONS.Value` mask).
    pub buttons: u32,
    /// Stick movements too (default; `no-stick` turns them off).
    pub stick: bool,
    /// Occasionally pull a controller out and plug it back in.
    pub unplug: bool,
    pub line: usize,
}

/// A parsed script.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    pub rom: Option<PathBuf>,
    pub cpu: Option<CpuMode>,
    /// `run N`: the number of frames to run.
    pub run: Option<u32>,
    /// Events in script order (stable-sorted by frame when run).
    pub events: Vec<Event>,
    pub texts: Vec<TextExpect>,
    /// `expect screen changes every N`.
    pub screen: Vec<ScreenChanges>,
    /// `random on ...`.
    pub randoms: Vec<RandomInput>,
    /// `expect audio ...`.
    pub audio: Vec<AudioExpect>,
    /// `trace FILE`: write every IS-Viewer line (and the harness's own
    /// input changes) there, relative to --out.
    pub trace: Option<PathBuf>,
}

/// A script error, with the 1-based line number it is about.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ScriptError {
    pub line: usize,
    pub message: String,
}
impl Script {
    /// Number of frames to run: `run N`, or else the last frame any line
    /// refers to. `None` when the script names no frame at all.
    pub fn length(&self) -> Option<u32> {
        self.run.or_else(|| self.last_frame())
    }

    /// The last frame any event or expectation refers to.
    pub fn last_frame(&self) -> Option<u32> {
        let events = self.events.iter().map(|e| e.frame);
        events.chain(self.frames_named().map(|(_, f)| f)).max()
    }

    /// Frames named by lines other than events, with their line numbers.
    fn frames_named(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        let texts = self.texts.iter().filter_map(|t| match t {
            TextExpect::Seen { by, line, .. }
            | TextExpect::Absent { by, line, .. }
            | TextExpect::Value { by, line, .. }
            | TextExpect::Bits { by, line, .. } => Some((*line, *by)),
            TextExpect::Every { to, line, .. } => to.map(|to| (*line, to)),
            TextExpect::Never { .. } | TextExpect::Sequence { .. } | TextExpect::Count { .. } => {
                None
            }
        });
        let screen = self
            .screen
            .iter()
            .filter_map(|s| s.to.map(|to| (s.line, to)));
        let randoms = self.randoms.iter().map(|r| (r.line, r.to));
        let audio = self.audio.iter().flat_map(|a| {
            let windows: Vec<&AudioWindow> = match &a.check {
                AudioCheck::Rate { .. } => vec![],
                AudioCheck::Silent(w) | AudioCheck::Sound(w) | AudioCheck::Continuous(w) => {
                    vec![w]
                }
                AudioCheck::Pitch { window, .. } => vec![window],
                AudioCheck::Higher { high, low } => vec![high, low],
            };
            windows
                .into_iter()
                .filter_map(|w| match w {
                    AudioWindow::Frames { to, .. } => Some((a.line, *to)),
                    AudioWindow::Line { .. } => None,
                })
                .collect::<Vec<_>>()
        });
        texts.chain(screen).chain(randoms).chain(audio)
    }

    /// Check that the run is long enough for everything the script names.
    /// `frames` is the run length after command-line overrides.
    pub fn check_length(&self, frames: u32) -> Result<(), ScriptError> {
        for e in &self.events {
            if e.frame > frames {
                return Err(ScriptError {
                    line: e.line,
                    message: format!("frame {} is after the end of the run ({frames})", e.frame),
                });
            }
        }
        for (line, f) in self.frames_named() {
            if f > frames {
                return Err(ScriptError {
                    line,
                    message: format!("frame {f} is after the end of the run ({frames})"),
                });
            }
        }
        Ok(())
    }

    /// Number of checks (expectations) the script makes.
    pub fn expectation_count(&self) -> usize {
        self.texts.len()
            + self.screen.len()
            + self.audio.len()
            + self
                .events
                .iter()
                .filter(|e| e.action.is_expectation())
                .count()
    }

    pub(super) fn push(&mut self, frame: u32, line: usize, action: Action) {
        self.events.push(Event {
            frame,
            line,
            action,
        });
    }
}
