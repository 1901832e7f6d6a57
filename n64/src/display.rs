//! The display: libdragon's (VI set-up, double buffering, the buffer
//! switch in the vertical interrupt), drawn with the game's fast
//! [`Raster`] through the data cache.
//!
//! libdragon allocates the two RGBA5551 framebuffers (320x243, uncached
//! pointers, 64-byte aligned, whole cache lines) and shows a buffer from
//! the vertical blank after `display_show`. Drawing through the uncached
//! pointer would cost a bus access per pixel, so [`Framebuffer`] draws
//! through the cached (KSEG0) alias of the same memory and records the
//! areas it touched (the rows each drawing call touched, across the
//! columns it was clipped to: a partial redraw's rectangles);
//! [`Display::show`] writes those back to RDRAM (libdragon's
//! `data_cache_hit_writeback`) before `display_show`: the VI
//! fetches pixels from RDRAM and never sees the data cache. Nothing else
//! writes the buffers after `display_init` cleared them, so no cached line
//! is ever stale.
//!
//! The vertical interrupts are counted by a handler registered with
//! libdragon ([`frames`], the game's frame clock and the `vsync rate` line).
//!
//! Each buffer has [`PAD_LINES`] more lines than the picture, kept in the
//! background colour, and the VI scales 1:1 over the first 240: mupen64plus'
//! Glide64 plugins show three lines more than the VI's V_VIDEO range, which
//! were a line of heap bytes (junk) under the picture before. The VI, ares
//! and a console show exactly the 240 lines drawn.

use core::convert::Infallible;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicU32, Ordering};

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use libdragon_sys as sys;
use ttt64_game::canvas::Panel;
use ttt64_game::{Canvas, Font, Raster, Refresh, Sprites};
use ttt_core::Mark;

use crate::cache;
use crate::global::Global;
use crate::regs::Reg;
use crate::time;
use crate::tv::TvType;

pub const WIDTH: usize = 320;
pub const HEIGHT: usize = 240;
const PIXELS: usize = WIDTH * HEIGHT;
/// Lines under the picture that only Glide64-style emulator plugins show.
pub const PAD_LINES: usize = 3;

/// VI_Y_SCALE: 1/scale in 2.10 fixed point, for 240 framebuffer lines over
/// the mode's 240 (NTSC, MPAL) or 288 (PAL) active lines, rounded as
/// libdragon's VI_Y_SCALE_SET_* do. libdragon sets it for the buffer
/// height it allocates, which here includes [`PAD_LINES`].
const fn y_scale(tv: TvType) -> u32 {
    let lines = HEIGHT as u32;
    match tv {
        TvType::Pal => (1024 * lines + 144) / 288,
        TvType::Ntsc | TvType::Mpal => (1024 * lines + 120) / 240,
    }
}
// SAFETY: VI_Y_SCALE, a 32-bit VI register at 0xA4400034.
const VI_Y_SCALE: Reg<u32> = unsafe { Reg::at(0xA440_0034) };

/// KSEG1 (uncached) to KSEG0 (cached): the same physical memory.
const fn cached(addr: usize) -> usize {
    addr & !0x2000_0000
}

/// The marks' sprites, kept from frame to frame, shared by both buffers
/// (one is drawn at a time): in `.bss` rather than on the stack (about
/// 43 KB), made by [`Display::init`].
static SPRITES: Global<MaybeUninit<Sprites>> = Global::new(MaybeUninit::uninit());

/// One framebuffer, drawn through the cache.
pub struct Framebuffer {
    /// libdragon's surface for this buffer (what `display_show` takes).
    surface: *mut sys::surface_t,
    /// The cached alias of the surface's pixels.
    pixels: *mut u16,
    /// The marks' sprites ([`SPRITES`]).
    sprites: *mut Sprites,
    /// What was drawn since the last flush.
    dirty: Dirty,
    /// Drawing is limited to this (`Canvas::set_clip`; `None`: everywhere).
    clip: Option<Rectangle>,
}

impl Framebuffer {
    /// # Safety
    /// `surface` must be a 320x240 RGBA16 surface from `display_get` that
    /// nothing else writes while this value exists; `sprites` the sprite
    /// cache, used by one buffer at a time.
    unsafe fn new(surface: *mut sys::surface_t, sprites: *mut Sprites) -> Self {
        // SAFETY: the caller's contract: a valid surface from libdragon.
        let buffer = unsafe { (*surface).buffer } as usize;
        Self {
            surface,
            pixels: cached(buffer) as *mut u16,
            sprites,
            dirty: Dirty::new(),
            clip: None,
        }
    }

    /// Fills the lines under the picture with the background colour (once:
    /// nothing draws there), through the cache, written back.
    fn fill_pad_lines(&mut self) {
        // SAFETY: the buffer holds HEIGHT + PAD_LINES lines of WIDTH pixels
        // (display_init's height); the pad lines are only written here.
        let pad =
            unsafe { core::slice::from_raw_parts_mut(self.pixels.add(PIXELS), PAD_LINES * WIDTH) };
        pad.fill(ttt64_game::rgba5551(ttt64_game::palette::BG));
        // SAFETY: as above; Hit_Write_Back only copies dirty lines to RDRAM.
        unsafe {
            sys::data_cache_hit_writeback(pad.as_ptr().cast(), core::mem::size_of_val(pad) as _)
        };
    }

    /// Writes the areas drawn from the data cache back to RDRAM: whole
    /// rows in one run, else row by row, only the columns drawn (a partial
    /// redraw of a 15x15 game touched rows 19-184 in a few small
    /// rectangles; writing back those rows whole cost 0.8-1.4 ms in
    /// mupen64plus).
    pub fn flush(&mut self) {
        let base = self.pixels as usize;
        for &DirtyArea { x0, x1, y0, y1 } in self.dirty.take() {
            let runs = if x1 - x0 == WIDTH {
                (y0..y0 + 1, (y1 - y0) * WIDTH)
            } else {
                (y0..y1, x1 - x0)
            };
            for y in runs.0 {
                let start = base + (y * WIDTH + x0) * 2;
                // SAFETY: the run lies inside this buffer's cached alias
                // (x0 < x1 <= WIDTH, y1 <= HEIGHT); Hit_Write_Back only
                // copies dirty lines to RDRAM.
                unsafe { sys::data_cache_hit_writeback(start as *const _, (runs.1 * 2) as _) };
            }
        }
    }

    /// Runs `draw` on a raster over this buffer and remembers the rows it
    /// touched.
    fn with_raster<R>(&mut self, draw: impl FnOnce(&mut Raster<'_>) -> R) -> R {
        // SAFETY: `pixels` points to WIDTH * HEIGHT u16s only this value
        // writes (see `new`); the sprite cache is used by one buffer's
        // drawing at a time (the one CPU thread draws one call at a
        // time); both references live no longer than `&mut self`.
        let (pixels, sprites) = unsafe {
            (
                &mut *self.pixels.cast::<[u16; PIXELS]>(),
                &mut *self.sprites,
            )
        };
        let mut raster = Raster::new(pixels, sprites);
        raster.set_clip(self.clip);
        // Runs the raster overwrites whole skip the read of their lines.
        raster.set_prepare(Some(cache::create_dirty_lines));
        let out = draw(&mut raster);
        if let Some(rows) = raster.take_dirty_rows() {
            // The raster drew only inside the clip.
            let (x0, x1) = match self.clip {
                Some(r) => (
                    r.top_left.x.clamp(0, WIDTH as i32) as usize,
                    (i64::from(r.top_left.x) + i64::from(r.size.width)).clamp(0, WIDTH as i64)
                        as usize,
                ),
                None => (0, WIDTH),
            };
            if x0 < x1 {
                self.dirty.add(DirtyArea {
                    x0,
                    x1,
                    y0: rows.start,
                    y1: rows.end,
                });
            }
        }
        out
    }
}

/// Columns `x0..x1` of rows `y0..y1`, drawn.
#[derive(Clone, Copy)]
struct DirtyArea {
    x0: usize,
    x1: usize,
    y0: usize,
    y1: usize,
}

/// Areas kept apart at most (a partial redraw has up to 6 rectangles).
const DIRTY_AREAS: usize = 8;

/// The areas drawn into a framebuffer since it was last written back.
struct Dirty {
    areas: [DirtyArea; DIRTY_AREAS],
    len: usize,
}

impl Dirty {
    const fn new() -> Self {
        Self {
            areas: [DirtyArea {
                x0: 0,
                x1: 0,
                y0: 0,
                y1: 0,
            }; DIRTY_AREAS],
            len: 0,
        }
    }

    /// Adds `a`: into an area of the same columns whose rows it meets or
    /// touches (the calls drawn inside one clip rectangle), else apart;
    /// when there is no room left, all become the one area holding them.
    fn add(&mut self, a: DirtyArea) {
        if let Some(b) = self.areas[..self.len]
            .iter_mut()
            .find(|b| (b.x0, b.x1) == (a.x0, a.x1) && a.y0 <= b.y1 && b.y0 <= a.y1)
        {
            (b.y0, b.y1) = (b.y0.min(a.y0), b.y1.max(a.y1));
            return;
        }
        if let Some(slot) = self.areas.get_mut(self.len) {
            *slot = a;
            self.len += 1;
            return;
        }
        let all = self.areas.iter().fold(a, |u, b| DirtyArea {
            x0: u.x0.min(b.x0),
            x1: u.x1.max(b.x1),
            y0: u.y0.min(b.y0),
            y1: u.y1.max(b.y1),
        });
        self.areas[0] = all;
        self.len = 1;
    }

    /// The areas, emptied.
    fn take(&mut self) -> &[DirtyArea] {
        let len = core::mem::take(&mut self.len);
        &self.areas[..len]
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
        // SAFETY: as in `with_raster`: no other reference to the cache is
        // alive during a canvas call.
        unsafe { (*self.sprites).warm_up() };
    }
}

/// Vertical interrupts since boot, and the time of the last one (the low
/// 32 bits of the ticks: the target has no 64-bit atomics; they wrap after
/// 91 s, far more than a rate measurement spans).
static VI_FRAMES: AtomicU32 = AtomicU32::new(0);
static VI_TICKS: AtomicU32 = AtomicU32::new(0);

/// The stack pointer of `n64_vi_wait` while it waits (0 otherwise).
#[no_mangle]
static N64_IDLE_SP: AtomicU32 = AtomicU32::new(0);

// Waiting for the vertical interrupt in an idle loop: a branch to itself
// with a nop in its delay slot, which emulators recognise and skip to the
// next interrupt (mupen64plus runs the ROM about three times faster than
// with a polling loop, which keeps `make test` short). An interrupt returns
// into the loop; the VI handler below moves the saved return address to
// `done` when it interrupted anything from `check` on, so a VI between the
// check and the loop is not missed either.
//
// n64_vi_wait(seen: u32, frames: *const u32): returns once *frames != seen.
core::arch::global_asm!(
    "
    .set push
    .set noreorder
    .global n64_vi_wait
n64_vi_wait:
    lui     $t0, %hi(N64_IDLE_SP)
    sw      $sp, %lo(N64_IDLE_SP)($t0)
n64_vi_wait_check:
    lw      $t1, 0($a1)
    bne     $t1, $a0, n64_vi_wait_done
    nop
n64_vi_wait_idle:
    b       n64_vi_wait_idle
    nop
n64_vi_wait_done:
    sw      $zero, %lo(N64_IDLE_SP)($t0)
    jr      $ra
    nop
    .set pop
"
);

extern "C" {
    fn n64_vi_wait(seen: u32, frames: *const u32);
    static n64_vi_wait_check: u8;
    static n64_vi_wait_done: u8;
}

/// libdragon's interrupt handler (inthandler.S) saves the interrupted
/// registers on the interrupted stack: 32 bytes of argument slots, then a
/// `reg_block_t` (exception.h), whose `epc` it restores on return.
const ARGUMENT_SLOTS: usize = 32;

/// If the VI interrupted `n64_vi_wait` between its check and its return,
/// makes the interrupt return to `done`.
fn end_idle_wait() {
    let sp = N64_IDLE_SP.load(Ordering::Relaxed) as usize;
    if sp == 0 {
        return;
    }
    let frame = sp - ARGUMENT_SLOTS - core::mem::size_of::<sys::reg_block_t>();
    let epc = (frame + ARGUMENT_SLOTS + core::mem::offset_of!(sys::reg_block_t, epc)) as *mut u32;
    // SAFETY: n64_vi_wait set N64_IDLE_SP and changes no register the
    // handler's frame depends on; libdragon's handler pushed its frame
    // right below that stack pointer (no thread switch: the kernel's
    // threads are not used), so `epc` is the saved return address, read
    // and written while the handler runs with interrupts off.
    unsafe {
        let (check, done) = (
            core::ptr::addr_of!(n64_vi_wait_check) as u32,
            core::ptr::addr_of!(n64_vi_wait_done) as u32,
        );
        let pc = epc.read_volatile();
        if (check..done).contains(&pc) {
            epc.write_volatile(done);
        }
    }
}

/// libdragon's VI handler list calls this at every vertical interrupt
/// (after libdragon's display switched buffers).
extern "C" fn count_vertical_interrupt() {
    VI_TICKS.store(time::ticks() as u32, Ordering::Relaxed);
    VI_FRAMES.fetch_add(1, Ordering::Relaxed);
    end_idle_wait();
}

/// Vertical interrupts taken since the display started.
pub fn frames() -> u32 {
    VI_FRAMES.load(Ordering::Relaxed)
}

/// Waits for the next vertical interrupt (the display runs them from
/// `Display::init` on, so one always comes).
pub fn wait_vsync() {
    let seen = frames();
    // SAFETY: n64_vi_wait reads the counter and returns once it changed
    // (the VI handler ends its idle loop); interrupts are on.
    unsafe { n64_vi_wait(seen, VI_FRAMES.as_ptr()) };
}

/// libdragon's display with two buffers: draw into the back buffer, then
/// `show` it (the next `begin` takes the other one).
pub struct Display {
    /// Each buffer once `display_get` has handed it out (libdragon hands
    /// them out in turn: 1, 0, 1, ...).
    buffers: [Option<Framebuffer>; 2],
    back: usize,
    refresh: Refresh,
    /// The sprite cache both buffers draw with ([`SPRITES`]).
    sprites: *mut Sprites,
    /// The buffer last taken from libdragon (`display_get`).
    taken: Option<usize>,
}

impl Display {
    /// Sets up the VI for the console's TV type (320x240, 16 bits, the
    /// resampling filter) with both buffers black, and counts its vertical
    /// interrupts.
    pub fn init(tv: TvType) -> Self {
        // SAFETY: once, at boot, after the constructors set up interrupts:
        // display_init allocates the buffers and takes the VI interrupt.
        let rate = unsafe {
            sys::display_init(
                sys::resolution_t {
                    width: WIDTH as i32,
                    height: (HEIGHT + PAD_LINES) as i32,
                    interlaced: sys::INTERLACE_OFF,
                    pal60: false,
                },
                sys::DEPTH_16_BPP,
                2,
                sys::GAMMA_NONE,
                sys::FILTERS_RESAMPLE,
            );
            sys::register_VI_handler(Some(count_vertical_interrupt));
            sys::display_get_refresh_rate()
        };
        // The picture is the buffers' first 240 lines, 1:1 (see PAD_LINES).
        VI_Y_SCALE.write(y_scale(tv));
        // SAFETY: once, at boot: nothing holds the cache yet.
        let sprites = unsafe { (*SPRITES.get()).write(Sprites::new()) as *mut Sprites };
        let mut display = Self {
            buffers: [None, None],
            back: 0,
            refresh: Refresh::millihz((rate * 1000.0 + 0.5) as u32),
            sprites,
            taken: None,
        };
        display.take_back();
        display
    }

    /// Fields per second as libdragon computes it from the VI mode (NTSC
    /// 59.826 Hz, PAL 49.920 Hz, MPAL 59.838 Hz).
    pub fn refresh(&self) -> Refresh {
        self.refresh
    }

    /// Takes the next buffer from libdragon (waiting until the VI no longer
    /// shows it).
    fn take_back(&mut self) {
        self.taken = Some(self.back);
        // SAFETY: display_get returns one of the surfaces display_init
        // allocated, not shown and not handed out elsewhere.
        let surface = unsafe { sys::display_get() };
        match &self.buffers[self.back] {
            Some(fb) if fb.surface == surface => {}
            Some(_) => panic!("libdragon handed out the framebuffers out of turn"),
            None => {
                // SAFETY: a 320x243 RGBA16 surface from display_get; only
                // this Framebuffer draws into it; the sprite cache is made.
                let mut fb = unsafe { Framebuffer::new(surface, self.sprites) };
                fb.fill_pad_lines();
                self.buffers[self.back] = Some(fb);
            }
        }
    }

    /// The buffer being drawn.
    pub fn back(&mut self) -> &mut Framebuffer {
        self.buffers[self.back]
            .as_mut()
            .expect("the back buffer is taken before it is drawn")
    }

    /// Makes the back buffer ready to draw (after a [`Display::show`], the
    /// other buffer, which libdragon hands out once the vertical blank has
    /// shown the new one) and says which (0 or 1): each one keeps what was
    /// drawn into it two frames ago.
    pub fn begin(&mut self) -> usize {
        if self.taken != Some(self.back) {
            self.take_back();
        }
        self.back
    }

    /// Shows the back buffer from the next vertical blank; the next frame
    /// draws into the other one ([`Display::begin`], at that blank or
    /// later). A buffer not shown (half drawn) stays the back buffer.
    pub fn show(&mut self) {
        let fb = self.back();
        fb.flush();
        let surface = fb.surface;
        // SAFETY: the surface came from display_get and is shown once.
        unsafe { sys::display_show(surface) };
        self.back ^= 1;
    }
}

/// Measures the vertical interrupt rate against the COP0 Count clock.
#[derive(Clone, Copy, Debug)]
pub struct RateMeter {
    frames: u32,
    ticks: u32,
}

impl RateMeter {
    /// Starts at the last vertical interrupt taken.
    pub fn start() -> Self {
        Self {
            frames: frames(),
            ticks: VI_TICKS.load(Ordering::Relaxed),
        }
    }

    /// Vertical interrupts since [`RateMeter::start`].
    pub fn interrupts(&self) -> u32 {
        frames().wrapping_sub(self.frames)
    }

    /// Vertical interrupts per 1000 s between the start and the last one
    /// (`None` before the first).
    pub fn millihz(&self) -> Option<u64> {
        let n = u64::from(self.interrupts());
        let ticks = u64::from(VI_TICKS.load(Ordering::Relaxed).wrapping_sub(self.ticks));
        if n == 0 || ticks == 0 {
            return None;
        }
        Some(n * time::TICKS_PER_SECOND * 1000 / ticks)
    }
}
