//! The test script format (see `README.md` for the user-facing description).
//!
//! One command per line; `#` starts a comment line. Frames count vertical
//! interrupts since power-on (frame 0 is before the first one). Everything
//! scheduled `at F` happens when the F-th vertical interrupt arrives, in the
//! order the lines appear in the script.

use std::fmt;
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

/// The CPU core of mupen64plus (`Core/R4300Emulator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CpuMode {
    /// Pure interpreter (0).
    Pure,
    /// Cached interpreter (1).
    Cached,
    /// Dynamic recompiler (2).
    Dynarec,
}

impl CpuMode {
    pub const ALL: [CpuMode; 3] = [CpuMode::Pure, CpuMode::Cached, CpuMode::Dynarec];

    /// The value of `Core/R4300Emulator`.
    pub fn r4300_emulator(self) -> i32 {
        match self {
            CpuMode::Pure => 0,
            CpuMode::Cached => 1,
            CpuMode::Dynarec => 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CpuMode::Pure => "pure",
            CpuMode::Cached => "cached",
            CpuMode::Dynarec => "dynarec",
        }
    }

    pub fn from_name(name: &str) -> Option<CpuMode> {
        match name.to_ascii_lowercase().as_str() {
            "pure" | "0" => Some(CpuMode::Pure),
            "cached" | "1" => Some(CpuMode::Cached),
            "dynarec" | "2" => Some(CpuMode::Dynarec),
            _ => None,
        }
    }
}

impl fmt::Display for CpuMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Controller buttons, named as in the ROM's IS-Viewer contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    A,
    B,
    Z,
    Start,
    DUp,
    DDown,
    DLeft,
    DRight,
    L,
    R,
    CUp,
    CDown,
    CLeft,
    CRight,
}

impl Button {
    pub const ALL: [Button; 14] = [
        Button::A,
        Button::B,
        Button::Z,
        Button::Start,
        Button::DUp,
        Button::DDown,
        Button::DLeft,
        Button::DRight,
        Button::L,
        Button::R,
        Button::CUp,
        Button::CDown,
        Button::CLeft,
        Button::CRight,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Button::A => "A",
            Button::B => "B",
            Button::Z => "Z",
            Button::Start => "START",
            Button::DUp => "DUP",
            Button::DDown => "DDOWN",
            Button::DLeft => "DLEFT",
            Button::DRight => "DRIGHT",
            Button::L => "L",
            Button::R => "R",
            Button::CUp => "CUP",
            Button::CDown => "CDOWN",
            Button::CLeft => "CLEFT",
            Button::CRight => "CRIGHT",
        }
    }

    pub fn from_name(name: &str) -> Option<Button> {
        let upper = name.to_ascii_uppercase();
        Button::ALL.into_iter().find(|b| b.name() == upper)
    }

    /// The bit in mupen64plus's `BUTTONS.Value` (m64p_plugin.h bitfield
    /// order; not the joybus wire format).
    pub fn mask(self) -> u32 {
        let bit = match self {
            Button::DRight => 0,
            Button::DLeft => 1,
            Button::DDown => 2,
            Button::DUp => 3,
            Button::Start => 4,
            Button::Z => 5,
            Button::B => 6,
            Button::A => 7,
            Button::CRight => 8,
            Button::CLeft => 9,
            Button::CDown => 10,
            Button::CUp => 11,
            Button::R => 12,
            Button::L => 13,
        };
        1 << bit
    }
}

/// All button bits of `BUTTONS.Value` (the stick is in bits 16..32).
pub const ALL_BUTTONS_MASK: u32 = 0x3FFF;

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

/// An expectation about IS-Viewer output.
#[derive(Clone, Debug, PartialEq)]
pub enum TextExpect {
    /// A line containing `text` must appear in frames `from..=by`.
    Seen {
        text: String,
        from: u32,
        by: u32,
        line: usize,
    },
    /// No line containing `text` during the whole run.
    Never { text: String, line: usize },
    /// No line containing `text` in frames `from..=by`.
    Absent {
        text: String,
        from: u32,
        by: u32,
        line: usize,
    },
    /// A line containing `text` at least every `period` frames in
    /// `from..=to` (`to`: the end of the run when `None`): no gap between
    /// `from`, the matching lines and `to` is longer than `period`.
    Every {
        text: String,
        period: u32,
        from: u32,
        to: Option<u32>,
        line: usize,
    },
    /// Lines containing these texts appear in this order (each one after
    /// the line that matched the text before it).
    Sequence { texts: Vec<String>, line: usize },
    /// The number of lines containing `text` compares to `n`.
    Count {
        text: String,
        op: CountOp,
        n: usize,
        line: usize,
    },
    /// Every line containing `text` in frames `from..=by` (at least one)
    /// has a decimal number right after the text that compares to `n`
    /// (`expect "frame_us_max=" <= 16000 from 300 by 900`).
    Value {
        text: String,
        op: CountOp,
        n: u64,
        from: u32,
        by: u32,
        line: usize,
    },
    /// Every line containing `text` in frames `from..=by` (at least one)
    /// has a hexadecimal number right after the text (an optional `0x`
    /// prefix) with every bit of `mask` set
    /// (`expect "pif boot-done " has bits 0x8 by 30`).
    Bits {
        text: String,
        mask: u32,
        from: u32,
        by: u32,
        line: usize,
    },
}

/// The comparison of `expect count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountOp {
    Eq,
    AtLeast,
    AtMost,
}

impl CountOp {
    pub fn holds<T: Ord>(self, got: T, n: T) -> bool {
        match self {
            CountOp::Eq => got == n,
            CountOp::AtLeast => got >= n,
            CountOp::AtMost => got <= n,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            CountOp::Eq => "=",
            CountOp::AtLeast => ">=",
            CountOp::AtMost => "<=",
        }
    }
}

/// `expect screen changes every N`: the framebuffer's content changes at
/// least once in every `period` frames of `from..=to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScreenChanges {
    pub period: u32,
    pub from: u32,
    /// `None`: the end of the run.
    pub to: Option<u32>,
    pub line: usize,
}

/// Frames of captured audio an `expect audio` line looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AudioWindow {
    /// `from A to B`: frames `A..=B`.
    Frames { from: u32, to: u32 },
    /// `after [Nth] "text" [+D] for L`: the `L` frames from `D` frames
    /// after the N-th line containing `text` (`D` 0, the 1st unless given,
    /// e.g. `2nd`, `3rd`); `before [Nth] "text" for L`: the `L` frames
    /// before it.
    Line {
        text: String,
        nth: usize,
        before: bool,
        offset: u32,
        len: u32,
    },
}

impl fmt::Display for AudioWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AudioWindow::Frames { from, to } => write!(f, "from {from} to {to}"),
            AudioWindow::Line {
                text,
                nth,
                before,
                offset,
                len,
            } => {
                write!(f, "{}", if *before { "before" } else { "after" })?;
                if *nth != 1 {
                    let suffix = match (nth % 10, nth % 100) {
                        (_, 11..=13) => "th",
                        (1, _) => "st",
                        (2, _) => "nd",
                        (3, _) => "rd",
                        _ => "th",
                    };
                    write!(f, " {nth}{suffix}")?;
                }
                write!(f, " {text:?}")?;
                if *offset != 0 {
                    write!(f, " +{offset}")?;
                }
                write!(f, " for {len}")
            }
        }
    }
}

/// What an `expect audio` line checks.
#[derive(Clone, Debug, PartialEq)]
pub enum AudioCheck {
    /// `rate HZ [within P%]`: the sample rate the ROM programmed (from
    /// AI_DACRATE and the TV standard's clock), within `percent`.
    Rate { hz: u32, percent: f64 },
    /// `silent WINDOW`: no sample louder than the silence level (no
    /// samples at all counts as silent).
    Silent(AudioWindow),
    /// `sound WINDOW`: some sample at least at the sound level.
    Sound(AudioWindow),
    /// `continuous WINDOW`: samples played for at least 95% of the window
    /// (the ROM kept the AI fed).
    Continuous(AudioWindow),
    /// `pitch LO..HI WINDOW`: the zero-crossing frequency of the sound in
    /// the window, in Hz.
    Pitch {
        lo: u32,
        hi: u32,
        window: AudioWindow,
    },
    /// `higher WINDOW than WINDOW`: the first window's pitch is above the
    /// second's.
    Higher { high: AudioWindow, low: AudioWindow },
}

/// An `expect audio` line.
#[derive(Clone, Debug, PartialEq)]
pub struct AudioExpect {
    pub check: AudioCheck,
    pub line: usize,
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
    /// Parse a script. The first bad line is an error naming its number.
    pub fn parse(source: &str) -> Result<Script, ScriptError> {
        let mut script = Script::default();
        for (index, raw) in source.lines().enumerate() {
            let line = index + 1;
            let err = |message: String| ScriptError { line, message };
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let tokens = tokenize(trimmed).map_err(err)?;
            script.parse_line(line, &tokens).map_err(err)?;
        }
        Ok(script)
    }

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

    fn push(&mut self, frame: u32, line: usize, action: Action) {
        self.events.push(Event {
            frame,
            line,
            action,
        });
    }

    fn parse_line(&mut self, line: usize, tokens: &[Token]) -> Result<(), String> {
        let mut t = Cursor::new(tokens);
        let command = t.word("a command")?;
        match command.as_str() {
            "rom" => {
                let path = t.any("a ROM path")?;
                t.end()?;
                self.rom = Some(PathBuf::from(path));
            }
            "cpu" => {
                let name = t.word("a CPU mode")?;
                t.end()?;
                let mode = CpuMode::from_name(&name).ok_or_else(|| {
                    format!("unknown CPU mode `{name}` (expected pure, cached or dynarec)")
                })?;
                self.cpu = Some(mode);
            }
            "run" => {
                let n = parse_frame(&t.word("a frame count")?)?;
                t.end()?;
                if n == 0 {
                    return Err("`run` needs at least 1 frame".into());
                }
                self.run = Some(n);
            }
            "at" => {
                let frame = parse_frame(&t.word("a frame number")?)?;
                self.parse_at(line, frame, &mut t)?;
            }
            "plug" | "unplug" => {
                // Without `at`: the state at power-on.
                let port = parse_port(&t.word("a port (1-4)")?)?;
                t.end()?;
                let action = if command == "plug" {
                    Action::Plug { port }
                } else {
                    Action::Unplug { port }
                };
                self.push(0, line, action);
            }
            "shot" => {
                let path = t.any("a PNG file name")?;
                t.keyword("at")?;
                let frame = parse_frame(&t.word("a frame number")?)?;
                t.end()?;
                if path.is_empty() {
                    return Err("empty file name".into());
                }
                self.push(
                    frame,
                    line,
                    Action::Shot {
                        path: PathBuf::from(path),
                    },
                );
            }
            "peek" => {
                let addr = parse_u32(&t.word("an address")?)?;
                t.keyword("at")?;
                let frame = parse_frame(&t.word("a frame number")?)?;
                t.end()?;
                self.push(frame, line, Action::Peek { addr });
            }
            "expect" => self.parse_expect(line, &mut t)?,
            "random" => self.parse_random(line, &mut t)?,
            "trace" => {
                let path = t.any("a log file name")?;
                t.end()?;
                if path.is_empty() {
                    return Err("empty file name".into());
                }
                self.trace = Some(PathBuf::from(path));
            }
            other => return Err(format!("unknown command `{other}`")),
        }
        Ok(())
    }

    fn parse_at(&mut self, line: usize, frame: u32, t: &mut Cursor<'_>) -> Result<(), String> {
        let verb = t.word(
            "an action (press, hold, release, stick, plug, unplug, shot, reset, power-cycle)",
        )?;
        match verb.as_str() {
            "press" | "hold" | "release" => {
                let buttons = t.word("buttons, e.g. A or A+START")?;
                let mask = if verb == "release" && buttons.eq_ignore_ascii_case("all") {
                    ALL_BUTTONS_MASK
                } else {
                    parse_buttons(&buttons)?
                };
                t.keyword("on")?;
                let port = parse_port(&t.word("a port (1-4)")?)?;
                let mut duration = DEFAULT_PRESS_FRAMES;
                if verb == "press" && t.peek_word() == Some("for") {
                    t.keyword("for")?;
                    duration = parse_frame(&t.word("a number of frames")?)?;
                    if duration == 0 {
                        return Err("`press ... for` needs at least 1 frame".into());
                    }
                }
                t.end()?;
                match verb.as_str() {
                    "press" => {
                        let release = frame
                            .checked_add(duration)
                            .filter(|f| *f <= MAX_FRAME)
                            .ok_or_else(|| format!("release frame beyond {MAX_FRAME}"))?;
                        self.push(frame, line, Action::Hold { port, mask });
                        self.push(release, line, Action::Release { port, mask });
                    }
                    "hold" => self.push(frame, line, Action::Hold { port, mask }),
                    _ => self.push(frame, line, Action::Release { port, mask }),
                }
            }
            "stick" => {
                let x = parse_axis(&t.word("a stick X (-128..127)")?)?;
                let y = parse_axis(&t.word("a stick Y (-128..127)")?)?;
                t.keyword("on")?;
                let port = parse_port(&t.word("a port (1-4)")?)?;
                t.end()?;
                self.push(frame, line, Action::Stick { port, x, y });
            }
            "plug" | "unplug" => {
                let port = parse_port(&t.word("a port (1-4)")?)?;
                t.end()?;
                let action = if verb == "plug" {
                    Action::Plug { port }
                } else {
                    Action::Unplug { port }
                };
                self.push(frame, line, action);
            }
            "shot" => {
                let path = t.any("a PNG file name")?;
                t.end()?;
                self.push(
                    frame,
                    line,
                    Action::Shot {
                        path: PathBuf::from(path),
                    },
                );
            }
            "reset" | "power-cycle" => {
                t.end()?;
                if frame == 0 {
                    return Err(format!(
                        "`{verb}` needs a frame after power-on (at least 1)"
                    ));
                }
                let hard = verb == "power-cycle";
                self.push(frame, line, Action::Reset { hard });
            }
            other => return Err(format!("unknown action `{other}` after `at {frame}`")),
        }
        Ok(())
    }

    fn parse_expect(&mut self, line: usize, t: &mut Cursor<'_>) -> Result<(), String> {
        match t.peek() {
            Some(Token::Quoted(_)) => {
                let text = t.quoted()?;
                match t.peek_word() {
                    Some("every") => return self.parse_every(line, text, t),
                    Some("after") => {
                        t.keyword("after")?;
                        let before = t.quoted()?;
                        t.end()?;
                        self.texts.push(TextExpect::Sequence {
                            texts: vec![before, text],
                            line,
                        });
                        return Ok(());
                    }
                    Some(op @ ("=" | "==" | "<=" | ">=")) => {
                        let op = match op {
                            "<=" => CountOp::AtMost,
                            ">=" => CountOp::AtLeast,
                            _ => CountOp::Eq,
                        };
                        t.pos += 1;
                        let w = t.word("a number")?;
                        let n = w.parse().map_err(|_| format!("bad number `{w}`"))?;
                        let (from, by) = from_by_end(t)?;
                        self.texts.push(TextExpect::Value {
                            text,
                            op,
                            n,
                            from,
                            by,
                            line,
                        });
                        return Ok(());
                    }
                    Some("has") => {
                        t.keyword("has")?;
                        t.keyword("bits")?;
                        let mask = parse_u32(&t.word("a bit mask")?)?;
                        let (from, by) = from_by_end(t)?;
                        self.texts.push(TextExpect::Bits {
                            text,
                            mask,
                            from,
                            by,
                            line,
                        });
                        return Ok(());
                    }
                    Some("not") => {
                        t.keyword("not")?;
                        t.keyword("by")?;
                        let by = parse_frame(&t.word("a frame number")?)?;
                        t.end()?;
                        self.texts.push(TextExpect::Absent {
                            text,
                            from: 0,
                            by,
                            line,
                        });
                        return Ok(());
                    }
                    _ => {}
                }
                let (from, by) = from_by_end(t)?;
                self.texts.push(TextExpect::Seen {
                    text,
                    from,
                    by,
                    line,
                });
            }
            Some(Token::Word(w)) if w == "no" => {
                t.keyword("no")?;
                let text = t.quoted()?;
                if t.peek().is_none() {
                    self.texts.push(TextExpect::Never { text, line });
                    return Ok(());
                }
                let (from, by) = from_by_end(t)?;
                self.texts.push(TextExpect::Absent {
                    text,
                    from,
                    by,
                    line,
                });
            }
            Some(Token::Word(w)) if w == "sequence" => {
                t.keyword("sequence")?;
                let mut texts = Vec::new();
                while t.peek().is_some() {
                    texts.push(t.quoted()?);
                }
                if texts.len() < 2 {
                    return Err("`expect sequence` needs at least two \"texts\"".into());
                }
                self.texts.push(TextExpect::Sequence { texts, line });
            }
            Some(Token::Word(w)) if w == "count" => {
                t.keyword("count")?;
                let text = t.quoted()?;
                let op = match t.word("`=`, `>=` or `<=`")?.as_str() {
                    "=" | "==" => CountOp::Eq,
                    ">=" => CountOp::AtLeast,
                    "<=" => CountOp::AtMost,
                    other => return Err(format!("expected `=`, `>=` or `<=`, found `{other}`")),
                };
                let w = t.word("a number of lines")?;
                let n = w
                    .parse()
                    .map_err(|_| format!("bad number of lines `{w}`"))?;
                t.end()?;
                self.texts.push(TextExpect::Count { text, op, n, line });
            }
            Some(Token::Word(w)) if w == "audio" => {
                t.keyword("audio")?;
                let check = parse_audio(t)?;
                self.audio.push(AudioExpect { check, line });
            }
            Some(Token::Word(w)) if w == "screen" => {
                t.keyword("screen")?;
                t.keyword("changes")?;
                let (period, from, to) = parse_every_window(t)?;
                self.screen.push(ScreenChanges {
                    period,
                    from,
                    to,
                    line,
                });
            }
            Some(Token::Word(w))
                if t.tokens.get(t.pos + 1) == Some(&Token::Word("every".into())) =>
            {
                // `expect heartbeat every 120`: a bare word is the text.
                let text = w.clone();
                t.pos += 1;
                return self.parse_every(line, text, t);
            }
            Some(Token::Word(w)) if w == "pixel" => {
                t.keyword("pixel")?;
                let (x, y) = parse_point(&t.word("a pixel position X,Y")?)?;
                t.keyword("is")?;
                let rgb = parse_colour(&t.word("a colour #rrggbb")?)?;
                let tolerance = parse_within(t)?;
                t.keyword("at")?;
                let frame = parse_frame(&t.word("a frame number")?)?;
                t.end()?;
                self.push(
                    frame,
                    line,
                    Action::ExpectPixel {
                        x,
                        y,
                        rgb,
                        tolerance,
                    },
                );
            }
            Some(Token::Word(w)) if w == "rect" => {
                t.keyword("rect")?;
                let (x, y) = parse_point(&t.word("a corner X,Y")?)?;
                let (w, h) = parse_size(&t.word("a size WxH")?)?;
                let all = match t.word("`is` or `has`")?.as_str() {
                    "is" => true,
                    "has" => false,
                    other => return Err(format!("expected `is` or `has`, found `{other}`")),
                };
                let rgb = parse_colour(&t.word("a colour #rrggbb")?)?;
                let tolerance = parse_within(t)?;
                t.keyword("at")?;
                let frame = parse_frame(&t.word("a frame number")?)?;
                t.end()?;
                self.push(
                    frame,
                    line,
                    Action::ExpectRect {
                        x,
                        y,
                        w,
                        h,
                        all,
                        rgb,
                        tolerance,
                    },
                );
            }
            Some(Token::Word(w)) if w == "u32" => {
                t.keyword("u32")?;
                let addr = parse_u32(&t.word("an address")?)?;
                if addr % 4 != 0 {
                    return Err(format!("address {addr:#x} is not 4-byte aligned"));
                }
                t.keyword("is")?;
                let value = parse_u32(&t.word("a value")?)?;
                t.keyword("at")?;
                let frame = parse_frame(&t.word("a frame number")?)?;
                t.end()?;
                self.push(frame, line, Action::ExpectU32 { addr, value });
            }
            _ => {
                return Err(
                    "expected `\"text\" by F`, `\"text\" <= N by F`, `\"text\" every N`, `\"text\" after \"text\"`, `\"text\" not by F`, `no \"text\"`, `sequence \"a\" \"b\"...`, `count \"text\" = N`, `screen changes every N`, `pixel X,Y is #rrggbb at F`, `rect X,Y WxH is|has #rrggbb at F`, `u32 ADDR is V at F` or `audio ...` after `expect`"
                        .into(),
                )
            }
        }
        Ok(())
    }

    /// `every N [from A] [to B]` after the text.
    fn parse_every(&mut self, line: usize, text: String, t: &mut Cursor<'_>) -> Result<(), String> {
        let (period, from, to) = parse_every_window(t)?;
        self.texts.push(TextExpect::Every {
            text,
            period,
            from,
            to,
            line,
        });
        Ok(())
    }

    /// `random on PORTS from A to B seed S [buttons B+B] [no-stick] [with-unplug]`
    fn parse_random(&mut self, line: usize, t: &mut Cursor<'_>) -> Result<(), String> {
        t.keyword("on")?;
        let list = t.word("ports, e.g. 1,2,3,4")?;
        let mut ports = Vec::new();
        for p in list.split(',') {
            let port = parse_port(p)?;
            if ports.contains(&port) {
                return Err(format!("port {p} listed twice"));
            }
            ports.push(port);
        }
        t.keyword("from")?;
        let from = parse_frame(&t.word("a frame number")?)?;
        t.keyword("to")?;
        let to = parse_frame(&t.word("a frame number")?)?;
        if from >= to {
            return Err(format!("`from {from}` must be before `to {to}`"));
        }
        t.keyword("seed")?;
        let w = t.word("a seed (a number)")?;
        let seed = w
            .parse::<u64>()
            .map_err(|_| format!("bad seed `{w}` (expected a number)"))?;
        let mut random = RandomInput {
            ports,
            from,
            to,
            seed,
            buttons: ALL_BUTTONS_MASK,
            stick: true,
            unplug: false,
            line,
        };
        while let Some(option) = t.peek_word() {
            match option {
                "with-unplug" => random.unplug = true,
                "no-stick" => random.stick = false,
                "buttons" => {
                    t.keyword("buttons")?;
                    random.buttons = parse_buttons(&t.word("buttons, e.g. A+B+START")?)?;
                    continue;
                }
                other => {
                    return Err(format!(
                        "unexpected `{other}` (options: buttons A+B..., no-stick, with-unplug)"
                    ))
                }
            }
            t.pos += 1;
        }
        t.end()?;
        self.randoms.push(random);
        Ok(())
    }
}

/// After `expect audio`: `rate HZ [within P%]`, `silent W`, `sound W`,
/// `continuous W`, `pitch LO..HI W`, `higher W than W`.
fn parse_audio(t: &mut Cursor<'_>) -> Result<AudioCheck, String> {
    let check = match t
        .word("`rate`, `silent`, `sound`, `continuous`, `pitch` or `higher`")?
        .as_str()
    {
        "rate" => {
            let w = t.word("a sample rate in Hz")?;
            let hz: u32 = w
                .parse()
                .ok()
                .filter(|hz| *hz > 0)
                .ok_or_else(|| format!("bad sample rate `{w}`"))?;
            let mut percent = 1.0;
            if t.peek_word() == Some("within") {
                t.keyword("within")?;
                let w = t.word("a tolerance like 1%")?;
                percent = w
                    .strip_suffix('%')
                    .and_then(|p| p.parse::<f64>().ok())
                    .filter(|p| (0.0..=100.0).contains(p))
                    .ok_or_else(|| format!("bad tolerance `{w}` (expected e.g. 0.5%)"))?;
            }
            AudioCheck::Rate { hz, percent }
        }
        "silent" => AudioCheck::Silent(parse_audio_window(t)?),
        "sound" => AudioCheck::Sound(parse_audio_window(t)?),
        "continuous" => AudioCheck::Continuous(parse_audio_window(t)?),
        "pitch" => {
            let w = t.word("a frequency range LO..HI in Hz")?;
            let bad = || format!("bad frequency range `{w}` (expected LO..HI, e.g. 1200..1450)");
            let (lo, hi) = w.split_once("..").ok_or_else(bad)?;
            let lo: u32 = lo.parse().map_err(|_| bad())?;
            let hi: u32 = hi.parse().map_err(|_| bad())?;
            if lo > hi {
                return Err(bad());
            }
            AudioCheck::Pitch {
                lo,
                hi,
                window: parse_audio_window(t)?,
            }
        }
        "higher" => {
            let high = parse_audio_window(t)?;
            t.keyword("than")?;
            let low = parse_audio_window(t)?;
            AudioCheck::Higher { high, low }
        }
        other => {
            return Err(format!(
                "unknown audio check `{other}` (expected rate, silent, sound, continuous, pitch or higher)"
            ))
        }
    };
    t.end()?;
    Ok(check)
}

/// `from A to B`, `after [Nth] "text" [+D] for L` or `before [Nth] "text" for L`.
fn parse_audio_window(t: &mut Cursor<'_>) -> Result<AudioWindow, String> {
    match t.word("`from`, `after` or `before`")?.as_str() {
        "from" => {
            let from = parse_frame(&t.word("a frame number")?)?;
            t.keyword("to")?;
            let to = parse_frame(&t.word("a frame number")?)?;
            if to < from {
                return Err(format!("`to {to}` is before `from {from}`"));
            }
            Ok(AudioWindow::Frames { from, to })
        }
        kw @ ("after" | "before") => {
            let before = kw == "before";
            let mut nth = 1;
            if let Some(w) = t.peek_word() {
                nth = parse_ordinal(w)?;
                t.pos += 1;
            }
            let text = t.quoted()?;
            let mut offset = 0;
            if let Some(d) = t.peek_word().and_then(|w| w.strip_prefix('+')) {
                if before {
                    return Err("`before` windows take no `+D` offset".into());
                }
                offset = parse_frame(d)?;
                t.pos += 1;
            }
            t.keyword("for")?;
            let len = parse_frame(&t.word("a number of frames")?)?;
            if len == 0 {
                return Err("an audio window needs at least 1 frame".into());
            }
            Ok(AudioWindow::Line {
                text,
                nth,
                before,
                offset,
                len,
            })
        }
        other => Err(format!(
            "expected a window (`from A to B`, `after \"text\" for N`, `before \"text\" for N`), found `{other}`"
        )),
    }
}

/// `1st`, `2nd`, `3rd`, `4th`...
fn parse_ordinal(w: &str) -> Result<usize, String> {
    let bad = || format!("expected an occurrence like 2nd or a \"quoted text\", found `{w}`");
    let digits = w
        .strip_suffix("st")
        .or_else(|| w.strip_suffix("nd"))
        .or_else(|| w.strip_suffix("rd"))
        .or_else(|| w.strip_suffix("th"))
        .ok_or_else(bad)?;
    digits.parse().ok().filter(|n| *n >= 1).ok_or_else(bad)
}

/// `every N [from A] [to B]`.
fn parse_every_window(t: &mut Cursor<'_>) -> Result<(u32, u32, Option<u32>), String> {
    t.keyword("every")?;
    let period = parse_frame(&t.word("a number of frames")?)?;
    if period == 0 {
        return Err("`every` needs at least 1 frame".into());
    }
    let mut from = 0;
    let mut to = None;
    if t.peek_word() == Some("from") {
        t.keyword("from")?;
        from = parse_frame(&t.word("a frame number")?)?;
    }
    if t.peek_word() == Some("to") {
        t.keyword("to")?;
        let end = parse_frame(&t.word("a frame number")?)?;
        if end <= from {
            return Err(format!("`to {end}` must be after `from {from}`"));
        }
        to = Some(end);
    }
    t.end()?;
    Ok((period, from, to))
}

/// A word or a double-quoted string.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Word(String),
    Quoted(String),
}

/// Split a line into words and "quoted strings" (with `\"` and `\\`).
fn tokenize(line: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next() {
                    None => return Err("unterminated string (missing closing `\"`)".into()),
                    Some('"') => break,
                    Some('\\') => match chars.next() {
                        Some(e @ ('"' | '\\')) => s.push(e),
                        Some(other) => {
                            return Err(format!("unknown escape `\\{other}` (use \\\" or \\\\)"))
                        }
                        None => return Err("unterminated string (missing closing `\"`)".into()),
                    },
                    Some(other) => s.push(other),
                }
            }
            if chars.peek().is_some_and(|c| !c.is_whitespace()) {
                return Err("missing space after closing `\"`".into());
            }
            tokens.push(Token::Quoted(s));
        } else {
            let rest: String = chars.clone().collect();
            if rest.starts_with('#') && !is_colour_word(&rest) {
                // A comment runs to the end of the line.
                break;
            }
            let mut s = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                if c == '"' {
                    return Err(format!("unexpected `\"` inside `{s}\"`"));
                }
                s.push(c);
                chars.next();
            }
            tokens.push(Token::Word(s));
        }
    }
    Ok(tokens)
}

/// Whether `rest` starts with a `#rrggbb` word (a colour, not a comment).
fn is_colour_word(rest: &str) -> bool {
    let word = rest.split(char::is_whitespace).next().unwrap_or("");
    word.len() == 7 && word[1..].chars().all(|c| c.is_ascii_hexdigit())
}

struct Cursor<'a> {
    tokens: &'a [Token],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn new(tokens: &'a [Token]) -> Self {
        Cursor { tokens, pos: 0 }
    }

    fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.pos)
    }

    fn peek_word(&self) -> Option<&'a str> {
        match self.peek() {
            Some(Token::Word(w)) => Some(w),
            _ => None,
        }
    }

    fn word(&mut self, what: &str) -> Result<String, String> {
        match self.peek() {
            Some(Token::Word(w)) => {
                self.pos += 1;
                Ok(w.clone())
            }
            Some(Token::Quoted(q)) => Err(format!("expected {what}, found \"{q}\"")),
            None => Err(format!("expected {what} at end of line")),
        }
    }

    /// A word or a quoted string (file names with spaces).
    fn any(&mut self, what: &str) -> Result<String, String> {
        match self.peek() {
            Some(Token::Word(s)) | Some(Token::Quoted(s)) => {
                self.pos += 1;
                Ok(s.clone())
            }
            None => Err(format!("expected {what} at end of line")),
        }
    }

    fn quoted(&mut self) -> Result<String, String> {
        match self.peek() {
            Some(Token::Quoted(q)) => {
                self.pos += 1;
                if q.is_empty() {
                    return Err("empty text \"\" would match every line".into());
                }
                Ok(q.clone())
            }
            Some(Token::Word(w)) => Err(format!("expected a \"quoted text\", found `{w}`")),
            None => Err("expected a \"quoted text\" at end of line".into()),
        }
    }

    fn keyword(&mut self, kw: &str) -> Result<(), String> {
        match self.peek() {
            Some(Token::Word(w)) if w == kw => {
                self.pos += 1;
                Ok(())
            }
            Some(Token::Word(w)) => Err(format!("expected `{kw}`, found `{w}`")),
            Some(Token::Quoted(q)) => Err(format!("expected `{kw}`, found \"{q}\"")),
            None => Err(format!("expected `{kw}` at end of line")),
        }
    }

    fn end(&self) -> Result<(), String> {
        match self.peek() {
            None => Ok(()),
            Some(Token::Word(w)) => Err(format!("unexpected `{w}` at end of line")),
            Some(Token::Quoted(q)) => Err(format!("unexpected \"{q}\" at end of line")),
        }
    }
}

/// `[from F] by B` ending the line: the frames F (0 if absent) and B.
fn from_by_end(t: &mut Cursor<'_>) -> Result<(u32, u32), String> {
    let mut from = 0;
    if t.peek_word() == Some("from") {
        t.keyword("from")?;
        from = parse_frame(&t.word("a frame number")?)?;
    }
    t.keyword("by")?;
    let by = parse_frame(&t.word("a frame number")?)?;
    t.end()?;
    if from > by {
        return Err(format!("`from {from}` is after `by {by}`"));
    }
    Ok((from, by))
}

fn parse_frame(s: &str) -> Result<u32, String> {
    let n: u32 = s
        .parse()
        .map_err(|_| format!("bad frame number `{s}` (expected 0-{MAX_FRAME})"))?;
    if n > MAX_FRAME {
        return Err(format!("frame {n} is beyond {MAX_FRAME}"));
    }
    Ok(n)
}

fn parse_port(s: &str) -> Result<u8, String> {
    match s {
        "1" => Ok(0),
        "2" => Ok(1),
        "3" => Ok(2),
        "4" => Ok(3),
        _ => Err(format!("bad port `{s}` (expected 1, 2, 3 or 4)")),
    }
}

fn parse_buttons(s: &str) -> Result<u32, String> {
    let mut mask = 0;
    for name in s.split('+') {
        let b = Button::from_name(name).ok_or_else(|| {
            let names: Vec<_> = Button::ALL.iter().map(|b| b.name()).collect();
            format!("unknown button `{name}` (expected {})", names.join(" "))
        })?;
        mask |= b.mask();
    }
    Ok(mask)
}

fn parse_axis(s: &str) -> Result<i8, String> {
    s.parse()
        .map_err(|_| format!("bad stick value `{s}` (expected -128..127)"))
}

fn parse_point(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("bad pixel position `{s}` (expected X,Y like 56,202)");
    let (x, y) = s.split_once(',').ok_or_else(bad)?;
    let x = x.parse().map_err(|_| bad())?;
    let y = y.parse().map_err(|_| bad())?;
    Ok((x, y))
}

/// Optional `within N` (default [`DEFAULT_PIXEL_TOLERANCE`]).
fn parse_within(t: &mut Cursor<'_>) -> Result<u8, String> {
    if t.peek_word() != Some("within") {
        return Ok(DEFAULT_PIXEL_TOLERANCE);
    }
    t.keyword("within")?;
    let w = t.word("a tolerance (0-255)")?;
    w.parse()
        .map_err(|_| format!("bad tolerance `{w}` (expected 0-255)"))
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("bad size `{s}` (expected WxH like 48x24, at least 1x1)");
    let (w, h) = s.split_once('x').ok_or_else(bad)?;
    let w: u32 = w.parse().map_err(|_| bad())?;
    let h: u32 = h.parse().map_err(|_| bad())?;
    if w == 0 || h == 0 || w > 4096 || h > 4096 {
        return Err(bad());
    }
    Ok((w, h))
}

fn parse_colour(s: &str) -> Result<[u8; 3], String> {
    let bad = || format!("bad colour `{s}` (expected #rrggbb)");
    let hex = s.strip_prefix('#').ok_or_else(bad)?;
    if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let v = u32::from_str_radix(hex, 16).map_err(|_| bad())?;
    Ok([(v >> 16) as u8, (v >> 8) as u8, v as u8])
}

/// Decimal or `0x` hexadecimal (underscores allowed), at most 32 bits.
pub fn parse_u32(s: &str) -> Result<u32, String> {
    let bad = || format!("bad number `{s}` (expected decimal or 0x hex, 32 bits)");
    let clean: String = s.chars().filter(|&c| c != '_').collect();
    if let Some(hex) = clean
        .strip_prefix("0x")
        .or_else(|| clean.strip_prefix("0X"))
    {
        u32::from_str_radix(hex, 16).map_err(|_| bad())
    } else {
        clean.parse().map_err(|_| bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err_line(src: &str) -> (usize, String) {
        let e = Script::parse(src).expect_err("should fail");
        (e.line, e.message)
    }

    #[test]
    fn full_example_parses() {
        let src = r#"
# title screen
rom target/tictactoe.z64
cpu dynarec
unplug 4
at 120 press A on 1
at 130 press A+START on 2 for 3
at 140 hold Z on 1
at 150 release all on 1
at 160 stick 80 -40 on 1
at 10 unplug 3
at 20 plug 3
shot title.png at 200
expect "screen title" by 300
expect "heartbeat" from 200 by 290
expect pixel 56,202 is #a0a0a0 at 150
expect pixel 0,0 is #102040 within 0 at 150
expect u32 0x80000300 is 1 at 5
expect no "panic"
peek 0xA0000318 at 3
run 600
"#;
        let s = Script::parse(src).unwrap();
        assert_eq!(s.rom, Some(PathBuf::from("target/tictactoe.z64")));
        assert_eq!(s.cpu, Some(CpuMode::Dynarec));
        assert_eq!(s.run, Some(600));
        assert_eq!(s.length(), Some(600));
        assert_eq!(s.expectation_count(), 6);
        let a = Button::A.mask();
        assert!(s.events.contains(&Event {
            frame: 120,
            line: 6,
            action: Action::Hold { port: 0, mask: a }
        }));
        assert!(s.events.contains(&Event {
            frame: 120 + DEFAULT_PRESS_FRAMES,
            line: 6,
            action: Action::Release { port: 0, mask: a }
        }));
        let a_start = a | Button::Start.mask();
        assert!(s.events.contains(&Event {
            frame: 133,
            line: 7,
            action: Action::Release {
                port: 1,
                mask: a_start
            }
        }));
        assert!(s.events.contains(&Event {
            frame: 0,
            line: 5,
            action: Action::Unplug { port: 3 }
        }));
        assert!(s.events.contains(&Event {
            frame: 150,
            line: 9,
            action: Action::Release {
                port: 0,
                mask: ALL_BUTTONS_MASK
            }
        }));
        assert!(s.events.contains(&Event {
            frame: 160,
            line: 10,
            action: Action::Stick {
                port: 0,
                x: 80,
                y: -40
            }
        }));
        assert!(s.events.contains(&Event {
            frame: 150,
            line: 16,
            action: Action::ExpectPixel {
                x: 56,
                y: 202,
                rgb: [0xa0, 0xa0, 0xa0],
                tolerance: DEFAULT_PIXEL_TOLERANCE
            }
        }));
        assert!(s.events.contains(&Event {
            frame: 5,
            line: 18,
            action: Action::ExpectU32 {
                addr: 0x8000_0300,
                value: 1
            }
        }));
        assert_eq!(
            s.texts[1],
            TextExpect::Seen {
                text: "heartbeat".into(),
                from: 200,
                by: 290,
                line: 15
            }
        );
        assert_eq!(
            s.texts[2],
            TextExpect::Never {
                text: "panic".into(),
                line: 19
            }
        );
    }

    #[test]
    fn rect_expectations() {
        let s = Script::parse(
            "expect rect 32,190 48x24 is #a0a0a0 at 9\nexpect rect 0,20 320x25 has #ffffff within 0 at 9",
        )
        .unwrap();
        assert_eq!(
            s.events[0].action,
            Action::ExpectRect {
                x: 32,
                y: 190,
                w: 48,
                h: 24,
                all: true,
                rgb: [0xa0; 3],
                tolerance: DEFAULT_PIXEL_TOLERANCE
            }
        );
        assert_eq!(
            s.events[1].action,
            Action::ExpectRect {
                x: 0,
                y: 20,
                w: 320,
                h: 25,
                all: false,
                rgb: [0xff; 3],
                tolerance: 0
            }
        );
        assert_eq!(s.expectation_count(), 2);
    }

    #[test]
    fn trailing_comments() {
        let s = Script::parse(
            "at 5 press A on 1 # tap A\nexpect pixel 1,2 is #a0a0a0 at 9 #grey\nrun 10 #\nexpect \"a # b\" by 9 # x",
        )
        .unwrap();
        assert_eq!(s.run, Some(10));
        assert_eq!(s.events.len(), 3);
        assert_eq!(
            s.texts[0],
            TextExpect::Seen {
                text: "a # b".into(),
                from: 0,
                by: 9,
                line: 4
            }
        );
        let e = Script::parse("expect pixel 1,2 is #a0a0 at 9").unwrap_err();
        assert!(e.message.contains("expected a colour"), "{}", e.message);
    }

    #[test]
    fn length_defaults_to_last_frame() {
        let s = Script::parse("at 10 press A on 1\nexpect \"x\" by 40\n").unwrap();
        assert_eq!(s.length(), Some(40));
        let s = Script::parse("at 40 press A on 1 for 20\n").unwrap();
        assert_eq!(s.length(), Some(60));
        let s = Script::parse("expect no \"panic\"\n").unwrap();
        assert_eq!(s.length(), None);
        let s = Script::parse("at 700 press A on 1\nrun 600\n").unwrap();
        let e = s.check_length(600).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(s.check_length(800).is_ok());
    }

    #[test]
    fn quoted_strings() {
        let s = Script::parse(r#"expect "say \"hi\" \\ there" by 5"#).unwrap();
        assert_eq!(
            s.texts[0],
            TextExpect::Seen {
                text: r#"say "hi" \ there"#.into(),
                from: 0,
                by: 5,
                line: 1
            }
        );
        let s = Script::parse("shot \"my shot.png\" at 3").unwrap();
        assert_eq!(
            s.events[0].action,
            Action::Shot {
                path: "my shot.png".into()
            }
        );
    }

    #[test]
    fn bad_lines_name_their_line() {
        let cases = [
            ("# ok\n\nfrobnicate 3\n", 3, "unknown command"),
            ("at x press A on 1", 1, "bad frame number"),
            ("at 5 press Q on 1", 1, "unknown button `Q`"),
            ("at 5 press A on 5", 1, "bad port"),
            ("at 5 press A on", 1, "expected a port"),
            ("at 5 press A 1", 1, "expected `on`"),
            ("at 5 press A on 1 extra", 1, "unexpected `extra`"),
            ("at 5 press A on 1 for 0", 1, "at least 1 frame"),
            ("at 5 stick 200 0 on 1", 1, "bad stick value"),
            ("at 5 jump on 1", 1, "unknown action"),
            ("at 5", 1, "expected an action"),
            ("cpu turbo", 1, "unknown CPU mode"),
            ("run 0", 1, "at least 1"),
            ("run -4", 1, "bad frame number"),
            ("\n\nexpect \"unterminated by 5", 3, "unterminated"),
            ("expect \"a\"b by 5", 1, "missing space"),
            ("expect \"\" by 5", 1, "empty text"),
            ("expect \"x\" by", 1, "expected a frame number"),
            ("expect \"x\" from 9 by 5", 1, "is after"),
            ("expect title by 5", 1, "expected `\"text\" by F`"),
            ("expect no panic", 1, "quoted text"),
            ("expect pixel 56 is #a0a0a0 at 5", 1, "bad pixel position"),
            ("expect pixel 1,2 is a0a0a0 at 5", 1, "bad colour"),
            ("expect pixel 1,2 is #a0a0zz at 5", 1, "expected a colour"),
            (
                "expect pixel 1,2 is #a0a0a0 within 300 at 5",
                1,
                "bad tolerance",
            ),
            ("expect u32 0x80000301 is 1 at 5", 1, "not 4-byte aligned"),
            ("expect rect 1,2 48 is #000000 at 5", 1, "bad size"),
            ("expect rect 1,2 0x4 is #000000 at 5", 1, "bad size"),
            ("expect rect 1,2 4x4 are #000000 at 5", 1, "`is` or `has`"),
            ("expect rect 1,2 4x4 is #000000", 1, "expected `at`"),
            ("expect u32 0x1_0000_0000 is 1 at 5", 1, "bad number"),
            ("shot at 5", 1, "expected `at`"),
            ("at 99999999999 press A on 1", 1, "bad frame number"),
            ("at 20000000 press A on 1", 1, "beyond"),
            ("at 9999999 press A on 1 for 5", 1, "release frame"),
            ("unplug 0", 1, "bad port"),
            ("expect \"a\\n\" by 5", 1, "unknown escape"),
        ];
        for (src, line, needle) in cases {
            let (l, msg) = err_line(src);
            assert_eq!(l, line, "{src:?}: {msg}");
            assert!(msg.contains(needle), "{src:?}: `{msg}` lacks `{needle}`");
        }
    }

    #[test]
    fn error_display_has_line_number() {
        let e = Script::parse("run 5\nbogus\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: unknown command `bogus`");
    }

    #[test]
    fn button_masks_follow_m64p_plugin_h() {
        assert_eq!(Button::DRight.mask(), 1);
        assert_eq!(Button::A.mask(), 0x80);
        assert_eq!(Button::Start.mask(), 0x10);
        assert_eq!(Button::L.mask(), 0x2000);
        let all = Button::ALL.iter().fold(0, |m, b| m | b.mask());
        assert_eq!(all, ALL_BUTTONS_MASK);
        assert_eq!(Button::from_name("start"), Some(Button::Start));
        assert_eq!(Button::from_name("cright"), Some(Button::CRight));
    }

    #[test]
    fn reset_and_power_cycle() {
        let s = Script::parse("at 300 reset\nat 400 power-cycle\n").unwrap();
        assert_eq!(
            s.events[0],
            Event {
                frame: 300,
                line: 1,
                action: Action::Reset { hard: false }
            }
        );
        assert_eq!(s.events[1].action, Action::Reset { hard: true });
        assert_eq!(s.length(), Some(400));
        assert_eq!(s.expectation_count(), 0);
        let (l, msg) = err_line("at 0 reset");
        assert_eq!(l, 1);
        assert!(msg.contains("at least 1"), "{msg}");
        assert!(err_line("at 5 reset now").1.contains("unexpected `now`"));
    }

    #[test]
    fn random_lines() {
        let s = Script::parse(
            "random on 1,2,3,4 from 100 to 20100 seed 7\nrandom on 2 from 5 to 50 seed 99 buttons A+START no-stick with-unplug\n",
        )
        .unwrap();
        assert_eq!(
            s.randoms[0],
            RandomInput {
                ports: vec![0, 1, 2, 3],
                from: 100,
                to: 20100,
                seed: 7,
                buttons: ALL_BUTTONS_MASK,
                stick: true,
                unplug: false,
                line: 1
            }
        );
        let r = &s.randoms[1];
        assert_eq!(r.ports, vec![1]);
        assert_eq!(r.buttons, Button::A.mask() | Button::Start.mask());
        assert!(!r.stick && r.unplug);
        assert_eq!(s.length(), Some(20100));
        let e = s.check_length(10_000).unwrap_err();
        assert_eq!(e.line, 1);
        for (src, needle) in [
            ("random on 1 from 5 to 5 seed 1", "must be before"),
            ("random on 1,1 from 5 to 9 seed 1", "listed twice"),
            ("random on 5 from 5 to 9 seed 1", "bad port"),
            ("random on 1 from 5 to 9", "expected `seed`"),
            ("random on 1 from 5 to 9 seed x", "bad seed"),
            (
                "random on 1 from 5 to 9 seed 1 sometimes",
                "unexpected `sometimes`",
            ),
            ("random on 1 from 5 to 9 seed 1 buttons Q", "unknown button"),
        ] {
            let (l, msg) = err_line(src);
            assert_eq!(l, 1);
            assert!(msg.contains(needle), "{src:?}: `{msg}` lacks `{needle}`");
        }
    }

    #[test]
    fn liveness_expectations() {
        let s = Script::parse(
            "expect heartbeat every 120\nexpect \"tick\" every 60 from 100 to 900\nexpect screen changes every 600\nexpect screen changes every 30 from 10 to 400\nrun 1000\n",
        )
        .unwrap();
        assert_eq!(
            s.texts[0],
            TextExpect::Every {
                text: "heartbeat".into(),
                period: 120,
                from: 0,
                to: None,
                line: 1
            }
        );
        assert_eq!(
            s.texts[1],
            TextExpect::Every {
                text: "tick".into(),
                period: 60,
                from: 100,
                to: Some(900),
                line: 2
            }
        );
        assert_eq!(
            s.screen,
            vec![
                ScreenChanges {
                    period: 600,
                    from: 0,
                    to: None,
                    line: 3
                },
                ScreenChanges {
                    period: 30,
                    from: 10,
                    to: Some(400),
                    line: 4
                }
            ]
        );
        assert_eq!(s.expectation_count(), 4);
        // `every` without `to` names no frame: the run length must be given.
        let s = Script::parse("expect heartbeat every 120\n").unwrap();
        assert_eq!(s.length(), None);
        let s = Script::parse("expect screen changes every 10 to 500\n").unwrap();
        assert_eq!(s.length(), Some(500));
        for (src, needle) in [
            ("expect heartbeat every 0", "at least 1 frame"),
            ("expect \"x\" every 10 from 50 to 40", "must be after"),
            ("expect screen changes", "expected `every`"),
            ("expect screen every 5", "expected `changes`"),
            ("expect heartbeat by 5", "after `expect`"),
        ] {
            let (l, msg) = err_line(src);
            assert_eq!(l, 1);
            assert!(msg.contains(needle), "{src:?}: `{msg}` lacks `{needle}`");
        }
    }

    #[test]
    fn order_count_and_absence() {
        let s = Script::parse(
            r#"expect "move X b2" after "screen game"
expect sequence "a" "b" "c"
expect count "move " = 5
expect count "ai " >= 2
expect count "result" <= 1
expect "result" not by 300
expect no "panic" from 10 by 20
expect no "oops" by 20
expect no "panic"
"#,
        )
        .unwrap();
        assert_eq!(
            s.texts[0],
            TextExpect::Sequence {
                texts: vec!["screen game".into(), "move X b2".into()],
                line: 1
            }
        );
        assert_eq!(
            s.texts[1],
            TextExpect::Sequence {
                texts: vec!["a".into(), "b".into(), "c".into()],
                line: 2
            }
        );
        assert_eq!(
            s.texts[2],
            TextExpect::Count {
                text: "move ".into(),
                op: CountOp::Eq,
                n: 5,
                line: 3
            }
        );
        assert!(matches!(
            s.texts[3],
            TextExpect::Count {
                op: CountOp::AtLeast,
                n: 2,
                ..
            }
        ));
        assert!(matches!(
            s.texts[4],
            TextExpect::Count {
                op: CountOp::AtMost,
                n: 1,
                ..
            }
        ));
        assert_eq!(
            s.texts[5],
            TextExpect::Absent {
                text: "result".into(),
                from: 0,
                by: 300,
                line: 6
            }
        );
        assert_eq!(
            s.texts[6],
            TextExpect::Absent {
                text: "panic".into(),
                from: 10,
                by: 20,
                line: 7
            }
        );
        assert!(matches!(
            s.texts[7],
            TextExpect::Absent {
                from: 0,
                by: 20,
                ..
            }
        ));
        assert!(matches!(s.texts[8], TextExpect::Never { .. }));
        assert_eq!(s.length(), Some(300));
        assert!(CountOp::Eq.holds(5, 5) && !CountOp::Eq.holds(4, 5));
        assert!(CountOp::AtLeast.holds(6, 5) && !CountOp::AtMost.holds(6, 5));
        for (src, needle) in [
            ("expect sequence \"a\"", "at least two"),
            ("expect sequence \"a\" b", "quoted text"),
            ("expect count \"a\" > 5", "expected `=`"),
            ("expect count \"a\" = x", "bad number"),
            ("expect \"a\" after b", "quoted text"),
            ("expect \"a\" not 5", "expected `by`"),
            ("expect no \"a\" from 9 by 5", "is after"),
        ] {
            let (l, msg) = err_line(src);
            assert_eq!(l, 1);
            assert!(msg.contains(needle), "{src:?}: `{msg}` lacks `{needle}`");
        }
    }

    #[test]
    fn trace_line() {
        let s = Script::parse("trace soak.log\nrun 5\n").unwrap();
        assert_eq!(s.trace, Some(PathBuf::from("soak.log")));
        assert!(err_line("trace").1.contains("expected a log file name"));
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_u32("0x8000_0300"), Ok(0x8000_0300));
        assert_eq!(parse_u32("42"), Ok(42));
        assert!(parse_u32("0x").is_err());
        assert!(parse_u32("-1").is_err());
        assert_eq!(CpuMode::from_name("DYNAREC"), Some(CpuMode::Dynarec));
        assert_eq!(CpuMode::Cached.r4300_emulator(), 1);
    }
}
