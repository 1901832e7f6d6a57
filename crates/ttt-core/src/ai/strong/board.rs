//! The board as the engine keeps it: the marks, and for every k-cell line
//! window the count of each side's marks in it, updated move by move.
//!
//! Nothing is rescored. A mark changes only the windows through its cell
//! (up to 4k), each with one lookup in a step table filled once per rules:
//! what one more mark of a side does to a window with given counts (the
//! evaluation change, the change of its cells' ordering keys, whether it
//! becomes or stops being a four or a three, whether it completes a line).
//! The cells of each line get their key changes as a running sum, and the
//! occupied cells are kept as per-row bitmasks for the candidate moves.
//! This matters most on the console (MIPS II), where a node costs 100-200
//! us. Also here: the cell tests the rules need (renju's forbidden moves).
//!
//! Where the pattern board is kept and five or more in a row wins (boards
//! larger than 9x9, not renju: `one_board`), the search keeps only the
//! pattern board: the windows stay as the position was loaded, and the
//! five cells, fours, forks, move order and evaluation are read from the
//! pattern board instead. A 15x15 node then costs about two thirds of
//! what it did (the windows were a third of it).
use super::eval::window_gain;
use super::shape_eval::ShapeEval;
use super::table::STRONG_SALT;
use super::{Engine, MAX_PLY};
use crate::ai::tt::{self, NO_MOVE};
use crate::pattern::ThreatClass;
use crate::{zobrist, Direction, Mark, Position, Square, MAX_CELLS, MAX_SIDE};

/// The four line directions; a window id's direction is `DIRS[id % 4]`.
pub(super) const DIRS: [Direction; 4] = Direction::ALL;

/// Window mark counts run from 0 to k <= 20.
pub(super) const MAX_COUNT: usize = MAX_SIDE as usize + 1;

/// Square index step along each direction of [`DIRS`] (index = row *
/// [`Square::STRIDE`] + column), as a wrapping add.
pub(super) const INDEX_STEP: [usize; 4] = [
    1,
    Square::STRIDE,
    Square::STRIDE + 1,
    0usize.wrapping_sub(Square::STRIDE - 1),
];

/// The step (columns, rows) one cell along direction `d` of [`DIRS`].
#[inline(always)]
const fn line_delta(d: usize) -> (i32, i32) {
    let (dx, dy) = DIRS[d].delta();
    (dx as i32, dy as i32)
}

/// Window ids: a square's index * 4 + direction.
pub(super) const WINDOW_IDS: usize = MAX_CELLS * 4;

/// 64-bit words of a bitset of window ids.
pub(super) const WINDOW_WORDS: usize = WINDOW_IDS.div_ceil(64);

/// What one more mark of a side changes in a window with given counts.
#[derive(Copy, Clone)]
pub(super) struct WindowStep {
    /// Evaluation change (X's view).
    value: i16,
    /// Change of the window's share of each of its cells' keys, by side to
    /// move.
    key: [i16; 2],
    /// Bit per side: whether the window's "k-1 of that side, none of the
    /// other" state changes (bits 0-1), and its "k-2 of that side, none of
    /// the other" state (bits 2-3).
    four_flips: u8,
    /// Bits as in `four_flips`: those states after the mark; and
    /// [`COMPLETES`](Self::COMPLETES). (Eight bytes in all: one load.)
    upper_fours: u8,
}

// One load a window (see `upper_fours`).
const _: () = assert!(core::mem::size_of::<WindowStep>() == 8);

impl WindowStep {
    pub(super) const NONE: WindowStep = WindowStep {
        value: 0,
        key: [0, 0],
        four_flips: 0,
        upper_fours: 0,
    };

    /// Bit of `upper_fours`: the mark completes the window.
    const COMPLETES: u8 = 1 << 4;
}

impl Engine<'_> {
    /// Sets the engine up for `pos`: its rules (and their step table), its
    /// marks, the side to move; the killers are forgotten.
    pub(super) fn load(&mut self, pos: &Position) {
        self.rules = *pos.rules();
        self.k = self.rules.k() as u32;
        self.cells = [0; MAX_CELLS];
        self.counts = [0; WINDOW_IDS];
        self.fours = [0; 2];
        self.four_set = [[0; WINDOW_WORDS]; 2];
        self.three_set = [[0; WINDOW_WORDS]; 2];
        self.threes = [0; 2];
        self.occupied = [0; MAX_SIDE as usize];
        self.fill_window_keys();
        self.eval_x = 0;
        self.marks = 0;
        self.turn = Mark::X;
        self.salt = tt::salt(&self.rules) ^ STRONG_SALT;
        self.hash = self.salt;
        self.killers = [[NO_MOVE; 2]; MAX_PLY as usize + 2];
        if self.k == 1 {
            // Every empty cell is a one-cell window missing one mark.
            let cells = self.rules.cell_count() as u32;
            self.fours = [cells, cells];
            for sq in self.rules.squares() {
                let w = sq.index() * 4;
                for side in 0..2 {
                    self.four_set[side][w / 64] |= 1 << (w % 64);
                }
            }
        }
        // The shape evaluation reads the position whole at the end.
        self.shapes = None;
        self.one_board = false;
        for mark in Mark::ALL {
            for sq in pos.marks(mark) {
                self.apply(sq, mark);
            }
        }
        self.turn = pos.side_to_move();
        self.shapes = ShapeEval::new(pos);
        self.one_board = self.shapes.is_some();
    }

    /// The pattern board, where it is the only board kept (see
    /// `one_board`).
    #[inline(always)]
    pub(super) fn one_board(&self) -> Option<&ShapeEval> {
        match &self.shapes {
            Some(shapes) if self.one_board => Some(shapes),
            _ => None,
        }
    }

    /// Fills the step table for the rules' k and gives every cell its
    /// ordering key on the empty board.
    fn fill_window_keys(&mut self) {
        let k = self.k;
        // A window's share of each of its cells' keys by side to move, and
        // of the evaluation (X's view), by its counts (X, O).
        let mut window_key = [[[0i32; MAX_COUNT]; MAX_COUNT]; 2];
        let mut window_value = [[0i32; MAX_COUNT]; MAX_COUNT];
        for x in 0..MAX_COUNT {
            for o in 0..MAX_COUNT {
                let (gx, go) = (
                    window_gain(k, x as u32, o as u32),
                    window_gain(k, o as u32, x as u32),
                );
                window_key[0][x][o] = 2 * gx + go;
                window_key[1][x][o] = 2 * go + gx;
                window_value[x][o] = self.contrib([x as u8, o as u8]);
            }
        }
        let k1 = k as usize - 1;
        // Threes only mean something with k >= 3 (else an empty window
        // would be one).
        let k2 = if k >= 3 { k as usize - 2 } else { usize::MAX };
        let fours = |x: usize, o: usize| {
            u8::from(o == 0 && x == k1)
                | u8::from(x == 0 && o == k1) << 1
                | u8::from(o == 0 && x == k2) << 2
                | u8::from(x == 0 && o == k2) << 3
        };
        for side in 0..2 {
            for x in 0..MAX_COUNT {
                for o in 0..MAX_COUNT {
                    let (ux, uo) = if side == 0 { (x + 1, o) } else { (x, o + 1) };
                    if ux >= MAX_COUNT || uo >= MAX_COUNT {
                        continue;
                    }
                    // Every change fits in i16: |key| <= 3 * 4096 per window.
                    let narrow = |v: i32| v.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
                    let upper_fours = fours(ux, uo);
                    let completes = if ux.max(uo) >= k as usize {
                        WindowStep::COMPLETES
                    } else {
                        0
                    };
                    self.steps[side][x * MAX_COUNT + o] = WindowStep {
                        value: narrow(window_value[ux][uo] - window_value[x][o]),
                        key: [0, 1].map(|s| narrow(window_key[s][ux][uo] - window_key[s][x][o])),
                        four_flips: fours(x, o) ^ upper_fours,
                        upper_fours: upper_fours | completes,
                    };
                }
            }
        }
        self.cell_key = [[0; 2]; MAX_CELLS];
        // Every window starts empty: add its share to each of its cells.
        for sq in self.rules.squares() {
            let mut windows = 0;
            self.for_windows(sq, |_| windows += 1);
            for (side, key) in self.cell_key[sq.index()].iter_mut().enumerate() {
                *key = windows * window_key[side][0][0];
            }
        }
    }

    /// The window ids through `sq` (up to 4k of them), passed to `f`.
    #[inline]
    pub(super) fn for_windows(&self, sq: Square, mut f: impl FnMut(usize)) {
        let (x, y) = (sq.column() as i32, sq.row() as i32);
        let k = self.k as i32;
        let (w, h) = (self.rules.columns() as i32, self.rules.rows() as i32);
        let ndirs = if k == 1 { 1 } else { 4 };
        for d in 0..ndirs {
            let (dx, dy) = line_delta(d);
            let (lo, hi) = window_offsets((x, y), (dx, dy), k, (w, h));
            for o in lo..=hi {
                let (sx, sy) = (x - o * dx, y - o * dy);
                f((sy as usize * Square::STRIDE + sx as usize) * 4 + d);
            }
        }
    }

    #[inline]
    fn set_four(&mut self, side: usize, w: usize, on: bool) {
        if on {
            self.fours[side] += 1;
            self.four_set[side][w / 64] |= 1 << (w % 64);
        } else {
            self.fours[side] -= 1;
            self.four_set[side][w / 64] &= !(1 << (w % 64));
        }
    }

    /// Puts `mark` on `sq`; returns whether it completes a line.
    pub(super) fn apply(&mut self, sq: Square, mark: Mark) -> bool {
        let won = match self.one_board() {
            Some(shapes) => shapes.class(sq, mark) == ThreatClass::Five,
            None => self.update_windows::<true>(sq, mark.index()),
        };
        self.update_shapes(sq, mark, true);
        self.hash ^= zobrist::key_at(mark, sq.index());
        self.cells[sq.index()] = mark.index() as u8 + 1;
        self.occupied[sq.row() as usize] |= 1 << sq.column();
        self.marks += 1;
        self.turn = mark.other();
        won
    }

    /// Takes `mark` back off `sq`.
    pub(super) fn unapply(&mut self, sq: Square, mark: Mark) {
        if !self.one_board {
            self.update_windows::<false>(sq, mark.index());
        }
        self.update_shapes(sq, mark, false);
        self.hash ^= zobrist::key_at(mark, sq.index());
        self.cells[sq.index()] = 0;
        self.occupied[sq.row() as usize] &= !(1 << sq.column());
        self.marks -= 1;
        self.turn = mark;
    }

    /// Adds (or removes) a mark of side `m` on `sq` in every window through
    /// it: counts, evaluation, fours, and the ordering keys of the cells on
    /// those lines. Returns whether a window is now complete.
    ///
    /// One copy of the line update per direction and per add or take-back
    /// (const parameters), so each has its steps and bounds as constants:
    /// on 9x9 this is over half of a node's time.
    fn update_windows<const ADD: bool>(&mut self, sq: Square, m: usize) -> bool {
        let mut won = self.update_line::<ADD, 0>(sq, m);
        if self.k > 1 {
            won |= self.update_line::<ADD, 1>(sq, m);
            won |= self.update_line::<ADD, 2>(sq, m);
            won |= self.update_line::<ADD, 3>(sq, m);
        }
        won
    }

    /// [`update_windows`](Self::update_windows) on the line through `sq`
    /// in direction `D` of [`DIRS`].
    #[inline(always)]
    fn update_line<const ADD: bool, const D: usize>(&mut self, sq: Square, m: usize) -> bool {
        let k = self.k as i32;
        let (x, y) = (sq.column() as i32, sq.row() as i32);
        let (w, h) = (self.rules.columns() as i32, self.rules.rows() as i32);
        let (lo, hi) = window_offsets((x, y), line_delta(D), k, (w, h));
        if lo > hi {
            return false;
        }
        // The windows in line order (offset hi first); the key change of
        // each for its side to move.
        let count = (hi - lo + 1) as usize;
        let mut changed = false;
        let mut won = false;
        // One more mark of side m: its count goes up by one.
        let unit = [MAX_COUNT as u16, 1][m];
        let step_index = INDEX_STEP[D];
        let first = sq
            .index()
            .wrapping_sub(step_index.wrapping_mul(hi as usize));
        let mut start = first;
        for j in 0..count {
            let id = start * 4 + D;
            start = start.wrapping_add(step_index);
            let code = self.counts[id];
            // Adding moves a window from `lower` to `upper`; taking back,
            // the other way.
            let lower = if ADD { code } else { code - unit };
            let step = self.steps[m][lower as usize];
            let (value, key) = (i32::from(step.value), step.key.map(i32::from));
            if ADD {
                self.counts[id] = code + unit;
                self.eval_x += value;
                won |= step.upper_fours & WindowStep::COMPLETES != 0;
            } else {
                self.counts[id] = lower;
                self.eval_x -= value;
            }
            self.line_deltas[j] = key;
            changed |= (key[0] | key[1]) != 0;
            if step.four_flips != 0 {
                for side in 0..2 {
                    if step.four_flips >> side & 1 != 0 {
                        let upper_four = step.upper_fours >> side & 1 != 0;
                        self.set_four(side, id, upper_four == ADD);
                    }
                    if step.four_flips >> (side + 2) & 1 != 0 {
                        let on = (step.upper_fours >> (side + 2) & 1 != 0) == ADD;
                        let bit = 1u64 << (id % 64);
                        let word = &mut self.three_set[side][id / 64];
                        if on {
                            *word |= bit;
                            self.threes[side] += 1;
                        } else {
                            *word &= !bit;
                            self.threes[side] -= 1;
                        }
                    }
                }
            }
        }
        if !changed {
            return won;
        }
        // Each cell on the line gets the sum of the changes of the windows
        // covering it: a running sum as windows enter and leave. count <= k:
        // windows enter on the first `count` cells, none enter or leave
        // until cell k, then they leave one by one. Taking back, the sum
        // runs down instead of up.
        let sign = if ADD { 1 } else { -1 };
        let mut cell = first;
        let mut acc = [0i32; 2];
        for delta in &self.line_deltas[..count] {
            acc[0] += sign * delta[0];
            acc[1] += sign * delta[1];
            let key = &mut self.cell_key[cell];
            key[0] += acc[0];
            key[1] += acc[1];
            cell = cell.wrapping_add(step_index);
        }
        for _ in count..self.k as usize {
            let key = &mut self.cell_key[cell];
            key[0] += acc[0];
            key[1] += acc[1];
            cell = cell.wrapping_add(step_index);
        }
        for delta in &self.line_deltas[..count - 1] {
            acc[0] -= sign * delta[0];
            acc[1] -= sign * delta[1];
            let key = &mut self.cell_key[cell];
            key[0] += acc[0];
            key[1] += acc[1];
            cell = cell.wrapping_add(step_index);
        }
        won
    }

    /// Whether `mark` has forbidden moves: black (X) under renju.
    #[inline]
    pub(super) fn forbids(&self, mark: Mark) -> bool {
        mark == Mark::X && self.rules.is_renju()
    }

    /// Whether `mark` may not play the empty `sq`: a renju forbidden move
    /// of black.
    pub(super) fn is_forbidden(&self, sq: Square, mark: Mark) -> bool {
        if !self.forbids(mark) {
            return false;
        }
        let cells = &self.cells;
        let stones = |s: Square| match cells[s.index()] {
            1 => Some(Mark::X),
            2 => Some(Mark::O),
            _ => None,
        };
        crate::renju::forbidden(&self.rules, &stones, sq).is_some()
    }

    /// Whether `square` is on the board and holds a mark of side `m`.
    #[inline]
    pub(super) fn holds(&self, square: Option<Square>, m: usize) -> bool {
        square.is_some_and(|sq| {
            self.rules.contains(sq) && usize::from(self.cells[sq.index()]) == m + 1
        })
    }
}

/// The offsets o (0..k) for which the k-cell window in direction
/// (`dx`, `dy`) starting o steps back from (`x`, `y`) lies on a `w` x `h`
/// board: `lo..=hi` (empty when `lo > hi`).
#[inline(always)]
fn window_offsets(
    (x, y): (i32, i32),
    (dx, dy): (i32, i32),
    k: i32,
    (w, h): (i32, i32),
) -> (i32, i32) {
    let (mut lo, mut hi) = (0, k - 1);
    if dx == 1 {
        hi = hi.min(x);
        lo = lo.max(x + k - w);
    }
    if dy == 1 {
        hi = hi.min(y);
        lo = lo.max(y + k - h);
    } else if dy == -1 {
        lo = lo.max(k - 1 - y);
        hi = hi.min(h - 1 - y);
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::strong::Budget;
    use crate::rng::Rng;
    use crate::Rules;

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
                let mut engine = Engine::new(Budget::nodes(1), 0);
                engine.load(&Position::new(rules));
                // The windows themselves, also on the boards where the
                // search keeps only the pattern board.
                engine.one_board = false;
                let mut played = [Square::from_index(0); MAX_CELLS];
                let mut count = 0;
                while count < rules.cell_count() {
                    let empty: [Option<Square>; MAX_CELLS] = core::array::from_fn(|i| {
                        let sq = Square::from_index(i as u16);
                        (rules.contains(sq) && engine.cells[i] == 0).then_some(sq)
                    });
                    let pick = rng.below((rules.cell_count() - count) as u32) as usize;
                    let sq = empty.iter().flatten().nth(pick).copied().unwrap();
                    let mark = engine.turn;
                    engine.apply(sq, mark);
                    played[count] = sq;
                    count += 1;
                    check(&engine);
                    if rng.below(4) == 0 {
                        count -= 1;
                        engine.unapply(played[count], mark);
                        check(&engine);
                    }
                }
            }
        }
    }

    /// Where exactly five wins, boards larger than 9x9 keep the pattern
    /// board alone, with its exactly-five table: filling the gap of
    /// `xxxx.x` makes six, which wins nothing, so that cell is no winning
    /// cell; the cell that makes exactly five is, and playing it wins.
    /// Where five or more wins, both cells win. The console's 9x9 keeps the
    /// windows.
    #[test]
    fn exactly_five_is_judged_by_the_pattern_board() {
        // X: d8 e8 f8 g8 and i8 (h8 makes six, c8 exactly five); O's
        // stones four apart on row 1, none near X. X to move.
        let text = "o...o...o...o../.............../.............../.............../.............../.............../.............../...xxxx.x....../.............../.............../.............../.............../.............../.............../o..............";
        let sq = |c, r| Square::new(c, r).unwrap();
        let (five, six) = (sq(2, 7), sq(7, 7));
        let exact =
            Position::from_board_with(text, Some(5), crate::WinCondition::ExactlyK).unwrap();
        let mut e = Engine::new(Budget::nodes(1), 0);
        e.load(&exact);
        assert!(e.one_board);
        assert_eq!(e.winning_cells(Mark::X), (Some(five), 1));
        assert!(!e.apply(six, Mark::X));
        e.unapply(six, Mark::X);
        assert!(e.apply(five, Mark::X));
        e.unapply(five, Mark::X);
        let mut e = Engine::new(Budget::nodes(1_000), 0);
        assert_eq!(e.analyse(&exact), Some((five, super::super::WIN - 1)));
        // Five or more: both cells win.
        let free = Position::from_board(text, Some(5)).unwrap();
        let mut e = Engine::new(Budget::nodes(1), 0);
        e.load(&free);
        assert_eq!(e.winning_cells(Mark::X), (Some(five), 2));
        assert!(e.apply(six, Mark::X));
        // 9x9, exactly five: the windows.
        let nine = Rules::new(9, 9, 5)
            .unwrap()
            .with_win_condition(crate::WinCondition::ExactlyK);
        e.load(&Position::new(nine));
        assert!(!e.one_board && e.shapes.is_none());
    }

    fn check(engine: &Engine) {
        // The three-windows: exactly the windows with k-2 marks of a side
        // and none of the other (k >= 3), and their counts.
        for side in 0..2 {
            let mut count = 0;
            for sq in engine.rules.squares() {
                for d in 0..4 {
                    let id = sq.index() * 4 + d;
                    let set = engine.three_set[side][id / 64] >> (id % 64) & 1 != 0;
                    count += u32::from(set);
                    let (w, h) = (engine.rules.columns() as i32, engine.rules.rows() as i32);
                    let k = engine.k as i32;
                    let (dx, dy) = line_delta(d);
                    let (x, y) = (sq.column() as i32, sq.row() as i32);
                    let (ex, ey) = (x + (k - 1) * dx, y + (k - 1) * dy);
                    let on_board = engine.k > 1 && (0..w).contains(&ex) && (0..h).contains(&ey);
                    let mut c = [0; 2];
                    for i in 0..k {
                        let (cx, cy) = (x + i * dx, y + i * dy);
                        if on_board {
                            let cell = engine.cells[cy as usize * Square::STRIDE + cx as usize];
                            if cell != 0 {
                                c[cell as usize - 1] += 1;
                            }
                        }
                    }
                    let want = on_board && engine.k >= 3 && c[1 - side] == 0 && c[side] == k - 2;
                    assert_eq!(set, want, "{sq:?} dir {d} side {side}");
                }
            }
            assert_eq!(engine.threes[side], count);
        }
        for sq in engine.rules.squares() {
            let i = sq.index();
            let in_frontier = engine.frontier()[sq.row() as usize] >> sq.column() & 1 != 0;
            let near_a_mark = engine.rules.squares().any(|m| {
                engine.cells[m.index()] != 0
                    && (m.column() as i32 - sq.column() as i32).abs() <= 2
                    && (m.row() as i32 - sq.row() as i32).abs() <= 2
            });
            assert_eq!(in_frontier, engine.cells[i] == 0 && near_a_mark, "{sq:?}");
            if engine.cells[i] != 0 {
                continue;
            }
            for mark in Mark::ALL {
                let (mine, theirs) = engine.gains(sq, mark);
                assert_eq!(
                    engine.cell_key[i][mark.index()],
                    2 * mine + theirs,
                    "{sq:?}"
                );
            }
        }
    }
}
