//! Tic-Tac-Toe 64 on the Nintendo 64: the console layer under the game
//! (`ttt64-game`), on libdragon (through `libdragon-sys`).
//!
//! - [`boot`]: our IPL3 (for emulators) and the entry code that hands a
//!   flat-loaded program over to libdragon (assembly).
//! - one small module per hardware block, each wrapping libdragon:
//!   [`display`] (VI, framebuffers drawn with the game's raster),
//!   [`audio`] (the game's synthesizer into libdragon's ring), [`input`]
//!   (joypads, Rumble Pak), [`save`] (EEPROM), [`time`], [`log`]
//!   (IS-Viewer lines), [`tv`]; and what libdragon lacks: [`pif`] (the
//!   PIF's boot termination), [`cache`] (create-dirty lines), [`regs`]
//!   (typed registers for those).
//! - [`main_loop`]: the frame loop running `ttt64-game` on those modules;
//!   [`panic`]; [`global`] (mutable statics of the one CPU thread).

#![no_std]
#![feature(asm_experimental_arch)]

pub mod audio;
pub mod boot;
pub mod cache;
pub mod display;
pub mod global;
pub mod input;
pub mod log;
pub mod main_loop;
pub mod panic;
pub mod pif;
pub mod regs;
pub mod save;
pub mod time;
pub mod tv;
