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
use super::line::LinePattern;
use super::threat::COMBINATIONS;

/// Two weights for each combination of four line patterns (index: its
/// code, as a cell's class code): a cell's worth to the side to move, and
/// to the other side.
pub(crate) type CellWeights = [[i16; 2]; COMBINATIONS];

/// Multisets of four line patterns out of ten.
pub const MULTISETS: usize = 715;

/// The index of the multiset of four line patterns, in any order, among
/// all [`MULTISETS`] (in order of their patterns sorted, `a <= b <= c <=
/// d`, lexicographic): where the fitted weight tables keep its weight.
pub const fn multiset_index(patterns: [LinePattern; 4]) -> usize {
    let code = patterns[0] as usize
        + 10 * patterns[1] as usize
        + 100 * patterns[2] as usize
        + 1000 * patterns[3] as usize;
    MULTISET_OF[code] as usize
}

/// For each class code (four line patterns, one a decimal digit), the
/// index of its multiset.
static MULTISET_OF: [u16; COMBINATIONS] = multiset_of_codes();

const fn multiset_of_codes() -> [u16; COMBINATIONS] {
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
    let mut of = [0u16; COMBINATIONS];
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
        of[code] = rank[p[0] * 1000 + p[1] * 100 + p[2] * 10 + p[3]];
        code += 1;
    }
    of
}

/// For each class code, the weights of its multiset of four line patterns
/// in `mover` and `waiter` (indexed by [`multiset_index`]).
pub(crate) const fn by_multiset(
    mover: &[i16; MULTISETS],
    waiter: &[i16; MULTISETS],
) -> CellWeights {
    let mut table = [[0i16; 2]; COMBINATIONS];
    let mut code = 0;
    while code < COMBINATIONS {
        let r = MULTISET_OF[code] as usize;
        table[code] = [mover[r], waiter[r]];
        code += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_multiset_has_one_index_whatever_the_order() {
        let all = LinePattern::ALL;
        let mut seen = [false; MULTISETS];
        for a in all {
            for b in all {
                for c in all {
                    for d in all {
                        let i = multiset_index([a, b, c, d]);
                        assert_eq!(i, multiset_index([d, b, a, c]));
                        assert_eq!(i, multiset_index([c, d, b, a]));
                        seen[i] = true;
                    }
                }
            }
        }
        assert!(
            seen.iter().all(|&s| s),
            "{MULTISETS} multisets, each reached"
        );
        // Sorted lexicographic order: the all-lowest first, the all-highest last.
        assert_eq!(multiset_index([all[0]; 4]), 0);
        assert_eq!(multiset_index([all[9]; 4]), MULTISETS - 1);
    }
}
