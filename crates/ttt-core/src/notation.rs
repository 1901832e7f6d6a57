//! The ways people name squares and write boards.
//!
//! Squares, in the three forms the seeds use (all accepted by
//! [`Rules::parse_square`]):
//!
//! - **Square number**, 1-based, row-major, as in the CS102 seed: on 3x3
//!   `1 2 3 / 4 5 6 / 7 8 9`.
//! - **Coordinate**: column letter then row number, row 1 at the top, as in
//!   "Tic-Tac-Toe in C": `a1` is the top-left cell, `b3` is column b, row 3.
//!   Case-insensitive.
//! - **Row and column**: two 1-based numbers, `2 3` or `2,3`.
//!
//! Boards: rows from top to bottom separated by `/`, cells `x`, `o` and `.`
//! (`-` and `_` also mean empty; case-insensitive), e.g. `x.o/.x./..o`. A
//! string with no `/` whose length is a square number is a square board, so
//! the 9-cell `x.o.x...o` is 3x3; a single row ends in `/` (`x.o..o/` is
//! 6x1). The side to move follows from the counts.
use core::fmt;
use core::str::FromStr;

use crate::{
    Mark, ParseBoardError, ParseSquareError, Position, Rules, Square, SquareSet, WinCondition,
    MAX_SIDE,
};

/// Which of the three square notations to write.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum SquareFormat {
    /// 1-based row-major number: `5`.
    #[default]
    Number,
    /// Column letter and row number: `b2`.
    Coord,
    /// Row and column, 1-based: `2 2`.
    RowCol,
}

impl FromStr for SquareFormat {
    type Err = ();

    fn from_str(s: &str) -> Result<SquareFormat, ()> {
        match s {
            "number" => Ok(SquareFormat::Number),
            "coord" => Ok(SquareFormat::Coord),
            "rowcol" => Ok(SquareFormat::RowCol),
            _ => Err(()),
        }
    }
}

impl Rules {
    /// Reads a square in any of the three notations (see the module docs).
    pub fn parse_square(&self, text: &str) -> Result<Square, ParseSquareError> {
        let text = text.trim();
        let first = text.chars().next().ok_or(ParseSquareError::Empty)?;
        if first.is_ascii_alphabetic() {
            let letter = first.to_ascii_lowercase();
            let row = parse_number(&text[1..])?;
            let column = letter as u32 - 'a' as u32;
            let last = (b'a' + self.columns() - 1) as char;
            if column >= self.columns() as u32 {
                return Err(ParseSquareError::ColumnLetterOutOfRange { letter, last });
            }
            return self.row_column(row, column + 1);
        }
        let mut parts = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty());
        let a = parse_number(parts.next().ok_or(ParseSquareError::Malformed)?)?;
        match (parts.next(), parts.next()) {
            (None, _) => {
                let last = self.cell_count() as u16;
                if a == 0 || a > last as u32 {
                    return Err(ParseSquareError::NumberOutOfRange { number: a, last });
                }
                self.square_from_number(a as u16)
                    .ok_or(ParseSquareError::Malformed)
            }
            (Some(b), None) => self.row_column(a, parse_number(b)?),
            (Some(_), Some(_)) => Err(ParseSquareError::Malformed),
        }
    }

    /// The square with 1-based row-major number `n`, if on the board.
    pub fn square_from_number(&self, n: u16) -> Option<Square> {
        let i = n.checked_sub(1)?;
        let (columns, rows) = (self.columns() as u16, self.rows() as u16);
        (i < columns * rows)
            .then(|| Square::new((i % columns) as u8, (i / columns) as u8))
            .flatten()
    }

    /// The 1-based row-major number of `square` (5 is the centre of 3x3).
    pub fn number_of(&self, square: Square) -> u16 {
        square.row() as u16 * self.columns() as u16 + square.column() as u16 + 1
    }

    /// Writes `square` in the given notation (`Display`).
    pub fn display_square(&self, square: Square, format: SquareFormat) -> SquareDisplay {
        SquareDisplay {
            rules: *self,
            square,
            format,
        }
    }

    fn row_column(&self, row: u32, column: u32) -> Result<Square, ParseSquareError> {
        if row == 0 || row > self.rows() as u32 {
            return Err(ParseSquareError::RowOutOfRange {
                row,
                rows: self.rows(),
            });
        }
        if column == 0 || column > self.columns() as u32 {
            return Err(ParseSquareError::ColumnOutOfRange {
                column,
                columns: self.columns(),
            });
        }
        Square::new(column as u8 - 1, row as u8 - 1).ok_or(ParseSquareError::Malformed)
    }
}

fn parse_number(text: &str) -> Result<u32, ParseSquareError> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseSquareError::Malformed);
    }
    // Saturate absurdly long numbers; the range check reports them.
    Ok(text.parse::<u32>().unwrap_or(u32::MAX))
}

/// A square written in one notation; see [`Rules::display_square`].
#[derive(Copy, Clone, Debug)]
pub struct SquareDisplay {
    rules: Rules,
    square: Square,
    format: SquareFormat,
}

impl fmt::Display for SquareDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (c, r) = (self.square.column(), self.square.row());
        match self.format {
            SquareFormat::Number => write!(f, "{}", self.rules.number_of(self.square)),
            SquareFormat::Coord => write!(f, "{}{}", (b'a' + c) as char, r + 1),
            SquareFormat::RowCol => write!(f, "{} {}", r + 1, c + 1),
        }
    }
}

/// Reads board text (see the module docs) with win length `k`, or the default.
pub(crate) fn parse_board(
    text: &str,
    k: Option<u8>,
    win: WinCondition,
) -> Result<Position, ParseBoardError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParseBoardError::Empty);
    }
    let mut x = SquareSet::EMPTY;
    let mut o = SquareSet::EMPTY;
    let (columns, rows) = if text.contains('/') {
        let mut columns = 0usize;
        let mut rows = 0usize;
        // A trailing slash ends the last row (how a one-row board is written).
        let body = text.strip_suffix('/').unwrap_or(text);
        for (r, line) in body.split('/').enumerate() {
            let line = line.trim();
            let len = line.chars().count();
            if r == 0 {
                columns = len;
            } else if len != columns {
                return Err(ParseBoardError::RaggedRows {
                    row: clamp_u8(r + 1),
                    expected: columns,
                    found: len,
                });
            }
            read_row(line, r, &mut x, &mut o)?;
            rows = r + 1;
        }
        (columns, rows)
    } else {
        let len = text.chars().count();
        let n = (1..=MAX_SIDE as usize)
            .find(|n| n * n == len)
            .ok_or(ParseBoardError::NotSquare { len })?;
        for r in 0..n {
            let line: &str = text
                .get(r * n..(r + 1) * n)
                .ok_or(ParseBoardError::NotSquare { len })?;
            read_row(line, r, &mut x, &mut o)?;
        }
        (n, n)
    };
    let (columns, rows) = (clamp_u8(columns), clamp_u8(rows));
    let rules = match k {
        Some(k) => Rules::new(columns, rows, k),
        None => Rules::with_default_k(columns, rows),
    }
    .and_then(|rules| match win {
        WinCondition::Renju => rules.with_renju(),
        _ => Ok(rules.with_win_condition(win)),
    })
    .map_err(ParseBoardError::BadShape)?;
    Position::from_marks(rules, x, o)
}

fn read_row(
    line: &str,
    r: usize,
    x: &mut SquareSet,
    o: &mut SquareSet,
) -> Result<(), ParseBoardError> {
    for (c, ch) in line.chars().enumerate() {
        let bad = ParseBoardError::BadCharacter {
            found: ch,
            row: clamp_u8(r + 1),
        };
        let mark = match ch {
            '.' | '-' | '_' => None,
            'x' | 'X' => Some(Mark::X),
            'o' | 'O' => Some(Mark::O),
            _ => return Err(bad),
        };
        // Cells past 20x20 are caught by the shape check; don't index them.
        if let (Some(mark), Some(sq)) = (mark, Square::new(clamp_u8(c), clamp_u8(r))) {
            match mark {
                Mark::X => x.insert(sq),
                Mark::O => o.insert(sq),
            }
        }
    }
    Ok(())
}

fn clamp_u8(n: usize) -> u8 {
    n.min(255) as u8
}
