//! The prover's records in the lent transposition table: a position's
//! answer and its relevance zone.
use super::super::tt::{self, TtEntry};

/// Where the prover keeps its records: a table lent by the caller, either
/// its own (`&mut [TtEntry]`, shared with the exact solver) or one shared
/// by provers on several threads ([`SharedTable`](super::SharedTable)).
pub trait ProofTable {
    /// Whether other provers search the same table at the same time (then
    /// the busy marks below are kept and siblings another prover is
    /// searching are put off).
    const PARALLEL: bool = false;
    /// The record for `key`: its entry, and its zone (in table
    /// coordinates) unless the zone was lost.
    fn probe(&self, key: u64) -> Option<(TtEntry, Option<u64>)>;
    /// Stores `entry` and its zone.
    fn store(&mut self, entry: TtEntry, zone: u64);
    /// Marks `key` as being searched; true if this call marked it (and so
    /// must [`unmark`](ProofTable::unmark) it).
    fn mark(&self, _key: u64) -> bool {
        false
    }
    /// Takes a mark made by [`mark`](ProofTable::mark) away.
    fn unmark(&self, _key: u64) {}
    /// Whether another prover is searching `key`.
    fn is_busy(&self, _key: u64) -> bool {
        false
    }
}

impl ProofTable for &mut [TtEntry] {
    fn probe(&self, key: u64) -> Option<(TtEntry, Option<u64>)> {
        probe(self, key)
    }

    fn store(&mut self, entry: TtEntry, zone: u64) {
        store(self, entry, zone)
    }
}

/// The prover's table records: each takes two slots of the lent table, the
/// entry and its relevance zone, and a bucket holds two records (four
/// slots). The zone slot is marked unused (`flags` 0) so the exact solver,
/// which shares the table, never reads it as a position; it carries 32 bits
/// of its record's key, so a zone the solver has overwritten is noticed.
const BUCKET: usize = 4;

fn zone_slot(key: u64, zone: u64) -> TtEntry {
    TtEntry {
        key: zone,
        value: key as i16,
        flags: 0,
        depth: 0,
        mv: (key >> 16) as u16,
    }
}

/// The record for `key`: its entry, and its zone (in table coordinates)
/// unless the zone slot was lost.
pub(crate) fn probe(tt: &[TtEntry], key: u64) -> Option<(TtEntry, Option<u64>)> {
    let buckets = tt.len() / BUCKET;
    if buckets == 0 {
        return None;
    }
    let base = tt::index(buckets, key) * BUCKET;
    for i in [base, base + 2] {
        let e = tt[i];
        if e.flags != 0 && e.key == key {
            let z = tt[i + 1];
            let kept = z.flags == 0 && z == zone_slot(key, z.key);
            return Some((e, kept.then_some(z.key)));
        }
    }
    None
}

/// Stores `entry` and its zone: over the same key, else into an unused
/// record, else over the record with fewer empty cells (less work lost).
pub(crate) fn store(tt: &mut [TtEntry], entry: TtEntry, zone: u64) {
    let buckets = tt.len() / BUCKET;
    if buckets == 0 {
        return;
    }
    let base = tt::index(buckets, entry.key) * BUCKET;
    let (i, j) = (base, base + 2);
    let slot = if tt[i].key == entry.key || tt[i].flags == 0 {
        i
    } else if tt[j].key == entry.key || tt[j].flags == 0 {
        j
    } else if tt[i].depth <= tt[j].depth {
        i
    } else {
        j
    };
    tt[slot] = entry;
    tt[slot + 1] = zone_slot(entry.key, zone);
}
