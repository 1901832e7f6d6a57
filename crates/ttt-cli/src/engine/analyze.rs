//! `ttt analyze`: the exact value of a board and of each of its moves.
use std::io::{self, Write};

use serde::Serialize;
use ttt_core::{Position, Square, SquareFormat};

use crate::ai::{is_solvable, Progress, Solver, Value};
use crate::common::{
    exact_k_refusal, fit_tt, for_each_board, input_error, parse_tt_mb, playable_board, square_text,
    use_color, Format, Origin, DEFAULT_TT_MB,
};
use crate::lines::quote_short;
use crate::progress::ProgressLine;

const AFTER_HELP: &str = "\
Values are for the player who makes the move, with perfect play by both sides:
\"win in 3\" means that player wins with the 3rd mark-placing turn from now (plies,
counting both players' moves), \"loss in 4\" that the opponent wins in 4 plies.
Moves are listed best first.

On a terminal wins are green and losses red (not with NO_COLOR set, nor through
a pipe). Exit status 2 for a malformed or finished board, or one too large to solve exactly.

With --json each move has `square` (written as --format asks), `number` (the
square number, 1-based), `coordinate` (column letter and row, row 1 at the top:
b2), and `column` and `row` counted from 0 (as the Gomocup protocol counts).

BOARD '-' reads one board per line from standard input (blank lines and lines
starting with # are skipped) and prints each analysis at once: tables separated
by a blank line, or with --json one JSON object per line. The first bad board
stops with exit status 2, naming its line.

Examples:
  ttt analyze x.o/.x./..o
  printf 'x........\\n.x.......\\n' | ttt analyze --json -
  ttt analyze --format coord xx./oo./...
  ttt analyze --json .........
  ttt analyze -k 3 ..../..../..../....";

/// Arguments of `ttt analyze`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct AnalyzeArgs {
    #[arg(short, long = "win-length", value_name = "K", help = crate::common::WIN_LENGTH_HELP)]
    pub k: Option<u8>,
    #[arg(long, help = crate::common::EXACT_K_HELP)]
    pub exact_k: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// How to write squares.
    #[arg(long, value_enum, default_value_t = Format::Number)]
    pub format: Format,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_TT_MB, value_parser = parse_tt_mb)]
    pub tt_mb: usize,
    /// The board, e.g. x.o/.x./..o, or '-' for one board per line of
    /// standard input.
    #[arg(value_name = "BOARD")]
    pub board: String,
}

/// A game value as JSON: `{"result": "win", "plies": 3, "text": "win in 3"}`.
#[derive(Debug, Serialize)]
pub struct ValueJson {
    /// `win`, `draw` or `loss`, for the side to move.
    pub result: &'static str,
    /// Plies until the end with perfect play (absent for a draw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<u64>,
    /// The value in words.
    pub text: String,
}

impl From<Value> for ValueJson {
    fn from(v: Value) -> ValueJson {
        let (result, plies) = match v {
            Value::Win(n) => ("win", Some(n as u64)),
            Value::Draw => ("draw", None),
            Value::Loss(n) => ("loss", Some(n as u64)),
        };
        ValueJson {
            result,
            plies,
            text: v.to_string(),
        }
    }
}

#[derive(Debug, Serialize)]
struct MoveJson {
    /// The square in the chosen --format.
    square: String,
    /// 1-based row-major number.
    number: u16,
    /// Column letter and 1-based row, row 1 at the top: `b2`.
    coordinate: String,
    /// 0-based column and row (the Gomocup protocol's `x,y`).
    column: u8,
    row: u8,
    value: ValueJson,
}

#[derive(Debug, Serialize)]
struct AnalysisJson {
    board: String,
    columns: u8,
    rows: u8,
    k: u8,
    to_move: String,
    value: ValueJson,
    moves: Vec<MoveJson>,
    nodes: u64,
}

/// Runs `ttt analyze`.
pub fn run(args: &AnalyzeArgs) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    if args.board != "-" {
        return analyze_board(args, &args.board, None, &mut out);
    }
    // One analysis per line of stdin, each printed (and flushed) at once.
    let mut batch = Batch::default();
    let stdin = io::stdin();
    for_each_board(
        std::slice::from_ref(&args.board),
        &mut stdin.lock(),
        |text, origin| {
            analyze_board(args, text, Some((origin, &mut batch)), &mut out)?;
            batch.printed += 1;
            out.flush()?;
            Ok(())
        },
    )
}

/// What a batch from stdin keeps from one line to the next.
#[derive(Default)]
struct Batch {
    /// The transposition table, sized to the largest board so far.
    tt: Vec<crate::ai::TtEntry>,
    /// Analyses printed so far.
    printed: usize,
}

/// Analyses one board and prints the result; `batch` holds the stdin line
/// (for messages) and the table kept from one line to the next. From stdin
/// `--json` writes one JSON object per line, and the tables are separated by
/// a blank line.
fn analyze_board(
    args: &AnalyzeArgs,
    text: &str,
    batch: Option<(Origin, &mut Batch)>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let origin = batch.as_ref().map(|(o, _)| format!("{o}: "));
    let origin = origin.unwrap_or_default();
    let pos = playable_board(text, args.k, args.exact_k)
        .map_err(|e| input_error(format!("{origin}{e}")))?;
    let rules = *pos.rules();
    if let Some(why) = exact_k_refusal(&rules) {
        return Err(input_error(format!("{origin}{why}")));
    }
    if !is_solvable(&rules) {
        return Err(input_error(format!(
            "{origin}board {:?} ({rules}) is too large to solve exactly; try `ttt move --ai strong --verbose`, which shows the search",
            quote_short(text)
        )));
    }
    let mut own = Vec::new();
    let (tt, lines, printed) = match batch {
        Some((_, kept)) => (&mut kept.tt, true, kept.printed),
        None => (&mut own, false, 0),
    };
    fit_tt(tt, args.tt_mb, &rules)?;
    let mut progress = ProgressLine::new(
        &format!(
            "analysing {rules}: {{human_pos}} positions, {{elapsed}}, {{rate}} (Ctrl-C stops)"
        ),
        None,
    );
    let (value, moves, nodes) = analyze(&pos, tt, &mut |p: Progress| progress.set(p.nodes));
    progress.clear();
    if args.json {
        let json = AnalysisJson {
            board: pos.to_string(),
            columns: rules.columns(),
            rows: rules.rows(),
            k: rules.k(),
            to_move: pos.side_to_move().to_string(),
            value: value.into(),
            moves: moves
                .iter()
                .map(|&(sq, v)| MoveJson {
                    square: square_text(&rules, sq, args.format),
                    number: rules.number_of(sq),
                    coordinate: rules.display_square(sq, SquareFormat::Coord).to_string(),
                    column: sq.column(),
                    row: sq.row(),
                    value: v.into(),
                })
                .collect(),
            nodes,
        };
        if lines {
            serde_json::to_writer(&mut *out, &json)?;
        } else {
            serde_json::to_writer_pretty(&mut *out, &json)?;
        }
        writeln!(out)?;
    } else {
        if lines && printed > 0 {
            writeln!(out)?;
        }
        let color = use_color();
        writeln!(out, "board    {pos}  ({rules})")?;
        writeln!(out, "to move  {}", pos.side_to_move())?;
        writeln!(out, "value    {}", paint(value, color))?;
        writeln!(out)?;
        writeln!(out, "{:<7} value", "move")?;
        for &(sq, v) in &moves {
            let square = square_text(&rules, sq, args.format);
            writeln!(out, "{square:<7} {}", paint(v, color))?;
        }
    }
    out.flush()?;
    Ok(())
}

/// A value in words, green for a win and red for a loss when `color`.
fn paint(v: Value, color: bool) -> String {
    match v {
        Value::Win(_) if color => format!("\x1b[32m{v}\x1b[0m"),
        Value::Loss(_) if color => format!("\x1b[31m{v}\x1b[0m"),
        _ => v.to_string(),
    }
}

/// The value of `pos` for the side to move, every legal move's value (best
/// first) and the nodes searched.
pub fn analyze(
    pos: &Position,
    tt: &mut [crate::ai::TtEntry],
    on_progress: &mut dyn FnMut(Progress),
) -> (Value, Vec<(Square, Value)>, u64) {
    let mut solver = Solver::new(tt);
    solver.set_progress(on_progress);
    let mut buf = vec![(Square::from_index(0), Value::Draw); ttt_core::MAX_CELLS];
    let n = solver.analyze(pos, &mut buf);
    buf.truncate(n);
    // The best move's value is the position's value.
    let value = match buf.first() {
        Some(&(_, v)) => v,
        None => solver.solve(pos),
    };
    (value, buf, solver.stats().nodes)
}
