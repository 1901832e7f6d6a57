//! Where things are on the screen.

use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use ttt_core::{Rules, Square};

/// Screen width.
pub const WIDTH: u32 = 320;
/// Screen height.
pub const HEIGHT: u32 = 240;
/// The status bar at the top (messages, the result).
pub const STATUS: Rectangle = Rectangle::new(Point::new(8, 6), Size::new(304, 26));
/// The square the board is fitted into (inside its frame).
pub const BOARD_AREA: Rectangle = Rectangle::new(Point::new(14, 40), Size::new(186, 186));
/// The side panel (players, scores, controls).
pub const PANEL: Rectangle = Rectangle::new(Point::new(210, 38), Size::new(104, 190));

/// Cell size in pixels and the board's top-left corner.
pub fn board_geometry(rules: &Rules) -> (Point, u32) {
    let n = rules.columns().max(rules.rows()).max(1) as u32;
    let cell = (BOARD_AREA.size.width / n).min(62);
    let w = cell * rules.columns() as u32;
    let h = cell * rules.rows() as u32;
    let x = BOARD_AREA.top_left.x + (BOARD_AREA.size.width as i32 - w as i32) / 2;
    let y = BOARD_AREA.top_left.y + (BOARD_AREA.size.height as i32 - h as i32) / 2;
    (Point::new(x, y), cell)
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
