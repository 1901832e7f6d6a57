//! The audio a run played (from the audio plugin), and its measures:
//! loudness and pitch.
//!
//! The core reports samples once the emulated Audio Interface has played
//! them (at the end of each DMA, or when the ROM reads AI_LEN), so a buffer
//! of N samples reported during frame F played during the N / (rate /
//! refresh) frames up to F; windows pick samples by that estimated time.

use m64p_abi::side::dac_clock;

/// `pitch` counts sign changes among samples at least this loud, so quiet
/// fades and silence between notes do not count.
pub const PITCH_LEVEL: i32 = 256;
/// `pitch` needs this much loud sound (milliseconds).
pub const PITCH_MIN_MS: usize = 10;

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
    pub fn per_frame(&self) -> Option<f64> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_kept_without_audio_checks() {
        let mut c = Capture::default();
        c.push(1, &[1, 2, 3, 4]);
        assert_eq!(c.total, 2);
        assert!(c.samples.is_empty() && c.chunks.is_empty());
    }
}
