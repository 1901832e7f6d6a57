//! The line-window board: the marks, and for every k-cell line window the
//! count of each side's marks in it, updated move by move. Any rules; the
//! search uses it where the pattern board does not fit (the console's
//! boards up to 9x9, k other than 5, renju).
//!
//! Nothing is rescored. A mark changes only the windows through its cell
//! (up to 4k), each with one lookup in a step table filled once per win
//! length (`steps.rs`): what one more mark of a side does to a window with
//! given counts (the evaluation change, the change of its cells' ordering
//! keys, whether it becomes or stops being a four or a three, whether it
//! completes a line). The cells of each line get their key changes as a
//! running sum (`update.rs`). This matters most on the console (MIPS II),
//! where a node costs 100-200 us.
//!
//! * `eval.rs`: what a window is worth, the evaluation and the keys.
//! * `threats.rs`: threats read from the windows missing one or two marks
//!   (winning cells, fours, forks, the replies to an open three), and
//!   renju's forbidden cells.
//! * `policy.rs`: how selective the search is on this board.
use super::board::SearchBoard;
use super::rows::Rows;
use super::stones::Stones;
use crate::pattern::ThreatClass;
use crate::{Mark, Position, Square, MAX_CELLS, MAX_SIDE};
use steps::{StepTable, WindowStep, MAX_COUNT, WINDOW_IDS, WINDOW_WORDS};

mod eval;
mod policy;
mod steps;
mod threats;
mod update;

#[cfg(test)]
mod tests;

/// The line-window board (see the module's doc).
///
/// The fields stay in the order written (`repr(C)`): the small fields every
/// node reads first, then the counts, the keys and the step table
/// together.
#[repr(C)]
pub(super) struct WindowBoard {
    stones: Stones,
    /// The win length.
    k: u32,
    /// Evaluation from X's point of view.
    eval_x: i32,
    /// Marks of each side in each window (id = start square * 4 +
    /// direction), coded `x * MAX_COUNT + o`: one number indexes `steps`.
    counts: [u16; WINDOW_IDS],
    /// Windows with k-1 marks of a side and none of the other: a count and
    /// a bitset of window ids per side.
    fours: [u32; 2],
    four_set: [[u64; WINDOW_WORDS]; 2],
    /// Windows with k-2 marks of a side and none of the other (k >= 3): a
    /// mark on an empty cell shared by two of them makes two winning cells.
    three_set: [[u64; WINDOW_WORDS]; 2],
    threes: [u32; 2],
    /// Each cell's move-ordering key for each side to move (2 x its gain for
    /// that side + its gain for the other), summed over the windows through
    /// it and kept up to date as windows change, so ordering the candidates
    /// reads one number per cell instead of rescoring 4k windows.
    cell_key: [[i32; 2]; MAX_CELLS],
    /// What one more mark changes in a window, by side and the window's
    /// counts before it.
    steps: StepTable,
    /// The key change (by side to move) of each window along the line being
    /// updated (scratch space, so the hot path clears nothing).
    line_deltas: [[i32; 2]; MAX_SIDE as usize],
}

impl WindowBoard {
    /// The window board of `pos` (any rules).
    pub(super) fn new(pos: &Position) -> WindowBoard {
        let rules = *pos.rules();
        let k = rules.k() as u32;
        let mut board = WindowBoard {
            stones: Stones::new(rules),
            k,
            eval_x: 0,
            counts: [0; WINDOW_IDS],
            fours: [0; 2],
            four_set: [[0; WINDOW_WORDS]; 2],
            three_set: [[0; WINDOW_WORDS]; 2],
            threes: [0; 2],
            cell_key: [[0; 2]; MAX_CELLS],
            steps: [[WindowStep::NONE; MAX_COUNT * MAX_COUNT]; 2],
            line_deltas: [[0; 2]; MAX_SIDE as usize],
        };
        steps::fill(&mut board.steps, k);
        // Every window starts empty: add its share to each of its cells.
        let empty_key = steps::empty_window_key(k);
        for sq in rules.squares() {
            let mut windows = 0;
            board.for_windows(sq, |_| windows += 1);
            board.cell_key[sq.index()] = [windows * empty_key; 2];
        }
        if k == 1 {
            // Every empty cell is a one-cell window missing one mark.
            let cells = rules.cell_count() as u32;
            board.fours = [cells, cells];
            for sq in rules.squares() {
                let w = sq.index() * 4;
                for side in 0..2 {
                    board.four_set[side][w / 64] |= 1 << (w % 64);
                }
            }
        }
        for mark in Mark::ALL {
            for sq in pos.marks(mark) {
                board.apply(sq, mark);
            }
        }
        board.stones.turn = pos.side_to_move();
        board
    }
}

impl SearchBoard for WindowBoard {
    #[inline(always)]
    fn stones(&self) -> &Stones {
        &self.stones
    }

    #[inline]
    fn set_turn(&mut self, mark: Mark) {
        self.stones.turn = mark;
    }

    #[inline]
    fn apply(&mut self, sq: Square, mark: Mark) -> bool {
        let won = self.update_windows::<true>(sq, mark.index());
        self.stones.place(sq, mark);
        won
    }

    #[inline]
    fn unapply(&mut self, sq: Square, mark: Mark) {
        self.update_windows::<false>(sq, mark.index());
        self.stones.take_back(sq, mark);
    }

    #[inline]
    fn static_eval(&self) -> i32 {
        let turn = self.stones.turn;
        eval::for_side_to_move(turn, self.eval_x, self.threes[turn.index()])
    }

    const LOGIT: Option<i32> = None;

    #[inline]
    fn winning_cells(&self, mark: Mark) -> (Option<Square>, u32) {
        self.completing_cells(mark)
    }

    #[inline]
    fn has_four_cells(&self, m: usize) -> bool {
        self.threes[m] != 0
    }

    #[inline]
    fn four_cells(&self, m: usize) -> (Rows, Rows) {
        self.three_window_cells(m)
    }

    #[inline]
    fn fork_cell(&mut self, me: Mark, forks: &Rows) -> Option<Square> {
        self.real_fork(me, forks)
    }

    #[inline]
    fn static_win(&mut self) -> Option<i32> {
        self.fork_win()
    }

    #[inline]
    fn makes_three(&self, sq: Square, mark: Mark) -> bool {
        self.in_two_window(sq, mark)
    }

    #[inline]
    fn forbids(&self, mark: Mark) -> bool {
        self.renju_black(mark)
    }

    #[inline]
    fn is_forbidden(&self, sq: Square, mark: Mark) -> bool {
        self.renju_forbidden(sq, mark)
    }

    #[inline]
    fn candidate_cells(&self) -> Rows {
        let mut cells = self.stones.frontier();
        if let Some(replies) = self.threat_replies() {
            for (c, r) in cells.iter_mut().zip(replies) {
                *c &= r;
            }
        }
        cells
    }

    #[inline(always)]
    fn order_key(&self, sq: Square, m: usize) -> i32 {
        self.cell_key[sq.index()][m]
    }

    #[inline(always)]
    fn class_before_move(&self, _sq: Square, _mark: Mark) -> Option<ThreatClass> {
        None
    }

    #[inline(always)]
    fn counted_fours(&self, m: usize) -> u32 {
        self.fours[m]
    }
}
