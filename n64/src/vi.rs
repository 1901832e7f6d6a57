//! Video Interface: 320x240, 16 bits per pixel (RGBA5551), progressive,
//! with NTSC, PAL or MPAL timings (libultra's "LPN1" modes, n64brew "Video
//! Interface"), except V_VIDEO: libultra's shows 237 lines (0x25..0x1FF =
//! 474 half-lines), ours spans all 240 (480 half-lines).

use crate::bootinfo::TvType;
use crate::regs::{mi, Reg};
use crate::timer;

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

/// BURST, V_SYNC, H_SYNC, H_SYNC_LEAP, H_VIDEO, V_VIDEO, V_BURST per standard.
fn timings(tv: TvType) -> [u32; 7] {
    match tv {
        TvType::Ntsc => [
            0x03E5_2239,
            0x0000_020D,
            0x0000_0C15,
            0x0C15_0C15,
            0x006C_02EC,
            0x0023_0203,
            0x000E_0204,
        ],
        TvType::Pal => [
            0x0404_233A,
            0x0000_0271,
            0x0015_0C69,
            0x0C6F_0C6E,
            0x0080_0300,
            0x005D_023D,
            0x0009_026B,
        ],
        TvType::Mpal => [
            0x0465_1E39,
            0x0000_020D,
            0x0004_0C11,
            0x0C19_0C1A,
            0x006C_02EC,
            0x0023_0203,
            0x000E_0204,
        ],
    }
}

/// Programs the VI for 320x240x16 showing the framebuffer at `origin`
/// (physical address).
pub fn init(tv: TvType, origin: u32) {
    CTRL.write(0);
    for (i, value) in timings(tv).into_iter().enumerate() {
        reg(TIMING_BASE + 4 * i).write(value);
    }
    ORIGIN.write(origin);
    WIDTH_REG.write(WIDTH as u32);
    V_INTR.write(2);
    X_SCALE.write(((WIDTH as u32) << 10) / 640);
    Y_SCALE.write(((HEIGHT as u32) << 10) / 240);
    CTRL.write(CTRL_16BPP);
}

/// Shows the framebuffer at `origin` (physical) from the next frame on.
pub fn set_origin(origin: u32) {
    ORIGIN.write(origin);
}

/// Current half-line being scanned out.
pub fn current_line() -> u32 {
    V_CURRENT.read() & 0x3FF
}

/// Waits for the next vertical interrupt (VI line V_INTR), polling
/// MI_INTERRUPT (CPU interrupts stay off). Gives up after 50 ms so a
/// missing VI can never hang the game.
pub fn wait_vsync() {
    V_CURRENT.write(0); // acknowledges (clears) the VI interrupt
    let start = timer::count();
    let limit = (timer::TICKS_PER_SECOND / 20) as u32;
    while mi::INTERRUPT.read() & mi::INTERRUPT_VI == 0 {
        if timer::count().wrapping_sub(start) > limit {
            break;
        }
    }
}
