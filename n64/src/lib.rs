//! Tic-Tac-Toe 64 platform layer for the Nintendo 64: bare metal, `no_std`,
//! no allocator.
//!
//! - [`boot`]: our IPL3 and the entry code (assembly).
//! - one small module per hardware block: [`vi`] (video), [`audio`], [`fb`]
//!   (framebuffers, embedded-graphics `DrawTarget`), [`si`] (joybus:
//!   controllers, EEPROM, the PIF boot-done write), [`pi`] (cartridge-bus
//!   writes), [`timer`] (COP0 Count), [`isviewer`] (debug
//!   text), [`cache`], [`exception`], plus [`regs`] (typed registers).
//! - [`input`]: edges and auto-repeat; [`platform`]: the interface the game
//!   is written against; [`game`]: the main loop running `ttt64-game`.

#![no_std]
#![feature(asm_experimental_arch)]

pub mod audio;
pub mod boot;
pub mod bootinfo;
pub mod cache;
pub mod exception;
pub mod fb;
pub mod game;
pub mod global;
pub mod input;
pub mod isviewer;
pub mod panic;
pub mod pi;
pub mod platform;
pub mod regs;
pub mod si;
pub mod timer;
pub mod vi;
pub mod vi_modes;
