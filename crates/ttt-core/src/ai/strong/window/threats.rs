//! What the window board threatens, read from its window sets without a
//! search: the cells that win at once, the cells that make a four, the
//! cells that make two winning cells (an open four or a double four: a
//! "fork"), and from these the tactics every node of the search applies:
//! a fork of ours the opponent cannot answer is a win, and against an
//! opponent's fork only its blocks and our own fours are worth searching.
//! Also here: renju's forbidden cells.
use super::super::board::SearchBoard;
use super::super::rows::{cells_of, Rows};
use super::steps::{DIRS, INDEX_STEP, MAX_COUNT};
use super::WindowBoard;
use crate::{Mark, Square, WinCondition, MAX_SIDE};

impl WindowBoard {
    /// The empty cells where `mark` completes a winning line: (first, how
    /// many; at most 2 counted). Under "exactly k" (and for renju's black)
    /// a window whose completion would touch another `mark` at either end
    /// makes an overline, which does not win, so it is skipped.
    pub(super) fn completing_cells(&self, mark: Mark) -> (Option<Square>, u32) {
        let m = mark.index();
        if self.fours[m] == 0 {
            return (None, 0);
        }
        let k = self.k as i8;
        let rules = &self.stones.rules;
        let exact = rules.win_condition() == WinCondition::ExactlyK
            || (rules.is_renju() && mark == Mark::X);
        // Windows start on the board: only the words of its rows can be set.
        let used = (rules.rows() as usize * Square::STRIDE * 4).div_ceil(64);
        let mut first: Option<Square> = None;
        for (word_index, &word) in self.four_set[m][..used].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let w = word_index * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let start = Square::from_index((w / 4) as u16);
                let dir = DIRS[w % 4];
                if exact
                    && (self.stones.holds(start.step(dir, -1), m)
                        || self.stones.holds(start.step(dir, k), m))
                {
                    continue;
                }
                for i in 0..k {
                    let Some(cell) = start.step(dir, i) else {
                        break;
                    };
                    if self.stones.cells[cell.index()] == 0 {
                        match first {
                            None => first = Some(cell),
                            Some(f) if f != cell => return (first, 2),
                            _ => {}
                        }
                        break;
                    }
                }
            }
        }
        (first, first.is_some() as u32)
    }

    /// The empty cells of side `m`'s three-windows: `(in at least one, in
    /// at least two)`. A mark on a cell of the first kind makes a four; on
    /// one of the second, maybe two winning cells at once (an open four,
    /// or two fours; not for `x.xx.x`: see [`real_fork`](Self::real_fork)).
    pub(super) fn three_window_cells(&self, m: usize) -> (Rows, Rows) {
        let mut once = [0u32; MAX_SIDE as usize];
        let mut twice = [0u32; MAX_SIDE as usize];
        let used = (self.stones.rules.rows() as usize * Square::STRIDE * 4).div_ceil(64);
        for (word_index, &word) in self.three_set[m][..used].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let w = word_index * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let step = INDEX_STEP[w % 4];
                let mut cell = w / 4;
                for _ in 0..self.k {
                    if self.stones.cells[cell] == 0 {
                        let (row, bit) = (cell / Square::STRIDE, 1u32 << (cell % Square::STRIDE));
                        twice[row] |= once[row] & bit;
                        once[row] |= bit;
                    }
                    cell = cell.wrapping_add(step);
                }
            }
        }
        (once, twice)
    }

    /// When the opponent threatens two winning cells in one move (an open
    /// three, or two threes crossing) and has no four: the only moves that
    /// are not lost to it. They are the empty cells of the opponent's
    /// three-windows (a move elsewhere leaves every one of them, so the
    /// double threat stands) and the moves that make a four of our own (a
    /// counter-attack the opponent must answer). `None` when there is no
    /// such threat, or under "exactly k" (where an overline changes which
    /// windows count).
    pub(super) fn threat_replies(&self) -> Option<Rows> {
        let rules = &self.stones.rules;
        let turn = self.stones.turn;
        // Under renju a fork of black's may be a forbidden cell: white need
        // not answer it.
        if rules.win_condition() == WinCondition::ExactlyK
            || self.k < 3
            || (rules.is_renju() && turn == Mark::O)
        {
            return None;
        }
        let me = turn.index();
        let (theirs, forks) = self.three_window_cells(1 - me);
        if forks.iter().all(|&r| r == 0) {
            return None;
        }
        let (mine, _) = self.three_window_cells(me);
        let mut replies = [0u32; MAX_SIDE as usize];
        for ((out, t), m) in replies.iter_mut().zip(theirs).zip(mine) {
            *out = t | m;
        }
        Some(replies)
    }

    /// Plies to a win the side to move has without a search, when the
    /// opponent has no three-window (no stone of theirs makes a four): 3
    /// when a cell shared by two of our three-windows really makes two
    /// winning cells (x.xx.x makes one; not under "exactly k" or for
    /// renju's black).
    pub(super) fn fork_win(&mut self) -> Option<i32> {
        let turn = self.stones.turn;
        let me = turn.index();
        if self.threes[1 - me] != 0 || self.threes[me] < 2 || self.k < 3 {
            return None;
        }
        if self.stones.rules.win_condition() == WinCondition::ExactlyK || self.renju_black(turn) {
            return None;
        }
        let (_, forks) = self.three_window_cells(me);
        self.real_fork(turn, &forks).map(|_| 3)
    }

    /// The first of the candidate cells `forks` (cells in two of `me`'s
    /// three-windows) where a mark of `me` really makes two winning cells.
    /// Two three-windows of one line can leave the same winning cell
    /// (x.xx.x: either gap leaves the other), so each is played to see.
    pub(super) fn real_fork(&mut self, me: Mark, forks: &Rows) -> Option<Square> {
        for sq in cells_of(*forks) {
            let turn = self.stones.turn;
            self.apply(sq, me);
            let two = self.completing_cells(me).1 >= 2;
            self.unapply(sq, me);
            self.stones.turn = turn;
            if two {
                return Some(sq);
            }
        }
        None
    }

    /// Whether a mark of `mark` on the empty `sq` lies in a two-window of
    /// its side (k-3 of its marks, none of the other's): a three there.
    pub(super) fn in_two_window(&self, sq: Square, mark: Mark) -> bool {
        let k3 = self.k as u16 - 3;
        let two = if mark == Mark::X {
            k3 * MAX_COUNT as u16
        } else {
            k3
        };
        let mut in_two = false;
        self.for_windows(sq, |w| in_two |= self.counts[w] == two);
        in_two
    }

    /// Whether `mark` has forbidden moves: black (X) under renju.
    #[inline]
    pub(super) fn renju_black(&self, mark: Mark) -> bool {
        mark == Mark::X && self.stones.rules.is_renju()
    }

    /// Whether `mark` may not play the empty `sq`: a renju forbidden move
    /// of black.
    pub(super) fn renju_forbidden(&self, sq: Square, mark: Mark) -> bool {
        if !self.renju_black(mark) {
            return false;
        }
        let cells = &self.stones.cells;
        let stones = |s: Square| match cells[s.index()] {
            1 => Some(Mark::X),
            2 => Some(Mark::O),
            _ => None,
        };
        crate::renju::forbidden(&self.stones.rules, &stones, sq).is_some()
    }
}
