//! What one search may spend: nodes, depth and a deadline. `no_std` has no
//! clock, so the deadline is a callback of the caller's; the node count is
//! the deterministic limit (same budget, same seed: same move).
use crate::ai::stats::SearchStats;
use crate::Square;

/// Limits for a search. The search stops at whichever comes first.
#[derive(Copy, Clone)]
pub struct Budget<'a> {
    /// Positions to visit at most (per move).
    pub max_nodes: u64,
    /// Deepest iteration in plies (0: no limit).
    pub max_depth: u32,
    /// Called now and then (every [`deadline_every`](Budget::deadline_every)
    /// nodes, and between the stretches of reading the position into the
    /// pattern board before the first node); returning `true` stops the
    /// search (a deadline measured by the caller's clock).
    pub deadline_check: Option<&'a dyn Fn() -> bool>,
    /// Nodes between two calls of [`deadline_check`](Budget::deadline_check)
    /// (1,024 from [`Budget::nodes`]; 0 counts as 1). A caller that does
    /// work of its own in the callback asks more often: the console draws a
    /// frame there when one is due, and a node of the pattern board costs
    /// it about 0.4 ms.
    pub deadline_every: u32,
    /// Called after each completed iteration of the deepening with what it
    /// found; returning `true` plays its move without a deeper iteration:
    /// the caller's time management (a settled move needs less time than
    /// one that keeps changing; see [`time`](crate::ai::time)).
    pub iteration_done: Option<&'a dyn Fn(&Iteration) -> bool>,
}

/// What a completed iteration of the deepening found: what a caller's time
/// management weighs (see [`Budget::iteration_done`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Plies searched (forced replies not counted).
    pub depth: u32,
    /// The best move's value for the side to move.
    pub value: i32,
    /// Completed iterations in a row, this one included, that chose the
    /// same move (1: the move changed, or this is the first iteration).
    pub stable: u32,
    /// How much the value fell since the previous iteration (0 when it
    /// held or rose): a falling value means trouble the search is still
    /// finding.
    pub drop: i32,
    /// Nodes searched so far for this move (all iterations, threat searches
    /// included).
    pub nodes: u64,
    /// The deepest ply a node was visited at so far (forced replies and
    /// fours past the horizon make it deeper than `depth`).
    pub seldepth: u32,
    /// The line the search expects: the best move, then the replies the
    /// table holds for the positions after it (as long as they stay
    /// legal, up to [`Line::MAX`] moves).
    pub pv: Line,
    /// How many units of `value` make a logit of win rate, where the
    /// board's evaluation was fitted to win rates (the pattern board);
    /// `None` elsewhere.
    pub logit: Option<i32>,
}

impl Iteration {
    /// The game's end the value announces, in plies from the searched
    /// position: positive when the side to move wins with its move
    /// `plies` from now (1: this move), negative when it loses; `None`
    /// when the value is an evaluation.
    pub fn mate(&self) -> Option<i32> {
        use super::score::{MATE_BOUND, WIN};
        if self.value >= MATE_BOUND {
            Some(WIN - self.value)
        } else if self.value <= -MATE_BOUND {
            Some(-(WIN + self.value))
        } else {
            None
        }
    }
}

/// A line of moves from the searched position, at most [`Line::MAX`]
/// long: a principal variation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Line {
    moves: [Square; Line::MAX],
    len: u8,
}

impl Line {
    /// The longest line kept.
    pub const MAX: usize = 24;

    /// The empty line.
    pub const EMPTY: Line = Line {
        moves: [Square::from_index(0); Line::MAX],
        len: 0,
    };

    /// The moves, first to last.
    pub fn moves(&self) -> &[Square] {
        &self.moves[..usize::from(self.len)]
    }

    /// Adds `sq` at the end; `false` (changing nothing) once full.
    pub(super) fn push(&mut self, sq: Square) -> bool {
        let Some(slot) = self.moves.get_mut(usize::from(self.len)) else {
            return false;
        };
        *slot = sq;
        self.len += 1;
        true
    }
}

impl Budget<'_> {
    /// The default number of nodes per move for `strong`.
    pub const DEFAULT_NODES: u64 = 60_000;

    /// The default [`deadline_every`](Budget::deadline_every).
    pub const DEADLINE_EVERY: u32 = 1024;

    /// A budget of `max_nodes` nodes, no depth cap, no deadline.
    pub const fn nodes(max_nodes: u64) -> Budget<'static> {
        Budget {
            max_nodes,
            max_depth: 0,
            deadline_check: None,
            deadline_every: Budget::DEADLINE_EVERY,
            iteration_done: None,
        }
    }
}

impl Default for Budget<'_> {
    fn default() -> Self {
        Budget::nodes(Budget::DEFAULT_NODES)
    }
}

impl core::fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Budget")
            .field("max_nodes", &self.max_nodes)
            .field("max_depth", &self.max_depth)
            .field("deadline_check", &self.deadline_check.is_some())
            .field("deadline_every", &self.deadline_every)
            .field("iteration_done", &self.iteration_done.is_some())
            .finish()
    }
}

/// A search's spending against its [`Budget`]: the counters so far, and
/// whether it has stopped. The main search and the threat searches of one
/// move spend from the same meter.
pub(super) struct Meter<'a> {
    pub(super) budget: Budget<'a>,
    pub(super) stats: SearchStats,
    /// Set once the budget is spent: every search on this meter unwinds
    /// (its values are then 0 and not to be used).
    pub(super) aborted: bool,
    /// Checks left before the deadline is asked again.
    until_deadline: u32,
}

impl<'a> Meter<'a> {
    /// Nothing spent yet of `budget`.
    pub(super) fn new(budget: Budget<'a>) -> Meter<'a> {
        Meter {
            budget,
            stats: SearchStats::default(),
            aborted: false,
            until_deadline: budget.deadline_every.max(1),
        }
    }

    /// Asks the deadline callback now, whatever
    /// [`Budget::deadline_every`] says, between stretches of work that
    /// visit no node (reading the position into the board): the console
    /// runs its frames from the callback, and that work alone would hold
    /// a frame up. Counts no node.
    pub(super) fn pause(&mut self) {
        if self.aborted {
            return;
        }
        if let Some(f) = self.budget.deadline_check {
            self.aborted = f();
        }
    }

    /// Whether the search must stop: the node budget is spent, or the
    /// deadline callback (asked every [`Budget::deadline_every`] checks:
    /// one a node) says so. Once `true`, `true` for good.
    pub(super) fn exhausted(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.stats.nodes >= self.budget.max_nodes {
            self.aborted = true;
        } else if let Some(f) = self.budget.deadline_check {
            self.until_deadline -= 1;
            if self.until_deadline == 0 {
                self.until_deadline = self.budget.deadline_every.max(1);
                if f() {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }
}
