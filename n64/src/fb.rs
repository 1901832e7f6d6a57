//! 320x240 RGBA5551 framebuffers and the double-buffered display.
//!
//! Drawing goes through the data cache (fast) with the game's
//! [`Raster`] (fast fills, glyph blits, mark sprites); [`Display::present`]
//! writes the touched rows back to RDRAM before the VI is pointed at the
//! buffer.
//!
//! What the console requires, and how this module meets it: the VI fetches
//! pixels from RDRAM by DMA and never sees the CPU's data cache, so a pixel
//! still in a dirty cache line is shown stale. Every drawing call records
//! the rows it touched; [`Display::present`] writes exactly those rows back
//! (Hit_Write_Back, the lines stay valid) before [`crate::vi::set_origin`].
//! The buffers are 64-byte aligned and a whole number of cache lines, so a
//! write-back never reaches other data, and nothing invalidates them (the
//! VI only reads). The start-up clear goes through the same path.

use core::convert::Infallible;

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use ttt64_game::canvas::Panel;
use ttt64_game::{Canvas, Font, Raster, Sprites};
use ttt_core::Mark;

use crate::bootinfo::TvType;
use crate::cache;
use crate::global::Global;
use crate::regs::physical;
use crate::vi::{self, HEIGHT, WIDTH};

const PIXELS: usize = WIDTH * HEIGHT;

#[repr(C, align(64))]
struct Buffers([[u16; PIXELS]; 2]);

static BUFFERS: Global<Buffers> = Global::new(Buffers([[0; PIXELS]; 2]));
static TAKEN: Global<bool> = Global::new(false);

/// One framebuffer in RDRAM, drawn through the cache.
pub struct Framebuffer {
    pixels: *mut u16,
    /// The marks' sprites, kept from frame to frame.
    sprites: Sprites,
    /// Rows touched since the last flush (first, last+1).
    dirty: Option<(usize, usize)>,
    /// Drawing is limited to this (`Canvas::set_clip`; `None`: everywhere).
    clip: Option<Rectangle>,
}

impl Framebuffer {
    /// # Safety
    /// `pixels` must point to `WIDTH * HEIGHT` u16s (64-byte aligned) that
    /// nothing else writes while this value exists.
    unsafe fn new(pixels: *mut u16) -> Self {
        Self {
            pixels,
            sprites: Sprites::new(),
            dirty: None,
            clip: None,
        }
    }

    /// Physical address (for VI_ORIGIN).
    pub fn physical(&self) -> u32 {
        physical(self.pixels)
    }

    /// Writes the touched rows from the data cache back to RDRAM.
    pub fn flush(&mut self) {
        if let Some((y0, y1)) = self.dirty.take() {
            let start = self.pixels as usize + y0 * WIDTH * 2;
            cache::writeback(start, (y1 - y0) * WIDTH * 2);
        }
    }

    /// Runs `draw` on a raster over this buffer and remembers the rows it
    /// touched.
    fn with_raster<R>(&mut self, draw: impl FnOnce(&mut Raster<'_>) -> R) -> R {
        // SAFETY: `pixels` points to WIDTH * HEIGHT u16s only this value
        // writes (see `new`); the reference lives no longer than `&mut self`.
        let pixels = unsafe { &mut *self.pixels.cast::<[u16; PIXELS]>() };
        let mut raster = Raster::new(pixels, &mut self.sprites);
        raster.set_clip(self.clip);
        // Runs the raster overwrites whole skip the read of their lines.
        raster.set_prepare(Some(cache::create_dirty_lines));
        let out = draw(&mut raster);
        if let Some(rows) = raster.take_dirty_rows() {
            self.dirty = Some(match self.dirty {
                Some((a, b)) => (a.min(rows.start), b.max(rows.end)),
                None => (rows.start, rows.end),
            });
        }
        out
    }
}

impl OriginDimensions for Framebuffer {
    fn size(&self) -> Size {
        Size::new(WIDTH as u32, HEIGHT as u32)
    }
}

impl DrawTarget for Framebuffer {
    type Color = Rgb555;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Self::Color>>,
    {
        self.with_raster(|r| r.draw_iter(pixels))
    }

    fn fill_contiguous<I>(&mut self, area: &Rectangle, colors: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Self::Color>,
    {
        self.with_raster(|r| r.fill_contiguous(area, colors))
    }

    fn fill_solid(&mut self, area: &Rectangle, color: Self::Color) -> Result<(), Self::Error> {
        self.with_raster(|r| r.fill_solid(area, color))
    }

    fn clear(&mut self, color: Self::Color) -> Result<(), Self::Error> {
        self.with_raster(|r| DrawTarget::clear(r, color))
    }
}

impl Canvas for Framebuffer {
    fn fill_screen(&mut self, color: Rgb555) {
        self.with_raster(|r| r.fill_screen(color));
    }

    fn fill(&mut self, area: Rectangle, color: Rgb555) {
        self.with_raster(|r| r.fill(area, color));
    }

    fn panel(&mut self, panel: Panel) {
        self.with_raster(|r| r.panel(panel));
    }

    fn text(&mut self, text: &str, at: Point, font: Font, color: Rgb555, align: Alignment) {
        self.with_raster(|r| r.text(text, at, font, color, align));
    }

    fn line(&mut self, from: Point, to: Point, width: u32, color: Rgb555) {
        self.with_raster(|r| r.line(from, to, width, color));
    }

    fn rounded_frame(&mut self, area: Rectangle, radius: u32, width: u32, color: Rgb555) {
        self.with_raster(|r| r.rounded_frame(area, radius, width, color));
    }

    fn mark(&mut self, cell: Rectangle, mark: Mark) {
        self.with_raster(|r| r.mark(cell, mark));
    }

    fn set_clip(&mut self, area: Option<Rectangle>) -> bool {
        self.clip = area;
        true
    }

    fn warm_up(&mut self) {
        self.sprites.warm_up();
    }
}

/// Two framebuffers and the VI: draw into the back buffer, then `present`.
pub struct Display {
    buffers: [Framebuffer; 2],
    back: usize,
}

impl Display {
    /// Sets up the VI for `tv` with both buffers black. Returns `None` if
    /// the display was already taken (it owns the framebuffer memory).
    pub fn take(tv: TvType) -> Option<Self> {
        // SAFETY: single thread; no interrupt handler touches a Global (global.rs).
        unsafe {
            if *TAKEN.get() {
                return None;
            }
            *TAKEN.get() = true;
        }
        let base = BUFFERS.get() as *mut u16;
        // SAFETY: the two halves of BUFFERS are disjoint, 64-byte aligned
        // (PIXELS * 2 is a multiple of 64), and only handed out once.
        let mut buffers = unsafe { [Framebuffer::new(base), Framebuffer::new(base.add(PIXELS))] };
        for fb in &mut buffers {
            let _ = fb.clear(Rgb555::BLACK);
            fb.flush();
        }
        vi::init(tv, buffers[1].physical());
        Some(Self { buffers, back: 0 })
    }

    /// The buffer being drawn.
    pub fn back(&mut self) -> &mut Framebuffer {
        &mut self.buffers[self.back]
    }

    /// Which buffer (0 or 1) is being drawn; each one keeps what was drawn
    /// into it two frames ago.
    pub fn back_index(&self) -> usize {
        self.back
    }

    /// Waits for the next vertical blank and keeps showing the front
    /// buffer: the back buffer is not complete yet (drawn over two frames).
    pub fn hold(&mut self) {
        vi::wait_vsync();
    }

    /// Shows the back buffer from the next vertical blank, waits for it,
    /// and makes the other buffer the new back buffer.
    pub fn present(&mut self) {
        let fb = &mut self.buffers[self.back];
        fb.flush();
        vi::set_origin(fb.physical());
        vi::wait_vsync();
        self.back ^= 1;
    }
}

/// For the panic handler only: a framebuffer on buffer 0, whatever state
/// the display is in.
///
/// # Safety
/// Nothing else may draw afterwards (the caller never returns).
pub unsafe fn panic_framebuffer() -> Framebuffer {
    Framebuffer::new(BUFFERS.get() as *mut u16)
}
