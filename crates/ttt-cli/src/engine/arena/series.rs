//! Playing the games of a match, one after another, and scoring them.
use std::time::Duration;

use ttt_core::rng::Rng;
use ttt_core::{Mark, Outcome, Position, Square};

use super::openings;
use super::player::{BuiltinBrain, Contestant, PlayerSpec};
use super::record::{Ending, GameRecord, RecordFile};
use super::tally::{MoveTimes, PairScores, Tally, Timing};
use super::terms::TimeControl;
use super::{ArenaArgs, Match};
use crate::common::{fit_tt, input_error};
use crate::interrupt::Interrupt;

/// Plays one game from `opening`; returns its moves and how it ended.
fn play_game(
    m: &Match,
    opening: &[Square],
    players: [&mut Contestant; 2],
    clocks: [&TimeControl; 2],
    brain: &mut BuiltinBrain<'_>,
    times: [&mut MoveTimes; 2],
) -> (Vec<Square>, Ending) {
    let [x, o] = players;
    let [x_clock, o_clock] = clocks;
    let mut pos = Position::new(m.rules);
    for &sq in opening {
        // The openings are generated legal on this board.
        let _ = pos.play(sq);
    }
    for (mark, player, clock) in [(Mark::X, &mut *x, x_clock), (Mark::O, &mut *o, o_clock)] {
        if let Err(f) = player.start_game(&m.rules, clock) {
            return (
                pos.history().to_vec(),
                Ending::Forfeit {
                    loser: mark,
                    message: format!("could not start a game: {}", f.message),
                },
            );
        }
    }
    let [x_times, o_times] = times;
    let mut used = [Duration::ZERO; 2];
    loop {
        match pos.outcome() {
            Outcome::Win(mark) => return (pos.history().to_vec(), Ending::Line(mark)),
            Outcome::Draw => return (pos.history().to_vec(), Ending::Full),
            Outcome::InProgress => {}
        }
        let mark = pos.side_to_move();
        let (player, clock, side_times, side_used) = if mark == Mark::X {
            (&mut *x, x_clock, &mut *x_times, &mut used[0])
        } else {
            (&mut *o, o_clock, &mut *o_times, &mut used[1])
        };
        match player.play(&pos, clock, *side_used, brain) {
            Ok(mv) => {
                *side_used += mv.took;
                side_times.add(mv.took);
                if let Err(e) = pos.play(mv.square) {
                    // Checked by the player: cannot happen, but never loop.
                    return (
                        pos.history().to_vec(),
                        Ending::Forfeit {
                            loser: mark,
                            message: format!("illegal move: {e}"),
                        },
                    );
                }
            }
            Err(f) => {
                player.reset();
                return (
                    pos.history().to_vec(),
                    Ending::Forfeit {
                        loser: mark,
                        message: f.message,
                    },
                );
            }
        }
    }
}

/// How a match ended.
pub(super) struct Played {
    /// The games finished (all of them, unless interrupted).
    pub tally: Tally,
    /// The signal that stopped the match early, if one did.
    pub interrupted: Option<i32>,
    /// Why `--record` stopped being written, if it did (the games were
    /// still played and counted).
    pub record_error: Option<String>,
}

/// Plays the series; `on_game` hears about each game as it ends (its number
/// and, for a forfeit, the message). Stops early, without counting the
/// game in progress, when `interrupt` is set.
pub(super) fn play_match(
    args: &ArenaArgs,
    m: &Match,
    mut records: Option<RecordFile>,
    interrupt: &Interrupt,
    mut on_game: impl FnMut(u32, &str),
) -> anyhow::Result<Played> {
    let mut tt = Vec::new();
    if [&m.first, &m.second]
        .iter()
        .any(|s| matches!(s, PlayerSpec::Builtin(_)))
    {
        fit_tt(&mut tt, args.tt_mb, &m.rules)?;
    }
    let mut brain = BuiltinBrain {
        tt: &mut tt,
        max_nodes: args.max_nodes,
        rng: Rng::new(args.seed),
        interrupt: interrupt.clone(),
    };
    // Openings draw from their own generator, so they do not depend on the games.
    let mut opening_rng = Rng::new(args.seed ^ 0x6f70_656e_696e_6773);
    let mut first = Contestant::new(&m.first, interrupt);
    let mut second = Contestant::new(&m.second, interrupt);
    let (first_label, second_label) = (m.first.full_name(), m.second.full_name());
    // An engine that cannot even start ends the match before it begins.
    for (player, flag, clock) in [
        (&mut first, "x", &m.clocks[0]),
        (&mut second, "o", &m.clocks[1]),
    ] {
        if let Err(f) = player.start_game(&m.rules, clock) {
            if interrupt.is_set() {
                break;
            }
            return Err(anyhow::anyhow!(
                "--engine-{flag}: the engine could not start: {}",
                f.message
            ));
        }
    }
    let mut first_times = MoveTimes::default();
    let mut second_times = MoveTimes::default();
    let mut tally = Tally {
        pairs: m.swap.then(PairScores::default),
        ..Tally::default()
    };
    let mut record_error = None;
    let mut opening = Vec::new();
    let mut pair_half_points = 0;
    for game in 0..args.games {
        if interrupt.is_set() {
            break;
        }
        if game % 2 == 0 {
            if let Some(list) = &m.listed_openings {
                opening.clone_from(&list[(game / 2) as usize]);
            } else if let Some(stones) = args.openings {
                opening = openings::balanced_opening(&m.rules, stones, &mut opening_rng)
                    .map_err(input_error)?;
            }
        }
        let first_is_x = !m.swap || game % 2 == 0;
        let (moves, ending) = if first_is_x {
            play_game(
                m,
                &opening,
                [&mut first, &mut second],
                [&m.clocks[0], &m.clocks[1]],
                &mut brain,
                [&mut first_times, &mut second_times],
            )
        } else {
            play_game(
                m,
                &opening,
                [&mut second, &mut first],
                [&m.clocks[1], &m.clocks[0]],
                &mut brain,
                [&mut second_times, &mut first_times],
            )
        };
        if interrupt.is_set() {
            // The game was cut short by the signal: it has no result.
            break;
        }
        let (x_label, o_label) = if first_is_x {
            (first_label.as_str(), second_label.as_str())
        } else {
            (second_label.as_str(), first_label.as_str())
        };
        let first_mark = if first_is_x { Mark::X } else { Mark::O };
        pair_half_points += tally.add(&ending, first_mark);
        if game % 2 == 1 {
            if let Some(pairs) = tally.pairs.as_mut() {
                pairs.add(pair_half_points);
            }
            pair_half_points = 0;
        }
        let record = GameRecord {
            number: game + 1,
            x: x_label,
            o: o_label,
            opening: &opening,
            moves: &moves,
            ending: &ending,
        };
        if let Some(file) = records.as_mut() {
            if let Err(e) = file.write(&m.rules, &record) {
                // The match goes on; the error is reported with its summary.
                record_error = Some(format!(
                    "--record {}: cannot write game {}: {e}",
                    file.path().display(),
                    game + 1
                ));
                records = None;
            }
        }
        let note = match &ending {
            Ending::Forfeit { loser, message } => {
                let spec = if (*loser == Mark::X) == first_is_x {
                    &m.first
                } else {
                    &m.second
                };
                let who = spec.label();
                format!("game {}: {loser} ({who}) forfeits: {message}", game + 1)
            }
            _ => String::new(),
        };
        on_game(game + 1, &note);
    }
    first.finish();
    second.finish();
    if m.clocks
        .iter()
        .any(|c| c.turn.is_some() || c.game.is_some())
    {
        tally.timing = Some(Timing {
            first_player_ms_per_move: first_times.mean_ms(),
            second_player_ms_per_move: second_times.mean_ms(),
            first_player_max_ms: first_times.max.as_secs_f64() * 1000.0,
            second_player_max_ms: second_times.max.as_secs_f64() * 1000.0,
        });
    }
    Ok(Played {
        tally,
        interrupted: interrupt.signal(),
        record_error,
    })
}
