//! `ttt tactics` (a developer's command, hidden from `ttt --help`): makes,
//! checks and runs the tactics suite of `ttt_core::ai::tactics`.
//!
//! `generate` reads game records of `ttt arena --record` and scans every
//! position after the opening with the threat searches. For each game,
//! kind (`vcf`, `vct`, `defend`) and side to move it keeps one position:
//! the first where the game's move was no answer, else the one hardest to
//! classify (most search nodes). It works out every correct move of those
//! and prints the suite's lines. `make tactics-suite` plays the games and
//! writes the file.
use std::collections::HashSet;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use ttt_core::{Mark, Position, Rules};

use crate::ai::strong::Threat;
use crate::ai::tactics::{self, Kind, Puzzle, Reject, JUDGE_NODES};
use crate::ai::TtEntry;
use crate::common::{grouped, input_error, print_err};
use crate::engine::arena::record::{field, game_number};

const AFTER_HELP: &str = "\
The suite's format, and what makes a position a puzzle: the docs of
ttt_core::ai::tactics (and docs/benchmarks.md). `make tactics-suite` plays
the games and writes crates/ttt-core/src/ai/tactics.txt.

Examples:
  ttt tactics run                           # strong at 20,000 nodes a position
  ttt tactics run --max-nodes 60000 --show  # and list the positions missed
  ttt tactics check --full                  # re-derive every answer set
  ttt arena -x strong -o hard --size 15 --openings --games 40 \\
      --max-nodes 20000 --record games.txt
  ttt tactics generate games.txt > tactics.txt";

/// Arguments of `ttt tactics`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct TacticsArgs {
    #[command(subcommand)]
    pub command: TacticsCommand,
}

/// What `ttt tactics` does.
#[derive(Debug, clap::Subcommand)]
pub enum TacticsCommand {
    /// Print suite lines made from the positions of game records.
    Generate(GenerateArgs),
    /// Check every position of a suite with the threat searches.
    Check(CheckArgs),
    /// Let strong answer every position of a suite; print the score.
    Run(RunArgs),
}

/// Arguments of `ttt tactics generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Game records written by `ttt arena --record` (15x15 k=5 games).
    #[arg(value_name = "RECORD", required = true)]
    pub records: Vec<PathBuf>,
    /// Node cap of each threat search (positions not decided within it
    /// are left out).
    #[arg(long, value_name = "N", default_value_t = JUDGE_NODES)]
    pub max_nodes: u64,
    /// Leave out wins with more correct moves than this.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub max_answers: usize,
    /// Leave out defences with more saving moves than this.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_saves: usize,
}

/// Arguments of `ttt tactics check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The suite file (default: the one compiled in).
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// Also work out every answer set again and compare (slow).
    #[arg(long)]
    pub full: bool,
}

/// Arguments of `ttt tactics run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The suite file (default: the one compiled in).
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// strong's node budget per position (the old spelling --nodes works too).
    #[arg(long, alias = "nodes", value_name = "N", default_value_t = tactics::BENCH_NODES)]
    pub max_nodes: u64,
    /// List the positions strong misses, with its move.
    #[arg(long)]
    pub show: bool,
}

/// Runs `ttt tactics`.
pub fn run(args: &TacticsArgs) -> anyhow::Result<()> {
    match &args.command {
        TacticsCommand::Generate(a) => generate(a),
        TacticsCommand::Check(a) => check(a),
        TacticsCommand::Run(a) => run_suite(a),
    }
}

fn suite_text(path: &Option<PathBuf>) -> anyhow::Result<String> {
    match path {
        None => Ok(tactics::SUITE.to_string()),
        Some(p) => fs::read_to_string(p)
            .with_context(|| format!("{}", p.display()))
            .map_err(|e| input_error(format!("{e:#}"))),
    }
}

fn load(path: &Option<PathBuf>) -> anyhow::Result<Vec<(usize, Puzzle)>> {
    let text = suite_text(path)?;
    tactics::puzzles(&text)
        .map(|(line, p)| {
            p.map(|p| (line, p))
                .map_err(|e| input_error(format!("line {line}: {e}")))
        })
        .collect()
}

/// A position of a game that makes a puzzle.
struct Candidate {
    /// Whether the game's move there was no answer.
    missed: bool,
    /// Search nodes the classification took.
    effort: u64,
    ply: usize,
    pos: Position,
}

fn generate(args: &GenerateArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut seen = HashSet::new();
    let mut counts = [0usize; 3];
    let mut rejected = std::collections::BTreeMap::new();
    writeln!(
        out,
        "# The tactics suite of `ttt bench` (ttt_core::ai::tactics): one position a line,\n\
         # KIND BOARD ANSWERS # SOURCE (record file, game, ply). Written by\n\
         # `make tactics-suite` (ttt tactics generate: threat searches of at most {}\n\
         # nodes, at most {} answers to a win, {} to a defence); remake it rather\n\
         # than edit it.",
        args.max_nodes, args.max_answers, args.max_saves
    )?;
    for path in &args.records {
        let text = fs::read_to_string(path)
            .with_context(|| format!("{}", path.display()))
            .map_err(|e| input_error(format!("{e:#}")))?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        for (index, line) in text.lines().enumerate() {
            let game = game_number(line).unwrap_or("?");
            let (Some(rules), Some(moves)) = (field(line, "rules"), field(line, "moves")) else {
                continue;
            };
            let rules: Rules = rules
                .parse()
                .map_err(|e| input_error(format!("{name} line {}: {e}", index + 1)))?;
            if rules != Rules::new(15, 15, 5)? {
                continue;
            }
            let opening = field(line, "opening").map_or(0, |o| o.split_whitespace().count());
            // For each kind and side to move: the first position where the
            // game's move was no answer, else the hardest one (most search
            // nodes to classify).
            let mut first: [[Option<Candidate>; 2]; 3] = Default::default();
            let mut pos = Position::new(rules);
            for (ply, text) in moves.split_whitespace().enumerate() {
                if pos.outcome().is_over() {
                    break;
                }
                let sq = rules
                    .parse_square(text)
                    .map_err(|e| input_error(format!("{name} game {game}: {text}: {e}")))?;
                if ply >= opening {
                    if let Ok((kind, effort)) = tactics::kind_of(&pos, args.max_nodes) {
                        let slot = &mut first[kind as usize][pos.side_to_move().index()];
                        let missed =
                            tactics::answers(&pos, kind, sq, args.max_nodes) == Threat::NotFound;
                        let better = match slot {
                            None => true,
                            Some(c) => !c.missed && (missed || effort > c.effort),
                        };
                        if better {
                            *slot = Some(Candidate {
                                missed,
                                effort,
                                ply,
                                pos: pos.clone(),
                            });
                        }
                    }
                }
                pos.play(sq)
                    .map_err(|e| input_error(format!("{name} game {game}: {text}: {e}")))?;
            }
            for c in first.into_iter().flatten().flatten() {
                if !seen.insert(c.pos.to_string()) {
                    continue;
                }
                match tactics::examine(&c.pos, args.max_nodes) {
                    Ok(p) if p.answers.len() <= max_answers(args, p.kind) => {
                        let mut text = String::new();
                        p.write(&mut text)?;
                        let missed = if c.missed { ", missed in the game" } else { "" };
                        writeln!(out, "{text} # {name} game {game} ply {}{missed}", c.ply)?;
                        counts[p.kind as usize] += 1;
                    }
                    Ok(_) => *rejected.entry("too many answers").or_insert(0) += 1,
                    Err(r) => *rejected.entry(reject_name(r)).or_insert(0) += 1,
                }
            }
            out.flush()?;
        }
    }
    print_err(format_args!(
        "ttt tactics generate: {} vcf, {} vct, {} defend in {:.1}s; left out: {rejected:?}",
        counts[0],
        counts[1],
        counts[2],
        started.elapsed().as_secs_f64()
    ));
    Ok(())
}

fn max_answers(args: &GenerateArgs, kind: Kind) -> usize {
    match kind {
        Kind::Defend => args.max_saves,
        _ => args.max_answers,
    }
}

fn reject_name(r: Reject) -> &'static str {
    match r {
        Reject::NotApplicable => "not applicable",
        Reject::Forced => "forced",
        Reject::Quiet => "quiet",
        Reject::Unknown => "node cap",
        Reject::Lost => "no saving move",
        Reject::Inconsistent => "inconsistent",
    }
}

fn check(args: &CheckArgs) -> anyhow::Result<()> {
    let puzzles = load(&args.suite)?;
    let mut bad = 0;
    for (line, p) in &puzzles {
        if let Err(e) = tactics::check(p) {
            print_err(format_args!("line {line}: {e}"));
            bad += 1;
            continue;
        }
        if args.full {
            match tactics::examine(&p.pos, JUDGE_NODES) {
                Ok(again) if again.answers == p.answers && again.kind == p.kind => {}
                Ok(_) => {
                    print_err(format_args!("line {line}: the answers differ"));
                    bad += 1;
                }
                Err(r) => {
                    print_err(format_args!("line {line}: {}", reject_name(r)));
                    bad += 1;
                }
            }
        }
    }
    println!("{} positions, {bad} bad", puzzles.len());
    if bad > 0 {
        return Err(anyhow::anyhow!("{bad} positions failed the check"));
    }
    Ok(())
}

fn run_suite(args: &RunArgs) -> anyhow::Result<()> {
    let puzzles = load(&args.suite)?;
    let mut tt = vec![TtEntry::EMPTY; tactics::TABLE_ENTRIES];
    let mut solved = [0usize; 3];
    let mut total = [0usize; 3];
    let mut nodes = 0;
    let started = Instant::now();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for (line, p) in &puzzles {
        let a = tactics::attempt(p, args.max_nodes, &mut tt);
        let k = p.kind as usize;
        total[k] += 1;
        solved[k] += usize::from(a.solved);
        nodes += a.stats.nodes;
        if args.show && !a.solved {
            let played = a.choice.map_or("none".to_string(), |sq| {
                p.pos
                    .rules()
                    .display_square(sq, ttt_core::SquareFormat::Coord)
                    .to_string()
            });
            let to_move = if p.pos.side_to_move() == Mark::X {
                "x"
            } else {
                "o"
            };
            writeln!(
                out,
                "line {line}: {} {to_move} to move, played {played}, {} answers",
                p.kind.name(),
                p.answers.len()
            )?;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    for kind in Kind::ALL {
        let k = kind as usize;
        writeln!(out, "{:<7} {:>4}/{:<4}", kind.name(), solved[k], total[k])?;
    }
    writeln!(
        out,
        "solved {}/{} at {} nodes a position: {} nodes, {secs:.2}s",
        solved.iter().sum::<usize>(),
        total.iter().sum::<usize>(),
        grouped(args.max_nodes),
        grouped(nodes)
    )?;
    Ok(())
}
