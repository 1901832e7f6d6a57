use crate::Square;

/// A set of squares: 256 bits, one per square index, so any board fits.
///
/// Iteration is in increasing index order, which is row-major order (top row
/// first, left to right), the order the seeds scan the board in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet([u64; 4]);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet([0; 4]);

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

    /// Number of squares in the set.
    #[inline]
    pub const fn len(&self) -> usize {
        (self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()) as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.0[0] | self.0[1] | self.0[2] | self.0[3] == 0
    }

    /// The first square in row-major order.
    #[inline]
    pub fn first(&self) -> Option<Square> {
        self.into_iter().next()
    }

    /// Squares in both sets.
    #[inline]
    pub fn intersection(&self, other: &SquareSet) -> SquareSet {
        SquareSet([
            self.0[0] & other.0[0],
            self.0[1] & other.0[1],
            self.0[2] & other.0[2],
            self.0[3] & other.0[3],
        ])
    }

    /// Squares in either set.
    #[inline]
    pub fn union(&self, other: &SquareSet) -> SquareSet {
        SquareSet([
            self.0[0] | other.0[0],
            self.0[1] | other.0[1],
            self.0[2] | other.0[2],
            self.0[3] | other.0[3],
        ])
    }

    /// Squares in `self` but not in `other`.
    #[inline]
    pub fn difference(&self, other: &SquareSet) -> SquareSet {
        SquareSet([
            self.0[0] & !other.0[0],
            self.0[1] & !other.0[1],
            self.0[2] & !other.0[2],
            self.0[3] & !other.0[3],
        ])
    }

    /// The raw 64-bit words (bit `i` is the square with index `i`).
    #[inline]
    pub const fn words(&self) -> [u64; 4] {
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
    words: [u64; 4],
    word: usize,
}

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.word < 4 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Square::from_index(
                    (self.word as u32 * 64 + w.trailing_zeros()) as u8,
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
