//! `pbrain-ttt`: the Gomocup brain (the same as `ttt pbrain`), named the way
//! Gomocup managers want brains named.
use clap::Parser;

/// Speak the Gomocup (Piskvork) brain protocol on stdin/stdout.
#[derive(Debug, Parser)]
#[command(name = "pbrain-ttt", version, after_help = ttt_cli::pbrain::HELP)]
struct Args {
    /// Seed for the brain's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() {
    let args = Args::parse();
    if let Err(e) = ttt_cli::pbrain::run_stdio(args.seed) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            ttt_cli::common::print_err(format_args!("pbrain-ttt: {e}"));
            std::process::exit(1);
        }
    }
}
