//! Zobrist keys: one random 64-bit key per (mark, square), XORed together to
//! hash a position. Generated at compile time from a fixed seed, so hashes are
//! the same on every machine and every run (and on the N64).
use crate::{Mark, Square, MAX_CELLS};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Keys per mark: a power of two, so indices are masked, not checked.
const TABLE: usize = MAX_CELLS.next_power_of_two();

const fn make_keys() -> [[u64; TABLE]; 2] {
    let mut keys = [[0u64; TABLE]; 2];
    let mut state = 0x7469_632D_7461_632D; // "tic-tac-"
    let mut m = 0;
    while m < 2 {
        let mut i = 0;
        while i < TABLE {
            let (s, k) = splitmix64(state);
            state = s;
            keys[m][i] = k;
            i += 1;
        }
        m += 1;
    }
    keys
}

static KEYS: [[u64; TABLE]; 2] = make_keys();

/// The key of `mark` standing on `square`.
#[inline]
pub fn key(mark: Mark, square: Square) -> u64 {
    key_at(mark, square.index())
}

/// The key of `mark` on the square with this index (`square.index()`,
/// below [`MAX_CELLS`]). Indices of squares off the board wrap around rather
/// than panic, which also spares the hot path a bounds check.
#[inline]
pub(crate) fn key_at(mark: Mark, index: usize) -> u64 {
    KEYS[mark.index()][index & (TABLE - 1)]
}
