//! `ttt threats`: for a gomoku board (five in a row), the cells where each
//! side makes a five, an open four, a four-three... with one stone: what
//! must be answered and what wins.
use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};

use crate::common::{
    for_each_board, input_error, parse_rules, playable_board, square_text, win_condition, with_k,
    Format, Origin,
};
use ttt_core::pattern::{PatternBoard, ThreatClass};
use ttt_core::{renju, Mark, Position, Rules};

const AFTER_HELP: &str = "\
Each empty cell is judged for each side as if that side played there: along each
of its four lines the stone makes a five, an open four (two cells then make five),
a four (one cell does), an open three (a cell then makes an open four), a blocked
three, an open two...; over the four lines together that is its class, strongest
first: five, open four (or two fours), four-three, four plus (a four and a three
or two), four, double three, open three plus, open three, blocked three plus,
double two, blocked three, open two. By default the classes from open three up
are listed (the ones the opponent must answer); --all lists every class.

When the side not to move has a five, open-four or four-three cell and the
side to move has none as strong (which, moving first, would win the race), the
last line gives the side to move's answers to the strongest of them: every
cell where its stone leaves no threat of that class or above (found by trying
each cell). A four of its own may delay the answer; \"none\" means no single
stone stops it.

The board is five in a row (k=5, the default from 10x10 up): give it as a board
string (rows separated by '/', as in `ttt move`; '-' reads one a line from
standard input) or as the moves played, X first, with --moves (on --size, 15x15
by default). With --exact-k six in a row does not win; with --renju (--moves
only) black's (X's) forbidden cells are listed apart, not under their class.

Cells are written as --format asks (coord by default: column letter, row from
the top; h8 is the centre of 15x15). Exit status 2 for a malformed or finished
board, or one whose k is not 5.

Examples:
  ttt threats --moves \"h8 h9 i8 i9 j8\"         # X's three: g8 and k8 make open fours
  ttt threats --moves \"h8 h9 i8\" --all
  ttt threats --json --moves \"h8 i9 g7 j10\"
  ttt threats -k 5 ..x.../..x.../..x.../....../o...../o.....   # a board: X's c4 and c5 make fours";

/// Arguments of `ttt threats`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct ThreatsArgs {
    /// Marks in a row to win (must come to 5; default: 5 from 10x10 up).
    #[arg(short, long = "win-length", value_name = "K")]
    pub k: Option<u8>,
    #[arg(long, help = crate::common::EXACT_K_SIZE_HELP)]
    pub exact_k: bool,
    /// Renju rules (with --moves, 15x15 and up): black's (X's) forbidden
    /// cells are listed apart.
    #[arg(long, requires = "moves")]
    pub renju: bool,
    /// The moves played, X first, as square names: "h8 h9 i8".
    #[arg(long, value_name = "MOVES", conflicts_with = "boards")]
    pub moves: Option<String>,
    /// Board size for --moves: N (N x N) or CxR (columns x rows), 1 to 20
    /// each; a win length may follow ("15 k=5").
    #[arg(long, value_name = crate::common::SIZE_VALUE, default_value = "15", value_parser = parse_rules,
          requires = "moves")]
    pub size: Rules,
    /// List every class, not only those from open three up.
    #[arg(long)]
    pub all: bool,
    /// How to write the cells.
    #[arg(long, value_enum, default_value_t = Format::Coord)]
    pub format: Format,
    /// Print one JSON object per board instead of text.
    #[arg(long)]
    pub json: bool,
    /// Boards (or '-' for one board per line of standard input).
    #[arg(value_name = "BOARD", required_unless_present = "moves")]
    pub boards: Vec<String>,
}

/// Runs `ttt threats`.
pub fn run(args: &ThreatsArgs) -> anyhow::Result<()> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = match &args.moves {
        Some(moves) => {
            let pos = position_from_moves(args, moves).map_err(input_error)?;
            report(args, &pos, &mut out)
        }
        None => {
            let stdin = io::stdin();
            let mut input = stdin.lock();
            let mut first = true;
            for_each_board(&args.boards, &mut input, |text, origin: Origin| {
                let pos = playable_board(text, args.k, args.exact_k)
                    .map_err(|e| input_error(format!("{origin}: {e}")))?;
                if !args.json && !first {
                    writeln!(out)?;
                }
                first = false;
                report(args, &pos, &mut out).map_err(|e| input_error(format!("{origin}: {e}")))
            })
        }
    };
    out.flush()?;
    result
}

/// The position after `moves` on `--size` with the rule flags.
fn position_from_moves(args: &ThreatsArgs, moves: &str) -> Result<Position, String> {
    let mut rules = with_k(args.size, args.k).map_err(|e| e.to_string())?;
    if args.exact_k {
        rules = rules.with_win_condition(win_condition(true));
    }
    if args.renju {
        rules = rules.with_renju().map_err(|e| e.to_string())?;
    }
    let mut pos = Position::new(rules);
    for word in moves.split(|c: char| c.is_whitespace() || c == ',') {
        if word.is_empty() {
            continue;
        }
        let sq = rules
            .parse_square(word)
            .map_err(|e| format!("--moves: {word:?} is not a square of {rules}: {e}"))?;
        pos.play(sq)
            .map_err(|e| format!("--moves: {word} cannot be played: {e}"))?;
    }
    if pos.outcome().is_over() {
        return Err("--moves: the game is over".to_string());
    }
    Ok(pos)
}

/// The classes listed: from open three up, or all but none.
fn listed(all: bool) -> impl Iterator<Item = ThreatClass> {
    ThreatClass::ALL
        .into_iter()
        .rev()
        .filter(move |&c| c != ThreatClass::None && (all || c.is_forcing()))
}

fn report(args: &ThreatsArgs, pos: &Position, out: &mut impl Write) -> anyhow::Result<()> {
    // Boards up to 9x9 default to k = a full row: say how to ask for five.
    let board = PatternBoard::new(pos).map_err(|e| {
        let hint = if pos.rules().columns().max(pos.rules().rows()) >= 5 {
            " (-k 5 plays five in a row on it)"
        } else {
            " (five in a row needs a side of 5 or more)"
        };
        input_error(format!("{e}{hint}"))
    })?;
    let rules = pos.rules();
    let name = |sq| square_text(rules, sq, args.format);
    // Per side: class name -> cells; and black's forbidden cells (renju).
    let mut sides: [BTreeMap<&str, Vec<String>>; 2] = Default::default();
    let mut order: [Vec<&str>; 2] = Default::default();
    let mut forbidden = Vec::new();
    for mark in Mark::ALL {
        for class in listed(args.all) {
            let mut cells = Vec::new();
            for sq in board.cells_of(mark, class) {
                if rules.is_renju() && mark == Mark::X && renju::forbidden(rules, pos, sq).is_some()
                {
                    forbidden.push(sq);
                } else {
                    cells.push(name(sq));
                }
            }
            if !cells.is_empty() {
                sides[mark.index()].insert(class.name(), cells);
                order[mark.index()].push(class.name());
            }
        }
    }
    forbidden.sort_by_key(|sq| sq.index());
    // The side to move's answers to the other side's strongest threat
    // (black's forbidden cells are no answer).
    let to_move = pos.side_to_move();
    // Left out when the side to move has a threat as strong of its own:
    // moving first, it wins the race.
    let mut trial = board.clone();
    let own_best = [
        ThreatClass::Five,
        ThreatClass::OpenFour,
        ThreatClass::FourThree,
    ]
    .into_iter()
    .find(|&c| board.count(to_move, c) > 0);
    let answers = trial
        .answers(to_move)
        .filter(|&(threat, _)| own_best.is_none_or(|own| own < threat))
        .map(|(threat, cells)| {
            let cells: Vec<String> = cells
                .into_iter()
                .filter(|&sq| {
                    !(rules.is_renju()
                        && to_move == Mark::X
                        && renju::forbidden(rules, pos, sq).is_some())
                })
                .map(name)
                .collect();
            (threat, cells)
        });
    let forbidden: Vec<String> = forbidden.into_iter().map(name).collect();
    if args.json {
        let side = |m: Mark| {
            let mut map = serde_json::Map::new();
            for class in &order[m.index()] {
                map.insert(class.to_string(), sides[m.index()][class].clone().into());
            }
            serde_json::Value::Object(map)
        };
        let json = serde_json::json!({
            "rules": rules.to_string(),
            "to_move": to_move.char().to_string(),
            "x": side(Mark::X),
            "o": side(Mark::O),
            "forbidden": forbidden,
            "answers": answers.as_ref().map(|(threat, cells)| serde_json::json!({
                "against": threat.name(),
                "cells": cells,
            })),
        });
        serde_json::to_writer(&mut *out, &json)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(
        out,
        "{rules}, {} to move",
        to_move.char().to_ascii_uppercase()
    )?;
    for mark in Mark::ALL {
        let label = mark.char().to_ascii_uppercase();
        if order[mark.index()].is_empty() {
            let what = if args.all {
                "no threats"
            } else {
                "nothing forcing"
            };
            writeln!(out, "{label}  {what}")?;
        }
        for (i, class) in order[mark.index()].iter().enumerate() {
            let lead = if i == 0 {
                format!("{label} ")
            } else {
                "  ".to_string()
            };
            writeln!(
                out,
                "{lead} {class}: {}",
                sides[mark.index()][class].join(" ")
            )?;
        }
        if mark == Mark::X && !forbidden.is_empty() {
            writeln!(out, "   forbidden: {}", forbidden.join(" "))?;
        }
    }
    if let Some((threat, cells)) = answers {
        let (me, them) = (
            to_move.char().to_ascii_uppercase(),
            to_move.other().char().to_ascii_uppercase(),
        );
        let cells = if cells.is_empty() {
            "none (lost unless a four of its own comes first)".to_string()
        } else {
            cells.join(" ")
        };
        let threat = match threat {
            ThreatClass::Five => "five",
            ThreatClass::OpenFour => "an open four",
            _ => "a four-three",
        };
        writeln!(out, "{me} must answer ({them} threatens {threat}): {cells}")?;
    }
    Ok(())
}
