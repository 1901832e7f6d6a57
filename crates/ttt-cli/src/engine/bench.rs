//! `ttt bench`: the engine's benchmark suite.

const AFTER_HELP: &str = "\
Runs the fixed benchmark positions of the engine and prints, for each, its name,
nodes, time, nodes/s, a checksum of the results and the ratio to the baseline
speed; then a final checksum that is the same on every machine (compare it to
catch behaviour changes; compare nodes/s to catch speed changes).

Examples:
  ttt bench
  ttt bench --json > bench.json";

/// Arguments of `ttt bench`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct BenchArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `ttt bench`.
pub fn run(_args: &BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("the benchmark suite is not available yet (waiting for ttt_core::ai::bench)")
}
