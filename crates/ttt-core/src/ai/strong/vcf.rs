//! Threat-space search for [`Engine`]: VCF, victory by continuous fours,
//! and what the root makes of the threat searches.
//!
//! A four (a window with k-1 of a side's marks and none of the other's)
//! leaves the opponent one reply, the block, unless it can win first. A
//! chain of fours ending in two winning cells at once is a forced win that
//! a search with one defender move per ply finds far deeper than the main
//! search sees. The defender's block may make a four of its own: the
//! attacker must then block it, and the chain goes on only if that block is
//! again a four.
//!
//! Cost control: a node cap per search, the engine's [`Budget`] (nodes and
//! deadline) on top, and a small direct-mapped cache of positions already
//! shown to fail (transposed orders of the same fours are common; the VCT
//! search of `vct.rs` shares it). The first move of a found chain and the
//! whole line are kept, so a defence check can first replay the line
//! (cheap) before searching anew.
//!
//! At the root (see [`RootVcf`]): an own VCF or VCT is played at once;
//! against the opponent's VCF only the moves that stop it are searched.
//! Measured against Rapfi-classical (15x15, 1 s/move, 40 games, seed 2):
//! 14-0-26 (main: 13-0-27). A defence against the opponent's VCT as well
//! (only root moves after which a capped check finds none) was measured
//! and dropped: 15-0-25 keeping the unchecked moves, 12-0-28 dropping
//! them, and 18-0-22 against main at 200 ms/move (its checks eat the
//! time).
//!
//! Not used under "exactly k" (an overline changes which fours win) nor
//! below k = 4 (a "four" is then a two, and the main search sees it all).
//!
//! [`Budget`]: super::Budget
use super::ordering::insert_ranked;
use super::threats::cells_of;
use super::vct::{VCT_MAX_PLY, VCT_THREES};
use super::Engine;
use crate::{Mark, Square, WinCondition};

/// Fours in a row searched at most (attacker moves of one chain).
pub(super) const MAX_FOURS: usize = 24;
/// Most four-making moves tried at one node (best ordering keys first).
pub(super) const WIDTH: usize = 32;
/// Slots of the failure cache (a power of two).
const CACHE_SLOTS: usize = 1024;
/// Low bits of a cache slot that hold the fours still allowed when the
/// failure was shown (the rest is the position's hash).
const DEPTH_BITS: u64 = 0x1f;
/// Mixed into the hash when O attacks, so X's and O's failures in the same
/// position do not mix.
pub(super) const O_ATTACKS: u64 = 0x9e37_79b9_7f4a_7c15;

/// Scratch state of the threat searches of one move: node allowance, the
/// failure cache and the last line found.
pub(super) struct Vcf {
    /// Nodes this search may still visit.
    nodes_left: u64,
    /// Positions (hash, attacker folded in) where the attacker has no VCF
    /// within the fours noted in the low bits.
    failed: [u64; CACHE_SLOTS],
    /// The last chain found: attacker's four, defender's reply, ... (the
    /// replies include the attacker's blocks of a defender's four).
    line: [Square; 4 * MAX_FOURS],
    line_len: usize,
    /// Whether the last search stopped on its node cap or the budget (its
    /// "no VCF" is then only "none found").
    pub(super) cut_off: bool,
}

impl Vcf {
    pub(super) fn new() -> Vcf {
        Vcf {
            nodes_left: 0,
            failed: [0; CACHE_SLOTS],
            line: [Square::from_index(0); 4 * MAX_FOURS],
            line_len: 0,
            cut_off: false,
        }
    }

    /// The moves of the last chain found, from its first four on.
    pub(super) fn line(&self) -> &[Square] {
        &self.line[..self.line_len]
    }

    fn slot(key: u64) -> usize {
        (key >> 7) as usize & (CACHE_SLOTS - 1)
    }

    pub(super) fn known_failure(&self, key: u64, fours: usize) -> bool {
        let e = self.failed[Vcf::slot(key)];
        e & !DEPTH_BITS == key & !DEPTH_BITS && (e & DEPTH_BITS) as usize >= fours
    }

    /// A new search of at most `max_nodes` nodes: no line yet, not cut
    /// off (the failure cache is kept).
    pub(super) fn start(&mut self, max_nodes: u64) {
        self.nodes_left = max_nodes;
        self.cut_off = false;
        self.line_len = 0;
    }

    pub(super) fn note_failure(&mut self, key: u64, fours: usize) {
        self.failed[Vcf::slot(key)] = (key & !DEPTH_BITS) | fours as u64;
    }
}

impl Engine<'_> {
    /// Plays `sq` for `mark` as one node of a threat search, counted
    /// against its cap and the budget; `false` (nothing played, the search
    /// marked cut off) when either is used up.
    pub(super) fn play_counted(&mut self, vcf: &mut Vcf, sq: Square, mark: Mark) -> bool {
        if vcf.nodes_left == 0 || self.budget_exhausted() {
            vcf.cut_off = true;
            return false;
        }
        vcf.nodes_left -= 1;
        self.stats.nodes += 1;
        self.apply(sq, mark);
        true
    }

    /// Whether threat search means anything under these rules. Not under
    /// renju: a black line of fours may pass through a forbidden cell, and
    /// the search does not test for them (the main search does).
    pub(super) fn vcf_applies(&self) -> bool {
        self.k >= 4
            && self.rules.win_condition() != WinCondition::ExactlyK
            && !self.rules.is_renju()
    }

    /// A VCF of the side to move within `max_fours` fours and `max_nodes`
    /// nodes: its first move (also a win in one, or the forced block that
    /// starts it), the line in `vcf.line()`. `None`: none found (see
    /// `vcf.cut_off`). The position is unchanged after.
    pub(super) fn find_vcf(
        &mut self,
        vcf: &mut Vcf,
        max_fours: usize,
        max_nodes: u64,
    ) -> Option<Square> {
        vcf.start(max_nodes);
        if !self.vcf_applies() {
            return None;
        }
        let me = self.turn;
        if let (Some(sq), _) = self.winning_cells(me) {
            vcf.line[0] = sq;
            vcf.line_len = 1;
            return Some(sq);
        }
        let mut line_end = 0;
        if self.vcf_node(vcf, me, max_fours.min(MAX_FOURS), 0, &mut line_end) {
            vcf.line_len = line_end;
            Some(vcf.line[0])
        } else {
            None
        }
    }

    /// Whether the chain `line` (from a [`Engine::find_vcf`] for the side
    /// to move) still wins for it as played: every attacker move still a
    /// four (or the forced block that is one), every reply still the only
    /// one, and the end two winning cells. Cheap: one apply per move.
    fn line_still_wins(&mut self, line: &[Square]) -> bool {
        let attacker = self.turn;
        let mut played = 0;
        let wins = self.replay(line, attacker, &mut played);
        // Take back in reverse, marks alternating from the attacker's.
        for i in (0..played).rev() {
            let mark = if i % 2 == 0 {
                attacker
            } else {
                attacker.other()
            };
            self.unapply(line[i], mark);
        }
        self.turn = attacker;
        wins
    }

    /// Plays `line` for `attacker` (moved next: it is given the turn) as
    /// far as it stays forced, counting the moves played; whether it wins.
    fn replay(&mut self, line: &[Square], attacker: Mark, played: &mut usize) -> bool {
        let defender = attacker.other();
        self.turn = attacker;
        for pair in line.chunks(2) {
            let sq = pair[0];
            if self.cells[sq.index()] != 0 {
                return false;
            }
            let (must, n) = self.winning_cells(defender);
            if n >= 2 || must.is_some_and(|b| b != sq) {
                return false;
            }
            if self.winning_cells(attacker).0 == Some(sq) {
                return true;
            }
            self.apply(sq, attacker);
            *played += 1;
            let (block, threats) = self.winning_cells(attacker);
            if threats >= 2 {
                return true;
            }
            // The defender's only move must be the recorded one.
            match (block, pair.get(1)) {
                (Some(b), Some(&reply)) if b == reply && self.winning_cells(defender).1 == 0 => {
                    self.apply(b, defender);
                    *played += 1;
                }
                _ => return false,
            }
        }
        false
    }

    /// Attacker `me` to move: whether it wins by fours within `fours`
    /// fours. On success the line from this node on is written at
    /// `vcf.line[at..*end]`.
    fn vcf_node(
        &mut self,
        vcf: &mut Vcf,
        me: Mark,
        fours: usize,
        at: usize,
        end: &mut usize,
    ) -> bool {
        let you = me.other();
        if let (Some(sq), _) = self.winning_cells(me) {
            vcf.line[at] = sq;
            *end = at + 1;
            return true;
        }
        let (must_block, theirs) = self.winning_cells(you);
        if theirs >= 2 || fours == 0 {
            return false;
        }
        let key = self.hash ^ if me == Mark::O { O_ATTACKS } else { 0 };
        if vcf.known_failure(key, fours) {
            return false;
        }
        let mut moves = [(0i32, Square::from_index(0)); WIDTH];
        let n = if let Some(b) = must_block {
            // Only the block is playable; it goes on only if it is a four.
            moves[0] = (0, b);
            1
        } else {
            let (makes_four, _) = self.three_cells(me.index());
            let mut n = 0;
            for sq in cells_of(makes_four) {
                n = insert_ranked(&mut moves, n, self.four_key(sq, me.index()), sq);
            }
            n
        };
        for &(_, sq) in &moves[..n] {
            if !self.play_counted(vcf, sq, me) {
                return false;
            }
            let (reply, threats) = self.winning_cells(me);
            let won = if threats >= 2 {
                // Two winning cells, and the defender has none (any it had
                // was blocked by `sq`): won.
                *end = at + 1;
                true
            } else if let Some(r) = reply {
                self.apply(r, you);
                let won = self.vcf_node(vcf, me, fours - 1, at + 2, end);
                self.unapply(r, you);
                if won {
                    vcf.line[at + 1] = r;
                }
                won
            } else {
                // A block that is no four.
                false
            };
            self.unapply(sq, me);
            if won {
                vcf.line[at] = sq;
                return true;
            }
            if vcf.cut_off {
                return false;
            }
        }
        vcf.note_failure(key, fours);
        false
    }
}

/// The threat search's verdict at the root.
pub(super) enum RootVcf {
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

impl Engine<'_> {
    /// Root threat search over the candidate moves `root` (best first): own
    /// VCF or VCT, else the moves that stop the opponent's VCF (those after
    /// which a check finds none, or is cut off before it knows), in their
    /// order.
    pub(super) fn root_vcf(&mut self, root: &mut [(i32, Square)], vcf: &mut Vcf) -> RootVcf {
        if !self.vcf_applies() {
            return RootVcf::Keep(root.len());
        }
        let cap = (self.budget.max_nodes / ROOT_SHARE).min(ROOT_NODES);
        if let Some(sq) = self.find_vcf(vcf, MAX_FOURS, cap) {
            return RootVcf::Win(sq, vcf.line().len());
        }
        if let Some(sq) = self.find_vct(vcf, VCT_THREES, cap) {
            return RootVcf::Win(sq, VCT_MAX_PLY);
        }
        let me = self.turn;
        self.turn = me.other();
        let threat = self.find_vcf(vcf, MAX_FOURS, cap).is_some();
        self.turn = me;
        if !threat || self.aborted {
            return RootVcf::Keep(root.len());
        }
        let mut line = [Square::from_index(0); 4 * MAX_FOURS];
        let len = vcf.line().len();
        line[..len].copy_from_slice(vcf.line());
        let mut checks_left = cap.saturating_mul(4);
        let mut kept = 0;
        for i in 0..root.len() {
            let sq = root[i].1;
            self.apply(sq, me);
            // The same chain still wins: no defence (a proof, and cheap).
            // Else a fresh search for another one.
            let loses = self.line_still_wins(&line[..len])
                || (checks_left > 0 && {
                    let found = self.find_vcf(vcf, MAX_FOURS, checks_left).is_some();
                    checks_left = vcf.nodes_left;
                    // Unchecked or cut off: not known to lose, kept.
                    found
                });
            self.unapply(sq, me);
            if self.aborted {
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
