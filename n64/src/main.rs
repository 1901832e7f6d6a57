//! Tic-Tac-Toe 64: the Nintendo 64 ROM's entry point. Starts libdragon's
//! modules and runs the console game (`ttt64-game`): see
//! [`tictactoe_n64::main_loop`].

#![no_std]
#![no_main]

use tictactoe_n64::audio::Audio;
use tictactoe_n64::display::Display;
use tictactoe_n64::save::Eeprom;
use tictactoe_n64::tv::TvType;
use tictactoe_n64::{input, log, main_loop, pif, time};

/// Called by `_start` (boot/entry.s) once libdragon's boot globals,
/// vectors and constructors are in place.
#[no_mangle]
extern "C" fn n64_start() -> ! {
    // Where there is an IS-Viewer (emulators, development cartridges), so
    // that even an assertion during start-up is reported.
    log::init();
    time::init();
    // First of all (the PIF halts the CPU ~5 s after power-on without it),
    // before libdragon's joypad polling sends joybus blocks.
    let pif = pif::pif_boot_done();
    log!(
        "pif boot-done {:08x} read-back {:08x} taken={}",
        pif.written,
        pif.read_back,
        if pif.taken { "yes" } else { "no" }
    );
    let tv = TvType::current();
    // SAFETY: get_memory_size reads libdragon's boot global.
    let memory = unsafe { libdragon_sys::get_memory_size() };
    log!("boot tv={} mem={memory}", tv.name());
    let display = Display::init(tv);
    input::init();
    let eeprom = Eeprom::detect();
    let audio = Audio::init();
    main_loop::run(display, eeprom, audio)
}
