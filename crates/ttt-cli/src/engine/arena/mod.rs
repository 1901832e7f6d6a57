//! `ttt arena`: a match between two players, each a built-in player or an
//! external engine speaking the Gomocup protocol, with a clock, forfeits,
//! balanced openings played with colours swapped, pair scores, an Elo
//! estimate and game records.
mod elo;
mod external;
mod openings;
mod player;
mod record;

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;
use ttt_core::rng::Rng;
use ttt_core::{Mark, Outcome, Position, Rules, Square};

use self::elo::EloEstimate;
pub use self::openings::StoneRange;
use self::player::{BuiltinBrain, Contestant, PlayerSpec, TimeControl};
use self::record::{Ending, GameRecord, RecordFile};
use crate::ai::PlayerKind;
use crate::common::{
    check_player_fits, fit_tt, input_error, parse_rules, print_err, stderr_is_terminal, with_k,
    PlayerParser, DEFAULT_TT_MB,
};

const AFTER_HELP: &str = "\
Each side is a built-in player (-x NAME, -o NAME) or an external engine
(--engine-x CMD, --engine-o CMD) that speaks the Gomocup (Piskvork) brain
protocol, such as pbrain-ttt. CMD runs under sh -c in its own process group;
it gets START (RESTART for the next games), INFO timeout_turn, timeout_match,
rule (0: five or more wins; 1 with --exact-k; 4 with --renju), game_type 1,
then BEGIN, BOARD or TURN for each move (after INFO
time_left with --game-time), and END at the end (it is killed if it does not
exit within 0.5 s). Engines play five in a row (Gomocup freestyle): use a board
of 5x5 or more with k=5 (the default above 9x9). With --renju (15x15 and up) a
forbidden move of X (black: overline, double four, double three) loses.

Without --swap the -x player has X (moves first) in every game. With --swap the
players change colours every game. With --openings each pair of games starts
from a random balanced opening of 2-4 stones (or the given count) near the
centre, played twice with colours swapped: balanced means that the built-in
strong engine scores it within +-300 for the side to move after a fixed
4000-node search (an open three is worth about 1000), so neither side starts
with a three or a clear initiative. The same --seed gives the same openings.

A move later than its limit (--time, or what is left of --game-time) plus
--grace loses the game, and so do an illegal or unreadable move, an ERROR or
UNKNOWN answer, or an engine that exits; the message is printed and recorded,
the engine is restarted for the next game and the match goes on.

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
      --games 40 --time 1000 --record match.txt";

/// Arguments of `ttt arena`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct ArenaArgs {
    /// The first player (X; with --swap or --openings, X in odd games).
    #[arg(short = 'x', value_name = "NAME", value_parser = PlayerParser,
          required_unless_present = "engine_x", conflicts_with = "engine_x")]
    pub x: Option<PlayerKind>,
    /// The second player (O; with --swap or --openings, O in odd games).
    #[arg(short = 'o', value_name = "NAME", value_parser = PlayerParser,
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
    /// Board size: N, CxR or "CxR k=K".
    #[arg(long, value_name = "CxR", default_value = "3x3", value_parser = parse_rules)]
    pub size: Rules,
    /// Marks in a row to win (default: the board's shorter side up to 9x9, 5 beyond).
    #[arg(short, value_name = "K")]
    pub k: Option<u8>,
    #[arg(long, help = crate::common::EXACT_K_HELP)]
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
    /// Time per move in ms: built-in players think at most this long,
    /// engines get it as INFO timeout_turn (engines: 5000 if not given).
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
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
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_TT_MB)]
    pub tt_mb: usize,
}

/// Engines' time per move when --time is not given (ms).
pub const DEFAULT_ENGINE_TURN_MS: u64 = 5_000;

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
    fn add(&mut self, half_points: u32) {
        match half_points {
            4 => self.two += 1,
            3 => self.one_and_half += 1,
            2 => self.one += 1,
            1 => self.half += 1,
            _ => self.zero += 1,
        }
    }

    fn total(&self) -> u32 {
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

/// A checked match: who plays, on what board, with which clock.
struct Match {
    rules: Rules,
    first: PlayerSpec,
    second: PlayerSpec,
    time: TimeControl,
    swap: bool,
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
        if args.openings.is_some() && args.games % 2 != 0 {
            return Err(input_error(format!(
                "--openings plays each opening twice (colours swapped): --games must be even, not {}",
                args.games
            )));
        }
        let turn_ms = match (args.time, engines) {
            (Some(ms), _) => Some(ms),
            (None, true) => Some(DEFAULT_ENGINE_TURN_MS),
            (None, false) => None,
        };
        Ok(Match {
            rules,
            first,
            second,
            time: TimeControl {
                turn: turn_ms.map(Duration::from_millis),
                game: args.game_time.map(Duration::from_millis),
                grace: Duration::from_millis(args.grace),
            },
            swap: args.swap || args.openings.is_some(),
        })
    }
}

/// Per-side move timing.
#[derive(Default)]
struct MoveTimes {
    total: Duration,
    count: u32,
    max: Duration,
}

impl MoveTimes {
    fn add(&mut self, took: Duration) {
        self.total += took;
        self.count += 1;
        self.max = self.max.max(took);
    }

    fn mean_ms(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.total.as_secs_f64() * 1000.0 / f64::from(self.count)
        }
    }
}

/// Plays one game from `opening`; returns its moves and how it ended.
fn play_game(
    m: &Match,
    opening: &[Square],
    players: [&mut Contestant; 2],
    brain: &mut BuiltinBrain<'_>,
    times: [&mut MoveTimes; 2],
) -> (Vec<Square>, Ending) {
    let [x, o] = players;
    let mut pos = Position::new(m.rules);
    for &sq in opening {
        // The openings are generated legal on this board.
        let _ = pos.play(sq);
    }
    for (mark, player) in [(Mark::X, &mut *x), (Mark::O, &mut *o)] {
        if let Err(f) = player.start_game(&m.rules, &m.time) {
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
        let (player, side_times, side_used) = if mark == Mark::X {
            (&mut *x, &mut *x_times, &mut used[0])
        } else {
            (&mut *o, &mut *o_times, &mut used[1])
        };
        match player.play(&pos, &m.time, *side_used, brain) {
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

/// Plays the series; `on_game` hears about each game as it ends.
fn play_match(
    args: &ArenaArgs,
    m: &Match,
    mut records: Option<&mut RecordFile>,
    mut on_game: impl FnMut(u32, &str),
) -> anyhow::Result<Tally> {
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
    };
    // Openings draw from their own generator, so they do not depend on the games.
    let mut opening_rng = Rng::new(args.seed ^ 0x6f70_656e_696e_6773);
    let mut first = Contestant::new(&m.first);
    let mut second = Contestant::new(&m.second);
    let (first_label, second_label) = (m.first.full_name(), m.second.full_name());
    // An engine that cannot even start ends the match before it begins.
    for (player, flag) in [(&mut first, "x"), (&mut second, "o")] {
        player.start_game(&m.rules, &m.time).map_err(|f| {
            anyhow::anyhow!("--engine-{flag}: the engine could not start: {}", f.message)
        })?;
    }
    let mut first_times = MoveTimes::default();
    let mut second_times = MoveTimes::default();
    let mut tally = Tally {
        pairs: m.swap.then(PairScores::default),
        ..Tally::default()
    };
    let mut opening = Vec::new();
    let mut pair_half_points = 0;
    for game in 0..args.games {
        if game % 2 == 0 {
            if let Some(stones) = args.openings {
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
                &mut brain,
                [&mut first_times, &mut second_times],
            )
        } else {
            play_game(
                m,
                &opening,
                [&mut second, &mut first],
                &mut brain,
                [&mut second_times, &mut first_times],
            )
        };
        let (x_label, o_label) = if first_is_x {
            (first_label.as_str(), second_label.as_str())
        } else {
            (second_label.as_str(), first_label.as_str())
        };
        tally.games += 1;
        let first_mark = if first_is_x { Mark::X } else { Mark::O };
        let first_half_points = match ending.winner() {
            Some(winner) => {
                if winner == Mark::X {
                    tally.x_wins += 1;
                } else {
                    tally.o_wins += 1;
                }
                if winner == first_mark {
                    tally.first_player_wins += 1;
                    2
                } else {
                    tally.second_player_wins += 1;
                    0
                }
            }
            None => {
                tally.draws += 1;
                1
            }
        };
        if let Ending::Forfeit { loser, .. } = &ending {
            if *loser == first_mark {
                tally.first_player_forfeits += 1;
            } else {
                tally.second_player_forfeits += 1;
            }
        }
        pair_half_points += first_half_points;
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
        if let Some(file) = records.as_deref_mut() {
            file.write(&m.rules, &record)?;
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
    if m.time.turn.is_some() || m.time.game.is_some() {
        tally.timing = Some(Timing {
            first_player_ms_per_move: first_times.mean_ms(),
            second_player_ms_per_move: second_times.mean_ms(),
            first_player_max_ms: first_times.max.as_secs_f64() * 1000.0,
            second_player_max_ms: second_times.max.as_secs_f64() * 1000.0,
        });
    }
    Ok(tally)
}

/// Runs `ttt arena`.
pub fn run(args: &ArenaArgs) -> anyhow::Result<()> {
    let m = Match::from_args(args)?;
    let mut records = match &args.record {
        Some(path) => Some(
            RecordFile::create(path)
                .map_err(|e| input_error(format!("--record {}: {e}", path.display())))?,
        ),
        None => None,
    };
    let show = stderr_is_terminal();
    let mut last = Instant::now();
    let tally = play_match(args, &m, records.as_mut(), |done, note| {
        if !note.is_empty() {
            if show {
                eprint!("\r\x1b[K");
            }
            print_err(format_args!("ttt arena: {note}"));
        }
        if show && (last.elapsed() >= Duration::from_millis(100) || done == args.games) {
            last = Instant::now();
            eprint!("\rgame {done}/{}", args.games);
            if done == args.games {
                eprint!("\r\x1b[K");
            }
        }
    })?;
    let (first, second) = (m.first.label(), m.second.label());
    let elo = tally.elo();
    let mut out = io::stdout().lock();
    if args.json {
        #[derive(Serialize)]
        struct Json<'a> {
            rules: String,
            x: String,
            o: String,
            swap: bool,
            openings: Option<String>,
            seed: u64,
            time_ms: Option<u64>,
            game_time_ms: Option<u64>,
            grace_ms: u64,
            #[serde(flatten)]
            tally: &'a Tally,
            elo: Option<EloEstimate>,
        }
        let json = Json {
            rules: m.rules.to_string(),
            x: first.clone(),
            o: second.clone(),
            swap: m.swap,
            openings: args.openings.map(|s| s.to_string()),
            seed: args.seed,
            time_ms: m.time.turn.map(|d| d.as_millis() as u64),
            game_time_ms: args.game_time,
            grace_ms: args.grace,
            tally: &tally,
            elo,
        };
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        let colours = match (args.openings, m.swap) {
            (Some(stones), _) => {
                format!("openings of {stones} stones, each played twice with colours swapped")
            }
            (None, true) => "colours alternate".to_string(),
            (None, false) => "-x plays X".to_string(),
        };
        writeln!(
            out,
            "{} games of {}, {first} vs {second}, {colours}, seed {}",
            tally.games, m.rules, args.seed
        )?;
        if let Some(turn) = m.time.turn {
            let game = m.time.game.map_or(String::new(), |g| {
                format!(", {} ms per game", g.as_millis())
            });
            writeln!(
                out,
                "time: {} ms per move{game}, {} ms grace",
                turn.as_millis(),
                m.time.grace.as_millis()
            )?;
        }
        writeln!(out, "X wins  {}", tally.x_wins)?;
        writeln!(out, "O wins  {}", tally.o_wins)?;
        writeln!(out, "draws   {}", tally.draws)?;
        if m.swap {
            writeln!(out, "by player:")?;
            writeln!(out, "  {first} (-x) wins  {}", tally.first_player_wins)?;
            writeln!(out, "  {second} (-o) wins  {}", tally.second_player_wins)?;
            writeln!(out, "  draws  {}", tally.draws)?;
        }
        write!(
            out,
            "{:<28} {:>5} {:>6} {:>6} {:>9} {:>8}",
            "player", "wins", "draws", "losses", "forfeits", "score"
        )?;
        if tally.timing.is_some() {
            write!(out, " {:>10} {:>8}", "ms/move", "max ms")?;
        }
        writeln!(out)?;
        let timing = tally.timing.unwrap_or_default();
        let rows = [
            (
                format!("{} (-x)", quote_cut(&first, 23)),
                tally.first_player_wins,
                tally.second_player_wins,
                tally.first_player_forfeits,
                timing.first_player_ms_per_move,
                timing.first_player_max_ms,
            ),
            (
                format!("{} (-o)", quote_cut(&second, 23)),
                tally.second_player_wins,
                tally.first_player_wins,
                tally.second_player_forfeits,
                timing.second_player_ms_per_move,
                timing.second_player_max_ms,
            ),
        ];
        for (name, wins, losses, forfeits, mean, max) in rows {
            let score = f64::from(wins) + f64::from(tally.draws) / 2.0;
            write!(
                out,
                "{name:<28} {wins:>5} {:>6} {losses:>6} {forfeits:>9} {:>8}",
                tally.draws,
                format!("{score}/{}", tally.games),
            )?;
            if tally.timing.is_some() {
                write!(out, " {mean:>10.1} {max:>8.0}")?;
            }
            writeln!(out)?;
        }
        if let Some(p) = tally.pairs {
            writeln!(
                out,
                "pairs for -x: won {}, even {}, lost {} (by points 2/1.5/1/0.5/0: {}/{}/{}/{}/{})",
                p.two + p.one_and_half,
                p.one,
                p.half + p.zero,
                p.two,
                p.one_and_half,
                p.one,
                p.half,
                p.zero
            )?;
        }
        if let Some(e) = elo {
            let unit = if tally.pairs.is_some_and(|p| p.total() > 0) {
                "pairs"
            } else {
                "games"
            };
            writeln!(
                out,
                "Elo difference (-x minus -o): {} (95%, from {} {unit}, score {:.1}%)",
                e.text(),
                e.samples,
                e.score * 100.0
            )?;
        }
    }
    out.flush()?;
    Ok(())
}

/// `text` cut to `width` characters (with `...` when cut).
fn quote_cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut s: String = text.chars().take(width.saturating_sub(3)).collect();
    s.push_str("...");
    s
}
