//! The Rumble Pak: which events rumble which controller (`Host::rumble`,
//! logged `rumble <port> win|loss|illegal`), the Rumble setting, the menu
//! line that only a controller with a Rumble Pak brings, and the setting in
//! the save.
mod common;

use common::{sq, Driver, FakeHost};
use ttt64_game::{Buttons, MenuItem, SaveData, Screen};
use ttt_core::Mark;

/// A driver with `ports` controllers, those in `paks` (0-based) with a
/// Rumble Pak.
fn with_paks(ports: usize, paks: &[usize]) -> Driver {
    let mut d = Driver::new(FakeHost::new(), ports);
    for &p in paks {
        d.raw[p].rumble_pak = true;
    }
    d
}

/// The `rumble ...` log lines.
fn rumble_lines(d: &Driver) -> Vec<String> {
    d.host.with_prefix("rumble ")
}

/// game_classic_win.script's game: you (X, controller 1) against CS102
/// Classic, an illegal A on your own a1 after the first reply, then the
/// win along column a.
fn illegal_then_win_against_classic(d: &mut Driver) {
    d.open_menu();
    d.set(MenuItem::Computer, "classic");
    d.start();
    d.place(0, sq("a1"));
    d.wait_turn(Mark::X);
    d.place(0, sq("a1"));
    assert!(d.host.has("illegal a1"), "{:#?}", d.host.lines);
    for m in ["c3", "a3", "a2"] {
        d.wait_turn(Mark::X);
        d.place(0, sq(m));
    }
    d.wait_screen(Screen::Result, 10);
    assert!(d.host.has("result x-wins"));
}

#[test]
fn a_refused_move_and_a_win_rumble_the_players_controller() {
    let mut d = with_paks(2, &[0, 1]);
    illegal_then_win_against_classic(&mut d);
    assert_eq!(rumble_lines(&d), ["rumble 1 illegal", "rumble 1 win"]);
    assert_eq!(d.host.rumbles, [0, 0]);
    // Right after the buzz and after the win jingle.
    let at = |line: &str| d.host.lines.iter().position(|l| l == line).unwrap();
    assert_eq!(at("rumble 1 illegal"), at("sound illegal") + 1);
    assert_eq!(at("rumble 1 win"), at("sound win") + 1);
}

#[test]
fn losing_to_the_computer_rumbles_the_loser() {
    let mut d = with_paks(1, &[0]);
    d.open_menu();
    d.set(MenuItem::Computer, "perfect");
    d.set(MenuItem::First, "computer");
    d.start();
    // Play badly: the first empty square in row-major order.
    for _ in 0..5 {
        d.wait_turn(Mark::O);
        if d.game.position().outcome().is_over() {
            break;
        }
        let first = d.game.position().legal_moves().first().unwrap();
        d.place(0, first);
    }
    d.wait_screen(Screen::Result, 100);
    assert!(d.host.has("result x-wins"), "{:#?}", d.host.lines);
    assert_eq!(rumble_lines(&d), ["rumble 1 loss"]);
    assert_eq!(d.host.rumbles, [0]);
}

#[test]
fn two_controllers_only_the_winner_rumbles() {
    let mut d = with_paks(2, &[0, 1]);
    d.open_menu();
    d.set(MenuItem::Players, "2p");
    d.start();
    // Player 2 presses A on player 1's b2: refused, player 2's controller.
    d.place(0, sq("a1"));
    d.place(1, sq("a1"));
    assert_eq!(rumble_lines(&d), ["rumble 2 illegal"]);
    for (port, m) in [(1, "b1"), (0, "a2"), (1, "b2"), (0, "c3"), (1, "b3")] {
        d.place(port, sq(m));
    }
    assert!(d.host.has("result o-wins"));
    assert_eq!(rumble_lines(&d), ["rumble 2 illegal", "rumble 2 win"]);
    assert_eq!(d.host.rumbles, [1, 1]);
}

#[test]
fn shared_controller_rumbles_controller_1() {
    let mut d = with_paks(1, &[0]);
    d.open_menu();
    d.set(MenuItem::Players, "2p-shared");
    d.start();
    // O (player 2, on controller 1) wins.
    for m in ["a1", "b1", "a2", "b2", "c3", "b3"] {
        d.place(0, sq(m));
    }
    assert!(d.host.has("result o-wins"));
    assert_eq!(rumble_lines(&d), ["rumble 1 win"]);
}

#[test]
fn draws_and_computer_only_games_do_not_rumble() {
    let mut d = with_paks(2, &[0, 1]);
    d.open_menu();
    d.set(MenuItem::Players, "2p");
    d.start();
    for (port, m) in [
        (0, "b2"),
        (1, "a1"),
        (0, "c1"),
        (1, "a3"),
        (0, "a2"),
        (1, "c2"),
        (0, "b1"),
        (1, "b3"),
        (0, "c3"),
    ] {
        d.place(port, sq(m));
    }
    assert!(d.host.has("result draw"), "{:#?}", d.host.lines);
    // Back to the menu, computer against computer to the end.
    d.idle(40);
    d.press(0, Buttons::B);
    d.set(MenuItem::Players, "cvc");
    d.start();
    d.wait_screen(Screen::Result, 3000);
    assert_eq!(d.host.count_prefix("result "), 2);
    assert!(rumble_lines(&d).is_empty(), "{:#?}", d.host.lines);
    assert!(d.host.rumbles.is_empty());
    // The attract mode neither.
    d.idle(40);
    d.press(0, Buttons::B);
    d.press(0, Buttons::B);
    d.wait_screen(Screen::Attract, 1000);
    d.wait_screen(Screen::Title, 5000);
    assert!(d.host.count_prefix("attract result ") >= 1);
    assert!(d.host.rumbles.is_empty());
}

#[test]
fn a_controller_without_a_pak_does_not_rumble() {
    // The pak is in controller 2; controller 1 plays.
    let mut d = with_paks(2, &[1]);
    illegal_then_win_against_classic(&mut d);
    assert!(rumble_lines(&d).is_empty(), "{:#?}", d.host.lines);
    assert!(d.host.rumbles.is_empty());
    // No pak at all: the same game logs exactly what it did before rumble.
    let mut plain = with_paks(2, &[]);
    illegal_then_win_against_classic(&mut plain);
    assert!(!plain.host.lines.iter().any(|l| l.contains("rumble")));
}

#[test]
fn the_setting_off_stops_every_rumble() {
    let mut d = with_paks(1, &[0]);
    d.open_menu();
    d.set(MenuItem::Rumble, "off");
    assert!(!d.game.settings().rumble);
    d.press(0, Buttons::B);
    illegal_then_win_against_classic(&mut d);
    assert!(rumble_lines(&d).is_empty(), "{:#?}", d.host.lines);
    assert!(d.host.rumbles.is_empty());
    // Back on: the next game rumbles again.
    d.idle(40);
    d.press(0, Buttons::B);
    d.set(MenuItem::Rumble, "on");
    d.start();
    d.place(0, sq("b2"));
    d.wait_turn(Mark::X);
    d.place(0, sq("b2"));
    assert_eq!(rumble_lines(&d), ["rumble 1 illegal"]);
}

#[test]
fn the_rumble_line_shows_only_with_a_pak_and_not_in_cvc() {
    let rumble_row = |d: &Driver| d.game.menu_items().any(|i| i == MenuItem::Rumble);
    let mut d = with_paks(2, &[]);
    d.open_menu();
    assert!(!rumble_row(&d));
    let without: Vec<MenuItem> = d.game.menu_items().collect();
    assert_eq!(
        without.len(),
        6,
        "1p: players, board, k, computer, first, start"
    );
    // A pak in controller 2 (anyone's): the line comes, before START.
    d.raw[1].rumble_pak = true;
    d.idle(1);
    let with: Vec<MenuItem> = d.game.menu_items().collect();
    assert_eq!(with[..5], without[..5]);
    assert_eq!(with[5..], [MenuItem::Rumble, MenuItem::Start]);
    for (mode, shown) in [
        ("2p", true),
        ("2p-shared", true),
        ("cvc", false),
        ("1p", true),
    ] {
        d.set(MenuItem::Players, mode);
        assert_eq!(rumble_row(&d), shown, "{mode}");
        assert!(d.game.menu_items().count() <= 7);
    }
    // Pulled out while selected: the line goes, the cursor stays in the
    // menu (on START, now in its place).
    d.set(MenuItem::Rumble, "off");
    d.raw[1].rumble_pak = false;
    d.idle(1);
    assert!(!rumble_row(&d));
    assert_eq!(d.game.menu_selected(), MenuItem::Start);
    // The controller unplugged takes its pak with it.
    d.raw[1].rumble_pak = true;
    d.raw[1].connected = false;
    d.idle(1);
    assert!(!rumble_row(&d));
}

#[test]
fn the_setting_is_saved_and_loaded() {
    let mut d = with_paks(1, &[0]);
    d.open_menu();
    d.set(MenuItem::Rumble, "off");
    d.press(0, Buttons::B);
    illegal_then_win_against_classic(&mut d);
    let saved = SaveData::decode(&d.host.eeprom).unwrap();
    assert!(!saved.settings.rumble);
    // Power cycle: a new game on the same EEPROM starts with rumble off.
    let mut host = FakeHost::new();
    host.eeprom = d.host.eeprom.clone();
    let mut again = Driver::new(host, 1);
    again.raw[0].rumble_pak = true;
    assert!(again.host.has("save loaded"));
    assert!(!again.game.settings().rumble);
    again.open_menu();
    again.set(MenuItem::Rumble, "on");
}
