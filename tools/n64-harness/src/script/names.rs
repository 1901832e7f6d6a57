//! The names a script uses for the emulator's CPU cores, the
//! controller's buttons and its accessory paks, and their values for
//! mupen64plus.

use std::fmt;

/// The CPU core of mupen64plus (`Core/R4300Emulator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CpuMode {
    /// Pure interpreter (0).
    Pure,
    /// Cached interpreter (1).
    Cached,
    /// Dynamic recompiler (2).
    Dynarec,
}

impl CpuMode {
    pub const ALL: [CpuMode; 3] = [CpuMode::Pure, CpuMode::Cached, CpuMode::Dynarec];

    /// The value of `Core/R4300Emulator`.
    pub fn r4300_emulator(self) -> i32 {
        match self {
            CpuMode::Pure => 0,
            CpuMode::Cached => 1,
            CpuMode::Dynarec => 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CpuMode::Pure => "pure",
            CpuMode::Cached => "cached",
            CpuMode::Dynarec => "dynarec",
        }
    }

    pub fn from_name(name: &str) -> Option<CpuMode> {
        match name.to_ascii_lowercase().as_str() {
            "pure" | "0" => Some(CpuMode::Pure),
            "cached" | "1" => Some(CpuMode::Cached),
            "dynarec" | "2" => Some(CpuMode::Dynarec),
            _ => None,
        }
    }
}

impl fmt::Display for CpuMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Controller buttons, named as in the ROM's IS-Viewer contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    A,
    B,
    Z,
    Start,
    DUp,
    DDown,
    DLeft,
    DRight,
    L,
    R,
    CUp,
    CDown,
    CLeft,
    CRight,
}

impl Button {
    pub const ALL: [Button; 14] = [
        Button::A,
        Button::B,
        Button::Z,
        Button::Start,
        Button::DUp,
        Button::DDown,
        Button::DLeft,
        Button::DRight,
        Button::L,
        Button::R,
        Button::CUp,
        Button::CDown,
        Button::CLeft,
        Button::CRight,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Button::A => "A",
            Button::B => "B",
            Button::Z => "Z",
            Button::Start => "START",
            Button::DUp => "DUP",
            Button::DDown => "DDOWN",
            Button::DLeft => "DLEFT",
            Button::DRight => "DRIGHT",
            Button::L => "L",
            Button::R => "R",
            Button::CUp => "CUP",
            Button::CDown => "CDOWN",
            Button::CLeft => "CLEFT",
            Button::CRight => "CRIGHT",
        }
    }

    pub fn from_name(name: &str) -> Option<Button> {
        let upper = name.to_ascii_uppercase();
        Button::ALL.into_iter().find(|b| b.name() == upper)
    }

    /// The bit in mupen64plus's `BUTTONS.Value` (m64p_plugin.h bitfield
    /// order; not the joybus wire format).
    pub fn mask(self) -> u32 {
        let bit = match self {
            Button::DRight => 0,
            Button::DLeft => 1,
            Button::DDown => 2,
            Button::DUp => 3,
            Button::Start => 4,
            Button::Z => 5,
            Button::B => 6,
            Button::A => 7,
            Button::CRight => 8,
            Button::CLeft => 9,
            Button::CDown => 10,
            Button::CUp => 11,
            Button::R => 12,
            Button::L => 13,
        };
        1 << bit
    }
}

/// All button bits of `BUTTONS.Value` (the stick is in bits 16..32).
pub const ALL_BUTTONS_MASK: u32 = 0x3FFF;

/// What is plugged into a controller's accessory slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pak {
    /// Nothing (`PLUGIN_NONE`, 1): the default.
    None,
    /// A Rumble Pak (`PLUGIN_RUMBLE_PAK`, 3).
    Rumble,
}

impl Pak {
    pub const ALL: [Pak; 2] = [Pak::None, Pak::Rumble];

    pub fn name(self) -> &'static str {
        match self {
            Pak::None => "none",
            Pak::Rumble => "rumble",
        }
    }

    pub fn from_name(name: &str) -> Option<Pak> {
        let lower = name.to_ascii_lowercase();
        Pak::ALL.into_iter().find(|p| p.name() == lower)
    }

    /// The value of mupen64plus's `CONTROL.Plugin` (m64p_plugin.h).
    pub fn control_plugin(self) -> i32 {
        match self {
            Pak::None => 1,
            Pak::Rumble => 3,
        }
    }
}
