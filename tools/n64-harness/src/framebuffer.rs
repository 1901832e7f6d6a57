//! Decoding the framebuffer the VI scans out, from RDRAM as mupen64plus
//! exposes it, and writing it as PNG.
//!
//! mupen64plus keeps RDRAM as host-endian 32-bit words: the N64 byte at
//! address `A` is `ram[A ^ 3]`, the halfword at `A` is the host `u16` at
//! `A ^ 2`, the word at `A` is the host `u32` at `A`.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

/// The VI registers needed to find and size the picture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ViRegs {
    /// VI_CTRL (a.k.a. VI_STATUS): bits 0-1 pixel type.
    pub ctrl: u32,
    /// VI_ORIGIN: physical address of the framebuffer.
    pub origin: u32,
    /// VI_WIDTH: framebuffer line length in pixels.
    pub width: u32,
    /// VI_H_VIDEO (H_START): start and end of the active video, in pixels.
    pub h_video: u32,
    /// VI_V_VIDEO (V_START): start and end of the active video, in half-lines.
    pub v_video: u32,
    /// VI_X_SCALE, 2.10 fixed point.
    pub x_scale: u32,
    /// VI_Y_SCALE, 2.10 fixed point.
    pub y_scale: u32,
}

/// Pixel format of the framebuffer (VI_CTRL bits 0-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PixelType {
    /// RGBA 5551, 2 bytes per pixel.
    Rgba5551,
    /// RGBA 8888, 4 bytes per pixel.
    Rgba8888,
}

/// Height used when V_VIDEO/Y_SCALE do not give a sensible one.
pub const FALLBACK_HEIGHT: u32 = 240;
/// Largest picture decoded (the VI's registers allow no more in practice).
pub const MAX_DIMENSION: u32 = 1024;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("the VI is blank (VI_CTRL type 0): nothing on screen yet")]
    Blank,
    #[error("VI_CTRL type 1 is reserved")]
    Reserved,
    #[error("VI_WIDTH is {0}: no picture")]
    BadWidth(u32),
    #[error("framebuffer at {origin:#x} ({width}x{height}) lies outside RDRAM ({rdram} bytes)")]
    OutOfRange {
        origin: u32,
        width: u32,
        height: u32,
        rdram: usize,
    },
}

impl ViRegs {
    pub fn pixel_type(&self) -> Result<PixelType, DecodeError> {
        match self.ctrl & 3 {
            0 => Err(DecodeError::Blank),
            1 => Err(DecodeError::Reserved),
            2 => Ok(PixelType::Rgba5551),
            _ => Ok(PixelType::Rgba8888),
        }
    }

    /// Lines of the framebuffer the VI shows: active half-lines / 2, times
    /// Y_SCALE. 240 for the usual NTSC/PAL 320x240 setup.
    pub fn height(&self) -> u32 {
        let start = (self.v_video >> 16) & 0x3FF;
        let end = self.v_video & 0x3FF;
        let scale = self.y_scale & 0xFFF;
        if end <= start || scale == 0 {
            return FALLBACK_HEIGHT;
        }
        let lines = (end - start) / 2;
        let h = lines * scale / 1024;
        if h == 0 || h > MAX_DIMENSION {
            FALLBACK_HEIGHT
        } else {
            h
        }
    }
}

/// A cheap fingerprint of the picture: a hash of the raw framebuffer bytes
/// the VI shows (no decoding), for noticing that the screen changed. A
/// blank VI or a framebuffer outside RDRAM hashes to 0; the address is not
/// part of the hash (double buffers with the same picture hash the same).
pub fn raw_hash(ram: &[u8], vi: &ViRegs) -> u64 {
    let bytes_per_pixel = match vi.pixel_type() {
        Ok(PixelType::Rgba5551) => 2,
        Ok(PixelType::Rgba8888) => 4,
        Err(_) => return 0,
    };
    let width = vi.width & 0xFFF;
    if width == 0 || width > MAX_DIMENSION {
        return 0;
    }
    let start = (vi.origin & 0x00FF_FFFF) as usize & !7;
    let len = (width * vi.height()) as usize * bytes_per_pixel;
    let Some(fb) = ram.get(start..start + len) else {
        return 0;
    };
    // FNV-1a over 64-bit words: byte order does not matter for "changed".
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut words = fb.chunks_exact(8);
    for w in &mut words {
        let v = u64::from_ne_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        h = (h ^ v).wrapping_mul(0x0100_0000_01B3);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3);
    }
    h | 1
}

/// An RGB picture, 3 bytes per pixel, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

impl Image {
    /// The colour at (x, y), or `None` outside the picture.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 3]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        Some([self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]])
    }

    /// Write as an 8-bit RGB PNG, creating parent directories.
    pub fn write_png(&self, path: &Path) -> anyhow::Result<()> {
        use anyhow::Context as _;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("creating directory {}", dir.display()))?;
        }
        let file = File::create(path).with_context(|| format!("creating {}", path.display()))?;
        let mut encoder = png::Encoder::new(BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder
            .write_header()
            .with_context(|| format!("writing {}", path.display()))?;
        writer
            .write_image_data(&self.rgb)
            .with_context(|| format!("writing {}", path.display()))?;
        writer
            .finish()
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(())
    }
}

/// Expand a 5-bit channel to 8 bits (replicating the top bits).
pub fn expand5(c: u16) -> u8 {
    let c = (c & 31) as u8;
    (c << 3) | (c >> 2)
}

/// RGB of an RGBA5551 pixel.
pub fn rgba5551_to_rgb(p: u16) -> [u8; 3] {
    [expand5(p >> 11), expand5(p >> 6), expand5(p >> 1)]
}

/// Decode the framebuffer the VI points at.
pub fn decode(ram: &[u8], vi: &ViRegs) -> Result<Image, DecodeError> {
    let kind = vi.pixel_type()?;
    let width = vi.width & 0xFFF;
    if width == 0 || width > MAX_DIMENSION {
        return Err(DecodeError::BadWidth(width));
    }
    let height = vi.height();
    let origin = vi.origin & 0x00FF_FFFF;
    let bpp: usize = match kind {
        PixelType::Rgba5551 => 2,
        PixelType::Rgba8888 => 4,
    };
    let start = origin as usize & !(bpp - 1);
    let len = width as usize * height as usize * bpp;
    if start.checked_add(len).is_none_or(|end| end > ram.len()) {
        return Err(DecodeError::OutOfRange {
            origin,
            width,
            height,
            rdram: ram.len(),
        });
    }
    let mut rgb = Vec::with_capacity(width as usize * height as usize * 3);
    for i in 0..(width as usize * height as usize) {
        let a = start + i * bpp;
        match kind {
            PixelType::Rgba5551 => {
                let h = a ^ 2;
                let p = u16::from_ne_bytes([ram[h], ram[h + 1]]);
                rgb.extend_from_slice(&rgba5551_to_rgb(p));
            }
            PixelType::Rgba8888 => {
                let w = u32::from_ne_bytes([ram[a], ram[a + 1], ram[a + 2], ram[a + 3]]);
                rgb.extend_from_slice(&[(w >> 24) as u8, (w >> 16) as u8, (w >> 8) as u8]);
            }
        }
    }
    Ok(Image { width, height, rgb })
}

/// The u32 at an N64 address (KSEG0/KSEG1 or physical), if it is in RDRAM
/// and 4-byte aligned.
pub fn read_u32(ram: &[u8], addr: u32) -> Option<u32> {
    let phys = (addr & 0x1FFF_FFFF) as usize;
    if phys % 4 != 0 {
        return None;
    }
    let b = ram.get(phys..phys.checked_add(4)?)?;
    Some(u32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
}

/// Whether two colours match within `tolerance` per channel.
pub fn colour_matches(got: [u8; 3], want: [u8; 3], tolerance: u8) -> bool {
    got.iter()
        .zip(want.iter())
        .all(|(g, w)| g.abs_diff(*w) <= tolerance)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RDRAM in mupen64plus's layout, written through N64 (big-endian) byte
    /// addresses.
    struct Ram(Vec<u8>);

    impl Ram {
        fn new(size: usize) -> Self {
            Ram(vec![0; size])
        }
        fn write_be(&mut self, addr: usize, bytes: &[u8]) {
            for (i, b) in bytes.iter().enumerate() {
                self.0[(addr + i) ^ 3] = *b;
            }
        }
    }

    fn ntsc(ctrl: u32, origin: u32, width: u32) -> ViRegs {
        ViRegs {
            ctrl,
            origin,
            width,
            h_video: 0x006C_02EC,
            v_video: 0x0023_0203,
            x_scale: 0x200,
            y_scale: 0x400,
        }
    }

    #[test]
    fn byte_swizzle_is_xor3() {
        let mut ram = Ram::new(16);
        ram.write_be(0, &[0x11, 0x22, 0x33, 0x44]);
        // Host little-endian: the word reads back as the N64 big-endian value.
        assert_eq!(read_u32(&ram.0, 0x8000_0000), Some(0x1122_3344));
        assert_eq!(read_u32(&ram.0, 0xA000_0000), Some(0x1122_3344));
        assert_eq!(ram.0[3], 0x11);
        assert_eq!(read_u32(&ram.0, 2), None);
        assert_eq!(read_u32(&ram.0, 16), None);
        assert_eq!(read_u32(&ram.0, 0xFFFF_FFFC), None);
    }

    #[test]
    fn decodes_rgba5551_with_swizzle() {
        let origin = 0x100;
        let width = 4;
        let vi = ntsc(0x3202, 0xA000_0000 | origin as u32, width);
        assert_eq!(vi.height(), 240);
        let mut ram = Ram::new(origin + 4 * 240 * 2 + 64);
        // Pixel 0 red, 1 green, 2 blue, 3 grey (160,160,160 -> 20 in 5 bits),
        // each as big-endian halfwords at consecutive N64 addresses.
        let px: [u16; 4] = [
            0xF801,
            0x07C1,
            0x003F,
            (20 << 11) | (20 << 6) | (20 << 1) | 1,
        ];
        for (i, p) in px.iter().enumerate() {
            ram.write_be(origin + i * 2, &p.to_be_bytes());
        }
        // Last pixel of the picture: (3, 239).
        ram.write_be(origin + (239 * 4 + 3) * 2, &0xFFFFu16.to_be_bytes());
        let img = decode(&ram.0, &vi).unwrap();
        assert_eq!((img.width, img.height), (4, 240));
        assert_eq!(img.pixel(0, 0), Some([255, 0, 0]));
        assert_eq!(img.pixel(1, 0), Some([0, 255, 0]));
        assert_eq!(img.pixel(2, 0), Some([0, 0, 255]));
        assert_eq!(img.pixel(3, 0), Some([165, 165, 165]));
        assert!(colour_matches(img.pixel(3, 0).unwrap(), [160, 160, 160], 8));
        assert_eq!(img.pixel(3, 239), Some([255, 255, 255]));
        assert_eq!(img.pixel(0, 1), Some([0, 0, 0]));
        assert_eq!(img.pixel(4, 0), None);
        assert_eq!(img.pixel(0, 240), None);
    }

    #[test]
    fn decodes_rgba8888() {
        let origin = 0x200;
        let vi = ntsc(0x3203, origin as u32, 2);
        let mut ram = Ram::new(origin + 2 * 240 * 4);
        ram.write_be(origin, &[0x12, 0x34, 0x56, 0xFF, 0xAB, 0xCD, 0xEF, 0x00]);
        let img = decode(&ram.0, &vi).unwrap();
        assert_eq!(img.pixel(0, 0), Some([0x12, 0x34, 0x56]));
        assert_eq!(img.pixel(1, 0), Some([0xAB, 0xCD, 0xEF]));
    }

    #[test]
    fn rejects_bad_vi_state() {
        let ram = Ram::new(1024).0;
        assert_eq!(
            decode(&ram, &ntsc(0, 0, 320)).unwrap_err(),
            DecodeError::Blank
        );
        assert_eq!(
            decode(&ram, &ntsc(1, 0, 320)).unwrap_err(),
            DecodeError::Reserved
        );
        assert_eq!(
            decode(&ram, &ntsc(2, 0, 0)).unwrap_err(),
            DecodeError::BadWidth(0)
        );
        assert!(matches!(
            decode(&ram, &ntsc(2, 0, 320)).unwrap_err(),
            DecodeError::OutOfRange { .. }
        ));
        assert!(matches!(
            decode(&ram, &ntsc(2, 0x00FF_FFFE, 320)).unwrap_err(),
            DecodeError::OutOfRange { .. }
        ));
    }

    #[test]
    fn height_from_vi_timing() {
        let mut vi = ntsc(2, 0, 320);
        assert_eq!(vi.height(), 240);
        // PAL 288 lines: V_VIDEO 0x005F..0x239.
        vi.v_video = 0x005F_0239;
        assert_eq!(vi.height(), 237);
        vi.y_scale = 0x800;
        assert_eq!(vi.height(), 474);
        vi.v_video = 0;
        assert_eq!(vi.height(), FALLBACK_HEIGHT);
    }

    #[test]
    fn png_round_trip() {
        let img = Image {
            width: 2,
            height: 1,
            rgb: vec![1, 2, 3, 250, 251, 252],
        };
        let dir = std::env::temp_dir().join(format!("n64-harness-png-{}", std::process::id()));
        let path = dir.join("sub").join("x.png");
        img.write_png(&path).unwrap();
        let decoder = png::Decoder::new(File::open(&path).unwrap());
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (2, 1));
        assert_eq!(&buf[..info.buffer_size()], &img.rgb[..]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn raw_hash_sees_content_not_address() {
        let mut ram = Ram::new(0x80000);
        let vi = ntsc(2, 0x10000, 320);
        let blank = raw_hash(&ram.0, &vi);
        assert_ne!(blank, 0);
        ram.write_be(0x10000 + 2 * (320 * 100 + 5), &[0x12, 0x34]);
        let changed = raw_hash(&ram.0, &vi);
        assert_ne!(changed, blank);
        // The same picture in another buffer hashes the same.
        let other = ntsc(2, 0x40000, 320);
        ram.write_be(0x40000 + 2 * (320 * 100 + 5), &[0x12, 0x34]);
        assert_eq!(raw_hash(&ram.0, &other), changed);
        // Blank VI, or a buffer outside RDRAM: 0.
        assert_eq!(raw_hash(&ram.0, &ntsc(0, 0x10000, 320)), 0);
        assert_eq!(raw_hash(&ram.0, &ntsc(2, 0x7F000, 320)), 0);
    }

    #[test]
    fn tolerance() {
        assert!(colour_matches([0, 206, 0], [0, 200, 0], 8));
        assert!(!colour_matches([0, 206, 0], [0, 200, 0], 5));
        assert!(!colour_matches([66, 66, 66], [160, 160, 160], 8));
    }
}
