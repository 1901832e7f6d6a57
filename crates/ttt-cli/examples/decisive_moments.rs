//! Where the games of a match were decided: for each game of `ttt arena
//! --record` files, the first position (after the opening) in which a judge
//! engine announces a forced win, and whether a second engine, given that
//! position, sees the win too.
//!
//! ```sh
//! cargo run --release -p ttt-cli --example decisive_moments -- \
//!     --judge ../shared/tools/peers/pbrain-rapfi --judge-time 500 \
//!     --engine target/release/pbrain-ttt --engine-time 1000,5000 match.rec
//! ```
//!
//! The judge (a Gomocup engine that prints `Eval +M23`-style verdicts in
//! its MESSAGE lines, as Rapfi does) is asked about every position from
//! the opening's end on, until its verdict is a forced win for one side
//! (`+M`/`-M`, from the side to move's view). One line per game: the
//! game, the ply of that position, who has the win (X or O, and which
//! engine of the match plays that side), in how many plies, the game's
//! result, and for each `--engine-time` whether `--engine` (whose MESSAGE
//! lines say `eval +M21`, as `pbrain-ttt`'s do) announces a win for the
//! same side within that time. A summary follows: how early the games were
//! decided and how often the engine saw it.
use std::collections::BTreeMap;

mod games;
mod peer;
mod verdict;

use clap::Parser;
use verdict::Verdict;

/// Where the games of a match were decided: the first forced win a judge
/// engine announces in each game, and whether another engine sees it.
#[derive(Parser)]
struct Args {
    /// The judge: a Gomocup engine that prints `Eval +M23`-style verdicts.
    #[arg(long, value_name = "CMD")]
    judge: String,
    /// The judge's time a position.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    judge_time: u64,
    /// An engine given each decisive position.
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// Its times a position (each one a try).
    #[arg(long, value_name = "MS", value_delimiter = ',', default_value = "1000")]
    engine_time: Vec<u64>,
    /// `ttt arena --record` files.
    #[arg(required = true, value_name = "RECORD")]
    records: Vec<String>,
}

/// The engine's last verdict on the position after `moves`, given `ms`.
fn ask(cmd: &str, moves: &[String], ms: u64) -> Option<Verdict> {
    verdict::ask("decisive_moments", cmd, moves, ms).1
}

fn main() {
    let Args {
        judge,
        judge_time: judge_ms,
        engine,
        engine_time: engine_ms,
        records,
    } = Args::parse();
    // Plies of the first forced win, per game; how often the side with it
    // won; how often the engine saw it, per time.
    let (mut decided_at, mut played, mut held) = (Vec::new(), 0, 0);
    let mut seen: BTreeMap<u64, (u32, u32)> = BTreeMap::new();
    for g in games::read(&records, "decisive_moments") {
        let (game, names, result, moves, first) = (
            &g.number,
            &g.players,
            g.result.as_str(),
            &g.moves,
            g.opening,
        );
        played += 1;
        let mut found = None;
        for ply in first..moves.len() {
            if let Some(Verdict::Mate(n)) = ask(&judge, &moves[..ply], judge_ms) {
                found = Some((ply, n));
                break;
            }
        }
        let Some((ply, n)) = found else {
            println!("game {game}: no forced win announced ({result})");
            continue;
        };
        // The side to move at `ply` is X on even plies.
        let to_move = ply % 2;
        let winner = if n > 0 { to_move } else { 1 - to_move };
        let side = ["X", "O"][winner];
        let won = matches!((winner, result), (0, "1-0") | (1, "0-1"));
        decided_at.push(ply);
        held += u32::from(won);
        let base = std::path::Path::new(&names[winner])
            .file_name()
            .map_or(names[winner].to_string(), |f| f.to_string_lossy().into());
        let mut row = format!(
            "game {game}: ply {ply}, {side} ({base}) wins in {} plies; result {result}",
            n.abs()
        );
        if let Some(engine) = &engine {
            for &ms in &engine_ms {
                let sees = match ask(engine, &moves[..ply], ms) {
                    Some(Verdict::Mate(m)) => (m > 0) == (n > 0),
                    _ => false,
                };
                let entry = seen.entry(ms).or_default();
                entry.0 += u32::from(sees);
                entry.1 += 1;
                row.push_str(&format!(
                    "; engine at {ms} ms: {}",
                    if sees { "sees it" } else { "does not" }
                ));
            }
        }
        println!("{row}");
    }
    decided_at.sort_unstable();
    let n = decided_at.len();
    println!("{played} games: a forced win announced in {n}; the side with it won {held} of them");
    if n > 0 {
        let by = |limit: usize| decided_at.iter().filter(|&&p| p <= limit).count();
        println!(
            "first forced win at ply: median {}, by ply 10 in {}, by ply 20 in {}",
            decided_at[n / 2],
            by(10),
            by(20)
        );
    }
    for (ms, (yes, all)) in seen {
        println!("the engine at {ms} ms sees {yes} of those {all} wins");
    }
}
