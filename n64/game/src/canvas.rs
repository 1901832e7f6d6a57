//! What the screens are drawn with: a [`Canvas`] takes the few kinds of
//! drawing the screens do (fills, text, lines, a rounded frame, marks).
//!
//! * [`Plain`] draws on any embedded-graphics `DrawTarget`, the plain
//!   embedded-graphics way: the reference the other canvases must match
//!   pixel for pixel.
//! * [`Raster`](crate::raster::Raster) draws the same pixels fast (the ROM's
//!   framebuffers).
//! * [`DisplayList`](crate::display_list::DisplayList) records the calls: a frame whose list equals the one a
//!   framebuffer already shows needs no drawing, and two lists tell what changed
//!   ([`ShownFrames`](crate::shown::ShownFrames)).

use embedded_graphics::mono_font::ascii::{FONT_10X20, FONT_6X10, FONT_8X13};
use embedded_graphics::mono_font::{MonoFont, MonoTextStyle};
use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{
    Circle, Line, PrimitiveStyle, PrimitiveStyleBuilder, Rectangle, RoundedRectangle,
};
use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};
use ttt_core::Mark;

use crate::palette;

/// The fonts the game draws with (embedded-graphics' ASCII fonts).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Font {
    /// 6x10 pixels.
    Small,
    /// 8x13 pixels.
    Medium,
    /// 10x20 pixels.
    Large,
}

impl Font {
    /// The embedded-graphics font.
    pub fn mono(self) -> &'static MonoFont<'static> {
        match self {
            Font::Small => &FONT_6X10,
            Font::Medium => &FONT_8X13,
            Font::Large => &FONT_10X20,
        }
    }
}

/// A box with a 2-pixel edge and chamfered corners (the corner pixels are
/// left out), filled, optionally with a rectangle inside filled with
/// another colour (the board in its frame). Boxes narrower or lower than 6
/// pixels are just filled.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Panel {
    /// The whole box.
    pub area: Rectangle,
    /// Inside the edge.
    pub fill: Rgb555,
    /// The edge.
    pub edge: Rgb555,
    /// A rectangle filled last, and its colour.
    pub inner: Option<(Rectangle, Rgb555)>,
}

/// Everything the screens draw. Text is always placed by its vertical
/// middle (`Baseline::Middle`), as all of the game's text is.
pub trait Canvas {
    /// Fills the whole screen.
    fn fill_screen(&mut self, color: Rgb555);
    /// Fills a rectangle.
    fn fill(&mut self, area: Rectangle, color: Rgb555);
    /// A panel: see [`Panel`].
    fn panel(&mut self, panel: Panel);
    /// One line of text, aligned horizontally on `at`, vertically centred on it.
    fn text(&mut self, text: &str, at: Point, font: Font, color: Rgb555, align: Alignment);
    /// A straight line `width` pixels thick.
    fn line(&mut self, from: Point, to: Point, width: u32, color: Rgb555);
    /// The outline of a rectangle with round corners of `radius`, drawn
    /// `width` pixels thick, centred on `area`'s edge.
    fn rounded_frame(&mut self, area: Rectangle, radius: u32, width: u32, color: Rgb555);
    /// A mark in a cell (or an icon): X a cross, O a ring, in its colour.
    fn mark(&mut self, cell: Rectangle, mark: Mark);
    /// From now on, draws only the pixels inside `area` (`None`: the whole
    /// screen). Returns `false` if this canvas cannot clip: it then draws
    /// everything, and a caller wanting a partial redraw must redraw all.
    fn set_clip(&mut self, area: Option<Rectangle>) -> bool {
        let _ = area;
        false
    }
    /// Spare time after a cheap frame: prepares a little of what later
    /// frames may need (a raster renders one sprite it has not cached yet,
    /// see [`every_sprite`](crate::widgets::every_sprite)). Changes no pixel.
    fn warm_up(&mut self) {}
}

/// Draws `mark` in `cell` with embedded-graphics primitives: the reference
/// shape (the raster blits the same pixels from a cache).
pub(crate) fn mark_shape<D: DrawTarget<Color = Rgb555>>(t: &mut D, cell: Rectangle, mark: Mark) {
    let size = cell.size.width.min(cell.size.height) as i32;
    let inset = (size / 5).max(1);
    let stroke = ((size / 9).max(2)) as u32;
    let tl = cell.top_left + Point::new(inset, inset);
    let br = cell.top_left + Point::new(size - 1 - inset, size - 1 - inset);
    match mark {
        Mark::X => {
            let style = PrimitiveStyle::with_stroke(palette::X, stroke);
            let _ = Line::new(tl, br).into_styled(style).draw(t);
            let _ = Line::new(Point::new(br.x, tl.y), Point::new(tl.x, br.y))
                .into_styled(style)
                .draw(t);
        }
        Mark::O => {
            let d = (size - 2 * inset).max(1) as u32;
            let style = PrimitiveStyle::with_stroke(palette::O, stroke);
            let _ = Circle::new(tl, d).into_styled(style).draw(t);
        }
    }
}

/// Any embedded-graphics target, drawn through embedded-graphics alone.
pub struct Plain<'a, D>(pub &'a mut D);

impl<D: DrawTarget<Color = Rgb555>> Canvas for Plain<'_, D> {
    fn fill_screen(&mut self, color: Rgb555) {
        let _ = self.0.clear(color);
    }

    fn fill(&mut self, area: Rectangle, color: Rgb555) {
        let _ = self.0.fill_solid(&area, color);
    }

    /// The edge is two overlapping fills (without the corner pixels'
    /// columns, without their rows), then the inside, then the inner box.
    fn panel(&mut self, panel: Panel) {
        let Panel {
            area,
            fill,
            edge,
            inner,
        } = panel;
        let (w, h) = (area.size.width, area.size.height);
        if w < 6 || h < 6 {
            self.fill(area, fill);
        } else {
            let at = |x, y| area.top_left + Point::new(x, y);
            self.fill(Rectangle::new(at(2, 0), Size::new(w - 4, h)), edge);
            self.fill(Rectangle::new(at(0, 2), Size::new(w, h - 4)), edge);
            self.fill(Rectangle::new(at(2, 2), Size::new(w - 4, h - 4)), fill);
        }
        if let Some((r, c)) = inner {
            self.fill(r, c);
        }
    }

    fn text(&mut self, text: &str, at: Point, font: Font, color: Rgb555, align: Alignment) {
        let style = MonoTextStyle::new(font.mono(), color);
        let ts = TextStyleBuilder::new()
            .alignment(align)
            .baseline(Baseline::Middle)
            .build();
        let _ = Text::with_text_style(text, at, style, ts).draw(self.0);
    }

    fn line(&mut self, from: Point, to: Point, width: u32, color: Rgb555) {
        let _ = Line::new(from, to)
            .into_styled(PrimitiveStyle::with_stroke(color, width))
            .draw(self.0);
    }

    fn rounded_frame(&mut self, area: Rectangle, radius: u32, width: u32, color: Rgb555) {
        let style = PrimitiveStyleBuilder::new()
            .stroke_color(color)
            .stroke_width(width)
            .build();
        let _ = RoundedRectangle::with_equal_corners(area, Size::new(radius, radius))
            .into_styled(style)
            .draw(self.0);
    }

    fn mark(&mut self, cell: Rectangle, mark: Mark) {
        mark_shape(self.0, cell, mark);
    }
}
