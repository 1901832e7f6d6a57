//! Controllers through libdragon's joypad module, which polls the four
//! ports over the joybus at every vertical interrupt, identifies their
//! accessories, and keeps each port's previous reading: [`poll`] hands the
//! game what it saw, with libdragon's press edges. Directions, the stick
//! and auto-repeat are the game's (`ttt64_game::InputTracker`). Also the
//! Rumble Pak motor.

use libdragon_sys as sys;
use ttt64_game::{Buttons, RawPort};

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

/// libdragon's buttons as the game's: its `raw` word has the layout of the
/// joybus reply (the bitfields are allocated from the most significant bit
/// on this big-endian target), which is `Buttons`'. Bits 7 and 6, a
/// GameCube controller's Y and X, are no N64 button.
fn buttons(buttons: sys::joypad_buttons_t) -> Buttons {
    // SAFETY: both members of libdragon's button union are the same plain
    // 16-bit word.
    Buttons(unsafe { buttons.raw } & Buttons::ALL.0)
}

/// Reads the four ports as libdragon's polling at the last vertical
/// interrupt saw them; once a frame: the press edges are against the
/// previous call.
pub fn poll() -> [RawPort; 4] {
    // SAFETY: joypad_poll copies the inputs the interrupt-driven polling
    // collected; it only needs joypad_init, done at boot.
    unsafe { sys::joypad_poll() };
    PORTS.map(|port| {
        // SAFETY: a valid port number; these read joypad_poll's copy and
        // libdragon's accessory state.
        unsafe {
            if !sys::joypad_is_connected(port) {
                return RawPort::default();
            }
            let inputs = sys::joypad_get_inputs(port);
            RawPort {
                connected: true,
                buttons: buttons(inputs.btn),
                pressed: buttons(sys::joypad_get_buttons_pressed(port)),
                stick_x: inputs.stick_x,
                stick_y: inputs.stick_y,
                rumble_pak: sys::joypad_get_rumble_supported(port),
            }
        }
    })
}

/// Starts or stops the Rumble Pak motor in `port` (0..4; no effect without
/// a Rumble Pak).
pub fn set_rumble(port: usize, on: bool) {
    if let Some(&p) = PORTS.get(port) {
        // SAFETY: a valid port number; libdragon queues the accessory write
        // and ignores ports without a Rumble Pak.
        unsafe { sys::joypad_set_rumble_active(p, on) };
    }
}
