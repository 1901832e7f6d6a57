//! `ttt arena`: two computer players play a series of games.
use std::io::{self, Write};
use std::time::{Duration, Instant};

use serde::Serialize;
use ttt_core::rng::Rng;
use ttt_core::{Mark, Outcome, Position, Rules};

use crate::ai::PlayerKind;
use crate::common::{
    check_player_fits, fit_tt, input_error, parse_rules, stderr_is_terminal, think, with_k, Limits,
    PlayerParser, DEFAULT_TT_MB,
};

const AFTER_HELP: &str = "\
Without --swap the -x player has X (moves first) in every game. With --swap the
players change colours every game (the -x player has X in games 1, 3, 5...) and
the tally is also given by player. The same --seed gives the same games.

Examples:
  ttt arena -x random -o perfect --games 100
  ttt arena -x strong -o perfect --games 20 --size 4x4 -k 3 --swap
  ttt arena -x random -o random --games 1000 --seed 42 --json";

/// Arguments of `ttt arena`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct ArenaArgs {
    /// The first player (X; with --swap, X in odd games).
    #[arg(short = 'x', value_name = "NAME", value_parser = PlayerParser)]
    pub x: PlayerKind,
    /// The second player (O; with --swap, O in odd games).
    #[arg(short = 'o', value_name = "NAME", value_parser = PlayerParser)]
    pub o: PlayerKind,
    /// Number of games.
    #[arg(long, short = 'n', default_value_t = 100)]
    pub games: u32,
    /// Board size: N, CxR or "CxR k=K".
    #[arg(long, value_name = "CxR", default_value = "3x3", value_parser = parse_rules)]
    pub size: Rules,
    /// Marks in a row to win (default: the board's shorter side up to 9x9, 5 beyond).
    #[arg(short, value_name = "K")]
    pub k: Option<u8>,
    #[arg(long, help = crate::common::EXACT_K_HELP)]
    pub exact_k: bool,
    /// Seed for the players' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Alternate colours every game.
    #[arg(long)]
    pub swap: bool,
    /// Think at most this many milliseconds per move.
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// Search at most about this many nodes per move.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Transposition table size in MiB (shared by the players).
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_TT_MB)]
    pub tt_mb: usize,
}

/// Results of a series of games.
#[derive(Debug, Default, Serialize, PartialEq, Eq)]
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
}

/// Plays the series.
pub fn play_series(
    args: &ArenaArgs,
    rules: Rules,
    mut on_game: impl FnMut(u32),
) -> anyhow::Result<Tally> {
    let mut tt = Vec::new();
    fit_tt(&mut tt, args.tt_mb, &rules)?;
    let mut rng = Rng::new(args.seed);
    let mut tally = Tally::default();
    for game in 0..args.games {
        let first_is_x = !args.swap || game % 2 == 0;
        let (x, o) = if first_is_x {
            (args.x, args.o)
        } else {
            (args.o, args.x)
        };
        let mut pos = Position::new(rules);
        while !pos.outcome().is_over() {
            let kind = if pos.side_to_move() == Mark::X { x } else { o };
            let limits = Limits {
                max_nodes: args.max_nodes,
                deadline: args
                    .time
                    .map(|ms| Instant::now() + Duration::from_millis(ms)),
            };
            let (choice, _) = think(kind, rng.next_u64(), &mut tt, &pos, limits);
            // A player without a move (should not happen): take the first legal one.
            let square = choice
                .filter(|&sq| pos.is_legal(sq))
                .or_else(|| pos.legal_moves().first());
            match square {
                Some(sq) if pos.play(sq).is_ok() => {}
                _ => break,
            }
        }
        tally.games += 1;
        match pos.outcome() {
            Outcome::Win(mark) => {
                if mark == Mark::X {
                    tally.x_wins += 1;
                } else {
                    tally.o_wins += 1;
                }
                if (mark == Mark::X) == first_is_x {
                    tally.first_player_wins += 1;
                } else {
                    tally.second_player_wins += 1;
                }
            }
            _ => tally.draws += 1,
        }
        on_game(game + 1);
    }
    Ok(tally)
}

/// Runs `ttt arena`.
pub fn run(args: &ArenaArgs) -> anyhow::Result<()> {
    let mut rules = with_k(args.size, args.k)?;
    if args.exact_k {
        rules = rules.with_win_condition(ttt_core::WinCondition::ExactlyK);
    }
    for kind in [args.x, args.o] {
        check_player_fits(kind, &rules).map_err(input_error)?;
    }
    let show = stderr_is_terminal();
    let mut last = Instant::now();
    let tally = play_series(args, rules, |done| {
        if show && (last.elapsed() >= Duration::from_millis(100) || done == args.games) {
            last = Instant::now();
            eprint!("\rgame {done}/{}", args.games);
            if done == args.games {
                eprint!("\r\x1b[K");
            }
        }
    })?;
    let mut out = io::stdout().lock();
    if args.json {
        #[derive(Serialize)]
        struct Json<'a> {
            rules: String,
            x: String,
            o: String,
            swap: bool,
            seed: u64,
            #[serde(flatten)]
            tally: &'a Tally,
        }
        let json = Json {
            rules: rules.to_string(),
            x: args.x.to_string(),
            o: args.o.to_string(),
            swap: args.swap,
            seed: args.seed,
            tally: &tally,
        };
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        let colours = if args.swap {
            "colours alternate"
        } else {
            "-x plays X"
        };
        writeln!(
            out,
            "{} games of {rules}, {} vs {}, {colours}, seed {}",
            tally.games, args.x, args.o, args.seed
        )?;
        writeln!(out, "X wins  {}", tally.x_wins)?;
        writeln!(out, "O wins  {}", tally.o_wins)?;
        writeln!(out, "draws   {}", tally.draws)?;
        if args.swap {
            writeln!(out, "by player:")?;
            writeln!(out, "  {} (-x) wins  {}", args.x, tally.first_player_wins)?;
            writeln!(out, "  {} (-o) wins  {}", args.o, tally.second_player_wins)?;
            writeln!(out, "  draws  {}", tally.draws)?;
        }
    }
    out.flush()?;
    Ok(())
}
