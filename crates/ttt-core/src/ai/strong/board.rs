//! What the search asks of a board: one trait, [`SearchBoard`], and two
//! kinds of board that implement it, each in its own folder.
//!
//! * The line-window board (`window/`): for every k-cell line window, the
//!   marks of each side in it, kept move by move; threats are windows
//!   missing one or two marks, the evaluation and the move order are sums
//!   over windows. Any rules: the console's boards (up to 9x9), k other
//!   than 5, renju.
//! * The pattern board (`shape/`): for every empty cell and side, what a
//!   stone there makes on each of its four lines (open three, four...;
//!   [`crate::pattern`]), kept move by move; threats, exact replies, the
//!   evaluation and the move order come from those patterns. Five in a
//!   row (five or more, or exactly five) on boards larger than 9x9, not
//!   renju.
//!
//! The search (`search/`), the threat searches (`threat_search/`) and the
//! tactics judge (`proof.rs`) are generic over the board: what differs
//! between the two kinds, down to how hard the search prunes
//! ([`Selectivity`]), is asked of the board type, never tested inside
//! them.
use crate::pattern::ThreatClass;
use crate::{Mark, Square};

use super::rows::Rows;
use super::stones::Stones;

/// A board the search plays moves on: the stones, what threatens, what a
/// position is worth, which moves come first, and how selective the
/// search may be on it ([`Selectivity`]).
///
/// "Four": a stone that leaves one cell completing a winning line; "five
/// cell" (winning cell): an empty cell that completes one; "fork": a
/// stone that makes two five cells at once (an open four, or two fours).
///
/// Each kind of board is made by its own `new` (the pattern board's only
/// where it fits the rules).
pub(super) trait SearchBoard: Selectivity {
    /// The stones, the side to move and the hash.
    fn stones(&self) -> &Stones;

    /// Gives the move to `mark` (the threat searches let one side play
    /// twice, and put the turn back after trying a move).
    fn set_turn(&mut self, mark: Mark);

    /// Puts `mark` on the empty `sq` (the other side moves next); returns
    /// whether it completes a winning line.
    fn apply(&mut self, sq: Square, mark: Mark) -> bool;

    /// Takes back `mark`'s stone on `sq`, the last one applied (`mark`
    /// moves next).
    fn unapply(&mut self, sq: Square, mark: Mark);

    /// What the position is worth to the side to move (positive: good for
    /// it); the scale of [`Selectivity`]'s margins.
    fn static_eval(&self) -> i32;

    /// How many of [`static_eval`](Self::static_eval)'s units make a
    /// logit of win rate, where the evaluation was fitted to win rates
    /// (`None`: a score with no such meaning).
    const LOGIT: Option<i32>;

    /// The empty cells where `mark` completes a winning line: (the first in
    /// square order, how many; at most 2 counted).
    fn winning_cells(&self, mark: Mark) -> (Option<Square>, u32);

    /// Whether side `m` (a mark's index) has a cell that makes a four.
    fn has_four_cells(&self, m: usize) -> bool;

    /// Side `m`'s cells: `(where a stone makes a four, fork candidates)`.
    /// The pattern board's fork candidates are exactly its forks; the
    /// window board's are the cells shared by two of its three-windows,
    /// which include false forks (`x.xx.x`) that
    /// [`fork_cell`](Self::fork_cell) weeds out.
    fn four_cells(&self, m: usize) -> (Rows, Rows);

    /// The first of the fork candidates `forks` (from
    /// [`four_cells`](Self::four_cells)) where a stone of `me` really
    /// makes two five cells.
    fn fork_cell(&mut self, me: Mark, forks: &Rows) -> Option<Square>;

    /// Plies to a win the side to move has without a search, when the
    /// opponent cannot make a four: 3 with a fork, and on the pattern board
    /// 5 with a four-three cell (the block of its four leaves an open
    /// three).
    fn static_win(&mut self) -> Option<i32>;

    /// Whether a stone of `mark` on the empty `sq` makes a three (the cells
    /// where a continuous-threat search tries a three-threat).
    fn makes_three(&self, sq: Square, mark: Mark) -> bool;

    /// Whether `mark` has forbidden moves (black under renju).
    fn forbids(&self, mark: Mark) -> bool;

    /// Whether `mark` may not play the empty `sq` (renju's forbidden moves
    /// of black).
    fn is_forbidden(&self, sq: Square, mark: Mark) -> bool;

    /// The cells worth searching for the side to move: the empty cells
    /// within two steps of a stone, or against a threat that must be
    /// answered (the opponent's open three, and on the pattern board its
    /// four-three) only its answers and our own fours. All zero: nothing
    /// saves the position.
    fn candidate_cells(&self) -> Rows;

    /// The key that orders side `m`'s moves (best first): the candidates,
    /// the fours past the horizon and in the threat searches.
    fn order_key(&self, sq: Square, m: usize) -> i32;

    /// What a stone of `mark` on the empty `sq` makes, where the board
    /// knows it before the move is played (the pattern board); `None`
    /// elsewhere.
    fn class_before_move(&self, sq: Square, mark: Mark) -> Option<ThreatClass>;

    /// A count of side `m`'s fours that grows when one of its moves makes
    /// a four (the window board's four-windows), so that the search can
    /// tell a four after playing it; 0 on boards that tell fours by
    /// [`class_before_move`](Self::class_before_move).
    fn counted_fours(&self, m: usize) -> u32;
}

/// How selective the search is on a kind of board: where it searches
/// less than the full tree. Each board's choices live in its `policy.rs`.
pub(super) trait Selectivity {
    /// The aspiration windows of the root, if any: from which iteration,
    /// and how far either side of the value before.
    const ASPIRATION: Option<Aspiration>;

    /// Fours searched at a node past the horizon, at most (the best by
    /// [`order_key`](SearchBoard::order_key); 0: none, the static
    /// evaluation is the value). None on any board under "exactly k",
    /// where a four may make an overline (the search's rule).
    const HORIZON_FOURS: usize;

    /// Whether a node whose [`BEAM`] best moves all lose searches the
    /// rest of its candidates before it reports a loss: without it a
    /// defence ranked past the beam is never tried, and the loss (and
    /// the opponent's win above it) may be false.
    ///
    /// [`BEAM`]: super::search::picker::BEAM
    const LOST_WIDENS: bool;

    /// How many plies shallower the `i`-th move (from 0) of a node `depth`
    /// plies deep is searched first, `front` moves having come from the
    /// table and the killers; `makes_four`: the move makes a four;
    /// `null_window`: the node expects to fail one way.
    fn reduction(depth: i32, i: usize, front: usize, makes_four: bool, null_window: bool) -> i32;

    /// Whether the `i`-th move (from 0) of a node `depth` plies deep is
    /// not searched at all, `front` moves having come from the table and
    /// the killers, `best` the value of the moves so far, `class` what the
    /// move makes for the side to move (where the board knows it).
    fn prunes_late_quiet(
        depth: i32,
        i: usize,
        front: usize,
        null_window: bool,
        best: i32,
        class: Option<ThreatClass>,
    ) -> bool;

    /// What the rules below read of a node: its [`Estimate`], taken once
    /// a node. `None` (the default): the board never prunes by its
    /// evaluation, and nothing is read.
    fn estimate(&self) -> Option<Estimate> {
        None
    }

    /// A value for a node `depth` plies deep, searched with the window
    /// (`alpha`, `beta`), that stands without a search (reverse futility);
    /// `None`: search it.
    fn futile(_depth: i32, _alpha: i32, _beta: i32, _node: Estimate) -> Option<i32> {
        None
    }

    /// Whether an expected cut node `depth` plies deep, searched with a
    /// null window at `beta`, stands so far above it that its quiet moves
    /// are searched a ply shallower (fail-high reduction).
    fn likely_fail_high(_depth: i32, _beta: i32, _node: Estimate) -> bool {
        false
    }

    /// Whether a null-window node `depth` plies deep stands so far below
    /// `alpha` that only its fours are searched (razoring).
    fn razors(_depth: i32, _alpha: i32, _node: Estimate) -> bool {
        false
    }
}

/// What a node's pruning rules ([`Selectivity::futile`], `razors`,
/// `likely_fail_high`) read of it, taken once before any of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Estimate {
    /// What the node is worth to the side to move without a search: the
    /// static evaluation.
    pub(super) value: i32,
    /// Whether the opponent has an open three or a four-three the side to
    /// move must answer (its threats decide the node, not the value).
    pub(super) threatened: bool,
}

/// An aspiration window at the root: from this iteration on, the root is
/// searched within `half_width` either side of the value the iteration
/// before found (and searched again, with the window opened on that side,
/// when a value falls out of it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Aspiration {
    pub(super) from_depth: u32,
    pub(super) half_width: i32,
}
