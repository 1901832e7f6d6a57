//! The sound effects: what the synthesizer produces for each cue, and which
//! cues the game plays at which events.
mod common;

use common::*;
use ttt64_game::sound::{ATTACK_MS, RELEASE_MS, SAMPLE_RATE};
use ttt64_game::{Buttons, Cue, MenuItem, Screen, Synth};
use ttt_core::Mark;

const RATE: u32 = SAMPLE_RATE;

/// Renders `cue` alone until the synth falls silent (at most 2 s).
fn render(cue: Cue) -> Vec<i16> {
    let mut synth = Synth::new(RATE);
    synth.play(cue);
    let mut out = Vec::new();
    while synth.is_active() && out.len() < 2 * RATE as usize {
        out.push(synth.next_sample());
    }
    out
}

/// Frequency from the sign changes of the non-silent samples.
fn pitch_hz(samples: &[i16]) -> f64 {
    let loud: Vec<i16> = samples.iter().copied().filter(|s| s.abs() > 64).collect();
    let crossings = loud.windows(2).filter(|w| (w[0] < 0) != (w[1] < 0)).count();
    crossings as f64 / 2.0 / (loud.len() as f64 / f64::from(RATE))
}

fn peak(samples: &[i16]) -> i32 {
    samples
        .iter()
        .map(|s| i32::from(*s).abs())
        .max()
        .unwrap_or(0)
}

#[test]
fn an_idle_synth_is_silent() {
    let mut synth = Synth::new(RATE);
    let mut out = vec![1i16; 4096];
    synth.fill(&mut out);
    assert!(out.iter().all(|&s| s == 0));
    assert!(!synth.is_active());
}

#[test]
fn every_cue_sounds_for_its_length_then_stops() {
    for cue in Cue::ALL {
        let out = render(cue);
        let len = cue.samples(RATE) as usize;
        assert_eq!(out.len(), len, "{cue:?}");
        assert!(peak(&out) > 3000, "{cue:?} is audible: peak {}", peak(&out));
        // 25 ms to 1.2 s: short effects, nothing that drags on.
        assert!(
            len > RATE as usize / 40 && len < RATE as usize * 6 / 5,
            "{cue:?}: {len}"
        );
    }
}

#[test]
fn cues_fade_in_and_out_without_clicks() {
    let attack = (ATTACK_MS * RATE / 1000) as usize;
    let release = (RELEASE_MS * RATE / 1000) as usize;
    for cue in Cue::ALL {
        let out = render(cue);
        let full = peak(&out);
        // The first and last samples are near zero and grow/shrink gradually.
        assert!(peak(&out[..3]) <= full / 8, "{cue:?} starts with a click");
        assert!(
            peak(&out[out.len() - 3..]) <= full / 8,
            "{cue:?} ends with a click"
        );
        assert!(peak(&out[..attack / 2]) < full * 3 / 4, "{cue:?} attack");
        assert!(
            peak(&out[out.len() - release / 4..]) < full / 2,
            "{cue:?} release"
        );
        // Tone jumps aside, no sample jumps more than twice the peak level
        // (a square wave edge), and never from silence (two zeros in a row:
        // one zero may be a wave crossing it) to full level.
        for w in out.windows(2) {
            let d = (i32::from(w[1]) - i32::from(w[0])).abs();
            assert!(d <= 2 * full + 2, "{cue:?} jump {d}");
        }
        for w in out.windows(3) {
            if w[0] == 0 && w[1] == 0 {
                assert!(
                    i32::from(w[2]).abs() <= full / 4,
                    "{cue:?} jump from silence"
                );
            }
        }
    }
}

#[test]
fn x_is_an_octave_above_o() {
    let x = pitch_hz(&render(Cue::PlaceX));
    let o = pitch_hz(&render(Cue::PlaceO));
    assert!((x - 1319.0).abs() < 1319.0 * 0.03, "X {x:.0} Hz");
    assert!((o - 659.0).abs() < 659.0 * 0.03, "O {o:.0} Hz");
    assert!(x > o * 1.9, "X {x:.0} Hz, O {o:.0} Hz");
}

#[test]
fn win_rises_loss_falls_draw_stays() {
    // Pitch in 30 ms around the middle of each note.
    let notes = |cue: Cue, middles_ms: &[usize]| -> Vec<f64> {
        let out = render(cue);
        let ms = RATE as usize / 1000;
        middles_ms
            .iter()
            .map(|m| pitch_hz(&out[(m - 15) * ms..(m + 15) * ms]))
            .collect()
    };
    let win = notes(Cue::Win, &[60, 180, 300, 520]);
    assert!(win.windows(2).all(|w| w[1] > w[0] * 1.1), "win {win:?}");
    let loss = notes(Cue::Loss, &[80, 240, 400, 670]);
    assert!(loss.windows(2).all(|w| w[1] < w[0] / 1.1), "loss {loss:?}");
    let draw = notes(Cue::Draw, &[85, 300]);
    assert!((draw[1] - draw[0]).abs() < draw[0] * 0.05, "draw {draw:?}");
    // The illegal-move buzz is low.
    assert!(pitch_hz(&render(Cue::Illegal)) < 150.0);
}

#[test]
fn overlapping_cues_are_mixed() {
    let x = render(Cue::PlaceX);
    let o = render(Cue::PlaceO);
    let mut synth = Synth::new(RATE);
    synth.play(Cue::PlaceX);
    synth.play(Cue::PlaceO);
    let mut both = vec![0i16; x.len().max(o.len())];
    synth.fill(&mut both);
    for (i, s) in both.iter().enumerate() {
        let want = i32::from(*x.get(i).unwrap_or(&0)) + i32::from(*o.get(i).unwrap_or(&0));
        assert_eq!(i32::from(*s), want, "sample {i}");
    }
}

#[test]
fn more_cues_than_voices_take_over_the_oldest_after_a_fade() {
    let mut synth = Synth::new(RATE);
    for _ in 0..ttt64_game::sound::VOICES {
        synth.play(Cue::Cursor);
    }
    synth.play(Cue::PlaceX);
    let ms = RATE as usize / 1000;
    let mut out = vec![0i16; 100 * ms];
    synth.fill(&mut out);
    // The first cursor tick fades out (no jump) to make room...
    let fade = &out[..(RELEASE_MS as usize + 1) * ms];
    for w in fade.windows(2) {
        assert!((i32::from(w[1]) - i32::from(w[0])).abs() < 3 * 7_000);
    }
    // ...and once the ticks are over, the X is what is left.
    let x = pitch_hz(&out[40 * ms..95 * ms]);
    assert!((x - 1319.0).abs() < 40.0, "{x:.0} Hz");
    assert!(synth.is_active());
}

#[test]
fn the_same_cues_give_the_same_samples() {
    let run = || {
        let mut synth = Synth::new(RATE);
        let mut out = Vec::new();
        for (i, cue) in Cue::ALL.iter().enumerate() {
            synth.play(*cue);
            let mut buf = vec![0i16; 700 + i * 13];
            synth.fill(&mut buf);
            out.extend(buf);
        }
        out
    };
    assert_eq!(run(), run());
}

// The game's cues.

#[test]
fn a_won_game_plays_place_sounds_and_the_win_jingle() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    assert_eq!(d.host.sounds, [Cue::Confirm]);
    d.set(MenuItem::Computer, "classic");
    assert!(d.host.sounds.contains(&Cue::Cursor));
    d.start();
    assert_eq!(d.host.sounds.last(), Some(&Cue::Confirm));
    d.host.sounds.clear();
    for m in ["a1", "c3", "a3", "a2"] {
        d.wait_turn(Mark::X);
        d.place(0, sq(m));
    }
    let placed: Vec<Cue> = d
        .host
        .sounds
        .iter()
        .copied()
        .filter(|c| *c != Cue::Cursor)
        .collect();
    use Cue::*;
    assert_eq!(
        placed,
        [PlaceX, PlaceO, PlaceX, PlaceO, PlaceX, PlaceO, PlaceX, Win]
    );
    // Each cue is logged right before it plays.
    assert_eq!(d.host.count_prefix("sound place-x"), 4);
    assert_eq!(d.host.count_prefix("sound win"), 1);
    let i = d.host.lines.iter().position(|l| l == "sound win").unwrap();
    assert!(d.host.lines[..i].iter().any(|l| l == "result x-wins"));
}

#[test]
fn losing_illegal_moves_undo_hint_and_pause_have_their_cues() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Computer, "perfect");
    d.start();
    d.wait_turn(Mark::X);
    d.place(0, sq("a2"));
    d.wait_turn(Mark::X);
    // Illegal: the square just taken.
    d.host.sounds.clear();
    d.press(0, Buttons::A);
    assert_eq!(d.host.sounds, [Cue::Illegal]);
    assert!(d.host.has("sound illegal"));
    d.host.sounds.clear();
    d.press(0, Buttons::B);
    assert_eq!(d.host.sounds, [Cue::Undo]);
    d.press(0, Buttons::Z);
    d.idle(2);
    assert_eq!(
        d.host.sounds.last(),
        Some(&Cue::Hint),
        "{:?}",
        d.host.sounds
    );
    d.host.sounds.clear();
    d.press(0, Buttons::START);
    assert_eq!(d.game.screen(), Screen::Pause);
    d.press(0, Buttons::START);
    assert_eq!(d.host.sounds, [Cue::Pause, Cue::Pause]);
    // Play into a loss: edges only against the perfect player.
    for m in ["a2", "c2", "b1", "b3", "a1", "c1", "a3", "c3"] {
        d.wait_turn(Mark::X);
        if d.game.position().outcome().is_over() {
            break;
        }
        if d.game.position().is_legal(sq(m)) {
            d.place(0, sq(m));
        }
    }
    d.wait_screen(Screen::Result, 200);
    assert!(d.host.has("result o-wins") || d.host.has("result draw"));
    let last = d.host.sounds.last().copied();
    if d.host.has("result o-wins") {
        assert_eq!(last, Some(Cue::Loss));
    } else {
        assert_eq!(last, Some(Cue::Draw));
    }
}

#[test]
fn the_attract_mode_is_silent() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.idle(NTSC.frames(ttt64_game::ATTRACT_AFTER_MS) as usize + 400);
    assert!(d.host.has("screen attract"));
    assert!(d.host.count_prefix("attract move ") > 0);
    assert!(d.host.sounds.is_empty(), "{:?}", d.host.sounds);
}

/// `fill` (voice by voice, in runs: what the console uses) gives exactly the
/// samples of `next_sample` one at a time, through overlapping cues, voice
/// take-overs and buffers of every length, at several rates.
#[test]
fn fill_in_runs_equals_sample_by_sample() {
    for rate in [SAMPLE_RATE, 32_006, 22_050, 44_100] {
        let mut runs = Synth::new(rate);
        let mut single = Synth::new(rate);
        let mut state: u32 = 12_345 ^ rate;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        let mut total = 0usize;
        for _ in 0..400 {
            if next() % 8 <= 2 {
                let cue = Cue::ALL[next() as usize % Cue::ALL.len()];
                runs.play(cue);
                single.play(cue);
            }
            let len = next() as usize % 900;
            let mut a = vec![0i16; len];
            runs.fill(&mut a);
            let b: Vec<i16> = (0..len).map(|_| single.next_sample()).collect();
            assert_eq!(a, b, "rate {rate}, after {total} samples");
            assert_eq!(runs.is_active(), single.is_active());
            total += len;
        }
        assert!(total > 100_000);
    }
}
