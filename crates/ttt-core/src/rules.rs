use core::fmt;
use core::str::FromStr;

use crate::{Mark, ParseRulesError, RulesError, Square, SquareSet, MAX_SIDE};

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
    /// Renju (Gomocup's `INFO rule 4`; k = 5 on boards of at least 15x15):
    /// X (black) wins only with exactly five and may not play the moves
    /// [`renju::forbidden`](crate::renju::forbidden) names; O (white) wins
    /// with five or more. Made with [`Rules::with_renju`].
    Renju,
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

    /// The same board with another win length (same win condition; renju
    /// refuses any k but 5).
    pub const fn with_k(&self, k: u8) -> Result<Rules, RulesError> {
        match Rules::new(self.columns, self.rows, k) {
            Ok(rules) if matches!(self.win, WinCondition::Renju) => rules.with_renju(),
            Ok(rules) => Ok(rules.with_win_condition(self.win)),
            Err(e) => Err(e),
        }
    }

    /// Whether renju can be played on this board: k = 5 and both sides at
    /// least [`RENJU_MIN_SIDE`](Rules::RENJU_MIN_SIDE) (its forbidden moves
    /// are defined for five in a row, on the 15x15 board and up).
    #[inline]
    pub const fn supports_renju(&self) -> bool {
        self.k == 5 && self.columns >= Rules::RENJU_MIN_SIDE && self.rows >= Rules::RENJU_MIN_SIDE
    }

    /// The smallest side of a renju board.
    pub const RENJU_MIN_SIDE: u8 = 15;

    /// The same board under renju rules ([`WinCondition::Renju`]), or why
    /// not (k is not 5, or a side is below 15).
    pub const fn with_renju(&self) -> Result<Rules, RulesError> {
        if self.supports_renju() {
            Ok(Rules {
                win: WinCondition::Renju,
                ..*self
            })
        } else {
            Err(RulesError::NotRenju {
                columns: self.columns,
                rows: self.rows,
                k: self.k,
            })
        }
    }

    /// Whether these are renju rules (black has forbidden moves).
    #[inline]
    pub const fn is_renju(&self) -> bool {
        matches!(self.win, WinCondition::Renju)
    }

    /// Whether k or more in a row win, or exactly k.
    #[inline]
    pub const fn win_condition(&self) -> WinCondition {
        self.win
    }

    /// The same board and k with another win condition.
    ///
    /// [`WinCondition::Renju`] is taken only where
    /// [`supports_renju`](Rules::supports_renju); elsewhere the rules come
    /// back unchanged: use [`with_renju`](Rules::with_renju), which says why.
    pub const fn with_win_condition(&self, win: WinCondition) -> Rules {
        if matches!(win, WinCondition::Renju) && !self.supports_renju() {
            return *self;
        }
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
        matches!(self.win, WinCondition::ExactlyK | WinCondition::Renju) && self.k < long
    }

    /// Whether an unbroken line of `len` marks wins under these rules (for
    /// X, the stricter side, under renju: see
    /// [`is_winning_length_for`](Rules::is_winning_length_for)).
    #[inline]
    pub const fn is_winning_length(&self, len: u32) -> bool {
        self.is_winning_length_for(Mark::X, len)
    }

    /// Whether an unbroken line of `len` marks of `mark` wins: under renju
    /// exactly five for X, five or more for O.
    #[inline]
    pub const fn is_winning_length_for(&self, mark: Mark, len: u32) -> bool {
        match (self.win, mark) {
            (WinCondition::AtLeastK, _) | (WinCondition::Renju, Mark::O) => len >= self.k as u32,
            (WinCondition::ExactlyK, _) | (WinCondition::Renju, Mark::X) => len == self.k as u32,
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
    /// `3x3 k=3`; `15x15 k=5 exact` when only exactly k wins; `15x15 k=5
    /// renju` under renju.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} k={}", self.columns, self.rows, self.k)?;
        match self.win {
            WinCondition::AtLeastK => {}
            WinCondition::ExactlyK => f.write_str(" exact")?,
            WinCondition::Renju => f.write_str(" renju")?,
        }
        Ok(())
    }
}

impl FromStr for Rules {
    type Err = ParseRulesError;

    /// Reads `N` (N x N), `CxR`, either followed by an optional win length:
    /// `7x7 k=4`, `7x7k4`, `7x7,k=4`. Without one, k is [`Rules::with_default_k`]'s.
    /// A final word `exact` makes only exactly k win: `15x15 k=5 exact`;
    /// `renju` asks for renju (`15x15 renju`, `15x15 k=5 renju`).
    fn from_str(s: &str) -> Result<Rules, ParseRulesError> {
        let s = s.trim();
        let suffix = [
            ("exact", WinCondition::ExactlyK),
            ("renju", WinCondition::Renju),
        ]
        .into_iter()
        .find_map(|(word, win)| strip_suffix_ignore_case(s, word).map(|rest| (rest, win)));
        let (s, win) = match suffix {
            Some((rest, win)) => (rest.trim_end_matches([' ', ',', ':', ';']), win),
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
        let rules = rules.map_err(ParseRulesError::Invalid)?;
        match win {
            WinCondition::Renju => rules.with_renju().map_err(ParseRulesError::Invalid),
            _ => Ok(rules.with_win_condition(win)),
        }
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
