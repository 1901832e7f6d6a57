//! `ttt play`: the playing side of the program, in two views.
//!
//! - [`line_view`]: plain text, one input per line (piped, or `--plain`).
//! - [`tui`]: full screen, cursor and mouse (stdin and stdout a terminal).
//!
//! Both drive the same [`session::Session`]: turns, undo, hints, scores and
//! the opt-in persistent record ([`stats`]).
use std::io::{self, IsTerminal};
use std::process::ExitCode;

use ttt_cli::common::print_err;

pub mod args;
pub mod input;
pub mod line_view;
pub mod session;
pub mod stats;
pub mod tui;

use args::{Mode, PlayArgs};
use session::Session;

/// How a view ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Normally: the player quit or declined another game (exit 0).
    Done,
    /// Input ended or Ctrl-C in the middle of a game (exit 1).
    Interrupted(Cause),
}

/// What ended a game in progress.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// Ctrl-C.
    CtrlC,
    /// End of input: Ctrl-D on a terminal, or the end of piped input.
    EndOfInput,
}

impl Cause {
    /// The message shown when this ends a game in progress.
    pub fn message(self) -> &'static str {
        match self {
            Cause::CtrlC => "Game interrupted (Ctrl-C).",
            Cause::EndOfInput => "Game abandoned: end of input (Ctrl-D).",
        }
    }
}

/// Runs `ttt play`.
pub fn main(args: PlayArgs) -> ExitCode {
    match run(args) {
        Ok(Exit::Done) => ExitCode::SUCCESS,
        Ok(Exit::Interrupted(_)) => ExitCode::from(1),
        Err(e) => {
            // A closed pipe (e.g. `ttt | head`) is not worth a message.
            if let Some(io) = e.downcast_ref::<io::Error>() {
                if io.kind() == io::ErrorKind::BrokenPipe {
                    return ExitCode::from(1);
                }
            }
            print_err(format_args!("ttt: error: {e:#}"));
            ExitCode::from(2)
        }
    }
}

fn run(args: PlayArgs) -> anyhow::Result<Exit> {
    let rules = args.rules().map_err(anyhow::Error::msg)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    // Warnings go to stderr now and, in the full-screen view (which hides
    // stderr until it ends), into its status line.
    let mut notes: Vec<String> = Vec::new();
    let record = if args.stats {
        let path = stats::default_path()?;
        match stats::Record::load(&path) {
            Ok(r) => Some(r),
            Err(e) => {
                print_err(format_args!("ttt: {e:#}"));
                print_err(format_args!(
                    "ttt: not keeping a record this time; move the file away to start a new one."
                ));
                notes.push(format!(
                    "Not keeping a record this time: {e:#}. Move the file away to start a new one."
                ));
                None
            }
        }
    } else {
        None
    };
    let mut session = Session::new(&args, rules, seed, record);
    for flag in ignored_flags(&args) {
        let mode = clap::ValueEnum::to_possible_value(&args.mode)
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default();
        let note = format!("{flag} has no effect with --mode {mode}");
        print_err(format_args!("ttt: note: {note}"));
        notes.push(format!("Note: {note}."));
    }
    for note in session.player_notes() {
        print_err(format_args!("ttt: note: {note}"));
        notes.push(format!("Note: {note}"));
    }
    let tally = args.mode == Mode::AiVsAi && args.games > 1;
    let terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    if terminal && !args.plain && !tally && !dumb_terminal() {
        return tui::run(&mut session, args.pace, notes);
    }
    line_view::end_on_ctrl_c();
    if args.mode == Mode::AiVsAi {
        return Ok(line_view::run_ai_vs_ai(
            &mut session,
            args.games,
            args.pace,
            io::stdout().lock(),
        )?);
    }
    Ok(line_view::run(
        &mut session,
        io::stdin().lock(),
        io::stdout().lock(),
    )?)
}

/// `TERM=dumb` (or no TERM at all): a terminal that cannot move the cursor
/// or switch screens gets the line view.
fn dumb_terminal() -> bool {
    std::env::var_os("TERM").is_none_or(|t| t.is_empty() || t == "dumb")
}

/// Flags given that the chosen mode does not use.
fn ignored_flags(args: &PlayArgs) -> Vec<&'static str> {
    let mut ignored = Vec::new();
    if args.mode != Mode::AiVsAi {
        if args.games != 1 {
            ignored.push("--games");
        }
        if args.pace.is_some() {
            ignored.push("--pace");
        }
        if args.ai_x.is_some() {
            ignored.push("--ai-x");
        }
        if args.ai_o.is_some() {
            ignored.push("--ai-o");
        }
    }
    if args.mode != Mode::HumanVsAi && args.first != args::First::Ask {
        ignored.push("--first");
    }
    ignored
}

/// A seed when none is given: the clock and the process id.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    nanos ^ (u64::from(std::process::id()) << 32)
}
