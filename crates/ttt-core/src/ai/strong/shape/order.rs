//! The pattern board's move order: a weight of the multiset of the cell's
//! four line patterns for the side to move plus one of the multiset for
//! the other side (`weights/order.rs`): two table reads a cell.
use super::weights::order::{ORDER_MOVER, ORDER_WAITER};
use crate::pattern::{by_multiset, CellWeights, PatternBoard};
use crate::Square;

/// [`ORDER_MOVER`] and [`ORDER_WAITER`] by class code: one read a side.
static ORDER_BY_CODE: CellWeights = by_multiset(&ORDER_MOVER, &ORDER_WAITER);

/// The order key of the empty `sq` for side `me` (a mark's index): the
/// weights of its patterns' multisets for both sides.
#[inline]
pub(super) fn key(board: &PatternBoard, sq: Square, me: usize) -> i32 {
    let codes = board.class_codes(sq);
    i32::from(ORDER_BY_CODE[usize::from(codes[me])][0])
        + i32::from(ORDER_BY_CODE[usize::from(codes[1 - me])][1])
}
