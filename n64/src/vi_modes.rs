//! The TV types and the VI mode the ROM programs for each: pure data and
//! arithmetic, no hardware access, so the host tests include this file
//! (`n64/game/tests/vi_modes.rs`) and check the mapping the console uses.
//!
//! Modes: 320x240, progressive, libultra's "LPN1" timings per standard
//! (n64brew "Video Interface"), except V_VIDEO: libultra's shows 237 lines
//! (0x25..0x1FF = 474 half-lines), ours spans all 240 (480 half-lines).

/// Video standard of the console, as the IPL3 stores it at 0x80000300.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TvType {
    Pal,
    Ntsc,
    Mpal,
}

impl TvType {
    /// From the boot word (0 PAL, 1 NTSC, 2 MPAL; anything else counts as
    /// NTSC).
    pub const fn from_boot_word(word: u32) -> TvType {
        match word {
            0 => TvType::Pal,
            2 => TvType::Mpal,
            _ => TvType::Ntsc,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            TvType::Pal => "pal",
            TvType::Ntsc => "ntsc",
            TvType::Mpal => "mpal",
        }
    }

    /// The VI mode for this standard.
    pub const fn vi_mode(self) -> &'static ViMode {
        match self {
            TvType::Ntsc => &NTSC,
            TvType::Pal => &PAL,
            TvType::Mpal => &MPAL,
        }
    }
}

/// One standard's VI clock and timing registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViMode {
    /// VI clock in Hz (n64brew; mupen64plus uses the same).
    pub clock_hz: u32,
    /// BURST, V_SYNC, H_SYNC, H_SYNC_LEAP, H_VIDEO, V_VIDEO, V_BURST
    /// (registers 0x14..0x2C).
    pub timing: [u32; 7],
}

pub const NTSC: ViMode = ViMode {
    clock_hz: 48_681_812,
    timing: [
        0x03E5_2239,
        0x0000_020D,
        0x0000_0C15,
        0x0C15_0C15,
        0x006C_02EC,
        0x0023_0203,
        0x000E_0204,
    ],
};

pub const PAL: ViMode = ViMode {
    clock_hz: 49_656_530,
    timing: [
        0x0404_233A,
        0x0000_0271,
        0x0015_0C69,
        0x0C6F_0C6E,
        0x0080_0300,
        0x005D_023D,
        0x0009_026B,
    ],
};

pub const MPAL: ViMode = ViMode {
    clock_hz: 48_628_316,
    timing: [
        0x0465_1E39,
        0x0000_020D,
        0x0004_0C11,
        0x0C19_0C1A,
        0x006C_02EC,
        0x0023_0203,
        0x000E_0204,
    ],
};

impl ViMode {
    /// V_SYNC: half-lines per field, minus one.
    pub const fn v_sync(&self) -> u32 {
        self.timing[1] & 0x3FF
    }

    /// VI clocks per line: H_SYNC + 1 (PAL's leap clocks, under 0.1%, are
    /// left out).
    pub const fn clocks_per_line(&self) -> u32 {
        (self.timing[2] & 0xFFF) + 1
    }

    /// Lines per (progressive) field: (V_SYNC + 1) / 2, i.e. V_SYNC / 2
    /// rounded up.
    pub const fn lines_per_field(&self) -> u32 {
        self.v_sync().div_ceil(2)
    }

    /// Lines of picture: V_VIDEO's end minus start, in half-lines, halved.
    pub const fn visible_lines(&self) -> u32 {
        let v_video = self.timing[5];
        (v_video & 0x3FF).saturating_sub((v_video >> 16) & 0x3FF) / 2
    }

    /// Fields per 1000 s.
    pub const fn refresh_millihz(&self) -> u32 {
        let per_field = self.clocks_per_line() as u64 * self.lines_per_field() as u64;
        if per_field == 0 {
            return 0;
        }
        let millihz = (self.clock_hz as u64 * 1000 + per_field / 2) / per_field;
        if millihz > u32::MAX as u64 {
            u32::MAX
        } else {
            millihz as u32
        }
    }
}
