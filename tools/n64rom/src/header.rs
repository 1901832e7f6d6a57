//! The 64-byte ROM header at the start of a .z64 image (big-endian), including
//! the Advanced Homebrew ROM Header fields (n64brew "ROM Header").
//!
//! | offset | bytes | field written by `n64rom pack` |
//! |---|---|---|
//! | 0x00 | 4 | PI DOM1 configuration `0x80371240` |
//! | 0x04 | 4 | clock rate `0x0000000F` |
//! | 0x08 | 4 | boot address = the ELF entry point |
//! | 0x0C | 4 | libultra version: 0 (none) |
//! | 0x10 | 4+4 | CRC1, CRC2 (CIC-6102 checksum of ROM 0x1000..0x101000) |
//! | 0x18 | 8 | zero |
//! | 0x20 | 20 | title, ASCII, space padded |
//! | 0x34 | 4 | advanced header: accessory expected on controller ports 1..4 |
//! | 0x38 | 3 | zero |
//! | 0x3B | 1 | category code `N` (cartridge) |
//! | 0x3C | 2 | game ID `ED`: marks the Advanced Homebrew ROM Header |
//! | 0x3E | 1 | destination (`E` North America/NTSC, `P` Europe/PAL, ...) |
//! | 0x3F | 1 | advanced header: save type (high nibble), flags (low nibble: bit 0 RTC, bit 1 region-free) |

use crate::error::RomError;

pub const PI_CONFIG: u32 = 0x8037_1240;
pub const CLOCK_RATE: u32 = 0x0000_000F;
pub const HEADER_LEN: usize = 0x40;
pub const IPL3_OFFSET: usize = 0x40;
pub const IPL3_LEN: usize = 0x1000 - 0x40;
pub const PROGRAM_OFFSET: usize = 0x1000;
pub const TITLE_LEN: usize = 20;
/// Game ID that announces the Advanced Homebrew ROM Header.
pub const ADVANCED_ID: [u8; 2] = *b"ED";

/// Save types of the Advanced Homebrew ROM Header (0x3F, high nibble).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveType {
    None = 0,
    Eeprom4k = 1,
    Eeprom16k = 2,
    Sram256k = 3,
    Sram768k = 4,
    FlashRam1m = 5,
    Sram1m = 6,
}

impl SaveType {
    pub fn from_nibble(n: u8) -> Option<Self> {
        Some(match n {
            0 => Self::None,
            1 => Self::Eeprom4k,
            2 => Self::Eeprom16k,
            3 => Self::Sram256k,
            4 => Self::Sram768k,
            5 => Self::FlashRam1m,
            6 => Self::Sram1m,
            _ => return None,
        })
    }
}

/// Controller accessory codes of the Advanced Homebrew ROM Header (0x34..0x37).
pub mod accessory {
    pub const CONTROLLER: u8 = 0x00;
    pub const CONTROLLER_PAK: u8 = 0x01;
    pub const RUMBLE_PAK: u8 = 0x02;
    pub const TRANSFER_PAK: u8 = 0x03;
    pub const NONE: u8 = 0xFF;

    pub fn name(code: u8) -> &'static str {
        match code {
            CONTROLLER => "controller",
            CONTROLLER_PAK => "controller pak",
            RUMBLE_PAK => "rumble pak",
            TRANSFER_PAK => "transfer pak",
            0x80 => "mouse",
            0x81 => "voice recognition unit",
            0x82 => "gamecube controller",
            0x83 => "randnet keyboard",
            0x84 => "gamecube keyboard",
            NONE => "nothing",
            _ => "unknown",
        }
    }
}

/// Flag bits in the low nibble of 0x3F.
pub const FLAG_RTC: u8 = 0x01;
pub const FLAG_REGION_FREE: u8 = 0x02;

/// What `pack` writes into the header (everything but the checksum).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderConfig {
    pub entry: u32,
    pub title: String,
    pub category: u8,
    pub destination: u8,
    pub save_type: SaveType,
    pub flags: u8,
    pub accessories: [u8; 4],
}

impl HeaderConfig {
    /// Tic-Tac-Toe 64 defaults: EEPROM 4K, region-free, a plain controller
    /// expected on all four ports.
    pub fn new(entry: u32) -> Self {
        Self {
            entry,
            title: "TIC-TAC-TOE 64".into(),
            category: b'N',
            destination: b'E',
            save_type: SaveType::Eeprom4k,
            flags: FLAG_REGION_FREE,
            accessories: [accessory::CONTROLLER; 4],
        }
    }
}

/// Checks a one-character code (category, destination) and returns its byte.
pub fn code_char(what: &'static str, value: &str) -> Result<u8, RomError> {
    match value.as_bytes() {
        [b] if b.is_ascii_graphic() => Ok(*b),
        _ => Err(RomError::BadCodeChar {
            what,
            value: value.into(),
        }),
    }
}

/// Writes the 64-byte header (CRC fields zero) into `rom[..0x40]`.
pub fn write_header(rom: &mut [u8], cfg: &HeaderConfig) -> Result<(), RomError> {
    if rom.len() < HEADER_LEN {
        return Err(RomError::RomTooSmall(rom.len()));
    }
    let title = cfg.title.as_bytes();
    if title.len() > TITLE_LEN || !title.iter().all(|b| (0x20..0x7F).contains(b)) {
        return Err(RomError::BadTitle(cfg.title.clone()));
    }
    let h = &mut rom[..HEADER_LEN];
    h.fill(0);
    h[0x00..0x04].copy_from_slice(&PI_CONFIG.to_be_bytes());
    h[0x04..0x08].copy_from_slice(&CLOCK_RATE.to_be_bytes());
    h[0x08..0x0C].copy_from_slice(&cfg.entry.to_be_bytes());
    h[0x20..0x34].fill(b' ');
    h[0x20..0x20 + title.len()].copy_from_slice(title);
    h[0x34..0x38].copy_from_slice(&cfg.accessories);
    h[0x3B] = cfg.category;
    h[0x3C..0x3E].copy_from_slice(&ADVANCED_ID);
    h[0x3E] = cfg.destination;
    h[0x3F] = ((cfg.save_type as u8) << 4) | (cfg.flags & 0x0F);
    Ok(())
}

/// Stores CRC1 and CRC2 at 0x10 and 0x14.
pub fn write_checksum(rom: &mut [u8], crc: (u32, u32)) {
    rom[0x10..0x14].copy_from_slice(&crc.0.to_be_bytes());
    rom[0x14..0x18].copy_from_slice(&crc.1.to_be_bytes());
}

/// Header fields as read back from a ROM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub pi_config: u32,
    pub clock_rate: u32,
    pub entry: u32,
    pub libultra: u32,
    pub crc1: u32,
    pub crc2: u32,
    pub title: String,
    pub accessories: [u8; 4],
    pub category: u8,
    pub game_id: [u8; 2],
    pub destination: u8,
    pub byte_3f: u8,
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Header {
    /// Parses the header of a big-endian .z64 image.
    pub fn parse(rom: &[u8]) -> Result<Self, RomError> {
        if rom.len() < PROGRAM_OFFSET {
            return Err(RomError::RomTooSmall(rom.len()));
        }
        let pi_config = be32(rom, 0);
        if pi_config != PI_CONFIG {
            return Err(RomError::NotZ64(pi_config));
        }
        let title = rom[0x20..0x34]
            .iter()
            .map(|&b| {
                if (0x20..0x7F).contains(&b) {
                    b as char
                } else {
                    '.'
                }
            })
            .collect::<String>()
            .trim_end()
            .to_string();
        Ok(Self {
            pi_config,
            clock_rate: be32(rom, 0x04),
            entry: be32(rom, 0x08),
            libultra: be32(rom, 0x0C),
            crc1: be32(rom, 0x10),
            crc2: be32(rom, 0x14),
            title,
            accessories: [rom[0x34], rom[0x35], rom[0x36], rom[0x37]],
            category: rom[0x3B],
            game_id: [rom[0x3C], rom[0x3D]],
            destination: rom[0x3E],
            byte_3f: rom[0x3F],
        })
    }

    pub fn is_advanced(&self) -> bool {
        self.game_id == ADVANCED_ID
    }
}

/// Human-readable name of a destination code.
pub fn destination_name(code: u8) -> &'static str {
    match code {
        b'E' => "North America (NTSC)",
        b'J' => "Japan (NTSC)",
        b'P' | b'D' | b'F' | b'I' | b'S' | b'U' | b'X' | b'Y' => "Europe/Australia (PAL)",
        b'B' => "Brazil (MPAL)",
        b'A' => "all regions",
        _ => "other",
    }
}
