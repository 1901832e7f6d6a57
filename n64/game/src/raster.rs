//! A 320x240 RGBA5551 framebuffer that draws the game's screens fast and
//! pixel for pixel like embedded-graphics ([`Plain`](crate::canvas::Plain)):
//!
//! * fills are row fills, two pixels per 32-bit store;
//! * text is blitted from the fonts' glyph rows (generated from the fonts by
//!   `build.rs`), placed where embedded-graphics places it;
//! * horizontal and vertical lines are the filled rectangle
//!   embedded-graphics' thick line covers (its styled bounding box);
//! * marks and the cursor's rounded frame are drawn once per size with
//!   embedded-graphics into a [`Sprites`] cache of horizontal spans, then
//!   copied span by span.
//!
//! Anything else (slanted lines, text or sprites that do not fit on the
//! screen) goes through embedded-graphics on the raster's own `DrawTarget`.

use core::convert::Infallible;

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use ttt_core::Mark;

use crate::canvas::{Canvas, Font, Panel, Plain};
pub use crate::geometry::axis_line_area;
use crate::palette;
use crate::pixels::{fill_run, NARROW};
pub use crate::pixels::{rgba5551, HEIGHT, PIXELS, WIDTH};
use crate::sprites::{Shape, Sprites, SPRITE_PAD};

mod glyphs {
    include!(concat!(env!("OUT_DIR"), "/glyphs.rs"));
}

impl Font {
    /// The font's glyph rows and the glyph index of chars 0..256 (see
    /// `build.rs`).
    fn glyphs(self) -> (&'static [u16], &'static [u16; 256]) {
        match self {
            Font::Small => (&glyphs::GLYPHS_6X10, &glyphs::GLYPHS_6X10_INDEX),
            Font::Medium => (&glyphs::GLYPHS_8X13, &glyphs::GLYPHS_8X13_INDEX),
            Font::Large => (&glyphs::GLYPHS_10X20, &glyphs::GLYPHS_10X20_INDEX),
        }
    }
}

/// A 320x240 view of RGBA5551 pixels (row by row) with fast drawing. Keeps
/// the range of rows drawn since [`take_dirty_rows`](Self::take_dirty_rows)
/// (the ROM writes those back from the data cache).
pub struct Raster<'a> {
    pixels: &'a mut [u16],
    sprites: &'a mut Sprites,
    /// Rows touched: first, last + 1.
    dirty: Option<(usize, usize)>,
    /// Only these pixels are drawn: columns x0..x1, rows y0..y1.
    clip: Clip,
    /// Called on a run of pixels just before all of it is overwritten.
    prepare: Option<PrepareRun>,
}

/// A hook [`Raster`] calls with a run of pixels it is about to overwrite
/// entirely (every pixel), before writing it. The run's contents are
/// unspecified afterwards. The ROM allocates the data-cache lines lying
/// fully inside the run without first reading them from RDRAM (a store
/// miss would read each line only to overwrite it).
///
/// Only panels' rows are prepared (most of a game screen): on the console
/// (ares' timing) that saves about a third of their cost, but in
/// mupen64plus's dynarec the cache operation costs about ten instructions,
/// so preparing the screen clear too would push the menu's full redraw
/// there over its 12 ms budget for a gain only the title and the menu
/// (already within 16 ms) would see.
pub type PrepareRun = fn(&mut [u16]);

/// Runs shorter than this are not prepared (they hold at most one whole
/// 16-byte cache line: the call costs more than it saves).
const PREPARE_MIN: usize = 16;

/// Sets every [`WIDTH`]th pixel of `column`, from its first: a vertical
/// line one pixel wide, one store a row.
///
/// Kept out of line: inlined into `Raster::fill_rows`, this loop gave a
/// ROM that mupen64plus 2.5.9's cached interpreter and dynamic recompiler
/// crashed on (a CPU exception at a 9x9 search's first frame in
/// `perf.script`) while its pure interpreter ran the same ROM through:
/// a code-layout effect in the emulator.
#[inline(never)]
fn vline(column: &mut [u16], value: u16) {
    for px in column.iter_mut().step_by(WIDTH) {
        *px = value;
    }
}

/// The part of the screen a [`Raster`] draws on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Clip {
    x0: usize,
    x1: usize,
    y0: usize,
    y1: usize,
}

impl Clip {
    const SCREEN: Clip = Clip {
        x0: 0,
        x1: WIDTH,
        y0: 0,
        y1: HEIGHT,
    };

    /// Whether the rectangle `x0..x1` x `y0..y1` lies inside.
    fn holds(&self, x0: usize, x1: usize, y0: usize, y1: usize) -> bool {
        x0 >= self.x0 && x1 <= self.x1 && y0 >= self.y0 && y1 <= self.y1
    }
}

impl<'a> Raster<'a> {
    /// A raster on a frame's pixels.
    pub fn new(pixels: &'a mut [u16; PIXELS], sprites: &'a mut Sprites) -> Raster<'a> {
        Raster {
            pixels,
            sprites,
            dirty: None,
            clip: Clip::SCREEN,
            prepare: None,
        }
    }

    /// Calls `prepare` on each run of pixels about to be overwritten whole
    /// (see [`PrepareRun`]; `None`: nothing is called).
    pub fn set_prepare(&mut self, prepare: Option<PrepareRun>) {
        self.prepare = prepare;
    }

    /// Fills `pixels[start..end]` with `value`, preparing it first.
    fn fill_span(&mut self, start: usize, end: usize, value: u16) {
        let run = &mut self.pixels[start..end];
        if let Some(prepare) = self.prepare.filter(|_| run.len() >= PREPARE_MIN) {
            prepare(run);
        }
        fill_run(run, value);
    }

    /// Draws only inside `area` from now on (`None`: the whole screen; an
    /// area off the screen: nothing).
    pub fn set_clip(&mut self, area: Option<Rectangle>) {
        self.clip = match area {
            None => Clip::SCREEN,
            Some(area) => match Self::clip(&area) {
                Some((x0, x1, y0, y1)) => Clip { x0, x1, y0, y1 },
                None => Clip {
                    x0: 0,
                    x1: 0,
                    y0: 0,
                    y1: 0,
                },
            },
        };
    }

    /// A raster on the first [`PIXELS`] values of `pixels`; `None` if there
    /// are fewer.
    pub fn from_slice(pixels: &'a mut [u16], sprites: &'a mut Sprites) -> Option<Raster<'a>> {
        let pixels = pixels.get_mut(..PIXELS)?.try_into().ok()?;
        Some(Raster::new(pixels, sprites))
    }

    /// The pixels, row by row.
    pub fn pixels(&self) -> &[u16] {
        self.pixels
    }

    /// The rows drawn since the last call (`start..end`), if any.
    pub fn take_dirty_rows(&mut self) -> Option<core::ops::Range<usize>> {
        self.dirty.take().map(|(a, b)| a..b)
    }

    fn touch(&mut self, y0: usize, y1: usize) {
        self.dirty = Some(match self.dirty {
            Some((a, b)) => (a.min(y0), b.max(y1)),
            None => (y0, y1),
        });
    }

    /// Fills columns `x0..x1` of rows `y0..y1` (already clipped).
    fn fill_rows(&mut self, x0: usize, x1: usize, y0: usize, y1: usize, value: u16) {
        let c = self.clip;
        let (x0, x1, y0, y1) = (x0.max(c.x0), x1.min(c.x1), y0.max(c.y0), y1.min(c.y1));
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        if x0 == 0 && x1 == WIDTH {
            // Whole rows are one run.
            fill_run(&mut self.pixels[y0 * WIDTH..y1 * WIDTH], value);
        } else if x1 - x0 == 1 {
            vline(
                &mut self.pixels[y0 * WIDTH + x0..(y1 - 1) * WIDTH + x1],
                value,
            );
        } else if x1 - x0 <= NARROW {
            // A thick line or a panel's side: a few stores a row.
            let w = x1 - x0;
            let rows = &mut self.pixels[y0 * WIDTH + x0..(y1 - 1) * WIDTH + x1];
            for row in rows.chunks_mut(WIDTH) {
                for px in row.iter_mut().take(w) {
                    *px = value;
                }
            }
        } else {
            for y in y0..y1 {
                fill_run(&mut self.pixels[y * WIDTH + x0..y * WIDTH + x1], value);
            }
        }
        self.touch(y0, y1);
    }

    /// The rectangle's pixels on screen: (x0, x1, y0, y1), clipped.
    fn clip(area: &Rectangle) -> Option<(usize, usize, usize, usize)> {
        let x0 = area.top_left.x.max(0);
        let y0 = area.top_left.y.max(0);
        let x1 = (i64::from(area.top_left.x) + i64::from(area.size.width)).min(WIDTH as i64);
        let y1 = (i64::from(area.top_left.y) + i64::from(area.size.height)).min(HEIGHT as i64);
        if i64::from(x0) >= x1 || i64::from(y0) >= y1 {
            return None;
        }
        Some((x0 as usize, x1 as usize, y0 as usize, y1 as usize))
    }

    /// Whether `area` lies entirely on the screen.
    fn inside(area: &Rectangle) -> bool {
        area.top_left.x >= 0
            && area.top_left.y >= 0
            && i64::from(area.top_left.x) + i64::from(area.size.width) <= WIDTH as i64
            && i64::from(area.top_left.y) + i64::from(area.size.height) <= HEIGHT as i64
    }

    /// Copies the sprite of `shape` drawn in `area`, in `value`; `false` if
    /// it has none or it would not lie entirely on the screen.
    fn blit(&mut self, shape: Shape, area: Rectangle, value: u16) -> bool {
        let sprite = self.sprites.get(shape, area.size);
        let corner = area.top_left - Point::new(SPRITE_PAD, SPRITE_PAD);
        let extent = Rectangle::new(corner, Size::new(sprite.columns as u32, sprite.rows as u32));
        if !sprite.usable || !Self::inside(&extent) {
            return false;
        }
        let (x, y) = (corner.x as usize, corner.y as usize);
        let c = self.clip;
        // Columns of the sprite inside the clip.
        let (lo, hi) = (c.x0.saturating_sub(x), c.x1.saturating_sub(x));
        let (mut y0, mut y1) = (HEIGHT, 0);
        for (dy, (spans, &count)) in sprite.spans[..sprite.rows]
            .iter()
            .zip(&sprite.counts)
            .enumerate()
        {
            if !(c.y0..c.y1).contains(&(y + dy)) {
                continue;
            }
            let row = (y + dy) * WIDTH + x;
            for &(a, b) in &spans[..usize::from(count)] {
                let (a, b) = (usize::from(a).max(lo), usize::from(b).min(hi));
                if a < b {
                    fill_run(&mut self.pixels[row + a..row + b], value);
                    (y0, y1) = (y0.min(y + dy), y1.max(y + dy + 1));
                }
            }
        }
        if y0 < y1 {
            self.touch(y0, y1);
        }
        true
    }

    /// Blits `text` from the glyph tables; `false` if it must go through
    /// embedded-graphics (several lines, or not entirely on the screen).
    fn blit_text(
        &mut self,
        text: &str,
        at: Point,
        font: Font,
        color: Rgb555,
        align: Alignment,
    ) -> bool {
        if text.contains(['\n', '\r']) {
            return false;
        }
        let mono = font.mono();
        let (cw, ch) = (
            mono.character_size.width as usize,
            mono.character_size.height as usize,
        );
        let advance = cw + mono.character_spacing as usize;
        let chars = text.chars().count();
        if chars == 0 {
            return true;
        }
        // Where embedded-graphics puts the first glyph's corner (the top
        // left of its `Text::bounding_box`, by arithmetic): aligned on the
        // text's width less one, the middle row (the upper of two) on `at`.
        let width = (chars * advance - mono.character_spacing as usize).min(1 << 16) as i32;
        let left = match align {
            Alignment::Left => at.x,
            Alignment::Center => at.x - (width - 1) / 2,
            Alignment::Right => at.x - (width - 1),
        };
        let corner = Point::new(left, at.y - (ch as i32 - 1) / 2);
        let span = Rectangle::new(corner, Size::new((chars * advance) as u32, ch as u32));
        if !Self::inside(&span) {
            return false;
        }
        let (x0, y0) = (corner.x as usize, corner.y as usize);
        let value = rgba5551(color);
        let (table, index) = font.glyphs();
        let clip = self.clip;
        if !clip.holds(x0, x0 + chars * advance, y0, y0 + ch) {
            self.blit_text_clipped(text, (x0, y0), font, value);
            return true;
        }
        for (i, c) in text.chars().enumerate() {
            let glyph = match index.get(c as usize) {
                Some(&g) => usize::from(g),
                None => mono.glyph_mapping.index(c),
            };
            let first = glyph * ch;
            // A glyph outside the font's image draws nothing there either.
            let Some(rows) = table.get(first..first + ch) else {
                continue;
            };
            let x = x0 + i * advance;
            for (dy, &bits) in rows.iter().enumerate() {
                let mut bits = bits;
                if bits == 0 {
                    continue;
                }
                let start = (y0 + dy) * WIDTH + x;
                for px in &mut self.pixels[start..start + cw] {
                    if bits & 1 != 0 {
                        *px = value;
                    }
                    bits >>= 1;
                    if bits == 0 {
                        break;
                    }
                }
            }
        }
        self.touch(y0, y0 + ch);
        true
    }

    /// A panel (on the screen, at least 6x6, its inner box inside its
    /// edge) that crosses the clip's edge: its parts as clipped fills, each
    /// pixel once, the same pixels as the plain way's overlapping fills.
    fn panel_clipped(&mut self, panel: Panel) {
        let Panel {
            area,
            fill,
            edge,
            inner,
        } = panel;
        let (x, y) = (area.top_left.x as usize, area.top_left.y as usize);
        let (x1, y1) = (x + area.size.width as usize, y + area.size.height as usize);
        let (e, f) = (rgba5551(edge), rgba5551(fill));
        // The edge: top and bottom rows (without the corners), the sides.
        self.fill_rows(x + 2, x1 - 2, y, y + 2, e);
        self.fill_rows(x + 2, x1 - 2, y1 - 2, y1, e);
        self.fill_rows(x, x + 2, y + 2, y1 - 2, e);
        self.fill_rows(x1 - 2, x1, y + 2, y1 - 2, e);
        // The inside, around the inner box.
        let (ix0, ix1, iy0, iy1) = (x + 2, x1 - 2, y + 2, y1 - 2);
        match inner.filter(|(r, _)| !r.is_zero_sized()) {
            Some((r, c)) => {
                let (bx0, by0) = (r.top_left.x as usize, r.top_left.y as usize);
                let (bx1, by1) = (bx0 + r.size.width as usize, by0 + r.size.height as usize);
                self.fill_rows(ix0, ix1, iy0, by0, f);
                self.fill_rows(ix0, ix1, by1, iy1, f);
                self.fill_rows(ix0, bx0, by0, by1, f);
                self.fill_rows(bx1, ix1, by0, by1, f);
                self.fill_rows(bx0, bx1, by0, by1, rgba5551(c));
            }
            None => self.fill_rows(ix0, ix1, iy0, iy1, f),
        }
    }

    /// [`blit_text`](Self::blit_text) for text that crosses the clip's
    /// edge: only the glyphs' pixels inside it (`corner` is the first
    /// glyph's top-left, on the screen).
    fn blit_text_clipped(&mut self, text: &str, corner: (usize, usize), font: Font, value: u16) {
        let mono = font.mono();
        let (cw, ch) = (
            mono.character_size.width as usize,
            mono.character_size.height as usize,
        );
        let advance = cw + mono.character_spacing as usize;
        let (table, index) = font.glyphs();
        let clip = self.clip;
        let (x0, y0) = corner;
        // Glyph rows inside the clip.
        let (r0, r1) = (
            clip.y0.saturating_sub(y0),
            clip.y1.saturating_sub(y0).min(ch),
        );
        if r0 >= r1 {
            return;
        }
        for (i, c) in text.chars().enumerate() {
            let x = x0 + i * advance;
            let (lo, hi) = (clip.x0.saturating_sub(x), clip.x1.saturating_sub(x).min(cw));
            if lo >= hi {
                continue;
            }
            let glyph = match index.get(c as usize) {
                Some(&g) => usize::from(g),
                None => mono.glyph_mapping.index(c),
            };
            let first = glyph * ch;
            let Some(rows) = table.get(first + r0..first + r1) else {
                continue;
            };
            for (dy, &bits) in rows.iter().enumerate() {
                let start = (y0 + r0 + dy) * WIDTH + x;
                for (dx, px) in self.pixels[start + lo..start + hi].iter_mut().enumerate() {
                    if (bits >> (lo + dx)) & 1 != 0 {
                        *px = value;
                    }
                }
            }
        }
        self.touch(y0 + r0, y0 + r1);
    }
}

impl OriginDimensions for Raster<'_> {
    fn size(&self) -> Size {
        Size::new(WIDTH as u32, HEIGHT as u32)
    }
}

impl DrawTarget for Raster<'_> {
    type Color = Rgb555;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Infallible>
    where
        I: IntoIterator<Item = Pixel<Rgb555>>,
    {
        let (mut y0, mut y1) = (HEIGHT, 0);
        let c = self.clip;
        for Pixel(p, color) in pixels {
            if let (Ok(x), Ok(y)) = (usize::try_from(p.x), usize::try_from(p.y)) {
                if !(c.x0..c.x1).contains(&x) || !(c.y0..c.y1).contains(&y) {
                    continue;
                }
                self.pixels[y * WIDTH + x] = rgba5551(color);
                y0 = y0.min(y);
                y1 = y1.max(y + 1);
            }
        }
        if y0 < y1 {
            self.touch(y0, y1);
        }
        Ok(())
    }

    fn fill_contiguous<I>(&mut self, area: &Rectangle, colors: I) -> Result<(), Infallible>
    where
        I: IntoIterator<Item = Rgb555>,
    {
        let Some((x0, x1, y0, y1)) = Self::clip(area) else {
            return Ok(());
        };
        let c = self.clip;
        let (x0, x1, y0, y1) = (x0.max(c.x0), x1.min(c.x1), y0.max(c.y0), y1.min(c.y1));
        if x0 >= x1 || y0 >= y1 {
            return Ok(());
        }
        // The colours run over the whole (unclipped) area, row by row.
        let (ax, ay) = (area.top_left.x, area.top_left.y);
        let width = area.size.width as usize;
        for (i, color) in colors
            .into_iter()
            .enumerate()
            .take(width * area.size.height as usize)
        {
            let x = ax as i64 + (i % width.max(1)) as i64;
            let y = ay as i64 + (i / width.max(1)) as i64;
            if (x0 as i64..x1 as i64).contains(&x) && (y0 as i64..y1 as i64).contains(&y) {
                self.pixels[y as usize * WIDTH + x as usize] = rgba5551(color);
            }
        }
        self.touch(y0, y1);
        Ok(())
    }

    fn fill_solid(&mut self, area: &Rectangle, color: Rgb555) -> Result<(), Infallible> {
        if let Some((x0, x1, y0, y1)) = Self::clip(area) {
            self.fill_rows(x0, x1, y0, y1, rgba5551(color));
        }
        Ok(())
    }

    fn clear(&mut self, color: Rgb555) -> Result<(), Infallible> {
        self.fill_rows(0, WIDTH, 0, HEIGHT, rgba5551(color));
        Ok(())
    }
}

impl Canvas for Raster<'_> {
    fn fill_screen(&mut self, color: Rgb555) {
        let _ = DrawTarget::clear(self, color);
    }

    fn fill(&mut self, area: Rectangle, color: Rgb555) {
        let _ = self.fill_solid(&area, color);
    }

    /// One pass over the rows, each pixel written once (the plain way
    /// fills the inside three times over).
    fn panel(&mut self, panel: Panel) {
        let Panel {
            area,
            fill,
            edge,
            inner,
        } = panel;
        let (w, h) = (area.size.width as usize, area.size.height as usize);
        let interior = area.offset(-2);
        let inner_fits = inner.is_none_or(|(r, _)| {
            r.is_zero_sized()
                || (interior.contains(r.top_left)
                    && r.bottom_right().is_some_and(|br| interior.contains(br)))
        });
        if w < 6 || h < 6 || !Self::inside(&area) || !inner_fits {
            Plain(self).panel(panel);
            return;
        }
        let (x, y) = (area.top_left.x as usize, area.top_left.y as usize);
        if !self.clip.holds(x, x + w, y, y + h) {
            self.panel_clipped(panel);
            return;
        }
        let (e, f) = (rgba5551(edge), rgba5551(fill));
        // The inner box in row-relative columns and absolute rows.
        let inner = inner.filter(|(r, _)| !r.is_zero_sized()).map(|(r, c)| {
            let x0 = r.top_left.x as usize - x - 2;
            let y0 = r.top_left.y as usize;
            (
                x0,
                x0 + r.size.width as usize,
                y0..y0 + r.size.height as usize,
                rgba5551(c),
            )
        });
        for dy in 0..h {
            let start = (y + dy) * WIDTH + x;
            if dy < 2 || dy >= h - 2 {
                self.fill_span(start + 2, start + w - 2, e);
                continue;
            }
            let prepare = self.prepare;
            let row = &mut self.pixels[start..start + w];
            // Every pixel of the row is written below.
            if let Some(prepare) = prepare.filter(|_| w >= PREPARE_MIN) {
                prepare(row);
            }
            let inside = match row {
                [a, b, inside @ .., c, d] => {
                    (*a, *b, *c, *d) = (e, e, e, e);
                    inside
                }
                _ => continue,
            };
            match &inner {
                Some((a, b, rows, c)) if rows.contains(&(y + dy)) => {
                    fill_run(&mut inside[..*a], f);
                    fill_run(&mut inside[*a..*b], *c);
                    fill_run(&mut inside[*b..], f);
                }
                _ => fill_run(inside, f),
            }
        }
        self.touch(y, y + h);
    }

    fn text(&mut self, text: &str, at: Point, font: Font, color: Rgb555, align: Alignment) {
        if !self.blit_text(text, at, font, color, align) {
            Plain(self).text(text, at, font, color, align);
        }
    }

    fn line(&mut self, from: Point, to: Point, width: u32, color: Rgb555) {
        match axis_line_area(from, to, width) {
            Some(area) => {
                let _ = self.fill_solid(&area, color);
            }
            None => Plain(self).line(from, to, width, color),
        }
    }

    fn rounded_frame(&mut self, area: Rectangle, radius: u32, width: u32, color: Rgb555) {
        if !self.blit(Shape::Frame { radius, width }, area, rgba5551(color)) {
            Plain(self).rounded_frame(area, radius, width, color);
        }
    }

    fn set_clip(&mut self, area: Option<Rectangle>) -> bool {
        Raster::set_clip(self, area);
        true
    }

    fn warm_up(&mut self) {
        self.sprites.warm_up();
    }

    fn mark(&mut self, cell: Rectangle, mark: Mark) {
        let color = match mark {
            Mark::X => palette::X,
            Mark::O => palette::O,
        };
        if !self.blit(Shape::Mark(mark), cell, rgba5551(color)) {
            Plain(self).mark(cell, mark);
        }
    }
}
