//! The TV standard the console runs (libdragon reads it from the boot
//! information the IPL3 leaves), and its name in the log.

use libdragon_sys as sys;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TvType {
    Pal,
    Ntsc,
    Mpal,
}

impl TvType {
    /// The console's TV type (anything unknown is NTSC, as libdragon does).
    pub fn current() -> Self {
        // SAFETY: get_tv_type only reads libdragon's boot global.
        match unsafe { sys::get_tv_type() } {
            sys::TV_PAL => TvType::Pal,
            sys::TV_MPAL => TvType::Mpal,
            _ => TvType::Ntsc,
        }
    }

    /// Used in the `boot tv=...` log line.
    pub const fn name(self) -> &'static str {
        match self {
            TvType::Pal => "pal",
            TvType::Ntsc => "ntsc",
            TvType::Mpal => "mpal",
        }
    }
}
