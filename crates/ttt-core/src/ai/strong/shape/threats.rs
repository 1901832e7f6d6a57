//! What the pattern board threatens, read from its classes and counts:
//! the cells that win at once, the cells that make a four, the forks
//! (exact: an open-four cell is one, so `x.xx.x` is none), and from these
//! the tactics every node of the search applies.
//!
//! * Exact replies: against the opponent's open-four cells (an open three,
//!   or two threes crossing) only the cells that defuse all of them and
//!   our own fours are searched. When nothing defuses the threat and we
//!   have no four to play first, the position is lost in 3 plies.
//! * Four-three replies: against the opponent's four-three cell only the
//!   cells that defuse it, the cells that would make our forced block of
//!   its four a four of ours, and our fours are searched: its threat
//!   sequence is stopped a move before it becomes an open three. A
//!   four-three whose block is a four of ours already forces nothing.
//! * Wins without a search: when the opponent cannot make a four
//!   anywhere, our fork wins in 3 plies and our four-three cell in 5 (the
//!   forced block of the four leaves the open three, which becomes an open
//!   four).
use super::super::rows::{cells_of, Rows};
use super::ShapeBoard;
use crate::pattern::{LinePattern, PatternUndo, Probe, ThreatClass, COMBINATIONS};
use crate::{Mark, Square, SquareSet, MAX_SIDE};

/// Per class code, what its four line patterns hold: [`FOUR_LINE`] when
/// one of them is a four or an open four (a stone there makes a four on
/// that line), [`THREE_LINE`] when one is a blocked three or stronger.
static LINE_FLAGS: [u8; COMBINATIONS] = line_flags();
/// See [`LINE_FLAGS`].
const FOUR_LINE: u8 = 1;
/// See [`LINE_FLAGS`].
const THREE_LINE: u8 = 2;

/// [`LINE_FLAGS`] of every class code.
const fn line_flags() -> [u8; COMBINATIONS] {
    let mut table = [0u8; COMBINATIONS];
    let mut code = 0;
    while code < COMBINATIONS {
        let mut rest = code;
        let mut flags = 0;
        let mut d = 0;
        while d < 4 {
            let p = (rest % 10) as u8;
            rest /= 10;
            if p == LinePattern::Four as u8 || p == LinePattern::OpenFour as u8 {
                flags |= FOUR_LINE;
            }
            if p >= LinePattern::BlockedThree as u8 {
                flags |= THREE_LINE;
            }
            d += 1;
        }
        table[code] = flags;
        code += 1;
    }
    table
}

/// Per row, a bit per column: the cells of `set`.
pub(super) fn rows_of(set: SquareSet) -> Rows {
    let mut rows = [0u32; MAX_SIDE as usize];
    for sq in set {
        rows[sq.row() as usize] |= 1 << sq.column();
    }
    rows
}

impl<U: AsMut<[PatternUndo]>> ShapeBoard<U> {
    /// The empty cells where `mark` makes five: the first (in square
    /// order) and how many (at most 2 counted).
    #[inline]
    pub(super) fn five_cells(&self, mark: Mark) -> (Option<Square>, u32) {
        let n = self.board.count(mark, ThreatClass::Five);
        if n == 0 {
            return (None, 0);
        }
        let m = mark.index();
        let first = self
            .board
            .four_cells(mark)
            .into_iter()
            .find(|&sq| self.board.class_numbers(sq)[m] == ThreatClass::Five as u8);
        (first, n.min(2))
    }

    /// Side `m`'s cells: `(where a stone makes a four on some line, where
    /// it makes two five cells at once)`: an open four or two fours,
    /// exactly.
    pub(super) fn four_rows(&self, m: usize) -> (Rows, Rows) {
        let mut fours = [0u32; MAX_SIDE as usize];
        let mut forks = [0u32; MAX_SIDE as usize];
        let mark = Mark::ALL[m];
        for sq in self.board.four_cells(mark) {
            let bit = 1u32 << sq.column();
            let row = sq.row() as usize;
            if LINE_FLAGS[usize::from(self.board.class_codes(sq)[m])] & FOUR_LINE != 0 {
                fours[row] |= bit;
            }
            if self.board.class_numbers(sq)[m] == ThreatClass::OpenFour as u8 {
                forks[row] |= bit;
            }
        }
        (fours, forks)
    }

    /// Whether `mark` has a cell that makes a four (or two, or a four and
    /// an open three), not counting its five cells.
    #[inline]
    pub(super) fn makes_a_four(&self, mark: Mark) -> bool {
        [
            ThreatClass::Four,
            ThreatClass::FourPlus,
            ThreatClass::FourThree,
            ThreatClass::OpenFour,
        ]
        .into_iter()
        .any(|c| self.board.count(mark, c) > 0)
    }

    /// Whether a stone of `mark` on the empty `sq` makes a blocked three
    /// or stronger on one of its lines.
    #[inline]
    pub(super) fn makes_a_three(&self, sq: Square, mark: Mark) -> bool {
        LINE_FLAGS[usize::from(self.board.class_codes(sq)[mark.index()])] & THREE_LINE != 0
    }

    /// Plies to a win `mark` (to move) has without a search, when the other
    /// side makes no four anywhere: 3 with a cell making two five cells, 5
    /// with a four-three cell.
    pub(super) fn wins_unanswered(&self, mark: Mark) -> Option<i32> {
        if self.makes_a_four(mark.other()) {
            return None;
        }
        if self.board.count(mark, ThreatClass::OpenFour) > 0 {
            Some(3)
        } else if self.board.count(mark, ThreatClass::FourThree) > 0 {
            Some(5)
        } else {
            None
        }
    }

    /// Whether `mark` has a cell where a stone wins by force unless the
    /// other side answers at once: an open-four cell (an open three, or two
    /// threes crossing) or a four-three cell.
    pub(super) fn threatens(&self, mark: Mark) -> bool {
        self.board.count(mark, ThreatClass::OpenFour) > 0
            || self.board.count(mark, ThreatClass::FourThree) > 0
    }

    /// Against the opponent's open-four cells, the only moves worth
    /// searching: the cells that defuse all of them, and the cells where
    /// we make a four. All zero: nothing saves the position. `None` when
    /// the opponent has no open-four cell.
    pub(super) fn exact_replies(&self) -> Option<Rows> {
        let me = self.stones.turn;
        let them = me.other();
        // Most nodes: no open-four cell, told by a count.
        if self.board.count(them, ThreatClass::OpenFour) == 0 {
            return None;
        }
        let (_, forks) = self.four_rows(them.index());
        if forks.iter().all(|&r| r == 0) {
            return None;
        }
        let probe = Probe::new(&self.stones.rules, &self.stones.cells).ok()?;
        let defusers = probe.defences(me, ThreatClass::OpenFour, cells_of(forks));
        Some(self.with_our_fours(defusers?))
    }

    /// Against the opponent's four-three cells, the only moves worth
    /// searching: for each, the cells that defuse it (the cell itself, and
    /// the cells that break its four or its three) and the cells where our
    /// stone would make our forced block of its four a four of ours (the
    /// block then gains the move back); the cells every four-three shares,
    /// and the cells where we make a four. A four-three wins in 5 plies, so
    /// a move elsewhere loses unless it is a four of ours; answered now,
    /// the opponent's threat sequence stops a move early. A four-three
    /// whose block already makes a four of ours forces nothing and asks
    /// for no answer. `None` when no four-three asks for one, or when no
    /// one cell answers them all (then every candidate is searched: the
    /// search finds the loss, or a counter-attack).
    pub(super) fn four_three_replies(&self) -> Option<Rows> {
        let me = self.stones.turn;
        let them = me.other();
        if self.board.count(them, ThreatClass::FourThree) == 0 {
            return None;
        }
        let rules = &self.stones.rules;
        let now = Probe::new(rules, &self.stones.cells).ok()?;
        let mut grid = self.stones.cells;
        let mut shared: Option<SquareSet> = None;
        for threat in self.board.cells_of(them, ThreatClass::FourThree) {
            grid[threat.index()] = them.index() as u8 + 1;
            let after = Probe::new(rules, &grid).ok()?;
            let mut answers = now.defusers(threat, them, ThreatClass::FourThree);
            let mut forcing = true;
            for block in now.completions(threat, them) {
                if after.class(block, me) >= ThreatClass::Four {
                    forcing = false;
                    break;
                }
                answers = answers.union(&after.raisers(block, me, ThreatClass::Four));
            }
            grid[threat.index()] = 0;
            if forcing {
                shared = Some(shared.map_or(answers, |s| s.intersection(&answers)));
            }
        }
        let answers = shared?;
        (!answers.is_empty()).then(|| self.with_our_fours(answers))
    }

    /// The cells of `defusers` and the cells where the side to move makes
    /// a four (a reply the opponent must answer first).
    fn with_our_fours(&self, defusers: SquareSet) -> Rows {
        let mut replies = rows_of(defusers);
        let (fours, _) = self.four_rows(self.stones.turn.index());
        for (r, f) in replies.iter_mut().zip(fours) {
            *r |= f;
        }
        replies
    }
}
