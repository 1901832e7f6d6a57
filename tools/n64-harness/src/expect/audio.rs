//! `expect audio` lines: the windows of frames they look at, the checks
//! (rate, silence, sound, continuity, pitch) and how each is decided on
//! the captured audio.

use crate::audio::{peak, pitch, Capture};
use std::fmt;

/// `silent`: no sample louder than this (of 32767).
pub const SILENCE_PEAK: i32 = 100;
/// `sound`: at least one sample this loud.
pub const SOUND_PEAK: i32 = 1000;
/// `continuous`: samples for at least this share of the window's frames.
/// Single frames are not checked: a buffer's frames are estimated (see the
/// module docs), which moves a few hundred samples between neighbours.
pub const CONTINUOUS_SHARE: f64 = 0.95;

/// Frames of captured audio an `expect audio` line looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AudioWindow {
    /// `from A to B`: frames `A..=B`.
    Frames { from: u32, to: u32 },
    /// `after [Nth] "text" [+D] for L`: the `L` frames from `D` frames
    /// after the N-th line containing `text` (`D` 0, the 1st unless given,
    /// e.g. `2nd`, `3rd`); `before [Nth] "text" for L`: the `L` frames
    /// before it.
    Line {
        text: String,
        nth: usize,
        before: bool,
        offset: u32,
        len: u32,
    },
}

impl fmt::Display for AudioWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AudioWindow::Frames { from, to } => write!(f, "from {from} to {to}"),
            AudioWindow::Line {
                text,
                nth,
                before,
                offset,
                len,
            } => {
                write!(f, "{}", if *before { "before" } else { "after" })?;
                if *nth != 1 {
                    let suffix = match (nth % 10, nth % 100) {
                        (_, 11..=13) => "th",
                        (1, _) => "st",
                        (2, _) => "nd",
                        (3, _) => "rd",
                        _ => "th",
                    };
                    write!(f, " {nth}{suffix}")?;
                }
                write!(f, " {text:?}")?;
                if *offset != 0 {
                    write!(f, " +{offset}")?;
                }
                write!(f, " for {len}")
            }
        }
    }
}

/// What an `expect audio` line checks.
#[derive(Clone, Debug, PartialEq)]
pub enum AudioCheck {
    /// `rate HZ [within P%]`: the sample rate the ROM programmed (from
    /// AI_DACRATE and the TV standard's clock), within `percent`.
    Rate { hz: u32, percent: f64 },
    /// `silent WINDOW`: no sample louder than the silence level (no
    /// samples at all counts as silent).
    Silent(AudioWindow),
    /// `sound WINDOW`: some sample at least at the sound level.
    Sound(AudioWindow),
    /// `continuous WINDOW`: samples played for at least 95% of the window
    /// (the ROM kept the AI fed).
    Continuous(AudioWindow),
    /// `pitch LO..HI WINDOW`: the zero-crossing frequency of the sound in
    /// the window, in Hz.
    Pitch {
        lo: u32,
        hi: u32,
        window: AudioWindow,
    },
    /// `higher WINDOW than WINDOW`: the first window's pitch is above the
    /// second's.
    Higher { high: AudioWindow, low: AudioWindow },
}

/// An `expect audio` line.
#[derive(Clone, Debug, PartialEq)]
pub struct AudioExpect {
    pub check: AudioCheck,
    pub line: usize,
}

/// The frames of a window (`Err`: its line was not seen).
fn resolve(w: &AudioWindow, lines: &[(u32, String)]) -> Result<(u32, u32), String> {
    match w {
        AudioWindow::Frames { from, to } => Ok((*from, *to)),
        AudioWindow::Line {
            text,
            nth,
            before,
            offset,
            len,
        } => {
            let (f, _) = lines
                .iter()
                .filter(|(_, l)| l.contains(text.as_str()))
                .nth(nth.saturating_sub(1))
                .ok_or_else(|| format!("no line number {nth} containing {text:?}"))?;
            Ok(if *before {
                (f.saturating_sub(*len), f.saturating_sub(1))
            } else {
                let from = f.saturating_add(*offset);
                (from, from.saturating_add(len.saturating_sub(1)))
            })
        }
    }
}

/// The pitch in a window, or why there is none.
fn window_pitch(
    w: &AudioWindow,
    capture: &Capture,
    lines: &[(u32, String)],
) -> Result<(f64, u32, u32), String> {
    let (from, to) = resolve(w, lines)?;
    let rate = capture
        .rate()
        .ok_or("the ROM never set a sample rate (AI_DACRATE)")?;
    let samples = capture.frames(from, to);
    pitch(&samples, rate)
        .map(|hz| (hz, from, to))
        .ok_or_else(|| {
            format!(
                "too little sound in frames {from}..={to} ({} samples, peak {})",
                samples.len(),
                peak(&samples)
            )
        })
}

/// Runs one check: (passed, detail).
pub fn check(c: &AudioCheck, capture: &Capture, lines: &[(u32, String)]) -> (bool, String) {
    let result = match c {
        AudioCheck::Rate { hz, percent } => match capture.rate() {
            Some(rate) => {
                let off = (rate - f64::from(*hz)).abs() / f64::from(*hz) * 100.0;
                let (_, system, dacrate) = capture.rates[capture.rates.len() - 1];
                let tv = match system {
                    m64p_abi::m64p::SYSTEM_PAL => "PAL",
                    m64p_abi::m64p::SYSTEM_MPAL => "MPAL",
                    _ => "NTSC",
                };
                Ok((
                    off <= *percent,
                    format!("{rate:.0} Hz ({tv} clock / (AI_DACRATE {dacrate} + 1)), {off:.2}% off"),
                ))
            }
            None => Err("the ROM never set a sample rate (AI_DACRATE)".to_string()),
        },
        AudioCheck::Silent(w) | AudioCheck::Sound(w) => resolve(w, lines).map(|(from, to)| {
            let samples = capture.frames(from, to);
            let p = peak(&samples);
            let passed = match c {
                AudioCheck::Silent(_) => p <= SILENCE_PEAK,
                _ => p >= SOUND_PEAK,
            };
            (
                passed,
                format!("frames {from}..={to}: {} samples, peak {p}", samples.len()),
            )
        }),
        AudioCheck::Continuous(w) => resolve(w, lines).and_then(|(from, to)| {
            let per_frame = capture
                .per_frame()
                .ok_or("the ROM never set a sample rate (AI_DACRATE)")?;
            let got = capture.frames(from, to).len() as f64;
            let want = f64::from(to - from + 1) * per_frame;
            Ok((
                got >= want * CONTINUOUS_SHARE,
                format!(
                    "frames {from}..={to}: {got} samples, {:.1}% of {want:.0}",
                    got / want * 100.0
                ),
            ))
        }),
        AudioCheck::Pitch { lo, hi, window } => {
            window_pitch(window, capture, lines).map(|(hz, from, to)| {
                (
                    hz >= f64::from(*lo) && hz <= f64::from(*hi),
                    format!("{hz:.0} Hz in frames {from}..={to}"),
                )
            })
        }
        AudioCheck::Higher { high, low } => window_pitch(high, capture, lines).and_then(
            |(a, a_from, a_to)| {
                window_pitch(low, capture, lines).map(|(b, b_from, b_to)| {
                    (
                        a > b,
                        format!("{a:.0} Hz (frames {a_from}..={a_to}) vs {b:.0} Hz (frames {b_from}..={b_to})"),
                    )
                })
            },
        ),
    };
    result.unwrap_or_else(|e| (false, e))
}

/// `expect audio ...` as written.
pub fn describe(c: &AudioCheck) -> String {
    match c {
        AudioCheck::Rate { hz, percent } => format!("expect audio rate {hz} within {percent}%"),
        AudioCheck::Silent(w) => format!("expect audio silent {w}"),
        AudioCheck::Sound(w) => format!("expect audio sound {w}"),
        AudioCheck::Continuous(w) => format!("expect audio continuous {w}"),
        AudioCheck::Pitch { lo, hi, window } => format!("expect audio pitch {lo}..{hi} {window}"),
        AudioCheck::Higher { high, low } => format!("expect audio higher {high} than {low}"),
    }
}
