//! Boot code assembled with the program: the IPL3 (boot/ipl3.s, placed at
//! ROM 0x40 by n64rom from the non-loaded `.ipl3` section) and the entry
//! point `_start` with the exception trampoline (boot/entry.s).

core::arch::global_asm!(include_str!("boot/ipl3.s"));
core::arch::global_asm!(include_str!("boot/entry.s"));
