//! The pattern board's evaluation: what each empty cell would make for
//! each side, weighed.
//!
//! Line windows count marks; they cannot tell a split three that is one
//! move from an open four from a blocked one, nor a cell where two lines
//! cross. The pattern board can: for every empty cell and side it keeps
//! the cell's pattern on each of its four lines (dead, one, two, blocked
//! or open three, four...; [`LinePattern`](crate::pattern::LinePattern)).
//! Each of the 715 multisets of four patterns has a weight as a cell of
//! the side to move and one as a cell of the other side (the side to move
//! plays first; `weights/eval.rs`), and the board keeps both sums over the
//! empty cells as patterns change; the evaluation is those sums, a bonus
//! for having the move and one per empty cell.
use super::weights::eval::{MOVER_CELL, TEMPO, TEMPO_PER_100_EMPTY, WAITER_CELL};
use crate::pattern::{by_multiset, CellWeights, PatternBoard};
use crate::Mark;

/// A logit of win rate on the evaluation's scale: the weights were
/// fitted so that `1 / (1 + e^(-value / LOGIT))` predicts the win rate
/// (`weights/eval.rs`).
pub(super) const LOGIT: i32 = 2500;

/// Every class code's cell weights ([`MOVER_CELL`], [`WAITER_CELL`] of the
/// multiset of its four patterns): one read a changed cell.
pub(super) static CELL_WEIGHTS: CellWeights = by_multiset(&MOVER_CELL, &WAITER_CELL);

/// The evaluation of `board` (given [`CELL_WEIGHTS`]) for the side to
/// move, `to_move`.
#[inline]
pub(super) fn value(board: &PatternBoard, to_move: Mark) -> i32 {
    let empty = board.rules().cell_count() as i32 - board.stones() as i32;
    TEMPO
        + TEMPO_PER_100_EMPTY * empty / 100
        + board.weight_sums(to_move)[0]
        + board.weight_sums(to_move.other())[1]
}
