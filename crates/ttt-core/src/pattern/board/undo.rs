//! The record of what one stone changed on the pattern board, so that the
//! board can take the stone back by copying.
use super::super::line::REACH;
use crate::SquareSet;

/// What placing one stone changed on a pattern board: enough to take the
/// stone back by copying (the class counts, the four cells, and each
/// changed cell's old pattern byte, class codes and classes; a stone
/// changes one line pattern of each cell it reaches, so one entry a cell).
///
/// The search on the pattern board keeps one a stone of the line it plays
/// out ([`Engine::set_take_backs`](crate::ai::Engine::set_take_backs)): a
/// caller that searches move after move (the console) lends the records
/// once, as it lends the transposition table, and the engine neither
/// makes nor copies them per move. About 500 bytes each.
pub struct PatternUndo {
    pub(super) counts: [[u16; 13]; 2],
    pub(super) weight_sums: [[i32; 2]; 2],
    pub(super) fours: [SquareSet; 2],
    pub(super) centre: [u8; 2],
    pub(super) len: usize,
    /// Cell index, direction, old pattern byte.
    pub(super) cells: [(u16, u8, u8); 4 * 2 * REACH],
    pub(super) codes: [[u16; 2]; 4 * 2 * REACH],
    pub(super) classes: [[u8; 2]; 4 * 2 * REACH],
}

impl PatternUndo {
    /// A record that holds nothing yet (each is written before it is
    /// read).
    pub const EMPTY: PatternUndo = PatternUndo {
        counts: [[0; 13]; 2],
        weight_sums: [[0; 2]; 2],
        fours: [SquareSet::EMPTY; 2],
        centre: [0; 2],
        len: 0,
        cells: [(0, 0, 0); 4 * 2 * REACH],
        codes: [[0; 2]; 4 * 2 * REACH],
        classes: [[0; 2]; 4 * 2 * REACH],
    };
}

#[cfg(test)]
impl PatternUndo {
    /// Cells whose old state the record holds.
    pub(crate) fn cells_saved(&self) -> usize {
        self.len
    }
}

impl Default for PatternUndo {
    fn default() -> PatternUndo {
        PatternUndo::EMPTY
    }
}
