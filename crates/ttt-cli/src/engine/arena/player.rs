//! The two sides of a match: a built-in player or an external engine, with
//! the same clock and the same forfeit rules for both.
use std::time::{Duration, Instant};

use ttt_core::{Position, Rules, Square};

use super::external::{ExternalEngine, MoveError};
use super::terms::{Forfeit, TimeControl};
use crate::ai::{PlayerKind, TtEntry};
use crate::common::{think_until, Limits};
use crate::interrupt::Interrupt;
use crate::lines::quote_short;

/// Who plays a side, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// `-x NAME`: a player of this program.
    Builtin(PlayerKind),
    /// `--engine-x CMD`: a Gomocup engine run as `sh -c CMD`.
    Engine(String),
}

impl PlayerSpec {
    /// Its name in tables: the player's name, or the command with the
    /// program's directory left out (`pbrain-ttt`, `fake-engine --at 2`).
    pub fn label(&self) -> String {
        match self {
            PlayerSpec::Builtin(kind) => kind.to_string(),
            PlayerSpec::Engine(command) => {
                let command = command.trim();
                let quote = command.chars().next().filter(|c| matches!(c, '\'' | '"'));
                let (program, args) = match quote {
                    // A quoted program path ends at its closing quote.
                    Some(q) => command[1..].split_once(q).unwrap_or((&command[1..], "")),
                    None => command
                        .split_once(char::is_whitespace)
                        .unwrap_or((command, "")),
                };
                let name = program.rsplit('/').next().unwrap_or(program);
                quote_short(format!("{name} {}", args.trim()).trim())
            }
        }
    }

    /// Its name in game records: the player's name or the whole command.
    pub fn full_name(&self) -> String {
        match self {
            PlayerSpec::Builtin(kind) => kind.to_string(),
            PlayerSpec::Engine(command) => command.clone(),
        }
    }

    /// Whether it is an external engine.
    pub fn is_engine(&self) -> bool {
        matches!(self, PlayerSpec::Engine(_))
    }
}

/// One side of the match.
pub enum Contestant {
    /// A player of this program.
    Builtin(PlayerKind),
    /// A program speaking the Gomocup protocol.
    External(Box<ExternalEngine>),
}

/// A move and how long it took.
#[derive(Clone, Copy, Debug)]
pub struct TimedMove {
    /// The square (on the board and empty).
    pub square: Square,
    /// From the request to the answer.
    pub took: Duration,
}

impl Contestant {
    /// The contestant `spec` describes (an engine is started with its first
    /// game); an engine's waits end early when `interrupt` is set.
    pub fn new(spec: &PlayerSpec, interrupt: &Interrupt) -> Contestant {
        match spec {
            PlayerSpec::Builtin(kind) => Contestant::Builtin(*kind),
            PlayerSpec::Engine(command) => {
                Contestant::External(Box::new(ExternalEngine::new(command, interrupt.clone())))
            }
        }
    }

    /// Gets ready for a game.
    pub fn start_game(&mut self, rules: &Rules, time: &TimeControl) -> Result<(), Forfeit> {
        match self {
            Contestant::Builtin(_) => Ok(()),
            Contestant::External(engine) => engine.start_game(rules, time),
        }
    }

    /// Its move in `pos` (not finished), `used` of its game time spent.
    /// A move later than the turn time plus the grace margin, or one that
    /// takes the side past its game time plus the grace, is a forfeit,
    /// whoever made it.
    pub fn play(
        &mut self,
        pos: &Position,
        time: &TimeControl,
        used: Duration,
        brain: &mut BuiltinBrain<'_>,
    ) -> Result<TimedMove, Forfeit> {
        let (square, took) = match self {
            Contestant::Builtin(kind) => {
                let start = Instant::now();
                // Under a game clock a share of what is left, as the
                // Gomocup brain does: not all of it on one move.
                let (most, aim) = time.move_times(used);
                let limits = Limits {
                    max_nodes: brain.max_nodes,
                    deadline: most.map(|l| start + l),
                    aim: aim.map(|a| start + a),
                };
                let seed = brain.next_seed();
                let interrupt = &brain.interrupt;
                let stop = || interrupt.is_set();
                let (choice, _) = think_until(*kind, seed, brain.tt, pos, limits, &stop);
                // A player without a move (should not happen): the first legal one.
                let square = choice
                    .filter(|&sq| pos.is_legal(sq))
                    .or_else(|| pos.legal_moves().first())
                    .ok_or_else(|| Forfeit::new("no legal move"))?;
                (square, start.elapsed())
            }
            Contestant::External(engine) => {
                let left = time.game.map(|g| g.saturating_sub(used));
                let (square, sent, at) = engine
                    .request_move(pos, left, time.allowance(used))
                    .map_err(|e| match e {
                        MoveError::Lost(forfeit) => forfeit,
                        MoveError::Late { asked, waited } => {
                            let ms = waited.as_millis();
                            Forfeit::new(&match time.overstep(used, waited) {
                                Some(o) => format!(
                                    "timeout: no move {ms} ms after {asked} ({})",
                                    time.explain(o)
                                ),
                                None => format!("timeout: no move {ms} ms after {asked}"),
                            })
                        }
                    })?;
                (square, at.saturating_duration_since(sent))
            }
        };
        if let Some(overstep) = time.overstep(used, took) {
            if let Contestant::External(engine) = self {
                engine.stop();
            }
            return Err(Forfeit::new(&format!(
                "timeout: the move took {} ms ({})",
                took.as_millis(),
                time.explain(overstep)
            )));
        }
        Ok(TimedMove { square, took })
    }

    /// After a forfeit: an engine is stopped, to be started afresh.
    pub fn reset(&mut self) {
        if let Contestant::External(engine) = self {
            engine.stop();
        }
    }

    /// At the end of the match: END.
    pub fn finish(&mut self) {
        self.reset();
    }
}

/// What built-in players share: the transposition table, the node limit
/// and the seeds.
pub struct BuiltinBrain<'a> {
    /// The table (shared by both sides, as before external engines).
    pub tt: &'a mut [TtEntry],
    /// `--max-nodes`.
    pub max_nodes: Option<u64>,
    /// Draws the seed of each move.
    pub rng: ttt_core::rng::Rng,
    /// Set by a signal: a search in progress stops.
    pub interrupt: Interrupt,
}

impl BuiltinBrain<'_> {
    fn next_seed(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_are_labelled_by_program_name() {
        let label = |c: &str| PlayerSpec::Engine(c.to_string()).label();
        assert_eq!(label("/usr/local/bin/pbrain-ttt"), "pbrain-ttt");
        assert_eq!(label("'/a b/fake-engine' --at 2"), "fake-engine --at 2");
        assert_eq!(label("./pbrain-rapfi"), "pbrain-rapfi");
        assert_eq!(PlayerSpec::Builtin(PlayerKind::Strong).label(), "strong");
    }
}
