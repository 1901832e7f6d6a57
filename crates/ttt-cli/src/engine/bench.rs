//! `ttt bench`: the engine's benchmark suite.
use std::io::{self, Write};
use std::sync::OnceLock;
use std::time::Instant;

use serde::Serialize;

use crate::ai::bench::{self, BenchLine, Item};
use crate::ai::Progress;
use crate::common::{alloc_tt, grouped, parse_tt_mb, per_second};
use crate::engine::analyze::ValueJson;
use crate::progress::ProgressLine;

const AFTER_HELP: &str = "\
Runs the engine's fixed benchmark items and prints one line for each: its name,
nodes searched, time, nodes/s, a checksum of the results, and how many times
faster than the plain alpha-beta baseline it was (\"-\" where there is no
baseline, \">\" where the baseline hit its node limit). The final checksum
combines the items' checksums: it is the same on every machine and every run
unless the engine's answers change (compare nodes/s to catch speed changes).
The tactics item also prints how many positions of the tactics suite strong
solved (20,000 nodes each; `ttt tactics run --show` lists the misses).

Examples:
  ttt bench
  ttt bench --json > bench.json
  ttt bench --only 4,4,4 --only prove-5,5,4";

/// Arguments of `ttt bench`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct BenchArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Run only this item (repeatable): 3x3-best-move, 3x3-solve-all, 4,4,4,
    /// 5,5,4, prove-5,5,4, prove-6,5,4, prove-6,6,5, prove-7,6,5, prove-7,7,5,
    /// strong-9x9k5, strong-15x15k5, tactics, patterns-15x15. The total
    /// checksum then covers only these.
    #[arg(long, value_name = "ITEM", value_parser = parse_item)]
    pub only: Vec<Item>,
    /// Transposition table size in MiB (64 MiB holds 2^22 entries).
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = parse_tt_mb)]
    pub tt_mb: usize,
}

fn parse_item(name: &str) -> Result<Item, String> {
    Item::ALL
        .into_iter()
        .find(|i| i.name() == name.trim())
        .ok_or_else(|| {
            let names: Vec<&str> = Item::ALL.iter().map(|i| i.name()).collect();
            format!("unknown item {name:?}: choose one of {}", names.join(", "))
        })
}

static START: OnceLock<Instant> = OnceLock::new();

/// Nanoseconds since the first call: the clock `ttt_core` asks for.
fn clock() -> u64 {
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// The checksum of a whole run: the items' checksums, in order, mixed.
pub fn total_checksum(lines: &[BenchLine]) -> u64 {
    lines.iter().fold(0xcbf2_9ce4_8422_2325, |h, line| {
        (h ^ line.checksum)
            .wrapping_mul(0x100_0000_01b3)
            .rotate_left(29)
    })
}

#[derive(Serialize)]
struct LineJson {
    name: &'static str,
    nodes: u64,
    tt_hits: u64,
    seconds: f64,
    nodes_per_second: u64,
    checksum: String,
    /// Baseline time / engine time.
    baseline_ratio: Option<f64>,
    baseline_finished: bool,
    on_target: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<ValueJson>,
    /// Tactics suite: positions solved, and tried.
    #[serde(skip_serializing_if = "Option::is_none")]
    solved: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    positions: Option<u32>,
}

#[derive(Serialize)]
struct BenchJson {
    items: Vec<LineJson>,
    checksum: String,
}

fn ratio_text(line: &BenchLine) -> String {
    match line.speedup() {
        None => "-".to_string(),
        Some(r) if !line.baseline_done => format!(">{r:.1}x"),
        Some(r) => format!("{r:.1}x"),
    }
}

/// Runs `ttt bench`.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    clock();
    let mut tt = alloc_tt(args.tt_mb)?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut lines = Vec::new();
    let mut failure: Option<io::Error> = None;
    if !args.json {
        writeln!(
            out,
            "{:<16} {:>14} {:>10} {:>14} {:>18} {:>9}",
            "item", "nodes", "time", "nodes/s", "checksum", "baseline"
        )?;
        out.flush()?;
    }
    let mut report = |line: BenchLine| {
        if !args.json && failure.is_none() {
            let secs = line.ns as f64 / 1e9;
            let solved = line
                .solved
                .map_or(String::new(), |(s, n)| format!("  solved {s}/{n}"));
            let written = writeln!(
                out,
                "{:<16} {:>14} {:>9.3}s {:>14} {:>18} {:>9}{solved}",
                line.item.name(),
                grouped(line.nodes),
                secs,
                grouped(per_second(line.nodes, secs)),
                format!("{:016x}", line.checksum),
                ratio_text(&line)
            )
            .and_then(|()| out.flush());
            if let Err(e) = written {
                failure = Some(e);
            }
        }
        lines.push(line);
    };
    let items: Vec<Item> = if args.only.is_empty() {
        Item::ALL.to_vec()
    } else {
        Item::ALL
            .into_iter()
            .filter(|i| args.only.contains(i))
            .collect()
    };
    for item in items {
        let unit = if item == Item::Tactics {
            "solved"
        } else {
            "root moves"
        };
        let mut progress = ProgressLine::new(
            &format!(
                "{}: {{human_pos}} nodes, {{elapsed}}, {{rate}}, {{msg}} {unit}",
                item.name()
            ),
            None,
        );
        let line = bench::run_item(item, clock, &mut tt, &mut |_, p: Progress| {
            progress.message(format!("{}/{}", p.done, p.total));
            progress.set(p.nodes);
        });
        progress.clear();
        report(line);
    }
    if let Some(e) = failure {
        return Err(e.into());
    }
    let total = total_checksum(&lines);
    if args.json {
        let json = BenchJson {
            items: lines
                .iter()
                .map(|line| {
                    let secs = line.ns as f64 / 1e9;
                    LineJson {
                        name: line.item.name(),
                        nodes: line.nodes,
                        tt_hits: line.tt_hits,
                        seconds: secs,
                        nodes_per_second: per_second(line.nodes, secs),
                        checksum: format!("{:016x}", line.checksum),
                        baseline_ratio: line.speedup(),
                        baseline_finished: line.baseline_done,
                        on_target: line.on_target(),
                        value: line.value.map(Into::into),
                        solved: line.solved.map(|(s, _)| s),
                        positions: line.solved.map(|(_, n)| n),
                    }
                })
                .collect(),
            checksum: format!("{total:016x}"),
        };
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        writeln!(out, "checksum {total:016x}")?;
    }
    out.flush()?;
    Ok(())
}
