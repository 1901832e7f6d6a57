use super::super::board::SearchBoard;
use super::super::rows::cells_of;
use super::super::test_boards::board;
use super::threats::rows_of;
use super::{ShapeBoard, TAKE_BACKS};
use crate::pattern::{PatternBoard, ThreatClass};
use crate::{Mark, Position, Rules, Square, WinCondition, MAX_SIDE};

/// The pattern board of `pos` (which it fits).
fn shapes(pos: &Position) -> ShapeBoard {
    ShapeBoard::new(pos).unwrap()
}

/// Five in a row on boards larger than 9x9, exactly five too; not the
/// console's boards (up to 9x9), renju or other win lengths.
#[test]
fn only_large_five_in_a_row_boards_fit() {
    let fits = |rules: Rules| ShapeBoard::new(&Position::new(rules)).is_some();
    assert!(fits(Rules::new(15, 15, 5).unwrap()));
    assert!(fits(Rules::new(20, 20, 5).unwrap()));
    assert!(fits(Rules::new(10, 10, 5).unwrap()));
    let exact = Rules::new(15, 15, 5)
        .unwrap()
        .with_win_condition(WinCondition::ExactlyK);
    assert!(fits(exact));
    assert!(!fits(Rules::new(9, 9, 5).unwrap()));
    assert!(!fits(
        Rules::new(9, 9, 5)
            .unwrap()
            .with_win_condition(WinCondition::ExactlyK)
    ));
    assert!(!fits(Rules::new(15, 15, 5).unwrap().with_renju().unwrap()));
    assert!(!fits(Rules::new(15, 15, 4).unwrap()));
}

/// Where exactly five wins, the pattern board reads its exactly-five
/// table: filling the gap of `xxxx.x` makes six, which wins nothing, so
/// that cell is no winning cell; the cell that makes exactly five is, and
/// playing it wins. Where five or more wins, both cells win.
#[test]
fn exactly_five_wins_and_an_overline_does_not() {
    // X: d8 e8 f8 g8 and i8 (h8 makes six, c8 exactly five); O's
    // stones four apart on row 1, none near X. X to move.
    let text = "o...o...o...o../.............../.............../.............../.............../.............../.............../...xxxx.x....../.............../.............../.............../.............../.............../.............../o..............";
    let sq = |c, r| Square::new(c, r).unwrap();
    let (five, six) = (sq(2, 7), sq(7, 7));
    let exact = Position::from_board_with(text, Some(5), WinCondition::ExactlyK).unwrap();
    let mut e = shapes(&exact);
    assert_eq!(e.winning_cells(Mark::X), (Some(five), 1));
    assert!(!e.apply(six, Mark::X));
    // Six in a row, and c8 would now make seven: no winning cell at all.
    assert_eq!(e.winning_cells(Mark::X), (None, 0));
    e.unapply(six, Mark::X);
    assert!(e.apply(five, Mark::X));
    e.unapply(five, Mark::X);
    // Five or more: both cells win.
    let free = Position::from_board(text, Some(5)).unwrap();
    let mut e = shapes(&free);
    assert_eq!(e.winning_cells(Mark::X), (Some(five), 2));
    assert!(e.apply(six, Mark::X));
}

/// Where exactly five wins, a four whose five would be six is no four:
/// `oxxx.xx` (the gap makes six) gives X no four cell, and no fork or
/// four-three win is read from it; where five or more wins, the gap is a
/// five cell.
#[test]
fn exactly_five_sees_no_four_in_an_overline() {
    let free = board(&[(7, "oxxx.xx........"), (0, "o...o...o...o..")]);
    let text = "o...o...o...o../.............../.............../.............../.............../.............../.............../oxxx.xx......../.............../.............../.............../.............../.............../.............../...............";
    let exact = Position::from_board_with(text, Some(5), WinCondition::ExactlyK).unwrap();
    assert_eq!(exact.marks(Mark::X), free.marks(Mark::X));
    let gap = Square::new(4, 7).unwrap();
    let e = shapes(&free);
    assert_eq!(e.winning_cells(Mark::X), (Some(gap), 1));
    let mut e = shapes(&exact);
    assert_eq!(e.winning_cells(Mark::X).1, 0);
    assert_eq!(e.board.class(gap, Mark::X), ThreatClass::None);
    assert_eq!(e.static_win(), None);
}

/// A search plays and takes back many stones, past the depth of the
/// take-back records too; afterwards the evaluation and the patterns are
/// those of the position read afresh.
#[test]
fn stones_beyond_the_records_are_taken_back_too() {
    // A game's first eight moves (Rapfi against `strong`), X to move.
    let mut pos = Position::new(Rules::new(15, 15, 5).unwrap());
    for name in ["j6", "k11", "e9", "j11", "g9", "i9", "h11", "h8"] {
        pos.play(pos.rules().parse_square(name).unwrap()).unwrap();
    }
    let fresh = shapes(&pos);
    let mut deep = shapes(&pos);
    let empties: [Square; TAKE_BACKS + 8] =
        core::array::from_fn(|i| pos.empty_squares().into_iter().nth(i).unwrap());
    for (i, &sq) in empties.iter().enumerate() {
        deep.apply(sq, Mark::ALL[i % 2]);
    }
    for (i, &sq) in empties.iter().enumerate().rev() {
        deep.unapply(sq, Mark::ALL[i % 2]);
    }
    deep.set_turn(pos.side_to_move());
    assert_eq!(deep.placed, 0);
    assert_eq!(deep.static_eval(), fresh.static_eval());
    assert_eq!(deep.stones.hash, fresh.stones.hash);
    for sq in pos.rules().squares() {
        assert_eq!(deep.board.class_codes(sq), fresh.board.class_codes(sq));
    }
}

/// Two stones with room on both sides (an open two: four cells make an
/// open three) are worth more to their side than two against the
/// opponent's stone (two cells make a blocked three).
#[test]
fn an_open_two_is_worth_more_than_a_blocked_one() {
    // X to move in both; O has two stones in each.
    let open = board(&[(7, "......xx......."), (0, "o.............o")]);
    let blocked = board(&[(7, ".....oxx......."), (0, "o..............")]);
    let value = |pos: &Position| shapes(pos).static_eval();
    assert!(
        value(&open) > value(&blocked) + 300,
        "{} {}",
        value(&open),
        value(&blocked)
    );
}

/// Mirror-image open threes (X's and O's, far apart): the evaluation
/// favours the side to move, for either side: it makes its four first.
#[test]
fn equal_threes_favour_the_side_to_move() {
    let threes = [(3, ".....xxx......."), (11, ".....ooo.......")];
    let extra = [(0, "..............x"), threes[0], threes[1]];
    for (pos, to_move) in [(board(&threes), Mark::X), (board(&extra), Mark::O)] {
        let e = shapes(&pos);
        assert_eq!(e.stones.turn, to_move);
        assert!(
            e.static_eval() > 512,
            "{to_move:?} to move: {}",
            e.static_eval()
        );
    }
}

/// ox.xx.xo: neither gap makes two five cells, so by shape there is
/// nothing O must answer: no exact replies, every cell near the stones a
/// candidate.
#[test]
fn a_false_fork_calls_for_no_reply() {
    let pos = board(&[(7, "...ox.xx.xo...."), (0, "o..............")]);
    let e = shapes(&pos);
    assert_eq!(e.stones.turn, Mark::O);
    assert_eq!(e.exact_replies(), None);
    assert_eq!(e.candidate_cells(), e.stones.frontier());
}

/// Against an open three, the replies are the cells the pattern board
/// finds by trying every cell, and the cells where O makes a four.
#[test]
fn an_open_three_is_answered_by_its_defusers_and_our_fours() {
    let pos = board(&[
        (7, ".....xxx......."),
        (2, "xoo.o.........."),
        (12, "x.............."),
        (14, "..............o"),
    ]);
    let e = shapes(&pos);
    assert_eq!(e.stones.turn, Mark::O);
    let replies = e.exact_replies().unwrap();
    let mut pattern = PatternBoard::new(&pos).unwrap();
    let (threat, answers) = pattern.answers(Mark::O).unwrap();
    assert_eq!(threat, ThreatClass::OpenFour);
    let expected = rows_of(answers.union(&pattern.four_cells(Mark::O)));
    assert_eq!(replies, expected);
    assert_eq!(e.candidate_cells(), expected);
    // e8 and i8 (the three's open ends), and d3 (O's four).
    for (c, r) in [(4, 7), (8, 7), (3, 2)] {
        assert!(replies[r] >> c & 1 != 0, "{c},{r}");
    }
}

/// Two open threes of X far apart, O without a three-window: nothing
/// stops both, and no cell is worth searching.
#[test]
fn two_open_threes_leave_nothing_to_search() {
    let pos = board(&[
        (2, "..xxx.........."),
        (11, ".........xxx..."),
        (7, "o.....o.......o"),
        (14, "o......o......."),
    ]);
    let e = shapes(&pos);
    assert_eq!(e.stones.turn, Mark::O);
    assert_eq!(e.exact_replies(), Some([0; MAX_SIDE as usize]));
    assert_eq!(e.candidate_cells(), [0; MAX_SIDE as usize]);
}

/// X: d8 e8 f8 blocked by c8 (g8 or h8 makes a four), g9 g10 open (g8
/// also makes an open three down the column): g8 is a 4-3 cell, and X
/// has no open-four cell.
const X_FOUR_THREE: [(usize, &str); 3] = [
    (7, "..oxxx........."),
    (8, "......x........"),
    (9, "......x........"),
];

/// [`X_FOUR_THREE`] and the rows `rest`.
fn with_x_four_three(rest: &[(usize, &'static str)]) -> Position {
    let mut rows = [(0, ""); 8];
    let n = X_FOUR_THREE.len() + rest.len();
    for (slot, &row) in rows.iter_mut().zip(X_FOUR_THREE.iter().chain(rest)) {
        *slot = row;
    }
    board(&rows[..n])
}

/// O to move against X's four-three cell (g8: a four along row 8 and
/// an open three down column g) and no open three: only the cells
/// that leave X no four-three, the ones the pattern board finds by
/// trying every cell, and O's fours are searched.
#[test]
fn a_four_three_is_answered_by_its_defusers_and_our_fours() {
    let pos = with_x_four_three(&[
        (0, "o.oo..........o"),
        (12, "x.............x"),
        (14, "o......x......o"),
    ]);
    let e = shapes(&pos);
    assert_eq!(e.stones.turn, Mark::O);
    assert_eq!(e.exact_replies(), None);
    let replies = e.four_three_replies().unwrap();
    let mut pattern = PatternBoard::new(&pos).unwrap();
    let (threat, answers) = pattern.answers(Mark::O).unwrap();
    assert_eq!(threat, ThreatClass::FourThree);
    let expected = rows_of(answers.union(&pattern.four_cells(Mark::O)));
    assert_eq!(replies, expected);
    assert_eq!(e.candidate_cells(), expected);
    // g8 itself, and O's four at b1 (the three a1 c1 d1).
    for (c, r) in [(6, 7), (1, 0)] {
        assert!(replies[r] >> c & 1 != 0, "{c},{r}");
    }
    assert!(cells_of(replies).count() > 2);
    // Without the four-three (no g10) nothing is restricted.
    let calm = board(&[
        X_FOUR_THREE[0],
        X_FOUR_THREE[1],
        (0, "o.oo..........o"),
        (12, "x.............x"),
        (14, "o......x......."),
    ]);
    let e = shapes(&calm);
    assert_eq!(e.stones.turn, Mark::O);
    assert_eq!(e.four_three_replies(), None);
    assert_eq!(e.candidate_cells(), e.stones.frontier());
}

/// X's four-three cell wins in 5 while O cannot make a four; one O
/// blocked three (a four to play first) is enough to spoil it.
#[test]
fn a_four_three_wins_when_the_opponent_has_no_four() {
    let quiet = with_x_four_three(&[(0, "o.............o"), (14, "o.............o")]);
    let mut e = shapes(&quiet);
    assert_eq!(e.stones.turn, Mark::X);
    assert_eq!(e.static_win(), Some(5));
    let spoiled = with_x_four_three(&[
        (0, "o.oo..........o"),
        (12, "x.............x"),
        (14, "o.............o"),
    ]);
    let mut e = shapes(&spoiled);
    assert_eq!(e.stones.turn, Mark::X);
    assert_eq!(e.static_win(), None);
}

/// X's four-three at g8 (the four d8-g8 is blocked at h8) against O's
/// two stones h10 h11: O's forced block at h8 is a four of O's once h7,
/// h9 or h12 holds an O stone, so each of these answers the four-three
/// too (the block gains the move back) though none breaks it, and is
/// searched; a cell far from both is not.
#[test]
fn a_four_three_is_also_answered_where_our_block_would_become_a_four() {
    let pos = board(&[
        (0, "o.............."),
        (7, "..oxxx........."),
        (8, "......x........"),
        (9, "......xo......."),
        (10, ".......o......."),
    ]);
    let e = shapes(&pos);
    assert_eq!(e.stones.turn, Mark::O);
    let replies = e.four_three_replies().unwrap();
    let has = |c: u32, r: usize| replies[r] >> c & 1 != 0;
    let (_, defusers) = PatternBoard::new(&pos).unwrap().answers(Mark::O).unwrap();
    for (c, r) in [(7, 6), (7, 8), (7, 11)] {
        assert!(has(c, r), "{c},{r}");
    }
    // h12 breaks nothing: only the block it prepares makes it an answer.
    assert!(!defusers.contains(Square::new(7, 11).unwrap()));
    // The four-three cell and the block are answers as before.
    assert!(has(6, 7) && has(7, 7));
    assert!(!has(0, 14) && !has(12, 12));
}

/// A four-three whose forced block is already a four of the defender's
/// (O's h9 h10 h11, blocked above by X's h12: O at h8 makes a four)
/// forces nothing: every candidate is searched.
#[test]
fn a_four_three_whose_block_makes_our_four_forces_nothing() {
    let pos = board(&[
        (0, "o.............."),
        (7, "..oxxx........."),
        (8, "......xo......."),
        (9, "......xo......."),
        (10, ".......o......."),
        (11, ".......x......."),
    ]);
    let e = shapes(&pos);
    assert_eq!(e.stones.turn, Mark::O);
    assert_eq!(
        e.board.class(Square::new(6, 7).unwrap(), Mark::X),
        ThreatClass::FourThree
    );
    assert_eq!(e.four_three_replies(), None);
    assert_eq!(e.exact_replies(), None);
    assert_eq!(e.candidate_cells(), e.stones.frontier());
}
