//! The node search: negamax alpha-beta below the root, and past the
//! horizon the fours that are still worth playing.
//!
//! Every node first applies the board's tactics: a win in one is taken,
//! two opponent winning cells are a loss, a single one must be blocked and
//! that forced reply does not use up depth, and a win the board sees
//! without a search (a fork or a four-three the opponent cannot answer
//! with a four) is taken. Then the table, reverse futility, razoring (a
//! null-window node far below alpha near the horizon plays only its
//! fours), the candidates in order (`picker.rs`), principal variation
//! search (null windows after the first move), late quiet moves left out
//! or searched shallower first, and at an expected cut node far above
//! beta every quiet move a ply shallower, as the board's [`Selectivity`]
//! says; where it asks for it
//! (`LOST_WIDENS`), a node whose beam of best moves all lose searches its
//! other candidates before it reports the loss. Past the horizon, the
//! best of the moves that make a four are still searched (up to
//! [`FOUR_PLIES`] in a row), so short continuous-four wins are seen
//! beyond the depth.
//!
//! [`Selectivity`]: super::super::board::Selectivity
use super::super::board::SearchBoard;
use super::super::rows::cells_of;
use super::super::score::{MATE_BOUND, MAX_PLY, WIN};
use super::picker::{insert_ranked, BEAM};
use super::Search;
use crate::pattern::ThreatClass;
use crate::{Square, WinCondition, MAX_CELLS};

/// Fours searched past the horizon, at most, in a row.
const FOUR_PLIES: i32 = 4;
/// Room for the fours a node tries past the horizon (the boards'
/// [`HORIZON_FOURS`] are at most this).
///
/// [`HORIZON_FOURS`]: super::super::board::Selectivity::HORIZON_FOURS
const MAX_HORIZON_FOURS: usize = 2;

impl<B: SearchBoard> Search<'_, B> {
    /// Past the horizon: the static evaluation, or better if a move that
    /// makes a four (the opponent's block is forced and free; the board's
    /// best [`HORIZON_FOURS`] by key; none under "exactly k") leads
    /// somewhere, up to [`FOUR_PLIES`] fours deep: continuous fours that
    /// end in two winning cells are found beyond the search's depth.
    ///
    /// [`HORIZON_FOURS`]: super::super::board::Selectivity::HORIZON_FOURS
    pub(super) fn fours_only(&mut self, depth: i32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        let stand = self.board.static_eval();
        let me = self.board.stones().turn;
        if stand >= beta
            || depth <= -FOUR_PLIES
            || ply >= MAX_PLY
            || !self.board.has_four_cells(me.index())
        {
            return stand;
        }
        let most = if self.board.stones().rules.win_condition() == WinCondition::ExactlyK {
            0
        } else {
            B::HORIZON_FOURS.min(MAX_HORIZON_FOURS)
        };
        if most == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let (makes_four, _) = self.board.four_cells(me.index());
        // Only the most promising fours (by ordering key): a position with
        // many three-windows has a dozen, and all of them at each of
        // FOUR_PLIES plies are thousands of nodes under every leaf.
        let mut fours = [(0, Square::from_index(0)); MAX_HORIZON_FOURS];
        let fours = &mut fours[..most];
        let mut n = 0;
        for sq in cells_of(makes_four) {
            // Black's forbidden fours (renju) are left out before ranking,
            // so they do not take the places of playable ones.
            if !self.board.is_forbidden(sq, me) {
                n = insert_ranked(fours, n, self.board.order_key(sq, me.index()), sq);
            }
        }
        for &(_, sq) in &fours[..n] {
            self.board.apply(sq, me);
            let v = -self.search(depth - 1, ply + 1, -beta, -alpha, false);
            self.board.unapply(sq, me);
            if self.meter.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// The value of the position for the side to move (fail-soft, within
    /// `alpha`..`beta`), searched `depth` plies deep (forced blocks free)
    /// at `ply` plies from the root; 0 once the budget is spent. `cut`:
    /// the node is expected to fail high (a null-window node whose parent
    /// expects to fail low, as chess engines count node types: a late
    /// move's reduced search, and every other ply below it), where a
    /// position far above beta searches its quiet moves a ply shallower.
    pub(super) fn search(
        &mut self,
        depth: i32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        cut: bool,
    ) -> i32 {
        let stats = &mut self.meter.stats;
        stats.nodes += 1;
        stats.seldepth = stats.seldepth.max(ply);
        if depth == 0 {
            stats.leaf_nodes += 1;
        } else if depth < 0 {
            stats.horizon_nodes += 1;
        }
        if self.meter.exhausted() {
            return 0;
        }
        let me = self.board.stones().turn;
        if self.board.winning_cells(me).1 > 0 {
            return WIN - ply as i32 - 1;
        }
        if self.board.stones().marks as usize == self.board.stones().rules.cell_count() {
            return 0;
        }
        let (block, threats) = self.board.winning_cells(me.other());
        if threats >= 2 {
            return -(WIN - ply as i32 - 2);
        }
        if let Some(sq) = block {
            if self.board.is_forbidden(sq, me) {
                // Black may not block: white's five comes next.
                return -(WIN - ply as i32 - 2);
            }
            if ply >= MAX_PLY {
                return self.board.static_eval();
            }
            self.board.apply(sq, me);
            let v = -self.search(depth, ply + 1, -beta, -alpha, !cut);
            self.board.unapply(sq, me);
            return v;
        }
        if let Some(plies) = self.board.static_win() {
            return WIN - ply as i32 - plies;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.fours_only(depth, ply, alpha, beta);
        }
        let key = self.board.stones().hash;
        let (tt_move, settled) = self.probe_table(key, depth, ply, alpha, beta);
        if let Some(v) = settled {
            return v;
        }
        // Read once for the three rules below (`None`: a board that never
        // prunes by its evaluation).
        let node = self.board.estimate();
        if let Some(v) = node.and_then(|n| B::futile(depth, alpha, beta, n)) {
            return v;
        }
        let null_window = beta - alpha == 1;
        if null_window && node.is_some_and(|n| B::razors(depth, alpha, n)) {
            // Far below alpha a ply or two from the horizon: only fours
            // can lift it (razoring).
            return self.fours_only(0, ply, alpha, beta);
        }
        // Far above beta at an expected cut node: quiet moves a ply
        // shallower, fours in full (fail-high reduction).
        let fail_high =
            null_window && cut && node.is_some_and(|n| B::likely_fail_high(depth, beta, n));
        let mut list = [(0, Square::from_index(0)); BEAM];
        let n = self.candidates(&mut list, false);
        if n == 0 {
            // Only an open three (or crossing threes) that nothing stops
            // and no four of ours empties the list on a board not full.
            return -(WIN - ply as i32 - 3);
        }
        // The table's move first, then this ply's killers; the rest keep
        // their key order.
        let front = self.promote_known_moves(&mut list, n, tt_move, ply);
        self.meter.stats.interior += 1;
        let alpha_in = alpha;
        let mut best = -WIN;
        let mut best_move = list[0].1;
        for (i, &(_, sq)) in list[..n].iter().enumerate() {
            // Black's forbidden moves (renju) are skipped here, when their
            // turn comes: most candidates are cut off before it.
            if self.board.is_forbidden(sq, me) {
                continue;
            }
            let class = self.board.class_before_move(sq, me);
            if B::prunes_late_quiet(depth, i, front, null_window, best, class) {
                continue;
            }
            let fours_before = self.board.counted_fours(me.index());
            let four_cell = class.is_some_and(|c| c >= ThreatClass::Four);
            let depth = if fail_high && !four_cell {
                depth - 1
            } else {
                depth
            };
            self.board.apply(sq, me);
            let v = if i == 0 {
                -self.search(depth - 1, ply + 1, -beta, -alpha, null_window && !cut)
            } else {
                // Late quiet moves are searched shallower first (`reduction`),
                // and every later move with a null window: a move that
                // beats alpha is searched again in full.
                let makes_four = four_cell || self.board.counted_fours(me.index()) > fours_before;
                let reduction = B::reduction(depth, i, front, makes_four, null_window);
                let mut v = if reduction > 0 {
                    -self.search(depth - 1 - reduction, ply + 1, -alpha - 1, -alpha, true)
                } else {
                    -self.search(depth - 1, ply + 1, -alpha - 1, -alpha, !cut)
                };
                if v > alpha && reduction > 0 && !self.meter.aborted {
                    v = -self.search(depth - 1, ply + 1, -alpha - 1, -alpha, !cut);
                }
                if v > alpha && v < beta && !self.meter.aborted {
                    v = -self.search(depth - 1, ply + 1, -beta, -alpha, false);
                }
                v
            };
            self.board.unapply(sq, me);
            if self.meter.aborted {
                return 0;
            }
            self.meter.stats.children += 1;
            if v > best {
                best = v;
                best_move = sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        self.note_killer(ply, sq);
                        break;
                    }
                }
            }
        }
        if B::LOST_WIDENS && best <= -MATE_BOUND && n == BEAM && !self.meter.aborted {
            // Every move of the beam loses: the rest may hold.
            let (v, sq) = self.search_past_beam(&list[..n], depth, ply, alpha, beta);
            if self.meter.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = sq;
            }
        }
        self.record(key, (depth, ply), (alpha_in, beta), best, best_move);
        best
    }

    /// The candidates of a node past the [`BEAM`] it searched (`searched`,
    /// all lost): the best value among them and its move (`-WIN` if none
    /// is left). Kept out of [`search`](Self::search) so that its list
    /// of every cell is on the stack only here.
    #[inline(never)]
    fn search_past_beam(
        &mut self,
        searched: &[(i32, Square)],
        depth: i32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Square) {
        let me = self.board.stones().turn;
        let mut all = [(0, Square::from_index(0)); MAX_CELLS];
        let n = self.candidates(&mut all, false);
        let mut best = (-WIN, searched[0].1);
        for &(_, sq) in &all[..n] {
            if searched.iter().any(|e| e.1 == sq) || self.board.is_forbidden(sq, me) {
                continue;
            }
            self.board.apply(sq, me);
            let mut v = -self.search(depth - 1, ply + 1, -alpha - 1, -alpha, true);
            if v > alpha && v < beta && !self.meter.aborted {
                v = -self.search(depth - 1, ply + 1, -beta, -alpha, false);
            }
            self.board.unapply(sq, me);
            if self.meter.aborted {
                return best;
            }
            self.meter.stats.children += 1;
            if v > best.0 {
                best = (v, sq);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::board::SearchBoard;
    use super::super::super::score::WIN;
    use super::super::super::shape::policy::FUTILITY_MARGIN;
    use super::super::super::shape::ShapeBoard;
    use super::super::super::test_boards::{board, nine};
    use super::super::super::window::WindowBoard;
    use super::Search;
    use crate::Position;

    /// Searches `board` `depth` plies deep in the window (`low`, `high`)
    /// counted from its evaluation: nodes visited, value, evaluation.
    fn search_around_eval<B: SearchBoard>(
        board: B,
        depth: i32,
        (low, high): (i32, i32),
    ) -> (u64, i32, i32) {
        let mut s = Search::unlimited(board);
        let stand = s.board.static_eval();
        let v = s.search(depth, 1, stand + low, stand + high, false);
        (s.meter.stats.nodes, v, stand)
    }

    /// [`search_around_eval`] with beta `lead` futility margins below the
    /// evaluation, in a null window (or one `width` wide).
    fn search_above_beta<B: SearchBoard>(
        board: B,
        depth: i32,
        lead: i32,
        width: i32,
    ) -> (u64, i32, i32) {
        let beta = -lead * FUTILITY_MARGIN;
        search_around_eval(board, depth, (beta - width, beta))
    }

    /// On the pattern board, a null-window node a few plies deep whose
    /// evaluation is far above beta returns it without a search; not in a
    /// full window, not far above, not when the opponent has an open three
    /// to answer, and never on the window board.
    #[test]
    fn a_quiet_node_far_above_beta_is_not_searched() {
        let shapes = |pos: &Position| ShapeBoard::new(pos).unwrap();
        // X to move, two open twos against O's scattered stones.
        let ahead = board(&[
            (6, "......xx......."),
            (8, "......xx......."),
            (0, "o.............o"),
            (14, "o.............o"),
        ]);
        let (nodes, v, stand) = search_above_beta(shapes(&ahead), 3, 3, 1);
        assert_eq!((nodes, v), (1, stand));
        // One more ply needs a larger lead: searched.
        assert!(search_above_beta(shapes(&ahead), 4, 3, 1).0 > 1);
        // A full window: searched.
        assert!(search_above_beta(shapes(&ahead), 3, 3, 100).0 > 1);
        // O has an open three X must answer: searched.
        let threatened = board(&[
            (6, "......xx......."),
            (8, "......xx......."),
            (11, "....ooo........"),
            (0, "o.............."),
        ]);
        assert!(search_above_beta(shapes(&threatened), 1, 8, 1).0 > 1);
        // The console's 9x9, on the window board: searched.
        let small = nine("o.......o/........./..xx...../........./..xx...../........./........./........./o.......o");
        assert!(search_above_beta(WindowBoard::new(&small), 1, 8, 1).0 > 1);
    }

    /// On the pattern board, a null-window node two plies deep whose
    /// evaluation is far below alpha searches only its fours (razoring):
    /// not when the opponent has an open three to answer, not three plies
    /// deep, not in a full window, never on the window board.
    #[test]
    fn a_quiet_node_far_below_alpha_searches_only_its_fours() {
        // Alpha `lead` above the evaluation, the window `width` wide.
        fn below<B: SearchBoard>(board: B, depth: i32, lead: i32, width: i32) -> (u64, i32, i32) {
            search_around_eval(board, depth, (lead, lead + width))
        }
        let shapes = |pos: &Position| ShapeBoard::new(pos).unwrap();
        // X to move, no four to make: the node is its evaluation.
        let behind = board(&[
            (6, "......xx......."),
            (8, "......oo......."),
            (9, ".......o......."),
            (0, "x.............."),
        ]);
        let (nodes, v, stand) = below(shapes(&behind), 2, 2_000, 1);
        assert_eq!(nodes, 1);
        assert!(v < stand + 2_000);
        // Three plies, a full window, a small lead: searched.
        assert!(below(shapes(&behind), 3, 2_000, 1).0 > 1);
        assert!(below(shapes(&behind), 2, 2_000, 100).0 > 1);
        assert!(below(shapes(&behind), 2, 100, 1).0 > 1);
        // O's open three to answer: searched.
        let threatened = board(&[
            (6, "......xx......."),
            (11, "....ooo........"),
            (0, "x.............."),
        ]);
        assert!(below(shapes(&threatened), 2, 2_000, 1).0 > 1);
        let small = nine("x.......x/........./..xx...../........./..oo...../........./........./........./o.......o");
        assert!(below(WindowBoard::new(&small), 2, 2_000, 1).0 > 1);
    }

    /// At an expected cut node far above beta, the pattern board searches
    /// its quiet moves a ply shallower: fewer nodes than the same search
    /// at a node not expected to cut, and it still fails high.
    #[test]
    fn an_expected_cut_node_far_above_beta_searches_shallower() {
        let pos = board(&[
            (6, "......xx......."),
            (7, ".......x......."),
            (8, "......o.o......"),
            (0, "o.............."),
        ]);
        let run = |cut: bool| {
            let mut s = Search::unlimited(ShapeBoard::new(&pos).unwrap());
            let beta = s.board.static_eval() - 2_500;
            // 9 plies: past reverse futility's reach (8).
            let v = s.search(9, 1, beta - 1, beta, cut);
            (s.meter.stats.nodes, v >= beta)
        };
        let (cut, other) = (run(true), run(false));
        assert!(cut.0 < other.0, "{cut:?} {other:?}");
        assert!(cut.1 && other.1);
    }

    /// Past the horizon, on the pattern board, only the best four of a
    /// node is played out: with two closed threes, one four and its
    /// block, then one four of the other three and its block (4 nodes).
    /// On the window board (the console's 9x9) the best two of each node
    /// are, so more.
    #[test]
    fn past_the_horizon_the_pattern_board_plays_out_its_best_four() {
        fn horizon<B: SearchBoard>(board: B) -> u64 {
            let mut s = Search::unlimited(board);
            s.fours_only(0, 1, -WIN, WIN);
            s.meter.stats.nodes
        }
        let fifteen = board(&[
            (3, "oxxx..........."),
            (9, "oxxx..........."),
            (6, "...........o.o."),
            (12, "........o.o...."),
        ]);
        assert_eq!(horizon(ShapeBoard::new(&fifteen).unwrap()), 4);
        let small = nine("oxxx...../........./o.......o/........./........./......o.o/........./oxxx...../.........");
        let nodes = horizon(WindowBoard::new(&small));
        assert!(nodes > 4, "{nodes}");
    }

    /// A search counts its nodes apart: the node searched one ply deep,
    /// its children at the nominal depth (the leaves, forced blocks
    /// there included) and the fours past the horizon with their blocks;
    /// none of them is a threat search's (those run at the root).
    #[test]
    fn leaves_and_fours_past_the_horizon_are_counted_apart() {
        let pos = board(&[
            (3, "oxxx..........."),
            (9, "oxxx..........."),
            (6, "...........o.o."),
            (12, "........o.o...."),
        ]);
        let mut s = Search::unlimited(ShapeBoard::new(&pos).unwrap());
        s.search(1, 1, -WIN, WIN, false);
        let stats = s.meter.stats;
        assert_eq!(stats.threat_nodes, 0);
        assert!(stats.leaf_nodes >= stats.children && stats.children > 0);
        assert!(stats.horizon_nodes > 0);
        assert_eq!(1 + stats.leaf_nodes + stats.horizon_nodes, stats.nodes);
    }
}
