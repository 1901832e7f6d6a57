//! The stones as both search boards keep them: who holds each cell, the
//! occupied cells row by row (the candidates are the empty cells near
//! them), the position's hash and the side to move.
use crate::ai::tt;
use crate::{zobrist, Mark, Rules, Square, MAX_CELLS, MAX_SIDE};

use super::rows::Rows;

/// Mixed into strong's hashes so its table entries never match the exact
/// solver's (canonical) keys for the same position.
const STRONG_SALT: u64 = 0x5354_524f_4e47_0001;

/// The marks on the board and whose turn it is, kept move by move.
pub(super) struct Stones {
    /// Zobrist hash of the marks (salted by the rules).
    pub(super) hash: u64,
    pub(super) turn: Mark,
    /// Marks on the board.
    pub(super) marks: u32,
    pub(super) rules: Rules,
    /// Per cell (square index): 0 empty, 1 X, 2 O.
    pub(super) cells: [u8; MAX_CELLS],
    /// Per row, a bit per column: the occupied cells.
    pub(super) occupied: Rows,
}

impl Stones {
    /// The empty board of `rules`, X to move.
    pub(super) fn new(rules: Rules) -> Stones {
        Stones {
            hash: tt::salt(&rules) ^ STRONG_SALT,
            turn: Mark::X,
            marks: 0,
            rules,
            cells: [0; MAX_CELLS],
            occupied: [0; MAX_SIDE as usize],
        }
    }

    /// Puts `mark` on the empty `sq`; the other side moves next.
    #[inline(always)]
    pub(super) fn place(&mut self, sq: Square, mark: Mark) {
        self.hash ^= zobrist::key_at(mark, sq.index());
        self.cells[sq.index()] = mark.index() as u8 + 1;
        self.occupied[sq.row() as usize] |= 1 << sq.column();
        self.marks += 1;
        self.turn = mark.other();
    }

    /// Takes `mark` back off `sq`; `mark` moves next.
    #[inline(always)]
    pub(super) fn take_back(&mut self, sq: Square, mark: Mark) {
        self.hash ^= zobrist::key_at(mark, sq.index());
        self.cells[sq.index()] = 0;
        self.occupied[sq.row() as usize] &= !(1 << sq.column());
        self.marks -= 1;
        self.turn = mark;
    }

    /// Whether `sq` (on the board) is empty.
    #[inline]
    pub(super) fn is_empty(&self, sq: Square) -> bool {
        self.cells[sq.index()] == 0
    }

    /// Whether `square` is on the board and holds a mark of side `m`.
    #[inline]
    pub(super) fn holds(&self, square: Option<Square>, m: usize) -> bool {
        square.is_some_and(|sq| {
            self.rules.contains(sq) && usize::from(self.cells[sq.index()]) == m + 1
        })
    }

    /// Per row, a bit per column: the empty cells within two steps of a
    /// mark (the candidates once the board is not empty).
    pub(super) fn frontier(&self) -> Rows {
        let rows = self.rules.rows() as usize;
        let all = (1u32 << self.rules.columns()) - 1;
        let mut spread = [0u32; MAX_SIDE as usize];
        for (out, &r) in spread.iter_mut().zip(&self.occupied[..rows]) {
            *out = (r | r << 1 | r << 2 | r >> 1 | r >> 2) & all;
        }
        let mut front = [0u32; MAX_SIDE as usize];
        for r in 0..rows {
            let mut near = 0;
            for s in &spread[r.saturating_sub(2)..(r + 3).min(rows)] {
                near |= s;
            }
            front[r] = near & !self.occupied[r];
        }
        front
    }
}
