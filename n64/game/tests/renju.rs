//! Renju on the console: X's forbidden points are marked on the board and
//! a move there is refused with its reason (on the screen and in the log),
//! as on the desktop.
mod common;

use common::*;
use ttt64_game::{layout, palette, MenuItem};
use ttt_core::Mark;

#[test]
fn a_double_three_is_marked_and_refused_with_its_reason() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Players, "2p-shared");
    d.set(MenuItem::Board, "15x15");
    d.set(MenuItem::Rules, "renju");
    d.start();
    assert!(d.host.with_prefix("game seed=")[0].ends_with("rules=renju"));
    // X: g8 h8 across, i9 i10 down; O far away on column a. X at i8 would
    // make two open threes at once.
    for (x, o) in [("g8", "a1"), ("h8", "a3"), ("i9", "a5"), ("i10", "a7")] {
        d.place(0, sq(x));
        d.place(0, sq(o));
    }
    assert_eq!(d.game.position().mark_count(), 8);
    assert_eq!(d.game.position().side_to_move(), Mark::X);
    // The forbidden points are found over a few frames, then marked.
    d.idle(20);
    d.render();
    let rules = *d.game.position().rules();
    let cell = layout::cell_rect(&rules, sq("i8"));
    assert!(d.fb.count(cell, palette::FORBIDDEN) > 0, "i8 not marked");
    let free = layout::cell_rect(&rules, sq("d12"));
    assert_eq!(d.fb.count(free, palette::FORBIDDEN), 0, "d12 marked");
    let panel = layout::panel(&rules);
    let red_before = d.fb.count(panel, palette::X);

    d.place(0, sq("i8"));
    assert!(
        d.host.has("illegal i8 forbidden double-three"),
        "{:#?}",
        d.host.lines
    );
    assert_eq!(d.game.position().mark_count(), 8, "the move was played");
    assert_eq!(d.game.position().side_to_move(), Mark::X);
    assert_eq!(d.host.count_prefix("sound illegal"), 1);
    // The reason, in X's colour in the panel ("No: i8", "double 3",
    // "forbidden"), until the cursor moves.
    d.render();
    assert!(d.fb.count(panel, palette::X) > red_before);
    d.place(0, sq("j8"));
    assert!(d.host.has("move X j8"));
}
