//! Renju (Gomocup's `INFO rule 4`): black's forbidden moves, checked on
//! known diagrams, and how `Rules` and `Position` carry the rule.
use ttt_core::ai::{Budget, Engine, TtEntry};
use ttt_core::renju::{forbidden, Forbidden};
use ttt_core::{Mark, Outcome, PlayError, Position, Rules, RulesError, Square, WinCondition};

fn sq(c: u8, r: u8) -> Square {
    Square::new(c, r).unwrap()
}

fn renju() -> Rules {
    "15x15 renju".parse().unwrap()
}

/// A 15x15 diagram: rows top first, `x` black, `o` white, `.` empty, `?`
/// the (empty) cell to test; short rows are padded with empty cells.
/// Returns why black may not play `?`.
fn verdict(rows: &[&str]) -> Option<Forbidden> {
    let rules = renju();
    let mut cells = [[None; 15]; 15];
    let mut probe = None;
    for (r, line) in rows.iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            cells[r][c] = match ch {
                'x' => Some(Mark::X),
                'o' => Some(Mark::O),
                '?' => {
                    probe = Some(sq(c as u8, r as u8));
                    None
                }
                _ => None,
            };
        }
    }
    let board = |s: Square| cells[s.row() as usize][s.column() as usize];
    forbidden(
        &rules,
        &board,
        probe.expect("the diagram marks a cell with ?"),
    )
}

#[test]
fn a_simple_double_three_is_forbidden() {
    let rows = ["", "", "", "", "", ".......x", ".......x", ".....xx?"];
    assert_eq!(verdict(&rows), Some(Forbidden::DoubleThree));
}

#[test]
fn a_split_three_counts_as_a_three() {
    // .x.x?. across (one four point, the gap) and .xx?. down.
    let rows = ["", "", "", "", "", ".......x", ".......x", "....x.x?"];
    assert_eq!(verdict(&rows), Some(Forbidden::DoubleThree));
}

#[test]
fn a_double_four_is_forbidden() {
    let rows = [
        "", "", "", "", ".......x", ".......x", ".......x", "....xxx?",
    ];
    assert_eq!(verdict(&rows), Some(Forbidden::DoubleFour));
}

#[test]
fn two_fours_on_one_line_are_a_double_four() {
    // x.x?x.x: x.xxx.x, a five on either gap.
    assert_eq!(
        verdict(&["", "", "...x.x?x.x"]),
        Some(Forbidden::DoubleFour)
    );
    // xxx.?.xxx: xxx.x.xxx.
    assert_eq!(verdict(&["", "", "xxx.?.xxx"]), Some(Forbidden::DoubleFour));
    // But an open four is one four, and a single four is legal.
    assert_eq!(verdict(&["", "", "...xx?x....."]), None);
}

#[test]
fn an_overline_is_forbidden() {
    assert_eq!(verdict(&["", "", "..xxx?xx"]), Some(Forbidden::Overline));
    assert_eq!(verdict(&["", "", "xxxxx?"]), Some(Forbidden::Overline));
    // Diagonal too.
    let rows = ["x", ".x", "..x", "...?", "....x", ".....x"];
    assert_eq!(verdict(&rows), Some(Forbidden::Overline));
}

#[test]
fn a_four_three_is_legal() {
    // A four across (blocked at one end) and an open three down.
    let rows = ["", "", "", "", "", ".......x", ".......x", "...oxxx?."];
    assert_eq!(verdict(&rows), None);
}

#[test]
fn exactly_five_is_never_forbidden() {
    // A five across that is also two more fours (down and diagonal).
    let rows = [
        "",
        "",
        "",
        "",
        "....x..x",
        ".....x.x",
        "......xx",
        "...xxxx?.",
    ];
    assert_eq!(verdict(&rows), None);
    // Five across and an overline down.
    let rows = [
        "",
        "",
        ".......x",
        ".......x",
        ".......x",
        ".......x",
        ".......x",
        "...xxxx?.",
    ];
    assert_eq!(verdict(&rows), None);
}

#[test]
fn a_three_whose_four_point_is_forbidden_is_no_three() {
    // Across, o.xx?.. has one four point, (8,7); with ? played, black
    // there makes a straight four across plus fours down and up the
    // anti-diagonal: a double four. So only the three down is real.
    let false_three = [
        "",
        "",
        "",
        "",
        "...........x",
        ".......x..x",
        ".......x.x",
        "...o.xx?.",
        "........x",
        "........x",
        "........x",
    ];
    assert_eq!(verdict(&false_three), None);
    // Without the stones that make (8,7) forbidden, it is a double three.
    let real_three = ["", "", "", "", "", ".......x", ".......x", "...o.xx?."];
    assert_eq!(verdict(&real_three), Some(Forbidden::DoubleThree));
}

#[test]
fn the_recursion_goes_deeper_than_one_level() {
    // The three across has one four point, (8,7). Black there makes a
    // straight four across and threes down ((8,8),(8,9)) and up the
    // anti-diagonal ((9,6),(10,5)). Both are real: the one down can reach
    // (8,6) (a four and a three there: legal), the other (11,4), though
    // its point (7,8) is a double four. So (8,7) is a double three, the
    // three across is false, and ? is legal: three levels of the test.
    let rows = [
        "",
        "",
        "",
        "",
        "",
        ".......x..x",
        ".......x.x",
        "...o.xx?.",
        "........x",
        "........x",
    ];
    assert_eq!(verdict(&rows), None);
    // With (11,4) taken by white the anti-diagonal three is false too
    // ((7,8) is a double four), (8,7) is legal, and ? is a double three.
    let rows = [
        "",
        "",
        "",
        "",
        "...........o",
        ".......x..x",
        ".......x.x",
        "...o.xx?.",
        "........x",
        "........x",
    ];
    assert_eq!(verdict(&rows), Some(Forbidden::DoubleThree));
}

#[test]
fn a_four_point_that_is_a_five_makes_no_three() {
    // Across, .xx?. is an open three. Along the diagonal, xx.? has one
    // four point, (6,6), where black already has a five (up the
    // anti-diagonal (5,7)..(9,3)): black wins there, no straight four
    // stands, so that is no three and ? is legal (Rapfi agrees).
    let rows = [
        "",
        "",
        "",
        ".........x",
        "....x...x",
        ".....x.x",
        "",
        ".....xx?",
    ];
    assert_eq!(verdict(&rows), None);
}

#[test]
fn a_three_blocked_at_the_edge_is_not_open() {
    // Down from the top edge: |xx? cannot become a straight four.
    let rows = [".......x", ".......x", ".....xx?"];
    assert_eq!(verdict(&rows), None);
    // One cell from the edge it can (|.xxx.. -> |.xxxx.).
    let rows = ["", ".......x", ".......x", ".....xx?"];
    assert_eq!(verdict(&rows), Some(Forbidden::DoubleThree));
}

#[test]
fn a_three_blocked_by_white_is_not_open() {
    let rows = [
        "", "", "", "", ".......o", ".......x", ".......x", ".....xx?",
    ];
    assert_eq!(verdict(&rows), None);
}

#[test]
fn a_three_that_can_only_make_overline_fours_is_not_open() {
    // x..xx?..x across: either four point leaves a four whose other end
    // makes six, not a straight four.
    let rows = ["", "", "", "", "", "......x", "......x", ".x..xx?..x"];
    assert_eq!(verdict(&rows), None);
}

#[test]
fn white_is_never_restricted_and_taken_cells_are_not_forbidden() {
    let rules = renju();
    let mut pos = Position::new(rules);
    // X: a double three at (7,7) once X has (5,7),(6,7),(7,5),(7,6).
    for (c, r) in [(5, 7), (0, 0), (6, 7), (2, 0), (7, 5), (4, 0), (7, 6)] {
        pos.play(sq(c, r)).unwrap();
    }
    assert_eq!(pos.side_to_move(), Mark::O);
    // O may take the cell: it is only X's move that is forbidden.
    assert_eq!(pos.forbidden(sq(7, 7)), None);
    assert!(pos.legal_moves().contains(sq(7, 7)));
    pos.play(sq(14, 14)).unwrap();
    assert_eq!(pos.forbidden(sq(7, 7)), Some(Forbidden::DoubleThree));
    assert!(!pos.is_legal(sq(7, 7)));
    assert!(!pos.legal_moves().contains(sq(7, 7)));
    assert!(pos.legal_moves().contains(sq(8, 8)));
    let before = pos.clone();
    assert_eq!(
        pos.play(sq(7, 7)),
        Err(PlayError::Forbidden(sq(7, 7), Forbidden::DoubleThree))
    );
    assert_eq!(pos, before);
    assert_eq!(pos.history(), before.history());
    // A taken cell is reported as taken, not forbidden.
    assert_eq!(pos.forbidden(sq(5, 7)), None);
    assert!(matches!(pos.play(sq(5, 7)), Err(PlayError::Occupied(..))));
    // The same moves in freestyle: the cell is free.
    let mut free = Position::new("15".parse().unwrap());
    for &s in before.history() {
        free.play(s).unwrap();
    }
    assert_eq!(free.forbidden(sq(7, 7)), None);
    free.play(sq(7, 7)).unwrap();
}

#[test]
fn black_wins_with_exactly_five_and_white_with_six() {
    let rules = renju();
    // Black: exactly five across row 7.
    let mut pos = Position::new(rules);
    for (c, r) in [
        (3, 7),
        (3, 0),
        (4, 7),
        (5, 0),
        (5, 7),
        (7, 0),
        (6, 7),
        (9, 0),
    ] {
        pos.play(sq(c, r)).unwrap();
    }
    pos.play(sq(7, 7)).unwrap();
    assert_eq!(pos.outcome(), Outcome::Win(Mark::X));
    // White: six across row 3, gap filled last.
    let mut pos = Position::new(rules);
    let moves = [
        (7, 7),
        (2, 3),
        (0, 10),
        (3, 3),
        (2, 10),
        (4, 3),
        (4, 10),
        (6, 3),
        (6, 12),
        (7, 3),
        (8, 12),
    ];
    for (c, r) in moves {
        pos.play(sq(c, r)).unwrap();
    }
    assert!(pos.completes_line(sq(5, 3), Mark::O));
    pos.play(sq(5, 3)).unwrap();
    assert_eq!(pos.outcome(), Outcome::Win(Mark::O));
    assert_eq!(pos.winning_line().map(|l| l.len), Some(6));
    // A black six on a board read from text is no win either.
    let text = format!(
        "xxx.xxx......../ooo.ooo......../{}",
        vec!["..............."; 13].join("/")
    );
    let read = Position::from_board_with(&text, Some(5), WinCondition::Renju).unwrap();
    assert!(!read.completes_line(sq(3, 0), Mark::X));
    assert!(read.completes_line(sq(3, 1), Mark::O));
    assert_eq!(read.forbidden(sq(3, 0)), Some(Forbidden::Overline));
}

#[test]
fn the_rule_is_written_read_and_refused_where_it_does_not_apply() {
    let rules = renju();
    assert_eq!(rules.win_condition(), WinCondition::Renju);
    assert!(rules.is_renju());
    assert_eq!(rules.to_string(), "15x15 k=5 renju");
    assert_eq!("15x15 k=5 renju".parse::<Rules>(), Ok(rules));
    assert_eq!(
        "20x20 RENJU".parse::<Rules>().unwrap().to_string(),
        "20x20 k=5 renju"
    );
    let nine = "9x9 renju".parse::<Rules>().unwrap_err().to_string();
    assert!(nine.contains("15x15"), "{nine}");
    assert!("15x15 k=4 renju".parse::<Rules>().is_err());
    assert_eq!(
        rules.with_k(4),
        Err(RulesError::NotRenju {
            columns: 15,
            rows: 15,
            k: 4
        })
    );
    assert_eq!(rules.with_k(5), Ok(rules));
    let small: Rules = "9x9 k=5".parse().unwrap();
    assert!(small.with_renju().is_err());
    // Asked through with_win_condition on a board without renju: unchanged.
    assert_eq!(small.with_win_condition(WinCondition::Renju), small);
    assert!(Position::from_board_with(&".".repeat(81), Some(5), WinCondition::Renju).is_err());
    // The other notations are untouched.
    assert_eq!(
        "15x15 k=5".parse::<Rules>().unwrap().to_string(),
        "15x15 k=5"
    );
    assert_eq!(
        "15 exact".parse::<Rules>().unwrap().to_string(),
        "15x15 k=5 exact"
    );
}

/// Black's double three at (7,7) ((5,7),(6,7) across, (7,5),(7,6) down),
/// and white's three (3,3),(4,4),(5,5) on the diagonal through it, blocked
/// by black at (2,2): white's (6,6) makes a four whose only five point is
/// black's forbidden cell.
fn forbidden_block(rules: Rules) -> Position {
    let x = [(5, 7), (6, 7), (7, 5), (7, 6), (2, 2)];
    let o = [(3, 3), (4, 4), (5, 5), (14, 0)];
    let set = |cells: &[(u8, u8)]| cells.iter().map(|&(c, r)| sq(c, r)).collect();
    Position::from_marks(rules, set(&x), set(&o)).unwrap()
}

#[test]
fn the_engine_as_white_wins_through_a_forbidden_block() {
    let pos = forbidden_block(renju());
    assert_eq!(pos.side_to_move(), Mark::O);
    for seed in 0..3 {
        let mut engine = Engine::new(Budget::nodes(50_000), seed);
        let (mv, score) = engine.analyse(&pos).unwrap();
        let mut after = pos.clone();
        after.play(mv).unwrap();
        // Whatever it plays, it has seen a forced win.
        assert!(score > 1 << 28, "seed {seed}: {mv:?} scored {score}");
        if mv == sq(6, 6) {
            assert_eq!(after.forbidden(sq(7, 7)), Some(Forbidden::DoubleThree));
        }
    }
    // In freestyle black blocks at (7,7), making a double three: no win.
    let free = forbidden_block("15".parse().unwrap());
    let mut engine = Engine::new(Budget::nodes(50_000), 0);
    let (_, score) = engine.analyse(&free).unwrap();
    assert!(score < 1 << 28, "{score}");
}

#[test]
fn the_engine_as_black_never_blocks_on_a_forbidden_cell() {
    // The same, one move on: white has played (6,6); black's only block is
    // forbidden, so black has lost, and must still play a legal move.
    let mut pos = forbidden_block(renju());
    pos.play(sq(6, 6)).unwrap();
    assert!(pos.completes_line(sq(7, 7), Mark::O));
    assert!(!pos.is_legal(sq(7, 7)));
    for seed in 0..3 {
        let mut engine = Engine::new(Budget::nodes(20_000), seed);
        let (mv, score) = engine.analyse(&pos).unwrap();
        assert!(pos.is_legal(mv), "seed {seed}: {mv:?}");
        assert!(score < -(1 << 28), "seed {seed}: {score}");
    }
}

#[test]
fn a_black_four_that_only_makes_six_need_not_be_blocked() {
    // Black x x x x . x on row 10: the gap makes six, no threat under
    // renju. White has an open three on row 3 and, not having to block,
    // makes it an open four (a won game); in freestyle it must block.
    let x = [(0, 10), (1, 10), (2, 10), (3, 10), (5, 10), (14, 14)];
    let o = [(5, 3), (6, 3), (7, 3), (9, 0), (11, 0)];
    let set = |cells: &[(u8, u8)]| cells.iter().map(|&(c, r)| sq(c, r)).collect();
    let pos = Position::from_marks(renju(), set(&x), set(&o)).unwrap();
    assert!(!pos.completes_line(sq(4, 10), Mark::X));
    let mut engine = Engine::new(Budget::nodes(50_000), 1);
    let (mv, score) = engine.analyse(&pos).unwrap();
    assert_ne!(mv, sq(4, 10));
    assert!(score > 1 << 28, "{mv:?} {score}");
    let free = Position::from_marks("15".parse().unwrap(), set(&x), set(&o)).unwrap();
    let mut engine = Engine::new(Budget::nodes(50_000), 1);
    assert_eq!(engine.best_move(&free), Some(sq(4, 10)));
}

#[test]
fn strong_self_play_under_renju_is_legal_and_meets_forbidden_cells() {
    // Short games of the engine against itself: every move it picks must
    // be accepted by Position::play (which refuses forbidden moves), and
    // black must have met forbidden cells near the fight (else the test
    // would prove nothing).
    // (The engine itself, not Player, which would hide an illegal pick
    // behind its fallback.)
    let mut tt = vec![TtEntry::EMPTY; 1 << 14];
    let mut met = 0;
    for game in 0..4u64 {
        let mut pos = Position::new(renju());
        while !pos.outcome().is_over() {
            if pos.side_to_move() == Mark::X {
                met += pos
                    .empty_squares()
                    .into_iter()
                    .filter(|&s| pos.forbidden(s).is_some())
                    .count();
            }
            let seed = game * 1000 + pos.mark_count() as u64;
            let mut engine = Engine::with_table(Budget::nodes(3_000), seed, &mut tt);
            let mv = engine.best_move(&pos).unwrap();
            pos.play(mv)
                .unwrap_or_else(|e| panic!("game {game}: {mv:?}: {e} in {pos}"));
        }
    }
    assert!(met > 0, "no forbidden cell ever came up");
}
