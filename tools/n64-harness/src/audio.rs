//! The audio a run played (from the audio plugin) and the `expect audio`
//! checks on it.
//!
//! The core reports samples once the emulated Audio Interface has played
//! them (at the end of each DMA, or when the ROM reads AI_LEN), so a buffer
//! of N samples reported during frame F played during the N / (rate /
//! refresh) frames up to F; windows pick samples by that estimated time.

use crate::script::{AudioCheck, AudioWindow};
use m64p_abi::side::dac_clock;

/// `silent`: no sample louder than this (of 32767).
pub const SILENCE_PEAK: i32 = 100;
/// `sound`: at least one sample this loud.
pub const SOUND_PEAK: i32 = 1000;
/// `pitch` counts sign changes among samples at least this loud, so quiet
/// fades and silence between notes do not count.
pub const PITCH_LEVEL: i32 = 256;
/// `pitch` needs this much loud sound (milliseconds).
pub const PITCH_MIN_MS: usize = 10;

/// `continuous`: samples for at least this share of the window's frames.
/// Single frames are not checked: a buffer's frames are estimated (see the
/// module docs), which moves a few hundred samples between neighbours.
pub const CONTINUOUS_SHARE: f64 = 0.95;

/// Everything the audio plugin reported.
#[derive(Clone, Debug, Default)]
pub struct Capture {
    /// Keep the samples (only when the script checks audio: a soak would
    /// collect tens of megabytes).
    pub keep: bool,
    /// `(frame, system type, AI_DACRATE)` of every rate change.
    pub rates: Vec<(u32, i32, u32)>,
    /// The left channel of every sample played, in order (when `keep`).
    pub samples: Vec<i16>,
    /// `(frame, index into samples)` of every buffer (when `keep`).
    pub chunks: Vec<(u32, usize)>,
    /// Stereo samples played in the whole run.
    pub total: u64,
}

impl Capture {
    /// Samples (interleaved left, right) played during `frame`.
    pub fn push(&mut self, frame: u32, stereo: &[i16]) {
        self.total += stereo.len() as u64 / 2;
        if self.keep {
            self.chunks.push((frame, self.samples.len()));
            self.samples
                .extend(stereo.chunks_exact(2).map(|pair| pair[0]));
        }
    }

    /// The sample rate the ROM set last (Hz), from AI_DACRATE and the
    /// clock of the ROM's TV standard.
    pub fn rate(&self) -> Option<f64> {
        let (_, system, dacrate) = *self.rates.last()?;
        Some(f64::from(dac_clock(system)) / (f64::from(dacrate) + 1.0))
    }

    /// Samples per video frame (rate / refresh), if the rate is known.
    fn per_frame(&self) -> Option<f64> {
        let (_, system, _) = *self.rates.last()?;
        let refresh = if system == m64p_abi::m64p::SYSTEM_PAL {
            50.0
        } else {
            60.0
        };
        Some(self.rate()? / refresh)
    }

    /// The samples that played during frames `from..=to`: each buffer
    /// ends at the frame it was reported in and goes back one frame per
    /// `rate / refresh` samples (without a known rate: whole buffers by the
    /// frame they were reported in).
    pub fn frames(&self, from: u32, to: u32) -> Vec<i16> {
        let per_frame = self.per_frame();
        let mut out = Vec::new();
        for (i, (frame, start)) in self.chunks.iter().enumerate() {
            let end = self
                .chunks
                .get(i + 1)
                .map_or(self.samples.len(), |(_, next)| *next);
            let chunk = &self.samples[*start..end];
            let Some(per_frame) = per_frame else {
                if (from..=to).contains(frame) {
                    out.extend_from_slice(chunk);
                }
                continue;
            };
            // Sample k played at `frame + 1 - (len - k) / per_frame` (in
            // frames, the end of frame F being F + 1).
            let len = chunk.len() as f64;
            let first = f64::from(*frame) + 1.0 - len / per_frame;
            if first >= f64::from(to) + 1.0 || f64::from(*frame) + 1.0 <= f64::from(from) {
                continue;
            }
            for (k, s) in chunk.iter().enumerate() {
                let t = first + k as f64 / per_frame;
                if t >= f64::from(from) && t < f64::from(to) + 1.0 {
                    out.push(*s);
                }
            }
        }
        out
    }
}

/// Loudest sample (absolute value).
pub fn peak(samples: &[i16]) -> i32 {
    samples
        .iter()
        .map(|s| i32::from(*s).abs())
        .max()
        .unwrap_or(0)
}

/// Zero-crossing frequency of the loud samples (`None`: too little sound).
pub fn pitch(samples: &[i16], rate: f64) -> Option<f64> {
    let loud: Vec<i16> = samples
        .iter()
        .copied()
        .filter(|s| i32::from(*s).abs() >= PITCH_LEVEL)
        .collect();
    if (loud.len() as f64) < rate * PITCH_MIN_MS as f64 / 1000.0 {
        return None;
    }
    let crossings = loud.windows(2).filter(|w| (w[0] < 0) != (w[1] < 0)).count();
    Some(crossings as f64 / 2.0 / (loud.len() as f64 / rate))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Script;

    /// A square wave of `hz` at 32 kHz for `n` samples, stereo.
    fn tone(hz: u32, n: usize, level: i16) -> Vec<i16> {
        (0..n)
            .flat_map(|i| {
                let v = if (i as u32 * hz * 2 / 32_000) % 2 == 0 {
                    level
                } else {
                    -level
                };
                [v, v]
            })
            .collect()
    }

    fn capture() -> Capture {
        let mut c = Capture {
            keep: true,
            ..Capture::default()
        };
        // 32,006 Hz on NTSC.
        c.rates.push((0, m64p_abi::m64p::SYSTEM_NTSC, 1520));
        for frame in 1..=10 {
            c.push(frame, &vec![0; 1066]);
        }
        // One buffer covering frames 11..=16, reported at its end.
        let mut x = Vec::new();
        for _ in 11..=16 {
            x.extend(tone(1320, 533, 5000));
        }
        c.push(16, &x);
        for frame in 17..=22 {
            c.push(frame, &tone(660, 533, 5000));
        }
        c
    }

    fn run(src: &str, lines: &[(u32, &str)]) -> Vec<(bool, String)> {
        let script = Script::parse(src).unwrap();
        let lines: Vec<(u32, String)> = lines.iter().map(|(f, l)| (*f, l.to_string())).collect();
        let c = capture();
        script
            .audio
            .iter()
            .map(|a| check(&a.check, &c, &lines))
            .collect()
    }

    #[test]
    fn rate_silence_sound_and_pitch() {
        let lines = [(10, "sound place-x"), (16, "sound place-o")];
        let r = run(
            r#"expect audio rate 32000
expect audio rate 31000 within 2%
expect audio silent from 1 to 10
expect audio silent from 5 to 11
expect audio sound after "sound place-x" +1 for 3
expect audio sound from 1 to 10
expect audio pitch 1250..1400 after "sound place-x" +1 for 6
expect audio pitch 600..700 after "sound place-o" +1 for 6
expect audio higher after "sound place-x" for 6 than after "sound place-o" for 6
expect audio higher after "sound place-o" for 6 than after "sound place-x" for 6
expect audio pitch 1..2 from 1 to 10
expect audio silent before "sound place-x" for 9
expect audio silent after "sound win" for 9
expect audio silent from 100 to 200
expect audio continuous from 1 to 22
expect audio continuous from 1 to 26
"#,
            &lines,
        );
        let passed: Vec<bool> = r.iter().map(|x| x.0).collect();
        assert_eq!(
            passed,
            [
                true, false, true, false, true, false, true, true, true, false, false, true, false,
                true, true, false
            ],
            "{r:#?}"
        );
        assert!(r[0].1.starts_with("32006 Hz (NTSC"), "{}", r[0].1);
        assert!(r[10].1.contains("too little sound"), "{}", r[10].1);
        assert!(r[12].1.contains("no line number 1"), "{}", r[12].1);
        assert!(r[13].1.contains("0 samples"), "{}", r[13].1);
    }

    #[test]
    fn nothing_kept_without_audio_checks() {
        let mut c = Capture::default();
        c.push(1, &[1, 2, 3, 4]);
        assert_eq!(c.total, 2);
        assert!(c.samples.is_empty() && c.chunks.is_empty());
    }

    #[test]
    fn windows_parse_and_print_as_written() {
        for line in [
            "expect audio rate 32000 within 0.5%",
            "expect audio silent from 1 to 55",
            "expect audio continuous after \"sound x\" +2 for 60",
            "expect audio sound after \"sound win\" +34 for 10",
            "expect audio silent before 2nd \"ai hard\" for 20",
            "expect audio pitch 80..120 after 3rd \"sound illegal\" +1 for 16",
            "expect audio higher after \"a\" for 8 than before 11th \"b\" for 8",
        ] {
            let script = Script::parse(line).unwrap();
            assert_eq!(describe(&script.audio[0].check), line);
        }
        for bad in [
            "expect audio pitch 120..80 from 1 to 2",
            "expect audio silent before \"x\" +3 for 2",
            "expect audio sound after 0th \"x\" for 2",
            "expect audio sound after \"x\" for 0",
            "expect audio loud from 1 to 2",
            "expect audio rate 32000 within 5",
            "expect audio higher from 1 to 2",
        ] {
            assert!(Script::parse(bad).is_err(), "{bad}");
        }
        // A frame window counts towards the run length.
        let script = Script::parse("expect audio silent from 10 to 400").unwrap();
        assert_eq!(script.length(), Some(400));
    }
}
