//! How selective the search is on the window board: little. Its move
//! order is a sum of window gains, good enough to reduce late quiet moves
//! by one ply but not to leave moves out; no aspiration, no futility, razoring or fail-high
//! reduction (the trait's defaults: nothing read, nothing pruned).
use super::super::board::{Aspiration, Selectivity};
use super::WindowBoard;
use crate::pattern::ThreatClass;

impl Selectivity for WindowBoard {
    const ASPIRATION: Option<Aspiration> = None;

    /// The two with the best ordering keys (all of them, a dozen where
    /// threes abound, are thousands of nodes under every leaf).
    const HORIZON_FOURS: usize = 2;

    /// No: the small boards' search (the console's up to 9x9) keeps its
    /// measured pace.
    const LOST_WIDENS: bool = false;

    /// One ply, from the fourth move at depth 3 and more (not for moves
    /// that make a four, nor the table's and killers' moves).
    #[inline]
    fn reduction(depth: i32, i: usize, front: usize, makes_four: bool, _null_window: bool) -> i32 {
        if makes_four {
            return 0;
        }
        i32::from(depth >= 3 && i >= front.max(3))
    }

    /// Never: every candidate is searched.
    #[inline(always)]
    fn prunes_late_quiet(
        _depth: i32,
        _i: usize,
        _front: usize,
        _null_window: bool,
        _best: i32,
        _class: Option<ThreatClass>,
    ) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One ply, from the fourth move at depth 3, whatever the window;
    /// never a move that makes a four; no move left out.
    #[test]
    fn late_moves_lose_one_ply_and_none_is_cut() {
        assert_eq!(WindowBoard::reduction(10, 5, 0, false, true), 1);
        assert_eq!(WindowBoard::reduction(10, 5, 0, false, false), 1);
        assert_eq!(WindowBoard::reduction(2, 5, 0, false, true), 0);
        assert_eq!(WindowBoard::reduction(3, 2, 0, false, false), 0);
        assert_eq!(WindowBoard::reduction(3, 3, 4, false, false), 0);
        assert_eq!(WindowBoard::reduction(10, 5, 0, true, true), 0);
        let quiet = Some(ThreatClass::OpenTwo);
        assert!(!WindowBoard::prunes_late_quiet(1, 11, 0, true, 0, quiet));
    }
}
