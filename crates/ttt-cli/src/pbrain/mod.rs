//! The Gomocup ("Piskvork") brain protocol over any reader and writer, as
//! `ttt pbrain` and the `pbrain-ttt` program.
//!
//! Commands: START N, RECTSTART W,H, RESTART, BEGIN, TURN x,y,
//! BOARD .. x,y,field .. DONE, TAKEBACK x,y, PLAY x,y, INFO key value, ABOUT, END.
//! Coordinates are zero-based `x,y`, x the column. Boards are 1x1 to 20x20;
//! the win length is five (five or more: "freestyle"; exactly five after
//! `INFO rule 1`), or the longer side on boards smaller than five. Renju
//! and caro (`INFO rule` 4, 8) are not supported: a MESSAGE says so.
//! Answers: `OK`, a move `x,y`, `ERROR message` for input that cannot be
//! played, `UNKNOWN message` for unknown commands.
pub mod protocol;
pub mod session;

use std::io;

pub use session::{run, Brain, EngineBrain, Flow, Info, Session};

/// The part of `--help` that explains the protocol (`ttt pbrain`, `pbrain-ttt`).
pub const HELP: &str = "\
The same program is installed as pbrain-ttt, the name Gomocup managers expect.
Boards 1x1 to 20x20; five in a row wins (five or more; exactly five after
INFO rule 1), or the longer side on boards smaller than five. Renju and caro
(INFO rule 4, 8) are not supported: a MESSAGE line says so. Uses the perfect player on boards it
can solve and the strong player within INFO timeout_turn / time_left otherwise.

Example session (> from the manager, < from the brain):
  > START 15          < OK
  > INFO timeout_turn 1000
  > BEGIN             < 7,7
  > TURN 8,8          < ...
  > END";

/// Runs the protocol on standard input and output with the engine.
pub fn run_stdio(seed: u64) -> io::Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    run(
        EngineBrain::new(seed),
        &mut stdin.lock(),
        &mut stdout.lock(),
    )
}
