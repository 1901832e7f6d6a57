//! Peripheral Interface: CPU accesses to the cartridge bus (the IS-Viewer's
//! buffer in cartridge space).
//!
//! What the console requires: the PI carries one cartridge-bus access at a
//! time. A CPU write to cartridge space is posted (PI_STATUS bit 1, IO busy,
//! until it is done); a second access started while the PI is busy with a
//! write or a DMA (bit 0) is dropped or corrupts the one in flight.
//! Emulators complete every access at once, so they forgive this; flashcarts
//! that emulate the IS-Viewer (SummerCart64) do not. [`write_u32`] waits
//! for an idle PI before each write (as libdragon's `io_write` does).

use crate::regs::Reg;
use crate::timer;

// SAFETY: PI_STATUS at 0x04600010, 32-bit; reading it has no side effects.
const STATUS: Reg<u32> = unsafe { Reg::at(0xA460_0010) };
const STATUS_BUSY: u32 = 0b11; // DMA busy | IO busy

/// Waits until the PI is idle (gives up after 1 ms: a stuck PI must not
/// hang the caller; the access then goes out anyway).
pub fn wait_idle() {
    let start = timer::count();
    let limit = (timer::TICKS_PER_SECOND / 1000) as u32;
    while STATUS.read() & STATUS_BUSY != 0 {
        if timer::count().wrapping_sub(start) > limit {
            break;
        }
    }
}

/// Writes one 32-bit word to cartridge space, once the PI is idle.
///
/// # Safety
/// `addr` must be the uncached (KSEG1) address of a word in cartridge space
/// (0xB0000000..0xBFC00000) where a write has no effect beyond the device
/// mapped there.
pub unsafe fn write_u32(addr: usize, value: u32) {
    wait_idle();
    // SAFETY: the caller promises a writable cartridge-space word.
    unsafe { Reg::<u32>::at(addr) }.write(value);
}
