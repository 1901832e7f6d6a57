//! Real-time behaviour at the refresh rates of the video standards: the
//! game updates once per displayed frame, and a PAL console (50 Hz) must
//! feel like an NTSC one (60 Hz): same auto-repeat, attract mode, thinking
//! pause, result hold and animation speed in wall-clock time.
mod common;

use common::*;
use ttt64_game::{Buttons, InputTracker, MenuItem, RawPort, Refresh, Screen};
use ttt_core::Mark;

/// NTSC and PAL as the ROM reports them (true VI rates) and as round numbers.
const RATES: [Refresh; 4] = [
    Refresh::hz(60),
    Refresh::millihz(59_826),
    Refresh::hz(50),
    Refresh::millihz(49_920),
];

fn ms(refresh: Refresh, frames: u64) -> f64 {
    frames as f64 * 1_000_000.0 / f64::from(refresh.as_millihz())
}

fn frame_ms(refresh: Refresh) -> f64 {
    ms(refresh, 1)
}

/// `got` is `want` milliseconds to within `frames` frames at `refresh`.
fn assert_near(refresh: Refresh, what: &str, got: f64, want: f64, frames: f64) {
    let tolerance = frames * frame_ms(refresh);
    assert!(
        (got - want).abs() <= tolerance,
        "{what} at {} mHz: {got:.1} ms, want {want} ms +- {tolerance:.1}",
        refresh.as_millihz()
    );
}

/// Steps until a new log line starts with `prefix`; the frames it took.
fn frames_until(d: &mut Driver, prefix: &str, max: u64) -> u64 {
    for n in 1..=max {
        let before = d.host.lines.len();
        d.step();
        if d.host.lines[before..].iter().any(|l| l.starts_with(prefix)) {
            return n;
        }
    }
    panic!("no {prefix:?} in {max} frames: {:#?}", d.host.lines);
}

#[test]
fn frames_round_to_the_nearest_and_never_vanish() {
    assert_eq!(Refresh::hz(60).frames(300), 18);
    assert_eq!(Refresh::hz(50).frames(300), 15);
    assert_eq!(Refresh::hz(50).frames(10_000), 500);
    assert_eq!(Refresh::millihz(59_826).frames(10_000), 598);
    assert_eq!(Refresh::hz(60).frames(1), 1);
    assert_eq!(Refresh::hz(60).frames(0), 0);
    assert_eq!(Refresh::hz(50).millis(50), 1000);
    // Out-of-range rates are clamped, not divided by zero.
    assert_eq!(Refresh::hz(0).as_millihz(), 1_000);
    assert_eq!(Refresh::millihz(u32::MAX).frames(u32::MAX), 4_294_967_295);
}

/// Frames at which a held D-pad direction fires, over `held_ms`.
fn repeat_frames(refresh: Refresh, held_ms: u32) -> Vec<u64> {
    let mut tracker = InputTracker::new(refresh);
    let mut raw = [RawPort::default(); 4];
    raw[0].connected = true;
    raw[0].buttons = Buttons::DDOWN;
    (0..u64::from(refresh.frames(held_ms)))
        .filter(|_| {
            tracker.update(&raw).ports[0]
                .repeated
                .contains(Buttons::DDOWN)
        })
        .collect()
}

#[test]
fn auto_repeat_has_the_same_delay_and_rate_at_50_and_60_hz() {
    let mut counts = Vec::new();
    for refresh in RATES {
        let fired = repeat_frames(refresh, 2_000);
        assert_eq!(fired[0], 0, "the press itself fires at once");
        // The first repeat after ~300 ms (the nearest frame).
        assert_near(refresh, "repeat delay", ms(refresh, fired[1]), 300.0, 0.5);
        // Then ~12 per second: the mean interval over the run is ~83 ms
        // (whole frames: 80 ms at 50 Hz, 83.3 ms at 60 Hz).
        let span = ms(refresh, fired[fired.len() - 1] - fired[1]);
        let interval = span / (fired.len() - 2) as f64;
        assert!(
            (interval - 83.0).abs() <= frame_ms(refresh) / 2.0,
            "repeat interval at {} mHz: {interval:.1} ms",
            refresh.as_millihz()
        );
        counts.push(fired.len());
    }
    // Held for two seconds: the same number of steps on every console
    // (1 + 21 or 22 repeats), where counting frames gave 5 fewer at 50 Hz.
    let (min, max) = (counts.iter().min(), counts.iter().max());
    assert!(max.zip(min).is_some_and(|(a, b)| a - b <= 1), "{counts:?}");
}

#[test]
fn attract_mode_starts_after_ten_idle_seconds_at_any_rate() {
    for refresh in RATES {
        let mut d = Driver::with_refresh(FakeHost::new(), 1, refresh);
        let frames = frames_until(&mut d, "screen attract", 2_000);
        assert_eq!(d.game.screen(), Screen::Attract);
        assert_near(refresh, "attract start", ms(refresh, frames), 10_000.0, 1.0);
        // The attract game's result stays up ~3 s, then the title returns.
        frames_until(&mut d, "attract result", 20_000);
        let held = frames_until(&mut d, "screen title", 2_000);
        assert_near(
            refresh,
            "attract result hold",
            ms(refresh, held),
            3_000.0,
            1.0,
        );
    }
}

#[test]
fn thinking_pause_and_result_hold_are_the_same_time_at_50_and_60_hz() {
    for refresh in RATES {
        let mut d = Driver::with_refresh(FakeHost::new(), 1, refresh);
        d.open_menu();
        d.set(MenuItem::Computer, "classic");
        d.start();
        // Each computer move comes ~1/3 s after the player's.
        for m in ["a1", "c3", "a3"] {
            d.wait_turn(Mark::X);
            d.cursor_to(0, sq(m));
            d.raw[0].buttons = Buttons::A;
            let before = d.host.lines.len();
            d.step();
            d.raw[0].buttons = Buttons::NONE;
            assert!(
                d.host.lines[before..]
                    .iter()
                    .any(|l| l.starts_with("move X")),
                "{:#?}",
                d.host.lines
            );
            let think = frames_until(&mut d, "move O", 200);
            assert_near(refresh, "thinking pause", ms(refresh, think), 333.0, 1.0);
        }
        d.wait_turn(Mark::X);
        d.place(0, sq("a2"));
        assert!(d.host.has("result x-wins"), "{:#?}", d.host.lines);
        assert_eq!(d.game.screen(), Screen::Result);
        // A is ignored for ~1/2 s after the result, then starts a new game.
        let mut waited = 0u64;
        loop {
            let before = d.host.lines.len();
            d.press(0, Buttons::A);
            waited += 2;
            if d.host.lines[before..].iter().any(|l| l == "play again") {
                break;
            }
            assert!(waited < 200, "A never accepted: {:#?}", d.host.lines);
        }
        // The accepted press came `waited` frames after the result (presses
        // are two frames apart).
        assert_near(refresh, "result hold", ms(refresh, waited), 500.0, 2.0);
    }
}

#[test]
fn animations_run_at_the_same_speed_at_50_and_60_hz() {
    for refresh in RATES {
        let mut d = Driver::with_refresh(FakeHost::new(), 1, refresh);
        d.idle(refresh.frames(5_000) as usize);
        // Five seconds in: 300 frames of the 60 Hz animation clock.
        let anim = d.game.anim_frame();
        assert!(
            anim.abs_diff(300) <= 1,
            "anim clock at {} mHz after 5 s: {anim}",
            refresh.as_millihz()
        );
    }
}
