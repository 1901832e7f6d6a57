//! How selective the search is on the pattern board. Its move order is
//! good enough to reduce late moves more, leave late quiet moves out at
//! null-window nodes, prune quiet nodes far above beta, search only the
//! fours of nodes far below alpha near the horizon (razoring) and the
//! quiet moves of expected cut nodes far above beta a ply shallower
//! (fail-high reduction), the last two as Rapfi does; the aspiration
//! windows and the futility margin are on the evaluation's scale (a
//! win-rate logit was 1,500 when they were set).
use super::super::board::{Aspiration, Estimate, SearchBoard, Selectivity};
use super::super::score::MATE_BOUND;
use super::ShapeBoard;
use crate::pattern::{PatternUndo, ThreatClass};

/// `1000 ln(i)` for `i` up to 65 (0 for 0): the late-move reductions.
const LN_1000: [i32; 66] = [
    0, 0, 693, 1099, 1386, 1609, 1792, 1946, 2079, 2197, 2303, 2398, 2485, 2565, 2639, 2708, 2773,
    2833, 2890, 2944, 2996, 3045, 3091, 3135, 3178, 3219, 3258, 3296, 3332, 3367, 3401, 3434, 3466,
    3497, 3526, 3555, 3584, 3611, 3638, 3664, 3689, 3714, 3738, 3761, 3784, 3807, 3829, 3850, 3871,
    3892, 3912, 3932, 3951, 3970, 3989, 4007, 4025, 4043, 4060, 4078, 4094, 4111, 4127, 4143, 4159,
    4174,
];

/// Reverse futility pruning: a null-window node at most this many plies
/// deep whose static evaluation beats beta by [`FUTILITY_MARGIN`] per ply
/// is not searched. Rapfi prunes so at any depth with about a third of a
/// win-rate logit per ply; the margin is that slope on our evaluation's
/// scale as it was (a logit was 1,500).
const FUTILITY_DEPTH: i32 = 8;
/// See [`FUTILITY_DEPTH`].
pub(in crate::ai::strong) const FUTILITY_MARGIN: i32 = 500;

/// Move-count pruning: quiet moves searched at a null-window node `depth`
/// plies deep, at most this plus `depth` (so none is cut from 10 plies up,
/// past the beam of 12). Rapfi cuts every move past about
/// `(3 + depth^1.32) / 2` there (2 at one ply, 5 at four, 12 at ten).
const QUIET_MOVES_BASE: usize = 2;

impl<U: AsMut<[PatternUndo]>> Selectivity for ShapeBoard<U> {
    /// From the fifth ply, a third of a win-rate logit (as it was) either
    /// side of the value before.
    const ASPIRATION: Option<Aspiration> = Some(Aspiration {
        from_depth: 5,
        half_width: 500,
    });

    /// The best one. The leaves cost less than the window board's, so
    /// the tree goes deeper.
    const HORIZON_FOURS: usize = 1;

    /// Yes: a false loss deep in the tree is a false win at the root,
    /// where the search stops and plays it.
    const LOST_WIDENS: bool = true;

    /// By `ln(depth) * ln(i + 1)` plies from the third move (`i` = 2) on,
    /// the form chess and gomoku engines commonly use, and one ply more at
    /// a `null_window` node (expected to fail one way, as Rapfi reduces
    /// its non-PV nodes more), leaving at least one ply. Moves that make a
    /// four and the table's and killers' moves are not reduced.
    #[inline]
    fn reduction(depth: i32, i: usize, front: usize, makes_four: bool, null_window: bool) -> i32 {
        if makes_four || depth < 2 || i < front.max(2) {
            return 0;
        }
        let r = LN_1000[(depth as usize).min(65)] * LN_1000[(i + 1).min(65)] / 1_000_000;
        let r = if r > 0 && null_window { r + 1 } else { r };
        r.clamp(0, depth - 1)
    }

    /// Move-count pruning: at a null-window node `depth` plies deep, once
    /// a move that does not lose is known (`best`), the `i`-th candidate
    /// (from 0; `front` of them came from the table and the killers) is
    /// not searched when it is quiet for the side to move (`class`: makes
    /// no open three or four) and comes after the first
    /// [`QUIET_MOVES_BASE`] + `depth`. Threats are always searched: a win
    /// by threats is what a shallow look misses.
    #[inline]
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

    /// The static evaluation and whether the opponent has an open-four or
    /// four-three cell to answer.
    #[inline]
    fn estimate(&self) -> Option<Estimate> {
        Some(Estimate {
            value: self.static_eval(),
            threatened: self.threatens(self.stones.turn.other()),
        })
    }

    /// Reverse futility: at a null-window node of at most
    /// [`FUTILITY_DEPTH`] plies whose estimate beats `beta` by
    /// [`FUTILITY_MARGIN`] per ply, and where the opponent has nothing to
    /// answer, that estimate: the side to move is too far ahead for the
    /// search below to bring it under beta.
    #[inline]
    fn futile(depth: i32, alpha: i32, beta: i32, node: Estimate) -> Option<i32> {
        if beta - alpha > 1 || depth > FUTILITY_DEPTH || beta.abs() >= MATE_BOUND || node.threatened
        {
            return None;
        }
        (node.value - FUTILITY_MARGIN * depth >= beta).then_some(node.value)
    }

    /// At an expected cut node whose estimate beats `beta` by
    /// [`FAIL_HIGH_SLOPE`] a ply less [`FAIL_HIGH_BASE`] (and
    /// [`FAIL_HIGH_THREAT`] more when the opponent has an open three or a
    /// four-three to answer): Rapfi's fail-high reduction, its margin on
    /// our scale.
    #[inline]
    fn likely_fail_high(depth: i32, beta: i32, node: Estimate) -> bool {
        if beta.abs() >= MATE_BOUND {
            return false;
        }
        let threat = if node.threatened { FAIL_HIGH_THREAT } else { 0 };
        node.value >= beta + FAIL_HIGH_SLOPE * depth - FAIL_HIGH_BASE + threat
    }

    /// At most [`RAZOR_MARGIN`]`.len() - 1` plies from the horizon, where
    /// the opponent has nothing to answer, an estimate more than the
    /// margin below `alpha`: Rapfi's razoring (its search there is a VCF;
    /// ours, the fours past the horizon).
    #[inline]
    fn razors(depth: i32, alpha: i32, node: Estimate) -> bool {
        let Some(&margin) = RAZOR_MARGIN.get(depth.max(0) as usize) else {
            return false;
        };
        alpha.abs() < MATE_BOUND && !node.threatened && node.value + margin < alpha
    }
}

/// Fail-high reduction's margin: Rapfi's `-9 + 15 d` (`+ 87` against an
/// open three) on its scale of a logit 200, ours being 2,500.
const FAIL_HIGH_SLOPE: i32 = 187;
/// See [`FAIL_HIGH_SLOPE`].
const FAIL_HIGH_BASE: i32 = 112;
/// See [`FAIL_HIGH_SLOPE`].
const FAIL_HIGH_THREAT: i32 = 1087;

/// Razoring's margin by depth (none at the horizon itself): Rapfi's
/// `0.17 d^2 + 14 d + 19` below 2.6 plies, on our scale.
const RAZOR_MARGIN: [i32; 3] = [0, 412, 600];

#[cfg(test)]
mod tests {
    use super::*;

    /// An estimate far past any margin.
    const WIN_LIKE: i32 = 1_000_000;

    /// Late moves are reduced by `ln(depth) * ln(move number)` plies (one
    /// more at null-window nodes), leaving at least one; moves that make a
    /// four, the first two and the table's and killers' moves are searched
    /// in full.
    #[test]
    fn late_moves_are_searched_shallower() {
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
            assert_eq!(<ShapeBoard>::reduction(depth, i, front, four, null), plies);
        }
    }

    /// Reverse futility, razoring and the fail-high reduction read the
    /// node's estimate against the window: their margins by depth, and
    /// none of them against a threat (the fail-high reduction only wants
    /// more) or near a mate.
    #[test]
    fn the_estimate_decides_futility_razoring_and_fail_high() {
        let at = |value, threatened| Estimate { value, threatened };
        let futile = <ShapeBoard>::futile;
        let razors = <ShapeBoard>::razors;
        let fail_high = <ShapeBoard>::likely_fail_high;
        // Futility: 500 a ply above beta, null windows, up to 8 plies.
        assert_eq!(futile(3, 99, 100, at(1600, false)), Some(1600));
        assert_eq!(futile(3, 99, 100, at(1599, false)), None);
        assert_eq!(futile(3, 0, 100, at(9000, false)), None);
        assert_eq!(futile(9, 99, 100, at(9000, false)), None);
        assert_eq!(futile(3, 99, 100, at(9000, true)), None);
        let mate = MATE_BOUND + 10;
        assert_eq!(futile(1, mate - 1, mate, at(WIN_LIKE, false)), None);
        // Razoring: 412 below alpha at one ply, 600 at two, never at three.
        assert!(razors(1, 1000, at(587, false)));
        assert!(!razors(1, 1000, at(588, false)));
        assert!(razors(2, 1000, at(399, false)));
        assert!(!razors(2, 1000, at(400, false)));
        assert!(!razors(3, 1000, at(-9000, false)));
        assert!(!razors(1, 1000, at(-9000, true)));
        assert!(!razors(1, -mate, at(-WIN_LIKE, false)));
        // Fail high: 187 a ply less 112 above beta, 1,087 more against a
        // threat.
        assert!(fail_high(4, 100, at(100 + 748 - 112, false)));
        assert!(!fail_high(4, 100, at(100 + 748 - 113, false)));
        assert!(!fail_high(4, 100, at(100 + 748, true)));
        assert!(fail_high(4, 100, at(100 + 748 - 112 + 1087, true)));
        assert!(!fail_high(1, mate, at(WIN_LIKE, false)));
    }

    /// A null-window node skips quiet moves past the first `2 + depth`
    /// once a move that does not lose is known; moves that make an open
    /// three or a four, full windows, and the table's and killers' moves
    /// are never cut.
    #[test]
    fn late_quiet_moves_are_cut_at_null_window_nodes() {
        use crate::pattern::ThreatClass::{Four, OpenThree, OpenTwo};
        let lost = -(MATE_BOUND + 5);
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
                <ShapeBoard>::prunes_late_quiet(depth, i, front, null, best, class),
                cut,
                "{depth} {i} {front} {null} {best} {class:?}"
            );
        }
    }
}
