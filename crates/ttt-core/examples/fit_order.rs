//! Fits the move-order weights of `strong` on 15x15 (`ORDER_MOVER`,
//! `ORDER_WAITER` in `src/ai/strong/shape/weights/order.rs`) to the moves
//! an engine played in `ttt arena --record` files, and prints them as Rust.
//!
//! ```sh
//! cargo run --release -p ttt-core --example fit_order -- rapfi a.rec b.rec > weights.txt
//! ```
//!
//! The first argument picks the player whose moves are learned (a part of
//! its command in the record, such as `rapfi`); the other arguments are
//! record files. Every position where that player moved after the opening
//! counts; its candidates are the empty cells within two steps of a stone
//! (the engine's), each described by the multiset of its four line
//! patterns for the side to move and for the other side (715 kinds each).
//! The model is a conditional logit: a candidate's chance is proportional
//! to `exp(mover[a] + waiter[b])`. Fitted by full-batch Adam with a light
//! ridge on four fifths of the positions; the other fifth (every fifth
//! position) reports how often the played move is ranked first and among
//! the first 12 (the search's beam). Multisets never seen keep the weight
//! of the all-dead one. Weights are printed in thousandths of a logit.
use std::io::Read;
use ttt_core::pattern::{multiset_index, PatternBoard};
use ttt_core::{Direction, Position, Rules, Square};

/// Multisets of four patterns out of ten.
const KINDS: usize = 715;

/// A position: its candidates' (mover, waiter) multiset indices and which
/// one was played.
struct Sample {
    cells: Vec<(u16, u16)>,
    played: usize,
}

/// The value of `name="..."` in a record line.
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = line.find(&key)? + key.len();
    let rest = &line[start..];
    Some(&rest[..rest.find('"')?])
}

/// The samples of the games in `text` where the player whose command
/// contains `who` moved.
fn samples(text: &str, who: &str, out: &mut Vec<Sample>) {
    let rules = Rules::new(15, 15, 5).expect("15x15 k=5");
    for line in text.lines() {
        let (Some(x), Some(o), Some(moves), Some(opening)) = (
            field(line, "x"),
            field(line, "o"),
            field(line, "moves"),
            field(line, "opening"),
        ) else {
            continue;
        };
        if field(line, "rules") != Some("15x15 k=5") {
            continue;
        }
        let learned = [x.contains(who), o.contains(who)];
        let skip = opening.split_whitespace().count();
        let mut pos = Position::new(rules);
        let Ok(mut board) = PatternBoard::new(&pos) else {
            continue;
        };
        for (i, name) in moves.split_whitespace().enumerate() {
            let Ok(sq) = rules.parse_square(name) else {
                break;
            };
            let me = pos.side_to_move();
            if i >= skip && learned[me.index()] {
                let near = |c: Square| {
                    rules.squares().any(|s| {
                        pos.get(s).is_some()
                            && (i32::from(s.column()) - i32::from(c.column())).abs() <= 2
                            && (i32::from(s.row()) - i32::from(c.row())).abs() <= 2
                    })
                };
                let candidates: Vec<Square> = rules
                    .squares()
                    .filter(|&c| pos.get(c).is_none() && near(c))
                    .collect();
                if let Some(played) = candidates.iter().position(|&c| c == sq) {
                    let multiset = |c: Square, mark| {
                        multiset_index(Direction::ALL.map(|d| board.pattern(c, mark, d))) as u16
                    };
                    let cells = candidates
                        .iter()
                        .map(|&c| (multiset(c, me), multiset(c, me.other())))
                        .collect();
                    out.push(Sample { cells, played });
                }
            }
            if pos.play(sq).is_err() {
                break;
            }
            board.play(sq);
            if pos.outcome().is_over() {
                break;
            }
        }
    }
}

/// Each candidate's score under weights `w` (mover's then waiter's).
fn scores(s: &Sample, w: &[f64]) -> Vec<f64> {
    s.cells
        .iter()
        .map(|&(a, b)| w[usize::from(a)] + w[KINDS + usize::from(b)])
        .collect()
}

/// Of `set`, how many have the played move first and among the first 12.
fn ranks(set: &[&Sample], w: &[f64]) -> (usize, usize) {
    let (mut first, mut beam) = (0, 0);
    for s in set {
        let v = scores(s, w);
        let above = v.iter().filter(|&&x| x > v[s.played]).count();
        first += usize::from(above == 0);
        beam += usize::from(above < 12);
    }
    (first, beam)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((who, files)) = args.split_first() else {
        eprintln!("usage: fit_order PLAYER RECORD...");
        std::process::exit(2);
    };
    let mut all = Vec::new();
    for path in files {
        let mut text = String::new();
        match std::fs::File::open(path).and_then(|mut f| f.read_to_string(&mut text)) {
            Ok(_) => samples(&text, who, &mut all),
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
        }
    }
    // Every fifth position is held out.
    let part = |held: bool| -> Vec<&Sample> {
        all.iter()
            .enumerate()
            .filter(|(i, _)| (i % 5 == 4) == held)
            .map(|(_, s)| s)
            .collect()
    };
    let (train, test) = (part(false), part(true));
    eprintln!("{} positions ({} to fit)", all.len(), train.len());
    if train.is_empty() || test.is_empty() {
        eprintln!("no positions of {who}");
        std::process::exit(1);
    }
    // Full-batch Adam on the mean negative log-likelihood plus a ridge.
    let n = 2 * KINDS;
    let (ridge, rate) = (1e-5, 0.2);
    let (mut w, mut m, mut v) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    for step in 1..=1500 {
        let mut grad: Vec<f64> = w.iter().map(|x| 2.0 * ridge * x).collect();
        for s in &train {
            let sc = scores(s, &w);
            let top = sc.iter().cloned().fold(f64::MIN, f64::max);
            let e: Vec<f64> = sc.iter().map(|x| (x - top).exp()).collect();
            let z: f64 = e.iter().sum();
            for (j, &(a, b)) in s.cells.iter().enumerate() {
                let p = e[j] / z - if j == s.played { 1.0 } else { 0.0 };
                let p = p / train.len() as f64;
                grad[usize::from(a)] += p;
                grad[KINDS + usize::from(b)] += p;
            }
        }
        for i in 0..n {
            m[i] = 0.9 * m[i] + 0.1 * grad[i];
            v[i] = 0.999 * v[i] + 0.001 * grad[i] * grad[i];
            let (mh, vh) = (
                m[i] / (1.0 - 0.9f64.powi(step)),
                v[i] / (1.0 - 0.999f64.powi(step)),
            );
            w[i] -= rate * mh / (vh.sqrt() + 1e-9);
        }
    }
    let pct = |x: usize, of: usize| 100.0 * x as f64 / of as f64;
    let (f, b) = ranks(&train, &w);
    eprintln!(
        "fitted: played move first {:.1}%, in the first 12 {:.1}%",
        pct(f, train.len()),
        pct(b, train.len())
    );
    let (f, b) = ranks(&test, &w);
    eprintln!(
        "held out: played move first {:.1}%, in the first 12 {:.1}%",
        pct(f, test.len()),
        pct(b, test.len())
    );
    // Multisets never seen weigh as the all-dead one; thousandths of a
    // logit, the all-dead multiset at 0.
    let mut seen = vec![false; n];
    for s in &all {
        for &(a, b) in &s.cells {
            seen[usize::from(a)] = true;
            seen[KINDS + usize::from(b)] = true;
        }
    }
    for (name, part) in [("ORDER_MOVER", 0), ("ORDER_WAITER", KINDS)] {
        let base = w[part];
        let values: Vec<String> = (0..KINDS)
            .map(|i| {
                let x = if seen[part + i] {
                    w[part + i] - base
                } else {
                    0.0
                };
                ((x * 1000.0).round() as i64)
                    .clamp(-32_000, 32_000)
                    .to_string()
            })
            .collect();
        println!("const {name}: [i16; {KINDS}] = [{}];", values.join(", "));
    }
}
