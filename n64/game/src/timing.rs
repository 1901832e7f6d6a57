//! The game's delays, and its clock: display frames since power on.
//!
//! The clock counts the frames the display really showed (the ROM passes
//! the vertical interrupts since the last update), not updates: a delay
//! counts the frames of the updates it runs in ([`Clock::step`]), so it
//! keeps its wall-clock length when an update misses a vsync.

use crate::refresh::Refresh;

/// Idle time on the title screen (no input) before the attract mode starts.
pub const ATTRACT_AFTER_MS: u32 = 10_000;
/// How long the computer visibly "thinks" before it searches.
pub const THINK_MS: u32 = 333;
/// The same in the attract mode and computer-vs-computer games.
pub const THINK_CVC_MS: u32 = 667;
/// How long the result is shown before A/B are accepted.
pub const RESULT_HOLD_MS: u32 = 500;
/// How long an attract game's result stays up before the title returns.
pub const ATTRACT_RESULT_MS: u32 = 3_000;
/// Frame rate the title and cursor animations were designed at: they run
/// on [`Clock::anim_frame`], a clock of this rate.
const ANIM_HZ: u64 = 60;

/// The game's delays in frames of the display's rate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FrameTimings {
    /// [`ATTRACT_AFTER_MS`].
    pub attract_after: u32,
    /// [`THINK_MS`] (at least 2: the frame before the search shows the pause).
    pub think: u32,
    /// [`THINK_CVC_MS`] (at least 2).
    pub think_cvc: u32,
    /// [`RESULT_HOLD_MS`].
    pub result_hold: u32,
    /// [`ATTRACT_RESULT_MS`].
    pub attract_result: u32,
}

impl FrameTimings {
    /// The delays at `refresh`.
    pub const fn new(refresh: Refresh) -> FrameTimings {
        let think = refresh.frames(THINK_MS);
        let think_cvc = refresh.frames(THINK_CVC_MS);
        FrameTimings {
            attract_after: refresh.frames(ATTRACT_AFTER_MS),
            think: if think < 2 { 2 } else { think },
            think_cvc: if think_cvc < 2 { 2 } else { think_cvc },
            result_hold: refresh.frames(RESULT_HOLD_MS),
            attract_result: refresh.frames(ATTRACT_RESULT_MS),
        }
    }
}

/// Display frames since power on, at a known rate.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Clock {
    frame: u64,
    /// Frames since the update before this one.
    step: u32,
    refresh: Refresh,
    timings: FrameTimings,
}

impl Clock {
    /// Frame 0 at `refresh`.
    pub(crate) const fn new(refresh: Refresh) -> Clock {
        Clock {
            frame: 0,
            step: 1,
            refresh,
            timings: FrameTimings::new(refresh),
        }
    }

    /// `frames` more frames (at least one: every update is a new frame).
    pub(crate) fn advance(&mut self, frames: u32) {
        self.step = frames.max(1);
        self.frame = self.frame.saturating_add(u64::from(self.step));
    }

    /// Frames this update stands for (since the last one).
    pub(crate) fn step(&self) -> u32 {
        self.step
    }

    /// Frames since power on.
    pub(crate) fn frame(&self) -> u64 {
        self.frame
    }

    /// The display's frame rate.
    pub(crate) fn refresh(&self) -> Refresh {
        self.refresh
    }

    /// The delays in frames at this rate.
    pub(crate) fn timings(&self) -> &FrameTimings {
        &self.timings
    }

    /// Frames of a 60 Hz display since power on, so animations run at the
    /// same speed at any refresh rate.
    pub(crate) fn anim_frame(&self) -> u64 {
        self.refresh.millis(self.frame).saturating_mul(ANIM_HZ) / 1000
    }
}
