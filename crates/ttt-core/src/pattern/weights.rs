//! Cell weights: two numbers for every combination of four line patterns
//! (by class code), what a cell with those patterns is worth to the side
//! to move and to the other side. A board given them keeps their sums over
//! its empty cells ([`PatternBoard::set_cell_weights`]).
//!
//! Weights are fitted per multiset of four patterns (the order of the
//! lines does not matter): 715 numbers a table, spread over the 10,000
//! class codes by [`by_multiset`].
//!
//! [`PatternBoard::set_cell_weights`]: super::PatternBoard
use super::threat::COMBINATIONS;

/// Two weights for each combination of four line patterns (index: its
/// code, as a cell's class code): a cell's worth to the side to move, and
/// to the other side.
pub(crate) type CellWeights = [[i16; 2]; COMBINATIONS];

/// Multisets of four line patterns out of ten.
pub(crate) const MULTISETS: usize = 715;

/// For each class code, the weights of its multiset of four line patterns
/// in `mover` and `waiter` (indexed among all [`MULTISETS`] in order of
/// their patterns sorted, `a <= b <= c <= d`, lexicographic).
pub(crate) const fn by_multiset(
    mover: &[i16; MULTISETS],
    waiter: &[i16; MULTISETS],
) -> CellWeights {
    let mut rank = [0u16; COMBINATIONS];
    let mut next = 0u16;
    let mut a = 0;
    while a < 10 {
        let mut b = a;
        while b < 10 {
            let mut c = b;
            while c < 10 {
                let mut d = c;
                while d < 10 {
                    rank[a * 1000 + b * 100 + c * 10 + d] = next;
                    next += 1;
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    let mut table = [[0i16; 2]; COMBINATIONS];
    let mut code = 0;
    while code < COMBINATIONS {
        let mut p = [code % 10, code / 10 % 10, code / 100 % 10, code / 1000];
        // Sorted by a small network of exchanges.
        let pairs = [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)];
        let mut i = 0;
        while i < pairs.len() {
            let (x, y) = pairs[i];
            if p[x] > p[y] {
                let t = p[x];
                p[x] = p[y];
                p[y] = t;
            }
            i += 1;
        }
        let r = rank[p[0] * 1000 + p[1] * 100 + p[2] * 10 + p[3]] as usize;
        table[code] = [mover[r], waiter[r]];
        code += 1;
    }
    table
}
