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
//! | 56 | 10 | settings: mode, size, k, computer, computer 2, first, rumble (1 on, 0 off), 0, rules (0 freestyle, 1 exactly k, 2 renju), think time (0 1 s, 1 3 s, 2 8 s) |
//! | 66 | 2 | reserved, 0 |
//! | 68 | 4 | CRC-32 (IEEE) of bytes 0..68 |
//!
//! A save whose magic, version, mode count or checksum is wrong is not
//! trusted: the game starts from zero scores and writes a fresh save.
//!
//! Versions: 1 had no Rumble setting (byte 62 reserved, 0); 2 adds it; 3
//! adds the rules and the think time (bytes 64 and 65, reserved before),
//! with boards up to 15x15. A version 1 or 2 save still loads, scores and
//! settings, with freestyle rules and the default think time (and, from
//! version 1, Rumble on, its default); the next save written is version 3.
//! A save of a later version is "invalid version" to an earlier ROM, which
//! resets it.

use ttt_core::series::Score;

use crate::settings::{Settings, SETTINGS_BYTES};

/// Bytes of the save.
pub const SAVE_SIZE: usize = 72;
/// Format version written.
pub const SAVE_VERSION: u8 = 3;
/// The version before the rules and the think time (boards up to 9x9),
/// still read.
pub const SAVE_VERSION_2: u8 = 2;
/// The version before the Rumble setting, still read.
pub const SAVE_VERSION_1: u8 = 1;
/// Offset of the settings in the save.
const SETTINGS_OFFSET: usize = 56;
/// Offset of the Rumble setting in the save (settings byte 6).
const RUMBLE_OFFSET: usize = 62;
/// Offset of the think time in the save (settings byte 9).
const THINK_OFFSET: usize = 65;
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
        b[SETTINGS_OFFSET..SETTINGS_OFFSET + SETTINGS_BYTES]
            .copy_from_slice(&self.settings.to_bytes());
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
        if ![SAVE_VERSION, SAVE_VERSION_2, SAVE_VERSION_1].contains(&version) || b[5] != MODES as u8
        {
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
        let mut settings = [0u8; SETTINGS_BYTES];
        settings.copy_from_slice(&b[SETTINGS_OFFSET..SETTINGS_OFFSET + SETTINGS_BYTES]);
        if version < SAVE_VERSION {
            // Before version 3: freestyle (byte 64 was 0) and the default
            // think time.
            settings[THINK_OFFSET - SETTINGS_OFFSET] = Settings::default().think;
        }
        if version == SAVE_VERSION_1 {
            // Version 1 had no Rumble setting: it gets the default, on.
            settings[RUMBLE_OFFSET - SETTINGS_OFFSET] = u8::from(Settings::default().rumble);
        }
        data.settings = Settings::from_bytes(&settings).unwrap_or_default();
        Ok(data)
    }
}

/// How a save is going ([`crate::Host::save_write`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SaveProgress {
    /// All of it is in the EEPROM (read back and checked).
    Written,
    /// Still being written.
    Writing,
    /// It could not be written (no EEPROM, too small, or a block that did
    /// not read back as written).
    Failed,
}

/// The EEPROM as [`SaveWriter`] sees it: 8-byte blocks.
pub trait SaveBlocks {
    /// Blocks of 8 bytes (0 without an EEPROM).
    fn block_count(&self) -> u8;
    /// Block `index`; `None` if it cannot be read.
    fn read_block(&mut self, index: u8) -> Option<[u8; BLOCK]>;
    /// Sends block `index` to the chip, which then writes it for up to
    /// [`SaveWriter::WRITE_US`], answering nothing meanwhile; `false` if it
    /// cannot be sent.
    fn write_block(&mut self, index: u8, data: &[u8; BLOCK]) -> bool;
}

/// Bytes per EEPROM block.
pub const BLOCK: usize = 8;

/// Writes a save into the EEPROM over several frames, so that none of
/// them waits for the chip: [`SaveWriter::step`], called once a frame,
/// sends at most one block, one that differs from what the EEPROM holds (a
/// game's end changes two or three of the nine), and lets the chip write
/// it for [`SaveWriter::WRITE_US`] before it speaks to it again (the next
/// frame, 16.7 or 20 ms later), when it reads the block back to check it.
/// What the EEPROM holds is known from the save read at boot
/// ([`SaveWriter::know`]) and from each block read back; a block not known
/// is read first, one a step. So a step costs at most three joybus
/// commands (about a millisecond each in ares). A save is whole once every
/// block holds it; one started while another is being written takes its
/// place.
pub struct SaveWriter {
    target: [u8; SAVE_SIZE],
    /// What the EEPROM holds, where `known` says so.
    shadow: [u8; SAVE_SIZE],
    known: [bool; SAVE_BLOCKS],
    /// Blocks below this one hold the target.
    next: u8,
    /// The block sent last and what it was sent, to be read back.
    written: Option<(u8, [u8; BLOCK])>,
    /// When the chip may be spoken to again (after a block write).
    ready_at_us: u64,
    progress: SaveProgress,
}

/// Blocks of the save.
const SAVE_BLOCKS: usize = SAVE_SIZE / BLOCK;

impl Default for SaveWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl SaveWriter {
    /// How long the chip is busy after a block write (a 4 Kbit EEPROM's
    /// write cycle: up to 15 ms).
    pub const WRITE_US: u64 = 15_000;

    /// Nothing to write, nothing known of the EEPROM.
    pub const fn new() -> Self {
        Self {
            target: [0; SAVE_SIZE],
            shadow: [0; SAVE_SIZE],
            known: [false; SAVE_BLOCKS],
            next: 0,
            written: None,
            ready_at_us: 0,
            progress: SaveProgress::Written,
        }
    }

    /// The EEPROM holds `data` from its start (as just read): its whole
    /// blocks need not be read again before a save.
    pub fn know(&mut self, data: &[u8]) {
        for (index, block) in data.chunks_exact(BLOCK).take(SAVE_BLOCKS).enumerate() {
            self.remember(index as u8, block);
        }
    }

    fn remember(&mut self, index: u8, block: &[u8]) {
        let start = usize::from(index) * BLOCK;
        if let (Some(shadow), Some(known)) = (
            self.shadow.get_mut(start..start + BLOCK),
            self.known.get_mut(usize::from(index)),
        ) {
            shadow.copy_from_slice(block);
            *known = true;
        }
    }

    /// Starts writing `data` to the start of an EEPROM of `blocks`
    /// blocks: [`SaveProgress::Failed`] (and nothing written) if it does
    /// not fit or is not a save's size.
    pub fn start(&mut self, data: &[u8], blocks: u8) -> SaveProgress {
        if data.len() != SAVE_SIZE || SAVE_BLOCKS > usize::from(blocks) {
            self.progress = SaveProgress::Failed;
            return self.progress;
        }
        self.target.copy_from_slice(data);
        // From the first block again: a block already written may differ
        // from the new save. A block still being written is read back
        // first, against what it was sent (the chip's busy time counts).
        self.next = 0;
        self.progress = SaveProgress::Writing;
        self.progress
    }

    /// How the save is going.
    pub fn progress(&self) -> SaveProgress {
        self.progress
    }

    /// Whether the chip is still writing a block at `now_us` (nothing else
    /// may speak to it then).
    pub fn busy(&self, now_us: u64) -> bool {
        now_us < self.ready_at_us
    }

    /// Once a frame, at `now_us`: reads back the block written last, reads
    /// one block not known yet, and sends the next block that differs, each
    /// at most once. Returns the progress.
    pub fn step(&mut self, now_us: u64, eeprom: &mut impl SaveBlocks) -> SaveProgress {
        if self.progress != SaveProgress::Writing || self.busy(now_us) {
            return self.progress;
        }
        if let Some((index, sent)) = self.written.take() {
            if eeprom.read_block(index) != Some(sent) {
                return self.fail();
            }
            self.remember(index, &sent);
        }
        let mut read = false;
        while usize::from(self.next) < SAVE_BLOCKS {
            let index = self.next;
            let wanted = Self::block(&self.target, index);
            if !self.known[usize::from(index)] {
                if read {
                    return self.progress;
                }
                let Some(block) = eeprom.read_block(index) else {
                    return self.fail();
                };
                self.remember(index, &block);
                read = true;
            }
            if Self::block(&self.shadow, index) == wanted {
                self.next += 1;
                continue;
            }
            if !eeprom.write_block(index, &wanted) {
                return self.fail();
            }
            // Unknown until it reads back right.
            self.known[usize::from(index)] = false;
            self.written = Some((index, wanted));
            self.ready_at_us = now_us.saturating_add(Self::WRITE_US);
            return self.progress;
        }
        self.progress = SaveProgress::Written;
        self.progress
    }

    fn fail(&mut self) -> SaveProgress {
        self.progress = SaveProgress::Failed;
        self.progress
    }

    fn block(image: &[u8; SAVE_SIZE], index: u8) -> [u8; BLOCK] {
        let start = usize::from(index) * BLOCK;
        let mut block = [0u8; BLOCK];
        if let Some(bytes) = image.get(start..start + BLOCK) {
            block.copy_from_slice(bytes);
        }
        block
    }
}
