//! Boot code assembled with the program: our IPL3 (boot/ipl3.s, placed at
//! ROM 0x40 by n64rom from the non-loaded `.ipl3` section; emulators only)
//! and the entry point `_start` (boot/entry.s), which hands the flat-loaded
//! program over to libdragon and calls `n64_start`.

core::arch::global_asm!(include_str!("boot/ipl3.s"));
core::arch::global_asm!(include_str!("boot/entry.s"));
