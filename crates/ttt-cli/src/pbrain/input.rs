//! Reading the manager's input: line by line after each answer ([`run`]),
//! or on a thread of its own so that END or a new game stops a search at
//! once ([`serve`]).
use std::io::{self, BufRead, Write};
use std::sync::mpsc;
use std::thread;

use super::brain::Brain;
use super::interrupts::Interrupts;
use super::protocol::interrupts_thinking;
use super::session::{Flow, Session};
use crate::lines::{read_line_bounded, Line};

/// Runs a session until END or the end of the input, reading each line
/// after answering the one before (for scripts and tests: nothing
/// interrupts a search; see [`serve`] for a manager).
pub fn run<B: Brain>(brain: B, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
    let mut session = Session::new(brain);
    loop {
        if session.handle_input(read_line_bounded(input)?, out)? == Flow::Exit {
            return Ok(());
        }
    }
}

/// A line from the input thread, and whether it was counted in the
/// session's [`Interrupts`].
struct Incoming {
    line: io::Result<Line>,
    interrupting: bool,
}

/// Runs a session with a manager until END or the end of the input. A
/// thread reads the input while the brain thinks, so END or a new game or
/// position (see [`interrupts_thinking`]) stops the search at once: no move
/// is printed for that turn, and the new command is handled (END returns at
/// once). Other lines (`INFO time_left`, ...) wait until the move is out.
/// The reading thread is left blocked in its read when this returns: for a
/// program that exits then.
pub fn serve<B, R>(brain: B, input: R, out: &mut dyn Write) -> io::Result<()>
where
    B: Brain,
    R: BufRead + Send + 'static,
{
    let mut session = Session::new(brain);
    let interrupts = session.interrupts().clone();
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .name("pbrain-input".into())
        .spawn(move || read_input(input, &interrupts, &sender))?;
    for Incoming { line, interrupting } in receiver {
        if interrupting {
            session.interrupts().settle();
        }
        if session.handle_input(line?, out)? == Flow::Exit {
            return Ok(());
        }
    }
    Ok(())
}

/// The input thread: each line to the session, interrupting lines counted
/// first; stops after the end of the input or a read error (both of which
/// interrupt: nobody is waiting for the move).
fn read_input(mut input: impl BufRead, interrupts: &Interrupts, sender: &mpsc::Sender<Incoming>) {
    loop {
        let line = read_line_bounded(&mut input);
        let (interrupting, last) = match &line {
            Ok(Line::Text(buf)) => (interrupts_thinking(&String::from_utf8_lossy(buf)), false),
            Ok(Line::TooLong { .. }) => (false, false),
            Ok(Line::End) | Err(_) => (true, true),
        };
        if interrupting {
            interrupts.raise();
        }
        if sender.send(Incoming { line, interrupting }).is_err() || last {
            return;
        }
    }
}
