//! `ttt`: play tic-tac-toe and m,n,k-games in a terminal.
//!
//! `ttt` with no subcommand is `ttt play`; play flags are accepted at the top
//! level too (`ttt --size 4`).
#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod play;

/// Tic-tac-toe and its bigger cousins (m,n,k-games up to 16x16).
#[derive(Parser, Debug)]
#[command(
    name = "ttt",
    version,
    about,
    args_conflicts_with_subcommands = true,
    after_help = play::args::EXAMPLES
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no subcommand: the flags of `ttt play`.
    #[command(flatten)]
    play: play::args::PlayArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game: against the computer, two people, or computer against computer.
    #[command(after_help = play::args::EXAMPLES)]
    Play(play::args::PlayArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => play::main(cli.play),
        Some(Command::Play(args)) => play::main(args),
    }
}
