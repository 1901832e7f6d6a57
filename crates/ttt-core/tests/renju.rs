//! Renju (Gomocup's `INFO rule 4`): black's forbidden moves, checked on
//! known diagrams, and how `Rules` and `Position` carry the rule.
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
    forbidden(&rules, &board, probe.expect("the diagram marks a cell with ?"))
}

#[test]
fn a_simple_double_three_is_forbidden() {
    let rows = [
        "",
        "",
        "",
        "",
        "",
        ".......x",
        ".......x",
        ".....xx?",
    ];
    assert_eq!(verdict(&rows), Some(Forbidden::DoubleThree));
}

#[test]
fn a_split_three_counts_as_a_three() {
    // .x.x?. across (one four point, the gap) and .xx?. down.
    let rows = [
        "",
        "",
        "",
        "",
        "",
        ".......x",
        ".......x",
        "....x.x?",
    ];
    assert_eq!(verdict(&rows), Some(Forbidden::DoubleThree));
}

#[test]
fn a_double_four_is_forbidden() {
    let rows = [
        "",
        "",
        "",
        "",
        ".......x",
        ".......x",
        ".......x",
        "....xxx?",
    ];
    assert_eq!(verdict(&rows), Some(Forbidden::DoubleFour));
}

#[test]
fn two_fours_on_one_line_are_a_double_four() {
    // x.x?x.x: x.xxx.x, a five on either gap.
    assert_eq!(verdict(&["", "", "...x.x?x.x"]), Some(Forbidden::DoubleFour));
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
    let rows = [
        "",
        "",
        "",
        "",
        "",
        ".......x",
        ".......x",
        "...oxxx?.",
    ];
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
    let real_three = [
        "",
        "",
        "",
        "",
        "",
        ".......x",
        ".......x",
        "...o.xx?.",
    ];
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
        "",
        "",
        "",
        "",
        ".......o",
        ".......x",
        ".......x",
        ".....xx?",
    ];
    assert_eq!(verdict(&rows), None);
}

#[test]
fn a_three_that_can_only_make_overline_fours_is_not_open() {
    // x..xx?..x across: either four point leaves a four whose other end
    // makes six, not a straight four.
    let rows = [
        "",
        "",
        "",
        "",
        "",
        "......x",
        "......x",
        ".x..xx?..x",
    ];
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
    for (c, r) in [(3, 7), (3, 0), (4, 7), (5, 0), (5, 7), (7, 0), (6, 7), (9, 0)] {
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
    assert_eq!("20x20 RENJU".parse::<Rules>().unwrap().to_string(), "20x20 k=5 renju");
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
    assert_eq!("15x15 k=5".parse::<Rules>().unwrap().to_string(), "15x15 k=5");
    assert_eq!("15 exact".parse::<Rules>().unwrap().to_string(), "15x15 k=5 exact");
}
