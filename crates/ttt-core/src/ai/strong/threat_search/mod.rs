//! Threat-space searches: VCF (victory by continuous fours, `vcf.rs`) and
//! VCT (by continuous fours and threes, `vct.rs`), and what the root makes
//! of them (`root.rs`). They run on any [`SearchBoard`], spending from the
//! search's [`Meter`].
//!
//! A four leaves the opponent one reply, the block, unless it can win
//! first. A chain of fours ending in two winning cells at once is a forced
//! win that a search with one defender move per ply finds far deeper than
//! the main search sees.
//!
//! Cost control: a node cap per search, the meter's budget (nodes and
//! deadline) on top, and a small direct-mapped cache of positions already
//! shown to fail (transposed orders of the same fours are common; VCF and
//! VCT share it). The first move of a found chain and the whole line are
//! kept, so a defence check can first replay the line (cheap) before
//! searching anew.
//!
//! Not used under "exactly k" (an overline changes which fours win), under
//! renju (a black line of fours may pass through a forbidden cell, and the
//! searches do not test for them; the main search does), nor below k = 4
//! (a "four" is then a two, and the main search sees it all).
use super::board::SearchBoard;
use super::budget::Meter;
use crate::{Mark, Rules, Square, WinCondition};

pub(super) mod root;
mod vcf;
pub(super) mod vct;

/// Fours in a row searched at most (attacker moves of one chain).
pub(super) const MAX_FOURS: usize = 24;
/// Most four-making moves tried at one node (best ordering keys first).
const WIDTH: usize = 32;
/// Slots of the failure cache (a power of two).
const CACHE_SLOTS: usize = 1024;
/// Low bits of a cache slot that hold the fours still allowed when the
/// failure was shown (the rest is the position's hash).
const DEPTH_BITS: u64 = 0x1f;
/// Mixed into the hash when O attacks, so X's and O's failures in the same
/// position do not mix.
const O_ATTACKS: u64 = 0x9e37_79b9_7f4a_7c15;

/// Whether threat search means anything under `rules` (see the module's
/// doc).
pub(super) fn applies(rules: &Rules) -> bool {
    rules.k() >= 4 && rules.win_condition() != WinCondition::ExactlyK && !rules.is_renju()
}

/// Scratch state of the threat searches of one move: node allowance, the
/// failure cache and the last line found.
pub(super) struct Scratch {
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

impl Scratch {
    pub(super) fn new() -> Scratch {
        Scratch {
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

    fn known_failure(&self, key: u64, fours: usize) -> bool {
        let e = self.failed[Scratch::slot(key)];
        e & !DEPTH_BITS == key & !DEPTH_BITS && (e & DEPTH_BITS) as usize >= fours
    }

    /// A new search of at most `max_nodes` nodes: no line yet, not cut
    /// off (the failure cache is kept).
    pub(super) fn start(&mut self, max_nodes: u64) {
        self.nodes_left = max_nodes;
        self.cut_off = false;
        self.line_len = 0;
    }

    fn note_failure(&mut self, key: u64, fours: usize) {
        self.failed[Scratch::slot(key)] = (key & !DEPTH_BITS) | fours as u64;
    }
}

/// A threat search in progress: the board it plays on, the meter it
/// spends from and its scratch.
pub(super) struct ThreatSearch<'s, 'a, B> {
    pub(super) board: &'s mut B,
    pub(super) meter: &'s mut Meter<'a>,
    pub(super) scratch: &'s mut Scratch,
}

impl<B: SearchBoard> ThreatSearch<'_, '_, B> {
    /// Plays `sq` for `mark` as one node of a threat search, counted
    /// against its cap and the budget; `false` (nothing played, the search
    /// marked cut off) when either is used up.
    fn play_counted(&mut self, sq: Square, mark: Mark) -> bool {
        if self.scratch.nodes_left == 0 || self.meter.exhausted() {
            self.scratch.cut_off = true;
            return false;
        }
        self.scratch.nodes_left -= 1;
        self.meter.stats.nodes += 1;
        self.meter.stats.threat_nodes += 1;
        self.board.apply(sq, mark);
        true
    }

    /// Whether threat search applies to the board's rules.
    pub(super) fn applies(&self) -> bool {
        applies(&self.board.stones().rules)
    }
}
