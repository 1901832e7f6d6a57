//! CPU exceptions: every vector jumps to `n64_exception_entry` (entry.s),
//! which calls [`n64_exception`]; that panics with the cause, so a crash
//! shows on screen and on the IS-Viewer instead of hanging silently.

use core::arch::asm;

use crate::cache;

extern "C" {
    fn n64_exception_entry();
}

/// Vector addresses: TLB refill, XTLB refill, cache error (runs uncached,
/// but the copy at 0x80000100 is what 0xA0000100 shows), general.
const VECTORS: [usize; 4] = [0x8000_0000, 0x8000_0080, 0x8000_0100, 0x8000_0180];

/// Writes `lui k0, hi; addiu k0, k0, lo; jr k0; nop` at each vector and sets
/// Status to kernel mode, interrupts off, vectors in RAM (BEV = 0).
pub fn install() {
    let target = n64_exception_entry as *const () as usize as u32;
    let hi = (target.wrapping_add(0x8000)) >> 16;
    let lo = target & 0xFFFF;
    let code = [0x3C1A_0000 | hi, 0x275A_0000 | lo, 0x0340_0008, 0];
    for &vector in &VECTORS {
        for (i, &word) in code.iter().enumerate() {
            // SAFETY: 0x80000000..0x80000190 is reserved for the vectors by
            // the linker script (the program starts at 0x80000400).
            unsafe { ((vector + 4 * i) as *mut u32).write_volatile(word) };
        }
        cache::writeback(vector, 16);
        cache::invalidate_instructions(vector, 16);
    }
    // SAFETY: Status = CU1 | CU0, kernel mode, EXL/ERL/IE clear, BEV = 0:
    // exceptions use the vectors just installed; interrupts stay disabled.
    unsafe {
        asm!(".set noat", "mtc0 {0}, $12", "nop", ".set at", in(reg) 0x3400_0000u32, options(nostack))
    };
}

fn cause_name(code: u32) -> &'static str {
    match code {
        0 => "interrupt",
        1 => "TLB modification",
        2 => "TLB miss (load)",
        3 => "TLB miss (store)",
        4 => "address error (load)",
        5 => "address error (store)",
        6 => "bus error (instruction)",
        7 => "bus error (data)",
        8 => "syscall",
        9 => "breakpoint",
        10 => "reserved instruction",
        11 => "coprocessor unusable",
        12 => "overflow",
        13 => "trap",
        15 => "floating point",
        23 => "watch",
        _ => "unknown",
    }
}

/// Called by the exception trampoline; never returns.
#[no_mangle]
extern "C" fn n64_exception(cause: u32, epc: u32, bad_vaddr: u32) -> ! {
    panic!(
        "exception: {} (cause {cause:#010x}) at {epc:#010x}, address {bad_vaddr:#010x}",
        cause_name((cause >> 2) & 0x1F)
    )
}
