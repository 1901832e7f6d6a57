//! `ttt arena`: a match between two players, each a built-in player or an
//! external engine speaking the Gomocup protocol, with a clock, forfeits,
//! balanced openings played with colours swapped, pair scores, an Elo
//! estimate and game records.
mod elo;
mod external;
mod openings;
mod player;
pub mod record;
mod report;
mod series;
mod tally;
mod terms;

use std::path::PathBuf;
use std::time::Duration;

use ttt_core::{Rules, Square};

pub use self::openings::StoneRange;
use self::player::PlayerSpec;
use self::record::RecordFile;
use self::terms::TimeControl;
use crate::ai::PlayerKind;
use crate::common::{
    check_player_fits, input_error, parse_rules, parse_tt_mb, print_err, with_k, Interrupted,
    PlayerParser, DEFAULT_TT_MB,
};
use crate::interrupt::Interrupt;
use crate::progress::ProgressLine;

const AFTER_HELP: &str = "\
Each side is a built-in player (-x, --ai-x NAME; -o, --ai-o NAME) or an
external engine (--engine-x CMD, --engine-o CMD) that speaks the Gomocup
(Piskvork) brain protocol, such as pbrain-ttt. CMD runs under sh -c in its own
process group; it gets START (RESTART for the next games), INFO timeout_turn,
timeout_match, rule (0: five or more wins; 1 with --exact-k; 4 with --renju),
game_type 1, then BEGIN, BOARD or TURN for each move (after INFO time_left
with --game-time), and END at the end (it is killed if it does not exit
within 0.5 s). Engines play five in a row (Gomocup freestyle): use a board
of 5x5 or more with k=5 (the default above 9x9). With --renju (15x15 and up) a
forbidden move of X (black: overline, double four, double three) loses.

Without --swap the -x player has X (moves first) in every game. With --swap the
players change colours every game. With --openings each pair of games starts
from a random balanced opening of 2-4 stones (or the given count) near the
centre, played twice with colours swapped: balanced means that the built-in
strong engine scores it within +-300 for the side to move after a fixed
4000-node search (an open three is worth about 1000), so neither side starts
with a three or a clear initiative. The same --seed gives the same openings.
That check is shallow: Rapfi finds a forced win or a large lead for one side
in most of them. --openings-file FILE plays the openings of FILE instead, in
its order, each twice with colours swapped (--openings-skip N starts at its
opening N+1); crates/ttt-cli/openings/freestyle-15x15.txt holds 15x15
openings that Rapfi judges even (its file header says how they were chosen).

--time-x MS and --time-o MS give one player its own time per move instead of
--time (time odds): how much more time would one engine need to match the
other? Each side keeps its own limit whichever colour it plays.

A move later than its limit (--time, or what is left of --game-time) plus
--grace loses the game, and so do an illegal or unreadable move, an ERROR or
UNKNOWN answer, or an engine that exits; the message is printed and recorded,
the engine is restarted for the next game and the match goes on. With
--game-time the grace is given once per game: a side that passes its game
time plus --grace loses on time.

Ctrl-C (SIGINT), SIGTERM, SIGHUP or SIGQUIT stops the match: the engines get
END and are killed shortly after, the results of the games finished so far are
printed and the exit status is 128 + the signal (130 for SIGINT, 143 for
SIGTERM). A second signal exits at once, the engines' process groups killed.
If --record cannot be written, the match goes on, its summary is printed and
the exit status is 1.

The results give each player's wins, draws, losses and forfeits, the opening
pairs by the -x player's points in the pair (2, 1.5, 1, 0.5, 0), and the Elo
difference (-x minus -o) with its 95% error bar, from pair scores when games
come in pairs. --record FILE writes one line per game: the opening, the moves
(coordinates: column letter, row from the top; h8 is the protocol's 7,7), the
result (1-0, 0-1, 1/2-1/2) and the reason.

Examples:
  ttt arena -x random -o perfect --games 100
  ttt arena -x strong -o perfect --games 20 --size 4x4 -k 3 --swap
  ttt arena -x random -o random --games 1000 --seed 42 --json
  ttt arena --engine-x pbrain-ttt -o strong --size 15 --openings --games 20 --time 1000
  ttt arena --engine-x pbrain-ttt --engine-o ./pbrain-rapfi --size 15 --openings \\
      --games 40 --time 1000 --record match.txt
  ttt arena --engine-x pbrain-ttt --engine-o ./pbrain-rapfi --size 15 \\
      --openings-file crates/ttt-cli/openings/freestyle-15x15.txt --games 40 --time 1000
  ttt arena --engine-x pbrain-ttt --engine-o ./pbrain-rapfi --size 15 \\
      --openings-file crates/ttt-cli/openings/freestyle-15x15.txt --games 40 \\
      --time-x 1000 --time-o 250";

/// Arguments of `ttt arena`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct ArenaArgs {
    /// The first player, a built-in one (X; with --swap or --openings, X in
    /// odd games).
    #[arg(short = 'x', long = "ai-x", value_name = "NAME", value_parser = PlayerParser,
          required_unless_present = "engine_x", conflicts_with = "engine_x")]
    pub x: Option<PlayerKind>,
    /// The second player, a built-in one (O; with --swap or --openings, O
    /// in odd games).
    #[arg(short = 'o', long = "ai-o", value_name = "NAME", value_parser = PlayerParser,
          required_unless_present = "engine_o", conflicts_with = "engine_o")]
    pub o: Option<PlayerKind>,
    /// The first player is an external Gomocup engine, run as `sh -c CMD`.
    #[arg(long, value_name = "CMD")]
    pub engine_x: Option<String>,
    /// The second player is an external Gomocup engine, run as `sh -c CMD`.
    #[arg(long, value_name = "CMD")]
    pub engine_o: Option<String>,
    /// Number of games (even with --openings: each opening is played twice).
    #[arg(long, short = 'n', default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    #[arg(long, value_name = crate::common::SIZE_VALUE, default_value = "3", value_parser = parse_rules,
          help = crate::common::SIZE_HELP)]
    pub size: Rules,
    #[arg(short, long = "win-length", value_name = "K", help = crate::common::WIN_LENGTH_HELP)]
    pub k: Option<u8>,
    #[arg(long, help = crate::common::EXACT_K_SIZE_HELP)]
    pub exact_k: bool,
    /// Renju (k=5, boards of 15x15 and up): X (black) may not play an
    /// overline, a double four or a double three, and wins with exactly
    /// five; engines get INFO rule 4, and a forbidden move loses the game.
    #[arg(long, conflicts_with = "exact_k")]
    pub renju: bool,
    /// Seed for the players' random choices and the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Alternate colours every game.
    #[arg(long)]
    pub swap: bool,
    /// Start each pair of games from a random balanced opening of this many
    /// stones (N or MIN-MAX; 2-4 when given alone), colours swapped.
    #[arg(long, value_name = "STONES", num_args = 0..=1, default_missing_value = "2-4")]
    pub openings: Option<StoneRange>,
    /// Start each pair of games from the next opening of FILE (one a line,
    /// X's and O's moves in turn: "h8 i9 g7"; `#` comments), colours
    /// swapped.
    #[arg(long, value_name = "FILE", conflicts_with = "openings")]
    pub openings_file: Option<PathBuf>,
    /// Skip the first N openings of --openings-file (a second sample of
    /// the same file: --openings-skip 20 --games 40 plays openings 21-40).
    #[arg(
        long,
        value_name = "N",
        requires = "openings_file",
        default_value_t = 0
    )]
    pub openings_skip: usize,
    /// Time per move in ms: built-in players think at most this long,
    /// engines get it as INFO timeout_turn (engines: 5000 if not given).
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// Time per move in ms for the -x player only (time odds): instead of
    /// --time for that side.
    #[arg(long, value_name = "MS")]
    pub time_x: Option<u64>,
    /// Time per move in ms for the -o player only (time odds): instead of
    /// --time for that side.
    #[arg(long, value_name = "MS")]
    pub time_o: Option<u64>,
    /// Each side's time for a whole game in ms (INFO timeout_match, and
    /// time_left before each move); none if not given.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub game_time: Option<u64>,
    /// How many ms a move may be late before it loses the game.
    #[arg(long, value_name = "MS", default_value_t = 200)]
    pub grace: u64,
    /// Write one line per game (opening, moves, result, reason) to FILE.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Built-in players search at most about this many nodes per move.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Transposition table size in MiB (shared by the built-in players).
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_TT_MB, value_parser = parse_tt_mb)]
    pub tt_mb: usize,
}

/// Engines' time per move when --time is not given (ms).
pub const DEFAULT_ENGINE_TURN_MS: u64 = 5_000;

/// A checked match: who plays, on what board, with which clock.
struct Match {
    rules: Rules,
    first: PlayerSpec,
    second: PlayerSpec,
    /// The clocks of the -x and the -o player (they differ under
    /// --time-x or --time-o).
    clocks: [TimeControl; 2],
    swap: bool,
    /// The openings of --openings-file, in its order.
    listed_openings: Option<Vec<Vec<Square>>>,
}

fn spec(
    kind: Option<PlayerKind>,
    command: Option<&String>,
    flag: &str,
) -> anyhow::Result<PlayerSpec> {
    match (kind, command) {
        (_, Some(command)) if command.trim().is_empty() => Err(input_error(format!(
            "--engine-{flag}: the command is empty"
        ))),
        (_, Some(command)) => Ok(PlayerSpec::Engine(command.clone())),
        (Some(kind), None) => Ok(PlayerSpec::Builtin(kind)),
        (None, None) => Err(input_error(format!(
            "give -{flag} NAME or --engine-{flag} CMD"
        ))),
    }
}

impl Match {
    fn from_args(args: &ArenaArgs) -> anyhow::Result<Match> {
        let mut rules = with_k(args.size, args.k)?;
        if args.exact_k {
            rules = rules.with_win_condition(ttt_core::WinCondition::ExactlyK);
        }
        if args.renju {
            rules = rules
                .with_renju()
                .map_err(|e| input_error(format!("--renju: {e}")))?;
        }
        let first = spec(args.x, args.engine_x.as_ref(), "x")?;
        let second = spec(args.o, args.engine_o.as_ref(), "o")?;
        for s in [&first, &second] {
            if let PlayerSpec::Builtin(kind) = s {
                check_player_fits(*kind, &rules).map_err(input_error)?;
            }
        }
        let engines = first.is_engine() || second.is_engine();
        if engines && rules.k() != 5 {
            return Err(input_error(format!(
                "external engines play five in a row (Gomocup freestyle), not {rules}: \
                 use a board of 5x5 or more with -k 5"
            )));
        }
        let paired = args.openings.is_some() || args.openings_file.is_some();
        if paired && args.games % 2 != 0 {
            let flag = if args.openings.is_some() {
                "--openings"
            } else {
                "--openings-file"
            };
            return Err(input_error(format!(
                "{flag} plays each opening twice (colours swapped): --games must be even, not {}",
                args.games
            )));
        }
        let listed_openings = match &args.openings_file {
            Some(path) => {
                let shown = path.display();
                let list = std::fs::read_to_string(path)
                    .map_err(|e| e.to_string())
                    .and_then(|text| openings::parse_openings(&text, &rules))
                    .map_err(|e| input_error(format!("--openings-file {shown}: {e}")))?;
                let left = list.len().saturating_sub(args.openings_skip);
                if u64::from(args.games) > 2 * left as u64 {
                    let (count, plural) = (list.len(), if list.len() == 1 { "" } else { "s" });
                    let after = match args.openings_skip {
                        0 => String::new(),
                        skip => format!(" ({left} after --openings-skip {skip})"),
                    };
                    return Err(input_error(format!(
                        "--openings-file {shown} has {count} opening{plural}{after}, enough for {} games, not {}",
                        2 * left,
                        args.games
                    )));
                }
                let list = list.into_iter().skip(args.openings_skip).collect();
                Some(list)
            }
            None => None,
        };
        let clock = |own: Option<u64>| {
            let turn_ms = match (own.or(args.time), engines) {
                (Some(ms), _) => Some(ms),
                (None, true) => Some(DEFAULT_ENGINE_TURN_MS),
                (None, false) => None,
            };
            TimeControl {
                turn: turn_ms.map(Duration::from_millis),
                game: args.game_time.map(Duration::from_millis),
                grace: Duration::from_millis(args.grace),
            }
        };
        let clocks = [clock(args.time_x), clock(args.time_o)];
        Ok(Match {
            rules,
            first,
            second,
            clocks,
            swap: args.swap || paired,
            listed_openings,
        })
    }
}

/// Runs `ttt arena`.
pub fn run(args: &ArenaArgs) -> anyhow::Result<()> {
    let m = Match::from_args(args)?;
    let records = match &args.record {
        Some(path) => Some(RecordFile::create(path)?),
        None => None,
    };
    let interrupt = Interrupt::default();
    let handlers = interrupt.on_signals()?;
    let mut progress = ProgressLine::new(
        "game {human_pos}/{human_len}, {elapsed} elapsed, ETA {eta}",
        Some(u64::from(args.games)),
    );
    let played = series::play_match(args, &m, records, &interrupt, |done, note| {
        if !note.is_empty() {
            progress.suspend(|| print_err(format_args!("ttt arena: {note}")));
        }
        progress.set(u64::from(done));
    })?;
    progress.clear();
    // From here a signal ends the program at once: the engines are gone.
    drop(handlers);
    report::print_summary(args, &m, &played.tally)?;
    if let Some(signal) = played.interrupted {
        return Err(Interrupted {
            signal,
            what: format!(
                "the match was interrupted after {} of {} games",
                played.tally.games, args.games
            ),
        }
        .into());
    }
    if let Some(why) = played.record_error {
        return Err(anyhow::anyhow!(
            "{why} (the games after it are not in the file; the summary above counts them all)"
        ));
    }
    Ok(())
}
