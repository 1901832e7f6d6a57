//! Drawing pieces several screens share: panels, wrapped text, the mark
//! colours, the cursor's frame, the blink/bounce wave, and the list of
//! every sprite the screens draw (for the raster's warm-up).

use core::fmt::Write as _;

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use ttt_core::{Mark, Rules};

use crate::canvas::{Canvas, Font, Panel};
use crate::layout;
use crate::palette;
use crate::settings;
use crate::text::StrBuf;

/// A box with a 2-pixel edge and chamfered corners (see [`Panel`]).
pub(crate) fn panel<C: Canvas>(t: &mut C, area: Rectangle, fill: Rgb555, edge: Rgb555) {
    t.panel(Panel {
        area,
        fill,
        edge,
        inner: None,
    });
}

/// Word-wraps `s` into lines of at most `width` characters, drawn from `at`
/// down, `line_h` apart; at most `max_lines`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn wrapped<C: Canvas>(
    t: &mut C,
    s: &str,
    at: Point,
    width: usize,
    line_h: i32,
    max_lines: usize,
    font: Font,
    color: Rgb555,
) {
    let mut line = StrBuf::<64>::new();
    let mut len = 0usize;
    let mut y = at.y;
    let mut lines = 0;
    for word in s.split(' ').filter(|w| !w.is_empty()) {
        let wl = word.chars().count();
        if len > 0 && len + 1 + wl > width {
            if lines >= max_lines {
                return;
            }
            t.text(
                line.as_str(),
                Point::new(at.x, y),
                font,
                color,
                Alignment::Left,
            );
            lines += 1;
            y += line_h;
            line.clear();
            len = 0;
        }
        if len > 0 {
            let _ = line.write_char(' ');
            len += 1;
        }
        let _ = line.write_str(word);
        len += wl;
    }
    if len > 0 && lines < max_lines {
        t.text(
            line.as_str(),
            Point::new(at.x, y),
            font,
            color,
            Alignment::Left,
        );
    }
}

/// The side panel's mark icons, pixels square.
pub(crate) const ICON: u32 = 16;
/// The title's little board's cells, pixels square.
pub(crate) const TITLE_CELL: u32 = 30;

/// The cursor's frame on cell `r` of a board with `cell`-pixel cells:
/// its area, corner radius and width.
pub(crate) fn cursor_frame(r: Rectangle, cell: u32) -> (Rectangle, u32, u32) {
    (r.offset(-1), 4, if cell >= 30 { 3 } else { 2 })
}

/// Draws every mark and rounded frame the screens draw, one of each shape
/// and size, somewhere: every board size's marks and cursor (and on the
/// gomoku boards the last move's outline), the side panel's icons, the
/// title's marks. A raster given spare time renders their sprites ahead of
/// need (`Canvas::warm_up`), so that the first frame of a new screen only
/// copies them.
pub fn every_sprite<C: Canvas>(t: &mut C) {
    let cell_at = |size: u32| Rectangle::new(Point::zero(), Size::new(size, size));
    for mark in Mark::ALL {
        t.mark(cell_at(ICON), mark);
        t.mark(cell_at(TITLE_CELL), mark);
    }
    let mut seen = [0u32; (settings::MAX_SIDE - settings::MIN_SIDE + 1) as usize];
    for (i, side) in (settings::MIN_SIDE..=settings::MAX_SIDE).enumerate() {
        let Ok(rules) = Rules::new(side, side, side.min(5)) else {
            continue;
        };
        let (_, cell) = layout::board_geometry(&rules);
        if seen[..i].contains(&cell) {
            continue;
        }
        seen[i] = cell;
        for mark in Mark::ALL {
            t.mark(cell_at(cell), mark);
        }
        let (area, radius, width) = cursor_frame(cell_at(cell), cell);
        t.rounded_frame(area, radius, width, palette::CURSOR);
        if layout::is_big(&rules) {
            let (area, radius, width) = last_move_frame(cell_at(cell));
            t.rounded_frame(area, radius, width, palette::LAST_EDGE);
        }
    }
}

/// The outline of the last move's cell `r` on a gomoku board: its area,
/// corner radius and width.
pub(crate) fn last_move_frame(r: Rectangle) -> (Rectangle, u32, u32) {
    (r.offset(-1), 2, 1)
}

pub(crate) fn mark_color(mark: Mark) -> Rgb555 {
    match mark {
        Mark::X => palette::X,
        Mark::O => palette::O,
    }
}

/// Triangle wave 0..=amp..0 with the given period.
pub(crate) fn wave(frame: u64, period: u64, amp: i32) -> i32 {
    let period = period.max(2);
    let p = (frame % period) as i32;
    let half = (period / 2) as i32;
    let v = if p < half { p } else { period as i32 - p };
    v * amp / half.max(1)
}
