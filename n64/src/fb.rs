//! 320x240 RGBA5551 framebuffers and the double-buffered display.
//!
//! Drawing goes through the data cache (fast); [`Display::present`] writes
//! the touched rows back to RDRAM before the VI is pointed at the buffer.
//! Colours come in as embedded-graphics `Rgb555` and are stored as
//! RGBA5551 (`r << 11 | g << 6 | b << 1 | 1`).

use core::convert::Infallible;

use embedded_graphics::pixelcolor::{Rgb555, RgbColor};
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;

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

/// RGBA5551 value of a colour (alpha bit set).
pub fn rgba5551(c: Rgb555) -> u16 {
    (u16::from(c.r()) << 11) | (u16::from(c.g()) << 6) | (u16::from(c.b()) << 1) | 1
}

/// One framebuffer in RDRAM, drawn through the cache.
pub struct Framebuffer {
    pixels: *mut u16,
    /// Rows touched since the last flush (first, last+1).
    dirty: Option<(usize, usize)>,
}

impl Framebuffer {
    /// # Safety
    /// `pixels` must point to `WIDTH * HEIGHT` u16s (64-byte aligned) that
    /// nothing else writes while this value exists.
    unsafe fn new(pixels: *mut u16) -> Self {
        Self {
            pixels,
            dirty: None,
        }
    }

    fn mark(&mut self, y0: usize, y1: usize) {
        self.dirty = Some(match self.dirty {
            Some((a, b)) => (a.min(y0), b.max(y1)),
            None => (y0, y1),
        });
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

    fn fill_rows(&mut self, x0: usize, x1: usize, y0: usize, y1: usize, value: u16) {
        for y in y0..y1 {
            // SAFETY: x0 <= x1 <= WIDTH and y < HEIGHT (callers clip), so the
            // row slice lies inside this buffer, which only `self` writes.
            let row = unsafe {
                core::slice::from_raw_parts_mut(self.pixels.add(y * WIDTH + x0), x1 - x0)
            };
            // Two pixels per 32-bit store in the aligned middle of the row.
            // SAFETY: align_to_mut only reinterprets the u16s as u32s where
            // the address is 4-byte aligned; any u32 bit pattern is valid.
            let (head, middle, tail) = unsafe { row.align_to_mut::<u32>() };
            head.fill(value);
            let pair = u32::from(value) << 16 | u32::from(value);
            let mut chunks = middle.chunks_exact_mut(8);
            for chunk in &mut chunks {
                chunk.copy_from_slice(&[pair; 8]);
            }
            chunks.into_remainder().fill(pair);
            tail.fill(value);
        }
        self.mark(y0, y1);
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
        let (mut y0, mut y1) = (HEIGHT, 0);
        for Pixel(p, color) in pixels {
            if let (Ok(x @ 0..320), Ok(y @ 0..240)) = (usize::try_from(p.x), usize::try_from(p.y)) {
                // SAFETY: x < WIDTH, y < HEIGHT: inside the buffer.
                unsafe { self.pixels.add(y * WIDTH + x).write(rgba5551(color)) };
                y0 = y0.min(y);
                y1 = y1.max(y + 1);
            }
        }
        if y0 < y1 {
            self.mark(y0, y1);
        }
        Ok(())
    }

    fn fill_solid(&mut self, area: &Rectangle, color: Self::Color) -> Result<(), Self::Error> {
        let area = area.intersection(&self.bounding_box());
        if let Some(bottom_right) = area.bottom_right() {
            let (x0, y0) = (area.top_left.x as usize, area.top_left.y as usize);
            let (x1, y1) = (bottom_right.x as usize + 1, bottom_right.y as usize + 1);
            self.fill_rows(x0, x1, y0, y1, rgba5551(color));
        }
        Ok(())
    }

    fn clear(&mut self, color: Self::Color) -> Result<(), Self::Error> {
        self.fill_rows(0, WIDTH, 0, HEIGHT, rgba5551(color));
        Ok(())
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
