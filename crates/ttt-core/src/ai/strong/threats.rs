//! What the board threatens, read from the window sets without a search:
//! the cells that win at once, the cells that make a four, the cells that
//! make two winning cells (an open four or a double four: a "fork"), and
//! from these the tactics every node of the search applies: a fork of ours
//! the opponent cannot answer is a win, and against an opponent's fork
//! only its blocks and our own fours are worth searching.
//!
//! Threat sets come as per-row column bitmasks (`[u32; MAX_SIDE]`, bit c
//! of row r: the cell in column c), as the frontier does.
use super::board::{DIRS, INDEX_STEP};
use super::Engine;
use crate::{Mark, Square, WinCondition, MAX_SIDE};

/// The cells of per-row column masks (bit c of `rows[r]`: the cell in
/// column c of row r), row by row: how `three_cells`, `frontier` and the
/// threat sets hand out cells.
pub(super) fn cells_of(rows: [u32; MAX_SIDE as usize]) -> impl Iterator<Item = Square> {
    rows.into_iter().enumerate().flat_map(|(row, mut bits)| {
        core::iter::from_fn(move || {
            (bits != 0).then(|| {
                let column = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Square::from_index((row * Square::STRIDE + column) as u16)
            })
        })
    })
}

impl Engine<'_> {
    /// The empty cells where `mark` completes a winning line: (first, how
    /// many; at most 2 counted). Under "exactly k" a window whose
    /// completion would touch another `mark` at either end makes an
    /// overline, which does not win, so it is skipped.
    pub(super) fn winning_cells(&self, mark: Mark) -> (Option<Square>, u32) {
        let m = mark.index();
        if self.fours[m] == 0 {
            return (None, 0);
        }
        let k = self.k as i8;
        let exact = self.rules.win_condition() == WinCondition::ExactlyK
            || (self.rules.is_renju() && mark == Mark::X);
        // Windows start on the board: only the words of its rows can be set.
        let used = (self.rules.rows() as usize * Square::STRIDE * 4).div_ceil(64);
        let mut first: Option<Square> = None;
        for (word_index, &word) in self.four_set[m][..used].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let w = word_index * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let start = Square::from_index((w / 4) as u16);
                let dir = DIRS[w % 4];
                if exact
                    && (self.holds(start.step(dir, -1), m) || self.holds(start.step(dir, k), m))
                {
                    continue;
                }
                for i in 0..k {
                    let Some(cell) = start.step(dir, i) else {
                        break;
                    };
                    if self.cells[cell.index()] == 0 {
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

    /// The empty cells of side `m`'s three-windows, per row a bit per
    /// column: `(in at least one, in at least two)`. A mark on a cell of
    /// the first kind makes a four; on one of the second, two winning
    /// cells at once (an open four, or two fours).
    pub(super) fn three_cells(
        &self,
        m: usize,
    ) -> ([u32; MAX_SIDE as usize], [u32; MAX_SIDE as usize]) {
        let mut once = [0u32; MAX_SIDE as usize];
        let mut twice = [0u32; MAX_SIDE as usize];
        let used = (self.rules.rows() as usize * Square::STRIDE * 4).div_ceil(64);
        for (word_index, &word) in self.three_set[m][..used].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let w = word_index * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let step = INDEX_STEP[w % 4];
                let mut cell = w / 4;
                for _ in 0..self.k {
                    if self.cells[cell] == 0 {
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
    /// are not lost to it, per row a bit per column. They are the empty
    /// cells of the opponent's three-windows (a move elsewhere leaves every
    /// one of them, so the double threat stands) and the moves that make a
    /// four of our own (a counter-attack the opponent must answer). `None`
    /// when there is no such threat, or under "exactly k" (where an
    /// overline changes which windows count).
    pub(super) fn threat_replies(&self) -> Option<[u32; MAX_SIDE as usize]> {
        // Under renju a fork of black's may be a forbidden cell: white need
        // not answer it.
        if self.rules.win_condition() == WinCondition::ExactlyK
            || self.k < 3
            || (self.rules.is_renju() && self.turn == Mark::O)
        {
            return None;
        }
        let me = self.turn.index();
        let (theirs, forks) = self.three_cells(1 - me);
        if forks.iter().all(|&r| r == 0) {
            return None;
        }
        let (mine, _) = self.three_cells(me);
        let mut replies = [0u32; MAX_SIDE as usize];
        for ((out, t), m) in replies.iter_mut().zip(theirs).zip(mine) {
            *out = t | m;
        }
        Some(replies)
    }

    /// Plies to a win the side to move has without a search, when the
    /// opponent has no three-window (no stone of theirs makes a four):
    /// 3 when a cell shared by two of our three-windows really makes two
    /// winning cells (x.xx.x makes one; not under "exactly k" or for
    /// renju's black); else 5 when a cell of ours makes a four and an open
    /// three (five in a row, not renju: `shapes.rs`).
    pub(super) fn static_win(&mut self) -> Option<i32> {
        let me = self.turn.index();
        if self.threes[1 - me] != 0 || self.threes[me] == 0 || self.k < 3 {
            return None;
        }
        let (fours, forks) = self.three_cells(me);
        if self.threes[me] >= 2
            && self.rules.win_condition() != WinCondition::ExactlyK
            && !self.forbids(self.turn)
            && self.fork_cell(self.turn, &forks).is_some()
        {
            return Some(3);
        }
        (self.judges_shapes() && self.has_four_three(&fours)).then_some(5)
    }

    /// The first of the candidate cells `forks` (per row a bit per column:
    /// cells in two of `me`'s three-windows) where a mark of `me` really
    /// makes two winning cells. Two three-windows of one line can leave the
    /// same winning cell (x.xx.x: either gap leaves the other), so each is
    /// played to see.
    pub(super) fn fork_cell(
        &mut self,
        me: Mark,
        forks: &[u32; MAX_SIDE as usize],
    ) -> Option<Square> {
        for sq in cells_of(*forks) {
            let turn = self.turn;
            self.apply(sq, me);
            let two = self.winning_cells(me).1 >= 2;
            self.unapply(sq, me);
            self.turn = turn;
            if two {
                return Some(sq);
            }
        }
        None
    }
}
