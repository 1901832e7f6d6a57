//! The display's frame rate, and real time in frames.
//!
//! The game advances once per displayed frame, so every delay (attract
//! mode, the computer's thinking pause, auto-repeat, animations) is given in
//! milliseconds and converted with the rate of the console's video standard:
//! the same wall-clock behaviour at 60 Hz (NTSC, MPAL) and 50 Hz (PAL).

/// Frames per second of the video output, kept in millihertz (NTSC's
/// progressive 59.826 Hz is not a whole number).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Refresh {
    millihz: u32,
}

impl Refresh {
    /// Slowest rate accepted (1 Hz): keeps every conversion finite.
    const MIN_MILLIHZ: u32 = 1_000;
    /// Fastest rate accepted (1 kHz).
    const MAX_MILLIHZ: u32 = 1_000_000;

    /// A whole number of frames per second (clamped to 1..=1000).
    pub const fn hz(hz: u32) -> Refresh {
        Refresh::millihz(hz.saturating_mul(1000))
    }

    /// Frames per 1000 seconds (clamped to 1 Hz..=1 kHz).
    pub const fn millihz(millihz: u32) -> Refresh {
        let millihz = if millihz < Self::MIN_MILLIHZ {
            Self::MIN_MILLIHZ
        } else if millihz > Self::MAX_MILLIHZ {
            Self::MAX_MILLIHZ
        } else {
            millihz
        };
        Refresh { millihz }
    }

    /// Frames per 1000 seconds.
    pub const fn as_millihz(self) -> u32 {
        self.millihz
    }

    /// The nearest whole number of frames to `ms` milliseconds; at least 1
    /// for any `ms > 0`, so a short delay never vanishes.
    pub const fn frames(self, ms: u32) -> u32 {
        if ms == 0 {
            return 0;
        }
        let frames = (ms as u64 * self.millihz as u64 + 500_000) / 1_000_000;
        if frames == 0 {
            1
        } else if frames > u32::MAX as u64 {
            u32::MAX
        } else {
            frames as u32
        }
    }

    /// Milliseconds that `frames` frames last (rounded down).
    pub const fn millis(self, frames: u64) -> u64 {
        let ms = frames as u128 * 1_000_000 / self.millihz as u128;
        if ms > u64::MAX as u128 {
            u64::MAX
        } else {
            ms as u64
        }
    }
}
