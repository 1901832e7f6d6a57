//! While the computer thinks on a gomoku board (its search running on the
//! host for many frames), the game goes on: the person's cursor moves,
//! START pauses, and leaving the board gives the search up.
mod common;

use common::*;
use ttt64_game::{Buttons, MenuItem, Screen};
use ttt_core::Mark;

/// One player against Strong on 15x15, whose searches answer after
/// `frames` frames; you (X) have played h8.
fn thinking_after_h8(frames: u32) -> Driver {
    let mut host = FakeHost::new();
    host.search_polls = frames;
    let mut d = Driver::new(host, 1);
    d.open_menu();
    d.set(MenuItem::Board, "15x15");
    d.set(MenuItem::Computer, "strong");
    d.start();
    d.place(0, sq("h8"));
    assert!(d.host.has("move X h8"));
    d
}

#[test]
fn the_cursor_moves_and_start_pauses_while_the_computer_thinks() {
    let mut d = thinking_after_h8(120);
    assert!(d.game.is_thinking());
    assert_eq!(d.host.jobs.len(), 1);
    assert_eq!(
        d.host.jobs[0].time_ms,
        Some(3_000),
        "the default think time"
    );
    // The cursor moves freely meanwhile.
    let before = d.game.cursor();
    d.press(0, Buttons::DRIGHT);
    d.press(0, Buttons::DDOWN);
    assert_ne!(d.game.cursor(), before);
    assert_eq!(d.game.position().side_to_move(), Mark::O);
    // START pauses; the reply waits until the game is back.
    d.press(0, Buttons::START);
    assert_eq!(d.game.screen(), Screen::Pause);
    d.idle(200);
    assert_eq!(d.host.count_prefix("move O"), 0);
    d.press(0, Buttons::START);
    assert_eq!(d.game.screen(), Screen::Game);
    d.wait_turn(Mark::X);
    assert_eq!(d.host.count_prefix("move O"), 1);
    assert!(!d.game.is_thinking());
    assert_eq!(d.host.stops, 0);
}

#[test]
fn the_main_menu_gives_the_search_up() {
    let mut d = thinking_after_h8(600);
    d.press(0, Buttons::START);
    assert_eq!(d.game.screen(), Screen::Pause);
    // Pause menu: Resume, Restart, Main menu.
    d.press(0, Buttons::DDOWN);
    d.press(0, Buttons::DDOWN);
    d.press(0, Buttons::A);
    assert_eq!(d.game.screen(), Screen::Menu);
    assert_eq!(d.host.stops, 1);
    assert!(!d.game.is_thinking());
    d.idle(700);
    assert_eq!(d.host.count_prefix("move O"), 0);
}
