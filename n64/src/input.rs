//! Controller readings over time, per port: the connection state and button
//! edges (pressed/released this frame), for the `pad ...` log lines and the
//! game's input. Directions, the stick and auto-repeat are the game's
//! (`ttt64_game::InputTracker`, in real time at any refresh rate).

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
    }

    pub fn connected(&self) -> bool {
        self.state.connected
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
