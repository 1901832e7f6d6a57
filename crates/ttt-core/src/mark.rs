use core::fmt;

/// A player's mark. X always moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Mark {
    /// Both marks, X first.
    pub const ALL: [Mark; 2] = [Mark::X, Mark::O];

    /// The other player's mark.
    #[inline]
    pub const fn other(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }

    /// 0 for X, 1 for O: an index into per-player tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case letter, `'X'` or `'O'`.
    pub const fn char(self) -> char {
        match self {
            Mark::X => 'X',
            Mark::O => 'O',
        }
    }

    /// Reads `x`/`X` or `o`/`O` (and the digit `0`, which people type for O).
    pub const fn from_char(c: char) -> Option<Mark> {
        match c {
            'x' | 'X' => Some(Mark::X),
            'o' | 'O' | '0' => Some(Mark::O),
            _ => None,
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mark::X => "X",
            Mark::O => "O",
        })
    }
}
