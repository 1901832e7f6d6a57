//! `ttt solve`: the value of the empty board with perfect play.
use std::io::{self, Write};
use std::time::{Duration, Instant};

use serde::Serialize;
use ttt_core::{Position, Rules};

use crate::ai::{is_solvable, Progress, Solver};
use crate::common::{
    alloc_tt, grouped, input_error, parse_rules, per_second, stderr_is_terminal, with_k,
    DEFAULT_TT_MB,
};
use crate::engine::analyze::ValueJson;

const AFTER_HELP: &str = "\
Prints the value of the empty board for X (who moves first), the nodes searched,
the time and nodes per second. On a terminal a progress line is shown on stderr;
through a pipe only the result is printed.

Examples:
  ttt solve                       # 3x3 k=3: draw
  ttt solve --size 4x4 -k 3       # X wins
  ttt solve --size 5x4 -k 4 --json";

/// Arguments of `ttt solve`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct SolveArgs {
    /// Board size: N, CxR or "CxR k=K".
    #[arg(long, value_name = "CxR", default_value = "3x3", value_parser = parse_rules)]
    pub size: Rules,
    /// Marks in a row to win (default: the board's shorter side).
    #[arg(short, value_name = "K")]
    pub k: Option<u8>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_TT_MB)]
    pub tt_mb: usize,
}

#[derive(Serialize)]
struct SolveJson {
    rules: String,
    columns: u8,
    rows: u8,
    k: u8,
    value: ValueJson,
    nodes: u64,
    tt_hits: u64,
    seconds: f64,
    nodes_per_second: u64,
}

/// Runs `ttt solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<()> {
    let rules = with_k(args.size, args.k)?;
    if !is_solvable(&rules) {
        return Err(input_error(format!(
            "{rules} is too large to solve exactly with this engine"
        )));
    }
    let mut tt = alloc_tt(args.tt_mb)?;
    let pos = Position::new(rules);
    let show = stderr_is_terminal();
    let start = Instant::now();
    let mut last_shown = start;
    let mut shown = false;
    let mut on_progress = |p: Progress| {
        let now = Instant::now();
        if show && now.duration_since(last_shown) >= Duration::from_millis(100) {
            last_shown = now;
            shown = true;
            let secs = now.duration_since(start).as_secs_f64();
            eprint!(
                "\rsolving {rules}: {}/{} root moves, {} nodes, {:.1} s, {} nodes/s   ",
                p.done,
                p.total,
                grouped(p.nodes),
                secs,
                grouped(per_second(p.nodes, secs))
            );
        }
    };
    let (value, stats) = {
        let mut solver = Solver::new(&mut tt);
        solver.set_progress(&mut on_progress);
        let value = solver.solve(&pos);
        (value, solver.stats())
    };
    let secs = start.elapsed().as_secs_f64();
    if shown {
        eprint!("\r\x1b[K");
    }
    let mut out = io::stdout().lock();
    if args.json {
        let json = SolveJson {
            rules: rules.to_string(),
            columns: rules.columns(),
            rows: rules.rows(),
            k: rules.k(),
            value: value.into(),
            nodes: stats.nodes,
            tt_hits: stats.tt_hits,
            seconds: secs,
            nodes_per_second: per_second(stats.nodes, secs),
        };
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        writeln!(out, "{rules}: {value} (for X, moving first)")?;
        writeln!(out, "nodes    {}", grouped(stats.nodes))?;
        writeln!(out, "time     {secs:.3} s")?;
        writeln!(out, "nodes/s  {}", grouped(per_second(stats.nodes, secs)))?;
    }
    out.flush()?;
    Ok(())
}
