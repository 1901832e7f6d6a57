//! Tests of the engine as a whole, and of its two boards side by side.
use super::board::SearchBoard;
use super::rows::{cells_of, Rows};
use super::score::MATE_BOUND;
use super::search::Search;
use super::shape::ShapeBoard;
use super::test_boards::board;
use super::window::WindowBoard;
use super::{Budget, Engine, TAKE_BACKS};
use crate::pattern::{PatternUndo, Probe, ThreatClass};
use crate::rng::Rng;
use crate::{Mark, Position, Rules, Square, MAX_SIDE};

/// An empty board opens in the centre (odd sides) or on one of the cells
/// next to it (even sides), whichever seed, however large the budget.
#[test]
fn empty_boards_open_in_the_centre() {
    for (c, r, centre) in [
        (15u8, 15u8, &[(7u8, 7u8)][..]),
        (9, 9, &[(4, 4)]),
        (3, 3, &[(1, 1)]),
        (16, 16, &[(7, 7), (8, 7), (7, 8), (8, 8)]),
        (10, 7, &[(4, 3), (5, 3)]),
    ] {
        let rules = Rules::new(c, r, 5.min(c.max(r))).unwrap();
        let mut seen = [false; 4];
        for seed in 0..32 {
            let mut engine = Engine::new(Budget::nodes(1 << 20), seed);
            let (sq, _) = engine.analyse(&Position::new(rules)).unwrap();
            let at = centre
                .iter()
                .position(|&(x, y)| (sq.column(), sq.row()) == (x, y));
            let Some(i) = at else {
                panic!("{c}x{r} seed {seed}: {sq:?} is not central");
            };
            seen[i] = true;
        }
        // The seed chooses among the central cells.
        assert!(seen[..centre.len()].iter().all(|&s| s), "{c}x{r}");
    }
}

/// Per row, a bit per column: whether any bit is set in `a` and not in
/// `b`.
fn outside(a: &Rows, b: &Rows) -> bool {
    a.iter().zip(b).any(|(x, y)| x & !y != 0)
}

/// The window board's win without a search, with the four-three wins the
/// pattern board also sees (a four cell of ours that is a four-three,
/// judged by the pattern tables, the opponent without a three-window).
fn window_static_win(w: &mut WindowBoard) -> Option<i32> {
    let turn = w.stones().turn;
    let me = turn.index();
    w.static_win().or_else(|| {
        if w.has_four_cells(1 - me) || !w.has_four_cells(me) {
            return None;
        }
        let (fours, _) = w.four_cells(me);
        let probe = Probe::new(&w.stones().rules, &w.stones().cells).ok()?;
        cells_of(fours)
            .any(|q| probe.class(q, turn) >= ThreatClass::FourThree)
            .then_some(5)
    })
}

/// On 15x15 where five or more wins, the threats read from the pattern
/// board are the ones the line windows give, after every move of random
/// games played near the stones on both boards: the same five cells; the
/// same four cells, five cells aside (a cell that makes five may make a
/// four on another line); as forks, exactly those of the windows'
/// candidates (which also hold false forks such as `x.xx.x`) that really
/// make two five cells when played (the side having none yet); and, with
/// no five cell on the board, the same "can make a four" and the same
/// wins without a search.
#[test]
fn the_pattern_boards_threats_are_the_windows() {
    let rules = Rules::new(15, 15, 5).unwrap();
    let mut rng = Rng::new(11);
    let mut forks_seen = 0;
    let mut wins_seen = 0;
    for _game in 0..24 {
        let empty = Position::new(rules);
        let mut p = ShapeBoard::new(&empty).unwrap();
        let mut w = WindowBoard::new(&empty);
        let mut next = Some(Square::new(7, 7).unwrap());
        while let Some(sq) = next {
            let mark = w.stones().turn;
            let won = w.apply(sq, mark);
            assert_eq!(p.apply(sq, mark), won);
            if won {
                break;
            }
            let mut fives = [[0u32; MAX_SIDE as usize]; 2];
            for m in Mark::ALL {
                for c in p.patterns().cells_of(m, ThreatClass::Five) {
                    fives[m.index()][c.row() as usize] |= 1 << c.column();
                }
            }
            let no_five = fives.iter().all(|f| f.iter().all(|&r| r == 0));
            for m in Mark::ALL {
                let mi = m.index();
                let (cell_w, n_w) = w.winning_cells(m);
                let (cell_p, n_p) = p.winning_cells(m);
                assert_eq!(n_p, n_w);
                if n_w == 1 {
                    assert_eq!(cell_p, cell_w);
                }
                let (once_w, twice_w) = w.four_cells(mi);
                let (once_p, twice_p) = p.four_cells(mi);
                let f = &fives[mi];
                let strip = |rows: Rows| -> Rows { core::array::from_fn(|r| rows[r] & !f[r]) };
                assert_eq!(strip(once_p), strip(once_w));
                assert!(!outside(&twice_p, &twice_w));
                // (A five cell of m's already there would count as one
                // of the two.)
                let no_five_of_m = f.iter().all(|&r| r == 0);
                for c in cells_of(twice_w).filter(|_| no_five_of_m) {
                    let turn = w.stones().turn;
                    w.apply(c, m);
                    let real = w.winning_cells(m).1 >= 2;
                    w.unapply(c, m);
                    w.set_turn(turn);
                    let named = twice_p[c.row() as usize] >> c.column() & 1 != 0;
                    assert_eq!(named, real, "{c:?}");
                    forks_seen += usize::from(real);
                }
                if no_five {
                    assert_eq!(p.has_four_cells(mi), w.has_four_cells(mi));
                }
            }
            if no_five {
                let win_w = window_static_win(&mut w);
                assert_eq!(p.static_win(), win_w);
                wins_seen += usize::from(win_w.is_some());
            }
            // Next: a random empty cell within two steps of a stone.
            let front = w.stones().frontier();
            let n: u32 = front.iter().map(|r| r.count_ones()).sum();
            next = (n > 0)
                .then(|| cells_of(front).nth(rng.below(n) as usize))
                .flatten();
        }
    }
    // The games reached the threats compared.
    assert!(
        forks_seen >= 20 && wins_seen >= 20,
        "{forks_seen} {wins_seen}"
    );
}

/// Two open threes of X far apart, O without a three-window: nothing
/// stops both, and the search sees the loss at once.
#[test]
fn two_open_threes_are_a_loss() {
    let pos = board(&[
        (2, "..xxx.........."),
        (11, ".........xxx..."),
        (7, "o.....o.......o"),
        (14, "o......o......."),
    ]);
    let mut e = Engine::new(Budget::nodes(2_000), 0);
    let (mv, value) = e.analyse(&pos).unwrap();
    assert!(value <= -MATE_BOUND, "{value}");
    // Still a move near the stones, not the first empty cell.
    assert!(pos.is_legal(mv) && mv != Square::new(0, 0).unwrap());
}

/// X to move can make two open threes at once (the cross of an open
/// two in a row and one in a column): the engine plays it without a
/// main search (a VCT: `threat_search`).
#[test]
fn a_double_three_is_played_at_once() {
    let pos = board(&[
        (0, "o.o..........o."),
        (5, ".......x......."),
        (6, ".......x......."),
        (7, ".....xx........"),
        (14, "..o............"),
    ]);
    let mut e = Engine::new(Budget::nodes(50_000), 3);
    let (mv, score) = e.analyse(&pos).unwrap();
    assert_eq!(mv, Square::new(7, 7).unwrap());
    assert!(score >= MATE_BOUND, "{score}");
    assert_eq!(e.stats().depth, 0);
}

/// Take-back records lent to the engine, however many (none past the
/// first stone, a few, the engine's own number, more), give the move, the
/// value and the node count of the engine's own records, move after move
/// of a 15x15 game; the lent records are written, as the search used
/// them.
#[test]
fn lent_take_backs_play_the_same_moves() {
    let rules = Rules::new(15, 15, 5).unwrap();
    let mut pos = Position::new(rules);
    for name in ["h8", "i9", "g9", "i7", "i8", "g8"] {
        pos.play(rules.parse_square(name).unwrap()).unwrap();
    }
    let mut lent: [PatternUndo; TAKE_BACKS + 4] = core::array::from_fn(|_| PatternUndo::EMPTY);
    for _ in 0..4 {
        let mut own = Engine::new(Budget::nodes(3_000), 5);
        let expected = own.analyse(&pos);
        for count in [0, 1, 7, TAKE_BACKS, TAKE_BACKS + 4] {
            let mut engine = Engine::new(Budget::nodes(3_000), 5);
            engine.set_take_backs(&mut lent[..count]);
            assert_eq!(engine.analyse(&pos), expected, "{count} records, {pos}");
            assert_eq!(engine.stats(), own.stats(), "{count} records, {pos}");
        }
        pos.play(expected.unwrap().0).unwrap();
    }
    assert!(lent[..7].iter().all(|r| r.cells_saved() > 0));
}

/// The search the engine makes for each move on the pattern board (its
/// board included), before its first node, holds no take-back records:
/// the console copies a struct at a few KB a millisecond (in ares, with
/// the board's own 32 KB of records, 11 ms to make the board and 4.4 ms to
/// move it into the search, with no deadline check in between; 6.6 KB
/// now).
#[test]
fn the_search_made_each_move_is_a_few_kb() {
    let bytes = core::mem::size_of::<Search<'static, ShapeBoard<&'static mut [PatternUndo]>>>();
    assert!(bytes <= 8 << 10, "{bytes} bytes");
}

/// A position of a game against Rapfi (O to move, ply 9) where the
/// search once announced a win for O in 17 plies after 80,000 nodes, and
/// X holds: every O move the search tried at some node deep in the line
/// lost, and the defence past its beam of twelve was never tried. With
/// the rest of the candidates searched where the beam loses, no win is
/// announced; with a table of 16,384 entries as with none.
#[test]
fn no_win_is_announced_where_a_defence_past_the_beam_holds() {
    let pos = Position::from_board(
        ".............../.............../.............../.............../.............../\
         .........x...../......x......../.....x........./....x........../........o....../\
         .......xooo..../.............../.............../.............../...............",
        Some(5),
    )
    .unwrap();
    assert_eq!(pos.side_to_move(), Mark::O);
    let mut tt = [crate::ai::TtEntry::EMPTY; 1 << 14];
    for table in [&mut tt[..], &mut []] {
        let mut engine = Engine::with_table(Budget::nodes(300_000), 1, table);
        let (_, value) = engine.analyse(&pos).unwrap();
        assert!(value < MATE_BOUND, "{value}");
    }
}
