//! The raster's sprite cache: marks and the cursor's rounded frame drawn
//! once per size with embedded-graphics, kept as horizontal spans, and
//! rendered ahead of need in spare frames ([`Sprites::warm_up`]).

use core::convert::Infallible;

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use ttt_core::Mark;

use crate::canvas::{mark_shape, Canvas, Font, Panel, Plain};
use crate::palette;
use crate::widgets::every_sprite;

/// A sprite's bitmap is this many pixels square while it is drawn.
pub(crate) const SPRITE_MAX: usize = 80;
/// Shapes are drawn this far from the bitmap's corner: strokes may reach
/// outside their area.
pub(crate) const SPRITE_PAD: i32 = 8;
/// Spans per sprite row (an X has two where its lines are apart, an O and
/// the cursor's frame two on their sides).
pub(crate) const SPRITE_SPANS: usize = 4;
/// Sprites kept: every sprite the screens draw ([`every_sprite`]:
/// X, O and the cursor's frame at 13 cell sizes, the last move's outline
/// at the gomoku boards' 6, the side panel's icons, the title's marks:
/// 49), with room to spare.
const SPRITE_SLOTS: usize = 56;

/// What a sprite is of: a shape that looks the same wherever it is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A mark filling a cell of the sprite's size.
    Mark(Mark),
    /// `Canvas::rounded_frame` of the sprite's size.
    Frame { radius: u32, width: u32 },
}

/// A shape as horizontal spans per row, relative to its area's corner
/// minus [`SPRITE_PAD`].
#[derive(Clone, Copy)]
pub(crate) struct Sprite {
    /// Whether the spans describe the mark (false: it does not fit the
    /// cache; draw it with embedded-graphics).
    pub(crate) usable: bool,
    pub(crate) rows: usize,
    /// One past the rightmost column drawn.
    pub(crate) columns: usize,
    pub(crate) counts: [u8; SPRITE_MAX],
    /// `[start, end)` columns.
    pub(crate) spans: [[(u8, u8); SPRITE_SPANS]; SPRITE_MAX],
}

impl Sprite {
    /// Draws the shape with embedded-graphics at (PAD, PAD) and records its
    /// spans.
    fn render(shape: Shape, size: Size) -> Sprite {
        let mut sprite = Sprite {
            usable: false,
            rows: 0,
            columns: 0,
            counts: [0; SPRITE_MAX],
            spans: [[(0, 0); SPRITE_SPANS]; SPRITE_MAX],
        };
        if size.width as usize > SPRITE_MAX || size.height as usize > SPRITE_MAX {
            return sprite;
        }
        let mut bits = Bits {
            rows: [[false; SPRITE_MAX]; SPRITE_MAX],
            outside: false,
            end: (0, 0),
            pixels: false,
            runs: [[(0, 0); SPRITE_SPANS]; SPRITE_MAX],
            run_counts: [0; SPRITE_MAX],
            runs_overflow: false,
        };
        let area = Rectangle::new(Point::new(SPRITE_PAD, SPRITE_PAD), size);
        match shape {
            Shape::Mark(mark) => mark_shape(&mut bits, area, mark),
            Shape::Frame { radius, width } => {
                Plain(&mut bits).rounded_frame(area, radius, width, palette::CURSOR)
            }
        }
        if bits.outside {
            return sprite;
        }
        // A shape may reach past its area: scan what was drawn.
        let (w, h) = bits.end;
        sprite.columns = w;
        if !bits.pixels && !bits.runs_overflow {
            // Drawn as runs only (rings, frames): no need to scan the bitmap.
            for (y, (runs, &n)) in bits
                .runs
                .iter_mut()
                .zip(&bits.run_counts)
                .enumerate()
                .take(h)
            {
                let runs = &mut runs[..usize::from(n)];
                runs.sort_unstable();
                let mut count: usize = 0;
                for &(a, b) in runs.iter() {
                    match count.checked_sub(1).map(|i| &mut sprite.spans[y][i]) {
                        Some(last) if a <= last.1 => last.1 = last.1.max(b),
                        _ => {
                            sprite.spans[y][count] = (a, b);
                            count += 1;
                        }
                    }
                }
                sprite.counts[y] = count as u8;
                if count > 0 {
                    sprite.rows = y + 1;
                }
            }
            sprite.usable = true;
            return sprite;
        }
        for (y, row) in bits.rows.iter().enumerate().take(h) {
            let row = &row[..w];
            let mut n = 0;
            let mut x = 0;
            while x < w {
                if !row[x] {
                    x += 1;
                    continue;
                }
                let start = x;
                while x < w && row[x] {
                    x += 1;
                }
                let Some(slot) = sprite.spans[y].get_mut(n) else {
                    return sprite;
                };
                *slot = (start as u8, x as u8);
                n += 1;
            }
            sprite.counts[y] = n as u8;
            if n > 0 {
                sprite.rows = y + 1;
            }
        }
        sprite.usable = true;
        sprite
    }
}

/// A 64x64 one-bit canvas the sprites are drawn on (bytes, not bits: the
/// console has no fast 64-bit shifts).
struct Bits {
    rows: [[bool; SPRITE_MAX]; SPRITE_MAX],
    /// Something fell outside it.
    outside: bool,
    /// One past the largest column and row drawn.
    end: (usize, usize),
    /// Something was drawn pixel by pixel (else `runs` has it all).
    pixels: bool,
    /// The runs `fill_solid` drew, per row.
    runs: [[(u8, u8); SPRITE_SPANS]; SPRITE_MAX],
    run_counts: [u8; SPRITE_MAX],
    /// A row got more runs than `runs` holds.
    runs_overflow: bool,
}

impl OriginDimensions for Bits {
    fn size(&self) -> Size {
        Size::new(SPRITE_MAX as u32, SPRITE_MAX as u32)
    }
}

impl DrawTarget for Bits {
    type Color = Rgb555;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Infallible>
    where
        I: IntoIterator<Item = Pixel<Rgb555>>,
    {
        self.pixels = true;
        for Pixel(p, _) in pixels {
            match (usize::try_from(p.x), usize::try_from(p.y)) {
                (Ok(x @ 0..SPRITE_MAX), Ok(y @ 0..SPRITE_MAX)) => {
                    self.rows[y][x] = true;
                    self.end = (self.end.0.max(x + 1), self.end.1.max(y + 1));
                }
                _ => self.outside = true,
            }
        }
        Ok(())
    }

    /// The ring's runs (the default goes pixel by pixel through iterators).
    fn fill_solid(&mut self, area: &Rectangle, color: Rgb555) -> Result<(), Infallible> {
        let inside = Rectangle::new(Point::zero(), self.size());
        let clipped = area.intersection(&inside);
        if clipped != *area && !area.is_zero_sized() {
            // Partly outside: let draw_iter note it.
            return self.draw_iter(area.points().map(|p| Pixel(p, color)));
        }
        if let Some(br) = clipped.bottom_right() {
            let (x0, y0) = (clipped.top_left.x as usize, clipped.top_left.y as usize);
            let (x1, y1) = (br.x as usize + 1, br.y as usize + 1);
            for y in y0..y1 {
                self.rows[y][x0..x1].fill(true);
                let n = usize::from(self.run_counts[y]);
                match self.runs[y].get_mut(n) {
                    Some(run) => {
                        *run = (x0 as u8, x1 as u8);
                        self.run_counts[y] += 1;
                    }
                    None => self.runs_overflow = true,
                }
            }
            self.end = (self.end.0.max(x1), self.end.1.max(y1));
        }
        Ok(())
    }
}

/// The marks' sprites, drawn once per mark and size (keep one across
/// frames: drawing a big X costs about a millisecond on the console).
pub struct Sprites {
    slots: [Option<Sprite>; SPRITE_SLOTS],
    /// What each slot holds, side by side: a lookup reads these few bytes
    /// rather than one cache line of each ~750-byte sprite.
    keys: [Option<(Shape, Size)>; SPRITE_SLOTS],
    /// The slot the next new sprite replaces.
    next: usize,
    /// Sprites rendered so far.
    rendered: u32,
    /// Every sprite of [`every_sprite`] is cached (since the last
    /// render, which may have replaced one).
    warm: bool,
}

impl Sprites {
    /// An empty cache.
    pub const fn new() -> Self {
        Self {
            slots: [None; SPRITE_SLOTS],
            keys: [None; SPRITE_SLOTS],
            next: 0,
            rendered: 0,
            warm: false,
        }
    }

    /// How many sprites were rendered (drawn with embedded-graphics) so far.
    pub fn rendered(&self) -> u32 {
        self.rendered
    }

    /// Whether every sprite the screens draw is cached.
    pub fn is_warm(&self) -> bool {
        self.warm
    }

    /// Renders at most one sprite of [`every_sprite`] that is not
    /// cached yet (about a millisecond on the console), so that a new
    /// screen's first frame finds it ready.
    pub fn warm_up(&mut self) {
        if self.warm {
            return;
        }
        let mut warmer = Warmer {
            sprites: self,
            budget: 1,
            missing: false,
        };
        every_sprite(&mut warmer);
        if !warmer.missing {
            self.warm = true;
        }
    }

    /// The slot holding the sprite of `shape` at `size`.
    fn find(&self, shape: Shape, size: Size) -> Option<usize> {
        self.keys.iter().position(|k| *k == Some((shape, size)))
    }

    fn cached(&self, shape: Shape, size: Size) -> bool {
        self.find(shape, size).is_some()
    }

    pub(crate) fn get(&mut self, shape: Shape, size: Size) -> &Sprite {
        let index = match self.find(shape, size) {
            Some(i) => i,
            None => {
                let i = self.next;
                self.slots[i] = Some(Sprite::render(shape, size));
                self.keys[i] = Some((shape, size));
                self.next = (i + 1) % SPRITE_SLOTS;
                self.rendered = self.rendered.wrapping_add(1);
                self.warm = false;
                i
            }
        };
        // The slot was just found or filled.
        match &self.slots[index] {
            Some(sprite) => sprite,
            None => &UNUSABLE,
        }
    }
}

impl Default for Sprites {
    fn default() -> Self {
        Self::new()
    }
}

/// A canvas that draws nothing: it renders the sprites of the marks and
/// frames drawn on it that are not cached, `budget` of them at most, and
/// notes whether any is still missing.
struct Warmer<'a> {
    sprites: &'a mut Sprites,
    budget: u32,
    missing: bool,
}

impl Warmer<'_> {
    fn want(&mut self, shape: Shape, size: Size) {
        if self.sprites.cached(shape, size) {
            return;
        }
        if self.budget == 0 {
            self.missing = true;
            return;
        }
        self.budget -= 1;
        self.sprites.get(shape, size);
    }
}

impl Canvas for Warmer<'_> {
    fn fill_screen(&mut self, _: Rgb555) {}
    fn fill(&mut self, _: Rectangle, _: Rgb555) {}
    fn panel(&mut self, _: Panel) {}
    fn text(&mut self, _: &str, _: Point, _: Font, _: Rgb555, _: Alignment) {}
    fn line(&mut self, _: Point, _: Point, _: u32, _: Rgb555) {}
    fn rounded_frame(&mut self, area: Rectangle, radius: u32, width: u32, _: Rgb555) {
        self.want(Shape::Frame { radius, width }, area.size);
    }
    fn mark(&mut self, cell: Rectangle, mark: Mark) {
        self.want(Shape::Mark(mark), cell.size);
    }
}

static UNUSABLE: Sprite = Sprite {
    usable: false,
    rows: 0,
    columns: 0,
    counts: [0; SPRITE_MAX],
    spans: [[(0, 0); SPRITE_SPANS]; SPRITE_MAX],
};
