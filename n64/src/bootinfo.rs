//! Boot information the IPL3 leaves in low RDRAM (see boot/ipl3.s).

use crate::regs::Reg;
pub use crate::vi_modes::TvType;

// SAFETY: RDRAM words written by the IPL3, read uncached (KSEG1).
const TV_TYPE: Reg<u32> = unsafe { Reg::at(0xA000_0300) };
// SAFETY: as above.
const MEMORY_SIZE: Reg<u32> = unsafe { Reg::at(0xA000_0318) };

/// TV type stored by the IPL3 (unknown values count as NTSC).
pub fn tv_type() -> TvType {
    TvType::from_boot_word(TV_TYPE.read())
}

/// RDRAM size in bytes stored by the IPL3 (4 or 8 MiB).
pub fn memory_size() -> u32 {
    MEMORY_SIZE.read()
}
