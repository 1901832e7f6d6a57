//! The search: iterative deepening over the root moves, negamax
//! alpha-beta below them.
//!
//! Each iteration searches the root moves best first (the best of the last
//! iteration moves to the front); where the pattern board is the only
//! board, from the fifth ply, within an aspiration window around the value
//! before (opened and searched again on the side a value falls out of).
//! The move of the last completed iteration is played, or a later one that
//! beat it before the budget ran out. After each completed iteration the
//! budget's `iteration_done` hears its depth, value, how many iterations
//! its move has held and how far its value fell, and may end the search
//! there (the caller's time management). Every
//! node first applies the tactics of `threats.rs`: a win in one is taken,
//! two opponent winning cells are a loss, a single one must be blocked and
//! that forced reply does not use up depth, and a fork the opponent cannot
//! answer is a win. Then the table, reverse futility (where shapes are
//! kept: a quiet null-window node far above beta is not searched), the
//! candidates in order, principal variation search (null windows after the
//! first move), late quiet moves not searched at all at null-window nodes
//! where the pattern board is the only board (move-count pruning), and
//! late quiet moves searched shallower (by one ply, or
//! where shapes are kept by `ln(depth) * ln(move number)` plies, one more
//! at null-window nodes). Past the horizon, the best two moves that make a
//! four are still searched (the best one where the pattern board is the
//! only board; up to [`FOUR_PLIES`] in a row), so short
//! continuous-four wins are seen beyond the depth.
use super::ordering::{insert_ranked, BEAM};
use super::threats::cells_of;
use super::{Engine, MATE_BOUND, MAX_PLY, WIN};
use crate::pattern::ThreatClass;
use crate::{Square, WinCondition};

/// `1000 ln(i)` for `i` up to 65 (0 for 0): the late-move reductions
/// where shapes are kept.
const LN_1000: [i32; 66] = [
    0, 0, 693, 1099, 1386, 1609, 1792, 1946, 2079, 2197, 2303, 2398, 2485, 2565, 2639, 2708, 2773,
    2833, 2890, 2944, 2996, 3045, 3091, 3135, 3178, 3219, 3258, 3296, 3332, 3367, 3401, 3434, 3466,
    3497, 3526, 3555, 3584, 3611, 3638, 3664, 3689, 3714, 3738, 3761, 3784, 3807, 3829, 3850, 3871,
    3892, 3912, 3932, 3951, 3970, 3989, 4007, 4025, 4043, 4060, 4078, 4094, 4111, 4127, 4143, 4159,
    4174,
];

/// Reverse futility pruning (where shapes are kept): a null-window node at
/// most this many plies deep whose static evaluation beats beta by
/// [`FUTILITY_MARGIN`] per ply is not searched. Rapfi prunes so at any
/// depth with about a third of a win-rate logit per ply; the margin is
/// that slope on our evaluation's scale (a logit is 1,500).
const FUTILITY_DEPTH: i32 = 8;
/// See [`FUTILITY_DEPTH`].
const FUTILITY_MARGIN: i32 = 500;

/// Move-count pruning (where the pattern board is the only board): quiet
/// moves searched at a null-window node `depth` plies deep, at most this
/// plus `depth` (so none is cut from 10 plies up, past the [`BEAM`] of
/// 12). Rapfi cuts every move past about `(3 + depth^1.32) / 2` there (2
/// at one ply, 5 at four, 12 at ten).
const QUIET_MOVES_BASE: usize = 2;

/// Aspiration (where the pattern board is the only board): from this
/// many plies, an iteration searches the root within
/// [`ASPIRATION_WINDOW`] of the value the iteration before found, and
/// again with the window opened on the side the value fell out of.
const ASPIRATION_DEPTH: u32 = 5;
/// See [`ASPIRATION_DEPTH`]: a third of a win-rate logit on our scale.
const ASPIRATION_WINDOW: i32 = 500;

/// Fours searched past the horizon, at most, in a row.
const FOUR_PLIES: i32 = 4;
/// Fours tried at a node past the horizon, at most: the two with the best
/// ordering keys. Against all of them (a dozen where threes abound), a
/// midgame 15x15 position (game 1 of a Rapfi match, ply 36) took 1.45M
/// nodes to depth 4 and 4.5M to depth 6; with two, 0.23M and 0.94M, the
/// same move and value at every depth. 200 ms a move from balanced
/// openings: opening pairs won 14, lost 5 of 60 (+50 +-48 Elo); with three,
/// 6 and 5 (+6 +-38).
const QUIET_FOURS: usize = 2;
/// [`QUIET_FOURS`] where the pattern board is the only board (15x15
/// freestyle and up): the best one. The leaves cost less, so the tree
/// goes deeper: 0.3 ply more at 300,000 nodes (6.67 against 6.33 on 40
/// positions), and 67 instead of 63 of the 83 mates Rapfi announced in
/// its own games found within 2 million nodes. Against the engine with
/// two, 200 ms a move: 208 of 400 games (+14 Elo); against Rapfi at 1 s,
/// 74.5 of 240 where the engine with two won 72 (README).
const QUIET_FOURS_ONE_BOARD: usize = 1;

/// Move-count pruning where the pattern board is the only board: at a
/// null-window node `depth` plies deep, once a move that does not lose
/// is known (`best`), the `i`-th candidate (from 0; `front` of them
/// came from the table and the killers) is not searched when it is
/// quiet for the side to move (`class`: makes no open three or four)
/// and comes after the first [`QUIET_MOVES_BASE`] + `depth`. Threats
/// are always searched: a win by threats is what a shallow look misses.
fn prunes_late_quiet(
    depth: i32,
    i: usize,
    front: usize,
    null_window: bool,
    best: i32,
    class: Option<ThreatClass>,
) -> bool {
    null_window
        && i >= front.max(QUIET_MOVES_BASE + depth.max(0) as usize)
        && best > -MATE_BOUND
        && class.is_some_and(|c| c < ThreatClass::OpenThree)
}

impl Engine<'_> {
    /// Past the horizon: the static evaluation, or better if a move that
    /// makes a four (the opponent's block is forced and free; the best
    /// [`QUIET_FOURS`] by key, [`QUIET_FOURS_ONE_BOARD`] where the pattern
    /// board is the only board) leads somewhere, up to [`FOUR_PLIES`] fours
    /// deep: continuous fours that end in two winning cells are found beyond
    /// the search's depth.
    fn fours_only(&mut self, depth: i32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        let stand = self.static_eval();
        let me = self.turn;
        if stand >= beta
            || depth <= -FOUR_PLIES
            || ply >= MAX_PLY
            || !self.has_four_cells(me.index())
            || self.rules.win_condition() == WinCondition::ExactlyK
        {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let (makes_four, _) = self.three_cells(me.index());
        // Only the most promising fours (by ordering key): a position with
        // many three-windows has a dozen, and all of them at each of
        // FOUR_PLIES plies are thousands of nodes under every leaf.
        let mut fours = [(0, Square::from_index(0)); QUIET_FOURS];
        let most = if self.one_board {
            QUIET_FOURS_ONE_BOARD
        } else {
            QUIET_FOURS
        };
        let fours = &mut fours[..most];
        let mut n = 0;
        for sq in cells_of(makes_four) {
            // Black's forbidden fours (renju) are left out before ranking,
            // so they do not take the places of playable ones.
            if !self.is_forbidden(sq, me) {
                n = insert_ranked(fours, n, self.four_key(sq, me.index()), sq);
            }
        }
        for &(_, sq) in &fours[..n] {
            self.apply(sq, me);
            let v = -self.search(depth - 1, ply + 1, -beta, -alpha);
            self.unapply(sq, me);
            if self.aborted {
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

    /// Reverse futility (where shapes are kept): at a null-window node of
    /// at most [`FUTILITY_DEPTH`] plies whose static evaluation beats
    /// `beta` by [`FUTILITY_MARGIN`] per ply, and where the opponent has no
    /// open-four or four-three cell to answer, that evaluation: the side to
    /// move is too far ahead for the search below to bring it under beta.
    fn futile(&self, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
        let shapes = self.shapes.as_ref()?;
        if beta - alpha > 1
            || depth > FUTILITY_DEPTH
            || beta.abs() >= MATE_BOUND
            || shapes.threatens(self.turn.other())
        {
            return None;
        }
        let stand = self.static_eval();
        (stand - FUTILITY_MARGIN * depth >= beta).then_some(stand)
    }

    /// How many plies shallower the `i`-th move (from 0) of a node `depth`
    /// plies deep is searched first, `front` moves having come from the
    /// table and the killers. Moves that make a four are not reduced. Where
    /// shapes are kept the ordering is good enough to reduce more: by
    /// `ln(depth) * ln(i + 1)` plies from the third move (`i` = 2) on, the
    /// form chess and gomoku engines commonly use, and one ply more at a
    /// `null_window` node (expected to fail one way, as Rapfi reduces its
    /// non-PV nodes more). Elsewhere (the console's boards), one ply from
    /// the fourth move at depth 3 and more.
    fn reduction(
        &self,
        depth: i32,
        i: usize,
        front: usize,
        makes_four: bool,
        null_window: bool,
    ) -> i32 {
        if makes_four {
            return 0;
        }
        if self.shapes.is_none() {
            return i32::from(depth >= 3 && i >= front.max(3));
        }
        if depth < 2 || i < front.max(2) {
            return 0;
        }
        let r = LN_1000[(depth as usize).min(65)] * LN_1000[(i + 1).min(65)] / 1_000_000;
        let r = if r > 0 && null_window { r + 1 } else { r };
        r.clamp(0, depth - 1)
    }

    /// The value of the position for the side to move (fail-soft, within
    /// `alpha`..`beta`), searched `depth` plies deep (forced blocks free)
    /// at `ply` plies from the root; 0 once the budget is spent.
    pub(super) fn search(&mut self, depth: i32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.stats.nodes += 1;
        if self.budget_exhausted() {
            return 0;
        }
        let me = self.turn;
        if self.winning_cells(me).1 > 0 {
            return WIN - ply as i32 - 1;
        }
        if self.marks as usize == self.rules.cell_count() {
            return 0;
        }
        let (block, threats) = self.winning_cells(me.other());
        if threats >= 2 {
            return -(WIN - ply as i32 - 2);
        }
        if let Some(sq) = block {
            if self.is_forbidden(sq, me) {
                // Black may not block: white's five comes next.
                return -(WIN - ply as i32 - 2);
            }
            if ply >= MAX_PLY {
                return self.static_eval();
            }
            self.apply(sq, me);
            let v = -self.search(depth, ply + 1, -beta, -alpha);
            self.unapply(sq, me);
            return v;
        }
        if let Some(plies) = self.static_win() {
            return WIN - ply as i32 - plies;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.fours_only(depth, ply, alpha, beta);
        }
        let key = self.hash;
        let (tt_move, settled) = self.probe_table(key, depth, ply, alpha, beta);
        if let Some(v) = settled {
            return v;
        }
        if let Some(v) = self.futile(depth, alpha, beta) {
            return v;
        }
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
        let alpha_in = alpha;
        let null_window = beta - alpha == 1;
        let mut best = -WIN;
        let mut best_move = list[0].1;
        for (i, &(_, sq)) in list[..n].iter().enumerate() {
            // Black's forbidden moves (renju) are skipped here, when their
            // turn comes: most candidates are cut off before it.
            if self.is_forbidden(sq, me) {
                continue;
            }
            let class = self.one_board().map(|shapes| shapes.class(sq, me));
            if prunes_late_quiet(depth, i, front, null_window, best, class) {
                continue;
            }
            let fours_before = self.fours[me.index()];
            let four_cell = class.is_some_and(|c| c >= ThreatClass::Four);
            self.apply(sq, me);
            let v = if i == 0 {
                -self.search(depth - 1, ply + 1, -beta, -alpha)
            } else {
                // Late quiet moves are searched shallower first (`reduction`),
                // and every later move with a null window: a move that
                // beats alpha is searched again in full.
                let makes_four = four_cell || self.fours[me.index()] > fours_before;
                let reduction = self.reduction(depth, i, front, makes_four, null_window);
                let mut v = -self.search(depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
                if v > alpha && reduction > 0 && !self.aborted {
                    v = -self.search(depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if v > alpha && v < beta && !self.aborted {
                    v = -self.search(depth - 1, ply + 1, -beta, -alpha);
                }
                v
            };
            self.unapply(sq, me);
            if self.aborted {
                return 0;
            }
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
        self.record(key, (depth, ply), (alpha_in, beta), best, best_move);
        best
    }

    /// The window an iteration `depth` plies deep searches the root in,
    /// after an iteration that found `last` (`None`: the first): where the
    /// pattern board is the only board, from [`ASPIRATION_DEPTH`] plies,
    /// [`ASPIRATION_WINDOW`] either side of `last`; else every value.
    fn aspiration_window(&self, depth: u32, last: Option<i32>) -> (i32, i32) {
        match last {
            Some(v) if self.one_board && depth >= ASPIRATION_DEPTH && v.abs() < MATE_BOUND => {
                (v - ASPIRATION_WINDOW, v + ASPIRATION_WINDOW)
            }
            _ => (-WIN - 1, WIN + 1),
        }
    }

    /// One iteration over the root moves `root` (best first), `depth`
    /// plies deep, within `window` (below, above): the best move that
    /// beat the window's lower end, its value and its place in `root`
    /// (`None`: none did). A move that reaches the upper end opens the
    /// window above (`window.1` becomes every value) and is searched
    /// again. Once the budget runs out, a later move that beat the best
    /// so far is returned with the value that showed it.
    fn search_root(
        &mut self,
        root: &[(i32, Square)],
        depth: u32,
        window: &mut (i32, i32),
    ) -> Option<(Square, i32, usize)> {
        let me = self.turn;
        let d = depth as i32 - 1;
        let mut alpha = window.0;
        let mut found = None;
        for (i, &(_, sq)) in root.iter().enumerate() {
            self.apply(sq, me);
            let mut v = if i == 0 {
                -self.search(d, 1, -window.1, -alpha)
            } else {
                // Later moves only have to be shown worse (null window);
                // one that is not is searched again in full.
                let v = -self.search(d, 1, -alpha - 1, -alpha);
                if v > alpha && !self.aborted {
                    let full = -self.search(d, 1, -window.1, -alpha);
                    if self.aborted {
                        // It beat the best so far: play it even without
                        // its exact value.
                        found = Some((sq, v, i));
                    }
                    full
                } else {
                    v
                }
            };
            // At or above a window still bounded above: a bound, not a
            // value. Open the window above and search this move again.
            if v >= window.1 && window.1 <= WIN && !self.aborted {
                window.1 = WIN + 1;
                let full = -self.search(d, 1, -window.1, -alpha);
                if self.aborted {
                    found = Some((sq, v, i));
                } else {
                    v = full;
                }
            }
            self.unapply(sq, me);
            if self.aborted {
                break;
            }
            if v > alpha {
                alpha = v;
                found = Some((sq, v, i));
            }
        }
        found
    }

    /// Iterative deepening over the root moves `root` (best first, at
    /// least two) of a position with `empty_cells` empty cells: the move to
    /// play and its value. Stops at the budget, the depth cap, a decided
    /// value, or a depth that fills the board.
    pub(super) fn deepen(
        &mut self,
        root: &mut [(i32, Square)],
        empty_cells: usize,
    ) -> (Square, i32) {
        let n = root.len();
        let mut best = (root[0].1, 0);
        let mut stable = 0u32;
        let mut last_value: Option<i32> = None;
        let max_depth = match self.budget.max_depth {
            0 => MAX_PLY,
            d => d.min(MAX_PLY),
        };
        for depth in 1..=max_depth {
            let mut window = self.aspiration_window(depth, last_value);
            let iter_best = loop {
                let found = self.search_root(&root[..n], depth, &mut window);
                if found.is_some() || self.aborted || window.0 < -WIN {
                    break found;
                }
                // Every move at or below the window: open it below and
                // search the iteration again.
                window.0 = -WIN - 1;
            };
            if self.aborted {
                // A partial iteration still counts if its best beats the
                // previous one's move as searched so far (searched first).
                if let Some((sq, v, i)) = iter_best {
                    if i > 0 {
                        best = (sq, v);
                    }
                }
                break;
            }
            self.stats.depth = depth;
            if let Some((sq, v, i)) = iter_best {
                stable = if sq == best.0 && last_value.is_some() {
                    stable + 1
                } else {
                    1
                };
                best = (sq, v);
                // Best move first next time.
                let item = root[i];
                for j in (1..=i).rev() {
                    root[j] = root[j - 1];
                }
                root[0] = item;
            }
            if best.1.abs() >= MATE_BOUND || depth as usize >= empty_cells {
                break;
            }
            let drop = last_value.map_or(0, |last| (last - best.1).max(0));
            last_value = Some(best.1);
            if let Some(done) = self.budget.iteration_done {
                let it = super::Iteration {
                    depth,
                    value: best.1,
                    stable,
                    drop,
                };
                if done(&it) {
                    break;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_boards::{board, engine};
    use super::FUTILITY_MARGIN;
    use crate::Position;

    /// Where shapes are kept, a null-window node a few plies deep whose
    /// evaluation is far above beta returns it without a search; not in a
    /// full window, not far above, not when the opponent has an open three
    /// to answer, and never on the console's boards.
    #[test]
    fn a_quiet_node_far_above_beta_is_not_searched() {
        // Searches `pos` `depth` plies deep with beta `lead` margins below
        // its evaluation, in a null window (or a wider one): nodes visited,
        // value, evaluation.
        let search = |pos: &Position, depth: i32, lead: i32, width: i32| {
            let mut e = engine(pos);
            let stand = e.static_eval();
            let beta = stand - lead * FUTILITY_MARGIN;
            let v = e.search(depth, 1, beta - width, beta);
            (e.stats.nodes, v, stand)
        };
        // X to move, two open twos against O's scattered stones.
        let ahead = board(&[
            (6, "......xx......."),
            (8, "......xx......."),
            (0, "o.............o"),
            (14, "o.............o"),
        ]);
        let (nodes, v, stand) = search(&ahead, 3, 3, 1);
        assert_eq!((nodes, v), (1, stand));
        // One more ply needs a larger lead: searched.
        assert!(search(&ahead, 4, 3, 1).0 > 1);
        // A full window: searched.
        assert!(search(&ahead, 3, 3, 100).0 > 1);
        // O has an open three X must answer: searched.
        let threatened = board(&[
            (6, "......xx......."),
            (8, "......xx......."),
            (11, "....ooo........"),
            (0, "o.............."),
        ]);
        assert!(search(&threatened, 1, 8, 1).0 > 1);
        // The console's 9x9: searched.
        let nine = "o.......o/........./..xx...../........./..xx...../........./........./........./o.......o";
        let small = Position::from_board(nine, Some(5)).unwrap();
        assert!(search(&small, 1, 8, 1).0 > 1);
    }

    /// Where the pattern board is the only board, a null-window node
    /// skips quiet moves past the first `2 + depth` once a move that does
    /// not lose is known; moves that make an open three or a four, full
    /// windows, the table's and killers' moves and the console's boards
    /// are never cut.
    #[test]
    fn late_quiet_moves_are_cut_at_null_window_nodes() {
        use crate::pattern::ThreatClass::{Four, OpenThree, OpenTwo};
        let lost = -(super::WIN - 5);
        // (depth, move index, table and killer moves, null window, best so
        // far, class for the side to move) -> cut.
        let cases = [
            ((1, 3, 0, true, 0, Some(OpenTwo)), true),
            ((1, 2, 0, true, 0, Some(OpenTwo)), false),
            ((4, 6, 0, true, -900, Some(OpenTwo)), true),
            ((4, 5, 0, true, 0, Some(OpenTwo)), false),
            ((1, 3, 0, false, 0, Some(OpenTwo)), false),
            ((1, 3, 0, true, lost, Some(OpenTwo)), false),
            ((1, 3, 0, true, 0, Some(OpenThree)), false),
            ((1, 3, 0, true, 0, Some(Four)), false),
            ((1, 3, 4, true, 0, Some(OpenTwo)), false),
            ((1, 3, 0, true, 0, None), false),
        ];
        for ((depth, i, front, null, best, class), cut) in cases {
            assert_eq!(
                super::prunes_late_quiet(depth, i, front, null, best, class),
                cut,
                "{depth} {i} {front} {null} {best} {class:?}"
            );
        }
    }

    /// Past the horizon, where the pattern board is the only board, only
    /// the best four of a node is played out: with two closed threes,
    /// one four and its block, then one four of the other three and its
    /// block (4 nodes). On the console's 9x9 the best two of each node
    /// are, so more.
    #[test]
    fn past_the_horizon_one_board_plays_out_its_best_four() {
        let horizon = |pos: &Position| {
            let mut e = engine(pos);
            e.fours_only(0, 1, -super::WIN, super::WIN);
            e.stats.nodes
        };
        let fifteen = board(&[
            (3, "oxxx..........."),
            (9, "oxxx..........."),
            (6, "...........o.o."),
            (12, "........o.o...."),
        ]);
        assert_eq!(horizon(&fifteen), 4);
        let nine = "oxxx...../........./o.......o/........./........./......o.o/........./oxxx...../.........";
        let nodes = horizon(&Position::from_board(nine, Some(5)).unwrap());
        assert!(nodes > 4, "{nodes}");
    }

    /// Where the pattern board is the only board, an iteration from the
    /// fifth ply searches the root within a window around the value
    /// before; a value that falls out of it is searched again, not
    /// taken for a bound: above it, the window opens and the move gets
    /// its value in full; below it, no move is returned (the deepening
    /// then opens the window below). Elsewhere, and before the fifth
    /// ply or after a mate, every value is in the window.
    #[test]
    fn a_root_value_out_of_the_aspiration_window_is_searched_again() {
        use super::{Square, ASPIRATION_WINDOW, MATE_BOUND, WIN};
        let pos = board(&[
            (6, "......xo......."),
            (7, ".....xxo......."),
            (8, "......o........"),
        ]);
        let root_search = |window: (i32, i32)| {
            let mut e = engine(&pos);
            let mut root = [(0, Square::from_index(0)); 32];
            let n = e.candidates(&mut root, true);
            let mut w = window;
            let found = e.search_root(&root[..n], 3, &mut w);
            (found.map(|(sq, v, _)| (sq, v)), w)
        };
        let all = (-WIN - 1, WIN + 1);
        let (full, _) = root_search(all);
        let (_, v) = full.unwrap();
        // A window far below the value: opened above, the same answer.
        let (high, w) = root_search((v - 3000, v - 2000));
        assert_eq!((high, w.1), (full, WIN + 1));
        // Far above it: nothing beats its lower end.
        assert_eq!(root_search((v + 2000, v + 3000)).0, None);
        // Where the window applies.
        let e = engine(&pos);
        assert_eq!(
            e.aspiration_window(5, Some(40)),
            (40 - ASPIRATION_WINDOW, 40 + ASPIRATION_WINDOW)
        );
        assert_eq!(e.aspiration_window(4, Some(40)), all);
        assert_eq!(e.aspiration_window(5, None), all);
        assert_eq!(e.aspiration_window(5, Some(MATE_BOUND + 3)), all);
        let nine = "........./........./........./....x..../....o..../........./........./........./.........";
        let small = engine(&Position::from_board(nine, Some(5)).unwrap());
        assert_eq!(small.aspiration_window(5, Some(40)), all);
    }

    /// Where shapes are kept, late moves are reduced by
    /// `ln(depth) * ln(move number)` plies (one more at null-window
    /// nodes), leaving at least one; moves that make a four, the first two
    /// and the table's and killers' moves are searched in full. Elsewhere
    /// one ply, from the fourth move at depth 3.
    #[test]
    fn late_moves_are_searched_shallower() {
        let large = engine(&board(&[(7, ".......x.......")]));
        // (depth, move index, moves from the table and killers, makes a
        // four, null window) -> plies.
        let cases = [
            ((10, 5, 0, false, false), 4), // ln 10 * ln 6 = 4.1
            ((10, 5, 0, false, true), 5),
            ((4, 2, 0, false, false), 1), // ln 4 * ln 3 = 1.5
            ((4, 2, 0, false, true), 2),
            ((2, 11, 0, false, false), 1), // 1.7, one ply left
            ((2, 11, 0, false, true), 1),
            ((10, 5, 0, true, true), 0),
            ((10, 1, 0, false, true), 0),
            ((10, 2, 3, false, true), 0),
            ((1, 11, 0, false, true), 0),
        ];
        for ((depth, i, front, four, null), plies) in cases {
            assert_eq!(large.reduction(depth, i, front, four, null), plies);
        }
        let nine = "........./........./........./........./....x..../........./........./........./.........";
        let small = engine(&Position::from_board(nine, Some(5)).unwrap());
        assert_eq!(small.reduction(10, 5, 0, false, true), 1);
        assert_eq!(small.reduction(2, 5, 0, false, true), 0);
        assert_eq!(small.reduction(3, 2, 0, false, false), 0);
    }
}
