//! VCT: victory by continuous threats, fours and three-threats.
//!
//! A three-threat is an attacker move after which it has a fork (a cell
//! that really makes two winning cells: in `ox.xx.xo` either gap makes one
//! four, and the window board plays each candidate to see). The defender
//! then tries every cell where the attacker makes a four (a move elsewhere
//! leaves the fork) and each of its own fours; the attacker must win
//! against all of them. The number of three-threats in a line is capped
//! ([`VCT_THREES`] at the root), fours are bounded by the ply. Shares the
//! VCF search's scratch (node cap, failure cache) and its limits.
use super::super::board::SearchBoard;
use super::super::rows::cells_of;
use super::super::search::picker::insert_ranked;
use super::{ThreatSearch, MAX_FOURS, O_ATTACKS, WIDTH};
use crate::{Mark, Square};

/// Three-threats (moves after which the attacker has a cell making two
/// winning cells) allowed in one VCT line, on top of its fours.
pub(in crate::ai::strong) const VCT_THREES: usize = 3;
/// Mixed into VCT failure keys (a VCT failure is no VCF failure).
const VCT_KEY: u64 = 0x7654_3210_fedc_ba98;
/// Recursion bound of a VCT (attacker and defender moves).
pub(super) const VCT_MAX_PLY: usize = 2 * MAX_FOURS;

impl<B: SearchBoard> ThreatSearch<'_, '_, B> {
    /// A VCT of the side to move (continuous fours and threes: every
    /// attacker move a four or a move that threatens two winning cells next;
    /// every defence tried: each cell where the attacker makes a four and
    /// each four of its own) within `threes` three-threats and `max_nodes`
    /// nodes: its first move, or `None` (see the scratch's `cut_off`).
    pub(in crate::ai::strong) fn find_vct(
        &mut self,
        threes: usize,
        max_nodes: u64,
    ) -> Option<Square> {
        self.scratch.start(max_nodes);
        if !self.applies() {
            return None;
        }
        let me = self.board.stones().turn;
        let mut first = None;
        self.vct_attack(me, threes, 0, &mut first)
            .then_some(first)
            .flatten()
    }

    /// Attacker `me` to move, `threes` three-threats left: whether it wins
    /// by threats. At `ply` 0 the winning move is written to `first`.
    fn vct_attack(
        &mut self,
        me: Mark,
        threes: usize,
        ply: usize,
        first: &mut Option<Square>,
    ) -> bool {
        let you = me.other();
        if let (Some(sq), _) = self.board.winning_cells(me) {
            *first = Some(sq);
            return true;
        }
        let (must_block, theirs) = self.board.winning_cells(you);
        if theirs >= 2 || ply >= VCT_MAX_PLY {
            return false;
        }
        let (makes_four, forks) = self.board.four_cells(me.index());
        if must_block.is_none() {
            // A cell making two winning cells at once, and no four of the
            // defender to answer with: won.
            if let Some(sq) = self.board.fork_cell(me, &forks) {
                *first = Some(sq);
                return true;
            }
        }
        let key = self.board.stones().hash ^ VCT_KEY ^ if me == Mark::O { O_ATTACKS } else { 0 };
        // Depth of a VCT node: three-threats left, fours bounded by ply.
        if self.scratch.known_failure(key, threes) {
            return false;
        }
        let mut moves = [(0i32, Square::from_index(0)); WIDTH];
        let n = if let Some(b) = must_block {
            moves[0] = (0, b);
            1
        } else {
            // Fours first (one reply each), then the cells where a stone
            // makes a three: where a three-threat can be made.
            let front = self.board.stones().frontier();
            let mut n = 0;
            let mut tried = makes_four;
            if threes > 0 {
                for (t, near) in tried.iter_mut().zip(front) {
                    *t |= near;
                }
            }
            for sq in cells_of(tried) {
                let is_four = makes_four[sq.row() as usize] >> sq.column() & 1 != 0;
                if !is_four && !self.board.makes_three(sq, me) {
                    continue;
                }
                let key = self.board.order_key(sq, me.index()) + if is_four { 1 << 24 } else { 0 };
                n = insert_ranked(&mut moves, n, key, sq);
            }
            n
        };
        for &(_, sq) in &moves[..n] {
            if !self.play_counted(sq, me) {
                return false;
            }
            let (reply, fours) = self.board.winning_cells(me);
            let won = if fours >= 2 {
                true
            } else if let Some(r) = reply {
                self.board.apply(r, you);
                let won = self.vct_attack(me, threes, ply + 2, &mut None);
                self.board.unapply(r, you);
                won
            } else if threes > 0 && {
                let (_, forks) = self.board.four_cells(me.index());
                self.board.fork_cell(me, &forks).is_some()
            } {
                self.vct_defend(me, threes - 1, ply + 1)
            } else {
                false
            };
            self.board.unapply(sq, me);
            if won {
                *first = Some(sq);
                return true;
            }
            if self.scratch.cut_off {
                return false;
            }
        }
        self.scratch.note_failure(key, threes);
        false
    }

    /// Defender to move against attacker `me`'s three-threat: whether every
    /// defence loses. Defences: the cells where the attacker makes a four
    /// (a move elsewhere leaves its fork) and the defender's own fours.
    pub(in crate::ai::strong) fn vct_defend(
        &mut self,
        me: Mark,
        threes: usize,
        ply: usize,
    ) -> bool {
        let you = me.other();
        let (blocks, _) = self.board.four_cells(me.index());
        let (counters, _) = self.board.four_cells(you.index());
        let mut defences = blocks;
        for (d, c) in defences.iter_mut().zip(counters) {
            *d |= c;
        }
        for sq in cells_of(defences) {
            if !self.play_counted(sq, you) {
                return false;
            }
            let won = self.board.winning_cells(you).1 < 2
                && self.vct_attack(me, threes, ply + 1, &mut None);
            self.board.unapply(sq, you);
            if !won {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::board::SearchBoard;
    use super::super::super::budget::{Budget, Meter};
    use super::super::super::shape::ShapeBoard;
    use super::super::super::test_boards::board;
    use super::super::super::window::WindowBoard;
    use super::super::{Scratch, ThreatSearch, MAX_FOURS};
    use super::VCT_THREES;
    use crate::{Mark, Position, Square};

    /// The VCF and VCT of the side to move in `pos` on `board`, each
    /// within 100,000 nodes, and whether either search was cut off.
    fn threat_wins<B: SearchBoard>(mut board: B) -> (Option<Square>, Option<Square>, bool) {
        let mut meter = Meter::new(Budget::nodes(u64::MAX));
        let mut scratch = Scratch::new();
        let mut threats = ThreatSearch {
            board: &mut board,
            meter: &mut meter,
            scratch: &mut scratch,
        };
        let vcf = threats.find_vcf(MAX_FOURS, 100_000);
        let cut = threats.scratch.cut_off;
        let vct = threats.find_vct(VCT_THREES, 100_000);
        (vcf, vct, cut || threats.scratch.cut_off)
    }

    /// On both boards.
    fn both(pos: &Position) -> [(Option<Square>, Option<Square>, bool); 2] {
        [
            threat_wins(ShapeBoard::new(pos).unwrap()),
            threat_wins(WindowBoard::new(pos)),
        ]
    }

    /// X to move can make two open threes at once (the cross of an open
    /// two in a row and one in a column): a VCT, not a VCF, on either
    /// board.
    #[test]
    fn a_double_three_is_a_vct() {
        let pos = board(&[
            (0, "o.o..........o."),
            (5, ".......x......."),
            (6, ".......x......."),
            (7, ".....xx........"),
            (14, "..o............"),
        ]);
        let cross = Square::new(7, 7).unwrap();
        assert_eq!(both(&pos), [(None, Some(cross), false); 2]);
    }

    /// One open two each, far apart: no VCF, no VCT, and the searches
    /// finish (a real "none", not a cut-off).
    #[test]
    fn quiet_positions_have_no_threat_win() {
        let pos = board(&[(3, "...xx.........."), (11, "..........oo...")]);
        assert_eq!(both(&pos), [(None, None, false); 2]);
    }

    /// ox.xx.xo: both gaps lie in two three-windows of X, yet each makes a
    /// single four (the windows share the other gap): no fork, no win.
    /// The pattern board names no fork at all; the window board names both
    /// gaps, and playing them shows there is none.
    #[test]
    fn a_split_pattern_is_no_fork() {
        let pos = board(&[(7, "...ox.xx.xo...."), (0, "o.............o")]);
        fn forks<B: SearchBoard>(mut b: B) -> (bool, Option<Square>, Option<i32>) {
            let (_, twice) = b.four_cells(Mark::X.index());
            let named = twice.iter().any(|&r| r != 0);
            (named, b.fork_cell(Mark::X, &twice), b.static_win())
        }
        assert_eq!(forks(ShapeBoard::new(&pos).unwrap()), (false, None, None));
        assert_eq!(forks(WindowBoard::new(&pos)), (true, None, None));
        for (_, vct, _) in both(&pos) {
            assert_eq!(vct, None);
        }
    }
}
