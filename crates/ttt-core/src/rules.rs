use core::fmt;
use core::str::FromStr;

use crate::{ParseRulesError, RulesError, Square, SquareSet, MAX_SIDE};

/// Which lines of `k` win: `k` or more in a row (freestyle, the default), or
/// exactly `k` (Gomocup's "exactly five" rule: a longer line, an overline,
/// does not win).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum WinCondition {
    /// A line of k or more wins.
    #[default]
    AtLeastK,
    /// Only a line of exactly k wins; an overline counts for nothing.
    ExactlyK,
}

/// The shape of an m,n,k-game: `columns` x `rows` cells, `k` in a row wins
/// (or exactly `k`, see [`WinCondition`]).
///
/// Classic tic-tac-toe is 3x3 with k = 3. The seeds' "N by N" games are N x N
/// with k = N, which is what [`Rules::with_default_k`] picks for square boards
/// up to 9x9; larger boards default to five in a row (gomoku).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    columns: u8,
    rows: u8,
    k: u8,
    win: WinCondition,
}

impl Rules {
    /// Classic tic-tac-toe: 3x3, three in a row.
    pub const CLASSIC: Rules = Rules {
        columns: 3,
        rows: 3,
        k: 3,
        win: WinCondition::AtLeastK,
    };

    /// A `columns` x `rows` board with `k` in a row to win.
    ///
    /// Each side is 1..=[`MAX_SIDE`] (20); `k` is 1..=max(columns, rows).
    /// Lines of k or more win; see [`with_win_condition`](Rules::with_win_condition).
    pub const fn new(columns: u8, rows: u8, k: u8) -> Result<Rules, RulesError> {
        if columns == 0 || rows == 0 || columns > MAX_SIDE || rows > MAX_SIDE {
            return Err(RulesError::BadSize { columns, rows });
        }
        let max = if columns > rows { columns } else { rows };
        if k == 0 || k > max {
            return Err(RulesError::BadWinLength { k, max });
        }
        Ok(Rules {
            columns,
            rows,
            k,
            win: WinCondition::AtLeastK,
        })
    }

    /// The side above which a board defaults to five in a row.
    pub const FULL_ROW_DEFAULT_MAX_SIDE: u8 = 9;

    /// The win length of boards with a side over
    /// [`FULL_ROW_DEFAULT_MAX_SIDE`](Rules::FULL_ROW_DEFAULT_MAX_SIDE): the
    /// gomoku convention, since nobody means 15 in a row on 15x15.
    pub const BIG_BOARD_DEFAULT_K: u8 = 5;

    /// A board with the default win length: the seeds' full row of the
    /// shorter side, `min(columns, rows)`, while both sides are at most 9;
    /// five in a row on larger boards.
    pub const fn with_default_k(columns: u8, rows: u8) -> Result<Rules, RulesError> {
        let k = if columns > Rules::FULL_ROW_DEFAULT_MAX_SIDE
            || rows > Rules::FULL_ROW_DEFAULT_MAX_SIDE
        {
            Rules::BIG_BOARD_DEFAULT_K
        } else if columns < rows {
            columns
        } else {
            rows
        };
        Rules::new(columns, rows, k)
    }

    /// Number of columns.
    #[inline]
    pub const fn columns(&self) -> u8 {
        self.columns
    }

    /// Number of rows.
    #[inline]
    pub const fn rows(&self) -> u8 {
        self.rows
    }

    /// Marks in a row needed to win.
    #[inline]
    pub const fn k(&self) -> u8 {
        self.k
    }

    /// The same board with another win length (same win condition).
    pub const fn with_k(&self, k: u8) -> Result<Rules, RulesError> {
        match Rules::new(self.columns, self.rows, k) {
            Ok(rules) => Ok(rules.with_win_condition(self.win)),
            Err(e) => Err(e),
        }
    }

    /// Whether k or more in a row win, or exactly k.
    #[inline]
    pub const fn win_condition(&self) -> WinCondition {
        self.win
    }

    /// The same board and k with another win condition.
    pub const fn with_win_condition(&self, win: WinCondition) -> Rules {
        Rules {
            columns: self.columns,
            rows: self.rows,
            k: self.k,
            win,
        }
    }

    /// Whether only exactly k wins and a longer line fits on the board, so
    /// an overline can happen and does not win.
    #[inline]
    pub const fn excludes_overlines(&self) -> bool {
        let long = if self.columns > self.rows {
            self.columns
        } else {
            self.rows
        };
        matches!(self.win, WinCondition::ExactlyK) && self.k < long
    }

    /// Whether an unbroken line of `len` marks wins under these rules.
    #[inline]
    pub const fn is_winning_length(&self, len: u32) -> bool {
        match self.win {
            WinCondition::AtLeastK => len >= self.k as u32,
            WinCondition::ExactlyK => len == self.k as u32,
        }
    }

    /// Number of cells on the board.
    #[inline]
    pub const fn cell_count(&self) -> usize {
        self.columns as usize * self.rows as usize
    }

    /// Whether the board is square (and so has 8 symmetries rather than 4).
    #[inline]
    pub const fn is_square(&self) -> bool {
        self.columns == self.rows
    }

    /// Whether `square` lies on this board.
    #[inline]
    pub const fn contains(&self, square: Square) -> bool {
        square.column() < self.columns && square.row() < self.rows
    }

    /// Every square of the board.
    pub fn mask(&self) -> SquareSet {
        self.squares().collect()
    }

    /// The board's squares in row-major order (top row first).
    pub fn squares(&self) -> impl Iterator<Item = Square> + Clone {
        let columns = self.columns;
        (0..self.rows).flat_map(move |r| (0..columns).filter_map(move |c| Square::new(c, r)))
    }

    /// The squares closest to the centre first, then outwards (rings of equal
    /// distance in row-major order): a good default move order.
    pub fn distance_from_centre(&self, square: Square) -> u16 {
        // Doubled coordinates keep the centre of even boards integral.
        let dc = (2 * square.column() as i16 - (self.columns as i16 - 1)).unsigned_abs();
        let dr = (2 * square.row() as i16 - (self.rows as i16 - 1)).unsigned_abs();
        dc.max(dr) * 64 + dc + dr
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::CLASSIC
    }
}

impl fmt::Display for Rules {
    /// `3x3 k=3`; `15x15 k=5 exact` when only exactly k wins.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} k={}", self.columns, self.rows, self.k)?;
        if self.win == WinCondition::ExactlyK {
            f.write_str(" exact")?;
        }
        Ok(())
    }
}

impl FromStr for Rules {
    type Err = ParseRulesError;

    /// Reads `N` (N x N), `CxR`, either followed by an optional win length:
    /// `7x7 k=4`, `7x7k4`, `7x7,k=4`. Without one, k is [`Rules::with_default_k`]'s.
    /// A final word `exact` makes only exactly k win: `15x15 k=5 exact`.
    fn from_str(s: &str) -> Result<Rules, ParseRulesError> {
        let s = s.trim();
        let (s, win) = match strip_suffix_ignore_case(s, "exact") {
            Some(rest) => (
                rest.trim_end_matches([' ', ',', ':', ';']),
                WinCondition::ExactlyK,
            ),
            None => (s, WinCondition::AtLeastK),
        };
        let lower_k = s.find(['k', 'K']);
        let (dims, k) = match lower_k {
            Some(i) => {
                let k_text = s[i + 1..].trim_start_matches(['=', ' ']).trim();
                let k = k_text
                    .parse::<u8>()
                    .map_err(|_| ParseRulesError::Malformed)?;
                (
                    s[..i].trim_end_matches([' ', ',', ':', ';']).trim(),
                    Some(k),
                )
            }
            None => (s, None),
        };
        let (columns, rows) = match dims.split_once(['x', 'X', '*']) {
            Some((c, r)) => (parse_side(c)?, parse_side(r)?),
            None => {
                let n = parse_side(dims)?;
                (n, n)
            }
        };
        let rules = match k {
            Some(k) => Rules::new(columns, rows, k),
            None => Rules::with_default_k(columns, rows),
        };
        rules
            .map(|r| r.with_win_condition(win))
            .map_err(ParseRulesError::Invalid)
    }
}

fn strip_suffix_ignore_case<'a>(s: &'a str, suffix: &str) -> Option<&'a str> {
    let cut = s.len().checked_sub(suffix.len())?;
    let (rest, tail) = (s.get(..cut)?, s.get(cut..)?);
    tail.eq_ignore_ascii_case(suffix).then_some(rest)
}

fn parse_side(text: &str) -> Result<u8, ParseRulesError> {
    let n = text
        .trim()
        .parse::<u32>()
        .map_err(|_| ParseRulesError::Malformed)?;
    // Out-of-range sizes are reported by Rules::new with the real numbers.
    Ok(n.min(255) as u8)
}
