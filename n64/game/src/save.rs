//! The save: scores per mode and the last settings, in the EEPROM.
//!
//! Layout ([`SAVE_SIZE`] bytes, big-endian, a multiple of the EEPROM's 8-byte
//! blocks):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `T64S` |
//! | 4 | 1 | version ([`SAVE_VERSION`]) |
//! | 5 | 1 | number of modes (4) |
//! | 6 | 2 | reserved, 0 |
//! | 8 | 48 | per mode (1p, 2p, 2p-shared, cvc): side-1 wins, side-2 wins, draws (u32 each) |
//! | 56 | 8 | settings: mode, size, k, computer, computer 2, first, rumble (1 on, 0 off), 1 reserved |
//! | 64 | 4 | reserved, 0 |
//! | 68 | 4 | CRC-32 (IEEE) of bytes 0..68 |
//!
//! A save whose magic, version, mode count or checksum is wrong is not
//! trusted: the game starts from zero scores and writes a fresh save.
//!
//! Versions: 1 had no Rumble setting (byte 62 reserved, 0); 2 adds it. A
//! version 1 save still loads, scores and settings, with Rumble on (its
//! default); the next save written is version 2. A version 2 save is
//! "invalid version" to a version 1 ROM, which resets it.

use ttt_core::series::Score;

use crate::settings::Settings;

/// Bytes of the save.
pub const SAVE_SIZE: usize = 72;
/// Format version written.
pub const SAVE_VERSION: u8 = 2;
/// The version before the Rumble setting, still read.
pub const SAVE_VERSION_1: u8 = 1;
/// Offset of the Rumble setting in the save (settings byte 6).
const RUMBLE_OFFSET: usize = 62;
/// The magic at offset 0.
pub const SAVE_MAGIC: [u8; 4] = *b"T64S";
/// Number of game modes with their own scores.
pub const MODES: usize = 4;

/// What the save holds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SaveData {
    /// All-time scores per mode (index: [`crate::Mode::index`]): side 1 is
    /// you, player 1 or computer 1.
    pub scores: [Score; MODES],
    /// The settings last played with.
    pub settings: Settings,
}

/// Why a save was not loaded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SaveError {
    /// Fewer than [`SAVE_SIZE`] bytes.
    Short,
    /// No magic: a blank or foreign EEPROM.
    Blank,
    /// Another format version.
    Version,
    /// The checksum does not match: corrupt.
    Checksum,
}

impl SaveError {
    /// One word for the log.
    pub fn name(self) -> &'static str {
        match self {
            SaveError::Short => "short",
            SaveError::Blank => "blank",
            SaveError::Version => "version",
            SaveError::Checksum => "checksum",
        }
    }
}

/// CRC-32 (IEEE 802.3, reflected, as zlib), bit by bit: small and no table.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

impl SaveData {
    /// The save as bytes.
    pub fn encode(&self) -> [u8; SAVE_SIZE] {
        let mut b = [0u8; SAVE_SIZE];
        b[0..4].copy_from_slice(&SAVE_MAGIC);
        b[4] = SAVE_VERSION;
        b[5] = MODES as u8;
        for (i, s) in self.scores.iter().enumerate() {
            let o = 8 + i * 12;
            b[o..o + 4].copy_from_slice(&s.wins.to_be_bytes());
            b[o + 4..o + 8].copy_from_slice(&s.losses.to_be_bytes());
            b[o + 8..o + 12].copy_from_slice(&s.draws.to_be_bytes());
        }
        b[56..64].copy_from_slice(&self.settings.to_bytes());
        let crc = crc32(&b[..68]);
        b[68..72].copy_from_slice(&crc.to_be_bytes());
        b
    }

    /// Reads a save, checking magic, version and checksum. Settings out of
    /// range are replaced by defaults (the scores are still trusted).
    pub fn decode(bytes: &[u8]) -> Result<SaveData, SaveError> {
        let b = bytes.get(..SAVE_SIZE).ok_or(SaveError::Short)?;
        if b[0..4] != SAVE_MAGIC {
            return Err(SaveError::Blank);
        }
        let version = b[4];
        if !(version == SAVE_VERSION || version == SAVE_VERSION_1) || b[5] != MODES as u8 {
            return Err(SaveError::Version);
        }
        let stored = u32::from_be_bytes([b[68], b[69], b[70], b[71]]);
        if crc32(&b[..68]) != stored {
            return Err(SaveError::Checksum);
        }
        let word = |o: usize| u32::from_be_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let mut data = SaveData::default();
        for (i, s) in data.scores.iter_mut().enumerate() {
            let o = 8 + i * 12;
            *s = Score {
                wins: word(o),
                losses: word(o + 4),
                draws: word(o + 8),
            };
        }
        let mut settings = [0u8; 8];
        settings.copy_from_slice(&b[56..64]);
        if version == SAVE_VERSION_1 {
            // Version 1 had no Rumble setting: it gets the default, on.
            settings[RUMBLE_OFFSET - 56] = u8::from(Settings::default().rumble);
        }
        data.settings = Settings::from_bytes(&settings).unwrap_or_default();
        Ok(data)
    }
}
