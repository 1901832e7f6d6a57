//! What the root makes of the threat searches: an own VCF or VCT is
//! played at once; against the opponent's VCF only the moves that stop it
//! are searched.
use super::super::board::SearchBoard;
use super::vct::{VCT_MAX_PLY, VCT_THREES};
use super::{ThreatSearch, MAX_FOURS};
use crate::Square;

/// The threat searches' verdict at the root.
pub(in crate::ai::strong) enum RootVcf {
    /// The side to move wins by threats: play this; the win comes within
    /// this many plies (a VCT's length is not tracked: its bound).
    Win(Square, usize),
    /// Search only the first this many root moves (moves that leave the
    /// opponent a VCF were dropped; all of them are kept when none stops
    /// it).
    Keep(usize),
}

/// Threat-search nodes at the root: for the own VCF, the own VCT, the
/// opponent's VCF, and (four times that, in all) the checks of the
/// defences; at most this share of the move's node budget (the console's
/// is small).
const ROOT_NODES: u64 = 20_000;
const ROOT_SHARE: u64 = 8;

impl<B: SearchBoard> ThreatSearch<'_, '_, B> {
    /// Root threat search over the candidate moves `root` (best first): own
    /// VCF or VCT, else the moves that stop the opponent's VCF (those after
    /// which a check finds none, or is cut off before it knows), in their
    /// order.
    pub(in crate::ai::strong) fn root_verdict(&mut self, root: &mut [(i32, Square)]) -> RootVcf {
        if !self.applies() {
            return RootVcf::Keep(root.len());
        }
        let cap = (self.meter.budget.max_nodes / ROOT_SHARE).min(ROOT_NODES);
        if let Some(sq) = self.find_vcf(MAX_FOURS, cap) {
            return RootVcf::Win(sq, self.scratch.line().len());
        }
        if let Some(sq) = self.find_vct(VCT_THREES, cap) {
            return RootVcf::Win(sq, VCT_MAX_PLY);
        }
        let me = self.board.stones().turn;
        self.board.set_turn(me.other());
        let threat = self.find_vcf(MAX_FOURS, cap).is_some();
        self.board.set_turn(me);
        if !threat || self.meter.aborted {
            return RootVcf::Keep(root.len());
        }
        let mut line = [Square::from_index(0); 4 * MAX_FOURS];
        let len = self.scratch.line().len();
        line[..len].copy_from_slice(self.scratch.line());
        let mut checks_left = cap.saturating_mul(4);
        let mut kept = 0;
        for i in 0..root.len() {
            let sq = root[i].1;
            self.board.apply(sq, me);
            // The same chain still wins: no defence (a proof, and cheap).
            // Else a fresh search for another one.
            let loses = self.line_still_wins(&line[..len])
                || (checks_left > 0 && {
                    let found = self.find_vcf(MAX_FOURS, checks_left).is_some();
                    checks_left = self.scratch.nodes_left;
                    // Unchecked or cut off: not known to lose, kept.
                    found
                });
            self.board.unapply(sq, me);
            if self.meter.aborted {
                return RootVcf::Keep(root.len());
            }
            if !loses {
                root[kept] = root[i];
                kept += 1;
            }
        }
        RootVcf::Keep(if kept == 0 { root.len() } else { kept })
    }
}
