//! CPU exceptions and interrupts: every vector jumps to
//! `n64_exception_entry` (entry.s). Interrupts are handled there: the VI
//! (counted for [`crate::vi::wait_vsync`]) and the COP0 timer (its give-up).
//! Everything else calls [`n64_exception`], which panics with the cause, so
//! a crash shows on screen and on the IS-Viewer instead of hanging silently.

use core::arch::asm;

use crate::cache;
use crate::regs::mi;

/// Status bits: coprocessors 0 and 1 usable, FR (as the IPL3 leaves it).
const STATUS_BASE: u32 = 0x3400_0000;
/// Status IE: interrupts enabled.
const STATUS_IE: u32 = 1 << 0;
/// Status EXL/ERL: in an exception / error handler (interrupts off).
const STATUS_EXL_ERL: u32 = 0b110;
/// Status IM2: RCP interrupts (the VI, through MI_MASK).
const STATUS_IM2: u32 = 1 << 10;
/// Status IM7: the COP0 timer (Count == Compare).
const STATUS_IM7: u32 = 1 << 15;

extern "C" {
    fn n64_exception_entry();
}

/// Vector addresses: TLB refill, XTLB refill, cache error (runs uncached,
/// but the copy at 0x80000100 is what 0xA0000100 shows), general.
const VECTORS: [usize; 4] = [0x8000_0000, 0x8000_0080, 0x8000_0100, 0x8000_0180];

/// Writes `lui k0, hi; addiu k0, k0, lo; jr k0; nop` at each vector, masks
/// every RCP interrupt (the VI is unmasked by `vi::init`) and sets Status to
/// kernel mode, vectors in RAM (BEV = 0), interrupts on for the RCP and the
/// COP0 timer only.
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
    mi::MASK.write(mi::MASK_CLEAR_ALL);
    let status = STATUS_BASE | STATUS_IM2 | STATUS_IM7 | STATUS_IE;
    // SAFETY: kernel mode, EXL/ERL clear, BEV = 0: exceptions use the
    // vectors just installed, whose handler takes IP2 and IP7 (entry.s);
    // the MI mask has no source enabled yet.
    unsafe {
        asm!(".set noat", "mtc0 {0}, $12", "nop", ".set at", in(reg) status, options(nostack))
    };
}

fn status() -> u32 {
    let value: u32;
    // SAFETY: reading COP0 Status has no side effects.
    unsafe {
        asm!(".set noat", "mfc0 {0}, $12", "nop", ".set at", out(reg) value, options(nomem, nostack, preserves_flags))
    };
    value
}

/// Whether an RCP interrupt would be taken now: IE and IM2 set, not inside
/// an exception handler (the panic screen after a crash runs with EXL set).
pub fn interrupts_enabled() -> bool {
    let s = status();
    s & (STATUS_IE | STATUS_EXL_ERL) == STATUS_IE && s & STATUS_IM2 != 0
}

/// Arms the COP0 timer: an interrupt when Count reaches `count`.
pub fn set_timer(count: u32) {
    // SAFETY: writing Compare only schedules (and clears) the timer
    // interrupt, which the handler in entry.s acknowledges.
    unsafe {
        asm!(".set noat", "mtc0 {0}, $11", "nop", ".set at", in(reg) count, options(nostack))
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
