//! The static evaluation: what a position is worth to the side to move,
//! from its line windows (on large five-in-a-row boards, from the pattern
//! board's cell weights of `shape_eval.rs` instead).
//!
//! A window (k cells in a line) holding only one side's marks is worth
//! `8^(4 - need)` to that side (need = marks still missing: a window
//! missing 1 is worth 4096, missing 2: 512, 3: 64, 4 or more: 8); windows
//! holding both marks are dead. Overlapping windows make open runs worth
//! more than closed ones. The board keeps the sum up to date move by move
//! (`board.rs`); this file says what a window is worth and what one more
//! mark in it gains, which is also what orders the moves.
use super::Engine;
use crate::Mark;

/// Static bonus per three-window of the side to move (at most 4 count).
const TEMPO_THREE: i32 = 256;

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

impl Engine<'_> {
    /// A window's share of the evaluation (X's view); counts above k (table
    /// entries never used) saturate.
    pub(super) fn contrib(&self, c: [u8; 2]) -> i32 {
        if c[1] == 0 && c[0] > 0 {
            need_score(self.k.saturating_sub(c[0] as u32))
        } else if c[0] == 0 && c[1] > 0 {
            -need_score(self.k.saturating_sub(c[1] as u32))
        } else {
            0
        }
    }

    /// The evaluation for the side to move: where shapes are kept, the
    /// pattern board's cell weights (`shape_eval.rs`; the windows are not
    /// read); elsewhere the windows' sum, a small bonus for having the
    /// move and a tempo bonus for its threes. The side to move makes a
    /// four from any of its three-windows first, so equal shapes are not
    /// worth the same to both sides (won 13 pairs, lost 4 of 40 against
    /// the symmetric version, 200 ms/move on 15x15).
    pub(super) fn static_eval(&self) -> i32 {
        if let Some(shapes) = &self.shapes {
            return shapes.value(self.turn);
        }
        let e = match self.turn {
            Mark::X => self.eval_x,
            Mark::O => -self.eval_x,
        };
        let me = self.turn.index();
        e + 16 + TEMPO_THREE * self.threes[me].min(4) as i32
    }

    /// How much playing `sq` gains for `mark` and would gain for the other
    /// side (evaluation changes, each from its own view), rescored from the
    /// windows: what `cell_key` keeps incrementally (checked in the tests).
    #[cfg(test)]
    pub(super) fn gains(&self, sq: crate::Square, mark: Mark) -> (i32, i32) {
        let m = mark.index();
        let o = 1 - m;
        let mut g = [0i32; 2];
        self.for_windows(sq, |w| {
            let code = self.counts[w] as usize;
            let c = [code / super::MAX_COUNT, code % super::MAX_COUNT];
            for (side, other, out) in [(m, o, 0), (o, m, 1)] {
                if c[other] == 0 {
                    let have = c[side] as u32;
                    g[out] += need_score(self.k - have - 1)
                        - if have > 0 {
                            need_score(self.k - have)
                        } else {
                            0
                        };
                } else if c[side] == 0 {
                    g[out] += need_score(self.k - c[other] as u32);
                }
            }
        });
        (g[0], g[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::strong::Budget;
    use crate::Position;

    /// Mirror-image open threes (X's and O's, far apart): the evaluation
    /// favours the side to move by more than one three-window, for either
    /// side, since it makes its four first.
    #[test]
    fn equal_threes_favour_the_side_to_move() {
        // 15 rows of 15 cells, '/' between rows.
        let mut text = [b'/'; 15 * 16 - 1];
        for r in 0..15 {
            text[r * 16..r * 16 + 15].fill(b'.');
        }
        text[3 * 16 + 5..3 * 16 + 8].copy_from_slice(b"xxx");
        text[11 * 16 + 5..11 * 16 + 8].copy_from_slice(b"ooo");
        let board = |extra: Option<(usize, usize)>| {
            let mut text = text;
            if let Some((r, c)) = extra {
                text[r * 16 + c] = b'x';
            }
            Position::from_board(core::str::from_utf8(&text).unwrap(), Some(5)).unwrap()
        };
        // X to move; then (an X mark on a far corner, no window shared)
        // O to move.
        for (pos, to_move) in [(board(None), Mark::X), (board(Some((0, 14))), Mark::O)] {
            let mut engine = Engine::new(Budget::nodes(1), 0);
            engine.load(&pos);
            assert_eq!(engine.turn, to_move);
            let e = engine.static_eval();
            assert!(e > need_score(2), "{to_move:?} to move: {e}");
        }
    }
}
