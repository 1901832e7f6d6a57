//! Video Interface: 320x240, 16 bits per pixel (RGBA5551), progressive,
//! with the NTSC, PAL or MPAL timings of [`crate::vi_modes`]; vertical
//! interrupts counted by the interrupt handler (boot/entry.s).
//!
//! What the console requires, and how this module meets it:
//! - The VI reads the framebuffer from RDRAM by DMA, behind the CPU's data
//!   cache: every pixel must be in RDRAM before the VI scans it. `fb.rs`
//!   writes the drawn rows back (`Framebuffer::flush`) before [`set_origin`]
//!   points the VI at a buffer, and draws only into the buffer not shown.
//! - A mode change must not show a half-programmed mode: [`init`] blanks
//!   the VI first (CTRL = 0, no pixels fetched), writes the timing, origin,
//!   width and scale registers, and enables 16-bit output with CTRL last.
//! - A VI interrupt left pending from before (by the boot code or the panic
//!   path re-running [`init`]) is acknowledged (a V_CURRENT write) before
//!   MI_MASK lets the VI through, so the first counted interrupt is a real
//!   new field.
//! - [`set_origin`] is written mid-field (after the frame is drawn). ares
//!   reads ORIGIN once per field, at the first active line, so the new
//!   buffer shows from the next field; if a console's VI takes it mid-field
//!   the picture tears for one field, but never shows a half-drawn buffer:
//!   both buffers are complete, and the one replaced is drawn into again
//!   only after [`wait_vsync`], i.e. once the VI has moved on (not verified
//!   on hardware).

use core::sync::atomic::{AtomicU32, Ordering};

use ttt64_game::Refresh;

use crate::regs::{mi, Reg};
use crate::vi_modes::{TvType, ViMode};
use crate::{exception, timer};

/// Vertical interrupts taken since boot, counted by the interrupt handler
/// (boot/entry.s).
#[no_mangle]
static N64_VI_FRAMES: AtomicU32 = AtomicU32::new(0);
/// COP0 Count at the last vertical interrupt (set by the handler).
#[no_mangle]
static N64_VI_COUNT: AtomicU32 = AtomicU32::new(0);

extern "C" {
    /// Returns once `N64_VI_FRAMES != seen`, `count() - start >= limit` or
    /// any interrupt arrived (boot/entry.s): an idle loop emulators skip.
    fn n64_vi_wait(seen: u32, start: u32, limit: u32);
}

pub const WIDTH: usize = 320;
pub const HEIGHT: usize = 240;

const BASE: usize = 0xA440_0000;
const fn reg(offset: usize) -> Reg<u32> {
    // SAFETY: VI registers are 32-bit words at 0xA4400000..0xA4400038.
    unsafe { Reg::at(BASE + offset) }
}
const CTRL: Reg<u32> = reg(0x00);
const ORIGIN: Reg<u32> = reg(0x04);
const WIDTH_REG: Reg<u32> = reg(0x08);
const V_INTR: Reg<u32> = reg(0x0C);
const V_CURRENT: Reg<u32> = reg(0x10);
/// BURST, V_SYNC, H_SYNC, H_SYNC_LEAP, H_VIDEO, V_VIDEO, V_BURST (0x14..0x2C).
const TIMING_BASE: usize = 0x14;
const X_SCALE: Reg<u32> = reg(0x30);
const Y_SCALE: Reg<u32> = reg(0x34);

/// CTRL: 16 bpp (type 2), anti-alias "resample only" (mode 2), pixel
/// advance 3.
const CTRL_16BPP: u32 = 0x0000_3202;

/// Frame rate of the mode [`init`] programs for `tv` (NTSC 59.826 Hz, PAL
/// 49.920 Hz, MPAL 59.838 Hz; see [`ViMode::refresh_millihz`]).
pub const fn refresh(tv: TvType) -> Refresh {
    Refresh::millihz(tv.vi_mode().refresh_millihz())
}

/// Programs the VI for 320x240x16 showing the framebuffer at `origin`
/// (physical address).
pub fn init(tv: TvType, origin: u32) {
    CTRL.write(0);
    let mode: &ViMode = tv.vi_mode();
    for (i, &value) in mode.timing.iter().enumerate() {
        reg(TIMING_BASE + 4 * i).write(value);
    }
    ORIGIN.write(origin);
    WIDTH_REG.write(WIDTH as u32);
    V_INTR.write(2);
    X_SCALE.write(((WIDTH as u32) << 10) / 640);
    Y_SCALE.write(((HEIGHT as u32) << 10) / 240);
    CTRL.write(CTRL_16BPP);
    V_CURRENT.write(0); // acknowledge a stale VI interrupt before unmasking
    mi::MASK.write(mi::MASK_SET_VI);
}

/// Shows the framebuffer at `origin` (physical) from the next frame on.
pub fn set_origin(origin: u32) {
    ORIGIN.write(origin);
}

/// Current half-line being scanned out.
pub fn current_line() -> u32 {
    V_CURRENT.read() & 0x3FF
}

/// Vertical interrupts taken since boot.
pub fn frames() -> u32 {
    N64_VI_FRAMES.load(Ordering::Relaxed)
}

/// COP0 Count at the last vertical interrupt.
pub fn last_interrupt_count() -> u32 {
    N64_VI_COUNT.load(Ordering::Relaxed)
}

/// How long [`wait_vsync`] waits for a VI before giving up (a missing VI
/// must never hang the game): 50 ms.
const GIVE_UP_TICKS: u32 = (timer::TICKS_PER_SECOND / 20) as u32;

/// Waits for the next vertical interrupt (VI line V_INTR). With CPU
/// interrupts on, in an idle loop the interrupt handler ends (emulators skip
/// the idle time); otherwise (the panic screen, an exception) by polling
/// MI_INTERRUPT. Gives up after 50 ms either way.
pub fn wait_vsync() {
    let start = timer::count();
    if !exception::interrupts_enabled() {
        V_CURRENT.write(0); // acknowledges (clears) the VI interrupt
        while mi::INTERRUPT.read() & mi::INTERRUPT_VI == 0 {
            if timer::count().wrapping_sub(start) > GIVE_UP_TICKS {
                break;
            }
        }
        return;
    }
    let seen = frames();
    // The COP0 timer interrupt ends the idle loop if no VI comes.
    exception::set_timer(start.wrapping_add(GIVE_UP_TICKS));
    while frames() == seen && timer::count().wrapping_sub(start) < GIVE_UP_TICKS {
        // SAFETY: n64_vi_wait only reads N64_VI_FRAMES and Count, and returns
        // on the next interrupt (the handler in entry.s takes it and resumes
        // after the wait) or once the give-up time has passed.
        unsafe { n64_vi_wait(seen, start, GIVE_UP_TICKS) };
    }
}

/// Measures the vertical interrupt rate against the COP0 Count clock.
#[derive(Clone, Copy, Debug)]
pub struct RateMeter {
    frames: u32,
    count: u32,
}

impl RateMeter {
    /// Starts at the last vertical interrupt taken.
    pub fn start() -> Self {
        Self {
            frames: frames(),
            count: last_interrupt_count(),
        }
    }

    /// Vertical interrupts since [`RateMeter::start`].
    pub fn interrupts(&self) -> u32 {
        frames().wrapping_sub(self.frames)
    }

    /// Vertical interrupts per 1000 s between the start and the last one
    /// (`None` before the first, or over more than Count's 91 s wrap).
    pub fn millihz(&self) -> Option<u64> {
        let n = u64::from(self.interrupts());
        let ticks = u64::from(last_interrupt_count().wrapping_sub(self.count));
        if n == 0 || ticks == 0 {
            return None;
        }
        Some(n * timer::TICKS_PER_SECOND * 1000 / ticks)
    }
}
