//! The Gomocup ("Piskvork") brain protocol over any reader and writer, as
//! `ttt pbrain` and the `pbrain-ttt` program.
//!
//! Commands: START N, RECTSTART W,H, RESTART, BEGIN, TURN x,y,
//! BOARD .. x,y,field .. DONE, TAKEBACK x,y, PLAY x,y, INFO key value, ABOUT, END.
//! Coordinates are zero-based `x,y`, x the column. Boards are 1x1 to 20x20;
//! the win length is five (five or more: "freestyle"; exactly five after
//! `INFO rule 1`), or the longer side on boards smaller than five. Renju
//! (`INFO rule 4`: black, the first player, may not play an overline, a
//! double four or a double three and wins with exactly five) is played on
//! boards of 15x15 and up; caro (`INFO rule 8`) is not supported: a
//! MESSAGE says so.
//! Answers: `OK`, a move `x,y`, `ERROR message` for input that cannot be
//! played, `UNKNOWN message` for unknown commands; each line ends in LF
//! (managers accept LF, CR LF or CR), input lines may end in either.
//!
//! The input is read on its own thread ([`input::serve`]): END, START,
//! RECTSTART, RESTART or BOARD sent while the brain thinks stop the search
//! within milliseconds, the turn gets no move, and the command is handled
//! (END exits); INFO and other lines wait for the move. The end of the
//! input ends the program, a search included.
pub mod brain;
pub mod info;
pub mod input;
mod interrupts;
pub mod protocol;
pub mod session;

use std::io;

pub use brain::{Brain, EngineBrain};
pub use info::Info;
pub use input::{run, serve};
pub use session::{Flow, Session};

/// The part of `--help` that explains the protocol (`ttt pbrain`, `pbrain-ttt`).
pub const HELP: &str = "\
The same program is installed as pbrain-ttt, the name Gomocup managers expect.
Boards 1x1 to 20x20; five in a row wins (five or more; exactly five after
INFO rule 1), or the longer side on boards smaller than five. INFO rule 4 plays
renju on boards of 15x15 and up (black, the first player, may not play an
overline, a double four or a double three; it wins with exactly five). Caro
(INFO rule 8) is not supported: a MESSAGE line says so. Uses the perfect
player on boards it can solve and the strong player otherwise: within INFO
timeout_turn, and under a game clock (timeout_match, time_left) at most a
seventh of what is left, aiming for a 15th (less once its move has held for
three iterations of the search, up to 2.25 times as much while it changes
or its value falls); an empty board is answered with the centre. The
perfect player solves for three quarters of that time at most; a position
it has not solved by then gets the strong player's move in the rest.
While the strong player thinks it reports its search in MESSAGE lines, one
per completed iteration at most every 200 ms and the last before the move:
depth 12-25 | eval +143 (55.7%) | nodes 812K | speed 903K/s | time 899 ms |
pv h8 i9 g7 (depth, then the deepest ply reached; the value for the side to
move, +M9 or -M8 for a proved win or loss in that many plies, else the
evaluation and the win rate it stands for; the line it expects).
Commands are read while it thinks: END, START, RECTSTART, RESTART or BOARD end
the turn at once without a move, so a script must wait for each answer.
BOARD field 3 (a won line of a continuous game) marks a cell nobody plays.
TAKEBACK undoes the last move only.

Example session (> from the manager, < from the brain):
  > START 15          < OK
  > INFO timeout_turn 1000
  > BEGIN             < 7,7
  > TURN 8,8          < ...
  > END";

/// Runs the protocol on standard input and output with the engine; returns
/// at END or the end of the input (the reading thread stays blocked: exit).
pub fn run_stdio(seed: u64) -> io::Result<()> {
    let stdout = io::stdout();
    serve(
        EngineBrain::new(seed),
        io::BufReader::new(io::stdin()),
        &mut stdout.lock(),
    )
}
