//! Controllers through libdragon's joypad module (it polls the four ports
//! over the joybus at every vertical interrupt, and identifies their
//! accessories), and their readings over time, per port: the connection
//! state and button edges (pressed/released this frame), for the `pad ...`
//! log lines and the game's input. Directions, the stick and auto-repeat
//! are the game's (`ttt64_game::InputTracker`, in real time at any refresh
//! rate). Also the Rumble Pak: whether a port has one, and its motor.

use libdragon_sys as sys;

/// One controller as read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PadState {
    pub connected: bool,
    /// Wire-format buttons (see [`button`]).
    pub buttons: u16,
    pub stick_x: i8,
    pub stick_y: i8,
    /// A Rumble Pak is in the controller ([`rumble_supported`]).
    pub rumble_pak: bool,
}

const PORTS: [sys::joypad_port_t; 4] = [
    sys::JOYPAD_PORT_1,
    sys::JOYPAD_PORT_2,
    sys::JOYPAD_PORT_3,
    sys::JOYPAD_PORT_4,
];

/// Starts libdragon's joypad polling (once, at boot).
pub fn init() {
    // SAFETY: joypad_init registers libdragon's VI-driven joybus polling;
    // called once, after the constructors set up interrupts and joybus.
    unsafe { sys::joypad_init() };
}

/// Reads the latest state of the four ports (what libdragon's polling at
/// the last vertical interrupt saw).
pub fn read_controllers() -> [PadState; 4] {
    // SAFETY: joypad_poll copies the inputs the interrupt-driven polling
    // collected; it only needs joypad_init, done at boot.
    unsafe { sys::joypad_poll() };
    PORTS.map(|port| {
        let index = port as usize;
        // SAFETY: a valid port number; these only read joypad_poll's copy.
        let (connected, inputs) =
            unsafe { (sys::joypad_is_connected(port), sys::joypad_get_inputs(port)) };
        if !connected {
            return PadState::default();
        }
        // SAFETY: both members of libdragon's button union are plain bits
        // of the same 16-bit word; the bitfield view is always valid.
        let b = unsafe { &inputs.btn.__bindgen_anon_1 };
        let bits = [
            (b.a(), button::A),
            (b.b(), button::B),
            (b.z(), button::Z),
            (b.start(), button::START),
            (b.d_up(), button::DUP),
            (b.d_down(), button::DDOWN),
            (b.d_left(), button::DLEFT),
            (b.d_right(), button::DRIGHT),
            (b.l(), button::L),
            (b.r(), button::R),
            (b.c_up(), button::CUP),
            (b.c_down(), button::CDOWN),
            (b.c_left(), button::CLEFT),
            (b.c_right(), button::CRIGHT),
        ];
        PadState {
            connected,
            buttons: bits
                .iter()
                .filter(|(on, _)| *on != 0)
                .fold(0, |acc, (_, bit)| acc | bit),
            stick_x: inputs.stick_x,
            stick_y: inputs.stick_y,
            rumble_pak: rumble_supported(index),
        }
    })
}

/// Whether the controller in `port` (0..4) has a Rumble Pak (libdragon
/// identifies accessories as they are plugged in).
pub fn rumble_supported(port: usize) -> bool {
    // SAFETY: a valid port number; reads libdragon's accessory state.
    PORTS
        .get(port)
        .is_some_and(|&p| unsafe { sys::joypad_get_rumble_supported(p) })
}

/// Starts or stops the Rumble Pak motor in `port` (no effect without one).
pub fn set_rumble(port: usize, on: bool) {
    if let Some(&p) = PORTS.get(port) {
        // SAFETY: a valid port number; libdragon queues the accessory write
        // and ignores ports without a Rumble Pak.
        unsafe { sys::joypad_set_rumble_active(p, on) };
    }
}

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
    /// `Some(now in)` on the frame a Rumble Pak was found in the controller
    /// or went (taken out, or the controller unplugged); a port that never
    /// had one never changes, so it logs nothing new.
    pub rumble_pak_changed: Option<bool>,
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
        self.rumble_pak_changed =
            (new.rumble_pak != self.state.rumble_pak).then_some(new.rumble_pak);
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
