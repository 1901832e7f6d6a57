//! A book as it is stored and read: sorted entries keyed by canonical
//! hash, each with its value and its optimal moves in the canonical frame
//! (the format: the parent module's doc).
use super::super::value::Value;
use crate::{Position, Rules, Square, Symmetry};

/// One position of a [`Book`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BookEntry {
    /// [`Position::canonical_hash`].
    pub key: u64,
    /// Optimal moves, one bit per cell in the canonical frame.
    pub moves: u64,
    /// The position's value for the side to move ([`encode_value`]).
    pub value: u8,
}

/// The solver's answers for the first plies of one board.
#[derive(Copy, Clone, Debug)]
pub struct Book {
    /// Board columns.
    pub columns: u8,
    /// Board rows.
    pub rows: u8,
    /// Marks in a row to win.
    pub k: u8,
    /// Positions with fewer marks than this are in the book (those not yet
    /// over).
    pub plies: u8,
    /// Sorted by `key`, no duplicates.
    pub entries: &'static [BookEntry],
}

/// `Draw` = 0, `Win(n)` = n (1..=127), `Loss(n)` = 128 + n.
pub const fn encode_value(v: Value) -> u8 {
    match v {
        Value::Draw => 0,
        Value::Win(n) => n & 127,
        Value::Loss(n) => 128 | (n & 127),
    }
}

/// The inverse of [`encode_value`].
pub const fn decode_value(b: u8) -> Value {
    if b == 0 {
        Value::Draw
    } else if b & 128 == 0 {
        Value::Win(b)
    } else {
        Value::Loss(b & 127)
    }
}

/// The key of `pos` and the symmetry that maps it to the canonical frame.
pub(super) fn canonical(pos: &Position) -> (u64, Symmetry) {
    let key = pos.canonical_hash();
    let sym = Symmetry::of(pos.rules())
        .iter()
        .copied()
        .find(|&s| pos.hash_under(s) == key)
        .unwrap_or(Symmetry::Identity);
    (key, sym)
}

#[inline]
pub(super) fn bit(rules: &Rules, sq: Square) -> u64 {
    let cell = sq.row() as u32 * rules.columns() as u32 + sq.column() as u32;
    if cell < 64 {
        1 << cell
    } else {
        0
    }
}

impl Book {
    /// Whether the book is for these rules.
    pub fn is_for(&self, rules: &Rules) -> bool {
        rules.columns() == self.columns && rules.rows() == self.rows && rules.k() == self.k
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no positions.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The position's value and a test for "this move is optimal", or `None`
    /// when the position is not in the book.
    pub fn probe(&self, pos: &Position) -> Option<(Value, BookMoves)> {
        let rules = pos.rules();
        if !self.is_for(rules) || rules.cell_count() > 64 || pos.mark_count() >= self.plies as usize
        {
            return None;
        }
        if pos.outcome().is_over() {
            return None;
        }
        let (key, sym) = canonical(pos);
        let i = self.entries.binary_search_by_key(&key, |e| e.key).ok()?;
        let e = self.entries[i];
        // Every move of the set must be an empty cell (a cheap collision check).
        let mut empty = 0u64;
        for sq in pos.legal_moves() {
            empty |= bit(rules, sym.apply(sq, rules));
        }
        if e.moves == 0 || e.moves & !empty != 0 {
            return None;
        }
        Some((
            decode_value(e.value),
            BookMoves {
                moves: e.moves,
                sym,
                rules: *rules,
            },
        ))
    }
}

/// The optimal moves of a position found in a [`Book`].
#[derive(Copy, Clone, Debug)]
pub struct BookMoves {
    moves: u64,
    sym: Symmetry,
    rules: Rules,
}

impl BookMoves {
    /// Whether playing `sq` keeps the position's value.
    pub fn contains(&self, sq: Square) -> bool {
        self.moves & bit(&self.rules, self.sym.apply(sq, &self.rules)) != 0
    }
}
