//! The symmetries of the board: 8 for a square board (the dihedral group of
//! the square), 4 for a rectangle (identity, half turn and the two mirrors).
use crate::{Rules, Square};

/// A rotation or reflection of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every cell where it is.
    Identity,
    /// Half turn.
    Rotate180,
    /// Mirror left to right.
    FlipHorizontal,
    /// Mirror top to bottom.
    FlipVertical,
    /// Quarter turn clockwise (square boards only).
    Rotate90,
    /// Quarter turn anticlockwise (square boards only).
    Rotate270,
    /// Reflect in the top-left to bottom-right diagonal (square boards only).
    Transpose,
    /// Reflect in the other diagonal (square boards only).
    AntiTranspose,
}

impl Symmetry {
    /// All eight, the four that fit every rectangle first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate180,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The symmetries of a board with these rules: 8 if square, else 4.
    pub fn of(rules: &Rules) -> &'static [Symmetry] {
        if rules.is_square() {
            &Symmetry::ALL
        } else {
            &Symmetry::ALL[..4]
        }
    }

    /// Where `square` goes under this symmetry on a board with these rules.
    ///
    /// Only meaningful for the symmetries [`Symmetry::of`] returns for them.
    #[inline]
    pub fn apply(self, square: Square, rules: &Rules) -> Square {
        let (c, r) = self.apply_coords(
            square.column(),
            square.row(),
            rules.columns() - 1,
            rules.rows() - 1,
        );
        // Squares off the board stay where they are rather than panicking.
        Square::new(c, r).unwrap_or(square)
    }

    /// Where column `c`, row `r` go on a board whose last column is `w` and
    /// last row `h`: [`apply`](Symmetry::apply) without the index arithmetic,
    /// for callers that map one cell under every symmetry.
    #[inline]
    pub(crate) const fn apply_coords(self, c: u8, r: u8, w: u8, h: u8) -> (u8, u8) {
        // Wrapping keeps squares off the board from panicking; they stay off it.
        match self {
            Symmetry::Identity => (c, r),
            Symmetry::Rotate180 => (w.wrapping_sub(c), h.wrapping_sub(r)),
            Symmetry::FlipHorizontal => (w.wrapping_sub(c), r),
            Symmetry::FlipVertical => (c, h.wrapping_sub(r)),
            Symmetry::Rotate90 => (h.wrapping_sub(r), c),
            Symmetry::Rotate270 => (r, w.wrapping_sub(c)),
            Symmetry::Transpose => (r, c),
            Symmetry::AntiTranspose => (h.wrapping_sub(r), w.wrapping_sub(c)),
        }
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }
}
