//! The move picker: which moves a node searches, in what order.
//!
//! Candidates are the cells the board says are worth searching
//! ([`candidate_cells`](SearchBoard::candidate_cells): the empty cells
//! within two steps of a mark, or against a threat only its answers and
//! our fours; every cell on an empty board, nearest the centre first),
//! ranked by the board's [`order_key`](SearchBoard::order_key). Inside
//! the tree only the best [`BEAM`] are searched (on the pattern board,
//! the rest too when all of these lose), the table's move first,
//! then the two killers of the ply (quiet moves that caused a cut-off at
//! a sibling). At the root the seed perturbs equal keys, so equal moves
//! differ between seeds (same seed, same move).
use super::super::board::SearchBoard;
use super::super::rows::{cells_of, Rows};
use super::Search;
use crate::ai::tt::NO_MOVE;
use crate::{Square, MAX_SIDE};

/// Candidate moves searched at a node inside the tree, at most.
pub(in crate::ai::strong) const BEAM: usize = 12;

/// Inserts `(key, sq)` into `out[..n]` (sorted by key, best first, equal
/// keys in arrival order), dropping the worst entry when full; returns the
/// new length.
#[inline]
pub(in crate::ai::strong) fn insert_ranked(
    out: &mut [(i32, Square)],
    n: usize,
    key: i32,
    sq: Square,
) -> usize {
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

/// Sorts `list` (cells in square order, as [`cells_of`] gives them) best
/// key first, equal keys in square order: the order [`insert_ranked`]
/// leaves them in.
fn sort_ranked(list: &mut [(i32, Square)]) {
    list.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.index().cmp(&b.1.index())));
}

impl<B: SearchBoard> Search<'_, B> {
    /// Candidate moves, best first (the best `out.len()`, equal keys in
    /// row-major order); returns the count.
    pub(in crate::ai::strong) fn candidates(
        &mut self,
        out: &mut [(i32, Square)],
        jitter: bool,
    ) -> usize {
        let cells = self.board.candidate_cells();
        self.candidates_among(out, jitter, cells)
    }

    /// The best `out.len()` of the cells of `cells` (on the board only;
    /// every cell on an empty board), as [`candidates`](Self::candidates).
    pub(in crate::ai::strong) fn candidates_among(
        &mut self,
        out: &mut [(i32, Square)],
        jitter: bool,
        cells: Rows,
    ) -> usize {
        let stones = self.board.stones();
        let me = stones.turn.index();
        if stones.marks == 0 {
            // Empty board: every cell, nearest the centre first.
            let rules = stones.rules;
            let all = (1u32 << rules.columns()) - 1;
            let mut cells = [0u32; MAX_SIDE as usize];
            cells[..rules.rows() as usize].fill(all);
            return self.rank(out, jitter, cells, |_, sq| {
                -(rules.distance_from_centre(sq) as i32)
            });
        }
        self.rank(out, jitter, cells, |board, sq| board.order_key(sq, me))
    }

    /// The best `out.len()` of the cells of `cells` by `key` (perturbed by
    /// the seed when `jitter`), best first; returns the count.
    #[inline(always)]
    fn rank(
        &mut self,
        out: &mut [(i32, Square)],
        jitter: bool,
        cells: Rows,
        key: impl Fn(&B, Square) -> i32,
    ) -> usize {
        let mut n = 0;
        // Room for every cell (the root's list): collected, then sorted
        // once; one insertion at a time costs the console milliseconds on a
        // 15x15 board with 100 cells to rank.
        let mut unsorted = out.len() > BEAM;
        for sq in cells_of(cells) {
            let mut key = key(&self.board, sq);
            if jitter {
                key = key * 4 + self.rng.below(4) as i32;
            }
            if unsorted && n < out.len() {
                out[n] = (key, sq);
                n += 1;
            } else {
                if unsorted {
                    // Full: ranked from here on, dropping the worst.
                    sort_ranked(out);
                    unsorted = false;
                }
                n = insert_ranked(out, n, key, sq);
            }
        }
        if unsorted {
            sort_ranked(&mut out[..n]);
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
    use super::super::super::board::SearchBoard;
    use super::super::super::shape::ShapeBoard;
    use super::super::super::window::WindowBoard;
    use super::{Search, BEAM};
    use crate::{Position, Rules, Square, MAX_CELLS};

    /// On 400 positions of Rapfi's games (`tests/data/rapfi-moves.txt`),
    /// the pattern board's candidate order puts the move Rapfi played
    /// first far more often than the window keys would, and keeps it
    /// among the searched [`BEAM`] at least as often.
    #[test]
    fn the_order_finds_rapfis_moves() {
        let rules = Rules::new(15, 15, 5).unwrap();
        let (mut positions, mut first, mut first_by_key, mut beam, mut beam_by_key) =
            (0, 0, 0, 0, 0);
        let fixture = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/rapfi-moves.txt"
        ));
        for line in fixture.lines() {
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
            let mut s = Search::unlimited(ShapeBoard::new(&pos).unwrap());
            let mut list = [(0, Square::from_index(0)); MAX_CELLS];
            let n = s.candidates(&mut list, false);
            if n <= 3 {
                continue;
            }
            positions += 1;
            let rank = list[..n].iter().position(|&(_, sq)| sq == played);
            let me = pos.side_to_move().index();
            let windows = WindowBoard::new(&pos);
            let key = |sq: Square| windows.order_key(sq, me);
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
