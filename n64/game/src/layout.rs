//! Where things are on the screen.
//!
//! A television hides the picture's edges (overscan): everything the game
//! draws, apart from the background, lies inside [`SAFE`], the title-safe
//! area. Two layouts show a game: the seeds' boards (up to 9x9) have a
//! status bar above the board and the side panel on its right; the gomoku
//! boards (10x10 to 15x15) take the whole height, with the coordinates
//! (columns a.., rows 1.., as the desktop writes them) on the board's top
//! and left edges, and the status in the narrower side panel.

use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use ttt_core::{Rules, Square};

/// Screen width.
pub const WIDTH: u32 = 320;
/// Screen height.
pub const HEIGHT: u32 = 240;
/// The title-safe area: 24 pixels (7.5%) in from the left and right, 16
/// lines (6.7%) from the top and bottom. Everything but the background is
/// drawn inside it (`tests/game.rs` checks every screen).
pub const SAFE: Rectangle = Rectangle::new(Point::new(24, 16), Size::new(272, 208));

/// The status bar at the top (messages, the result), seeds' boards.
pub const STATUS: Rectangle = Rectangle::new(Point::new(24, 16), Size::new(272, 26));
/// The square the board is fitted into (inside its frame), seeds' boards.
pub const BOARD_AREA: Rectangle = Rectangle::new(Point::new(31, 53), Size::new(160, 160));
/// The frame drawn around a seeds' board, pixels.
pub const BOARD_FRAME: u32 = 7;
/// The side panel (players, scores, controls), seeds' boards.
pub const PANEL: Rectangle = Rectangle::new(Point::new(204, 46), Size::new(92, 178));

/// Width of the row numbers left of a gomoku board (two digits and a gap).
pub const ROW_LABELS: u32 = 14;
/// Height of the column letters above a gomoku board.
pub const COLUMN_LABELS: u32 = 10;
/// The frame around a gomoku board (its edge), pixels.
pub const BIG_FRAME: u32 = 1;
/// The side panel of a gomoku board: whatever the board leaves of the
/// safe area's width (58 pixels next to 15x15), at least this.
pub const BIG_PANEL_MIN_WIDTH: u32 = 58;

/// Whether `rules` is shown in the gomoku layout (a side over 9).
pub fn is_big(rules: &Rules) -> bool {
    rules.columns().max(rules.rows()) > Rules::FULL_ROW_DEFAULT_MAX_SIDE
}

/// Cell size in pixels and the board's top-left corner.
pub fn board_geometry(rules: &Rules) -> (Point, u32) {
    let n = rules.columns().max(rules.rows()).max(1) as u32;
    if is_big(rules) {
        // The height decides: labels, frame, n cells.
        let room = SAFE.size.height - COLUMN_LABELS - 2 * BIG_FRAME;
        let cell = room / n;
        let x = SAFE.top_left.x + (ROW_LABELS + BIG_FRAME) as i32;
        let y = SAFE.top_left.y + (COLUMN_LABELS + BIG_FRAME) as i32;
        return (Point::new(x, y), cell);
    }
    let cell = (BOARD_AREA.size.width / n).min(62);
    let w = cell * rules.columns() as u32;
    let h = cell * rules.rows() as u32;
    let x = BOARD_AREA.top_left.x + (BOARD_AREA.size.width as i32 - w as i32) / 2;
    let y = BOARD_AREA.top_left.y + (BOARD_AREA.size.height as i32 - h as i32) / 2;
    (Point::new(x, y), cell)
}

/// The board's cells (inside its frame).
pub fn board_rect(rules: &Rules) -> Rectangle {
    let (origin, cell) = board_geometry(rules);
    Rectangle::new(
        origin,
        Size::new(cell * rules.columns() as u32, cell * rules.rows() as u32),
    )
}

/// The side panel of a game on `rules`.
pub fn panel(rules: &Rules) -> Rectangle {
    if !is_big(rules) {
        return PANEL;
    }
    let board = board_rect(rules);
    let left = board.top_left.x + board.size.width as i32 + BIG_FRAME as i32 + 3;
    let right = SAFE.top_left.x + SAFE.size.width as i32;
    let width = ((right - left).max(0) as u32).max(BIG_PANEL_MIN_WIDTH);
    Rectangle::new(
        Point::new(right - width as i32, SAFE.top_left.y),
        Size::new(width, SAFE.size.height),
    )
}

/// The pixels of one cell.
pub fn cell_rect(rules: &Rules, sq: Square) -> Rectangle {
    let (origin, cell) = board_geometry(rules);
    Rectangle::new(
        origin
            + Point::new(
                sq.column() as i32 * cell as i32,
                sq.row() as i32 * cell as i32,
            ),
        Size::new(cell, cell),
    )
}
