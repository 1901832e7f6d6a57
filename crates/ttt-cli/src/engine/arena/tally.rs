//! The score of a match: results by colour and by player, opening pairs,
//! the Elo estimate, and move times.
use std::time::Duration;

use serde::Serialize;
use ttt_core::Mark;

use super::elo::{self, EloEstimate};
use super::record::Ending;

/// Opening pairs by the -x player's points in the pair.
#[derive(Debug, Default, Serialize, PartialEq, Eq, Clone, Copy)]
pub struct PairScores {
    /// Both games won.
    pub two: u32,
    /// A win and a draw.
    pub one_and_half: u32,
    /// A win and a loss, or two draws.
    pub one: u32,
    /// A draw and a loss.
    pub half: u32,
    /// Both games lost.
    pub zero: u32,
}

impl PairScores {
    pub(super) fn add(&mut self, half_points: u32) {
        match half_points {
            4 => self.two += 1,
            3 => self.one_and_half += 1,
            2 => self.one += 1,
            1 => self.half += 1,
            _ => self.zero += 1,
        }
    }

    pub(super) fn total(&self) -> u32 {
        self.two + self.one_and_half + self.one + self.half + self.zero
    }
}

/// Results of a series of games.
#[derive(Debug, Default, Serialize, PartialEq)]
pub struct Tally {
    /// Games played.
    pub games: u32,
    /// Games won by X.
    pub x_wins: u32,
    /// Games won by O.
    pub o_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games won by the -x player (whatever colour).
    pub first_player_wins: u32,
    /// Games won by the -o player (whatever colour).
    pub second_player_wins: u32,
    /// Games the -x player lost by forfeit.
    pub first_player_forfeits: u32,
    /// Games the -o player lost by forfeit.
    pub second_player_forfeits: u32,
    /// Opening pairs (games 1-2, 3-4, ... when colours swap) by the -x
    /// player's points; `None` when colours do not swap.
    pub pairs: Option<PairScores>,
    /// How long the moves took: only in timed matches (--time,
    /// --game-time or an engine), so that an untimed match's output depends
    /// on the seed alone.
    #[serde(flatten)]
    pub timing: Option<Timing>,
}

/// Move times of a timed match, from the request to the answer (for an
/// engine that answers at once: the protocol client's own overhead).
#[derive(Debug, Default, Serialize, PartialEq, Clone, Copy)]
pub struct Timing {
    /// Mean time per move of the -x player (ms).
    pub first_player_ms_per_move: f64,
    /// Mean time per move of the -o player (ms).
    pub second_player_ms_per_move: f64,
    /// Longest move of the -x player (ms).
    pub first_player_max_ms: f64,
    /// Longest move of the -o player (ms).
    pub second_player_max_ms: f64,
}

impl Tally {
    /// Counts a finished game, `first_mark` the colour of the -x player;
    /// returns the -x player's half points (2: a win, 1: a draw).
    pub(super) fn add(&mut self, ending: &Ending, first_mark: Mark) -> u32 {
        self.games += 1;
        let first_half_points = match ending.winner() {
            Some(winner) => {
                if winner == Mark::X {
                    self.x_wins += 1;
                } else {
                    self.o_wins += 1;
                }
                if winner == first_mark {
                    self.first_player_wins += 1;
                    2
                } else {
                    self.second_player_wins += 1;
                    0
                }
            }
            None => {
                self.draws += 1;
                1
            }
        };
        if let Ending::Forfeit { loser, .. } = ending {
            if *loser == first_mark {
                self.first_player_forfeits += 1;
            } else {
                self.second_player_forfeits += 1;
            }
        }
        first_half_points
    }

    /// The Elo difference (-x minus -o): from pair scores when there are
    /// pairs, else from game scores.
    pub fn elo(&self) -> Option<EloEstimate> {
        match self.pairs {
            Some(p) if p.total() > 0 => elo::estimate(&[
                (1.0, p.two),
                (0.75, p.one_and_half),
                (0.5, p.one),
                (0.25, p.half),
                (0.0, p.zero),
            ]),
            _ => elo::estimate(&[
                (1.0, self.first_player_wins),
                (0.5, self.draws),
                (0.0, self.second_player_wins),
            ]),
        }
    }
}

/// Per-side move timing.
#[derive(Default)]
pub(super) struct MoveTimes {
    total: Duration,
    count: u32,
    pub(super) max: Duration,
}

impl MoveTimes {
    pub(super) fn add(&mut self, took: Duration) {
        self.total += took;
        self.count += 1;
        self.max = self.max.max(took);
    }

    pub(super) fn mean_ms(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.total.as_secs_f64() * 1000.0 / f64::from(self.count)
        }
    }
}
