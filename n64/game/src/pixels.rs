//! The framebuffer's pixel format and size, and the fast run fill the
//! raster and its sprites' copies are built on.

use embedded_graphics::pixelcolor::{Rgb555, RgbColor};

/// Screen width in pixels.
pub const WIDTH: usize = 320;
/// Screen height in pixels.
pub const HEIGHT: usize = 240;
/// Pixels in a frame.
pub const PIXELS: usize = WIDTH * HEIGHT;

/// The RGBA5551 value of a colour (alpha bit set), as the VI shows it.
pub fn rgba5551(c: Rgb555) -> u16 {
    (u16::from(c.r()) << 11) | (u16::from(c.g()) << 6) | (u16::from(c.b()) << 1) | 1
}

/// Runs up to this long are filled pixel by pixel (the per-run cost of the
/// two-pixel stores is larger than their gain).
pub(crate) const NARROW: usize = 8;

/// Fills a run of pixels, two per 32-bit store where aligned.
#[inline]
pub(crate) fn fill_run(run: &mut [u16], value: u16) {
    if run.len() <= NARROW {
        // Splitting at the alignment costs more than a few stores.
        for px in run {
            *px = value;
        }
        return;
    }
    // A pixel alone up to the next 4-byte boundary, pairs, a pixel alone.
    let run = match run {
        [first, rest @ ..] if run_addr(rest).is_multiple_of(4) => {
            *first = value;
            rest
        }
        _ => run,
    };
    let pairs = run.len() / 2;
    let (body, tail) = run.split_at_mut(pairs * 2);
    if let [last] = tail {
        *last = value;
    }
    // Both halves hold the same pixel: no byte order to mind.
    let pair = (u32::from(value) << 16) | u32::from(value);
    match bytemuck::try_cast_slice_mut::<u16, u32>(body) {
        Ok(words) => {
            let mut chunks = words.chunks_exact_mut(16);
            for chunk in &mut chunks {
                chunk.copy_from_slice(&[pair; 16]);
            }
            // The rest (0-15 words) in halves: fewer loop steps than one by one.
            let mut rest = chunks.into_remainder();
            for n in [8, 4, 2, 1] {
                let all = core::mem::take(&mut rest);
                if all.len() >= n {
                    let (part, after) = all.split_at_mut(n);
                    part.fill(pair);
                    rest = after;
                } else {
                    rest = all;
                }
            }
        }
        // Not reached: `body` starts 4-byte aligned.
        Err(_) => body.fill(value),
    }
}

/// The address of a run (for its alignment).
fn run_addr(run: &[u16]) -> usize {
    run.as_ptr() as usize
}
