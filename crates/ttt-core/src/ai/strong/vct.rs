//! VCT, victory by continuous threats: fours and three-threats.
//!
//! A three-threat is an attacker move after which it has a cell that
//! really makes two winning cells (each candidate is played to see: in
//! ox.xx.xo either gap makes one four). The defender then tries every
//! empty cell of the attacker's three-windows (a move elsewhere leaves
//! that cell's double threat) and each of its own fours; the attacker must
//! win against all of them. The number of three-threats in a line is
//! capped ([`VCT_THREES`] at the root), fours are bounded by the ply.
//!
//! Shares the VCF search's scratch ([`Vcf`]: node cap, failure cache) and
//! its limits; freestyle, k >= 4 only. Used at the root only
//! (`Engine::root_vcf`).
use super::ordering::insert_ranked;
use super::threats::cells_of;
use super::vcf::{Vcf, MAX_FOURS, O_ATTACKS, WIDTH};
use super::Engine;
use crate::{Mark, Square};

/// Three-threats (moves after which the attacker has a cell making two
/// winning cells) allowed in one VCT line, on top of its fours.
pub(super) const VCT_THREES: usize = 3;
/// Mixed into VCT failure keys (a VCT failure is no VCF failure).
const VCT_KEY: u64 = 0x7654_3210_fedc_ba98;
/// Recursion bound of a VCT (attacker and defender moves).
pub(super) const VCT_MAX_PLY: usize = 2 * MAX_FOURS;

impl Engine<'_> {
    /// A VCT of the side to move (continuous fours and threes: every
    /// attacker move a four or a move that threatens two winning cells next;
    /// every defence tried: each cell of the attacker's three-windows and
    /// each four of its own) within `threes` three-threats and `max_nodes`
    /// nodes: its first move, or `None` (see `vcf.cut_off`). Freestyle,
    /// k >= 4 only.
    pub(super) fn find_vct(
        &mut self,
        vcf: &mut Vcf,
        threes: usize,
        max_nodes: u64,
    ) -> Option<Square> {
        vcf.start(max_nodes);
        if !self.vcf_applies() {
            return None;
        }
        let me = self.turn;
        let mut first = None;
        self.vct_attack(vcf, me, threes, 0, &mut first)
            .then_some(first)
            .flatten()
    }

    /// Attacker `me` to move, `threes` three-threats left: whether it wins
    /// by threats. At `ply` 0 the winning move is written to `first`.
    fn vct_attack(
        &mut self,
        vcf: &mut Vcf,
        me: Mark,
        threes: usize,
        ply: usize,
        first: &mut Option<Square>,
    ) -> bool {
        let you = me.other();
        if let (Some(sq), _) = self.winning_cells(me) {
            *first = Some(sq);
            return true;
        }
        let (must_block, theirs) = self.winning_cells(you);
        if theirs >= 2 || ply >= VCT_MAX_PLY {
            return false;
        }
        let (makes_four, forks) = self.three_cells(me.index());
        if must_block.is_none() {
            // A cell making two winning cells at once, and no four of the
            // defender to answer with: won.
            if let Some(sq) = self.fork_cell(me, &forks) {
                *first = Some(sq);
                return true;
            }
        }
        let key = self.hash ^ VCT_KEY ^ if me == Mark::O { O_ATTACKS } else { 0 };
        // Depth of a VCT node: three-threats left, fours bounded by ply.
        if vcf.known_failure(key, threes) {
            return false;
        }
        let mut moves = [(0i32, Square::from_index(0)); WIDTH];
        let n = if let Some(b) = must_block {
            moves[0] = (0, b);
            1
        } else {
            // Fours first (one reply each), then the cells of two-windows
            // (k-3 marks of ours, none of theirs): where a three-threat
            // can be made.
            let two = {
                let k3 = self.k as u16 - 3;
                if me == Mark::X {
                    k3 * super::MAX_COUNT as u16
                } else {
                    k3
                }
            };
            let front = self.frontier();
            let mut n = 0;
            let mut tried = makes_four;
            if threes > 0 {
                for (t, near) in tried.iter_mut().zip(front) {
                    *t |= near;
                }
            }
            for sq in cells_of(tried) {
                let is_four = makes_four[sq.row() as usize] >> sq.column() & 1 != 0;
                if !is_four {
                    let in_two = match self.one_board() {
                        Some(shapes) => shapes.makes_three(sq, me),
                        None => {
                            let mut in_two = false;
                            self.for_windows(sq, |w| in_two |= self.counts[w] == two);
                            in_two
                        }
                    };
                    if !in_two {
                        continue;
                    }
                }
                let key = self.four_key(sq, me.index()) + if is_four { 1 << 24 } else { 0 };
                n = insert_ranked(&mut moves, n, key, sq);
            }
            n
        };
        for &(_, sq) in &moves[..n] {
            if !self.play_counted(vcf, sq, me) {
                return false;
            }
            let (reply, fours) = self.winning_cells(me);
            let won = if fours >= 2 {
                true
            } else if let Some(r) = reply {
                self.apply(r, you);
                let won = self.vct_attack(vcf, me, threes, ply + 2, &mut None);
                self.unapply(r, you);
                won
            } else if threes > 0 && {
                let (_, forks) = self.three_cells(me.index());
                self.fork_cell(me, &forks).is_some()
            } {
                self.vct_defend(vcf, me, threes - 1, ply + 1)
            } else {
                false
            };
            self.unapply(sq, me);
            if won {
                *first = Some(sq);
                return true;
            }
            if vcf.cut_off {
                return false;
            }
        }
        vcf.note_failure(key, threes);
        false
    }

    /// Defender to move against attacker `me`'s three-threat: whether every
    /// defence loses. Defences: the empty cells of the attacker's
    /// three-windows (a move elsewhere leaves its double threat) and the
    /// defender's own fours.
    pub(super) fn vct_defend(
        &mut self,
        vcf: &mut Vcf,
        me: Mark,
        threes: usize,
        ply: usize,
    ) -> bool {
        let you = me.other();
        let (blocks, _) = self.three_cells(me.index());
        let (counters, _) = self.three_cells(you.index());
        let mut defences = blocks;
        for (d, c) in defences.iter_mut().zip(counters) {
            *d |= c;
        }
        for sq in cells_of(defences) {
            if !self.play_counted(vcf, sq, you) {
                return false;
            }
            let won = self.winning_cells(you).1 < 2
                && self.vct_attack(vcf, me, threes, ply + 1, &mut None);
            self.unapply(sq, you);
            if !won {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_boards::{board, engine};
    use super::super::Budget;
    use super::*;

    /// X to move can make two open threes at once (the cross of an open
    /// two in a row and one in a column): a VCT, not a VCF; the threat
    /// search finds it and the engine plays it without a main search.
    #[test]
    fn a_double_three_is_a_vct_and_is_played() {
        let pos = board(&[
            (0, "o.o..........o."),
            (5, ".......x......."),
            (6, ".......x......."),
            (7, ".....xx........"),
            (14, "..o............"),
        ]);
        let mut e = engine(&pos);
        let mut vcf = Vcf::new();
        assert_eq!(e.find_vcf(&mut vcf, MAX_FOURS, 100_000), None);
        assert!(!vcf.cut_off);
        let cross = Square::new(7, 7).unwrap();
        assert_eq!(e.find_vct(&mut vcf, VCT_THREES, 100_000), Some(cross));
        let mut e = Engine::new(Budget::nodes(50_000), 3);
        let (mv, score) = e.analyse(&pos).unwrap();
        assert_eq!(mv, cross);
        assert!(score >= super::super::MATE_BOUND, "{score}");
    }

    /// One open two each, far apart: no VCF, no VCT, and the searches
    /// finish (a real "none", not a cut-off).
    #[test]
    fn quiet_positions_have_no_threat_win() {
        let pos = board(&[(3, "...xx.........."), (11, "..........oo...")]);
        let mut e = engine(&pos);
        let mut vcf = Vcf::new();
        assert_eq!(e.find_vcf(&mut vcf, MAX_FOURS, 100_000), None);
        assert_eq!(e.find_vct(&mut vcf, VCT_THREES, 100_000), None);
        assert!(!vcf.cut_off);
    }

    /// ox.xx.xo: both gaps lie in two three-windows of X, yet each makes a
    /// single four (the windows share the other gap): no fork, no win.
    /// The pattern board names no fork at all; the windows name both gaps,
    /// and playing them shows there is none.
    #[test]
    fn a_split_pattern_is_no_fork() {
        let pos = board(&[(7, "...ox.xx.xo...."), (0, "o.............o")]);
        for one_board in [true, false] {
            let mut e = engine(&pos);
            e.one_board = one_board;
            let (_, twice) = e.three_cells(Mark::X.index());
            assert_eq!(twice.iter().any(|&r| r != 0), !one_board);
            assert_eq!(e.fork_cell(Mark::X, &twice), None);
            assert_eq!(e.static_win(), None);
            let mut vcf = Vcf::new();
            assert_eq!(e.find_vct(&mut vcf, VCT_THREES, 100_000), None);
        }
    }
}
