//! `strong`: a search engine for boards too large to solve (9x9 k=5,
//! 15x15 k=5, ...), usable on any board.
//!
//! The engine is laid out as strong chess and gomoku engines are: the
//! board, the search worker, the move picker, the threat searches, the
//! evaluation and the time management apart.
//!
//! * [`Engine`] (this file): the public face. It picks the board a
//!   position is searched on, answers an empty board without a search
//!   (the centre, or on even sides a cell next to it, picked by the seed)
//!   and runs the search.
//! * `board.rs`: what the search asks of a board (`SearchBoard`: the
//!   stones, threats, evaluation, move keys; `Selectivity`: how hard the
//!   search may prune on it). Two kinds of board implement it:
//!   * `window/`: k-cell line windows counted move by move; any rules (the
//!     console's boards up to 9x9, k other than 5, renju).
//!   * `shape/`: the pattern board ([`crate::pattern`]): every empty
//!     cell's line patterns and threat class, kept move by move; five in
//!     a row on boards larger than 9x9, not renju. Its evaluation and move
//!     order are weights fitted to Rapfi's verdicts and moves
//!     (`shape/weights/`).
//! * `stones.rs`: the marks, the hash and the side to move, as both boards
//!   keep them.
//! * `root.rs`: the root: tactics first (a win in one is played, a lone
//!   threat blocked), the root moves, the threat searches' verdict (an own
//!   continuous-four or continuous-threat win is played at once; against
//!   the opponent's continuous fours only the moves that stop them are
//!   kept), then the deepening.
//! * `search/`: the search worker, generic over the board: iterative
//!   deepening (`deepen.rs`), negamax alpha-beta with the board's tactics
//!   at every node and fours past the horizon (`node.rs`), the move picker
//!   (`picker.rs`), the transposition table lent by the caller
//!   (`table.rs`; empty works: the console may lend none).
//! * `threat_search/`: VCF and VCT, on any board, and their verdict at the
//!   root.
//! * `proof.rs`: the same threat searches as a judge ([`ThreatProbe`]), for
//!   the tactics suite.
//! * `budget.rs`: what a search may spend ([`Budget`]: nodes, depth, a
//!   deadline callback; no clock in `no_std`), what it has spent, and
//!   what each completed iteration tells the caller ([`Iteration`]:
//!   depth, value, nodes, deepest ply and the expected [`Line`], which
//!   `pbrain-ttt` reports in MESSAGE lines).
//!   How long a move may take under a game clock is
//!   [`time`](crate::ai::time)'s.
//!
//! The move of the last completed iteration is played (same budget, same
//! seed: same move). At the root the seed perturbs the order of equal
//! moves, so equal moves differ between seeds.
use super::stats::SearchStats;
use super::tt::TtEntry;
use crate::pattern::PatternUndo;
use crate::rng::Rng;
use crate::{Position, Rules, Square};
use board::SearchBoard;
use budget::Meter;
use search::Search;
use shape::ShapeBoard;
use window::WindowBoard;

mod board;
mod budget;
mod proof;
mod root;
mod rows;
mod score;
mod search;
mod shape;
mod stones;
mod threat_search;
mod window;

#[cfg(test)]
mod test_boards;
#[cfg(test)]
mod tests;

pub use budget::{Budget, Iteration, Line};
pub use proof::{Threat, ThreatProbe, DELAYS};
pub use shape::TAKE_BACKS;

/// The search engine. Made per move by [`Player`](super::Player); usable
/// directly for analysis.
pub struct Engine<'a> {
    budget: Budget<'a>,
    /// The transposition table lent by the caller (may be empty): best
    /// moves and bounds of positions already searched, also across moves.
    tt: &'a mut [TtEntry],
    /// The pattern board's take-back records lent by the caller; `None`:
    /// the engine makes [`TAKE_BACKS`] of its own each search.
    take_backs: Option<&'a mut [PatternUndo]>,
    rng: Rng,
    stats: SearchStats,
}

impl<'a> Engine<'a> {
    /// An engine with this budget; `seed` perturbs the order of equal moves.
    pub fn new(budget: Budget<'a>, seed: u64) -> Engine<'a> {
        Engine::with_table(budget, seed, &mut [])
    }

    /// An engine that keeps what it learns in `tt` (entries of other
    /// engines, other rules or earlier moves may be there: keys tell them
    /// apart). The table makes the search deeper, not different in kind:
    /// an empty one works.
    pub fn with_table(budget: Budget<'a>, seed: u64, tt: &'a mut [TtEntry]) -> Engine<'a> {
        Engine {
            budget,
            tt,
            take_backs: None,
            rng: Rng::new(seed),
            stats: SearchStats::default(),
        }
    }

    /// Lends the pattern board's take-back records (one a stone of the
    /// line searched, from the root; [`TAKE_BACKS`] is what the engine
    /// makes otherwise, any number works): a caller that searches move
    /// after move lends them once, and no search makes or copies them
    /// (about 32 KB, which costs the console milliseconds without a check
    /// of the deadline). Fewer records make the search slower, not
    /// different: the same moves for the same budget.
    pub fn set_take_backs(&mut self, records: &'a mut [PatternUndo]) {
        self.take_backs = Some(records);
    }

    /// Counters of the last search.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The move to play in `pos` (`None` when the game is over), and its
    /// score (positive: good for the side to move).
    pub fn analyse(&mut self, pos: &Position) -> Option<(Square, i32)> {
        self.stats = SearchStats::default();
        if pos.outcome().is_over() {
            return None;
        }
        if pos.mark_count() == 0 {
            return Some((self.central_cell(pos.rules()), 0));
        }
        if ShapeBoard::fits(pos.rules()) {
            self.analyse_shapes(pos)
        } else {
            self.analyse_windows(pos)
        }
    }

    /// [`analyse`](Self::analyse) on the pattern board. Each kind of board
    /// has its own copy of the search, kept out of line: only one kind's
    /// board and search are on the stack at a time (the console's stack is
    /// small).
    ///
    /// Reading the position into the pattern board asks the deadline
    /// callback between rows and stones (the console runs its frames from
    /// there), and so does each step after it up to the first node.
    #[inline(never)]
    fn analyse_shapes(&mut self, pos: &Position) -> Option<(Square, i32)> {
        match self.take_backs.take() {
            Some(lent) => {
                let found = self.analyse_shapes_with(pos, &mut *lent);
                self.take_backs = Some(lent);
                found
            }
            None => {
                let mut own = [const { PatternUndo::EMPTY }; TAKE_BACKS];
                self.analyse_shapes_with(pos, &mut own)
            }
        }
    }

    /// [`analyse_shapes`](Self::analyse_shapes) keeping the take-backs in
    /// `undo`.
    #[inline(always)]
    fn analyse_shapes_with(
        &mut self,
        pos: &Position,
        undo: &mut [PatternUndo],
    ) -> Option<(Square, i32)> {
        let mut meter = Meter::new(self.budget);
        let board = ShapeBoard::new_pausing(pos, undo, &mut || meter.pause());
        meter.pause();
        match board {
            Some(board) => self.analyse_on(board, pos, meter),
            None => self.analyse_windows(pos),
        }
    }

    /// [`analyse`](Self::analyse) on the window board.
    #[inline(never)]
    fn analyse_windows(&mut self, pos: &Position) -> Option<(Square, i32)> {
        self.analyse_on(WindowBoard::new(pos), pos, Meter::new(self.budget))
    }

    /// [`analyse`](Self::analyse) on `board`, made from `pos`, spending
    /// from `meter`.
    #[inline(always)]
    fn analyse_on<B: SearchBoard>(
        &mut self,
        board: B,
        pos: &Position,
        meter: Meter<'a>,
    ) -> Option<(Square, i32)> {
        let rng = self.rng.clone();
        let mut search = Search::with_meter(meter, &mut *self.tt, rng, board);
        search.meter.pause();
        let found = search.analyse(pos);
        self.stats = search.meter.stats;
        self.rng = search.rng;
        found
    }

    /// The opening move on an empty board: the centre, or on even sides one
    /// of the cells next to it, picked by the seed. Every gomoku engine opens
    /// there; a search of the empty board only drifts off it (edge effects of
    /// a shallow evaluation).
    fn central_cell(&mut self, rules: &Rules) -> Square {
        let nearest = rules
            .squares()
            .map(|sq| rules.distance_from_centre(sq))
            .min()
            .unwrap_or(0);
        let central = || {
            rules
                .squares()
                .filter(move |&sq| rules.distance_from_centre(sq) == nearest)
        };
        let pick = self.rng.below(central().count().max(1) as u32) as usize;
        central().nth(pick).unwrap_or_else(|| Square::from_index(0))
    }

    /// The move to play (`None` when the game is over).
    pub fn best_move(&mut self, pos: &Position) -> Option<Square> {
        self.analyse(pos).map(|(sq, _)| sq)
    }
}
