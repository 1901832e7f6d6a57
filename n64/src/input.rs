//! Controller input as the game sees it: per port, the connection state,
//! button edges (pressed/released this frame) and auto-repeating directions
//! (D-pad or analog stick) for menu and board navigation.

use crate::si::PadState;

/// Wire-format button bits (joybus "read buttons" reply).
pub mod button {
    pub const A: u16 = 1 << 15;
    pub const B: u16 = 1 << 14;
    pub const Z: u16 = 1 << 13;
    pub const START: u16 = 1 << 12;
    pub const DUP: u16 = 1 << 11;
    pub const DDOWN: u16 = 1 << 10;
    pub const DLEFT: u16 = 1 << 9;
    pub const DRIGHT: u16 = 1 << 8;
    pub const L: u16 = 1 << 5;
    pub const R: u16 = 1 << 4;
    pub const CUP: u16 = 1 << 3;
    pub const CDOWN: u16 = 1 << 2;
    pub const CLEFT: u16 = 1 << 1;
    pub const CRIGHT: u16 = 1 << 0;
    /// Every real button (bits 7 and 6 are the reset flag and unused).
    pub const ALL: u16 = 0xFF3F;

    /// Names used in the `pad <port> press <NAME>` log lines.
    pub const NAMES: [(u16, &str); 14] = [
        (A, "A"),
        (B, "B"),
        (Z, "Z"),
        (START, "START"),
        (DUP, "DUP"),
        (DDOWN, "DDOWN"),
        (DLEFT, "DLEFT"),
        (DRIGHT, "DRIGHT"),
        (L, "L"),
        (R, "R"),
        (CUP, "CUP"),
        (CDOWN, "CDOWN"),
        (CLEFT, "CLEFT"),
        (CRIGHT, "CRIGHT"),
    ];
}

/// Direction bits for [`Pad::held_dirs`] and [`Pad::repeat_dirs`].
pub mod dir {
    pub const UP: u8 = 1;
    pub const DOWN: u8 = 2;
    pub const LEFT: u8 = 4;
    pub const RIGHT: u8 = 8;
}

/// Stick deflection that counts as a direction (full range is about ±80).
pub const STICK_THRESHOLD: i8 = 40;
/// Frames a direction is held before it repeats, then frames per repeat.
pub const REPEAT_DELAY: u16 = 18;
pub const REPEAT_PERIOD: u16 = 6;

/// One controller port over time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pad {
    pub state: PadState,
    /// `Some(now connected)` on the frame the connection changed (and on the
    /// first poll).
    pub connection_changed: Option<bool>,
    pub pressed: u16,
    pub released: u16,
    known: bool,
    held_frames: [u16; 4],
    repeat: u8,
}

impl Pad {
    /// Feeds one new reading (once per frame).
    pub fn update(&mut self, new: PadState) {
        let new = if new.connected {
            new
        } else {
            PadState::default()
        };
        self.connection_changed = if !self.known || new.connected != self.state.connected {
            Some(new.connected)
        } else {
            None
        };
        self.known = true;
        let (old, now) = (self.state.buttons & button::ALL, new.buttons & button::ALL);
        self.pressed = now & !old;
        self.released = old & !now;
        self.state = new;

        let held = self.held_dirs();
        self.repeat = 0;
        for (i, frames) in self.held_frames.iter_mut().enumerate() {
            let bit = 1u8 << i;
            if held & bit == 0 {
                *frames = 0;
                continue;
            }
            *frames = frames.saturating_add(1);
            let fire = *frames == 1
                || (*frames > REPEAT_DELAY && (*frames - REPEAT_DELAY) % REPEAT_PERIOD == 0);
            if fire {
                self.repeat |= bit;
            }
        }
    }

    pub fn connected(&self) -> bool {
        self.state.connected
    }

    /// Any real button held.
    pub fn any_held(&self) -> bool {
        self.state.buttons & button::ALL != 0
    }

    pub fn held(&self, buttons: u16) -> bool {
        self.state.buttons & buttons != 0
    }

    /// Directions held now, from the D-pad or the stick.
    pub fn held_dirs(&self) -> u8 {
        let (b, x, y) = (self.state.buttons, self.state.stick_x, self.state.stick_y);
        let mut d = 0;
        if b & button::DUP != 0 || y >= STICK_THRESHOLD {
            d |= dir::UP;
        }
        if b & button::DDOWN != 0 || y <= -STICK_THRESHOLD {
            d |= dir::DOWN;
        }
        if b & button::DLEFT != 0 || x <= -STICK_THRESHOLD {
            d |= dir::LEFT;
        }
        if b & button::DRIGHT != 0 || x >= STICK_THRESHOLD {
            d |= dir::RIGHT;
        }
        d
    }

    /// Directions that fire this frame: on the first frame held, then after
    /// `REPEAT_DELAY` frames every `REPEAT_PERIOD` frames.
    pub fn repeat_dirs(&self) -> u8 {
        self.repeat
    }
}

/// All four ports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pads {
    pub ports: [Pad; 4],
}

impl Pads {
    pub fn update(&mut self, readings: [PadState; 4]) {
        for (pad, reading) in self.ports.iter_mut().zip(readings) {
            pad.update(reading);
        }
    }
}
