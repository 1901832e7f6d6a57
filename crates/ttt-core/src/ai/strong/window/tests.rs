use super::super::board::SearchBoard;
use super::super::test_boards::board;
use super::eval::need_score;
use super::steps::{line_delta, MAX_COUNT};
use super::WindowBoard;
use crate::rng::Rng;
use crate::{Mark, Position, Rules, Square, MAX_CELLS};

/// How much playing `sq` gains for `mark` and would gain for the other
/// side (evaluation changes, each from its own view), rescored from the
/// windows: what `cell_key` keeps incrementally.
fn gains(board: &WindowBoard, sq: Square, mark: Mark) -> (i32, i32) {
    let m = mark.index();
    let o = 1 - m;
    let mut g = [0i32; 2];
    board.for_windows(sq, |w| {
        let code = board.counts[w] as usize;
        let c = [code / MAX_COUNT, code % MAX_COUNT];
        for (side, other, out) in [(m, o, 0), (o, m, 1)] {
            if c[other] == 0 {
                let have = c[side] as u32;
                g[out] += need_score(board.k - have - 1)
                    - if have > 0 {
                        need_score(board.k - have)
                    } else {
                        0
                    };
            } else if c[side] == 0 {
                g[out] += need_score(board.k - c[other] as u32);
            }
        }
    });
    (g[0], g[1])
}

/// The incrementally kept ordering keys and frontier match a rescore
/// from scratch after every move and every take-back of random games.
#[test]
fn incremental_keys_and_frontier_match_a_rescore() {
    let mut rng = Rng::new(7);
    for (c, r, k) in [
        (3u8, 3u8, 3u8),
        (9, 9, 5),
        (7, 7, 4),
        (16, 16, 5),
        (20, 20, 5),
        (20, 15, 5),
        (13, 20, 4),
        (6, 4, 1),
        (5, 8, 6),
    ] {
        let rules = Rules::new(c, r, k).unwrap();
        // The rescore is cubic in the cells: fewer games on the biggest.
        let games = if rules.cell_count() > 256 { 2 } else { 8 };
        for _game in 0..games {
            let mut board = WindowBoard::new(&Position::new(rules));
            let mut played = [Square::from_index(0); MAX_CELLS];
            let mut count = 0;
            while count < rules.cell_count() {
                let empty: [Option<Square>; MAX_CELLS] = core::array::from_fn(|i| {
                    let sq = Square::from_index(i as u16);
                    (rules.contains(sq) && board.stones.cells[i] == 0).then_some(sq)
                });
                let pick = rng.below((rules.cell_count() - count) as u32) as usize;
                let sq = empty.iter().flatten().nth(pick).copied().unwrap();
                let mark = board.stones.turn;
                board.apply(sq, mark);
                played[count] = sq;
                count += 1;
                check(&board);
                if rng.below(4) == 0 {
                    count -= 1;
                    board.unapply(played[count], mark);
                    check(&board);
                }
            }
        }
    }
}

fn check(board: &WindowBoard) {
    let rules = &board.stones.rules;
    let cells = &board.stones.cells;
    // The three-windows: exactly the windows with k-2 marks of a side
    // and none of the other (k >= 3), and their counts.
    for side in 0..2 {
        let mut count = 0;
        for sq in rules.squares() {
            for d in 0..4 {
                let id = sq.index() * 4 + d;
                let set = board.three_set[side][id / 64] >> (id % 64) & 1 != 0;
                count += u32::from(set);
                let (w, h) = (rules.columns() as i32, rules.rows() as i32);
                let k = board.k as i32;
                let (dx, dy) = line_delta(d);
                let (x, y) = (sq.column() as i32, sq.row() as i32);
                let (ex, ey) = (x + (k - 1) * dx, y + (k - 1) * dy);
                let on_board = board.k > 1 && (0..w).contains(&ex) && (0..h).contains(&ey);
                let mut c = [0; 2];
                for i in 0..k {
                    let (cx, cy) = (x + i * dx, y + i * dy);
                    if on_board {
                        let cell = cells[cy as usize * Square::STRIDE + cx as usize];
                        if cell != 0 {
                            c[cell as usize - 1] += 1;
                        }
                    }
                }
                let want = on_board && board.k >= 3 && c[1 - side] == 0 && c[side] == k - 2;
                assert_eq!(set, want, "{sq:?} dir {d} side {side}");
            }
        }
        assert_eq!(board.threes[side], count);
    }
    let frontier = board.stones.frontier();
    for sq in rules.squares() {
        let i = sq.index();
        let in_frontier = frontier[sq.row() as usize] >> sq.column() & 1 != 0;
        let near_a_mark = rules.squares().any(|m| {
            cells[m.index()] != 0
                && (m.column() as i32 - sq.column() as i32).abs() <= 2
                && (m.row() as i32 - sq.row() as i32).abs() <= 2
        });
        assert_eq!(in_frontier, cells[i] == 0 && near_a_mark, "{sq:?}");
        if cells[i] != 0 {
            continue;
        }
        for mark in Mark::ALL {
            let (mine, theirs) = gains(board, sq, mark);
            assert_eq!(board.cell_key[i][mark.index()], 2 * mine + theirs, "{sq:?}");
        }
    }
}

/// Mirror-image open threes (X's and O's, far apart): the evaluation
/// favours the side to move by more than one three-window, for either
/// side, since it makes its four first.
#[test]
fn equal_threes_favour_the_side_to_move() {
    let threes = [(3, ".....xxx......."), (11, ".....ooo.......")];
    // X to move; then (an X mark on a far corner, no window shared) O to
    // move.
    let extra = [(0, "..............x"), threes[0], threes[1]];
    for (pos, to_move) in [(board(&threes), Mark::X), (board(&extra), Mark::O)] {
        let board = WindowBoard::new(&pos);
        assert_eq!(board.stones.turn, to_move);
        let e = board.static_eval();
        assert!(e > need_score(2), "{to_move:?} to move: {e}");
    }
}

/// ox.xx.xo: each gap lies in two three-windows of X, so the windows
/// restrict O to their cells and its own fours (none make two five cells:
/// the pattern board asks for no reply).
#[test]
fn a_false_fork_restricts_the_windows_replies() {
    let pos = board(&[(7, "...ox.xx.xo...."), (0, "o..............")]);
    let w = WindowBoard::new(&pos);
    assert_eq!(w.stones.turn, Mark::O);
    let replies = w.threat_replies().unwrap();
    let (theirs, _) = w.three_window_cells(Mark::X.index());
    assert_eq!(replies, theirs);
    assert_ne!(w.candidate_cells(), w.stones.frontier());
}
