//! Which moves are searched, in what order.
//!
//! Candidates are the empty cells within two steps of a mark (all cells on
//! an empty board, nearest the centre first), ordered by their key: how
//! much a mark there gains for the side to move, doubled, plus how much it
//! would gain for the opponent (kept per cell by the board, so ordering
//! reads one number per cell). Where the shape terms are kept (five in a
//! row on boards larger than 9x9, not renju) the key adds a weight for the
//! threat class the cell makes for each side ([`MOVER_CLASS`],
//! [`WAITER_CLASS`]). Inside the tree only the best [`BEAM`] are
//! searched, the table's move first, then the two killers of the ply
//! (quiet moves that caused a cut-off at a sibling). At the root the seed
//! perturbs equal keys, so equal moves differ between seeds (same seed,
//! same move). Against an open three only its blocks and our fours are
//! candidates (`exact_replies` in `shapes.rs` for five in a row, else
//! `threat_replies`); where shapes are kept, against a four-three cell
//! only the cells that defuse it and our fours (`four_three_replies`).
use super::threats::cells_of;
use super::Engine;
use crate::ai::tt::NO_MOVE;
use crate::{Square, MAX_SIDE};

/// Candidate moves searched at a node inside the tree, at most.
pub(super) const BEAM: usize = 12;

/// Ordering weight of the threat class (index: the class as `u8`) a cell
/// makes for the side to move, and ([`WAITER_CLASS`]) for the opponent,
/// in units of the window key. Fitted (conditional logit) to which cell
/// Rapfi 0.43 played in 20,000 positions of its games against `strong`;
/// on 15,000 other positions Rapfi's move is first in the order 51% of
/// the time instead of 27%, and among the [`BEAM`] searched 93% instead
/// of 87%. Fours come later than their window key says: a four only
/// forces a block (the search tries them past the horizon anyway), and
/// quiet shapes (a double two, an open three with more) are what Rapfi
/// plays.
const MOVER_CLASS: [i32; 13] = [
    0, 1286, 436, 3056, 2515, 1790, 3880, 4856, -4406, -2399, 1422, -3602, -10,
];
/// Ordering weight of the class a cell makes for the opponent (taking a
/// cell it wants).
const WAITER_CLASS: [i32; 13] = [
    0, 270, 67, 191, 502, 1931, 2489, 2349, -2273, -917, 1432, -2802, 12215,
];

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
    /// The ordering key of the empty `sq` for side `me` (index of the mark):
    /// its window key, plus its classes' weights where shapes are kept.
    #[inline]
    fn order_key(&self, sq: Square, me: usize) -> i32 {
        let key = self.cell_key[sq.index()][me];
        match &self.shapes {
            Some(shapes) => {
                let classes = shapes.class_numbers(sq);
                key + MOVER_CLASS[usize::from(classes[me])]
                    + WAITER_CLASS[usize::from(classes[1 - me])]
            }
            None => key,
        }
    }

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
            // The exact replies to an open three (none: the caller knows
            // the position is lost), else to a four-three, wherever they
            // are.
            if let Some(replies) = self.exact_replies().or_else(|| self.four_three_replies()) {
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
    /// column, cells on the board only; every cell on an empty board), as
    /// [`candidates`](Self::candidates).
    pub(super) fn candidates_among(
        &mut self,
        out: &mut [(i32, Square)],
        jitter: bool,
        front: [u32; MAX_SIDE as usize],
    ) -> usize {
        let me = self.turn.index();
        if self.marks == 0 {
            // Empty board: every cell, nearest the centre first.
            let all = (1u32 << self.rules.columns()) - 1;
            let mut cells = [0u32; MAX_SIDE as usize];
            cells[..self.rules.rows() as usize].fill(all);
            let rules = self.rules;
            return self.rank(out, jitter, cells, |_, sq| {
                -(rules.distance_from_centre(sq) as i32)
            });
        }
        // One loop for each kind of key: the test of which kind stays out
        // of the loop over cells (on 9x9 the loop takes over a quarter of a
        // node's time).
        match &self.shapes {
            None => self.rank(out, jitter, front, |e, sq| e.cell_key[sq.index()][me]),
            Some(_) => self.rank(out, jitter, front, |e, sq| e.order_key(sq, me)),
        }
    }

    /// The best `out.len()` of the cells of `cells` by `key` (perturbed by
    /// the seed when `jitter`), best first; returns the count.
    #[inline(always)]
    fn rank(
        &mut self,
        out: &mut [(i32, Square)],
        jitter: bool,
        cells: [u32; MAX_SIDE as usize],
        key: impl Fn(&Self, Square) -> i32,
    ) -> usize {
        let mut n = 0;
        for sq in cells_of(cells) {
            let mut key = key(self, sq);
            if jitter {
                key = key * 4 + self.rng.below(4) as i32;
            }
            n = insert_ranked(out, n, key, sq);
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

#[cfg(test)]
mod tests {
    use super::super::test_boards::engine;
    use super::*;
    use crate::{Position, Rules, MAX_CELLS};

    /// On 400 positions of Rapfi's games, the candidate order puts the
    /// move Rapfi played first far more often with the class weights than
    /// with the window keys alone (175 and 93 times of the 351 positions
    /// with more than three candidates), and keeps it among the searched
    /// [`BEAM`] at least as often (319 and 299 times).
    #[test]
    fn the_order_finds_rapfis_moves() {
        let rules = Rules::new(15, 15, 5).unwrap();
        let (mut positions, mut first, mut first_by_key, mut beam, mut beam_by_key) =
            (0, 0, 0, 0, 0);
        for line in include_str!("rapfi-moves.txt").lines() {
            if line.starts_with('#') {
                continue;
            }
            let Some((moves, played)) = line.split_once(" | ") else {
                continue;
            };
            let mut pos = Position::new(rules);
            for m in moves.split_whitespace() {
                pos.play(rules.parse_square(m).unwrap()).unwrap();
            }
            let played = rules.parse_square(played).unwrap();
            let mut e = engine(&pos);
            let mut list = [(0, Square::from_index(0)); MAX_CELLS];
            let n = e.candidates(&mut list, false);
            if n <= 3 {
                continue;
            }
            positions += 1;
            let rank = list[..n].iter().position(|&(_, sq)| sq == played);
            let me = pos.side_to_move().index();
            let key = |sq: Square| e.cell_key[sq.index()][me];
            let rank_by_key = rank.map(|_| {
                list[..n]
                    .iter()
                    .filter(|&&(_, sq)| key(sq) > key(played))
                    .count()
            });
            first += usize::from(rank == Some(0));
            first_by_key += usize::from(rank_by_key == Some(0));
            beam += usize::from(rank.is_some_and(|r| r < BEAM));
            beam_by_key += usize::from(rank_by_key.is_some_and(|r| r < BEAM));
        }
        assert!(positions >= 340, "{positions}");
        assert!(
            first * 100 >= positions * 42 && first >= first_by_key + positions / 8,
            "first {first}, by key {first_by_key} of {positions}"
        );
        assert!(
            beam >= beam_by_key,
            "in the beam {beam}, by key {beam_by_key}"
        );
    }
}
