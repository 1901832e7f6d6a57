//! A table several provers search at once, one per thread: the parallel
//! proof search (the host's `ttt solve` runs one prover per core over it).
//!
//! Every answer the prover stores is exact, so a record written by one
//! thread is as good to the others as their own; the threads share the
//! work through the table alone. To keep them off each other's subtrees
//! (after ABDADA, Weill 1996), a prover marks the positions it is
//! searching; a prover that meets a marked position among the later
//! siblings of a node puts it off until the node's other moves are done,
//! by when the other thread has usually stored its answer. The first move
//! of a node is searched by every thread that reaches it (at a node where
//! one move suffices, the first nearly always does), so the threads split
//! where every move must be refuted.
//!
//! No locks: a record is three words, written one after the other, whose
//! first is the key xor the other two, so a record torn by two threads
//! writing at once reads as no record (Hyatt and Mann's lockless hashing).
use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::super::tt::{self, TtEntry};
use super::records::ProofTable;

/// Words per record: the key xor the rest, the entry's data, the zone.
const RECORD: usize = 3;
/// Records per bucket.
const WAYS: usize = 2;
/// Words kept apart for the busy marks (a small open table of keys).
const BUSY_WORDS: usize = 1 << 14;

/// A proof table shared by provers on several threads: the records and the
/// busy marks in words lent by the caller (all zero at first: a zeroed
/// allocation costs nothing until the search writes it). Copy it to each
/// thread's [`Prover::with_table`](super::Prover::with_table).
#[derive(Copy, Clone, Debug)]
pub struct SharedTable<'a> {
    records: &'a [AtomicU64],
    busy: &'a [AtomicU64],
}

impl<'a> SharedTable<'a> {
    /// A table over `words` (any length; 8 bytes each, zero when unused).
    /// Up to a sixteenth of them, at most 16,384, hold the busy marks.
    pub fn new(words: &'a [AtomicU64]) -> SharedTable<'a> {
        let busy = BUSY_WORDS.min(words.len() / 16);
        let (records, busy) = words.split_at(words.len() - busy);
        SharedTable { records, busy }
    }

    /// The record at word `at`, if it reads whole: (key, entry, zone).
    fn read(&self, at: usize) -> (u64, TtEntry, u64) {
        let check = self.records[at].load(Relaxed);
        let data = self.records[at + 1].load(Relaxed);
        let zone = self.records[at + 2].load(Relaxed);
        let key = check ^ data ^ zone;
        let entry = TtEntry {
            key,
            value: data as u16 as i16,
            flags: (data >> 16) as u8,
            depth: (data >> 24) as u8,
            mv: (data >> 32) as u16,
        };
        (key, entry, zone)
    }

    fn bucket(&self, key: u64) -> Option<usize> {
        let buckets = self.records.len() / (RECORD * WAYS);
        (buckets > 0).then(|| tt::index(buckets, key) * RECORD * WAYS)
    }

    fn busy_slot(&self, key: u64) -> Option<&AtomicU64> {
        if self.busy.is_empty() {
            return None;
        }
        self.busy.get(tt::index(self.busy.len(), key))
    }
}

impl ProofTable for SharedTable<'_> {
    const PARALLEL: bool = true;

    fn probe(&self, key: u64) -> Option<(TtEntry, Option<u64>)> {
        let base = self.bucket(key)?;
        (0..WAYS).find_map(|way| {
            let (k, entry, zone) = self.read(base + way * RECORD);
            (entry.flags != 0 && k == key).then_some((entry, Some(zone)))
        })
    }

    /// Over the same key, else into an unused record, else over the record
    /// with fewer empty cells (less work lost).
    fn store(&mut self, entry: TtEntry, zone: u64) {
        let Some(base) = self.bucket(entry.key) else {
            return;
        };
        let (ki, ei, _) = self.read(base);
        let (kj, ej, _) = self.read(base + RECORD);
        let way = if ki == entry.key || ei.flags == 0 {
            0
        } else if kj == entry.key || ej.flags == 0 || ej.depth < ei.depth {
            1
        } else {
            0
        };
        let data = entry.value as u16 as u64
            | (entry.flags as u64) << 16
            | (entry.depth as u64) << 24
            | (entry.mv as u64) << 32;
        let at = base + way * RECORD;
        self.records[at + 1].store(data, Relaxed);
        self.records[at + 2].store(zone, Relaxed);
        self.records[at].store(entry.key ^ data ^ zone, Relaxed);
    }

    fn mark(&self, key: u64) -> bool {
        // Key 0 is the free slot's value; a position hashing to it (or a
        // slot taken by another position) goes unmarked, which costs only
        // a sibling searched twice.
        key != 0
            && self
                .busy_slot(key)
                .is_some_and(|s| s.compare_exchange(0, key, Relaxed, Relaxed).is_ok())
    }

    fn unmark(&self, key: u64) {
        if let Some(s) = self.busy_slot(key) {
            let _ = s.compare_exchange(key, 0, Relaxed, Relaxed);
        }
    }

    fn is_busy(&self, key: u64) -> bool {
        key != 0 && self.busy_slot(key).is_some_and(|s| s.load(Relaxed) == key)
    }
}
