//! What line windows are worth: the window board's evaluation and its
//! move-ordering keys.
//!
//! A window (k cells in a line) holding only one side's marks is worth
//! `8^(4 - need)` to that side (need = marks still missing: a window
//! missing 1 is worth 4096, missing 2: 512, 3: 64, 4 or more: 8); windows
//! holding both marks are dead. Overlapping windows make open runs worth
//! more than closed ones. The board keeps the sum up to date move by move
//! (`update.rs`); this file says what a window is worth, what one more
//! mark in it gains (which is also what orders the moves), and what the
//! side to move adds.
use crate::Mark;

/// Static bonus per three-window of the side to move (at most 4 count):
/// it makes a four from one of them before the opponent can, so equal
/// shapes are not worth the same to both sides.
const TEMPO_THREE: i32 = 256;
/// Static bonus for having the move.
const TEMPO: i32 = 16;

/// Window value by marks still needed.
#[inline]
pub(super) fn need_score(need: u32) -> i32 {
    match need {
        0 => 0,
        1 => 4096,
        2 => 512,
        3 => 64,
        _ => 8,
    }
}

/// How much one more mark of a side in a window gains that side (`have`:
/// its marks there, `theirs`: the other side's): a one-sided window grows,
/// an opponent's window dies, a dead window stays dead.
pub(super) fn window_gain(k: u32, have: u32, theirs: u32) -> i32 {
    if theirs == 0 {
        let before = if have > 0 {
            need_score(k.saturating_sub(have))
        } else {
            0
        };
        need_score(k.saturating_sub(have + 1)) - before
    } else if have == 0 {
        need_score(k.saturating_sub(theirs))
    } else {
        0
    }
}

/// A k-cell window's share of the evaluation (X's view) with `c` marks of
/// X and of O; counts above k (table entries never used) saturate.
pub(super) fn window_value(k: u32, c: [u8; 2]) -> i32 {
    if c[1] == 0 && c[0] > 0 {
        need_score(k.saturating_sub(c[0] as u32))
    } else if c[0] == 0 && c[1] > 0 {
        -need_score(k.saturating_sub(c[1] as u32))
    } else {
        0
    }
}

/// The evaluation for `turn`, the side to move, from the windows' sum
/// `eval_x` (X's view) and the side to move's three-windows `threes`: the
/// sum, a small bonus for having the move and a bonus for its threes.
#[inline]
pub(super) fn for_side_to_move(turn: Mark, eval_x: i32, threes: u32) -> i32 {
    let e = match turn {
        Mark::X => eval_x,
        Mark::O => -eval_x,
    };
    e + TEMPO + TEMPO_THREE * threes.min(4) as i32
}
