//! The moves that lost: in each game of `ttt arena --record` files that
//! the engine named by `--side` lost, the first of its moves after which a
//! judge engine (a Gomocup engine that prints `Eval +M23`-style verdicts,
//! as Rapfi does) announces a forced win for the opponent, where before it
//! the judge saw no forced loss. With `--engine`, each such position is
//! given to that engine (`--engine-time` ms), and the judge says whether
//! its move holds.
//!
//! ```sh
//! cargo run --release -p ttt-cli --example blunders -- \
//!     --side pbrain-ttt --judge ../shared/tools/peers/pbrain-rapfi --judge-time 1000 \
//!     --engine target/release/pbrain-ttt --engine-time 1000 match.rec
//! ```
//!
//! One line per lost game: the game, the ply, the move that lost, the
//! judge's value before it and its forced win after it; with `--engine`,
//! the engine's move there and whether it holds (the judge announces no
//! forced win after it), repeats the blunder, or loses as well. A summary
//! follows. These are the defence's misses at a match's time: a fast
//! measure of a change, a minute or two a run, beside the match itself.
mod games;
mod peer;
mod verdict;

use clap::Parser;
use verdict::Verdict;

/// The first losing move of each game an engine lost, by a judge engine's
/// verdicts, and what another engine plays there.
#[derive(Parser)]
struct Args {
    /// The engine whose lost games are read (a part of its name in the records).
    #[arg(long, value_name = "NAME")]
    side: String,
    /// The judge: a Gomocup engine that prints `Eval +M23`-style verdicts.
    #[arg(long, value_name = "CMD")]
    judge: String,
    /// The judge's time a position.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    judge_time: u64,
    /// An engine to ask in each losing position.
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// Its time a position.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    engine_time: u64,
    /// `ttt arena --record` files.
    #[arg(required = true, value_name = "RECORD")]
    records: Vec<String>,
}

/// An engine's move and its last verdict on the position after `moves`,
/// given `ms`.
fn ask(cmd: &str, moves: &[String], ms: u64) -> (Option<String>, Option<Verdict>) {
    verdict::ask("blunders", cmd, moves, ms)
}

/// How a verdict reads in a line.
fn shown(v: Option<Verdict>) -> String {
    v.map_or("none".into(), |v| v.to_string())
}

fn main() {
    let Args {
        side,
        judge,
        judge_time: judge_ms,
        engine,
        engine_time: engine_ms,
        records,
    } = Args::parse();
    let (mut lost, mut found, mut held, mut repeated) = (0, 0, 0, 0);
    for g in games::read(&records, "blunders") {
        // Our colour (0: X), and whether we lost.
        let Some(us) = g.players.iter().position(|p| p.contains(side.as_str())) else {
            continue;
        };
        if !matches!((us, g.result.as_str()), (0, "0-1") | (1, "1-0")) {
            continue;
        }
        lost += 1;
        let mut blunder = None;
        for ply in g.opening..g.moves.len() {
            if ply % 2 != us {
                continue;
            }
            // The opponent to move after our move: its forced win?
            let (_, after) = ask(&judge, &g.moves[..=ply], judge_ms);
            if let Some(Verdict::Mate(n)) = after {
                if n > 0 {
                    blunder = Some((ply, after));
                    break;
                }
            }
        }
        let Some((ply, after)) = blunder else {
            println!("game {}: no losing move found ({})", g.number, g.result);
            continue;
        };
        // Before our move: was the game already lost?
        let (_, was) = ask(&judge, &g.moves[..ply], judge_ms);
        if matches!(was, Some(Verdict::Mate(n)) if n < 0) {
            println!(
                "game {}: ply {ply}, already lost before {} ({})",
                g.number,
                g.moves[ply],
                shown(was)
            );
            continue;
        }
        found += 1;
        let mut row = format!(
            "game {}: ply {ply}, {} lost: judge {} before, {} after",
            g.number,
            g.moves[ply],
            shown(was),
            shown(after)
        );
        if let Some(engine) = &engine {
            let (mv, said) = ask(engine, &g.moves[..ply], engine_ms);
            let verdict = match mv {
                None => "no move".to_string(),
                Some(m) if m == g.moves[ply] => {
                    repeated += 1;
                    format!("{m} again")
                }
                Some(m) => {
                    let mut line = g.moves[..ply].to_vec();
                    line.push(m.clone());
                    let (_, then) = ask(&judge, &line, judge_ms);
                    let holds = !matches!(then, Some(Verdict::Mate(n)) if n > 0);
                    held += u32::from(holds);
                    format!(
                        "{m} ({}): {} ({})",
                        shown(said),
                        if holds { "holds" } else { "loses too" },
                        shown(then)
                    )
                }
            };
            row.push_str(&format!("; engine: {verdict}"));
        }
        println!("{row}");
    }
    println!("{lost} games lost; {found} with a losing move the judge saw as not lost before it");
    if engine.is_some() {
        println!(
            "the engine at {engine_ms} ms holds {held} of those {found}, plays the same move in {repeated}"
        );
    }
}
