//! Threats judged by line shape (five in a row, not renju, boards larger
//! than 9x9): the window sets say where a threat may be, the pattern
//! tables ([`Probe`]) say whether it is one and which cells answer it.
//! Only the few cells the windows point at are read, so a node pays
//! nothing when the board is quiet. Where the pattern board is the only
//! board (`board.rs`), its classes point at the cells instead (an open-four
//! cell is exactly a fork, so no false fork is probed).
//!
//! * Exact replies: against the opponent's open-four cells (an open three,
//!   or two threes crossing: a stone there makes two five cells) only the
//!   cells that defuse all of them and our own fours are searched. The
//!   window sets alone answer every cell shared by two three-windows, which
//!   includes false forks (`x.xx.x` makes one five cell, not two), and with
//!   every cell of the three-windows. When nothing defuses the threat and
//!   we have no four to play first, the position is lost in 3 plies.
//! * Four-three wins: when the opponent cannot make a four anywhere, our
//!   four-three cell wins in 5 plies (the forced block of the four leaves
//!   the open three, which becomes an open four).
//! * Four-three replies (where the pattern board is kept, `shape_eval.rs`):
//!   against the opponent's four-three cell only the cells that defuse it
//!   and our fours are searched, as Rapfi does: a threat sequence is
//!   stopped a move before it makes an open three. With reverse futility
//!   (`search.rs`), against Rapfi at 50 ms and `strong` at 250 ms, openings
//!   1-150 played twice: 227.5 of 300 games where the version before won
//!   186.5.
//!
//! Measured on 15x15 freestyle, the 150 balanced openings played twice
//! against the engine with the window sets' replies: at 200,000 nodes a
//! move, opening pairs won 43, lost 20 (+52 Elo); at 100 ms a move, won
//! 40, lost 28 (+27 Elo); at 200 ms (the first 100 openings), won 26,
//! lost 14 (+44 Elo): the probes cost little time. The same replies
//! and wins read from a pattern board kept move by move won as much per
//! node but made every node 2.4 times as dear (-60 Elo at 100 ms).
use super::shape_eval::MIN_CELLS;
use super::threats::cells_of;
use super::Engine;
use crate::pattern::{Probe, ThreatClass};
use crate::{SquareSet, MAX_SIDE};

/// Per row, a bit per column: the cells of `set`.
fn rows_of(set: SquareSet) -> [u32; MAX_SIDE as usize] {
    let mut rows = [0u32; MAX_SIDE as usize];
    for sq in set {
        rows[sq.row() as usize] |= 1 << sq.column();
    }
    rows
}

impl Engine<'_> {
    /// Whether threats are judged by shape: five in a row, not renju
    /// (black's forbidden cells change which threats are real), on boards
    /// larger than 9x9 as the shape evaluation ([`MIN_CELLS`]). On the
    /// console's 9x9 the probes made a node 10-19% dearer (`ttt bench`
    /// strong-9x9k5: 0.064-0.070 s against 0.058 s, the same answers) and
    /// won nothing: 100.5 of 200 games against the version with them, 100
    /// ms a move from random 9x9 openings.
    pub(super) fn judges_shapes(&self) -> bool {
        self.k == 5 && !self.rules.is_renju() && self.rules.cell_count() >= MIN_CELLS
    }

    /// Against the opponent's open-four cells, the only moves worth
    /// searching, per row a bit per column: the cells that defuse all of
    /// them, and the cells where we make a four. All zero: nothing saves
    /// the position. `None` when the opponent has no open-four cell.
    pub(super) fn exact_replies(&self) -> Option<[u32; MAX_SIDE as usize]> {
        let me = self.turn;
        let them = me.other();
        if let Some(shapes) = self.one_board() {
            // Most nodes: no open-four cell, told by a count.
            if shapes.board().count(them, ThreatClass::OpenFour) == 0 {
                return None;
            }
        }
        // An open-four cell lies in two three-windows of the opponent.
        let (_, forks) = self.three_cells(them.index());
        if forks.iter().all(|&r| r == 0) {
            return None;
        }
        let probe = Probe::new(&self.rules, &self.cells).ok()?;
        let defusers = probe.defences(me, ThreatClass::OpenFour, cells_of(forks));
        Some(self.with_our_fours(defusers?))
    }

    /// Against the opponent's four-three cells (where shapes are kept),
    /// the only moves worth searching, per row a bit per column: the cells
    /// that defuse them all, and the cells where we make a four. A
    /// four-three wins in 5 plies (the block of its four leaves an open
    /// three that becomes an open four), so a move elsewhere loses unless
    /// it is a four of ours; answered now, the opponent's threat sequence
    /// stops a move early. `None` when the opponent has no four-three cell,
    /// or when no one cell defuses them all (then every candidate is
    /// searched: the search finds the loss, or a counter-attack).
    pub(super) fn four_three_replies(&self) -> Option<[u32; MAX_SIDE as usize]> {
        let defusers = self.shapes.as_ref()?.four_three_defences(self.turn)?;
        (!defusers.is_empty()).then(|| self.with_our_fours(defusers))
    }

    /// The cells of `defusers` and the cells where the side to move makes
    /// a four (a reply the opponent must answer first), per row a bit per
    /// column.
    fn with_our_fours(&self, defusers: SquareSet) -> [u32; MAX_SIDE as usize] {
        let mut replies = rows_of(defusers);
        let (fours, _) = self.three_cells(self.turn.index());
        for (r, f) in replies.iter_mut().zip(fours) {
            *r |= f;
        }
        replies
    }

    /// Whether one of `fours` (per row a bit per column: the cells where
    /// the side to move makes a four) is a four-three cell. The caller
    /// checks that the opponent has no three-window (so no stone of theirs
    /// makes a four): then such a cell wins in 5 plies.
    pub(super) fn has_four_three(&self, fours: &[u32; MAX_SIDE as usize]) -> bool {
        if let Some(shapes) = &self.shapes {
            return cells_of(*fours).any(|q| shapes.class(q, self.turn) >= ThreatClass::FourThree);
        }
        let Ok(probe) = Probe::new(&self.rules, &self.cells) else {
            return false;
        };
        cells_of(*fours).any(|q| probe.class(q, self.turn) >= ThreatClass::FourThree)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_boards::{board, engine};
    use super::super::{Budget, MATE_BOUND};
    use super::*;
    use crate::pattern::PatternBoard;
    use crate::{Mark, Square};

    /// ox.xx.xo: each gap lies in two three-windows of X, so the window
    /// sets would restrict O to their cells, but neither gap makes two
    /// five cells: by shape there is nothing O must answer, whether the
    /// fork candidates come from the windows or from the pattern board.
    #[test]
    fn a_false_fork_calls_for_no_reply() {
        let pos = board(&[(7, "...ox.xx.xo...."), (0, "o..............")]);
        let mut e = engine(&pos);
        assert_eq!(e.turn, Mark::O);
        assert!(e.one_board);
        assert_eq!(e.exact_replies(), None);
        assert!(e.threat_replies().is_none());
        // The windows (up to date just after loading) see two forks.
        e.one_board = false;
        assert!(e.threat_replies().is_some());
        assert_eq!(e.exact_replies(), None);
    }

    /// Against an open three, the replies are the cells the pattern board
    /// finds by trying every cell, and the cells where O makes a four.
    #[test]
    fn an_open_three_is_answered_by_its_defusers_and_our_fours() {
        let pos = board(&[
            (7, ".....xxx......."),
            (2, "xoo.o.........."),
            (12, "x.............."),
            (14, "..............o"),
        ]);
        let e = engine(&pos);
        assert_eq!(e.turn, Mark::O);
        let replies = e.exact_replies().unwrap();
        let mut shapes = PatternBoard::new(&pos).unwrap();
        let (threat, answers) = shapes.answers(Mark::O).unwrap();
        assert_eq!(threat, ThreatClass::OpenFour);
        let expected = rows_of(answers.union(&shapes.four_cells(Mark::O)));
        assert_eq!(replies, expected);
        // e8 and i8 (the three's open ends), and d3 (O's four).
        for (c, r) in [(4, 7), (8, 7), (3, 2)] {
            assert!(replies[r] >> c & 1 != 0, "{c},{r}");
        }
    }

    /// Two open threes of X far apart, O without a three-window: nothing
    /// stops both, and the search sees the loss at once.
    #[test]
    fn two_open_threes_are_a_loss() {
        let pos = board(&[
            (2, "..xxx.........."),
            (11, ".........xxx..."),
            (7, "o.....o.......o"),
            (14, "o......o......."),
        ]);
        let e = engine(&pos);
        assert_eq!(e.turn, Mark::O);
        assert_eq!(e.exact_replies(), Some([0; MAX_SIDE as usize]));
        let mut e = Engine::new(Budget::nodes(2_000), 0);
        let (mv, value) = e.analyse(&pos).unwrap();
        assert!(value <= -MATE_BOUND, "{value}");
        // Still a move near the stones, not the first empty cell.
        assert!(pos.is_legal(mv) && mv != Square::new(0, 0).unwrap());
    }

    /// X: d8 e8 f8 blocked by c8 (g8 or h8 makes a four), g9 g10 open (g8
    /// also makes an open three down the column): g8 is a 4-3 cell, and X
    /// has no open-four cell.
    const X_FOUR_THREE: [(usize, &str); 3] = [
        (7, "..oxxx........."),
        (8, "......x........"),
        (9, "......x........"),
    ];

    /// [`X_FOUR_THREE`] and the rows `rest`.
    fn with_x_four_three(rest: &[(usize, &'static str)]) -> crate::Position {
        let mut rows = [(0, ""); 8];
        let n = X_FOUR_THREE.len() + rest.len();
        for (slot, &row) in rows.iter_mut().zip(X_FOUR_THREE.iter().chain(rest)) {
            *slot = row;
        }
        board(&rows[..n])
    }

    /// O to move against X's four-three cell (g8: a four along row 8 and
    /// an open three down column g) and no open three: only the cells
    /// that leave X no four-three, the ones the pattern board finds by
    /// trying every cell, and O's fours are searched.
    #[test]
    fn a_four_three_is_answered_by_its_defusers_and_our_fours() {
        let pos = with_x_four_three(&[
            (0, "o.oo..........o"),
            (12, "x.............x"),
            (14, "o......x......o"),
        ]);
        let mut e = engine(&pos);
        assert_eq!(e.turn, Mark::O);
        assert_eq!(e.exact_replies(), None);
        let replies = e.four_three_replies().unwrap();
        let mut shapes = PatternBoard::new(&pos).unwrap();
        let (threat, answers) = shapes.answers(Mark::O).unwrap();
        assert_eq!(threat, ThreatClass::FourThree);
        let expected = rows_of(answers.union(&shapes.four_cells(Mark::O)));
        assert_eq!(replies, expected);
        // g8 itself, and O's four at b1 (the three a1 c1 d1).
        for (c, r) in [(6, 7), (1, 0)] {
            assert!(replies[r] >> c & 1 != 0, "{c},{r}");
        }
        // The search's candidates are these cells only.
        let mut list = [(0, Square::from_index(0)); 12];
        let n = e.candidates(&mut list, false);
        assert!(n > 0);
        for &(_, sq) in &list[..n] {
            let (c, r) = (sq.column() as usize, sq.row() as usize);
            assert!(expected[r] >> c & 1 != 0, "{sq:?}");
        }
        // Without the four-three (no g10) nothing is restricted.
        let calm = board(&[
            X_FOUR_THREE[0],
            X_FOUR_THREE[1],
            (0, "o.oo..........o"),
            (12, "x.............x"),
            (14, "o......x......."),
        ]);
        let e = engine(&calm);
        assert_eq!(e.turn, Mark::O);
        assert_eq!(e.four_three_replies(), None);
    }

    /// X's four-three cell wins in 5 while O cannot make a four; one O
    /// three-window (a blocked three) is enough to spoil it.
    #[test]
    fn a_four_three_wins_when_the_opponent_has_no_four() {
        let quiet = with_x_four_three(&[(0, "o.............o"), (14, "o.............o")]);
        let mut e = engine(&quiet);
        assert_eq!(e.turn, Mark::X);
        assert_eq!(e.static_win(), Some(5));
        // O with a blocked three (a four to play first).
        let spoiled = with_x_four_three(&[
            (0, "o.oo..........o"),
            (12, "x.............x"),
            (14, "o.............o"),
        ]);
        let mut e = engine(&spoiled);
        assert_eq!(e.turn, Mark::X);
        assert_eq!(e.static_win(), None);
    }
}
