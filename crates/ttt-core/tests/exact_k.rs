//! The "exactly k" win condition (Gomocup's `INFO rule 1`, exactly five):
//! a line longer than k, an overline, does not win.
use ttt_core::ai::{Budget, Engine, Player, PlayerKind, TtEntry};
use ttt_core::{Mark, Outcome, Position, Rules, Square, SquareSet, WinCondition};

fn sq(c: u8, r: u8) -> Square {
    Square::new(c, r).unwrap()
}

fn set(cells: &[(u8, u8)]) -> SquareSet {
    cells.iter().map(|&(c, r)| sq(c, r)).collect()
}

fn exact(text: &str) -> Rules {
    let rules: Rules = text.parse().unwrap();
    rules.with_win_condition(WinCondition::ExactlyK)
}

#[test]
fn the_win_condition_is_written_and_read() {
    let rules: Rules = "15x15 k=5 exact".parse().unwrap();
    assert_eq!(rules.win_condition(), WinCondition::ExactlyK);
    assert_eq!((rules.columns(), rules.k()), (15, 5));
    assert_eq!(rules.to_string(), "15x15 k=5 exact");
    assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
    assert_eq!("20 EXACT".parse::<Rules>(), Ok(exact("20")));
    assert_eq!(
        "15x15k5".parse::<Rules>().unwrap().win_condition(),
        WinCondition::AtLeastK
    );
    assert_eq!(
        "15x15 k=5".parse::<Rules>().unwrap().to_string(),
        "15x15 k=5"
    );
    assert!("15x15 k=5 exactly-ish".parse::<Rules>().is_err());
    assert!(exact("15").excludes_overlines());
    // k = the longest side: no longer line fits, nothing to exclude.
    assert!(!exact("3").excludes_overlines());
    // Changing k keeps the condition.
    assert_eq!(
        exact("15").with_k(4).unwrap().win_condition(),
        WinCondition::ExactlyK
    );
}

/// Five X marks in a row with a gap: filling it makes six.
fn gapped_six(rules: Rules) -> Position {
    let x = set(&[(3, 7), (4, 7), (5, 7), (6, 7), (8, 7)]);
    let o = set(&[(0, 0), (2, 0), (4, 0), (6, 0), (14, 14)]);
    Position::from_marks(rules, x, o).unwrap()
}

#[test]
fn six_in_a_row_wins_only_under_five_or_more() {
    let mut free = gapped_six("15".parse().unwrap());
    let mut only5 = gapped_six(exact("15"));
    assert!(free.completes_line(sq(7, 7), Mark::X));
    assert!(!only5.completes_line(sq(7, 7), Mark::X));
    free.play(sq(7, 7)).unwrap();
    only5.play(sq(7, 7)).unwrap();
    assert_eq!(free.outcome(), Outcome::Win(Mark::X));
    assert_eq!(free.winning_line().map(|l| l.len), Some(6));
    assert_eq!(only5.outcome(), Outcome::InProgress);
    assert_eq!(only5.winning_line(), None);
    // Exactly five still wins, also at the board's edge.
    let mut only5 = gapped_six(exact("15"));
    only5.play(sq(13, 13)).unwrap(); // X elsewhere
    only5.play(sq(8, 0)).unwrap(); // O: 0,2,4,6,8 on row 0, no line
    only5.play(sq(2, 7)).unwrap(); // X: 2..6 is five, but 8 is apart
    assert_eq!(only5.outcome(), Outcome::Win(Mark::X));
    assert_eq!(
        only5.winning_line().map(|l| (l.start, l.len)),
        Some((sq(2, 7), 5))
    );
}

#[test]
fn boards_with_an_overline_are_read_as_the_rules_say() {
    // X has six in a row and O just moved: under "five or more" X won and
    // the game would have stopped before O's move, so the board is refused;
    // under "exactly five" it is a game in progress.
    let x = set(&[(0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3)]);
    let o = set(&[(0, 9), (2, 9), (4, 9), (6, 9), (8, 9), (10, 9)]);
    assert!(Position::from_marks("15".parse().unwrap(), x, o).is_err());
    let pos = Position::from_marks(exact("15"), x, o).unwrap();
    assert_eq!(pos.outcome(), Outcome::InProgress);
}

/// The case: the engine (X to move) could fill a gap to make six
/// (the other end is blocked by O), and O has a four that must be blocked. Under "exactly five" the six wins
/// nothing and the block is the only move; under "five or more" the six wins.
fn six_or_block(rules: Rules) -> Position {
    let x = set(&[(3, 7), (4, 7), (5, 7), (6, 7), (8, 7)]);
    let o = set(&[(2, 7), (0, 10), (1, 10), (2, 10), (3, 10)]);
    Position::from_marks(rules, x, o).unwrap()
}

#[test]
fn the_engine_blocks_a_four_instead_of_making_six_under_exactly_five() {
    let block = sq(4, 10);
    for size in ["15", "20"] {
        let free = six_or_block(size.parse().unwrap());
        let only5 = six_or_block(exact(size));
        for seed in 0..4 {
            let mut engine = Engine::new(Budget::nodes(20_000), seed);
            assert_eq!(engine.best_move(&free), Some(sq(7, 7)), "{size}");
            let mut engine = Engine::new(Budget::nodes(20_000), seed);
            assert_eq!(engine.best_move(&only5), Some(block), "{size} seed {seed}");
        }
        let mut tt = vec![TtEntry::EMPTY; 1 << 12];
        for kind in [PlayerKind::Strong, PlayerKind::Hard, PlayerKind::Impossible] {
            let mut player = Player::new(kind, 1, &mut tt);
            assert_eq!(player.choose_move(&only5), Some(block), "{size} {kind:?}");
        }
    }
}

#[test]
fn an_overline_threat_is_not_a_threat() {
    // O's "four" 0,1,2,3 + 5 on row 10: filling 4 makes six, which does not
    // win, so X need not block it and takes its own exact five instead.
    let x = set(&[(3, 7), (4, 7), (5, 7), (6, 7), (12, 12)]);
    let o = set(&[(0, 10), (1, 10), (2, 10), (3, 10), (5, 10)]);
    let pos = Position::from_marks(exact("15"), x, o).unwrap();
    assert!(!pos.completes_line(sq(4, 10), Mark::O));
    let mut engine = Engine::new(Budget::nodes(20_000), 3);
    let (mv, score) = engine.analyse(&pos).unwrap();
    assert!(mv == sq(2, 7) || mv == sq(7, 7), "{mv:?}");
    assert!(score > 0);
    // Two such fake fours (filling either makes six): under "five or more"
    // that is a double threat and X has lost; under "exactly five" nothing
    // is threatened and the position is quiet.
    let o = set(&[
        (0, 10),
        (1, 10),
        (2, 10),
        (3, 10),
        (5, 10),
        (14, 0),
        (14, 1),
        (14, 2),
        (14, 3),
        (14, 5),
    ]);
    let x = set(&[
        (7, 7),
        (12, 12),
        (9, 2),
        (1, 13),
        (5, 13),
        (9, 13),
        (10, 6),
        (3, 5),
        (11, 9),
        (7, 0),
    ]);
    let free = Position::from_marks("15".parse().unwrap(), x, o).unwrap();
    let (_, score) = Engine::new(Budget::nodes(5_000), 3).analyse(&free).unwrap();
    assert!(score < -(1 << 20), "five or more: lost, score {score}");
    let only5 = Position::from_marks(exact("15"), x, o).unwrap();
    let (_, score) = Engine::new(Budget::nodes(5_000), 3)
        .analyse(&only5)
        .unwrap();
    assert!(score.abs() < 1 << 20, "exactly five: score {score}");
}

#[test]
fn the_exact_solver_is_not_used_where_overlines_fit() {
    // 6x6 k=5 is solvable under "five or more"; under "exactly five" the
    // bitboard solver would count a six as a win, so it is not used.
    assert!(ttt_core::ai::is_solvable(&"6x6 k=5".parse().unwrap()));
    assert!(!ttt_core::ai::is_solvable(&exact("6x6 k=5")));
    assert!(ttt_core::ai::is_solvable(&exact("4x4 k=4")));
}
