//! The game's delays keep their wall-clock length when the loop misses
//! vsyncs: the ROM passes the frames shown since the last update
//! (`Game::update_frames`, `InputTracker::update_frames`), and the delays
//! run on those, not on updates. Here every second update comes two frames
//! after the last (a pass that missed a vsync), so 2 frames in 3 are seen.
mod common;

use common::*;
use ttt64_game::{Buttons, InputTracker, MenuItem, RawPort, Refresh, Screen, TtEntry};
use ttt_core::Mark;

/// Frames between updates: 1, 2, 1, 2, ...
fn frames_of_update(n: u64) -> u32 {
    if n.is_multiple_of(2) {
        1
    } else {
        2
    }
}

/// A driver whose updates skip frames; counts the frames shown.
struct SkippingClock<'a> {
    d: Driver<'a>,
    updates: u64,
    frames: u64,
}

impl<'a> SkippingClock<'a> {
    fn new(tt: &'a mut [TtEntry], refresh: Refresh) -> Self {
        SkippingClock {
            d: Driver::with_refresh(tt, FakeHost::new(), 1, refresh),
            updates: 0,
            frames: 0,
        }
    }

    fn step(&mut self) {
        let frames = frames_of_update(self.updates);
        let input = self.d.input(frames);
        self.d.game.update_frames(frames, &input, &mut self.d.host);
        self.updates += 1;
        self.frames += u64::from(frames);
    }

    /// Updates until a new log line starts with `prefix`: the frames shown
    /// in the meantime.
    fn frames_until(&mut self, prefix: &str, max_updates: u64) -> u64 {
        let start = self.frames;
        for _ in 0..max_updates {
            let before = self.d.host.lines.len();
            self.step();
            if self.d.host.lines[before..]
                .iter()
                .any(|l| l.starts_with(prefix))
            {
                return self.frames - start;
            }
        }
        panic!(
            "no {prefix:?} in {max_updates} updates: {:#?}",
            self.d.host.lines
        );
    }

    fn press(&mut self, b: Buttons) {
        self.d.raw[0].buttons = b;
        self.step();
        self.d.raw[0].buttons = Buttons::NONE;
        self.step();
    }
}

const NTSC: Refresh = Refresh::hz(60);

/// Milliseconds of `frames` frames at 60 Hz.
fn ms(frames: u64) -> f64 {
    frames as f64 * 1000.0 / 60.0
}

/// `got` frames are `want_ms` to within `tolerance` frames (the
/// updates' spacing: a delay ends on the first update after it).
fn assert_lasts(what: &str, got: u64, want_ms: f64, tolerance: f64) {
    let got_ms = ms(got);
    assert!(
        (got_ms - want_ms).abs() <= ms(1) * tolerance,
        "{what}: {got_ms:.1} ms ({got} frames), want {want_ms} ms"
    );
}

#[test]
fn attract_mode_and_its_result_keep_their_length_when_updates_skip_frames() {
    let mut tt = tt();
    let mut c = SkippingClock::new(&mut tt, NTSC);
    let frames = c.frames_until("screen attract", 2_000);
    assert_eq!(c.d.game.screen(), Screen::Attract);
    // Counting updates would make it 15 s (600 updates of 1.5 frames).
    assert_lasts("attract start", frames, 10_000.0, 2.0);
    c.frames_until("attract result", 20_000);
    let held = c.frames_until("screen title", 2_000);
    assert_lasts("attract result hold", held, 3_000.0, 2.0);
}

#[test]
fn thinking_pause_and_result_hold_keep_their_length_when_updates_skip_frames() {
    let mut tt = tt();
    let mut c = SkippingClock::new(&mut tt, NTSC);
    c.press(Buttons::START);
    assert_eq!(c.d.game.screen(), Screen::Menu);
    // The classic computer (CS102) against X playing a1, c3, a3, a2.
    while c.d.game.menu_selected() != MenuItem::Computer {
        c.press(Buttons::DDOWN);
    }
    while !c.d.host.has("menu computer=classic") {
        c.press(Buttons::DRIGHT);
        assert!(c.updates < 400, "{:#?}", c.d.host.lines);
    }
    c.press(Buttons::START);
    assert_eq!(c.d.game.screen(), Screen::Game);
    for m in ["a1", "c3", "a3", "a2"] {
        while c.d.game.position().side_to_move() != Mark::X {
            c.step();
        }
        while c.d.game.cursor() != sq(m) {
            let (at, to) = (c.d.game.cursor(), sq(m));
            let b = if at.column() < to.column() {
                Buttons::DRIGHT
            } else if at.column() > to.column() {
                Buttons::DLEFT
            } else if at.row() < to.row() {
                Buttons::DDOWN
            } else {
                Buttons::DUP
            };
            c.press(b);
        }
        c.d.raw[0].buttons = Buttons::A;
        c.step();
        c.d.raw[0].buttons = Buttons::NONE;
        if m == "a2" {
            break;
        }
        // The computer's reply comes ~1/3 s (of frames shown) later.
        let think = c.frames_until("move O", 400);
        assert_lasts("thinking pause", think, 333.0, 3.0);
    }
    assert!(c.d.host.has("result x-wins"), "{:#?}", c.d.host.lines);
    assert_eq!(c.d.game.screen(), Screen::Result);
    // A is ignored for ~1/2 s, then starts a new game: hold A down
    // pressed on every other update until it is taken.
    let start = c.frames;
    loop {
        let before = c.d.host.lines.len();
        c.press(Buttons::A);
        if c.d.host.lines[before..].iter().any(|l| l == "play again") {
            break;
        }
        assert!(
            c.updates < 10_000,
            "A never accepted: {:#?}",
            c.d.host.lines
        );
    }
    // The press that was taken came on the update before the last one.
    let waited = c.frames - start - u64::from(frames_of_update(c.updates - 1));
    assert_lasts("result hold", waited, 500.0, 3.0);
}

/// The frames (shown) at which a held D-pad direction fires, over 2 s of
/// frames shown.
fn repeat_frames(frames_of: impl Fn(u64) -> u32) -> Vec<u64> {
    let mut tracker = InputTracker::new(NTSC);
    let mut raw = [RawPort::default(); 4];
    raw[0].connected = true;
    raw[0].buttons = Buttons::DDOWN;
    let mut fired = Vec::new();
    let (mut frame, mut n) = (0u64, 0u64);
    while frame < 120 {
        let step = if n == 0 { 0 } else { frames_of(n) };
        frame += u64::from(step);
        let input = tracker.update_frames(step, &raw);
        if input.ports[0].repeated.contains(Buttons::DDOWN) {
            fired.push(frame);
        }
        n += 1;
    }
    fired
}

#[test]
fn auto_repeat_keeps_its_rate_when_updates_skip_frames() {
    let every = repeat_frames(|_| 1);
    let skipping = repeat_frames(frames_of_update);
    // The press at once; the first repeat ~300 ms later, then ~12 a
    // second: each on the first update at or after its frame.
    assert_eq!(skipping[0], 0);
    assert_lasts("repeat delay", skipping[1], 300.0, 1.0);
    assert_eq!(every.len(), skipping.len(), "{every:?} vs {skipping:?}");
    for (a, b) in every.iter().zip(&skipping) {
        assert!(b >= a && b - a <= 1, "{every:?} vs {skipping:?}");
    }
}

#[test]
fn animations_keep_their_speed_when_updates_skip_frames() {
    let mut tt = tt();
    let mut c = SkippingClock::new(&mut tt, NTSC);
    while c.frames < 300 {
        c.step();
    }
    // Five seconds shown: 300 frames of the 60 Hz animation clock.
    let anim = c.d.game.anim_frame();
    assert!(anim.abs_diff(300) <= 1, "anim clock after 5 s: {anim}");
}
