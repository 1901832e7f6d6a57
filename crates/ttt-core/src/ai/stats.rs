//! What a search counts as it goes.

/// Counters from the last search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions visited.
    pub nodes: u64,
    /// Transposition-table probes that found the position.
    pub tt_hits: u64,
    /// Depth (plies) of the last completed iteration (`strong`); 0 for exact solves.
    pub depth: u32,
}
