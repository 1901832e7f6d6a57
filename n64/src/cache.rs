//! VR4300 data cache maintenance (8 KiB, 16-byte lines, write-back).
//!
//! Code writes framebuffers and DMA buffers through cached KSEG0 pointers;
//! before a device reads that memory the dirty lines must be written back,
//! and before the CPU reads what a device wrote the stale lines must be
//! invalidated.
//!
//! The operations work on whole 16-byte lines: a DMA buffer must be
//! line-aligned and fill its lines alone, or a write-back/invalidate also
//! hits (and an invalidate loses) the neighbouring data. The buffers that
//! are invalidated (the SI block) and the framebuffers are `align(64)` and
//! a multiple of 64 bytes; the audio buffers are only written back, never
//! invalidated, so they may share a line with each other (see audio.rs).

use core::arch::asm;

pub const DCACHE_LINE: usize = 16;
pub const ICACHE_LINE: usize = 32;

fn lines(addr: usize, len: usize, line: usize) -> impl Iterator<Item = usize> {
    let start = addr & !(line - 1);
    let end = addr + len;
    (start..end).step_by(line)
}

/// Writes back the data-cache lines covering `addr..addr+len` (they stay valid).
pub fn writeback(addr: usize, len: usize) {
    for a in lines(addr, len, DCACHE_LINE) {
        // SAFETY: Hit_Write_Back_D (0x19) only copies a dirty line to RAM;
        // on a miss it does nothing. It cannot fault for KSEG0 addresses.
        unsafe {
            asm!(".set push", ".set mips3", ".set noat", "cache 0x19, 0({0})", ".set pop", in(reg) a, options(nostack, preserves_flags))
        };
    }
}

/// Writes back and invalidates the data-cache lines covering the range, so
/// the next CPU read fetches what a device (DMA) left in RAM.
pub fn writeback_invalidate(addr: usize, len: usize) {
    for a in lines(addr, len, DCACHE_LINE) {
        // SAFETY: Hit_Write_Back_Invalidate_D (0x15) on a KSEG0 address;
        // no data is lost (dirty lines are written back first).
        unsafe {
            asm!(".set push", ".set mips3", ".set noat", "cache 0x15, 0({0})", ".set pop", in(reg) a, options(nostack, preserves_flags))
        };
    }
}

/// Invalidates the instruction-cache lines covering the range (after code
/// was written as data, e.g. the exception vectors).
pub fn invalidate_instructions(addr: usize, len: usize) {
    for a in lines(addr, len, ICACHE_LINE) {
        // SAFETY: Hit_Invalidate_I (0x10) only drops instruction-cache lines.
        unsafe {
            asm!(".set push", ".set mips3", ".set noat", "cache 0x10, 0({0})", ".set pop", in(reg) a, options(nostack, preserves_flags))
        };
    }
}

/// Allocates the data-cache lines lying entirely inside `run` as dirty,
/// without reading them from RDRAM (Create_Dirty_Exclusive_D): for memory
/// about to be overwritten whole, a store miss would fetch each line only
/// to overwrite it. The run's pixels are stale (whatever the cache line
/// held) until written; the raster writes every one right after
/// (`Raster::set_prepare`). Lines only partly inside are left alone.
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
