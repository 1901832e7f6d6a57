//! Sets of cells as the engine hands them around: per row, a bit per
//! column (rows of up to 20 columns in a `u32`), cheap to combine and to
//! walk.
use crate::{Square, MAX_SIDE};

/// A set of cells: per row, a bit per column (bit c of row r: the cell in
/// column c of row r).
pub(super) type Rows = [u32; MAX_SIDE as usize];

/// The cells of `rows`, row by row, each row's from its first column.
pub(super) fn cells_of(rows: Rows) -> impl Iterator<Item = Square> {
    rows.into_iter().enumerate().flat_map(|(row, mut bits)| {
        core::iter::from_fn(move || {
            (bits != 0).then(|| {
                let column = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Square::from_index((row * Square::STRIDE + column) as u16)
            })
        })
    })
}
