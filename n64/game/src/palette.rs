//! The colours (5 bits per channel).

use embedded_graphics::pixelcolor::Rgb555;

/// Screen background.
pub const BG: Rgb555 = Rgb555::new(2, 3, 8);
/// Panels and bars.
pub const PANEL: Rgb555 = Rgb555::new(4, 6, 14);
/// Panel borders.
pub const PANEL_EDGE: Rgb555 = Rgb555::new(9, 12, 24);
/// The board's cells.
pub const BOARD: Rgb555 = Rgb555::new(5, 7, 15);
/// Grid lines.
pub const GRID: Rgb555 = Rgb555::new(12, 15, 26);
/// The frame around the board.
pub const FRAME: Rgb555 = Rgb555::new(28, 21, 5);
/// X marks (a cross).
pub const X: Rgb555 = Rgb555::new(31, 9, 7);
/// O marks (a ring).
pub const O: Rgb555 = Rgb555::new(7, 22, 31);
/// The cursor.
pub const CURSOR: Rgb555 = Rgb555::new(31, 31, 6);
/// The hint's cell.
pub const HINT: Rgb555 = Rgb555::new(4, 20, 8);
/// Cells of the winning line.
pub const WIN_CELL: Rgb555 = Rgb555::new(20, 16, 2);
/// The stroke through the winning line.
pub const WIN_LINE: Rgb555 = Rgb555::new(31, 30, 20);
/// The last move's cell.
pub const LAST: Rgb555 = Rgb555::new(8, 10, 20);
/// The outline of the last move's cell (gomoku boards).
pub const LAST_EDGE: Rgb555 = Rgb555::new(24, 26, 31);
/// X's forbidden points (renju).
pub const FORBIDDEN: Rgb555 = Rgb555::new(22, 4, 4);
/// Ordinary text.
pub const TEXT: Rgb555 = Rgb555::new(28, 28, 30);
/// Secondary text.
pub const DIM: Rgb555 = Rgb555::new(15, 16, 21);
/// The result message (used for nothing else).
pub const RESULT: Rgb555 = Rgb555::new(31, 29, 0);
/// The computer's speech ("I am choosing square N!").
pub const SPEECH: Rgb555 = Rgb555::new(20, 31, 20);
/// Highlighted menu line.
pub const SELECT: Rgb555 = Rgb555::new(10, 8, 24);
