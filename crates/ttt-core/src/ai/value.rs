//! The exact value of a position, as the solvers give it.
use core::fmt;

/// The exact value of a position for the side to move.
///
/// `Win(n)`: with best play on both sides the side to move completes a line
/// on the `n`-th ply from now (n is odd; 1 = this move); `Loss(n)`: the
/// opponent does, on ply `n` (even). Best play means the winner hurries and
/// the loser delays. Better is greater: a faster win, then a draw, then a
/// slower loss.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies (its own moves included).
    Win(u8),
    /// Neither side can force a win.
    Draw,
    /// The side to move loses in this many plies.
    Loss(u8),
}

impl Value {
    fn key(self) -> i32 {
        match self {
            Value::Win(n) => 1000 - n as i32,
            Value::Draw => 0,
            Value::Loss(n) => -1000 + n as i32,
        }
    }

    /// The value one ply earlier, for the player who moved into this position.
    pub fn parent(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n.saturating_add(1)),
            Value::Draw => Value::Draw,
            Value::Loss(n) => Value::Win(n.saturating_add(1)),
        }
    }

    /// Whether the side to move wins.
    pub fn is_win(self) -> bool {
        matches!(self, Value::Win(_))
    }

    /// Whether the side to move loses.
    pub fn is_loss(self) -> bool {
        matches!(self, Value::Loss(_))
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> core::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl fmt::Display for Value {
    /// `win in 3`, `draw`, `loss in 4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}
