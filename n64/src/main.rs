//! Tic-Tac-Toe 64: the Nintendo 64 ROM's entry point.

#![no_std]
#![no_main]

use tictactoe_n64::{bootinfo, exception, log, platform, title};
// The game engine; linked now so `make rom` proves it builds for the N64.
use ttt_core as _;

/// Called by `_start` (boot/entry.s) with a stack and a cleared .bss.
#[no_mangle]
extern "C" fn n64_start() -> ! {
    exception::install();
    log!(
        "boot tv={} mem={}",
        bootinfo::tv_type().name(),
        bootinfo::memory_size()
    );
    let Some(mut n64) = platform::N64::take() else {
        panic!("hardware taken twice");
    };
    title::run(&mut n64)
}
