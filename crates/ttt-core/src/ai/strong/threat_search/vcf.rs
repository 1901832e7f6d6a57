//! VCF: victory by continuous fours.
//!
//! The attacker plays only fours; the defender's one reply is the block.
//! The block may make a four of the defender's own: the attacker must then
//! block it, and the chain goes on only if that block is again a four. A
//! chain that ends in two winning cells at once is a win.
use super::super::board::SearchBoard;
use super::super::rows::cells_of;
use super::super::search::picker::insert_ranked;
use super::{ThreatSearch, MAX_FOURS, O_ATTACKS, WIDTH};
use crate::{Mark, Square};

impl<B: SearchBoard> ThreatSearch<'_, '_, B> {
    /// A VCF of the side to move within `max_fours` fours and `max_nodes`
    /// nodes: its first move (also a win in one, or the forced block that
    /// starts it), the line in the scratch's `line()`. `None`: none found
    /// (see the scratch's `cut_off`). The position is unchanged after.
    pub(in crate::ai::strong) fn find_vcf(
        &mut self,
        max_fours: usize,
        max_nodes: u64,
    ) -> Option<Square> {
        self.scratch.start(max_nodes);
        if !self.applies() {
            return None;
        }
        let me = self.board.stones().turn;
        if let (Some(sq), _) = self.board.winning_cells(me) {
            self.scratch.line[0] = sq;
            self.scratch.line_len = 1;
            return Some(sq);
        }
        let mut line_end = 0;
        if self.vcf_node(me, max_fours.min(MAX_FOURS), 0, &mut line_end) {
            self.scratch.line_len = line_end;
            Some(self.scratch.line[0])
        } else {
            None
        }
    }

    /// Whether the chain `line` (from a [`find_vcf`](Self::find_vcf) for
    /// the side to move) still wins for it as played: every attacker move
    /// still a four (or the forced block that is one), every reply still
    /// the only one, and the end two winning cells. Cheap: one apply per
    /// move.
    pub(super) fn line_still_wins(&mut self, line: &[Square]) -> bool {
        let attacker = self.board.stones().turn;
        let mut played = 0;
        let wins = self.replay(line, attacker, &mut played);
        // Take back in reverse, marks alternating from the attacker's.
        for i in (0..played).rev() {
            let mark = if i % 2 == 0 {
                attacker
            } else {
                attacker.other()
            };
            self.board.unapply(line[i], mark);
        }
        self.board.set_turn(attacker);
        wins
    }

    /// Plays `line` for `attacker` (moved next: it is given the turn) as
    /// far as it stays forced, counting the moves played; whether it wins.
    fn replay(&mut self, line: &[Square], attacker: Mark, played: &mut usize) -> bool {
        let defender = attacker.other();
        self.board.set_turn(attacker);
        for pair in line.chunks(2) {
            let sq = pair[0];
            if !self.board.stones().is_empty(sq) {
                return false;
            }
            let (must, n) = self.board.winning_cells(defender);
            if n >= 2 || must.is_some_and(|b| b != sq) {
                return false;
            }
            if self.board.winning_cells(attacker).0 == Some(sq) {
                return true;
            }
            self.board.apply(sq, attacker);
            *played += 1;
            let (block, threats) = self.board.winning_cells(attacker);
            if threats >= 2 {
                return true;
            }
            // The defender's only move must be the recorded one.
            match (block, pair.get(1)) {
                (Some(b), Some(&reply))
                    if b == reply && self.board.winning_cells(defender).1 == 0 =>
                {
                    self.board.apply(b, defender);
                    *played += 1;
                }
                _ => return false,
            }
        }
        false
    }

    /// Attacker `me` to move: whether it wins by fours within `fours`
    /// fours. On success the line from this node on is written at
    /// `line[at..*end]` of the scratch.
    fn vcf_node(&mut self, me: Mark, fours: usize, at: usize, end: &mut usize) -> bool {
        let you = me.other();
        if let (Some(sq), _) = self.board.winning_cells(me) {
            self.scratch.line[at] = sq;
            *end = at + 1;
            return true;
        }
        let (must_block, theirs) = self.board.winning_cells(you);
        if theirs >= 2 || fours == 0 {
            return false;
        }
        let key = self.board.stones().hash ^ if me == Mark::O { O_ATTACKS } else { 0 };
        if self.scratch.known_failure(key, fours) {
            return false;
        }
        let mut moves = [(0i32, Square::from_index(0)); WIDTH];
        let n = if let Some(b) = must_block {
            // Only the block is playable; it goes on only if it is a four.
            moves[0] = (0, b);
            1
        } else {
            let (makes_four, _) = self.board.four_cells(me.index());
            let mut n = 0;
            for sq in cells_of(makes_four) {
                n = insert_ranked(&mut moves, n, self.board.order_key(sq, me.index()), sq);
            }
            n
        };
        for &(_, sq) in &moves[..n] {
            if !self.play_counted(sq, me) {
                return false;
            }
            let (reply, threats) = self.board.winning_cells(me);
            let won = if threats >= 2 {
                // Two winning cells, and the defender has none (any it had
                // was blocked by `sq`): won.
                *end = at + 1;
                true
            } else if let Some(r) = reply {
                self.board.apply(r, you);
                let won = self.vcf_node(me, fours - 1, at + 2, end);
                self.board.unapply(r, you);
                if won {
                    self.scratch.line[at + 1] = r;
                }
                won
            } else {
                // A block that is no four.
                false
            };
            self.board.unapply(sq, me);
            if won {
                self.scratch.line[at] = sq;
                return true;
            }
            if self.scratch.cut_off {
                return false;
            }
        }
        self.scratch.note_failure(key, fours);
        false
    }
}
