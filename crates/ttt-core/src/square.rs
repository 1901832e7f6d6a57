use core::fmt;

/// A cell of the board, independent of the board's size.
///
/// Squares are stored as `row * 20 + column` (both 0-based, row 0 at the
/// top; 20 is [`Square::STRIDE`], the widest board), so the same square means
/// the same cell on every board and a [`SquareSet`](crate::SquareSet) of 400
/// bits holds any board. Small boards keep small indices (3x3 fits in one
/// 64-bit word, 9x9 in three), which keeps their sets and tables compact.
/// Whether a square is on a given board is a question for
/// [`Rules::contains`](crate::Rules::contains).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    /// Index distance between vertically adjacent cells: the widest board.
    pub const STRIDE: usize = crate::MAX_SIDE as usize;

    /// The square at `column` and `row` (0-based), if both are below
    /// [`MAX_SIDE`](crate::MAX_SIDE).
    #[inline]
    pub const fn new(column: u8, row: u8) -> Option<Square> {
        if column < crate::MAX_SIDE && row < crate::MAX_SIDE {
            Some(Square(row as u16 * Square::STRIDE as u16 + column as u16))
        } else {
            None
        }
    }

    /// The square with the given raw index (`row * 20 + column`); callers
    /// pass indices they got from [`index`](Square::index).
    #[inline]
    pub const fn from_index(index: u16) -> Square {
        Square(index)
    }

    /// The raw index, `row * 20 + column`, in `0..400`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based column, counted from the left.
    #[inline]
    pub const fn column(self) -> u8 {
        (self.0 % Square::STRIDE as u16) as u8
    }

    /// 0-based row, counted from the top.
    #[inline]
    pub const fn row(self) -> u8 {
        (self.0 / Square::STRIDE as u16) as u8
    }

    /// The square `steps` cells away in `direction`, if it stays within the
    /// largest board.
    #[inline]
    pub const fn step(self, direction: Direction, steps: i8) -> Option<Square> {
        let (dc, dr) = direction.delta();
        let c = self.column() as i16 + dc as i16 * steps as i16;
        let r = self.row() as i16 + dr as i16 * steps as i16;
        let max = crate::MAX_SIDE as i16;
        if c < 0 || r < 0 || c >= max || r >= max {
            None
        } else {
            Some(Square(r as u16 * Square::STRIDE as u16 + c as u16))
        }
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Coordinate form, as people read it: column letter, 1-based row.
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row() + 1)
    }
}

/// One of the four directions a line can run in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Left to right along a row.
    Horizontal,
    /// Top to bottom along a column.
    Vertical,
    /// Top-left to bottom-right.
    Diagonal,
    /// Bottom-left to top-right.
    AntiDiagonal,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::Horizontal,
        Direction::Vertical,
        Direction::Diagonal,
        Direction::AntiDiagonal,
    ];

    /// The step (columns, rows) one cell along this direction.
    #[inline]
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::Horizontal => (1, 0),
            Direction::Vertical => (0, 1),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (1, -1),
        }
    }
}
