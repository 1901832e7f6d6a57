//! Positions for the tests of the engine's parts.
use crate::Position;

/// A 15x15 k=5 board from rows of `(row, text)` (column a first), the
/// rest empty.
pub(super) fn board(rows: &[(usize, &str)]) -> Position {
    let mut text = [b'.'; 15 * 16 - 1];
    for r in 0..14 {
        text[r * 16 + 15] = b'/';
    }
    for &(r, row) in rows {
        text[r * 16..r * 16 + row.len()].copy_from_slice(row.as_bytes());
    }
    Position::from_board(core::str::from_utf8(&text).unwrap(), Some(5)).unwrap()
}

/// A 9x9 k=5 board from its text (rows separated by `/`).
pub(super) fn nine(text: &str) -> Position {
    Position::from_board(text, Some(5)).unwrap()
}
