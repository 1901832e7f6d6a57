//! The search worker: alpha-beta over one kind of board, generic over it
//! ([`SearchBoard`]).
//!
//! * `node.rs`: the node search (negamax alpha-beta with the tactics of
//!   every node) and the fours played past the horizon.
//! * `deepen.rs`: iterative deepening over the root moves, the root
//!   iteration and its aspiration window.
//! * `picker.rs`: which moves a node searches, in what order (candidates,
//!   the table's move and the killers first).
//! * `table.rs`: the transposition table as the search reads and writes
//!   it.
//!
//! What happens at the root before the deepening (tactics, the threat
//! searches) is `root.rs`'s, one level up: the threat searches build on
//! the board, not on this worker.
use super::board::SearchBoard;
#[cfg(test)]
use super::budget::Budget;
use super::budget::Meter;
use super::score::MAX_PLY;
use crate::ai::tt::{TtEntry, NO_MOVE};
use crate::rng::Rng;

mod deepen;
mod node;
pub(super) mod picker;
mod table;

/// Killer moves: per ply, two quiet moves that caused a cut-off there.
type Killers = [[u16; 2]; MAX_PLY as usize + 2];

/// One search of one position: the board it plays on, what it has spent,
/// the table lent by the caller, the killers and the seed's generator.
pub(super) struct Search<'a, B> {
    pub(super) meter: Meter<'a>,
    /// The transposition table lent by the caller (may be empty): best
    /// moves and bounds of positions already searched, also across moves.
    tt: &'a mut [TtEntry],
    /// Two quiet moves per ply that caused a cut-off, tried early at other
    /// nodes of the same ply.
    killers: Killers,
    /// Perturbs the order of equal root moves.
    pub(super) rng: Rng,
    pub(super) board: B,
}

impl<'a, B: SearchBoard> Search<'a, B> {
    /// A search on `board` within `budget`, keeping what it learns in
    /// `tt`.
    #[cfg(test)]
    pub(super) fn new(budget: Budget<'a>, tt: &'a mut [TtEntry], rng: Rng, board: B) -> Self {
        Search::with_meter(Meter::new(budget), tt, rng, board)
    }

    /// A search on `board` spending from `meter` (what the making of the
    /// board spent, its deadline checks), keeping what it learns in `tt`.
    pub(super) fn with_meter(meter: Meter<'a>, tt: &'a mut [TtEntry], rng: Rng, board: B) -> Self {
        Search {
            meter,
            tt,
            killers: [[NO_MOVE; 2]; MAX_PLY as usize + 2],
            rng,
            board,
        }
    }
}

#[cfg(test)]
impl<B: SearchBoard> Search<'static, B> {
    /// A search on `board` with no node limit and no table, seed 0.
    pub(super) fn unlimited(board: B) -> Self {
        Search::new(Budget::nodes(u64::MAX), &mut [], Rng::new(0), board)
    }
}
