//! Serial Interface and the PIF: the boot-termination write, and the
//! joybus: controllers on channels 0..3, the cartridge EEPROM on channel 4
//! (n64brew "Joybus Protocol", "PIF").
//!
//! A joybus transaction is a 64-byte block: per channel `[tx_len, rx_len,
//! command, tx bytes..., rx bytes...]`, `0x00` skips a channel, `0xFF` is
//! padding, `0xFE` ends the block, and byte 63 (the PIF's command byte) = 1
//! tells the PIF to run it. The SI DMAs the block to PIF RAM, then the
//! answer back.
//!
//! What the console requires, and how this module meets it:
//! - The SI takes one access at a time: a DMA or a 32-bit IO access to PIF
//!   RAM started while it is busy (SI_STATUS bit 0 DMA busy, bit 1 IO busy)
//!   is lost or corrupts the one in flight. Every access here starts only
//!   after [`wait_idle`] (libultra's `__osSiDeviceBusy` rule); the wait gives
//!   up after 10 ms, so a dead SI shows as an error reply, never a hang.
//! - DMA reads and writes RDRAM behind the data cache: the 64-byte buffer is
//!   64-byte aligned and alone in its cache lines, written back before the
//!   write DMA and invalidated before the CPU reads the PIF's answer.
//! - The PIF halts the CPU about 5 s after power-on unless the program sets
//!   bit 3 of the command byte ([`pif_boot_done`], as libultra's
//!   `osInitialize` does; no IPL3 we boot with does it). It runs once, in
//!   start-up, before the first joybus block, and waits (at most 2 ms) for
//!   the PIF to take the bit (a PIF clears the command byte once it has): a
//!   joybus block DMAed before then would overwrite the byte with 0x01 and
//!   lose the bit. Joybus blocks do not carry bit 3: once boot is over the
//!   PIF no longer looks at it.
//! - EEPROM: after a block write the chip is busy for 15 ms
//!   ([`eeprom_write`] waits).

use crate::cache;
use crate::global::Global;
use crate::regs::{physical, Reg};
use crate::timer;

const fn reg(offset: usize) -> Reg<u32> {
    // SAFETY: SI registers are 32-bit words at 0xA4800000..0xA480001C.
    unsafe { Reg::at(0xA480_0000 + offset) }
}
const DRAM_ADDR: Reg<u32> = reg(0x00);
const PIF_AD_RD64B: Reg<u32> = reg(0x04);
const PIF_AD_WR64B: Reg<u32> = reg(0x10);
const STATUS: Reg<u32> = reg(0x18);
const STATUS_BUSY: u32 = 0b11; // DMA busy | IO busy
const PIF_RAM: u32 = 0x1FC0_07C0;
/// The last word of PIF RAM; its low byte is the PIF's command byte.
// SAFETY: PIF RAM word 0x1FC007FC (KSEG1), a 32-bit SI IO access; the
// only user, `pif_boot_done`, starts each access with the SI idle.
const PIF_COMMAND_WORD: Reg<u32> = unsafe { Reg::at(0xBFC0_07FC) };
/// Command byte bit 3: "boot is over" (else the PIF halts the CPU after 5 s).
pub const PIF_BOOT_DONE: u32 = 0x08;
/// How long [`pif_boot_done`] waits for the PIF to take the bit.
const PIF_ACK_MICROS: u64 = 2_000;

/// PIF RAM image used for DMA (whole cache lines, nothing else in them).
#[repr(C, align(64))]
struct PifBuffer([u8; 64]);
static DMA_BUFFER: Global<PifBuffer> = Global::new(PifBuffer([0; 64]));

fn wait_idle() {
    let start = timer::count();
    while STATUS.read() & STATUS_BUSY != 0 {
        if timer::count().wrapping_sub(start) > (timer::TICKS_PER_SECOND / 100) as u32 {
            break; // 10 ms: the SI is stuck; the caller sees an error reply
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
/// within 5 s of power-on), before any joybus block.
pub fn pif_boot_done() -> BootDone {
    wait_idle();
    let word = PIF_COMMAND_WORD.read();
    let written = word | PIF_BOOT_DONE;
    wait_idle();
    PIF_COMMAND_WORD.write(written);
    wait_idle();
    let read_back = PIF_COMMAND_WORD.read();
    let start = timer::count();
    let limit = (PIF_ACK_MICROS * timer::TICKS_PER_SECOND / 1_000_000) as u32;
    let mut now = read_back;
    while now & PIF_BOOT_DONE != 0 && timer::count().wrapping_sub(start) < limit {
        wait_idle();
        now = PIF_COMMAND_WORD.read();
    }
    BootDone {
        written,
        read_back,
        taken: now & PIF_BOOT_DONE == 0,
    }
}

/// Runs one joybus block through the PIF; `block` receives the answer.
pub fn exchange(block: &mut [u8; 64]) {
    let buf = DMA_BUFFER.get() as *mut u8;
    let addr = buf as usize;
    for (i, &b) in block.iter().enumerate() {
        // SAFETY: i < 64, inside DMA_BUFFER, which only this function uses.
        unsafe { buf.add(i).write_volatile(b) };
    }
    cache::writeback_invalidate(addr, 64);
    wait_idle();
    DRAM_ADDR.write(physical(buf));
    PIF_AD_WR64B.write(PIF_RAM);
    wait_idle();
    STATUS.write(0); // acknowledge the SI interrupt
    DRAM_ADDR.write(physical(buf));
    PIF_AD_RD64B.write(PIF_RAM);
    wait_idle();
    STATUS.write(0);
    cache::writeback_invalidate(addr, 64);
    for (i, b) in block.iter_mut().enumerate() {
        // SAFETY: as above; the lines were invalidated, so this reads RDRAM.
        *b = unsafe { buf.add(i).read_volatile() };
    }
}

/// Error bits in a channel's rx_len byte after the transaction.
const RX_NO_DEVICE: u8 = 0x80;
const RX_OVERRUN: u8 = 0x40;

/// One controller as read from the joybus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PadState {
    pub connected: bool,
    /// Wire-format buttons (see `input::button`).
    pub buttons: u16,
    pub stick_x: i8,
    pub stick_y: i8,
}

/// Reads buttons and stick of all four controller ports.
pub fn read_controllers() -> [PadState; 4] {
    let mut block = [0u8; 64];
    for ch in 0..4 {
        // 0xFF pad, tx 1, rx 4, command 0x01 "read buttons", 4 reply bytes.
        block[ch * 8..ch * 8 + 8]
            .copy_from_slice(&[0xFF, 0x01, 0x04, 0x01, 0xFF, 0xFF, 0xFF, 0xFF]);
    }
    block[32] = 0xFE;
    block[63] = 0x01;
    exchange(&mut block);
    let mut pads = [PadState::default(); 4];
    for (ch, pad) in pads.iter_mut().enumerate() {
        let c = &block[ch * 8..ch * 8 + 8];
        if c[2] & (RX_NO_DEVICE | RX_OVERRUN) == 0 {
            *pad = PadState {
                connected: true,
                buttons: u16::from_be_bytes([c[4], c[5]]),
                stick_x: c[6] as i8,
                stick_y: c[7] as i8,
            };
        }
    }
    pads
}

/// EEPROM errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EepromError {
    /// No EEPROM answered on channel 4.
    NotPresent,
    /// Block number past the end (64 blocks of 8 bytes for 4 Kbit).
    BadBlock(u8),
}

/// EEPROM size reported by the joybus "info" command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EepromKind {
    Kbit4,
    Kbit16,
}

/// Blocks of 8 bytes in a 4 Kbit EEPROM.
pub const EEPROM_4K_BLOCKS: u8 = 64;

/// Channel 4 command block: channels 0..3 skipped with 0x00 bytes.
fn eeprom_block(tx: &[u8], rx_len: u8) -> [u8; 64] {
    let mut block = [0u8; 64];
    block[4] = tx.len() as u8;
    block[5] = rx_len;
    block[6..6 + tx.len()].copy_from_slice(tx);
    let end = 6 + tx.len() + rx_len as usize;
    block[6 + tx.len()..end].fill(0xFF);
    block[end] = 0xFE;
    block[63] = 0x01;
    block
}

fn eeprom_ok(block: &[u8; 64]) -> bool {
    block[5] & (RX_NO_DEVICE | RX_OVERRUN) == 0
}

/// Asks channel 4 what is there.
pub fn eeprom_probe() -> Option<EepromKind> {
    let mut block = eeprom_block(&[0x00], 3);
    exchange(&mut block);
    if !eeprom_ok(&block) {
        return None;
    }
    match u16::from_be_bytes([block[7], block[8]]) {
        0x0080 => Some(EepromKind::Kbit4),
        0x00C0 => Some(EepromKind::Kbit16),
        _ => None,
    }
}

/// Reads one 8-byte EEPROM block (command 0x04).
pub fn eeprom_read(index: u8) -> Result<[u8; 8], EepromError> {
    if index >= EEPROM_4K_BLOCKS {
        return Err(EepromError::BadBlock(index));
    }
    let mut block = eeprom_block(&[0x04, index], 8);
    exchange(&mut block);
    if !eeprom_ok(&block) {
        return Err(EepromError::NotPresent);
    }
    let mut data = [0u8; 8];
    data.copy_from_slice(&block[8..16]);
    Ok(data)
}

/// Writes one 8-byte EEPROM block (command 0x05), then waits the 15 ms the
/// chip needs before the next access.
pub fn eeprom_write(index: u8, data: &[u8; 8]) -> Result<(), EepromError> {
    if index >= EEPROM_4K_BLOCKS {
        return Err(EepromError::BadBlock(index));
    }
    let mut tx = [0u8; 10];
    tx[0] = 0x05;
    tx[1] = index;
    tx[2..].copy_from_slice(data);
    let mut block = eeprom_block(&tx, 1);
    exchange(&mut block);
    if !eeprom_ok(&block) {
        return Err(EepromError::NotPresent);
    }
    timer::delay_micros(15_000);
    Ok(())
}
