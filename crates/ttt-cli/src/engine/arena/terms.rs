//! The terms both kinds of contestant play under: the clock of a match and
//! the forfeit that ends a game. Built-in players and external engines
//! (`player.rs`, `external.rs`) both use them, so they live apart from
//! either.
use std::time::Duration;

use ttt_core::ai::time::move_times;

/// The time rules of a match.
#[derive(Clone, Copy, Debug, Default)]
pub struct TimeControl {
    /// Time per move (INFO timeout_turn); `None`: no limit.
    pub turn: Option<Duration>,
    /// Each side's time for a whole game (INFO timeout_match); `None`: no limit.
    pub game: Option<Duration>,
    /// How late a move may be before it is a forfeit.
    pub grace: Duration,
}

impl TimeControl {
    /// How long a built-in player's next move may take and how long it
    /// aims for, `used` spent so far in the game: the turn time, or a share
    /// of what is left of the game time ([`move_times`], as the Gomocup
    /// brain shares its clock).
    pub fn move_times(&self, used: Duration) -> (Option<Duration>, Option<Duration>) {
        move_times(self.turn, self.game.map(|g| g.saturating_sub(used)))
    }

    /// The longest the next move may take before it loses, `used` spent so
    /// far: the turn time plus the grace, and at most what is left of the
    /// game time plus the grace. The grace is given once per game on the
    /// game time, not once per move: a side that has used its game time
    /// cannot go on taking up to the grace for every further move.
    pub fn allowance(&self, used: Duration) -> Option<Duration> {
        let turn = self.turn.map(|t| t + self.grace);
        let game = self.game.map(|g| (g + self.grace).saturating_sub(used));
        match (turn, game) {
            (Some(t), Some(g)) => Some(t.min(g)),
            (t, g) => t.or(g),
        }
    }

    /// Which limit a move that took `took`, `used` spent before it,
    /// passes; `None` if it was in time.
    pub fn overstep(&self, used: Duration, took: Duration) -> Option<Overstep> {
        if self.turn.is_some_and(|turn| took > turn + self.grace) {
            return Some(Overstep::Turn);
        }
        if self
            .game
            .is_some_and(|game| used + took > game + self.grace)
        {
            return Some(Overstep::Game { total: used + took });
        }
        None
    }

    /// Why a move that passes a limit loses, for the message.
    pub fn explain(&self, overstep: Overstep) -> String {
        let ms = |d: Option<Duration>| d.unwrap_or_default().as_millis();
        let grace = self.grace.as_millis();
        match overstep {
            Overstep::Turn => format!("limit {} ms + {grace} ms grace", ms(self.turn)),
            Overstep::Game { total } => format!(
                "the game time is used up: {} ms used of {} ms + {grace} ms grace",
                total.as_millis(),
                ms(self.game)
            ),
        }
    }
}

/// The limit a late move passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overstep {
    /// The time per move plus the grace.
    Turn,
    /// The game time plus the grace, with `total` used in the game.
    Game {
        /// The side's time in the game with this move.
        total: Duration,
    },
}

/// A lost game and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// What went wrong, e.g. "illegal move 7,7: the square holds ...".
    pub message: String,
}

impl Forfeit {
    /// A forfeit with this message (an engine is started afresh after it).
    pub fn new(message: &str) -> Forfeit {
        Forfeit {
            message: message.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_move_takes_the_turn_time_or_a_share_of_what_is_left_of_the_game() {
        let tc = TimeControl {
            turn: Some(ms(1000)),
            game: Some(ms(10_500)),
            grace: ms(100),
        };
        // A seventh of what is left at most, aiming for a 15th.
        assert_eq!(tc.move_times(ms(0)), (Some(ms(1000)), Some(ms(700))));
        assert_eq!(tc.move_times(ms(9450)), (Some(ms(150)), Some(ms(70))));
        assert_eq!(tc.move_times(ms(11_000)), (Some(ms(0)), Some(ms(0))));
        let turn_only = TimeControl { game: None, ..tc };
        assert_eq!(turn_only.move_times(ms(9999)), (Some(ms(1000)), None));
        assert_eq!(TimeControl::default().move_times(ms(1)), (None, None));
    }

    #[test]
    fn the_grace_on_the_game_time_is_given_once_per_game() {
        let tc = TimeControl {
            turn: Some(ms(5000)),
            game: Some(ms(500)),
            grace: ms(200),
        };
        assert_eq!(tc.allowance(ms(0)), Some(ms(700)));
        assert_eq!(tc.allowance(ms(600)), Some(ms(100)));
        assert_eq!(tc.allowance(ms(900)), Some(ms(0)));
        assert_eq!(tc.overstep(ms(600), ms(100)), None);
        let late = tc.overstep(ms(600), ms(150)).unwrap();
        assert_eq!(late, Overstep::Game { total: ms(750) });
        assert!(tc
            .explain(late)
            .contains("750 ms used of 500 ms + 200 ms grace"));
        let turn_only = TimeControl { game: None, ..tc };
        assert_eq!(turn_only.overstep(ms(0), ms(5201)), Some(Overstep::Turn));
        assert_eq!(
            turn_only.explain(Overstep::Turn),
            "limit 5000 ms + 200 ms grace"
        );
        assert_eq!(TimeControl::default().allowance(ms(1)), None);
    }
}
