//! What the board threatens, read from the window sets (where the pattern
//! board is the only board, from its classes: `shape_eval.rs`) without a
//! search:
//! the cells that win at once, the cells that make a four, the cells that
//! make two winning cells (an open four or a double four: a "fork"), and
//! from these the tactics every node of the search applies: a fork of ours
//! the opponent cannot answer is a win, and against an opponent's fork
//! only its blocks and our own fours are worth searching.
//!
//! Threat sets come as per-row column bitmasks (`[u32; MAX_SIDE]`, bit c
//! of row r: the cell in column c), as the frontier does.
use super::board::{DIRS, INDEX_STEP};
use super::Engine;
use crate::{Mark, Square, WinCondition, MAX_SIDE};

/// The cells of per-row column masks (bit c of `rows[r]`: the cell in
/// column c of row r), row by row: how `three_cells`, `frontier` and the
/// threat sets hand out cells.
pub(super) fn cells_of(rows: [u32; MAX_SIDE as usize]) -> impl Iterator<Item = Square> {
    rows.into_iter().enumerate().flat_map(|(row, mut bits)| {
        core::iter::from_fn(move || {
            (bits != 0).then(|| {
                let column = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Square::from_index((row * Square::STRIDE + column) as u16)
            })
        })
    })
}

impl Engine<'_> {
    /// The empty cells where `mark` completes a winning line: (first, how
    /// many; at most 2 counted). Under "exactly k" a window whose
    /// completion would touch another `mark` at either end makes an
    /// overline, which does not win, so it is skipped.
    pub(super) fn winning_cells(&self, mark: Mark) -> (Option<Square>, u32) {
        if let Some(shapes) = self.one_board() {
            return shapes.five_cells(mark);
        }
        let m = mark.index();
        if self.fours[m] == 0 {
            return (None, 0);
        }
        let k = self.k as i8;
        let exact = self.rules.win_condition() == WinCondition::ExactlyK
            || (self.rules.is_renju() && mark == Mark::X);
        // Windows start on the board: only the words of its rows can be set.
        let used = (self.rules.rows() as usize * Square::STRIDE * 4).div_ceil(64);
        let mut first: Option<Square> = None;
        for (word_index, &word) in self.four_set[m][..used].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let w = word_index * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let start = Square::from_index((w / 4) as u16);
                let dir = DIRS[w % 4];
                if exact
                    && (self.holds(start.step(dir, -1), m) || self.holds(start.step(dir, k), m))
                {
                    continue;
                }
                for i in 0..k {
                    let Some(cell) = start.step(dir, i) else {
                        break;
                    };
                    if self.cells[cell.index()] == 0 {
                        match first {
                            None => first = Some(cell),
                            Some(f) if f != cell => return (first, 2),
                            _ => {}
                        }
                        break;
                    }
                }
            }
        }
        (first, first.is_some() as u32)
    }

    /// Whether side `m` has a cell that makes a four (a three-window, or
    /// where the pattern board is the only board, a four line).
    #[inline]
    pub(super) fn has_four_cells(&self, m: usize) -> bool {
        match self.one_board() {
            Some(shapes) => shapes.has_four_cells(Mark::ALL[m]),
            None => self.threes[m] != 0,
        }
    }

    /// The empty cells of side `m`'s three-windows, per row a bit per
    /// column: `(in at least one, in at least two)`. A mark on a cell of
    /// the first kind makes a four; on one of the second, two winning
    /// cells at once (an open four, or two fours).
    pub(super) fn three_cells(
        &self,
        m: usize,
    ) -> ([u32; MAX_SIDE as usize], [u32; MAX_SIDE as usize]) {
        if let Some(shapes) = self.one_board() {
            return shapes.four_rows(m);
        }
        let mut once = [0u32; MAX_SIDE as usize];
        let mut twice = [0u32; MAX_SIDE as usize];
        let used = (self.rules.rows() as usize * Square::STRIDE * 4).div_ceil(64);
        for (word_index, &word) in self.three_set[m][..used].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let w = word_index * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let step = INDEX_STEP[w % 4];
                let mut cell = w / 4;
                for _ in 0..self.k {
                    if self.cells[cell] == 0 {
                        let (row, bit) = (cell / Square::STRIDE, 1u32 << (cell % Square::STRIDE));
                        twice[row] |= once[row] & bit;
                        once[row] |= bit;
                    }
                    cell = cell.wrapping_add(step);
                }
            }
        }
        (once, twice)
    }

    /// When the opponent threatens two winning cells in one move (an open
    /// three, or two threes crossing) and has no four: the only moves that
    /// are not lost to it, per row a bit per column. They are the empty
    /// cells of the opponent's three-windows (a move elsewhere leaves every
    /// one of them, so the double threat stands) and the moves that make a
    /// four of our own (a counter-attack the opponent must answer). `None`
    /// when there is no such threat, or under "exactly k" (where an
    /// overline changes which windows count).
    pub(super) fn threat_replies(&self) -> Option<[u32; MAX_SIDE as usize]> {
        // Under renju a fork of black's may be a forbidden cell: white need
        // not answer it.
        if self.rules.win_condition() == WinCondition::ExactlyK
            || self.k < 3
            || (self.rules.is_renju() && self.turn == Mark::O)
        {
            return None;
        }
        let me = self.turn.index();
        let (theirs, forks) = self.three_cells(1 - me);
        if forks.iter().all(|&r| r == 0) {
            return None;
        }
        let (mine, _) = self.three_cells(me);
        let mut replies = [0u32; MAX_SIDE as usize];
        for ((out, t), m) in replies.iter_mut().zip(theirs).zip(mine) {
            *out = t | m;
        }
        Some(replies)
    }

    /// Plies to a win the side to move has without a search, when the
    /// opponent has no three-window (no stone of theirs makes a four):
    /// 3 when a cell shared by two of our three-windows really makes two
    /// winning cells (x.xx.x makes one; not under "exactly k" or for
    /// renju's black); else 5 when a cell of ours makes a four and an open
    /// three (five in a row, not renju: `shapes.rs`).
    pub(super) fn static_win(&mut self) -> Option<i32> {
        if let Some(shapes) = self.one_board() {
            return shapes.static_win(self.turn);
        }
        let me = self.turn.index();
        if self.threes[1 - me] != 0 || self.threes[me] == 0 || self.k < 3 {
            return None;
        }
        let (fours, forks) = self.three_cells(me);
        if self.threes[me] >= 2
            && self.rules.win_condition() != WinCondition::ExactlyK
            && !self.forbids(self.turn)
            && self.fork_cell(self.turn, &forks).is_some()
        {
            return Some(3);
        }
        (self.judges_shapes() && self.has_four_three(&fours)).then_some(5)
    }

    /// The first of the candidate cells `forks` (per row a bit per column:
    /// cells in two of `me`'s three-windows) where a mark of `me` really
    /// makes two winning cells. Two three-windows of one line can leave the
    /// same winning cell (x.xx.x: either gap leaves the other), so each is
    /// played to see.
    pub(super) fn fork_cell(
        &mut self,
        me: Mark,
        forks: &[u32; MAX_SIDE as usize],
    ) -> Option<Square> {
        if self.one_board {
            // The pattern board's forks are exact.
            return cells_of(*forks).next();
        }
        for sq in cells_of(*forks) {
            let turn = self.turn;
            self.apply(sq, me);
            let two = self.winning_cells(me).1 >= 2;
            self.unapply(sq, me);
            self.turn = turn;
            if two {
                return Some(sq);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::strong::Budget;
    use crate::pattern::ThreatClass;
    use crate::rng::Rng;
    use crate::{Position, Rules};

    /// Per row, a bit per column: whether any bit is set in `a` and not in
    /// `b`.
    fn outside(a: &[u32; MAX_SIDE as usize], b: &[u32; MAX_SIDE as usize]) -> bool {
        a.iter().zip(b).any(|(x, y)| x & !y != 0)
    }

    /// Where the pattern board is the only board (15x15, five or more
    /// wins), the threats read from it are the ones the line windows give
    /// (kept beside it in this test), after every move of random games
    /// played near the stones: the same five cells; the same four cells,
    /// five cells aside (a cell that makes five may make a four on another
    /// line); as forks, exactly those of the windows' candidates (which
    /// also hold false forks such as `x.xx.x`) that really make two five
    /// cells when played (the side having none yet); and, with no five cell on the board, the same
    /// "can make a four" and the same static wins.
    #[test]
    fn the_pattern_boards_threats_are_the_windows() {
        let rules = Rules::new(15, 15, 5).unwrap();
        let mut rng = Rng::new(11);
        let mut forks_seen = 0;
        let mut wins_seen = 0;
        for _game in 0..24 {
            let mut e = Engine::new(Budget::nodes(1), 0);
            e.load(&Position::new(rules));
            assert!(e.one_board);
            let centre = Square::new(7, 7).unwrap();
            let mut next = Some(centre);
            while let Some(sq) = next {
                // Both boards move: the windows only when not one board.
                e.one_board = false;
                let mark = e.turn;
                if e.apply(sq, mark) {
                    break;
                }
                let mut fives = [[0u32; MAX_SIDE as usize]; 2];
                for m in Mark::ALL {
                    let board = e.shapes.as_ref().unwrap().board();
                    for c in board.cells_of(m, ThreatClass::Five) {
                        fives[m.index()][c.row() as usize] |= 1 << c.column();
                    }
                }
                let no_five = fives.iter().all(|f| f.iter().all(|&r| r == 0));
                for m in Mark::ALL {
                    let mi = m.index();
                    let (cell_w, n_w) = e.winning_cells(m);
                    let (once_w, twice_w) = e.three_cells(mi);
                    let four_w = e.has_four_cells(mi);
                    e.one_board = true;
                    let (cell_p, n_p) = e.winning_cells(m);
                    let (once_p, twice_p) = e.three_cells(mi);
                    let four_p = e.has_four_cells(mi);
                    e.one_board = false;
                    assert_eq!(n_p, n_w);
                    if n_w == 1 {
                        assert_eq!(cell_p, cell_w);
                    }
                    let f = &fives[mi];
                    let strip = |rows: [u32; MAX_SIDE as usize]| {
                        core::array::from_fn::<u32, { MAX_SIDE as usize }, _>(|r| rows[r] & !f[r])
                    };
                    assert_eq!(strip(once_p), strip(once_w));
                    assert!(!outside(&twice_p, &twice_w));
                    // (A five cell of m's already there would count as one
                    // of the two.)
                    let no_five_of_m = f.iter().all(|&r| r == 0);
                    for c in cells_of(twice_w).filter(|_| no_five_of_m) {
                        let turn = e.turn;
                        e.apply(c, m);
                        let real = e.winning_cells(m).1 >= 2;
                        e.unapply(c, m);
                        e.turn = turn;
                        let named = twice_p[c.row() as usize] >> c.column() & 1 != 0;
                        assert_eq!(named, real, "{c:?}");
                        forks_seen += usize::from(real);
                    }
                    if no_five {
                        assert_eq!(four_p, four_w);
                    }
                }
                if no_five {
                    let win_w = e.static_win();
                    e.one_board = true;
                    let win_p = e.static_win();
                    e.one_board = false;
                    assert_eq!(win_p, win_w);
                    wins_seen += usize::from(win_w.is_some());
                }
                // Next: a random empty cell within two steps of a stone.
                let front = e.frontier();
                let n: u32 = front.iter().map(|r| r.count_ones()).sum();
                next = (n > 0)
                    .then(|| cells_of(front).nth(rng.below(n) as usize))
                    .flatten();
            }
        }
        // The games reached the threats compared.
        assert!(
            forks_seen >= 20 && wins_seen >= 20,
            "{forks_seen} {wins_seen}"
        );
    }
}
