//! What one search may spend: nodes, depth and a deadline. `no_std` has no
//! clock, so the deadline is a callback of the caller's; the node count is
//! the deterministic limit (same budget, same seed: same move).
use crate::ai::stats::SearchStats;

/// Limits for a search. The search stops at whichever comes first.
#[derive(Copy, Clone)]
pub struct Budget<'a> {
    /// Positions to visit at most (per move).
    pub max_nodes: u64,
    /// Deepest iteration in plies (0: no limit).
    pub max_depth: u32,
    /// Called now and then; returning `true` stops the search (a deadline
    /// measured by the caller's clock).
    pub deadline_check: Option<&'a dyn Fn() -> bool>,
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
}

impl Budget<'_> {
    /// The default number of nodes per move for `strong`.
    pub const DEFAULT_NODES: u64 = 60_000;

    /// A budget of `max_nodes` nodes, no depth cap, no deadline.
    pub const fn nodes(max_nodes: u64) -> Budget<'static> {
        Budget {
            max_nodes,
            max_depth: 0,
            deadline_check: None,
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
}

impl<'a> Meter<'a> {
    /// Nothing spent yet of `budget`.
    pub(super) fn new(budget: Budget<'a>) -> Meter<'a> {
        Meter {
            budget,
            stats: SearchStats::default(),
            aborted: false,
        }
    }

    /// Whether the search must stop: the node budget is spent, or the
    /// deadline callback (asked every 1,024 nodes) says so. Once `true`,
    /// `true` for good.
    pub(super) fn exhausted(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.stats.nodes >= self.budget.max_nodes {
            self.aborted = true;
        } else if self.stats.nodes & 1023 == 0 {
            if let Some(f) = self.budget.deadline_check {
                if f() {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }
}
