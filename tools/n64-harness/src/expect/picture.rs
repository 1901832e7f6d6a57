//! The checks on one frame's picture and memory: `expect pixel`, `expect
//! rect` and `expect u32`. They run while the emulator waits in that frame.

use crate::framebuffer::{self, Image};
use std::fmt::Write as _;

/// `expect pixel`: the pixel at `x,y` has `rgb`, within `tolerance` per
/// channel. `image` is the decoded picture or why there is none.
pub fn check_pixel(
    image: &Result<Image, String>,
    (x, y): (u32, u32),
    rgb: [u8; 3],
    tolerance: u8,
) -> (bool, String) {
    match image {
        Ok(img) => match img.pixel(x, y) {
            Some(got) => (
                framebuffer::colour_matches(got, rgb, tolerance),
                format!("got {}", hex(got)),
            ),
            None => (
                false,
                format!("outside the {}x{} picture", img.width, img.height),
            ),
        },
        Err(e) => (false, e.clone()),
    }
}

/// `expect rect`: all pixels (or at least one) match.
pub fn check_rect(
    img: &Image,
    (x, y, w, h): (u32, u32, u32, u32),
    all: bool,
    rgb: [u8; 3],
    tolerance: u8,
) -> (bool, String) {
    let (x_end, y_end) = (x.saturating_add(w), y.saturating_add(h));
    if x_end > img.width || y_end > img.height {
        return (
            false,
            format!("not inside the {}x{} picture", img.width, img.height),
        );
    }
    let mut matching = 0u64;
    let mut first_miss = None;
    for py in y..y_end {
        for px in x..x_end {
            let got = img.pixel(px, py).unwrap_or([0; 3]);
            if framebuffer::colour_matches(got, rgb, tolerance) {
                matching += 1;
            } else if first_miss.is_none() {
                first_miss = Some((px, py, got));
            }
        }
    }
    let total = u64::from(w) * u64::from(h);
    let passed = if all { matching == total } else { matching > 0 };
    let mut detail = format!("{matching} of {total} pixels match");
    if let (true, Some((px, py, got))) = (all && !passed, first_miss) {
        let _ = write!(detail, "; first other: {} at {px},{py}", hex(got));
    }
    (passed, detail)
}

/// `expect u32`: the word read from RDRAM (`None`: not readable; `ram`:
/// whether RDRAM was available at all, it is not before frame 1).
pub fn check_u32(got: Option<u32>, ram: bool, value: u32) -> (bool, String) {
    match got {
        Some(v) => (v == value, format!("got {v:#010x}")),
        None if !ram => (false, "RDRAM is not available before frame 1".into()),
        None => (false, "address not in RDRAM".into()),
    }
}

/// `#rrggbb`.
pub fn hex(rgb: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image() -> Image {
        // 4x3, all grey except (2,1) white.
        let mut rgb = vec![160u8; 4 * 3 * 3];
        rgb[(4 + 2) * 3..(4 + 2) * 3 + 3].copy_from_slice(&[255, 255, 255]);
        Image {
            width: 4,
            height: 3,
            rgb,
        }
    }

    #[test]
    fn rect_all_and_any() {
        let img = image();
        let grey = [160, 160, 160];
        assert!(check_rect(&img, (0, 0, 4, 1), true, grey, 0).0);
        let (ok, detail) = check_rect(&img, (0, 0, 4, 3), true, grey, 8);
        assert!(!ok);
        assert_eq!(detail, "11 of 12 pixels match; first other: #ffffff at 2,1");
        assert!(check_rect(&img, (0, 0, 4, 3), false, [255, 255, 255], 0).0);
        assert!(!check_rect(&img, (0, 0, 2, 3), false, [255, 255, 255], 0).0);
        let (ok, detail) = check_rect(&img, (3, 0, 2, 1), true, grey, 0);
        assert!(!ok && detail.contains("not inside"));
        assert!(!check_rect(&img, (u32::MAX, 0, 2, 1), false, grey, 0).0);
    }
}
