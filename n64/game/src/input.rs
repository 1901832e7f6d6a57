//! Controller input: the N64 button word, and per port the readings turned
//! into presses and auto-repeat.

use crate::refresh::Refresh;

/// Buttons in the N64 controller's wire layout (the first reply word of the
/// joybus read-buttons command).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Buttons(pub u16);

impl Buttons {
    /// No button.
    pub const NONE: Buttons = Buttons(0);
    /// A.
    pub const A: Buttons = Buttons(1 << 15);
    /// B.
    pub const B: Buttons = Buttons(1 << 14);
    /// Z (the trigger under the stick).
    pub const Z: Buttons = Buttons(1 << 13);
    /// Start.
    pub const START: Buttons = Buttons(1 << 12);
    /// D-pad up.
    pub const DUP: Buttons = Buttons(1 << 11);
    /// D-pad down.
    pub const DDOWN: Buttons = Buttons(1 << 10);
    /// D-pad left.
    pub const DLEFT: Buttons = Buttons(1 << 9);
    /// D-pad right.
    pub const DRIGHT: Buttons = Buttons(1 << 8);
    /// Left shoulder.
    pub const L: Buttons = Buttons(1 << 5);
    /// Right shoulder.
    pub const R: Buttons = Buttons(1 << 4);
    /// C-up.
    pub const CUP: Buttons = Buttons(1 << 3);
    /// C-down.
    pub const CDOWN: Buttons = Buttons(1 << 2);
    /// C-left.
    pub const CLEFT: Buttons = Buttons(1 << 1);
    /// C-right.
    pub const CRIGHT: Buttons = Buttons(1 << 0);
    /// The four D-pad directions.
    pub const DPAD: Buttons = Buttons(0x0F00);
    /// Every button of the controller (bits 7 and 6 are none).
    pub const ALL: Buttons = Buttons(0xFF3F);
    /// Every button with its name, as the ROM's log lines write it.
    pub const NAMES: [(Buttons, &'static str); 14] = [
        (Buttons::A, "A"),
        (Buttons::B, "B"),
        (Buttons::Z, "Z"),
        (Buttons::START, "START"),
        (Buttons::DUP, "DUP"),
        (Buttons::DDOWN, "DDOWN"),
        (Buttons::DLEFT, "DLEFT"),
        (Buttons::DRIGHT, "DRIGHT"),
        (Buttons::L, "L"),
        (Buttons::R, "R"),
        (Buttons::CUP, "CUP"),
        (Buttons::CDOWN, "CDOWN"),
        (Buttons::CLEFT, "CLEFT"),
        (Buttons::CRIGHT, "CRIGHT"),
    ];

    /// Whether every button of `other` is down in `self`.
    #[inline]
    pub const fn contains(self, other: Buttons) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// Whether any button of `other` is down in `self`.
    #[inline]
    pub const fn intersects(self, other: Buttons) -> bool {
        self.0 & other.0 != 0
    }

    /// Both sets of buttons.
    #[inline]
    pub const fn union(self, other: Buttons) -> Buttons {
        Buttons(self.0 | other.0)
    }

    /// Whether no button is down.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl core::ops::BitOr for Buttons {
    type Output = Buttons;
    fn bitor(self, rhs: Buttons) -> Buttons {
        self.union(rhs)
    }
}

/// One controller port for one frame.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PortInput {
    /// Whether a controller answers on this port.
    pub connected: bool,
    /// Buttons down now.
    pub held: Buttons,
    /// Buttons that went down this frame (edges).
    pub pressed: Buttons,
    /// `pressed` plus auto-repeat of held D-pad directions, with the analog
    /// stick mapped onto the D-pad directions (threshold and repeat).
    pub repeated: Buttons,
    /// Analog stick, right positive.
    pub stick_x: i8,
    /// Analog stick, up positive.
    pub stick_y: i8,
    /// Whether the controller has a Rumble Pak in it.
    pub rumble_pak: bool,
}

/// All four ports for one frame.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Input {
    /// Ports 1 to 4 (index 0 to 3).
    pub ports: [PortInput; 4],
}

impl Input {
    /// No controller at all.
    pub const NONE: Input = Input {
        ports: [PortInput {
            connected: false,
            held: Buttons::NONE,
            pressed: Buttons::NONE,
            repeated: Buttons::NONE,
            stick_x: 0,
            stick_y: 0,
            rumble_pak: false,
        }; 4],
    };

    /// Every connected port's input merged (for screens anyone may drive).
    pub fn merged(&self) -> PortInput {
        let mut out = PortInput::default();
        for p in self.ports.iter().filter(|p| p.connected) {
            out.connected = true;
            out.held = out.held | p.held;
            out.pressed = out.pressed | p.pressed;
            out.repeated = out.repeated | p.repeated;
            out.rumble_pak |= p.rumble_pak;
            if out.stick_x == 0 {
                out.stick_x = p.stick_x;
            }
            if out.stick_y == 0 {
                out.stick_y = p.stick_y;
            }
        }
        out
    }
}

/// What the controller layer reads from one port each frame.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RawPort {
    /// Whether a controller answered.
    pub connected: bool,
    /// The buttons down.
    pub buttons: Buttons,
    /// The buttons that went down since the last reading: the console's
    /// joypad module keeps the previous reading and reports these edges.
    pub pressed: Buttons,
    /// Stick X, right positive.
    pub stick_x: i8,
    /// Stick Y, up positive.
    pub stick_y: i8,
    /// Whether a Rumble Pak is in the controller (the console identifies
    /// the accessory when it is plugged in).
    pub rumble_pak: bool,
}

/// How long a direction must be held before it repeats.
pub const REPEAT_DELAY_MS: u32 = 300;
/// Time between repeats after that (12 per second).
pub const REPEAT_INTERVAL_MS: u32 = 83;
/// Stick deflection that counts as a direction.
pub const STICK_ON: i8 = 40;
/// Deflection below which a stick direction is released (hysteresis).
pub const STICK_OFF: i8 = 28;

const DIRS: [Buttons; 4] = [
    Buttons::DUP,
    Buttons::DDOWN,
    Buttons::DLEFT,
    Buttons::DRIGHT,
];

#[derive(Copy, Clone, Debug, Default)]
struct PortState {
    stick_dirs: Buttons,
    /// Frames since each direction (D-pad or stick) was first seen held
    /// (`None`: not held).
    held_frames: [Option<u32>; 4],
}

/// Turns raw per-port readings into [`PortInput`]: auto-repeat of the D-pad
/// directions, and the analog stick as D-pad directions.
#[derive(Clone, Debug)]
pub struct InputTracker {
    ports: [PortState; 4],
    repeat: Repeat,
}

/// Auto-repeat in frames of the display's rate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// Frames held before the first repeat ([`REPEAT_DELAY_MS`]).
    pub delay: u32,
    /// Frames between repeats ([`REPEAT_INTERVAL_MS`], at least 1).
    pub interval: u32,
}

impl Repeat {
    /// Auto-repeat at `refresh`.
    pub const fn new(refresh: Refresh) -> Repeat {
        Repeat {
            delay: refresh.frames(REPEAT_DELAY_MS),
            interval: refresh.frames(REPEAT_INTERVAL_MS),
        }
    }

    /// How many repeats a direction held `frames` frames has made (the
    /// press itself not counted).
    fn points_upto(self, frames: u32) -> u32 {
        if frames < self.delay {
            0
        } else {
            (frames - self.delay) / self.interval.max(1) + 1
        }
    }

    /// `frames` moved back by whole intervals to below `delay + interval`
    /// (so it never overflows): the repeats still fall on the same frames.
    fn wrap(self, frames: u32) -> u32 {
        let interval = self.interval.max(1);
        if frames < self.delay.saturating_add(interval) {
            frames
        } else {
            self.delay + (frames - self.delay) % interval
        }
    }
}

impl InputTracker {
    /// A tracker with nothing held, for one update per frame at `refresh`.
    pub const fn new(refresh: Refresh) -> InputTracker {
        const P: PortState = PortState {
            stick_dirs: Buttons::NONE,
            held_frames: [None; 4],
        };
        InputTracker {
            ports: [P; 4],
            repeat: Repeat::new(refresh),
        }
    }

    /// The auto-repeat timing in frames.
    pub fn repeat(&self) -> Repeat {
        self.repeat
    }

    /// One frame: the four ports as read, one frame after the last.
    pub fn update(&mut self, raw: &[RawPort; 4]) -> Input {
        self.update_frames(1, raw)
    }

    /// The four ports as read, `frames` display frames after the last
    /// reading (0 counts as 1): auto-repeat runs on frames shown, not on
    /// readings, so a reading that missed a vsync does not slow it down.
    pub fn update_frames(&mut self, frames: u32, raw: &[RawPort; 4]) -> Input {
        let frames = frames.max(1);
        let mut input = Input::NONE;
        for ((state, raw), out) in self.ports.iter_mut().zip(raw).zip(&mut input.ports) {
            *out = state.update(raw, self.repeat, frames);
        }
        input
    }
}

impl PortState {
    fn update(&mut self, raw: &RawPort, repeat: Repeat, frames: u32) -> PortInput {
        if !raw.connected {
            *self = PortState::default();
            return PortInput::default();
        }
        let (held, pressed) = (raw.buttons, raw.pressed);

        // The stick as directions, with hysteresis per axis.
        let mut stick = Buttons::NONE;
        let axis = |v: i8, was_pos: bool, was_neg: bool| -> (bool, bool) {
            let pos = if was_pos {
                v >= STICK_OFF
            } else {
                v >= STICK_ON
            };
            let neg = if was_neg {
                v <= -STICK_OFF
            } else {
                v <= -STICK_ON
            };
            (pos, neg)
        };
        let (right, left) = axis(
            raw.stick_x,
            self.stick_dirs.contains(Buttons::DRIGHT),
            self.stick_dirs.contains(Buttons::DLEFT),
        );
        let (up, down) = axis(
            raw.stick_y,
            self.stick_dirs.contains(Buttons::DUP),
            self.stick_dirs.contains(Buttons::DDOWN),
        );
        for (on, b) in [
            (up, Buttons::DUP),
            (down, Buttons::DDOWN),
            (left, Buttons::DLEFT),
            (right, Buttons::DRIGHT),
        ] {
            if on {
                stick = stick | b;
            }
        }
        self.stick_dirs = stick;

        let mut repeated = pressed;
        let dirs_held = held | stick;
        for (i, &d) in DIRS.iter().enumerate() {
            if !dirs_held.intersects(d) {
                self.held_frames[i] = None;
                continue;
            }
            // The press fires at once (frame 0), then once for each repeat
            // point (delay, delay + interval, ...) reached since the last
            // reading, however many frames that was.
            let (fire, held) = match self.held_frames[i] {
                None => (true, 0),
                Some(before) => {
                    let now = before.saturating_add(frames);
                    let fire = repeat.points_upto(now) > repeat.points_upto(before);
                    (fire, repeat.wrap(now))
                }
            };
            if fire {
                repeated = repeated | d;
            }
            self.held_frames[i] = Some(held);
        }
        PortInput {
            connected: true,
            held,
            pressed,
            repeated,
            stick_x: raw.stick_x,
            stick_y: raw.stick_y,
            rumble_pak: raw.rumble_pak,
        }
    }
}
