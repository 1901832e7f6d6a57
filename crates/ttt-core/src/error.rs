//! Typed errors, each with a message a person understands.
use core::fmt;

use crate::{Mark, Square};

/// A board shape that cannot be played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// A side is 0 or more than [`MAX_SIDE`](crate::MAX_SIDE) (20).
    BadSize {
        /// Requested columns.
        columns: u8,
        /// Requested rows.
        rows: u8,
    },
    /// The win length is 0 or longer than the board.
    BadWinLength {
        /// Requested win length.
        k: u8,
        /// The longest possible, max(columns, rows).
        max: u8,
    },
    /// Renju asked for on a board it is not played on (k must be 5, each
    /// side at least 15).
    NotRenju {
        /// Columns of the board.
        columns: u8,
        /// Rows of the board.
        rows: u8,
        /// Its win length.
        k: u8,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RulesError::BadSize { columns, rows } => {
                write!(
                    f,
                    "a {columns}x{rows} board is not possible: each side must be 1 to {}",
                    crate::MAX_SIDE
                )
            }
            RulesError::BadWinLength { k, max } => {
                write!(
                    f,
                    "win length {k} is not possible on this board: it must be 1 to {max}"
                )
            }
            RulesError::NotRenju { columns, rows, k } => write!(
                f,
                "renju is played with k=5 on boards of 15x15 or more, not {columns}x{rows} k={k}"
            ),
        }
    }
}

impl core::error::Error for RulesError {}

/// Text that is not a board size.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParseRulesError {
    /// Not of the form `N`, `CxR` or `CxR k=K`.
    Malformed,
    /// Well-formed but not a playable shape.
    Invalid(RulesError),
}

impl fmt::Display for ParseRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseRulesError::Malformed => {
                f.write_str("expected a board size like 3, 4x3 or 7x7 k=4")
            }
            ParseRulesError::Invalid(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for ParseRulesError {}

/// A move that cannot be played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The square is not on this board.
    OffBoard(Square),
    /// The square already holds a mark.
    Occupied(Square, Mark),
    /// The game has already been won or drawn.
    GameOver,
    /// Under renju, a move black may not play.
    Forbidden(Square, crate::renju::Forbidden),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::OffBoard(sq) => write!(f, "square {sq:?} is not on the board"),
            PlayError::Occupied(sq, mark) => write!(f, "square {sq:?} is already taken by {mark}"),
            PlayError::GameOver => f.write_str("the game is already over"),
            PlayError::Forbidden(sq, why) => {
                write!(f, "square {sq:?} is forbidden to X under renju: {why}")
            }
        }
    }
}

impl core::error::Error for PlayError {}

/// Text that does not name a square of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParseSquareError {
    /// Nothing was typed.
    Empty,
    /// Not a square number, a coordinate like `b3`, or a row and column like `2 3`.
    Malformed,
    /// A square number outside 1..=cells.
    NumberOutOfRange {
        /// What was typed.
        number: u32,
        /// The last square's number.
        last: u16,
    },
    /// A column letter past the board's last column.
    ColumnLetterOutOfRange {
        /// What was typed (lower case).
        letter: char,
        /// The last column's letter.
        last: char,
    },
    /// A 1-based row outside the board.
    RowOutOfRange {
        /// What was typed.
        row: u32,
        /// Rows on the board.
        rows: u8,
    },
    /// A 1-based column number outside the board.
    ColumnOutOfRange {
        /// What was typed.
        column: u32,
        /// Columns on the board.
        columns: u8,
    },
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseSquareError::Empty => f.write_str("no square given"),
            ParseSquareError::Malformed => f.write_str(
                "not a square: type a square number (5), a coordinate (b2) or a row and column (2 2)",
            ),
            ParseSquareError::NumberOutOfRange { number, last } => {
                write!(f, "square {number} is not on the board: choose 1 to {last}")
            }
            ParseSquareError::ColumnLetterOutOfRange { letter, last } => {
                write!(f, "column {letter} is not on the board: choose a to {last}")
            }
            ParseSquareError::RowOutOfRange { row, rows } => {
                write!(f, "row {row} is not on the board: choose 1 to {rows}")
            }
            ParseSquareError::ColumnOutOfRange { column, columns } => {
                write!(f, "column {column} is not on the board: choose 1 to {columns}")
            }
        }
    }
}

impl core::error::Error for ParseSquareError {}

/// Text that is not a board, or a board no game can reach.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParseBoardError {
    /// Nothing was given.
    Empty,
    /// A character that is not `x`, `o`, `.`, `-` or `_`.
    BadCharacter {
        /// The character.
        found: char,
        /// 1-based row it is in.
        row: u8,
    },
    /// Rows of different lengths.
    RaggedRows {
        /// 1-based row that differs from the first.
        row: u8,
        /// Length of the first row.
        expected: usize,
        /// Length of this row.
        found: usize,
    },
    /// A string without `/` whose length is not a square number (9 = 3x3).
    NotSquare {
        /// Its length.
        len: usize,
    },
    /// A side longer than 20, or a win length that does not fit.
    BadShape(RulesError),
    /// X must have as many marks as O, or one more.
    BadCounts {
        /// Number of X marks.
        x: usize,
        /// Number of O marks.
        o: usize,
    },
    /// Both players have a line.
    BothWin,
    /// A player has a line that no game could have produced (their last mark
    /// does not complete every line, or the other player moved after it).
    UnreachableWin(Mark),
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseBoardError::Empty => f.write_str("empty board text"),
            ParseBoardError::BadCharacter { found, row } => write!(
                f,
                "unexpected {found:?} in row {row}: cells are x, o or . (rows separated by /)"
            ),
            ParseBoardError::RaggedRows {
                row,
                expected,
                found,
            } => write!(
                f,
                "row {row} has {found} cells but row 1 has {expected}: every row must be as long"
            ),
            ParseBoardError::NotSquare { len } => write!(
                f,
                "{len} cells without '/' is not a square board: separate rows with / (x.o/.x./..o)"
            ),
            ParseBoardError::BadShape(e) => e.fmt(f),
            ParseBoardError::BadCounts { x, o } => write!(
                f,
                "{x} X and {o} O: X moves first, so X must have as many marks as O or one more"
            ),
            ParseBoardError::BothWin => f.write_str("both X and O have a line: no game gets there"),
            ParseBoardError::UnreachableWin(mark) => {
                write!(
                    f,
                    "{mark}'s winning lines could not have been made in a real game"
                )
            }
        }
    }
}

impl core::error::Error for ParseBoardError {}
