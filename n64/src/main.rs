//! Tic-Tac-Toe 64: the Nintendo 64 ROM's entry point. Runs the console game
//! (`ttt64-game`) on this crate's drivers: see [`tictactoe_n64::game`].

#![no_std]
#![no_main]

use tictactoe_n64::{bootinfo, exception, game, log, platform, si};

/// Called by `_start` (boot/entry.s) with a stack and a cleared .bss.
#[no_mangle]
extern "C" fn n64_start() -> ! {
    exception::install();
    // First of all (the PIF halts the CPU ~5 s after power-on without it).
    let pif = si::pif_boot_done();
    log!(
        "pif boot-done {:08x} read-back {:08x} taken={}",
        pif.written,
        pif.read_back,
        if pif.taken { "yes" } else { "no" }
    );
    log!(
        "boot tv={} mem={}",
        bootinfo::tv_type().name(),
        bootinfo::memory_size()
    );
    let Some(mut n64) = platform::N64::take() else {
        panic!("hardware taken twice");
    };
    game::run(&mut n64)
}
