//! The one data-cache operation libdragon does not offer: creating dirty
//! lines without reading them (libdragon's n64sys has write-back and
//! invalidate, which [`crate::display`] uses).
//!
//! The game's raster overwrites long runs of framebuffer pixels; a normal
//! store to a line that is not cached first reads the whole line from
//! RDRAM. Create_Dirty_Exclusive (cache op 0x0D) makes the line valid and
//! dirty without that read (a third cheaper per new screen in ares).

use core::arch::asm;

/// VR4300 data cache line.
pub const DCACHE_LINE: usize = 16;

/// Makes the whole cache lines inside `run` dirty-exclusive without reading
/// RDRAM, for a caller about to overwrite all of `run` (the raster's
/// `set_prepare` hook). Partial lines at either end are left alone.
pub fn create_dirty_lines(run: &mut [u16]) {
    let start = (run.as_mut_ptr() as usize).next_multiple_of(DCACHE_LINE);
    let end = (run.as_mut_ptr() as usize + core::mem::size_of_val(run)) & !(DCACHE_LINE - 1);
    for a in (start..end).step_by(DCACHE_LINE) {
        // SAFETY: Create_Dirty_Exclusive_D (0x0D) on a KSEG0 address inside
        // `run`, which the caller holds exclusively: a dirty line it replaces
        // is written back first, and the new line covers only `run`'s bytes
        // (the range is rounded inwards to whole lines).
        unsafe {
            asm!(".set push", ".set mips3", ".set noat", "cache 0x0D, 0({0})", ".set pop", in(reg) a, options(nostack, preserves_flags))
        };
    }
}
