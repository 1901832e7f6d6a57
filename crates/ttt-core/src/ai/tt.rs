//! The transposition table: a caller-lent slice of entries, indexed by the
//! position's canonical Zobrist hash (the smallest over the board's
//! symmetries, so rotated and mirrored positions share an entry).

/// Bound kinds stored in [`TtEntry::flags`].
pub(crate) const EXACT: u8 = 1;
pub(crate) const LOWER: u8 = 2;
pub(crate) const UPPER: u8 = 3;
/// Flag bit: the value is a distance score (else win/draw/loss only).
pub(crate) const DIST: u8 = 4;
/// No move stored.
pub(crate) const NO_MOVE: u16 = u16::MAX;

/// One slot of the transposition table (16 bytes). An all-zero slot is
/// [`TtEntry::EMPTY`], so a host may lend a table allocated zeroed (the
/// `zeroable` feature: `bytemuck::Zeroable`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "zeroable", derive(bytemuck::Zeroable))]
pub struct TtEntry {
    pub(crate) key: u64,
    pub(crate) value: i16,
    pub(crate) flags: u8,
    pub(crate) depth: u8,
    /// The best move's square index, or [`NO_MOVE`].
    pub(crate) mv: u16,
}

impl TtEntry {
    /// An unused slot: all zero (`flags` 0 marks it unused, and nothing
    /// else of an unused slot is read).
    pub const EMPTY: TtEntry = TtEntry {
        key: 0,
        value: 0,
        flags: 0,
        depth: 0,
        mv: 0,
    };

    /// Whether the slot holds a position.
    pub fn is_used(&self) -> bool {
        self.flags != 0
    }
}

impl Default for TtEntry {
    fn default() -> TtEntry {
        TtEntry::EMPTY
    }
}

/// Clears every slot.
pub fn clear(tt: &mut [TtEntry]) {
    for e in tt.iter_mut() {
        *e = TtEntry::EMPTY;
    }
}

/// A per-rules key mixed into every hash, so that one table can serve
/// several board shapes and win lengths without mixing them up.
pub(crate) fn salt(rules: &crate::Rules) -> u64 {
    let win = match rules.win_condition() {
        crate::WinCondition::AtLeastK => 0u64,
        crate::WinCondition::ExactlyK => 1,
        crate::WinCondition::Renju => 2,
    };
    let mut z =
        win << 24 | (rules.columns() as u64) << 16 | (rules.rows() as u64) << 8 | rules.k() as u64;
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[inline]
pub(crate) fn index(len: usize, key: u64) -> usize {
    // Multiply-shift maps the hash onto any table length (up to 2^32).
    (((key >> 32) * (len as u64).min(1 << 32)) >> 32) as usize
}

/// The entry for `key` among the two slots of its bucket.
#[inline]
pub(crate) fn probe(tt: &[TtEntry], key: u64) -> Option<TtEntry> {
    if tt.is_empty() {
        return None;
    }
    let i = index(tt.len(), key);
    let e = tt[i];
    if e.flags != 0 && e.key == key {
        return Some(e);
    }
    let j = i ^ 1;
    if j < tt.len() {
        let e = tt[j];
        if e.flags != 0 && e.key == key {
            return Some(e);
        }
    }
    None
}

/// Stores `entry`: over the same key, else over the shallower of the two
/// slots of the bucket.
#[inline]
pub(crate) fn store(tt: &mut [TtEntry], entry: TtEntry) {
    if tt.is_empty() {
        return;
    }
    let i = index(tt.len(), entry.key);
    let j = i ^ 1;
    if j >= tt.len() || tt[i].key == entry.key || tt[i].flags == 0 {
        tt[i] = entry;
        return;
    }
    if tt[j].key == entry.key || tt[j].flags == 0 {
        tt[j] = entry;
        return;
    }
    if tt[i].depth <= tt[j].depth {
        tt[i] = entry;
    } else {
        tt[j] = entry;
    }
}
