//! The cartridge EEPROM (4 Kbit: 64 blocks of 8 bytes; the scores), through
//! libdragon's eeprom module (joybus channel 4). After a block write the
//! chip is busy for up to 15 ms, which libdragon leaves to the caller:
//! [`Eeprom::write_block`] only sends the block, and the game's
//! `SaveWriter` (main loop) speaks to the chip again a frame later, so no
//! frame waits for it.

use libdragon_sys as sys;
use ttt64_game::SaveBlocks;

/// EEPROM errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EepromError {
    /// No EEPROM answered on channel 4.
    NotPresent,
    /// Block number past the end.
    BadBlock(u8),
}

/// The cartridge's EEPROM, as detected at boot.
pub struct Eeprom {
    blocks: u8,
}

impl Eeprom {
    /// Asks the joybus which EEPROM the cartridge has (none: 0 blocks).
    pub fn detect() -> Self {
        // SAFETY: eeprom_present sends one joybus "info" command to
        // channel 4 and eeprom_total_blocks reads the type it found; joybus
        // is set up by libdragon's constructors.
        let blocks = unsafe {
            match sys::eeprom_present() {
                sys::EEPROM_NONE => 0,
                _ => sys::eeprom_total_blocks().min(255) as u8,
            }
        };
        Self { blocks }
    }

    /// Blocks of 8 bytes (0 without an EEPROM).
    pub fn block_count(&self) -> u8 {
        self.blocks
    }

    fn check(&self, index: u8) -> Result<(), EepromError> {
        if self.blocks == 0 {
            Err(EepromError::NotPresent)
        } else if index >= self.blocks {
            Err(EepromError::BadBlock(index))
        } else {
            Ok(())
        }
    }

    /// Reads block `index`.
    pub fn read_block(&mut self, index: u8) -> Result<[u8; 8], EepromError> {
        self.check(index)?;
        let mut data = [0u8; sys::EEPROM_BLOCK_SIZE as usize];
        // SAFETY: `data` holds the 8 bytes eeprom_read writes; `index` is
        // below the detected block count.
        unsafe { sys::eeprom_read(index, data.as_mut_ptr()) };
        Ok(data)
    }

    /// Sends block `index` to the chip, which then writes it for up to
    /// 15 ms without answering: the caller waits that long before the next
    /// command ([`ttt64_game::SaveWriter`]).
    pub fn write_block(&mut self, index: u8, data: &[u8; 8]) -> Result<(), EepromError> {
        self.check(index)?;
        // SAFETY: `data` holds the 8 bytes eeprom_write reads; `index` is
        // below the detected block count.
        unsafe { sys::eeprom_write(index, data.as_ptr()) };
        Ok(())
    }
}

impl SaveBlocks for Eeprom {
    fn block_count(&self) -> u8 {
        self.blocks
    }

    fn read_block(&mut self, index: u8) -> Option<[u8; 8]> {
        Eeprom::read_block(self, index).ok()
    }

    fn write_block(&mut self, index: u8, data: &[u8; 8]) -> bool {
        Eeprom::write_block(self, index, data).is_ok()
    }
}
