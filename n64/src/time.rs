//! Time: libdragon's timer module (COP0 Count extended to 64 bits).

use libdragon_sys as sys;

/// COP0 Count ticks a second: half the VR4300's 93.75 MHz (libdragon's
/// `TICKS_PER_SECOND` for an N64, a macro bindgen cannot carry).
pub const TICKS_PER_SECOND: u64 = 46_875_000;

/// Starts libdragon's timer module (needed by [`ticks`]); once, at boot.
pub fn init() {
    // SAFETY: libdragon's timer_init only sets up the COP0 timer interrupt
    // and counts its users; interrupts are set up by the constructors.
    unsafe { sys::timer_init() };
}

/// Ticks since boot (monotonic, 64 bits: no wrap in practice).
pub fn ticks() -> u64 {
    // SAFETY: timer_ticks reads COP0 Count (with its overflow count); the
    // timer module is initialised first thing in n64_start.
    unsafe { sys::timer_ticks() as u64 }
}

pub fn ticks_to_micros(ticks: u64) -> u64 {
    ticks * 1_000_000 / TICKS_PER_SECOND
}
