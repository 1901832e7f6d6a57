//! Where drawing calls put their pixels: the exact rectangle of an
//! axis-parallel thick line, and rectangles that surely hold everything a
//! text, a mark or a slanted line draws. The display lists use these to
//! find what changed between two frames ([`crate::shown`]); the raster uses
//! the line rectangles to fill lines.

use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};

use crate::canvas::Font;

/// The pixels of a horizontal or vertical line `width` thick, as
/// embedded-graphics draws it: a rectangle, the odd extra row (column) on
/// the side its stroke splitting puts it, which depends on the direction
/// (`tests/raster.rs` checks every width to 8 and length to 60 against
/// embedded-graphics). `None` for slanted lines and width 0. (Asking
/// embedded-graphics for the styled bounding box costs ~0.2 ms a line on
/// the console.)
pub fn axis_line_area(from: Point, to: Point, width: u32) -> Option<Rectangle> {
    if width == 0 || width > i32::MAX as u32 {
        return None;
    }
    let w = width as i32;
    let (wide, narrow) = (w / 2, (w - 1) / 2);
    let d = to - from;
    let (top_left, size) = if d.y == 0 && d.x >= 0 {
        // Rightwards (and a single point): the extra row above.
        (
            Point::new(from.x, from.y - wide),
            Size::new(d.x as u32 + 1, width),
        )
    } else if d.y == 0 {
        (
            Point::new(to.x, from.y - narrow),
            Size::new(d.x.unsigned_abs() + 1, width),
        )
    } else if d.x == 0 && d.y > 0 {
        (
            Point::new(from.x - narrow, from.y),
            Size::new(width, d.y as u32 + 1),
        )
    } else if d.x == 0 {
        (
            Point::new(from.x - wide, to.y),
            Size::new(width, d.y.unsigned_abs() + 1),
        )
    } else {
        return None;
    };
    Some(Rectangle::new(top_left, size))
}

/// A rectangle holding every pixel of any line `width` thick from `from`
/// to `to` (the exact one for axis-parallel lines).
pub fn line_bounds(from: Point, to: Point, width: u32) -> Rectangle {
    if let Some(area) = axis_line_area(from, to, width) {
        return area;
    }
    // A slanted stroke reaches at most half its width (rounded up) past
    // its ends' corners in any direction.
    let reach = (width.min(1 << 16) as i32) / 2 + 2;
    Rectangle::with_corners(from, to).offset(reach)
}

/// A rectangle holding every pixel of `text` drawn at `at` (vertically
/// centred, aligned by `align`), one line or several. One line is
/// measured with arithmetic (embedded-graphics' bounding box costs the
/// console far more), a pixel wider on every side than the glyphs' cells.
pub fn text_bounds(text: &str, at: Point, font: Font, align: Alignment) -> Rectangle {
    let mono = font.mono();
    if text.contains(['\n', '\r']) {
        let style = MonoTextStyle::new(mono, Rgb555::new(0, 0, 0));
        let ts = TextStyleBuilder::new()
            .alignment(align)
            .baseline(Baseline::Middle)
            .build();
        return Text::with_text_style(text, at, style, ts)
            .bounding_box()
            .offset(1);
    }
    one_line_text_bounds(text.chars().count(), at, font, align)
}

/// [`text_bounds`] of one line of `chars` characters.
pub(crate) fn one_line_text_bounds(
    chars: usize,
    at: Point,
    font: Font,
    align: Alignment,
) -> Rectangle {
    let mono = font.mono();
    let (cw, ch) = (
        mono.character_size.width as i32,
        mono.character_size.height as i32,
    );
    let advance = cw + mono.character_spacing as i32;
    let width = (chars.min(1 << 16) as i32) * advance;
    let left = match align {
        Alignment::Left => at.x,
        Alignment::Center => at.x - width / 2,
        Alignment::Right => at.x - width,
    };
    Rectangle::new(
        Point::new(left - 1, at.y - ch / 2 - 1),
        Size::new(width as u32 + 2, ch as u32 + 2),
    )
}

/// A rectangle holding every pixel of a mark drawn in `cell` (its strokes
/// may reach a little past the inset square they are drawn on).
pub fn mark_bounds(cell: Rectangle) -> Rectangle {
    let size = cell.size.width.min(cell.size.height).min(1 << 16) as i32;
    let inset = (size / 5).max(1);
    let stroke = (size / 9).max(2);
    let tl = cell.top_left + Point::new(inset, inset);
    let br = cell.top_left + Point::new(size - 1 - inset, size - 1 - inset);
    Rectangle::with_corners(tl, br).offset(stroke + 1)
}

/// Whether two rectangles share a pixel: `!a.intersection(b).is_zero_sized()`
/// in a few comparisons (the display lists ask it of every call of a
/// frame drawn in part, and embedded-graphics' intersection builds the
/// rectangle first).
pub fn overlaps(a: &Rectangle, b: &Rectangle) -> bool {
    // One past the last column or row, in 32 bits (the console's
    // registers; saturating where a size would take it past the range).
    let end = |start: i32, len: u32| start.saturating_add(len.min(i32::MAX as u32) as i32);
    let (a0, b0) = (a.top_left, b.top_left);
    !a.is_zero_sized()
        && !b.is_zero_sized()
        && a0.x < end(b0.x, b.size.width)
        && b0.x < end(a0.x, a.size.width)
        && a0.y < end(b0.y, b.size.height)
        && b0.y < end(a0.y, a.size.height)
}

/// The smallest rectangle holding both (an empty one adds nothing).
pub fn union(a: Rectangle, b: Rectangle) -> Rectangle {
    if a.is_zero_sized() {
        return b;
    }
    if b.is_zero_sized() {
        return a;
    }
    let x0 = a.top_left.x.min(b.top_left.x);
    let y0 = a.top_left.y.min(b.top_left.y);
    let x1 = end(a.top_left.x, a.size.width).max(end(b.top_left.x, b.size.width));
    let y1 = end(a.top_left.y, a.size.height).max(end(b.top_left.y, b.size.height));
    Rectangle::new(
        Point::new(x0, y0),
        Size::new(
            (x1 - i64::from(x0)).min(u32::MAX.into()) as u32,
            (y1 - i64::from(y0)).min(u32::MAX.into()) as u32,
        ),
    )
}

/// One past the last coordinate of a span.
fn end(start: i32, len: u32) -> i64 {
    i64::from(start) + i64::from(len)
}

/// Calls `f` with rectangles that together cover exactly the part of
/// `area` outside every rectangle of `holes` (at most [`MAX_HOLES`] are
/// looked at), band by band from the top.
pub fn for_each_gap(area: Rectangle, holes: &[Rectangle], mut f: impl FnMut(Rectangle)) {
    let holes = &holes[..holes.len().min(MAX_HOLES)];
    let Some(br) = area.bottom_right() else {
        return;
    };
    let (ax0, ay0, ax1, ay1) = (area.top_left.x, area.top_left.y, br.x + 1, br.y + 1);
    // Each hole as (x0, x1, y0, y1), clipped to the area.
    let mut clipped = [(0, 0, 0, 0); MAX_HOLES];
    let mut n = 0;
    for h in holes {
        let Some(hbr) = h.bottom_right() else {
            continue;
        };
        let (x0, x1) = (h.top_left.x.max(ax0), (hbr.x + 1).min(ax1));
        let (y0, y1) = (h.top_left.y.max(ay0), (hbr.y + 1).min(ay1));
        if x0 < x1 && y0 < y1 {
            clipped[n] = (x0, x1, y0, y1);
            n += 1;
        }
    }
    let clipped = &mut clipped[..n];
    clipped.sort_unstable();
    // Band edges: the area's and the holes' top and bottom rows.
    let mut edges = [0i32; 2 * MAX_HOLES + 2];
    edges[0] = ay0;
    edges[1] = ay1;
    for (i, &(_, _, y0, y1)) in clipped.iter().enumerate() {
        edges[2 + 2 * i] = y0;
        edges[3 + 2 * i] = y1;
    }
    let edges = &mut edges[..2 + 2 * n];
    edges.sort_unstable();
    for pair in edges.windows(2) {
        let (ya, yb) = (pair[0], pair[1]);
        if ya >= yb {
            continue;
        }
        // Holes are sorted by x0: sweep the gaps between them.
        let mut x = ax0;
        for &(x0, x1, y0, y1) in clipped.iter() {
            if y0 <= ya && y1 >= yb {
                if x0 > x {
                    f(band(x, x0, ya, yb));
                }
                x = x.max(x1);
            }
        }
        if x < ax1 {
            f(band(x, ax1, ya, yb));
        }
    }
}

/// Holes [`for_each_gap`] looks at, at most.
pub const MAX_HOLES: usize = 8;

fn band(x0: i32, x1: i32, y0: i32, y1: i32) -> Rectangle {
    Rectangle::new(
        Point::new(x0, y0),
        Size::new((x1 - x0) as u32, (y1 - y0) as u32),
    )
}
