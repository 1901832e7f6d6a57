//! Which moves are searched, in what order.
//!
//! Candidates are the empty cells within two steps of a mark (all cells on
//! an empty board, nearest the centre first), ordered by their key: how
//! much a mark there gains for the side to move, doubled, plus how much it
//! would gain for the opponent (kept per cell by the board, so ordering
//! reads one number per cell). Inside the tree only the best [`BEAM`] are
//! searched, the table's move first, then the two killers of the ply
//! (quiet moves that caused a cut-off at a sibling). At the root the seed
//! perturbs equal keys, so equal moves differ between seeds (same seed,
//! same move). Against an open three only its blocks and our fours are
//! candidates (`exact_replies` in `shapes.rs` for five in a row, else
//! `threat_replies`).
use super::Engine;
use crate::ai::tt::NO_MOVE;
use crate::{Square, MAX_SIDE};

/// Candidate moves searched at a node inside the tree, at most.
pub(super) const BEAM: usize = 12;

/// Inserts `(key, sq)` into `out[..n]` (sorted by key, best first, equal
/// keys in arrival order), dropping the worst entry when full; returns the
/// new length.
#[inline]
pub(super) fn insert_ranked(out: &mut [(i32, Square)], n: usize, key: i32, sq: Square) -> usize {
    let len = out.len();
    if len == 0 || (n == len && out[n - 1].0 >= key) {
        return n;
    }
    let mut j = if n < len { n } else { n - 1 };
    while j > 0 && out[j - 1].0 < key {
        out[j] = out[j - 1];
        j -= 1;
    }
    out[j] = (key, sq);
    if n < len {
        n + 1
    } else {
        n
    }
}

impl Engine<'_> {
    /// Per row, a bit per column: the empty cells within two steps of a
    /// mark (the candidates once the board is not empty).
    pub(super) fn frontier(&self) -> [u32; MAX_SIDE as usize] {
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

    /// Candidate moves, best first (the best `out.len()`, equal keys in
    /// row-major order); returns the count.
    pub(super) fn candidates(&mut self, out: &mut [(i32, Square)], jitter: bool) -> usize {
        let mut front = self.frontier();
        if self.judges_shapes() {
            // The exact replies, wherever they are (none: the caller
            // knows the position is lost).
            if let Some(replies) = self.exact_replies() {
                front = replies;
            }
        } else if let Some(replies) = self.threat_replies() {
            for (f, r) in front.iter_mut().zip(replies) {
                *f &= r;
            }
        }
        self.candidates_among(out, jitter, front)
    }

    /// The best `out.len()` of the cells of `front` (per row a bit per
    /// column; every cell on an empty board), as [`candidates`](Self::candidates).
    pub(super) fn candidates_among(
        &mut self,
        out: &mut [(i32, Square)],
        jitter: bool,
        front: [u32; MAX_SIDE as usize],
    ) -> usize {
        let me = self.turn.index();
        let mut n = 0;
        for (row, &row_front) in front.iter().enumerate().take(self.rules.rows() as usize) {
            // Empty board: every cell, nearest the centre first; else the
            // empty cells near a mark.
            let mut bits = if self.marks == 0 {
                (1u32 << self.rules.columns()) - 1
            } else {
                row_front
            };
            let mut i = row * Square::STRIDE;
            while bits != 0 {
                if bits & 1 != 0 {
                    let sq = Square::from_index(i as u16);
                    let mut key = if self.marks == 0 {
                        -(self.rules.distance_from_centre(sq) as i32)
                    } else {
                        self.cell_key[i][me]
                    };
                    if jitter {
                        key = key * 4 + self.rng.below(4) as i32;
                    }
                    n = insert_ranked(out, n, key, sq);
                }
                bits >>= 1;
                i += 1;
            }
        }
        n
    }

    /// Moves the table's move `tt_move`, then the killers of `ply`, to the
    /// front of `list[..n]` (each that is there, in that order); the rest
    /// keep their key order. Returns how many were moved.
    pub(super) fn promote_known_moves(
        &self,
        list: &mut [(i32, Square)],
        n: usize,
        tt_move: u16,
        ply: u32,
    ) -> usize {
        let killers = self.killers[ply as usize];
        let mut front = 0;
        for want in [tt_move, killers[0], killers[1]] {
            if want == NO_MOVE {
                continue;
            }
            if let Some(i) = list[front..n]
                .iter()
                .position(|e| e.1.index() as u16 == want)
            {
                list[front..=front + i].rotate_right(1);
                front += 1;
            }
        }
        front
    }

    /// Notes `sq`, which caused a cut-off at `ply`, as the ply's first
    /// killer (the old first becomes the second).
    pub(super) fn note_killer(&mut self, ply: u32, sq: Square) {
        let slot = &mut self.killers[ply as usize];
        let mv = sq.index() as u16;
        if slot[0] != mv {
            slot[1] = slot[0];
            slot[0] = mv;
        }
    }
}
