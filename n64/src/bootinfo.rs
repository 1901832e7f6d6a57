//! Boot information the IPL3 leaves in low RDRAM (see boot/ipl3.s).

use crate::regs::Reg;

// SAFETY: RDRAM words written by the IPL3, read uncached (KSEG1).
const TV_TYPE: Reg<u32> = unsafe { Reg::at(0xA000_0300) };
// SAFETY: as above.
const MEMORY_SIZE: Reg<u32> = unsafe { Reg::at(0xA000_0318) };

/// Video standard of the console (0x80000300).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TvType {
    Pal,
    Ntsc,
    Mpal,
}

impl TvType {
    pub fn name(self) -> &'static str {
        match self {
            TvType::Pal => "pal",
            TvType::Ntsc => "ntsc",
            TvType::Mpal => "mpal",
        }
    }
}

/// TV type stored by the IPL3 (unknown values count as NTSC).
pub fn tv_type() -> TvType {
    match TV_TYPE.read() {
        0 => TvType::Pal,
        2 => TvType::Mpal,
        _ => TvType::Ntsc,
    }
}

/// RDRAM size in bytes stored by the IPL3 (4 or 8 MiB).
pub fn memory_size() -> u32 {
    MEMORY_SIZE.read()
}
