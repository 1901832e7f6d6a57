//! The window board's move: a mark added to (or taken back from) every
//! window through its cell, with the evaluation, the four and three sets
//! and the cells' ordering keys along the way.
use super::steps::{line_delta, WindowStep, INDEX_STEP, MAX_COUNT};
use super::WindowBoard;
use crate::Square;

impl WindowBoard {
    /// The window ids through `sq` (up to 4k of them), passed to `f`.
    #[inline]
    pub(super) fn for_windows(&self, sq: Square, mut f: impl FnMut(usize)) {
        let (x, y) = (sq.column() as i32, sq.row() as i32);
        let k = self.k as i32;
        let rules = &self.stones.rules;
        let (w, h) = (rules.columns() as i32, rules.rows() as i32);
        let ndirs = if k == 1 { 1 } else { 4 };
        for d in 0..ndirs {
            let (dx, dy) = line_delta(d);
            let (lo, hi) = window_offsets((x, y), (dx, dy), k, (w, h));
            for o in lo..=hi {
                let (sx, sy) = (x - o * dx, y - o * dy);
                f((sy as usize * Square::STRIDE + sx as usize) * 4 + d);
            }
        }
    }

    #[inline]
    fn set_four(&mut self, side: usize, w: usize, on: bool) {
        if on {
            self.fours[side] += 1;
            self.four_set[side][w / 64] |= 1 << (w % 64);
        } else {
            self.fours[side] -= 1;
            self.four_set[side][w / 64] &= !(1 << (w % 64));
        }
    }

    /// Adds (or removes) a mark of side `m` on `sq` in every window through
    /// it: counts, evaluation, fours, and the ordering keys of the cells on
    /// those lines. Returns whether a window is now complete.
    ///
    /// One copy of the line update per direction and per add or take-back
    /// (const parameters), so each has its steps and bounds as constants:
    /// on 9x9 this is over half of a node's time.
    pub(super) fn update_windows<const ADD: bool>(&mut self, sq: Square, m: usize) -> bool {
        let mut won = self.update_line::<ADD, 0>(sq, m);
        if self.k > 1 {
            won |= self.update_line::<ADD, 1>(sq, m);
            won |= self.update_line::<ADD, 2>(sq, m);
            won |= self.update_line::<ADD, 3>(sq, m);
        }
        won
    }

    /// [`update_windows`](Self::update_windows) on the line through `sq`
    /// in direction `D`.
    #[inline(always)]
    fn update_line<const ADD: bool, const D: usize>(&mut self, sq: Square, m: usize) -> bool {
        let k = self.k as i32;
        let (x, y) = (sq.column() as i32, sq.row() as i32);
        let rules = &self.stones.rules;
        let (w, h) = (rules.columns() as i32, rules.rows() as i32);
        let (lo, hi) = window_offsets((x, y), line_delta(D), k, (w, h));
        if lo > hi {
            return false;
        }
        // The windows in line order (offset hi first); the key change of
        // each for its side to move.
        let count = (hi - lo + 1) as usize;
        let mut changed = false;
        let mut won = false;
        // One more mark of side m: its count goes up by one.
        let unit = [MAX_COUNT as u16, 1][m];
        let step_index = INDEX_STEP[D];
        let first = sq
            .index()
            .wrapping_sub(step_index.wrapping_mul(hi as usize));
        let mut start = first;
        for j in 0..count {
            let id = start * 4 + D;
            start = start.wrapping_add(step_index);
            let code = self.counts[id];
            // Adding moves a window from `lower` to `upper`; taking back,
            // the other way.
            let lower = if ADD { code } else { code - unit };
            let step = self.steps[m][lower as usize];
            let (value, key) = (i32::from(step.value), step.key.map(i32::from));
            if ADD {
                self.counts[id] = code + unit;
                self.eval_x += value;
                won |= step.upper_fours & WindowStep::COMPLETES != 0;
            } else {
                self.counts[id] = lower;
                self.eval_x -= value;
            }
            self.line_deltas[j] = key;
            changed |= (key[0] | key[1]) != 0;
            if step.four_flips != 0 {
                for side in 0..2 {
                    if step.four_flips >> side & 1 != 0 {
                        let upper_four = step.upper_fours >> side & 1 != 0;
                        self.set_four(side, id, upper_four == ADD);
                    }
                    if step.four_flips >> (side + 2) & 1 != 0 {
                        let on = (step.upper_fours >> (side + 2) & 1 != 0) == ADD;
                        let bit = 1u64 << (id % 64);
                        let word = &mut self.three_set[side][id / 64];
                        if on {
                            *word |= bit;
                            self.threes[side] += 1;
                        } else {
                            *word &= !bit;
                            self.threes[side] -= 1;
                        }
                    }
                }
            }
        }
        if !changed {
            return won;
        }
        // Each cell on the line gets the sum of the changes of the windows
        // covering it: a running sum as windows enter and leave. count <= k:
        // windows enter on the first `count` cells, none enter or leave
        // until cell k, then they leave one by one. Taking back, the sum
        // runs down instead of up.
        let sign = if ADD { 1 } else { -1 };
        let mut cell = first;
        let mut acc = [0i32; 2];
        for delta in &self.line_deltas[..count] {
            acc[0] += sign * delta[0];
            acc[1] += sign * delta[1];
            let key = &mut self.cell_key[cell];
            key[0] += acc[0];
            key[1] += acc[1];
            cell = cell.wrapping_add(step_index);
        }
        for _ in count..self.k as usize {
            let key = &mut self.cell_key[cell];
            key[0] += acc[0];
            key[1] += acc[1];
            cell = cell.wrapping_add(step_index);
        }
        for delta in &self.line_deltas[..count - 1] {
            acc[0] -= sign * delta[0];
            acc[1] -= sign * delta[1];
            let key = &mut self.cell_key[cell];
            key[0] += acc[0];
            key[1] += acc[1];
            cell = cell.wrapping_add(step_index);
        }
        won
    }
}

/// The offsets o (0..k) for which the k-cell window in direction
/// (`dx`, `dy`) starting o steps back from (`x`, `y`) lies on a `w` x `h`
/// board: `lo..=hi` (empty when `lo > hi`).
#[inline(always)]
fn window_offsets(
    (x, y): (i32, i32),
    (dx, dy): (i32, i32),
    k: i32,
    (w, h): (i32, i32),
) -> (i32, i32) {
    let (mut lo, mut hi) = (0, k - 1);
    if dx == 1 {
        hi = hi.min(x);
        lo = lo.max(x + k - w);
    }
    if dy == 1 {
        hi = hi.min(y);
        lo = lo.max(y + k - h);
    } else if dy == -1 {
        lo = lo.max(k - 1 - y);
        hi = hi.min(h - 1 - y);
    }
    (lo, hi)
}
