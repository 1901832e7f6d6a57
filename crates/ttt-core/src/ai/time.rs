//! Time management: how long a move may take under a game clock, and when
//! a search that has a settled move should stop before its deadline.
//!
//! `no_std` has no clock: callers measure time with their own and pass
//! durations in. The search hears each completed iteration through
//! [`Budget::iteration_done`](super::Budget::iteration_done); a caller
//! with a clock answers it with [`aim_reached`].
use core::time::Duration;

use super::strong::Iteration;
#[cfg(test)]
use super::strong::Line;

/// Under a game clock, a move takes at most this share of what is left
/// (1/7: a long think in a crisis leaves enough for the rest).
pub const CLOCK_MOST: u32 = 7;
/// Under a game clock, a move aims for this share of what is left (the
/// early stop of a settled move keeps the rest for later moves).
pub const CLOCK_AIM: u32 = 15;

/// How long a move may take and how long it should aim for (see
/// [`aim_reached`]), given the turn limit and what is left of the game
/// clock (`None`: no such limit). Without a clock, the turn limit and no
/// aim: the search runs to the limit. With one, at most
/// 1/[`CLOCK_MOST`] of what is left, aiming for 1/[`CLOCK_AIM`] (both
/// within the turn limit).
pub fn move_times(
    turn: Option<Duration>,
    left: Option<Duration>,
) -> (Option<Duration>, Option<Duration>) {
    let Some(left) = left else {
        return (turn, None);
    };
    let within = |d: Duration| Some(turn.map_or(d, |t| t.min(d)));
    (within(left / CLOCK_MOST), within(left / CLOCK_AIM))
}

/// Whether a search that began `elapsed` ago and aims to move `aim` after
/// it began should stop after the iteration `it`. A settled move (the same
/// for three iterations) stops at 60% of the aim: the next iteration
/// costs about as much as all before it, so it would end past the aim. A
/// move that just changed, or a value that fell by a quarter of an open
/// three or more, gets up to 1.5 times the aim (both: 2.25 times), the
/// deadline still the hard limit.
pub fn aim_reached(it: &Iteration, elapsed: Duration, aim: Duration) -> bool {
    let mut share = match it.stable {
        0 | 1 => 1.5,
        2 => 1.0,
        _ => 0.6,
    };
    if it.drop >= 250 {
        share *= 1.5;
    }
    elapsed.as_secs_f64() >= aim.as_secs_f64() * share
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_clock_is_shared_out_and_a_turn_limit_is_used_whole() {
        let ms = Duration::from_millis;
        // A turn limit alone: all of it, no aim.
        assert_eq!(move_times(Some(ms(1000)), None), (Some(ms(1000)), None));
        assert_eq!(move_times(None, None), (None, None));
        // A clock: at most a seventh of what is left, aiming for a 15th.
        assert_eq!(
            move_times(None, Some(ms(105_000))),
            (Some(ms(15_000)), Some(ms(7_000)))
        );
        // Both: the turn limit caps both.
        assert_eq!(
            move_times(Some(ms(10_000)), Some(ms(105_000))),
            (Some(ms(10_000)), Some(ms(7_000)))
        );
        assert_eq!(
            move_times(Some(ms(1_000)), Some(ms(105_000))),
            (Some(ms(1_000)), Some(ms(1_000)))
        );
    }

    #[test]
    fn a_settled_move_stops_early_and_a_changing_one_runs_on() {
        let it = |stable, drop| Iteration {
            depth: 6,
            value: 0,
            stable,
            drop,
            nodes: 0,
            seldepth: 0,
            pv: Line::EMPTY,
            logit: None,
        };
        let ms = Duration::from_millis;
        let aim = ms(1000);
        // Settled for three iterations: 60% of the aim is enough.
        assert!(!aim_reached(&it(3, 0), ms(550), aim));
        assert!(aim_reached(&it(3, 0), ms(650), aim));
        // Two: the aim itself.
        assert!(!aim_reached(&it(2, 0), ms(950), aim));
        assert!(aim_reached(&it(2, 0), ms(1000), aim));
        // Just changed: half as much again; with a falling value, more.
        assert!(!aim_reached(&it(1, 0), ms(1400), aim));
        assert!(aim_reached(&it(1, 0), ms(1500), aim));
        assert!(!aim_reached(&it(1, 400), ms(2200), aim));
        assert!(aim_reached(&it(1, 400), ms(2300), aim));
        // A small wobble of the value changes nothing.
        assert!(aim_reached(&it(3, 100), ms(650), aim));
    }
}
