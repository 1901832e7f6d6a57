//! Wins an engine announces that are not there: in every position of
//! `ttt arena --record` files where the engine named by `--side` was to
//! move, ask `--engine` for `--engine-time` ms; where it announces a
//! forced win (`eval +M17` in its MESSAGE lines, as `pbrain-ttt` says it),
//! play its move and ask the judge (a Gomocup engine that prints `Eval
//! -M16`-style verdicts, as Rapfi does) about the position after it.
//!
//! ```sh
//! cargo run --release -p ttt-cli --example false_wins -- \
//!     --engine target/release/pbrain-ttt --side pbrain-ttt \
//!     --judge ../shared/tools/peers/pbrain-rapfi --judge-time 1000 match.rec
//! ```
//!
//! One line per announced win: the game, the ply, the move and the
//! announcement, and the judge's verdict from the side to move's view
//! after the move: `-M` (lost: the win holds), `+M` (the judge wins
//! instead: the announcement was false) or a value (the judge sees no
//! forced result in its time: neither), and the game's result. A
//! summary follows. The engine asked need not be the one that played:
//! the positions are the record's, so two engines are compared on the
//! same positions.
mod games;
mod peer;
mod verdict;

use clap::Parser;
use verdict::Verdict;

/// The wins an engine announces in the positions of arena records, each
/// judged by a peer engine after the announced move.
#[derive(Parser)]
struct Args {
    /// The engine asked for a move in each position.
    #[arg(long, value_name = "CMD")]
    engine: String,
    /// Its time a position.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    engine_time: u64,
    /// The player whose positions are asked (a part of its name in the records).
    #[arg(long, value_name = "NAME")]
    side: String,
    /// The judge: a Gomocup engine that prints `Eval -M16`-style verdicts.
    #[arg(long, value_name = "CMD")]
    judge: String,
    /// The judge's time a position.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    judge_time: u64,
    /// `ttt arena --record` files.
    #[arg(required = true, value_name = "RECORD")]
    records: Vec<String>,
}

/// An engine's move and its last verdict on the position after `moves`,
/// given `ms`.
fn ask(cmd: &str, moves: &[String], ms: u64) -> (Option<String>, Option<Verdict>) {
    verdict::ask("false_wins", cmd, moves, ms)
}

fn main() {
    let Args {
        engine,
        engine_time: engine_ms,
        side,
        judge,
        judge_time: judge_ms,
        records,
    } = Args::parse();
    let (mut positions, mut announced, mut held, mut refuted) = (0u32, 0u32, 0u32, 0u32);
    for g in games::read(&records, "false_wins") {
        let (game, moves, first) = (&g.number, &g.moves, g.opening);
        // Which side the named engine played: X moves on even plies.
        let Some(ours) = g.players.iter().position(|p| p.contains(side.as_str())) else {
            continue;
        };
        for ply in (first..moves.len()).filter(|p| p % 2 == ours) {
            positions += 1;
            let (Some(mv), Some(Verdict::Mate(n))) = ask(&engine, &moves[..ply], engine_ms) else {
                continue;
            };
            if n <= 0 {
                continue;
            }
            announced += 1;
            let mut after = moves[..ply].to_vec();
            after.push(mv.clone());
            let (_, judged) = ask(&judge, &after, judge_ms);
            let said = match judged {
                Some(Verdict::Mate(m)) if m < 0 => {
                    held += 1;
                    format!("judge: lost in {} (holds)", -m)
                }
                Some(Verdict::Mate(m)) => {
                    refuted += 1;
                    format!("judge: wins in {m} instead (false)")
                }
                Some(Verdict::Value(v)) => format!("judge: {v} (no forced result seen)"),
                None => "judge: no verdict".to_string(),
            };
            println!(
                "game {game} ply {ply}: {mv} announced +M{n}; {said}; result {}",
                g.result
            );
        }
    }
    println!(
        "{positions} positions: a win announced in {announced}; the judge confirms {held}, \
         refutes {refuted}, sees no forced result in {}",
        announced - held - refuted
    );
}
