//! The error of the pattern board and probe: they are defined for five in a
//! row only.
use core::fmt;

/// The board's win length is not five: patterns are defined for five in a
/// row only.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NotFiveInARow {
    /// The board's win length.
    pub k: u8,
}

impl fmt::Display for NotFiveInARow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "threat patterns are defined for five in a row; this board has k={}",
            self.k
        )
    }
}

impl core::error::Error for NotFiveInARow {}
