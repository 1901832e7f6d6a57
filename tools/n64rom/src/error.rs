//! Every way packing or inspecting a ROM can fail. Bad input is reported
//! through these errors, never through a panic.

use thiserror::Error;

/// Errors of the ROM packer and inspector.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RomError {
    #[error("not an ELF file (the first 4 bytes are not \\x7fELF)")]
    NotElf,
    #[error("ELF is 64-bit (ELFCLASS64); the N64 program must be a 32-bit ELF (ELFCLASS32)")]
    WrongClass,
    #[error("ELF is little-endian; the N64 CPU runs big-endian (ELFDATA2MSB)")]
    WrongEndian,
    #[error("ELF machine is {0}, expected MIPS (EM_MIPS = 8)")]
    WrongMachine(u16),
    #[error("ELF type is {0}, expected an executable (ET_EXEC = 2)")]
    NotExecutable(u16),
    #[error("malformed ELF: {0}")]
    Malformed(String),
    #[error("ELF has no loadable segment with file data")]
    NoLoadableSegment,
    #[error("entry point {0:#010x} is outside RDRAM (0x80000000..0x80800000)")]
    EntryOutsideRdram(u64),
    #[error("segment {start:#010x}..{end:#010x} is outside RDRAM (0x80000000..0x80800000, KSEG0)")]
    SegmentOutsideRdram { start: u64, end: u64 },
    #[error(
        "segment at {start:#010x} lies below the entry point {entry:#010x}; \
         the IPL3 loads the program at the entry point, so link the entry first"
    )]
    SegmentBelowEntry { start: u32, entry: u32 },
    #[error("segments overlap in the ROM image: {first:#010x} and {second:#010x}")]
    SegmentsOverlap { first: u32, second: u32 },
    #[error("program is {size} bytes; the IPL3 copies only {max} bytes (1 MiB) from ROM 0x1000")]
    ProgramTooLarge { size: usize, max: usize },
    #[error("no IPL3: the ELF has no .ipl3 section and no --ipl3 FILE was given")]
    NoIpl3,
    #[error("IPL3 in the ELF's .ipl3 section is {0} bytes; at most 4032 (0x40..0x1000) fit")]
    Ipl3SectionTooLarge(usize),
    #[error(
        "IPL3 file is {0} bytes: expected a raw IPL3 of exactly 4032 bytes \
         or a .z64 ROM of at least 4096 bytes"
    )]
    BadIpl3Size(usize),
    #[error(
        "file is not a big-endian .z64 ROM (first word {0:#010x}, expected 0x80371240); \
         byte-swapped .v64/.n64 dumps must be converted to .z64 first"
    )]
    NotZ64(u32),
    #[error("title {0:?} must be at most 20 ASCII characters")]
    BadTitle(String),
    #[error("game ID {0:?} must be exactly 2 ASCII characters")]
    BadGameId(String),
    #[error("{what} {value:?} must be a single ASCII character")]
    BadCodeChar { what: &'static str, value: String },
    #[error("ROM is {0} bytes; a ROM needs at least 4096 bytes (header and IPL3)")]
    RomTooSmall(usize),
    #[error(
        "no room for the 8-byte pad at ROM {offset:#x}: it must lie 4-aligned inside the \
         checksummed window 0x1000..0x101000, so the program may use at most 1 MiB - 8 bytes"
    )]
    NoRoomForPad { offset: usize },
    #[error(
        "no pad makes CRC1 larger than {bound:#x}, the size bound of libdragon's compat \
         IPL3 for entry {entry:#010x}; a ROM with this entry would load only CRC1 bytes there"
    )]
    NoPadValue { entry: u32, bound: u32 },
}
