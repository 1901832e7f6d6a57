//! The PIF's boot termination: the one thing the PIF needs that neither
//! the IPL3s we boot with nor libdragon does (n64brew "PIF"; libdragon
//! leaves it to its own IPL3s, which a flat-loaded ROM does not run).
//!
//! The PIF halts the CPU about 5 s after power-on unless the program sets
//! bit 3 of the PIF's command byte, the last byte of PIF RAM, as libultra's
//! `osInitialize` does. [`pif_boot_done`] runs once, first thing in
//! `n64_start`, before libdragon's joybus sends its first block (which
//! would overwrite the byte with 0x01 and lose the bit), and waits (at most
//! 2 ms) for the PIF to take the bit (a PIF clears the command byte once it
//! has).
//!
//! The SI takes one access at a time: a 32-bit IO access to PIF RAM started
//! while it is busy (SI_STATUS bit 0 DMA busy, bit 1 IO busy) is lost. Every
//! access here starts only after [`wait_idle`], which gives up after 10 ms
//! so a dead SI never hangs the boot.

use libdragon_sys as sys;

use crate::regs::Reg;
use crate::time;

// SAFETY: SI_STATUS, a 32-bit register at 0xA4800018 (a write acknowledges
// the SI interrupt).
const STATUS: Reg<u32> = unsafe { Reg::at(0xA480_0018) };
const STATUS_BUSY: u32 = 0b11; // DMA busy | IO busy
/// The last word of PIF RAM; its low byte is the PIF's command byte.
// SAFETY: PIF RAM word 0x1FC007FC (KSEG1), a 32-bit SI IO access; the
// only user, `pif_boot_done`, starts each access with the SI idle.
const PIF_COMMAND_WORD: Reg<u32> = unsafe { Reg::at(0xBFC0_07FC) };
/// Command byte bit 3: "boot is over" (else the PIF halts the CPU after 5 s).
pub const PIF_BOOT_DONE: u32 = 0x08;
/// How long [`pif_boot_done`] waits for the PIF to take the bit.
const PIF_ACK_MICROS: u64 = 2_000;

fn wait_idle() {
    let start = time::ticks();
    while STATUS.read() & STATUS_BUSY != 0 {
        if time::ticks() - start > time::TICKS_PER_SECOND / 100 {
            break; // 10 ms: the SI is stuck
        }
    }
}

/// What [`pif_boot_done`] saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BootDone {
    /// The word written: what was there, with bit 3 set.
    pub written: u32,
    /// The word read back right after the write.
    pub read_back: u32,
    /// Bit 3 was clear again within 2 ms: the PIF took the command (a PIF
    /// clears the command byte once it has run it; mupen64plus and ares do
    /// it during the write, so `read_back` already shows it clear).
    pub taken: bool,
}

/// Tells the PIF that boot is over: read-modify-write of the last PIF RAM
/// word with bit 3 set, each access on an idle SI. Call once, early (well
/// within 5 s of power-on), before libdragon's joybus sends a block.
pub fn pif_boot_done() -> BootDone {
    // An SI access raises the SI interrupt when it completes, which
    // libdragon's joybus handler takes for a lost transfer of its own:
    // masked here, acknowledged at the source before it is unmasked.
    // SAFETY: set_SI_interrupt only writes MI_MASK.
    unsafe { sys::set_SI_interrupt(0) };
    let done = boot_done_masked();
    STATUS.write(0);
    // SAFETY: as above; the SI interrupt was acknowledged at the SI.
    unsafe { sys::set_SI_interrupt(1) };
    done
}

fn boot_done_masked() -> BootDone {
    wait_idle();
    let word = PIF_COMMAND_WORD.read();
    let written = word | PIF_BOOT_DONE;
    wait_idle();
    PIF_COMMAND_WORD.write(written);
    wait_idle();
    let read_back = PIF_COMMAND_WORD.read();
    let start = time::ticks();
    let limit = PIF_ACK_MICROS * time::TICKS_PER_SECOND / 1_000_000;
    let mut now = read_back;
    while now & PIF_BOOT_DONE != 0 && time::ticks() - start < limit {
        wait_idle();
        now = PIF_COMMAND_WORD.read();
    }
    BootDone {
        written,
        read_back,
        taken: now & PIF_BOOT_DONE == 0,
    }
}
