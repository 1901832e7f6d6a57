//! The root of a search: what happens before the deepening, and the
//! deepening itself.
//!
//! Tactics first, whatever the budget: a win in one is played, a lone
//! winning cell of the opponent's is blocked. Then the root moves (the
//! candidates, perturbed by the seed; black's forbidden cells left out
//! under renju), the threat searches of the root (`threat_search/`: an
//! own continuous-four or continuous-threat win is played at once; against
//! the opponent's continuous fours only the moves that stop them are
//! kept), and the deepening over what is left (`search/`).
use super::board::SearchBoard;
use super::score::WIN;
use super::search::Search;
use super::threat_search::root::RootVcf;
use super::threat_search::{Scratch, ThreatSearch};
use crate::{Position, Square, MAX_CELLS};

impl<B: SearchBoard> Search<'_, B> {
    /// The move to play in `pos` (not over, not empty: the board was made
    /// from it) and its score (positive: good for the side to move).
    pub(super) fn analyse(&mut self, pos: &Position) -> Option<(Square, i32)> {
        let me = self.board.stones().turn;
        // Tactics first, whatever the budget.
        if let (Some(sq), _) = self.board.winning_cells(me) {
            return Some((sq, WIN - 1));
        }
        if let (Some(sq), n) = self.board.winning_cells(me.other()) {
            // (A block black may not play is no move: lost, any legal
            // move will do, the search below picks one.)
            if !self.board.is_forbidden(sq, me) {
                return Some((sq, if n >= 2 { -(WIN - 2) } else { 0 }));
            }
        }
        let mut root = [(0, Square::from_index(0)); MAX_CELLS];
        let mut n = self.candidates(&mut root, true);
        if n == 0 {
            // Lost to an open three nothing stops: the search still picks
            // the longest resistance among the usual candidates.
            n = self.candidates_among(&mut root, true, self.board.stones().frontier());
        }
        if self.board.forbids(me) {
            let mut kept = 0;
            for i in 0..n {
                if !self.board.is_forbidden(root[i].1, me) {
                    root[kept] = root[i];
                    kept += 1;
                }
            }
            n = kept;
        }
        if n == 0 {
            return pos.legal_moves().first().map(|sq| (sq, 0));
        }
        let mut scratch = Scratch::new();
        let mut threats = ThreatSearch {
            board: &mut self.board,
            meter: &mut self.meter,
            scratch: &mut scratch,
        };
        match threats.root_verdict(&mut root[..n]) {
            RootVcf::Win(sq, plies) => return Some((sq, WIN - plies as i32)),
            RootVcf::Keep(kept) => n = kept,
        }
        if n == 1 {
            return Some((root[0].1, 0));
        }
        Some(self.deepen(&mut root[..n], pos.empty_squares().len()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::SearchBoard;
    use super::super::budget::Budget;
    use super::super::shape::ShapeBoard;
    use super::Search;
    use crate::rng::Rng;
    use crate::{Position, Rules};

    /// A search plays and takes back thousands of stones on the pattern
    /// board, past the depth of its take-back records too; afterwards the
    /// board is that of the position read afresh.
    #[test]
    fn a_search_leaves_the_board_as_it_found_it() {
        // A game's first eight moves (Rapfi against `strong`), X to move.
        let mut pos = Position::new(Rules::new(15, 15, 5).unwrap());
        for name in ["j6", "k11", "e9", "j11", "g9", "i9", "h11", "h8"] {
            pos.play(pos.rules().parse_square(name).unwrap()).unwrap();
        }
        let fresh = ShapeBoard::new(&pos).unwrap();
        let board = ShapeBoard::new(&pos).unwrap();
        let mut s = Search::new(Budget::nodes(30_000), &mut [], Rng::new(1), board);
        assert!(s.analyse(&pos).is_some());
        assert_eq!(s.meter.stats.nodes, 30_000);
        assert!(s.meter.stats.depth > 4, "{}", s.meter.stats.depth);
        assert_eq!(s.board.static_eval(), fresh.static_eval());
        assert_eq!(s.board.stones().hash, fresh.stones().hash);
        for sq in pos.rules().squares() {
            assert_eq!(
                s.board.patterns().class_codes(sq),
                fresh.patterns().class_codes(sq)
            );
        }
    }
}
