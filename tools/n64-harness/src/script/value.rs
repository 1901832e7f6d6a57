//! The values inside a script's words: frame numbers, ports, buttons,
//! paks, stick positions, pixel positions and sizes, colours, 32-bit
//! numbers.
//! Each error names the bad word and what was expected.

use super::model::MAX_FRAME;
use super::names::{Button, Pak};

pub(super) fn parse_frame(s: &str) -> Result<u32, String> {
    let n: u32 = s
        .parse()
        .map_err(|_| format!("bad frame number `{s}` (expected 0-{MAX_FRAME})"))?;
    if n > MAX_FRAME {
        return Err(format!("frame {n} is beyond {MAX_FRAME}"));
    }
    Ok(n)
}

pub(super) fn parse_port(s: &str) -> Result<u8, String> {
    match s {
        "1" => Ok(0),
        "2" => Ok(1),
        "3" => Ok(2),
        "4" => Ok(3),
        _ => Err(format!("bad port `{s}` (expected 1, 2, 3 or 4)")),
    }
}

pub(super) fn parse_buttons(s: &str) -> Result<u32, String> {
    let mut mask = 0;
    for name in s.split('+') {
        let b = Button::from_name(name).ok_or_else(|| {
            let names: Vec<_> = Button::ALL.iter().map(|b| b.name()).collect();
            format!("unknown button `{name}` (expected {})", names.join(" "))
        })?;
        mask |= b.mask();
    }
    Ok(mask)
}

pub(super) fn parse_pak(s: &str) -> Result<Pak, String> {
    Pak::from_name(s).ok_or_else(|| {
        let names: Vec<_> = Pak::ALL.iter().map(|p| p.name()).collect();
        format!("unknown pak `{s}` (expected {})", names.join(" or "))
    })
}

pub(super) fn parse_axis(s: &str) -> Result<i8, String> {
    s.parse()
        .map_err(|_| format!("bad stick value `{s}` (expected -128..127)"))
}

pub(super) fn parse_point(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("bad pixel position `{s}` (expected X,Y like 56,202)");
    let (x, y) = s.split_once(',').ok_or_else(bad)?;
    let x = x.parse().map_err(|_| bad())?;
    let y = y.parse().map_err(|_| bad())?;
    Ok((x, y))
}

pub(super) fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("bad size `{s}` (expected WxH like 48x24, at least 1x1)");
    let (w, h) = s.split_once('x').ok_or_else(bad)?;
    let w: u32 = w.parse().map_err(|_| bad())?;
    let h: u32 = h.parse().map_err(|_| bad())?;
    if w == 0 || h == 0 || w > 4096 || h > 4096 {
        return Err(bad());
    }
    Ok((w, h))
}

pub(super) fn parse_colour(s: &str) -> Result<[u8; 3], String> {
    let bad = || format!("bad colour `{s}` (expected #rrggbb)");
    let hex = s.strip_prefix('#').ok_or_else(bad)?;
    if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let v = u32::from_str_radix(hex, 16).map_err(|_| bad())?;
    Ok([(v >> 16) as u8, (v >> 8) as u8, v as u8])
}

/// Decimal or `0x` hexadecimal (underscores allowed), at most 32 bits.
pub(super) fn parse_u32(s: &str) -> Result<u32, String> {
    let bad = || format!("bad number `{s}` (expected decimal or 0x hex, 32 bits)");
    let clean: String = s.chars().filter(|&c| c != '_').collect();
    if let Some(hex) = clean
        .strip_prefix("0x")
        .or_else(|| clean.strip_prefix("0X"))
    {
        u32::from_str_radix(hex, 16).map_err(|_| bad())
    } else {
        clean.parse().map_err(|_| bad())
    }
}
