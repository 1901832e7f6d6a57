//! `expect` lines: the IS-Viewer text checks, the screen, pixel, rect and
//! RDRAM checks, and `expect audio` with its windows.

use super::model::{Action, Script, DEFAULT_PIXEL_TOLERANCE};
use super::token::{Cursor, Token};
use super::value::{parse_colour, parse_frame, parse_point, parse_size, parse_u32};
use crate::expect::audio::{AudioCheck, AudioExpect, AudioWindow};
use crate::expect::screen::ScreenChanges;
use crate::expect::text::{CountOp, TextExpect};

/// An `expect` line after the word `expect`.
pub(super) fn parse_expect(
    script: &mut Script,
    line: usize,
    t: &mut Cursor<'_>,
) -> Result<(), String> {
    match t.peek() {
            Some(Token::Quoted(_)) => {
                let text = t.quoted()?;
                match t.peek_word() {
                    Some("every") => return parse_every(script, line, text, t),
                    Some("after") => {
                        t.keyword("after")?;
                        let before = t.quoted()?;
                        t.end()?;
                        script.texts.push(TextExpect::Sequence {
                            texts: vec![before, text],
                            line,
                        });
                        return Ok(());
                    }
                    Some(op @ ("=" | "==" | "<=" | ">=")) => {
                        let op = match op {
                            "<=" => CountOp::AtMost,
                            ">=" => CountOp::AtLeast,
                            _ => CountOp::Eq,
                        };
                        t.skip();
                        let w = t.word("a number")?;
                        let n = w.parse().map_err(|_| format!("bad number `{w}`"))?;
                        let (from, by) = from_by_end(t)?;
                        script.texts.push(TextExpect::Value {
                            text,
                            op,
                            n,
                            from,
                            by,
                            line,
                        });
                        return Ok(());
                    }
                    Some("has") => {
                        t.keyword("has")?;
                        t.keyword("bits")?;
                        let mask = parse_u32(&t.word("a bit mask")?)?;
                        let (from, by) = from_by_end(t)?;
                        script.texts.push(TextExpect::Bits {
                            text,
                            mask,
                            from,
                            by,
                            line,
                        });
                        return Ok(());
                    }
                    Some("not") => {
                        t.keyword("not")?;
                        t.keyword("by")?;
                        let by = parse_frame(&t.word("a frame number")?)?;
                        t.end()?;
                        script.texts.push(TextExpect::Absent {
                            text,
                            from: 0,
                            by,
                            line,
                        });
                        return Ok(());
                    }
                    _ => {}
                }
                let (from, by) = from_by_end(t)?;
                script.texts.push(TextExpect::Seen {
                    text,
                    from,
                    by,
                    line,
                });
            }
            Some(Token::Word(w)) if w == "no" => {
                t.keyword("no")?;
                let text = t.quoted()?;
                if t.peek().is_none() {
                    script.texts.push(TextExpect::Never { text, line });
                    return Ok(());
                }
                let (from, by) = from_by_end(t)?;
                script.texts.push(TextExpect::Absent {
                    text,
                    from,
                    by,
                    line,
                });
            }
            Some(Token::Word(w)) if w == "sequence" => {
                t.keyword("sequence")?;
                let mut texts = Vec::new();
                while t.peek().is_some() {
                    texts.push(t.quoted()?);
                }
                if texts.len() < 2 {
                    return Err("`expect sequence` needs at least two \"texts\"".into());
                }
                script.texts.push(TextExpect::Sequence { texts, line });
            }
            Some(Token::Word(w)) if w == "count" => {
                t.keyword("count")?;
                let text = t.quoted()?;
                let op = match t.word("`=`, `>=` or `<=`")?.as_str() {
                    "=" | "==" => CountOp::Eq,
                    ">=" => CountOp::AtLeast,
                    "<=" => CountOp::AtMost,
                    other => return Err(format!("expected `=`, `>=` or `<=`, found `{other}`")),
                };
                let w = t.word("a number of lines")?;
                let n = w
                    .parse()
                    .map_err(|_| format!("bad number of lines `{w}`"))?;
                t.end()?;
                script.texts.push(TextExpect::Count { text, op, n, line });
            }
            Some(Token::Word(w)) if w == "audio" => {
                t.keyword("audio")?;
                let check = parse_audio(t)?;
                script.audio.push(AudioExpect { check, line });
            }
            Some(Token::Word(w)) if w == "screen" => {
                t.keyword("screen")?;
                t.keyword("changes")?;
                let (period, from, to) = parse_every_window(t)?;
                script.screen.push(ScreenChanges {
                    period,
                    from,
                    to,
                    line,
                });
            }
            Some(Token::Word(w))
                if t.second_word() == Some("every") =>
            {
                // `expect heartbeat every 120`: a bare word is the text.
                let text = w.clone();
                t.skip();
                return parse_every(script, line, text, t);
            }
            Some(Token::Word(w)) if w == "pixel" => {
                t.keyword("pixel")?;
                let (x, y) = parse_point(&t.word("a pixel position X,Y")?)?;
                t.keyword("is")?;
                let rgb = parse_colour(&t.word("a colour #rrggbb")?)?;
                let tolerance = parse_within(t)?;
                t.keyword("at")?;
                let frame = parse_frame(&t.word("a frame number")?)?;
                t.end()?;
                script.push(
                    frame,
                    line,
                    Action::ExpectPixel {
                        x,
                        y,
                        rgb,
                        tolerance,
                    },
                );
            }
            Some(Token::Word(w)) if w == "rect" => {
                t.keyword("rect")?;
                let (x, y) = parse_point(&t.word("a corner X,Y")?)?;
                let (w, h) = parse_size(&t.word("a size WxH")?)?;
                let all = match t.word("`is` or `has`")?.as_str() {
                    "is" => true,
                    "has" => false,
                    other => return Err(format!("expected `is` or `has`, found `{other}`")),
                };
                let rgb = parse_colour(&t.word("a colour #rrggbb")?)?;
                let tolerance = parse_within(t)?;
                t.keyword("at")?;
                let frame = parse_frame(&t.word("a frame number")?)?;
                t.end()?;
                script.push(
                    frame,
                    line,
                    Action::ExpectRect {
                        x,
                        y,
                        w,
                        h,
                        all,
                        rgb,
                        tolerance,
                    },
                );
            }
            Some(Token::Word(w)) if w == "u32" => {
                t.keyword("u32")?;
                let addr = parse_u32(&t.word("an address")?)?;
                if addr % 4 != 0 {
                    return Err(format!("address {addr:#x} is not 4-byte aligned"));
                }
                t.keyword("is")?;
                let value = parse_u32(&t.word("a value")?)?;
                t.keyword("at")?;
                let frame = parse_frame(&t.word("a frame number")?)?;
                t.end()?;
                script.push(frame, line, Action::ExpectU32 { addr, value });
            }
            _ => {
                return Err(
                    "expected `\"text\" by F`, `\"text\" <= N by F`, `\"text\" every N`, `\"text\" after \"text\"`, `\"text\" not by F`, `no \"text\"`, `sequence \"a\" \"b\"...`, `count \"text\" = N`, `screen changes every N`, `pixel X,Y is #rrggbb at F`, `rect X,Y WxH is|has #rrggbb at F`, `u32 ADDR is V at F` or `audio ...` after `expect`"
                        .into(),
                )
            }
        }
    Ok(())
}

/// `every N [from A] [to B]` after the text.
fn parse_every(
    script: &mut Script,
    line: usize,
    text: String,
    t: &mut Cursor<'_>,
) -> Result<(), String> {
    let (period, from, to) = parse_every_window(t)?;
    script.texts.push(TextExpect::Every {
        text,
        period,
        from,
        to,
        line,
    });
    Ok(())
}

/// After `expect audio`: `rate HZ [within P%]`, `silent W`, `sound W`,
/// `continuous W`, `pitch LO..HI W`, `higher W than W`.
fn parse_audio(t: &mut Cursor<'_>) -> Result<AudioCheck, String> {
    let check = match t
        .word("`rate`, `silent`, `sound`, `continuous`, `pitch` or `higher`")?
        .as_str()
    {
        "rate" => {
            let w = t.word("a sample rate in Hz")?;
            let hz: u32 = w
                .parse()
                .ok()
                .filter(|hz| *hz > 0)
                .ok_or_else(|| format!("bad sample rate `{w}`"))?;
            let mut percent = 1.0;
            if t.peek_word() == Some("within") {
                t.keyword("within")?;
                let w = t.word("a tolerance like 1%")?;
                percent = w
                    .strip_suffix('%')
                    .and_then(|p| p.parse::<f64>().ok())
                    .filter(|p| (0.0..=100.0).contains(p))
                    .ok_or_else(|| format!("bad tolerance `{w}` (expected e.g. 0.5%)"))?;
            }
            AudioCheck::Rate { hz, percent }
        }
        "silent" => AudioCheck::Silent(parse_audio_window(t)?),
        "sound" => AudioCheck::Sound(parse_audio_window(t)?),
        "continuous" => AudioCheck::Continuous(parse_audio_window(t)?),
        "pitch" => {
            let w = t.word("a frequency range LO..HI in Hz")?;
            let bad = || format!("bad frequency range `{w}` (expected LO..HI, e.g. 1200..1450)");
            let (lo, hi) = w.split_once("..").ok_or_else(bad)?;
            let lo: u32 = lo.parse().map_err(|_| bad())?;
            let hi: u32 = hi.parse().map_err(|_| bad())?;
            if lo > hi {
                return Err(bad());
            }
            AudioCheck::Pitch {
                lo,
                hi,
                window: parse_audio_window(t)?,
            }
        }
        "higher" => {
            let high = parse_audio_window(t)?;
            t.keyword("than")?;
            let low = parse_audio_window(t)?;
            AudioCheck::Higher { high, low }
        }
        other => {
            return Err(format!(
                "unknown audio check `{other}` (expected rate, silent, sound, continuous, pitch or higher)"
            ))
        }
    };
    t.end()?;
    Ok(check)
}

/// `from A to B`, `after [Nth] "text" [+D] for L` or `before [Nth] "text" for L`.
fn parse_audio_window(t: &mut Cursor<'_>) -> Result<AudioWindow, String> {
    match t.word("`from`, `after` or `before`")?.as_str() {
        "from" => {
            let from = parse_frame(&t.word("a frame number")?)?;
            t.keyword("to")?;
            let to = parse_frame(&t.word("a frame number")?)?;
            if to < from {
                return Err(format!("`to {to}` is before `from {from}`"));
            }
            Ok(AudioWindow::Frames { from, to })
        }
        kw @ ("after" | "before") => {
            let before = kw == "before";
            let mut nth = 1;
            if let Some(w) = t.peek_word() {
                nth = parse_ordinal(w)?;
                t.skip();
            }
            let text = t.quoted()?;
            let mut offset = 0;
            if let Some(d) = t.peek_word().and_then(|w| w.strip_prefix('+')) {
                if before {
                    return Err("`before` windows take no `+D` offset".into());
                }
                offset = parse_frame(d)?;
                t.skip();
            }
            t.keyword("for")?;
            let len = parse_frame(&t.word("a number of frames")?)?;
            if len == 0 {
                return Err("an audio window needs at least 1 frame".into());
            }
            Ok(AudioWindow::Line {
                text,
                nth,
                before,
                offset,
                len,
            })
        }
        other => Err(format!(
            "expected a window (`from A to B`, `after \"text\" for N`, `before \"text\" for N`), found `{other}`"
        )),
    }
}

/// `1st`, `2nd`, `3rd`, `4th`...
fn parse_ordinal(w: &str) -> Result<usize, String> {
    let bad = || format!("expected an occurrence like 2nd or a \"quoted text\", found `{w}`");
    let digits = w
        .strip_suffix("st")
        .or_else(|| w.strip_suffix("nd"))
        .or_else(|| w.strip_suffix("rd"))
        .or_else(|| w.strip_suffix("th"))
        .ok_or_else(bad)?;
    digits.parse().ok().filter(|n| *n >= 1).ok_or_else(bad)
}

/// `every N [from A] [to B]`.
fn parse_every_window(t: &mut Cursor<'_>) -> Result<(u32, u32, Option<u32>), String> {
    t.keyword("every")?;
    let period = parse_frame(&t.word("a number of frames")?)?;
    if period == 0 {
        return Err("`every` needs at least 1 frame".into());
    }
    let mut from = 0;
    let mut to = None;
    if t.peek_word() == Some("from") {
        t.keyword("from")?;
        from = parse_frame(&t.word("a frame number")?)?;
    }
    if t.peek_word() == Some("to") {
        t.keyword("to")?;
        let end = parse_frame(&t.word("a frame number")?)?;
        if end <= from {
            return Err(format!("`to {end}` must be after `from {from}`"));
        }
        to = Some(end);
    }
    t.end()?;
    Ok((period, from, to))
}
/// `[from F] by B` ending the line: the frames F (0 if absent) and B.
fn from_by_end(t: &mut Cursor<'_>) -> Result<(u32, u32), String> {
    let mut from = 0;
    if t.peek_word() == Some("from") {
        t.keyword("from")?;
        from = parse_frame(&t.word("a frame number")?)?;
    }
    t.keyword("by")?;
    let by = parse_frame(&t.word("a frame number")?)?;
    t.end()?;
    if from > by {
        return Err(format!("`from {from}` is after `by {by}`"));
    }
    Ok((from, by))
}

/// Optional `within N` (default [`DEFAULT_PIXEL_TOLERANCE`]).
fn parse_within(t: &mut Cursor<'_>) -> Result<u8, String> {
    if t.peek_word() != Some("within") {
        return Ok(DEFAULT_PIXEL_TOLERANCE);
    }
    t.keyword("within")?;
    let w = t.word("a tolerance (0-255)")?;
    w.parse()
        .map_err(|_| format!("bad tolerance `{w}` (expected 0-255)"))
}
