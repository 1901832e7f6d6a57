//! The transposition table as the search uses it: the caller lends the
//! slice (shared with the exact solver's entry format, [`TtEntry`]); this
//! file reads and writes it (the keys are the stones' hashes).
//!
//! A search value is an `i32`, an entry holds 16 bits: wins and losses are
//! stored as a distance from the stored node (so a transposition at
//! another ply reads the same distance to the end), other values as they
//! are if they fit, else the entry keeps only its best move. Buckets hold
//! two slots: a depth-preferred one and an always-replaced one.
use super::super::score::{MATE_BOUND, WIN};
use super::Search;
use crate::ai::tt::{self, TtEntry, EXACT, LOWER, NO_MOVE, UPPER};
use crate::Square;
/// Table flag: the entry holds a best move but no usable bound (its value
/// did not fit the entry's 16 bits).
const MOVE_ONLY: u8 = 8;
/// Table values: a win or loss `d` plies from the stored node is kept as
/// `±(TT_WIN - d)`; other values must lie within `±TT_EVAL_MAX`.
const TT_WIN: i32 = 32_000;
const TT_EVAL_MAX: i32 = 30_000;

/// The search value `v` at `ply` as stored in the table (`None`: does not
/// fit), relative to the node so a transposition at another ply reads the
/// same distance to the end.
fn value_to_tt(v: i32, ply: u32) -> Option<i16> {
    let ply = ply as i32;
    if v >= MATE_BOUND {
        let d = WIN - v - ply;
        (0..TT_WIN - TT_EVAL_MAX)
            .contains(&d)
            .then(|| (TT_WIN - d) as i16)
    } else if v <= -MATE_BOUND {
        let d = WIN + v - ply;
        (0..TT_WIN - TT_EVAL_MAX)
            .contains(&d)
            .then(|| -(TT_WIN - d) as i16)
    } else {
        (v.abs() <= TT_EVAL_MAX).then_some(v as i16)
    }
}

/// A stored value read back at `ply` (the inverse of [`value_to_tt`]).
fn value_from_tt(v: i16, ply: u32) -> i32 {
    let (v, ply) = (i32::from(v), ply as i32);
    if v > TT_EVAL_MAX {
        WIN - (TT_WIN - v) - ply
    } else if v < -TT_EVAL_MAX {
        -(WIN - (TT_WIN + v) - ply)
    } else {
        v
    }
}

impl<B> Search<'_, B> {
    /// The best move the table holds for the position `key` (`None`: no
    /// entry, or one without a move).
    pub(super) fn table_move(&self, key: u64) -> Option<Square> {
        let e = tt::probe(self.tt, key)?;
        (e.mv != NO_MOVE).then(|| Square::from_index(e.mv))
    }

    /// What the table holds for the node `key` searched to `depth` at
    /// `ply` with the window (`alpha`, `beta`): its best move of an earlier
    /// search (`NO_MOVE` if none), and a value that settles the node at
    /// once (an entry at least as deep whose bound decides the window).
    pub(super) fn probe_table(
        &mut self,
        key: u64,
        depth: i32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> (u16, Option<i32>) {
        let mut tt_move = NO_MOVE;
        if let Some(e) = tt::probe(self.tt, key) {
            self.meter.stats.tt_hits += 1;
            tt_move = e.mv;
            if i32::from(e.depth) >= depth && e.flags != MOVE_ONLY {
                let v = value_from_tt(e.value, ply);
                let usable = match e.flags {
                    EXACT => true,
                    LOWER => v >= beta,
                    UPPER => v <= alpha,
                    _ => false,
                };
                if usable {
                    return (tt_move, Some(v));
                }
            }
        }
        (tt_move, None)
    }

    /// Stores the result of the node `key` searched to `depth` at `ply`:
    /// its value `best` (a lower bound if it reached `beta`, an upper one
    /// if it stayed at or below `alpha`, the window it was searched with)
    /// and its best move.
    pub(super) fn record(
        &mut self,
        key: u64,
        (depth, ply): (i32, u32),
        (alpha, beta): (i32, i32),
        best: i32,
        best_move: Square,
    ) {
        let (value, flags) = match value_to_tt(best, ply) {
            None => (0, MOVE_ONLY),
            Some(v) if best >= beta => (v, LOWER),
            Some(v) if best <= alpha => (v, UPPER),
            Some(v) => (v, EXACT),
        };
        store(
            self.tt,
            TtEntry {
                key,
                value,
                flags,
                depth: depth.clamp(0, 255) as u8,
                mv: best_move.index() as u16,
            },
        );
    }
}

/// Stores `entry` in its two-slot bucket: over the same position, else in
/// the first slot if it is searched at least as deep as what is there, else
/// in the second (always replaced), so deep entries of earlier moves never
/// block the table.
fn store(table: &mut [TtEntry], entry: TtEntry) {
    if table.is_empty() {
        return;
    }
    let i = tt::index(table.len(), entry.key);
    let j = i ^ 1;
    if j >= table.len() || table[i].key == entry.key || table[i].depth <= entry.depth {
        table[i] = entry;
    } else {
        table[j] = entry;
    }
}
