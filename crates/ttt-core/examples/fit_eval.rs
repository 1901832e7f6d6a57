//! Fits `strong`'s evaluation on the pattern board (the cell weights in
//! `src/ai/strong/shape/weights/eval.rs`) to an engine's verdicts, and
//! prints that file anew.
//!
//! ```sh
//! cargo run --release -p ttt-core --example fit_eval -- verdicts.tsv \
//!     --init crates/ttt-core/src/ai/strong/shape/weights/eval.rs > eval.rs
//! ```
//!
//! Input: lines `moves<TAB>verdict` (15x15 freestyle; the verdict of the
//! position after the moves, from the side to move's view, in Rapfi's
//! form: a value whose win rate is `1 / (1 + e^(-v/200))`, or `+M9` /
//! `-M8` for a win or a loss), as `label_positions` (ttt-cli's examples)
//! writes them. The model is the engine's: the evaluation of a position
//! is a tempo bonus, a bonus per 100 empty cells, and over the empty cells
//! a weight by the multiset of the cell's four line patterns for the side
//! to move and one for the other side; its win rate is
//! `1 / (1 + e^(-e/SCALE))`. Fitted by full-batch Adam on the squared
//! error of the win rate, pulled towards the starting weights (`--init`:
//! the current file; else zeros) by a light ridge. Games are split by
//! their first ten moves: four fifths fit, one fifth checks (printed to
//! stderr: the error of the starting weights and of the fitted ones on
//! the held-out positions).
use std::collections::HashMap;

use ttt_core::pattern::{multiset_index, PatternBoard, MULTISETS};
use ttt_core::{Direction, Position, Rules};

/// Parameters: the two cell tables, then the tempo and the per-100-empty
/// bonus.
const PARAMS: usize = 2 * MULTISETS + 2;
/// A logit of the evaluation.
const SCALE: f64 = 2500.0;

struct Sample {
    /// (parameter index, count).
    features: Vec<(u32, f32)>,
    target: f64,
    held_out: bool,
}

fn target(verdict: &str) -> Option<f64> {
    if verdict.starts_with("+M") {
        Some(1.0)
    } else if verdict.starts_with("-M") {
        Some(0.0)
    } else {
        let v: f64 = verdict.parse().ok()?;
        Some(1.0 / (1.0 + (-v / 200.0).exp()))
    }
}

/// The numbers of the array `name` in a Rust source file.
fn read_array(text: &str, name: &str) -> Option<Vec<f64>> {
    let start = text.find(&format!("const {name}"))?;
    let open = start + text[start..].find("= [")? + 3;
    let close = open + text[open..].find(']')?;
    text[open..close]
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().ok())
        .collect()
}

/// The number of the constant `name` in a Rust source file.
fn read_const(text: &str, name: &str) -> Option<f64> {
    let start = text.find(&format!("const {name}"))?;
    let eq = start + text[start..].find('=')? + 1;
    let end = eq + text[eq..].find(';')?;
    text[eq..end].trim().parse().ok()
}

fn predict(w: &[f64], s: &Sample) -> f64 {
    let v: f64 = s
        .features
        .iter()
        .map(|&(i, c)| w[i as usize] * f64::from(c))
        .sum();
    1.0 / (1.0 + (-v / SCALE).exp())
}

fn error(w: &[f64], samples: &[Sample], held_out: bool) -> f64 {
    let (mut sum, mut n) = (0.0, 0);
    for s in samples.iter().filter(|s| s.held_out == held_out) {
        let d = predict(w, s) - s.target;
        sum += d * d;
        n += 1;
    }
    sum / n.max(1) as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut paths = Vec::new();
    let mut init = None;
    let mut iterations = 3000;
    let mut ridge = 1e-7;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--init" => {
                init = args.get(i + 1).cloned();
                i += 1;
            }
            "--iterations" => {
                iterations = args
                    .get(i + 1)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(iterations);
                i += 1;
            }
            "--ridge" => {
                ridge = args
                    .get(i + 1)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(ridge);
                i += 1;
            }
            a => paths.push(a.to_string()),
        }
        i += 1;
    }
    if paths.is_empty() {
        eprintln!("usage: fit_eval [--init FILE] [--iterations N] [--ridge R] VERDICTS.tsv...");
        std::process::exit(2);
    }
    let rules = Rules::new(15, 15, 5).expect("15x15");
    let mut samples = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("fit_eval: {path}: {e}");
            std::process::exit(1);
        });
        for line in text.lines() {
            let Some((moves, verdict)) = line.split_once('\t') else {
                continue;
            };
            let Some(t) = target(verdict.trim()) else {
                continue;
            };
            let mut pos = Position::new(rules);
            let ok = moves.split_whitespace().all(|m| {
                rules
                    .parse_square(m)
                    .ok()
                    .is_some_and(|sq| pos.play(sq).is_ok())
            });
            let Ok(board) = PatternBoard::new(&pos) else {
                continue;
            };
            if !ok {
                continue;
            }
            let me = pos.side_to_move();
            let mut counts: HashMap<u32, f32> = HashMap::new();
            let mut empty = 0;
            for sq in rules.squares() {
                if board.get(sq).is_some() {
                    continue;
                }
                empty += 1;
                for (side, offset) in [(me, 0), (me.other(), MULTISETS)] {
                    let r = multiset_index(Direction::ALL.map(|d| board.pattern(sq, side, d)));
                    *counts.entry((offset + r) as u32).or_default() += 1.0;
                }
            }
            let mut features: Vec<(u32, f32)> = counts.into_iter().collect();
            features.push((2 * MULTISETS as u32, 1.0));
            features.push((2 * MULTISETS as u32 + 1, empty as f32 / 100.0));
            let opening: String = moves.split_whitespace().take(10).collect();
            let held_out = opening
                .bytes()
                .fold(0u32, |h, b| h.wrapping_mul(31) ^ u32::from(b))
                % 5
                == 0;
            samples.push(Sample {
                features,
                target: t,
                held_out,
            });
        }
    }
    let mut w0 = vec![0.0f64; PARAMS];
    if let Some(path) = &init {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if let (Some(m), Some(wt)) = (
            read_array(&text, "MOVER_CELL"),
            read_array(&text, "WAITER_CELL"),
        ) {
            w0[..MULTISETS].copy_from_slice(&m[..MULTISETS]);
            w0[MULTISETS..2 * MULTISETS].copy_from_slice(&wt[..MULTISETS]);
        }
        w0[2 * MULTISETS] = read_const(&text, "TEMPO").unwrap_or(0.0);
        w0[2 * MULTISETS + 1] = read_const(&text, "TEMPO_PER_100_EMPTY").unwrap_or(0.0);
    }
    let fit: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    eprintln!(
        "fit_eval: {} positions ({} held out); held-out squared error of the starting weights {:.5}",
        samples.len(),
        samples.len() - fit.len(),
        error(&w0, &samples, true)
    );
    // Adam, full batch.
    let mut w = w0.clone();
    let (mut m, mut v) = (vec![0.0; PARAMS], vec![0.0; PARAMS]);
    let (lr, b1, b2, eps) = (20.0, 0.9, 0.999, 1e-12);
    for step in 1..=iterations {
        let mut grad = vec![0.0; PARAMS];
        for s in &fit {
            let p = predict(&w, s);
            let g = 2.0 * (p - s.target) * p * (1.0 - p) / SCALE;
            for &(i, c) in &s.features {
                grad[i as usize] += g * f64::from(c);
            }
        }
        let n = fit.len().max(1) as f64;
        for k in 0..PARAMS {
            let g = grad[k] / n + 2.0 * ridge * (w[k] - w0[k]);
            m[k] = b1 * m[k] + (1.0 - b1) * g;
            v[k] = b2 * v[k] + (1.0 - b2) * g * g;
            let mh = m[k] / (1.0 - b1.powi(step));
            let vh = v[k] / (1.0 - b2.powi(step));
            w[k] -= lr * mh / (vh.sqrt() + eps);
        }
        if step % 500 == 0 {
            eprintln!(
                "fit_eval: step {step}: fit {:.5}, held out {:.5}",
                error(&w, &samples, false),
                error(&w, &samples, true)
            );
        }
    }
    let table = |name: &str, values: &[f64]| {
        let mut out = format!("pub(in crate::ai::strong) const {name}: [i16; MULTISETS] = [\n");
        let mut line = String::from("   ");
        for x in values {
            let item = format!(" {},", x.round().clamp(-32000.0, 32000.0) as i32);
            if line.len() + item.len() > 99 {
                out.push_str(&line);
                out.push('\n');
                line = String::from("   ");
            }
            line.push_str(&item);
        }
        out.push_str(&line);
        out.push_str("\n];\n");
        out
    };
    println!(
        "//! The evaluation's fitted numbers: what an empty cell is worth, by the\n\
         //! multiset of its four line patterns (index: [`by_multiset`]'s), as a\n\
         //! cell of the side to move ([`MOVER_CELL`]) and as one of the other side\n\
         //! ([`WAITER_CELL`]), and what having the move is worth, on the scale of\n\
         //! the search's values (a logit of win rate is {SCALE}).\n\
         //!\n\
         //! Made by `make refit-eval` (ttt-core's `fit_eval` example; the data and\n\
         //! how they were made: docs/engine.md).\n\
         //!\n\
         //! [`by_multiset`]: crate::pattern::by_multiset\n\
         use crate::pattern::MULTISETS;\n\n\
         /// What having the move is worth besides the cells.\n\
         pub(in crate::ai::strong) const TEMPO: i32 = {};\n\
         /// What having the move is worth per 100 empty cells.\n\
         pub(in crate::ai::strong) const TEMPO_PER_100_EMPTY: i32 = {};\n",
        w[2 * MULTISETS].round() as i32,
        w[2 * MULTISETS + 1].round() as i32
    );
    println!(
        "/// Weight of an empty cell of the side to move, by the multiset of its\n/// four line patterns.\n{}",
        table("MOVER_CELL", &w[..MULTISETS])
    );
    println!(
        "/// Weight of an empty cell of the other side, as [`MOVER_CELL`].\n{}",
        table("WAITER_CELL", &w[MULTISETS..2 * MULTISETS])
    );
}
