//! `ttt move`: the computer's move for each board, one line each.
use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};

use crate::ai::{Iteration, PlayerKind};
use crate::common::{
    check_player_fits, fit_tt, for_each_board, input_error, parse_tt_mb, playable_board, print_err,
    square_text, think_watched, Format, Limits, PlayerParser, DEFAULT_TT_MB,
};
use crate::search_report;
use ttt_core::Rules;

const AFTER_HELP: &str = "\
Boards are rows from top to bottom separated by '/', cells x, o and . (also - or _):
x.o/.x./..o is 3x3. Nine characters without '/' are a 3x3 board too. The side to
move follows from the counts (X moves first). Without -k, k is a full row of the
shorter side up to 9x9 and 5 in a row on larger boards; the k used is then noted
on stderr (once per board shape).

A board that starts with '-' (as in ---/-x-/---) must come after '--', or use '.'.

One line is printed per board, in order, as soon as it is found. An argument '-'
reads one board per line from standard input (blank lines and lines starting with
# are skipped; lines over 64 KiB are malformed).

Errors: the first malformed or finished board stops the batch with a message on
stderr naming the argument or stdin line, and exit status 2; the moves for the
boards before it have already been printed.

Examples:
  ttt move x.o/.x./...                  # O must block the diagonal: 9
  ttt move --format coord xx./oo./...   # X wins at c1
  ttt move -k 4 --ai strong --time 500 ........./........./........./.........
  ttt move -k 5 --ai strong --time 500 --verbose ......x../....o..../.........   # search on stderr
  printf 'x........\\n.x.......\\n' | ttt move -   # one move per line
  ttt move --ai random --seed 7 .........";

/// Arguments of `ttt move`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct MoveArgs {
    /// Computer player.
    #[arg(long = "ai", value_name = "NAME", default_value = "impossible", value_parser = PlayerParser)]
    pub ai: PlayerKind,
    #[arg(short, long = "win-length", value_name = "K", help = crate::common::WIN_LENGTH_HELP)]
    pub k: Option<u8>,
    #[arg(long, help = crate::common::EXACT_K_HELP)]
    pub exact_k: bool,
    /// Seed for the players' random choices (same seed, same moves).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How to write the square.
    #[arg(long, value_enum, default_value_t = Format::Number)]
    pub format: Format,
    /// Think at most this many milliseconds per board. The exact solver
    /// (perfect, impossible) gets three quarters of it; a board it cannot
    /// solve by then gets the strong player's move in the rest.
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// Search at most about this many nodes per board.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Also print what the search sees on stderr, a line per completed
    /// iteration of `strong` (boards past the exact solver): depth, value
    /// (a proved win `+M9`, else the evaluation and its win rate), nodes,
    /// speed, time and the line it expects, as `pbrain-ttt` reports it.
    #[arg(short, long)]
    pub verbose: bool,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_TT_MB, value_parser = parse_tt_mb)]
    pub tt_mb: usize,
    /// Boards (or '-' for one board per line of standard input).
    #[arg(value_name = "BOARD", required = true)]
    pub boards: Vec<String>,
}

/// Runs `ttt move`.
pub fn run(args: &MoveArgs) -> anyhow::Result<()> {
    // Sized per board (see fit_tt), so a small board never pays for --tt-mb.
    let mut tt = Vec::new();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let stdin = io::stdin();
    let mut input = stdin.lock();
    // The board shape whose default k was last noted, so a stream of boards of
    // one shape gets one note, not one per line.
    let mut noted: Option<Rules> = None;
    let result = for_each_board(&args.boards, &mut input, |text, origin| {
        let pos = playable_board(text, args.k, args.exact_k)
            .and_then(|pos| check_player_fits(args.ai, pos.rules()).map(|()| pos))
            .map_err(|e| input_error(format!("{origin}: {e}")))?;
        // Worth a note only where the default is not a whole row (3x3 k=3 is
        // what everyone expects; 15x15 k=5 or 7x6 k=6 may not be).
        let rules = *pos.rules();
        let whole_row = rules.k() == rules.columns().max(rules.rows());
        if args.k.is_none() && !whole_row && noted != Some(rules) {
            noted = Some(rules);
            print_err(format_args!(
                "ttt move: {} (the default win length; -k to change)",
                pos.rules()
            ));
        }
        fit_tt(&mut tt, args.tt_mb, pos.rules())?;
        let limits = Limits {
            max_nodes: args.max_nodes,
            deadline: args
                .time
                .map(|ms| Instant::now() + Duration::from_millis(ms)),
            aim: None,
        };
        let watch = |it: &Iteration, elapsed: Duration| {
            if args.verbose {
                print_err(format_args!(
                    "ttt move: {}",
                    search_report::describe(it, elapsed, &rules)
                ));
            }
        };
        let (choice, _) =
            think_watched(args.ai, args.seed, &mut tt, &pos, limits, &|| false, &watch);
        let square = choice.ok_or_else(|| input_error(format!("{origin}: no legal move")))?;
        writeln!(out, "{}", square_text(pos.rules(), square, args.format))?;
        // At once, so a program can drive `move -` one board at a time; a
        // reader gone (EPIPE) ends the batch here, quietly.
        out.flush()?;
        Ok(())
    });
    // Print the moves found before an error, then report it.
    out.flush()?;
    result
}
