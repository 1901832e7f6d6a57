//! The console game driven frame by frame with scripted controller input.
mod common;

use common::*;
use embedded_graphics::prelude::*;
use ttt64_game::{
    layout, palette, Buttons, First, Game, Input, MenuItem, Mode, RawPort, SaveData, Screen,
    SAVE_SIZE,
};
use ttt_core::ai::{self, Solver};
use ttt_core::series::{Coin, Side};
use ttt_core::{Mark, Outcome};

#[test]
fn boots_to_title_and_resets_a_blank_save() {
    let d = Driver::new(FakeHost::new(), 1);
    assert_eq!(d.game.screen(), Screen::Title);
    assert!(d.host.has("save reset"));
    assert!(d.host.has("screen title"));
    assert_eq!(d.host.writes, 1, "a fresh save is written");
    assert!(SaveData::decode(&d.host.eeprom).is_ok());
}

#[test]
fn classic_3x3_won_by_the_player_along_column_a() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    assert!(d.host.has("screen menu"));
    d.set(MenuItem::Computer, "classic");
    d.start();
    let game_line = d.host.with_prefix("game seed=");
    assert_eq!(game_line.len(), 1);
    assert!(
        game_line[0].ends_with("size=3x3 k=3 x=human o=classic nodes=3000 rules=freestyle"),
        "{game_line:?}"
    );

    // The status bar has no result text while playing.
    d.render();
    assert_eq!(d.fb.count(layout::STATUS, palette::RESULT), 0);

    // a1; classic takes the centre, then corner c1 after c3, then blocks
    // the higher of a2/b3 (b3), and a2 wins down column a.
    for m in ["a1", "c3", "a3", "a2"] {
        d.wait_turn(Mark::X);
        d.place(0, sq(m));
    }
    let moves = d.host.with_prefix("move ");
    assert_eq!(
        moves,
        [
            "move X a1",
            "move O b2",
            "move X c3",
            "move O c1",
            "move X a3",
            "move O b3",
            "move X a2"
        ]
    );
    assert!(d.host.has("say I am choosing square 5!"));
    assert!(d.host.has("say I am choosing square 3!"));
    assert!(d.host.has("say I am choosing square 8!"));
    assert_eq!(d.host.count_prefix("ai classic "), 3);
    assert!(d.host.has("result x-wins"));
    assert!(d.host.has("screen result"));
    assert_eq!(d.game.screen(), Screen::Result);
    assert_eq!(d.game.session_scores()[0].wins, 1);

    // The result, in the seed's words, exactly where the status bar is.
    d.render();
    let want = result_text_points("Congratulations, you win!");
    let got = d.fb.points_of(layout::STATUS, palette::RESULT);
    assert!(!want.is_empty());
    assert_eq!(got, want);
    // The winning line is highlighted: every cell of column a.
    let rules = *d.game.position().rules();
    for m in ["a1", "a2", "a3"] {
        let r = layout::cell_rect(&rules, sq(m));
        assert!(d.fb.count(r, palette::WIN_CELL) > 50, "{m} not highlighted");
    }
    // X is a cross, O a ring: both colours present in their cells.
    assert!(d.fb.count(layout::cell_rect(&rules, sq("b2")), palette::O) > 20);
    assert!(d.fb.count(layout::cell_rect(&rules, sq("c3")), palette::X) > 20);

    // The score was saved.
    let saved = SaveData::decode(&d.host.eeprom).unwrap();
    assert_eq!(saved.scores[Mode::OnePlayer.index()].wins, 1);

    // Play again: A after the hold.
    d.idle(40);
    d.press(0, Buttons::A);
    assert_eq!(d.game.screen(), Screen::Game);
    assert_eq!(d.host.count_prefix("game seed="), 2);
}

#[test]
fn computer_first_says_its_square_and_wins_with_i_win() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Computer, "perfect");
    d.set(MenuItem::First, "computer");
    d.start();
    assert!(d.host.with_prefix("game seed=")[0]
        .ends_with("x=perfect o=human nodes=3000 rules=freestyle"));
    // Play badly: always the first empty square in row-major order.
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
    d.render();
    assert_eq!(
        d.fb.points_of(layout::STATUS, palette::RESULT),
        result_text_points("I WIN!!!")
    );
    assert_eq!(d.game.session_scores()[0].losses, 1);
}

#[test]
fn draw_against_perfect() {
    let mut solver_tt = common::tt();
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Computer, "perfect");
    d.start();
    for _ in 0..5 {
        d.wait_turn(Mark::X);
        let pos = d.game.position().clone();
        if pos.outcome().is_over() {
            break;
        }
        let (best, _) = Solver::new(&mut solver_tt).best_move(&pos, 7).unwrap();
        d.place(0, best);
    }
    d.wait_screen(Screen::Result, 100);
    assert_eq!(d.game.position().outcome(), Outcome::Draw);
    assert!(d.host.has("result draw"));
    assert_eq!(d.host.count_prefix("move "), 9);
    d.render();
    assert_eq!(
        d.fb.points_of(layout::STATUS, palette::RESULT),
        result_text_points("The game is a draw.")
    );
    assert_eq!(d.game.session_scores()[0].draws, 1);
    // B goes to the menu.
    d.idle(40);
    d.press(0, Buttons::B);
    assert_eq!(d.game.screen(), Screen::Menu);
}

#[test]
fn two_players_two_controllers_player_2_moves_second() {
    let mut d = Driver::new(FakeHost::new(), 2);
    d.open_menu();
    d.set(MenuItem::Players, "2p");
    d.start();
    assert!(
        d.host.with_prefix("game seed=")[0].ends_with("x=human o=human nodes=3000 rules=freestyle")
    );
    d.place(0, sq("b2"));
    // Controller 1 cannot move for O: neither the cursor nor a mark.
    let cursor = d.game.cursor();
    d.press(0, Buttons::DLEFT);
    d.press(0, Buttons::A);
    assert_eq!(d.game.cursor(), cursor);
    assert_eq!(d.host.count_prefix("move "), 1);
    // Controller 2 can (its cursor is the shared board cursor).
    d.place(1, sq("a1"));
    d.place(0, sq("c1"));
    d.place(1, sq("a3"));
    d.place(0, sq("a2"));
    d.place(1, sq("c2"));
    d.place(0, sq("b1"));
    d.place(1, sq("b3"));
    d.place(0, sq("c3"));
    assert_eq!(
        d.host.with_prefix("move "),
        [
            "move X b2",
            "move O a1",
            "move X c1",
            "move O a3",
            "move X a2",
            "move O c2",
            "move X b1",
            "move O b3",
            "move X c3"
        ]
    );
    assert!(d.host.has("result draw"), "{:#?}", d.host.lines);
    assert_eq!(d.game.session_scores()[Mode::TwoPads.index()].draws, 1);
}

#[test]
fn two_players_win_by_player_2() {
    let mut d = Driver::new(FakeHost::new(), 2);
    d.open_menu();
    d.set(MenuItem::Players, "2p");
    d.start();
    for (port, m) in [
        (0, "a1"),
        (1, "b1"),
        (0, "a2"),
        (1, "b2"),
        (0, "c3"),
        (1, "b3"),
    ] {
        d.place(port, sq(m));
    }
    assert!(d.host.has("result o-wins"));
    d.render();
    assert_eq!(
        d.fb.points_of(layout::STATUS, palette::RESULT),
        result_text_points("Congratulations, player 2!")
    );
    assert_eq!(d.game.session_scores()[Mode::TwoPads.index()].losses, 1);
}

#[test]
fn shared_controller_both_sides_on_port_1() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Players, "2p-shared");
    d.start();
    for m in ["a1", "b1", "a2", "b2", "a3"] {
        d.place(0, sq(m));
    }
    assert!(d.host.has("result x-wins"));
}

#[test]
fn five_by_five_game() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Board, "5x5");
    assert_eq!(d.game.settings().k, 5, "full row follows the size");
    d.set(MenuItem::Computer, "easy");
    d.start();
    assert!(d.host.with_prefix("game seed=")[0].contains("size=5x5 k=5 x=human o=easy"));
    // X walks down column c (the computer blocks at some point; then any square).
    let mut plays = 0;
    while !d.game.position().outcome().is_over() && plays < 13 {
        d.wait_turn(Mark::X);
        let pos = d.game.position().clone();
        if pos.outcome().is_over() {
            break;
        }
        let target = (1..=5)
            .map(|r| sq(&format!("c{r}")))
            .find(|&s| pos.is_legal(s))
            .unwrap_or_else(|| pos.legal_moves().first().unwrap());
        d.place(0, target);
        plays += 1;
    }
    d.wait_screen(Screen::Result, 200);
    assert_eq!(d.host.count_prefix("result "), 1);
    assert!(d.host.lines.iter().any(|l| l.starts_with("move X c")));
    // Coordinates on a 5x5 board reach e5.
    assert!(d.host.count_prefix("move ") >= 9);
    d.render();
    let rules = *d.game.position().rules();
    assert_eq!(rules.columns(), 5);
    let (origin, cell) = layout::board_geometry(&rules);
    assert!(cell * 5 <= layout::BOARD_AREA.size.width);
    assert!(origin.x >= layout::BOARD_AREA.top_left.x);
}

#[test]
fn nine_by_nine_k4_against_hard_is_playable() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Board, "9x9");
    d.set(MenuItem::WinLength, "4");
    d.set(MenuItem::Computer, "hard");
    d.start();
    for _ in 0..6 {
        d.wait_turn(Mark::X);
        let pos = d.game.position().clone();
        if pos.outcome().is_over() {
            break;
        }
        let first = pos.legal_moves().first().unwrap();
        d.place(0, first);
    }
    assert!(d.host.count_prefix("ai hard ") >= 5);
    d.render();
}

#[test]
fn undo_takes_back_your_move_and_the_reply() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Computer, "classic");
    d.start();
    d.wait_turn(Mark::X);
    d.press(0, Buttons::B); // nothing to undo
    assert_eq!(d.host.count_prefix("undo"), 0);
    d.place(0, sq("a1"));
    d.wait_turn(Mark::X);
    d.place(0, sq("c3"));
    d.wait_turn(Mark::X);
    assert_eq!(d.game.position().mark_count(), 4);
    d.press(0, Buttons::B);
    assert!(d.host.has("undo"));
    assert!(d.host.has("undone 2"));
    assert_eq!(d.game.position().mark_count(), 2);
    d.press(0, Buttons::B);
    assert_eq!(d.game.position().mark_count(), 0);
    assert_eq!(d.host.count_prefix("undone "), 2);
    // Hint: Z, one frame "thinking", then the hint.
    d.press(0, Buttons::Z);
    d.idle(2);
    let hints = d.host.with_prefix("hint ");
    assert_eq!(d.host.count_prefix("hint-time "), 1);
    assert_eq!(hints.len(), 1, "{:#?}", d.host.lines);
    d.render();
    let rules = *d.game.position().rules();
    assert!(d.fb.count(layout::cell_rect(&rules, d.game.cursor()), palette::HINT) > 20);
}

#[test]
fn undo_when_the_computer_went_first() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Computer, "classic");
    d.set(MenuItem::First, "computer");
    d.start();
    d.wait_turn(Mark::O);
    assert_eq!(d.game.position().mark_count(), 1);
    d.press(0, Buttons::B); // only the computer's opening: nothing of yours
    assert_eq!(d.game.position().mark_count(), 1);
    d.place(0, sq("a1"));
    d.wait_turn(Mark::O);
    d.press(0, Buttons::B);
    assert_eq!(d.game.position().mark_count(), 1);
}

#[test]
fn pause_resume_restart_and_main_menu() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.start();
    d.place(0, sq("a1"));
    d.press(0, Buttons::START);
    assert_eq!(d.game.screen(), Screen::Pause);
    assert!(d.host.has("screen pause"));
    // The computer does not move while paused.
    let marks = d.game.position().mark_count();
    d.idle(100);
    assert_eq!(d.game.position().mark_count(), marks);
    d.render();
    // Resume (A on "Resume").
    d.press(0, Buttons::A);
    assert_eq!(d.game.screen(), Screen::Game);
    // Restart.
    d.press(0, Buttons::START);
    d.press(0, Buttons::DDOWN);
    d.press(0, Buttons::A);
    assert!(d.host.has("restart"));
    assert_eq!(d.game.screen(), Screen::Game);
    assert_eq!(d.game.position().mark_count(), 0);
    assert_eq!(d.host.count_prefix("game seed="), 2);
    // Main menu.
    d.press(0, Buttons::START);
    d.press(0, Buttons::DUP);
    d.press(0, Buttons::A);
    assert_eq!(d.game.screen(), Screen::Menu);
    // B in the menu: back to the title.
    d.press(0, Buttons::B);
    assert_eq!(d.game.screen(), Screen::Title);
}

#[test]
fn unplugging_a_controller_pauses_with_a_message() {
    let mut d = Driver::new(FakeHost::new(), 2);
    d.open_menu();
    d.set(MenuItem::Players, "2p");
    d.start();
    d.place(0, sq("b2"));
    d.raw[1].connected = false;
    d.step();
    assert_eq!(d.game.screen(), Screen::Unplugged);
    assert!(d.host.has("controller 2 unplugged"));
    assert!(d.host.has("screen unplugged"));
    d.render();
    d.idle(50);
    assert_eq!(d.game.screen(), Screen::Unplugged);
    d.raw[1].connected = true;
    d.step();
    assert!(d.host.has("controller 2 reconnected"));
    assert_eq!(d.game.screen(), Screen::Pause);
    d.press(0, Buttons::START);
    assert_eq!(d.game.screen(), Screen::Game);
    d.place(1, sq("a1"));
    assert_eq!(d.host.count_prefix("move "), 2);
}

#[test]
fn two_controller_game_without_controller_2_waits() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Players, "2p");
    d.press(0, Buttons::START);
    assert_eq!(d.game.screen(), Screen::Unplugged);
    assert!(d.host.has("controller 2 unplugged"));
}

#[test]
fn unplugging_controller_1_against_the_computer() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.start();
    d.raw[0].connected = false;
    d.idle(3);
    assert_eq!(d.game.screen(), Screen::Unplugged);
    assert!(d.host.has("controller 1 unplugged"));
}

#[test]
fn corrupt_save_is_reset_and_good_save_is_loaded() {
    // A good save with scores.
    let mut data = SaveData::default();
    data.scores[0].wins = 7;
    data.scores[0].draws = 3;
    data.settings.size = 4;
    data.settings.k = 3;
    let good = data.encode();

    let mut host = FakeHost::new();
    host.eeprom[..SAVE_SIZE].copy_from_slice(&good);
    let g = Game::new(&mut host, common::NTSC);
    assert!(host.has("save loaded"));
    assert!(!host.has("save reset"));
    assert_eq!(g.saved_scores()[0].wins, 7);
    assert_eq!(g.settings().size, 4);
    assert_eq!(host.writes, 0);
    let _ = g;

    // Flip one bit in the scores: detected, reset, rewritten.
    for (offset, reason) in [
        (9usize, "checksum"),
        (0, "blank"),
        (4, "version"),
        (70, "checksum"),
    ] {
        let mut host = FakeHost::new();
        host.eeprom[..SAVE_SIZE].copy_from_slice(&good);
        host.eeprom[offset] ^= 0x10;
        let g = Game::new(&mut host, common::NTSC);
        assert!(host.has("save reset"), "offset {offset}");
        assert!(
            host.has(&format!("save invalid {reason}")),
            "{:?}",
            host.lines
        );
        assert_eq!(g.saved_scores()[0].wins, 0);
        assert_eq!(host.writes, 1);
        assert!(SaveData::decode(&host.eeprom).is_ok());
    }

    // A failing read is also a reset.
    let mut host = FakeHost::new();
    host.fail_reads = true;
    let _g = Game::new(&mut host, common::NTSC);
    assert!(host.has("save reset"));
}

#[test]
fn scores_survive_a_power_cycle() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Computer, "classic");
    d.start();
    for m in ["a1", "c3", "a3", "a2"] {
        d.wait_turn(Mark::X);
        d.place(0, sq(m));
    }
    assert!(d.host.has("result x-wins"));
    let eeprom = d.host.eeprom.clone();
    drop(d);

    let mut host = FakeHost::new();
    host.eeprom = eeprom;
    let g = Game::new(&mut host, common::NTSC);
    assert!(host.has("save loaded"));
    assert_eq!(g.saved_scores()[Mode::OnePlayer.index()].wins, 1);
    assert_eq!(g.session_scores()[Mode::OnePlayer.index()].wins, 0);
    // The settings played with come back too.
    assert_eq!(g.settings().computer_kind(), ai::PlayerKind::Classic);
}

#[test]
fn attract_mode_after_idle_and_any_button_returns() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.idle(d.game.timings().attract_after as usize + 2);
    assert_eq!(d.game.screen(), Screen::Attract);
    assert!(d.host.has("screen attract"));
    d.idle(300);
    assert!(
        d.host.count_prefix("attract move ") >= 3,
        "{:#?}",
        d.host.lines
    );
    assert_eq!(d.host.count_prefix("move "), 0, "attract moves are marked");
    d.render();
    d.press(0, Buttons::B);
    assert_eq!(d.game.screen(), Screen::Title);
    // Let a whole attract game run out: it returns to the title by itself.
    d.idle(d.game.timings().attract_after as usize + 2);
    assert_eq!(d.game.screen(), Screen::Attract);
    d.wait_screen(Screen::Title, 3000);
    assert!(d.host.count_prefix("attract result ") >= 1);
    assert_eq!(d.host.count_prefix("result "), 0);
}

#[test]
fn computer_vs_computer_plays_to_the_end() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Players, "cvc");
    d.set(MenuItem::Computer, "squid");
    d.set(MenuItem::Computer2, "god");
    d.start();
    assert!(
        d.host.with_prefix("game seed=")[0].ends_with("x=squid o=god nodes=3000 rules=freestyle")
    );
    d.wait_screen(Screen::Result, 2000);
    assert_eq!(d.host.count_prefix("result "), 1);
    assert!(d.host.count_prefix("ai squid ") >= 3);
    assert!(d.host.count_prefix("ai god ") >= 2);
}

#[test]
fn alternate_and_random_first() {
    let mut d = Driver::new(FakeHost::new(), 2);
    d.open_menu();
    d.set(MenuItem::Players, "2p");
    d.set(MenuItem::First, "alternate");
    d.start();
    // Game 1: player 1 (port 0) is X.
    for (p, m) in [(0, "a1"), (1, "b1"), (0, "a2"), (1, "b2"), (0, "a3")] {
        d.place(p, sq(m));
    }
    assert!(d.host.has("result x-wins"));
    assert_eq!(d.game.session_scores()[1].wins, 1);
    d.idle(40);
    d.press(0, Buttons::A);
    // Game 2: player 2 (port 1) is X; X wins again = player 2 wins.
    for (p, m) in [(1, "a1"), (0, "b1"), (1, "a2"), (0, "b2"), (1, "a3")] {
        d.place(p, sq(m));
    }
    assert_eq!(d.host.count_prefix("result x-wins"), 2);
    assert_eq!(d.game.session_scores()[1].losses, 1);

    // Random: each game's coin is its seed's, as on the desktop: `ttt
    // --seed <seed>` opens its first game the same way.
    d.idle(40);
    d.press(0, Buttons::B);
    d.wait_screen(Screen::Menu, 10);
    d.set(MenuItem::Players, "cvc");
    d.set(MenuItem::Computer, "random");
    d.set(MenuItem::Computer2, "classic");
    d.set(MenuItem::First, "random");
    d.start();
    let mut openers = Vec::new();
    for _ in 0..8 {
        d.wait_screen(Screen::Result, 3000);
        let game = d.host.with_prefix("game seed=").pop().unwrap();
        let seed: u64 = game["game seed=".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let opener = Coin::new(seed).toss();
        let x = if opener == Side::One {
            "x=random o=classic"
        } else {
            "x=classic o=random"
        };
        assert!(
            game.contains(x),
            "{game}: the coin of seed {seed} falls for {opener:?}"
        );
        openers.push(opener);
        d.idle(40);
        d.press(0, Buttons::A);
    }
    assert!(
        openers.contains(&Side::One) && openers.contains(&Side::Two),
        "{openers:?}"
    );
    assert_eq!(d.game.settings().first, First::Random);
}

#[test]
fn menu_covers_every_item_and_value() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.draw_always = true;
    d.open_menu();
    // Board size wraps 1..9; k follows "full row"; k can be lowered.
    for n in 4..=9 {
        d.set(MenuItem::Board, &format!("{n}x{n}"));
    }
    d.set(MenuItem::Board, "1x1");
    assert_eq!(d.game.settings().k, 1);
    d.set(MenuItem::Board, "7x7");
    d.set(MenuItem::WinLength, "4");
    d.set(MenuItem::Board, "8x8");
    assert_eq!(d.game.settings().k, 4, "a chosen k is kept");
    for kind in ai::PlayerKind::ALL {
        d.set(MenuItem::Computer, kind.name());
    }
    for f in ["computer", "random", "alternate", "you"] {
        d.set(MenuItem::First, f);
    }
    for m in ["2p", "2p-shared", "cvc", "1p"] {
        d.set(MenuItem::Players, m);
    }
    // Perfect on an unsolvable board plays as strong.
    d.set(MenuItem::Computer, "perfect");
    d.start();
    assert!(
        d.host.with_prefix("game seed=")[0]
            .ends_with("size=8x8 k=4 x=human o=strong nodes=3000 rules=freestyle"),
        "{:?}",
        d.host.with_prefix("game seed=")
    );
}

#[test]
fn one_by_one_board() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Board, "1x1");
    d.start();
    d.press(0, Buttons::A);
    assert!(d.host.has("move X a1"));
    assert!(d.host.has("result x-wins"));
    d.render();
}

#[test]
fn same_seed_same_game() {
    // Two consoles started the same way play the same game.
    let run = || {
        let mut d = Driver::new(FakeHost::new(), 1);
        d.open_menu();
        d.set(MenuItem::Players, "cvc");
        d.set(MenuItem::Computer, "easy");
        d.set(MenuItem::Computer2, "medium");
        d.start();
        d.wait_screen(Screen::Result, 3000);
        d.host
            .lines
            .iter()
            .filter(|l| l.starts_with("move ") || l.starts_with("game ") || l.starts_with("result"))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
}

#[test]
fn soak_random_input_on_all_ports() {
    let mut d = Driver::new(FakeHost::new(), 4);
    let mut rng = ttt_core::rng::Rng::new(0x5eed);
    for frame in 0..20_000u32 {
        for p in 0..4 {
            if rng.chance(1, 400) {
                d.raw[p].connected = !d.raw[p].connected;
            }
            // Mostly menu/game buttons, sometimes everything.
            let b = if rng.chance(1, 3) {
                const USEFUL: [u16; 8] = [
                    1 << 15,
                    1 << 15,
                    1 << 11,
                    1 << 10,
                    1 << 9,
                    1 << 8,
                    1 << 12,
                    1 << 14,
                ];
                USEFUL[rng.below(8) as usize]
            } else if rng.chance(1, 10) {
                rng.next_u64() as u16
            } else {
                0
            };
            d.raw[p].buttons = Buttons(b);
            d.raw[p].stick_x = (rng.next_u64() as i8) / 2;
            d.raw[p].stick_y = (rng.next_u64() as i8) / 2;
        }
        d.step();
        if frame % 97 == 0 {
            d.render();
        }
    }
    let screens: std::collections::BTreeSet<_> =
        d.host.with_prefix("screen ").into_iter().collect();
    eprintln!(
        "soak screens: {screens:?}, moves: {}",
        d.host.count_prefix("move ")
    );
    assert!(screens.len() >= 4, "{screens:?}");
}

#[test]
fn every_screen_draws_inside_the_frame() {
    // A drawing that strays outside 320x240 would be clipped silently on the
    // console; check the framebuffer's own bounds via a counting target.
    struct Bounds {
        outside: usize,
    }
    impl OriginDimensions for Bounds {
        fn size(&self) -> Size {
            Size::new(320, 240)
        }
    }
    impl DrawTarget for Bounds {
        type Color = ttt64_game::Rgb555;
        type Error = core::convert::Infallible;
        fn draw_iter<I: IntoIterator<Item = Pixel<Self::Color>>>(
            &mut self,
            it: I,
        ) -> Result<(), Self::Error> {
            for Pixel(p, _) in it {
                if p.x < 0 || p.y < 0 || p.x >= 320 || p.y >= 240 {
                    self.outside += 1;
                }
            }
            Ok(())
        }
    }
    let mut d = Driver::new(FakeHost::new(), 1);
    let mut b = Bounds { outside: 0 };
    d.game.draw(&mut b);
    d.open_menu();
    d.game.draw(&mut b);
    d.set(MenuItem::Board, "9x9");
    d.start();
    d.game.draw(&mut b);
    d.press(0, Buttons::START);
    d.game.draw(&mut b);
    assert_eq!(b.outside, 0);
    let _ = Input::NONE;
    let _ = RawPort::default();
}

/// The text pixels of `s` as the status bar shows it (FONT_8X13, centred).
fn status_text_points(s: &str) -> Vec<Point> {
    use embedded_graphics::mono_font::{ascii::FONT_8X13, MonoTextStyle};
    use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};
    let mut fb = Framebuffer::new();
    let ts = TextStyleBuilder::new()
        .alignment(Alignment::Center)
        .baseline(Baseline::Middle)
        .build();
    Text::with_text_style(
        s,
        layout::STATUS.center(),
        MonoTextStyle::new(&FONT_8X13, palette::TEXT),
        ts,
    )
    .draw(&mut fb)
    .unwrap();
    fb.points_of(layout::STATUS, palette::TEXT)
}

#[test]
fn thinking_is_drawn_and_its_dots_move_until_the_computer_moves() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Computer, "classic");
    d.start();
    d.place(0, sq("a1"));
    let thinking: Vec<Vec<Point>> = ["", ".", "..", "..."]
        .iter()
        .map(|dots| status_text_points(&format!("Computer is thinking{dots}")))
        .collect();
    let mut shown = Vec::new();
    for _ in 0..100 {
        if d.host.count_prefix("ai classic ") == 1 {
            break;
        }
        d.render();
        let points = d.fb.points_of(layout::STATUS, palette::TEXT);
        let dots = thinking.iter().position(|t| *t == points);
        assert!(dots.is_some(), "thinking frame {}", shown.len());
        shown.push(dots);
        d.step();
    }
    assert_eq!(d.host.count_prefix("ai classic "), 1);
    // A third of a second of thinking: 20 frames, the dots growing every
    // quarter second.
    assert!(shown.len() >= 19, "{shown:?}");
    assert!(shown.windows(2).any(|w| w[0] != w[1]), "{shown:?}");
    // Then the computer says which square it chose.
    d.render();
    assert!(d.host.has("say I am choosing square 5!"));
    assert_eq!(d.fb.count(layout::STATUS, palette::SPEECH), {
        let mut fb = Framebuffer::new();
        use embedded_graphics::mono_font::{ascii::FONT_8X13, MonoTextStyle};
        use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};
        let ts = TextStyleBuilder::new()
            .alignment(Alignment::Center)
            .baseline(Baseline::Middle)
            .build();
        Text::with_text_style(
            "I am choosing square 5! Your move",
            layout::STATUS.center(),
            MonoTextStyle::new(&FONT_8X13, palette::SPEECH),
            ts,
        )
        .draw(&mut fb)
        .unwrap();
        fb.count(layout::STATUS, palette::SPEECH)
    });
}

#[test]
fn analog_stick_moves_the_cursor_with_repeat() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Board, "9x9");
    d.set(MenuItem::Players, "2p-shared");
    d.start();
    assert_eq!(d.game.cursor(), sq("e5"));
    // One flick: one step.
    d.raw[0].stick_x = 90;
    d.step();
    d.raw[0].stick_x = 0;
    d.step();
    assert_eq!(d.game.cursor(), sq("f5"));
    // Held down: one step, then auto-repeat.
    d.raw[0].stick_y = -90;
    d.idle(d.tracker.repeat().delay as usize + 1);
    d.raw[0].stick_y = 0;
    d.step();
    assert_eq!(d.game.cursor(), sq("f7"));
    // The D-pad wraps around the board edge.
    d.press(0, Buttons::DUP);
    for _ in 0..7 {
        d.press(0, Buttons::DUP);
    }
    assert_eq!(d.game.cursor(), sq("f8"));
}

#[test]
fn hint_is_the_solvers_move_and_a_taken_square_is_refused() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Players, "2p-shared");
    d.start();
    for m in ["a1", "b1", "a2"] {
        d.place(0, sq(m));
    }
    // O must block at a3.
    d.press(0, Buttons::Z);
    d.step();
    assert!(d.host.has("hint a3"), "{:#?}", d.host.lines);
    assert_eq!(d.game.cursor(), sq("a3"));
    // A on a taken square does nothing but log it.
    d.cursor_to(0, sq("a1"));
    d.press(0, Buttons::A);
    assert!(d.host.has("illegal a1"));
    assert_eq!(d.game.position().mark_count(), 3);
}

#[test]
fn game_state_is_small() {
    let size = std::mem::size_of::<Game>();
    eprintln!("size_of::<Game>() = {size} bytes");
    assert!(size < 4096, "{size}");
}

/// A host that writes the save over several frames (the ROM: a block a
/// frame): the game goes on meanwhile, and says `save written` when the
/// host has it all, not before; the save is the game's result.
#[test]
fn a_save_written_over_frames_is_logged_when_it_is_whole() {
    let mut host = FakeHost::new();
    host.save_polls = 4;
    let mut d = Driver::new(host, 1);
    // The fresh save at boot: being written while the title runs.
    assert!(d.host.has("save reset"));
    d.idle(10);
    assert_eq!(d.host.count_prefix("save written"), 1);
    assert!(SaveData::decode(&d.host.eeprom).is_ok());

    d.open_menu();
    d.set(MenuItem::Players, "2p-shared");
    d.start();
    for (x, o) in [("a1", "b1"), ("a2", "b2")] {
        d.place(0, sq(x));
        d.place(0, sq(o));
    }
    d.place(0, sq("a3"));
    assert!(d.host.has("result x-wins"));
    let before = SaveData::decode(&d.host.eeprom).unwrap();
    assert_eq!(d.host.count_prefix("save written"), 1, "not yet");
    d.idle(2);
    assert_eq!(d.host.count_prefix("save written"), 1, "still writing");
    assert_eq!(SaveData::decode(&d.host.eeprom), Ok(before));
    d.idle(4);
    assert_eq!(d.host.count_prefix("save written"), 2);
    assert!(!d.host.has("save write failed"));
    let saved = SaveData::decode(&d.host.eeprom).unwrap();
    assert_eq!(saved.scores[Mode::SharedPad.index()].wins, 1);
    assert_eq!(d.game.screen(), Screen::Result);
    let mut lines = d.host.lines.iter();
    assert!(lines.any(|l| l.starts_with("result x-wins")));
    assert!(lines.any(|l| l == "save written"));
}
