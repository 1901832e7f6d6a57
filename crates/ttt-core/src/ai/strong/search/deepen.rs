//! Iterative deepening over the root moves.
//!
//! Each iteration searches the root moves best first (the best of the last
//! iteration moves to the front); where the board asks for it
//! ([`Selectivity::ASPIRATION`]), within an aspiration window around the
//! value before, opened and searched again on the side a value falls out
//! of. The move of the last completed iteration is played, or a later one
//! that beat it before the budget ran out. After each completed iteration
//! the budget's `iteration_done` hears its depth, value, how many
//! iterations its move has held and how far its value fell, and may end
//! the search there (the caller's time management).
//!
//! [`Selectivity::ASPIRATION`]: super::super::board::Selectivity::ASPIRATION
use super::super::board::SearchBoard;
use super::super::budget::{Iteration, Line};
use super::super::score::{MATE_BOUND, MAX_PLY, WIN};
use super::Search;
use crate::Square;

impl<B: SearchBoard> Search<'_, B> {
    /// The window an iteration `depth` plies deep searches the root in,
    /// after an iteration that found `last` (`None`: the first): the
    /// board's [`Selectivity::ASPIRATION`] around `last`, or every value.
    ///
    /// [`Selectivity::ASPIRATION`]: super::super::board::Selectivity::ASPIRATION
    pub(super) fn aspiration_window(depth: u32, last: Option<i32>) -> (i32, i32) {
        match (B::ASPIRATION, last) {
            (Some(a), Some(v)) if depth >= a.from_depth && v.abs() < MATE_BOUND => {
                (v - a.half_width, v + a.half_width)
            }
            _ => (-WIN - 1, WIN + 1),
        }
    }

    /// One iteration over the root moves `root` (best first), `depth`
    /// plies deep, within `window` (below, above): the best move that
    /// beat the window's lower end, its value and its place in `root`
    /// (`None`: none did). A move that reaches the upper end opens the
    /// window above (`window.1` becomes every value) and is searched
    /// again. Once the budget runs out, a later move that beat the best
    /// so far is returned with the value that showed it.
    pub(super) fn search_root(
        &mut self,
        root: &[(i32, Square)],
        depth: u32,
        window: &mut (i32, i32),
    ) -> Option<(Square, i32, usize)> {
        let me = self.board.stones().turn;
        let d = depth as i32 - 1;
        let mut alpha = window.0;
        let mut found = None;
        for (i, &(_, sq)) in root.iter().enumerate() {
            self.board.apply(sq, me);
            let mut v = if i == 0 {
                -self.search(d, 1, -window.1, -alpha, false)
            } else {
                // Later moves only have to be shown worse (null window);
                // one that is not is searched again in full.
                let v = -self.search(d, 1, -alpha - 1, -alpha, true);
                if v > alpha && !self.meter.aborted {
                    let full = -self.search(d, 1, -window.1, -alpha, false);
                    if self.meter.aborted {
                        // It beat the best so far: play it even without
                        // its exact value.
                        found = Some((sq, v, i));
                    }
                    full
                } else {
                    v
                }
            };
            // At or above a window still bounded above: a bound, not a
            // value. Open the window above and search this move again.
            if v >= window.1 && window.1 <= WIN && !self.meter.aborted {
                window.1 = WIN + 1;
                let full = -self.search(d, 1, -window.1, -alpha, false);
                if self.meter.aborted {
                    found = Some((sq, v, i));
                } else {
                    v = full;
                }
            }
            self.board.unapply(sq, me);
            if self.meter.aborted {
                break;
            }
            if v > alpha {
                alpha = v;
                found = Some((sq, v, i));
            }
        }
        found
    }

    /// Iterative deepening over the root moves `root` (best first, at
    /// least two) of a position with `empty_cells` empty cells: the move to
    /// play and its value. Stops at the budget, the depth cap, a decided
    /// value, or a depth that fills the board.
    pub(in crate::ai::strong) fn deepen(
        &mut self,
        root: &mut [(i32, Square)],
        empty_cells: usize,
    ) -> (Square, i32) {
        let n = root.len();
        let mut best = (root[0].1, 0);
        let mut stable = 0u32;
        let mut last_value: Option<i32> = None;
        let max_depth = match self.meter.budget.max_depth {
            0 => MAX_PLY,
            d => d.min(MAX_PLY),
        };
        for depth in 1..=max_depth {
            let mut window = Self::aspiration_window(depth, last_value);
            let iter_best = loop {
                let found = self.search_root(&root[..n], depth, &mut window);
                if found.is_some() || self.meter.aborted || window.0 < -WIN {
                    break found;
                }
                // Every move at or below the window: open it below and
                // search the iteration again.
                window.0 = -WIN - 1;
            };
            if self.meter.aborted {
                // A partial iteration still counts if its best beats the
                // previous one's move as searched so far (searched first).
                if let Some((sq, v, i)) = iter_best {
                    if i > 0 {
                        best = (sq, v);
                    }
                }
                break;
            }
            self.meter.stats.depth = depth;
            if let Some((sq, v, i)) = iter_best {
                stable = if sq == best.0 && last_value.is_some() {
                    stable + 1
                } else {
                    1
                };
                best = (sq, v);
                // Best move first next time.
                let item = root[i];
                for j in (1..=i).rev() {
                    root[j] = root[j - 1];
                }
                root[0] = item;
            }
            let drop = last_value.map_or(0, |last| (last - best.1).max(0));
            last_value = Some(best.1);
            // The caller hears every completed iteration (its time
            // management, and what it reports of the search), the last
            // one of a decided value included.
            let done = match self.meter.budget.iteration_done {
                Some(done) => done(&Iteration {
                    depth,
                    value: best.1,
                    stable,
                    drop,
                    nodes: self.meter.stats.nodes,
                    seldepth: self.meter.stats.seldepth,
                    pv: self.principal_line(best.0),
                    logit: B::LOGIT,
                }),
                None => false,
            };
            if done || best.1.abs() >= MATE_BOUND || depth as usize >= empty_cells {
                break;
            }
        }
        best
    }

    /// The line the search expects after the root move `first`: each
    /// next move is the table's best move for the position reached, as
    /// long as there is one and it is an empty cell (a table entry may
    /// belong to another position with the same slot). The board is left
    /// as it was.
    fn principal_line(&mut self, first: Square) -> Line {
        let mut line = Line::EMPTY;
        line.push(first);
        let mut mark = self.board.stones().turn;
        let mut over = self.board.apply(first, mark);
        while !over && line.moves().len() < Line::MAX {
            let stones = self.board.stones();
            if stones.marks as usize == stones.rules.cell_count() {
                break;
            }
            // The reply: a five, or the block of one (the search keeps no
            // entry for either), else the table's move.
            let (five, _) = self.board.winning_cells(mark.other());
            let (block, _) = self.board.winning_cells(mark);
            let next = five
                .or(block)
                .or_else(|| self.table_move(stones.hash))
                .filter(|&sq| {
                    let stones = self.board.stones();
                    stones.rules.contains(sq) && stones.cells[sq.index()] == 0
                });
            let Some(sq) = next else {
                break;
            };
            mark = mark.other();
            over = self.board.apply(sq, mark);
            line.push(sq);
        }
        for &sq in line.moves().iter().rev() {
            self.board.unapply(sq, mark);
            mark = mark.other();
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::board::Selectivity;
    use super::super::super::score::{MATE_BOUND, WIN};
    use super::super::super::shape::ShapeBoard;
    use super::super::super::test_boards::board;
    use super::super::super::window::WindowBoard;
    use super::Search;
    use crate::Square;

    /// On the pattern board, an iteration from the fifth ply searches the
    /// root within a window around the value before; a value that falls
    /// out of it is searched again, not taken for a bound: above it, the
    /// window opens and the move gets its value in full; below it, no
    /// move is returned (the deepening then opens the window below).
    /// Before the fifth ply, after a mate, and on the window board (the
    /// console's), every value is in the window.
    #[test]
    fn a_root_value_out_of_the_aspiration_window_is_searched_again() {
        let pos = board(&[
            (6, "......xo......."),
            (7, ".....xxo......."),
            (8, "......o........"),
        ]);
        let root_search = |window: (i32, i32)| {
            let mut s = Search::unlimited(ShapeBoard::new(&pos).unwrap());
            let mut root = [(0, Square::from_index(0)); 32];
            let n = s.candidates(&mut root, true);
            let mut w = window;
            let found = s.search_root(&root[..n], 3, &mut w);
            (found.map(|(sq, v, _)| (sq, v)), w)
        };
        let all = (-WIN - 1, WIN + 1);
        let (full, _) = root_search(all);
        let (_, v) = full.unwrap();
        // A window far below the value: opened above, the same answer.
        let (high, w) = root_search((v - 3000, v - 2000));
        assert_eq!((high, w.1), (full, WIN + 1));
        // Far above it: nothing beats its lower end.
        assert_eq!(root_search((v + 2000, v + 3000)).0, None);
        // Where the window applies.
        let half = <ShapeBoard>::ASPIRATION.unwrap().half_width;
        type Shapes<'a> = Search<'a, ShapeBoard>;
        assert_eq!(
            Shapes::aspiration_window(5, Some(40)),
            (40 - half, 40 + half)
        );
        assert_eq!(Shapes::aspiration_window(4, Some(40)), all);
        assert_eq!(Shapes::aspiration_window(5, None), all);
        assert_eq!(Shapes::aspiration_window(5, Some(MATE_BOUND + 3)), all);
        assert_eq!(Search::<WindowBoard>::aspiration_window(5, Some(40)), all);
    }
}
