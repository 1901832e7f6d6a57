use crate::Square;

/// 64-bit words in a [`SquareSet`]: enough for every square index.
const WORDS: usize = crate::MAX_CELLS.div_ceil(64);

/// A set of squares: a bit per square index (400 bits, in 7 words), so any
/// board fits.
///
/// Iteration is in increasing index order, which is row-major order (top row
/// first, left to right), the order the seeds scan the board in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet([u64; WORDS]);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet([0; WORDS]);

    /// Whether `square` is in the set.
    #[inline]
    pub const fn contains(&self, square: Square) -> bool {
        let i = square.index();
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    /// Adds `square`.
    #[inline]
    pub fn insert(&mut self, square: Square) {
        let i = square.index();
        self.0[i >> 6] |= 1 << (i & 63);
    }

    /// Removes `square`.
    #[inline]
    pub fn remove(&mut self, square: Square) {
        let i = square.index();
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    /// Adds `square` if it is missing, removes it if it is there.
    #[inline]
    pub fn toggle(&mut self, square: Square) {
        let i = square.index();
        self.0[i >> 6] ^= 1 << (i & 63);
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn len(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < WORDS {
            n += self.0[i].count_ones() as usize;
            i += 1;
        }
        n
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        let mut any = 0;
        let mut i = 0;
        while i < WORDS {
            any |= self.0[i];
            i += 1;
        }
        any == 0
    }

    /// The first square in row-major order.
    #[inline]
    pub fn first(&self) -> Option<Square> {
        self.into_iter().next()
    }

    /// Squares in both sets.
    #[inline]
    pub fn intersection(&self, other: &SquareSet) -> SquareSet {
        SquareSet(core::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// Squares in either set.
    #[inline]
    pub fn union(&self, other: &SquareSet) -> SquareSet {
        SquareSet(core::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// Squares in `self` but not in `other`.
    #[inline]
    pub fn difference(&self, other: &SquareSet) -> SquareSet {
        SquareSet(core::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// The raw 64-bit words (bit `i` of the whole is the square with index `i`).
    #[inline]
    pub const fn words(&self) -> [u64; WORDS] {
        self.0
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut set = SquareSet::EMPTY;
        for square in iter {
            set.insert(square);
        }
        set
    }
}

/// Iterator over a [`SquareSet`] in row-major order.
#[derive(Clone, Debug)]
pub struct Squares {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Square::from_index(
                    (self.word as u32 * 64 + w.trailing_zeros()) as u16,
                ));
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = SquareSet(self.words).len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = Squares;

    #[inline]
    fn into_iter(self) -> Squares {
        Squares {
            words: self.0,
            word: 0,
        }
    }
}

impl IntoIterator for &SquareSet {
    type Item = Square;
    type IntoIter = Squares;

    #[inline]
    fn into_iter(self) -> Squares {
        Squares {
            words: self.0,
            word: 0,
        }
    }
}
