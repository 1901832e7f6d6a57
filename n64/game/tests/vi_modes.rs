//! The ROM's TV type -> VI mode -> refresh rate mapping (n64/src/vi_modes.rs,
//! pure data, included here because the ROM crate only builds for the
//! console): the rates the game's timings are converted with, and the
//! picture every mode shows. mupen64plus boots no ROM as MPAL, so this is
//! the only check of the MPAL mode.

#[path = "../../src/vi_modes.rs"]
#[allow(dead_code)]
mod vi_modes;

use ttt64_game::Refresh;
use vi_modes::TvType;

#[test]
fn boot_words_map_to_tv_types() {
    assert_eq!(TvType::from_boot_word(0), TvType::Pal);
    assert_eq!(TvType::from_boot_word(1), TvType::Ntsc);
    assert_eq!(TvType::from_boot_word(2), TvType::Mpal);
    // Garbage (a home-made IPL3, a flashcart) is NTSC, not a crash.
    assert_eq!(TvType::from_boot_word(0xFFFF_FFFF), TvType::Ntsc);
    assert_eq!(TvType::from_boot_word(3).name(), "ntsc");
}

#[test]
fn each_tv_type_gets_its_own_standards_rate() {
    // VI clock / (H_SYNC + 1) / ((V_SYNC + 1) / 2): the consoles' real
    // progressive rates, not 60 and 50.
    let rate = |tv: TvType| tv.vi_mode().refresh_millihz();
    assert_eq!(rate(TvType::Ntsc), 59_826);
    assert_eq!(rate(TvType::Pal), 49_920);
    assert_eq!(rate(TvType::Mpal), 59_838);
    // PAL's lines are longer and more: 313 lines of 3178 clocks.
    assert_eq!(vi_modes::PAL.lines_per_field(), 313);
    assert_eq!(vi_modes::PAL.clocks_per_line(), 3178);
    assert_eq!(vi_modes::NTSC.lines_per_field(), 263);
    // What the game does with it: 10 s of attract delay in frames.
    let attract = |tv: TvType| Refresh::millihz(rate(tv)).frames(10_000);
    assert_eq!(attract(TvType::Ntsc), 598);
    assert_eq!(attract(TvType::Pal), 499);
    assert_eq!(attract(TvType::Mpal), 598);
}

#[test]
fn every_mode_shows_240_lines() {
    for tv in [TvType::Ntsc, TvType::Pal, TvType::Mpal] {
        let mode = tv.vi_mode();
        assert_eq!(mode.visible_lines(), 240, "{}", tv.name());
        // The picture fits in the field.
        assert!(mode.timing[5] & 0x3FF <= mode.v_sync(), "{}", tv.name());
    }
    // PAL and NTSC differ in every sync value; MPAL shares NTSC's lines.
    assert_ne!(vi_modes::PAL.timing[1], vi_modes::NTSC.timing[1]);
    assert_eq!(vi_modes::MPAL.timing[1], vi_modes::NTSC.timing[1]);
    assert_ne!(vi_modes::MPAL.timing[2], vi_modes::NTSC.timing[2]);
}
