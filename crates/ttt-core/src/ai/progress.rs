//! Progress reports of the exact searches, for a caller's progress line.

/// What the solver reports while it works (for `ttt solve`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Moves of the root position finished so far.
    pub done: u32,
    /// Moves of the root position to search (after forced-move pruning).
    pub total: u32,
    /// Positions visited so far.
    pub nodes: u64,
    /// Transposition-table hits so far.
    pub tt_hits: u64,
}
