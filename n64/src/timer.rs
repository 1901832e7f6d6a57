//! Time from the CPU's COP0 Count register, which counts at half the CPU
//! clock: 93.75 MHz / 2 = 46.875 MHz. Count is 32 bits (wraps every ~91.6 s);
//! [`Timer`] extends it to 64 bits as long as it is read more often than that
//! (the main loop reads it every frame).
//!
//! What the console requires: Count runs at half the CPU clock on every
//! console (46.875 MHz); mupen64plus's `CountPerOp` only changes how many
//! ticks an emulated instruction costs, not the rate the ROM assumes.

use core::arch::asm;
use core::cell::Cell;

/// Count ticks per second.
pub const TICKS_PER_SECOND: u64 = 46_875_000;

/// Reads COP0 Count (register 9).
#[inline(always)]
pub fn count() -> u32 {
    let value: u32;
    // SAFETY: reading COP0 Count has no side effects.
    unsafe {
        asm!(".set noat", "mfc0 {0}, $9", "nop", ".set at", out(reg) value, options(nomem, nostack, preserves_flags))
    };
    value
}

/// A 64-bit tick counter built on Count.
pub struct Timer {
    last: Cell<u32>,
    high: Cell<u64>,
}

impl Timer {
    pub fn new() -> Self {
        Self {
            last: Cell::new(count()),
            high: Cell::new(0),
        }
    }

    /// Ticks since an arbitrary start (46.875 MHz).
    pub fn ticks(&self) -> u64 {
        let now = count();
        if now < self.last.get() {
            self.high.set(self.high.get() + (1 << 32));
        }
        self.last.set(now);
        self.high.get() | u64::from(now)
    }
}

impl Default for Timer {
    fn default() -> Self {
        Self::new()
    }
}

/// Converts ticks to microseconds.
pub fn ticks_to_micros(ticks: u64) -> u64 {
    ticks * 1_000_000 / TICKS_PER_SECOND
}

/// Busy-waits for at least `micros` microseconds.
pub fn delay_micros(micros: u32) {
    let start = count();
    let wait = (u64::from(micros) * TICKS_PER_SECOND / 1_000_000) as u32;
    while count().wrapping_sub(start) < wait {}
}
