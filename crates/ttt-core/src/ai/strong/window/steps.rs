//! What one more mark does to a line window: a table filled once per
//! win length, so a move updates each window through its cell with one
//! lookup (`update.rs`).
use super::eval::{window_gain, window_value};
use crate::{Direction, Square, MAX_CELLS, MAX_SIDE};

/// The four line directions; a window id's direction is `DIRS[id % 4]`.
pub(super) const DIRS: [Direction; 4] = Direction::ALL;

/// Window mark counts run from 0 to k <= 20.
pub(super) const MAX_COUNT: usize = MAX_SIDE as usize + 1;

/// Square index step along each direction of [`DIRS`] (index = row *
/// [`Square::STRIDE`] + column), as a wrapping add.
pub(super) const INDEX_STEP: [usize; 4] = [
    1,
    Square::STRIDE,
    Square::STRIDE + 1,
    0usize.wrapping_sub(Square::STRIDE - 1),
];

/// Window ids: a square's index * 4 + direction.
pub(super) const WINDOW_IDS: usize = MAX_CELLS * 4;

/// 64-bit words of a bitset of window ids.
pub(super) const WINDOW_WORDS: usize = WINDOW_IDS.div_ceil(64);

/// The step (columns, rows) one cell along direction `d` of [`DIRS`].
#[inline(always)]
pub(super) const fn line_delta(d: usize) -> (i32, i32) {
    let (dx, dy) = DIRS[d].delta();
    (dx as i32, dy as i32)
}

/// What one more mark of a side changes in a window with given counts.
#[derive(Copy, Clone)]
pub(super) struct WindowStep {
    /// Evaluation change (X's view).
    pub(super) value: i16,
    /// Change of the window's share of each of its cells' keys, by side to
    /// move.
    pub(super) key: [i16; 2],
    /// Bit per side: whether the window's "k-1 of that side, none of the
    /// other" state changes (bits 0-1), and its "k-2 of that side, none of
    /// the other" state (bits 2-3).
    pub(super) four_flips: u8,
    /// Bits as in `four_flips`: those states after the mark; and
    /// [`COMPLETES`](Self::COMPLETES). (Eight bytes in all: one load.)
    pub(super) upper_fours: u8,
}

// One load a window (see `upper_fours`).
const _: () = assert!(core::mem::size_of::<WindowStep>() == 8);

impl WindowStep {
    pub(super) const NONE: WindowStep = WindowStep {
        value: 0,
        key: [0, 0],
        four_flips: 0,
        upper_fours: 0,
    };

    /// Bit of `upper_fours`: the mark completes the window.
    pub(super) const COMPLETES: u8 = 1 << 4;
}

/// The steps of both sides (by side, then by the window's counts before
/// the mark, coded `x * MAX_COUNT + o`); a take-back undoes the entry of
/// the counts after it.
pub(super) type StepTable = [[WindowStep; MAX_COUNT * MAX_COUNT]; 2];

/// A window's share of each of its cells' ordering keys, by side to move
/// (index 0: X), with counts `x`, `o`: 2 x its gain for that side + its
/// gain for the other.
fn window_key(k: u32, side: usize, x: usize, o: usize) -> i32 {
    let (gx, go) = (
        window_gain(k, x as u32, o as u32),
        window_gain(k, o as u32, x as u32),
    );
    if side == 0 {
        2 * gx + go
    } else {
        2 * go + gx
    }
}

/// An empty window's share of each of its cells' keys (either side).
pub(super) fn empty_window_key(k: u32) -> i32 {
    window_key(k, 0, 0, 0)
}

/// Fills `steps` for win length `k`.
pub(super) fn fill(steps: &mut StepTable, k: u32) {
    let k1 = k as usize - 1;
    // Threes only mean something with k >= 3 (else an empty window
    // would be one).
    let k2 = if k >= 3 { k as usize - 2 } else { usize::MAX };
    let fours = |x: usize, o: usize| {
        u8::from(o == 0 && x == k1)
            | u8::from(x == 0 && o == k1) << 1
            | u8::from(o == 0 && x == k2) << 2
            | u8::from(x == 0 && o == k2) << 3
    };
    let value = |x: usize, o: usize| window_value(k, [x as u8, o as u8]);
    for (side, steps) in steps.iter_mut().enumerate() {
        for x in 0..MAX_COUNT {
            for o in 0..MAX_COUNT {
                let (ux, uo) = if side == 0 { (x + 1, o) } else { (x, o + 1) };
                if ux >= MAX_COUNT || uo >= MAX_COUNT {
                    continue;
                }
                // Every change fits in i16: |key| <= 3 * 4096 per window.
                let narrow = |v: i32| v.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
                let upper_fours = fours(ux, uo);
                let completes = if ux.max(uo) >= k as usize {
                    WindowStep::COMPLETES
                } else {
                    0
                };
                steps[x * MAX_COUNT + o] = WindowStep {
                    value: narrow(value(ux, uo) - value(x, o)),
                    key: [0, 1].map(|s| narrow(window_key(k, s, ux, uo) - window_key(k, s, x, o))),
                    four_flips: fours(x, o) ^ upper_fours,
                    upper_fours: upper_fours | completes,
                };
            }
        }
    }
}
