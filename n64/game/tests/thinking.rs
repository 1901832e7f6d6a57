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
    thinking_after_square("h8", frames)
}

/// [`thinking_after_h8`] with your first move on `first`.
fn thinking_after_square(first: &str, frames: u32) -> Driver {
    let mut host = FakeHost::new();
    host.search_polls = frames;
    let mut d = Driver::new(host, 1);
    d.open_menu();
    d.set(MenuItem::Board, "15x15");
    d.set(MenuItem::Computer, "strong");
    d.start();
    d.place(0, sq(first));
    assert!(d.host.has(&format!("move X {first}")));
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

/// The side panel's left and right edges whole on every row (the rounded
/// corners aside): no text of the panel runs over them.
fn assert_panel_whole(d: &Driver, what: &str) {
    use embedded_graphics::prelude::Point;
    use ttt64_game::{layout, palette};
    let mut fb = Framebuffer::new();
    d.game.draw(&mut fb);
    let p = layout::panel(d.game.position().rules());
    for y in p.top_left.y + 3..p.top_left.y + p.size.height as i32 - 3 {
        for x in [p.top_left.x, p.top_left.x + p.size.width as i32 - 1] {
            assert_eq!(
                fb.get(Point::new(x, y)),
                palette::PANEL_EDGE,
                "{what}: the panel's edge at ({x}, {y})"
            );
        }
    }
}

/// Computer against computer on 15x15: the status line names the side
/// thinking and its player ("X Strong") inside the panel.
#[test]
fn the_thinking_line_fits_the_panel_in_computer_against_computer() {
    for (first, second) in [("strong", "random"), ("random", "strong")] {
        let mut d = Driver::computers_on_15x15(120, first, second);
        d.start();
        for _ in 0..2 {
            d.idle(10);
            assert!(d.game.is_thinking());
            assert_panel_whole(&d, &format!("{first} against {second}"));
            d.wait_turn(d.game.position().side_to_move().other());
        }
    }
}

/// One player on 15x15: the computer's reply on a two-digit row ("I play"
/// and the square, "h12") stays inside the panel.
#[test]
fn the_computers_reply_fits_the_panel() {
    let mut d = thinking_after_square("h13", 1);
    d.wait_turn(Mark::X);
    let reply = d
        .host
        .lines
        .iter()
        .find_map(|l| l.strip_prefix("move O "))
        .map(|m| m.split_whitespace().next().unwrap_or("").to_string())
        .expect("the computer's move is logged");
    assert_eq!(reply.len(), 3, "a two-digit row: {reply}");
    assert_panel_whole(&d, &format!("after O's {reply}"));
}
