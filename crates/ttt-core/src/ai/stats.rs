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
    /// The deepest ply from the root a node of `strong`'s main search was
    /// visited at (forced replies and fours past the horizon included).
    pub seldepth: u32,
    /// Nodes of `strong`'s main search whose moves were searched.
    pub interior: u64,
    /// Moves searched at those nodes (over `interior`: the moves a node
    /// searches on average, 1 when the first always cuts).
    pub children: u64,
    /// Nodes of the threat searches (the root's VCF and VCT).
    pub threat_nodes: u64,
    /// Nodes of `strong`'s main search at its nominal depth (the leaves:
    /// most return the evaluation, the rest play fours past the horizon).
    pub leaf_nodes: u64,
    /// Nodes of `strong`'s main search past its nominal depth: the fours
    /// played past the horizon and the blocks that answer them.
    pub horizon_nodes: u64,
}
