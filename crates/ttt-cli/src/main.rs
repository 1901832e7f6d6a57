//! `ttt`: tic-tac-toe and m,n,k-games in a terminal, and the engine for scripts.
//!
//! `ttt` with no subcommand is `ttt play`; play flags are accepted at the top
//! level too (`ttt --size 4`).
#![forbid(unsafe_code)]

use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use clap_complete::Shell;
use ttt_cli::common::{exit_code, is_broken_pipe, print_err};
use ttt_cli::engine::{analyze, arena, bench, join, move_cmd, solve, tactics, threats, verify};

mod play;

const AFTER_HELP: &str = "\
Examples:
  ttt                               # play 3x3 against the computer
  ttt --size 4 --mode two-player    # two people, 4x4
  ttt move x.o/.x./..o              # the best move for X (to move)
  ttt analyze xx./oo./...           # value of every move
  ttt threats --moves \"h8 h9 i8\"    # gomoku: where each side makes fours, threes...
  ttt solve --size 4x4 -k 3         # solve the empty board
  ttt arena -x random -o perfect --games 100 --swap
  ttt bench
  ttt completions bash > ~/.local/share/bash-completion/completions/ttt";

/// Play tic-tac-toe and m,n,k-games (up to 20x20, k in a row), and use the
/// engine from scripts.
#[derive(Debug, Parser)]
#[command(name = "ttt", version, after_help = AFTER_HELP, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no subcommand: the flags of `ttt play`.
    #[command(flatten)]
    play: play::args::PlayArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play a game: against the computer, two people, or computer against computer (the default).
    #[command(after_help = play::args::EXAMPLES)]
    Play(play::args::PlayArgs),
    /// Print the computer's move for each board.
    Move(move_cmd::MoveArgs),
    /// Show the exact value of a board and of each move.
    Analyze(analyze::AnalyzeArgs),
    /// List the threats on a gomoku board: where each side makes a five, an open four, a four-three...
    Threats(threats::ThreatsArgs),
    /// Solve the empty board of a size: its value, nodes, time.
    Solve(solve::SolveArgs),
    /// Check a proof certificate written by `ttt solve --certificate`.
    Verify(verify::VerifyArgs),
    /// Join the parts of a proof (`ttt solve --part N`) into one certificate, and check it.
    Join(join::JoinArgs),
    /// Let two computer players or Gomocup engines play a match.
    Arena(arena::ArenaArgs),
    /// Run the engine benchmark suite.
    Bench(bench::BenchArgs),
    /// Make, check and run the tactics suite (for developers).
    #[command(hide = true)]
    Tactics(tactics::TacticsArgs),
    /// Speak the Gomocup (Piskvork) brain protocol on stdin/stdout.
    #[command(after_help = ttt_cli::pbrain::HELP)]
    Pbrain(PbrainArgs),
    /// Print a shell completion script.
    #[command(after_help = COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
}

/// Arguments of `ttt pbrain`.
#[derive(Debug, clap::Args)]
struct PbrainArgs {
    /// Seed for the brain's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

const COMPLETIONS_HELP: &str = "\
Examples:
  ttt completions bash > ~/.local/share/bash-completion/completions/ttt
  ttt completions zsh > ~/.zfunc/_ttt
  ttt completions fish > ~/.config/fish/completions/ttt.fish";

/// Arguments of `ttt completions`.
#[derive(Debug, clap::Args)]
struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
}

fn main() -> ExitCode {
    ttt_cli::common::mark_start();
    let cli = Cli::parse();
    let result = match &cli.command {
        None => return play::main(cli.play),
        Some(Command::Play(args)) => return play::main(args.clone()),
        Some(Command::Move(args)) => move_cmd::run(args),
        Some(Command::Analyze(args)) => analyze::run(args),
        Some(Command::Threats(args)) => threats::run(args),
        Some(Command::Solve(args)) => solve::run(args),
        Some(Command::Verify(args)) => verify::run(args),
        Some(Command::Join(args)) => join::run(args),
        Some(Command::Arena(args)) => arena::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Tactics(args)) => tactics::run(args),
        Some(Command::Pbrain(args)) => ttt_cli::pbrain::run_stdio(args.seed).map_err(Into::into),
        Some(Command::Completions(args)) => {
            clap_complete::generate(args.shell, &mut Cli::command(), "ttt", &mut io::stdout());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            print_err(format_args!("ttt: error: {e:#}"));
            ExitCode::from(exit_code(&e) as u8)
        }
    }
}
