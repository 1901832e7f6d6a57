//! Labels positions of `ttt arena --record` files with a Gomocup engine's
//! verdict, for fitting `strong`'s evaluation (`fit_eval`, in ttt-core's
//! examples; `make refit-eval` runs both).
//!
//! ```sh
//! cargo run --release -p ttt-cli --example label_positions -- \
//!     --engine ../shared/tools/peers/pbrain-rapfi --time 100 RECORD... > verdicts.tsv
//! ```
//!
//! Every position from ply 6 on where neither side has a four on the board
//! (a cell that makes five: the position is tactical, not a matter of
//! judgement) is sent to the engine with `INFO timeout_turn`; its last
//! `Eval` in a MESSAGE line (Rapfi's form: `Eval 176`, `Eval +M21`,
//! `Eval -M8`; from the side to move's view) is written with the moves
//! that led there: `moves<TAB>verdict`, one position a line. Positions a
//! verdict was already written for (in `--skip FILE`, the output of an
//! earlier run) are not asked again, so a long labelling can be resumed.
use std::collections::HashSet;
use std::io::Write;

mod peer;

use ttt_cli::engine::arena::record::field;
use ttt_core::pattern::{PatternBoard, ThreatClass};
use ttt_core::{Mark, Position, Rules};

fn usage() -> ! {
    eprintln!(
        "usage: label_positions --engine CMD [--time MS] [--skip FILE] [--every N] RECORD..."
    );
    std::process::exit(2);
}

/// The engine's verdict on the position after `moves` (15x15 freestyle):
/// its last `Eval` before the move that is a value (Rapfi says
/// `VAL_NONE` before its first iteration ends; such a position is left
/// for a later run).
fn verdict(cmd: &str, moves: &[String], ms: u64) -> Result<Option<String>, String> {
    let mut eval = None;
    peer::think(cmd, moves, ms, |line| {
        if let Some(at) = line.find("Eval ") {
            let word = line[at + 5..].split_whitespace().next().unwrap_or("");
            let digits = word.trim_start_matches(['+', '-']).trim_start_matches('M');
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                eval = Some(word.to_string());
            }
        }
    })?;
    Ok(eval)
}

fn main() {
    let mut engine = None;
    let mut ms = 100u64;
    let mut every = 1usize;
    let mut skip = HashSet::new();
    let mut records = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--engine" => engine = Some(value()),
            "--time" => ms = value().parse().unwrap_or_else(|_| usage()),
            "--every" => every = value().parse::<usize>().unwrap_or_else(|_| usage()).max(1),
            "--skip" => {
                let path = value();
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                skip.extend(
                    text.lines()
                        .filter_map(|l| Some(l.split_once('\t')?.0.to_string())),
                );
            }
            _ if a.starts_with("--") => usage(),
            _ => records.push(a),
        }
    }
    let Some(engine) = engine else { usage() };
    let rules = Rules::new(15, 15, 5).expect("15x15");
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for path in &records {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("label_positions: {path}: {e}");
            std::process::exit(1);
        });
        for line in text.lines() {
            let Some(moves) = field(line, "moves") else {
                continue;
            };
            let moves: Vec<String> = moves.split_whitespace().map(String::from).collect();
            let mut pos = Position::new(rules);
            for (ply, m) in moves.iter().enumerate() {
                if ply >= 6 && ply % every == 0 && !pos.outcome().is_over() {
                    let quiet = PatternBoard::new(&pos).is_ok_and(|b| {
                        Mark::ALL
                            .iter()
                            .all(|&s| b.count(s, ThreatClass::Five) == 0)
                    });
                    let key = moves[..ply].join(" ");
                    if quiet && !skip.contains(&key) {
                        match verdict(&engine, &moves[..ply], ms) {
                            Ok(Some(v)) => {
                                let _ = writeln!(out, "{key}\t{v}");
                                let _ = out.flush();
                                skip.insert(key);
                            }
                            Ok(None) => {}
                            Err(e) => {
                                eprintln!("label_positions: {e}");
                                std::process::exit(1);
                            }
                        }
                    }
                }
                match rules.parse_square(m).ok().map(|sq| pos.play(sq)) {
                    Some(Ok(_)) => {}
                    _ => break,
                }
            }
        }
    }
}
