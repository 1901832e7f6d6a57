//! The line view: a plain text board like the seeds', prompts on stdout, one
//! input per line. Used when piped or with `--plain`, so games can be scripted.
use std::io::{self, BufRead, Write};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use ttt_core::series::{Players, Seat};
use ttt_core::{Mark, Position, Square};

use ttt_cli::lines::{read_line_bounded, too_long_message, Line};

use super::input::{help_text, parse_action, parse_answer, undo_message, Action, Answer};
use super::session::{Session, Undone};
use super::{Cause, Exit};

/// Widest board drawn with grid lines; wider ones (up to 20 columns) drop
/// them and show empty cells as dots, so a row stays within 80 columns.
const GRID_MAX_COLUMNS: u8 = 16;

/// The board as text: column letters on top, row numbers on the left,
/// cells `X`/`O`, the winning line's cells in brackets (`[X]`).
pub fn board_text(pos: &Position) -> String {
    let rules = pos.rules();
    if rules.columns() > GRID_MAX_COLUMNS {
        return gridless_board_text(pos);
    }
    let line = pos.winning_line();
    let mut s = String::from("   ");
    for c in 0..rules.columns() {
        s.push_str(&format!(" {}  ", (b'A' + c) as char));
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    for r in 0..rules.rows() {
        if r > 0 {
            s.push_str("   ");
            let sep: Vec<&str> = (0..rules.columns()).map(|_| "---").collect();
            s.push_str(&sep.join("+"));
            s.push('\n');
        }
        s.push_str(&format!("{:>2} ", r + 1));
        let cells: Vec<String> = (0..rules.columns())
            .map(|c| {
                let Some(sq) = Square::new(c, r) else {
                    return "   ".into();
                };
                let mark = pos.get(sq).map_or(' ', Mark::char);
                if line.is_some_and(|l| l.contains(sq)) {
                    format!("[{mark}]")
                } else {
                    format!(" {mark} ")
                }
            })
            .collect();
        s.push_str(cells.join("|").trim_end());
        s.push('\n');
    }
    s
}

/// [`board_text`] without grid lines: 3 characters a cell, `.` for empty.
fn gridless_board_text(pos: &Position) -> String {
    let rules = pos.rules();
    let line = pos.winning_line();
    let mut s = String::from("   ");
    for c in 0..rules.columns() {
        s.push_str(&format!(" {} ", (b'A' + c) as char));
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    for r in 0..rules.rows() {
        s.push_str(&format!("{:>2} ", r + 1));
        for c in 0..rules.columns() {
            let Some(sq) = Square::new(c, r) else {
                continue;
            };
            let mark = pos.get(sq).map_or('.', Mark::char);
            if line.is_some_and(|l| l.contains(sq)) {
                s.push_str(&format!("[{mark}]"));
            } else {
                s.push_str(&format!(" {mark} "));
            }
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
    }
    s
}

/// What Ctrl-C must say and how it must exit, kept current by the line
/// view: the signal is handled on another thread while this one may be
/// blocked reading a line or waiting for the computer.
struct CtrlCState {
    in_game: bool,
    /// The score line once a game has started.
    score: Option<String>,
}

static CTRL_C_STATE: Mutex<CtrlCState> = Mutex::new(CtrlCState {
    in_game: false,
    score: None,
});

fn note_state(session: &Session) {
    let mut state = CTRL_C_STATE.lock().unwrap_or_else(PoisonError::into_inner);
    state.in_game = session.in_game();
    state.score = (session.games_started() > 0).then(|| session.score_line());
}

/// Makes Ctrl-C end the line view as the help says: "Game interrupted
/// (Ctrl-C)", the score and exit 1 in the middle of a game; the score and
/// exit 0 between games (like `q`), rather than the silent exit 130.
pub fn end_on_ctrl_c() {
    use signal_hook::consts::SIGINT;
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT]) else {
        return; // Without the watcher Ctrl-C just ends the process.
    };
    let _ = std::thread::Builder::new()
        .name("ctrl-c".into())
        .spawn(move || {
            if signals.forever().next().is_none() {
                return;
            }
            let state = CTRL_C_STATE.lock().unwrap_or_else(PoisonError::into_inner);
            let mut text = String::from("\n");
            if state.in_game {
                text.push_str(Cause::CtrlC.message());
                text.push('\n');
            }
            if let Some(score) = &state.score {
                text.push_str(score);
                text.push('\n');
            }
            text.push_str("Thanks for playing!\n");
            // Straight to the descriptor: the main thread holds the stdout
            // lock while it waits for input. Errors (a closed pipe) are moot.
            let mut bytes = text.as_bytes();
            while !bytes.is_empty() {
                match rustix::io::write(rustix::stdio::stdout(), bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => bytes = &bytes[n..],
                }
            }
            std::process::exit(if state.in_game { 1 } else { 0 });
        });
}

struct Lines<R, W> {
    input: R,
    out: W,
}

impl<R: BufRead, W: Write> Lines<R, W> {
    /// Prints `prompt` and reads a line; `None` at end of input. A line
    /// too long to be an answer is refused and the prompt shown again.
    fn ask(&mut self, prompt: &str) -> io::Result<Option<String>> {
        loop {
            write!(self.out, "{prompt}")?;
            self.out.flush()?;
            match read_line_bounded(&mut self.input)? {
                Line::End => return Ok(None),
                Line::Text(buf) => return Ok(Some(String::from_utf8_lossy(&buf).into_owned())),
                Line::TooLong { start, length } => {
                    let message = too_long_message(&start, length);
                    writeln!(self.out, "\nIgnored: {message}.")?;
                }
            }
        }
    }

    /// Asks a yes/no question until answered; `None` at end of input.
    fn ask_yes_no(&mut self, prompt: &str, allow_random: bool) -> io::Result<Option<Answer>> {
        loop {
            let Some(line) = self.ask(prompt)? else {
                return Ok(None);
            };
            match parse_answer(&line) {
                Some(Answer::Random) if !allow_random => {}
                Some(a) => return Ok(Some(a)),
                None => {}
            }
            let options = if allow_random { "y, n or r" } else { "y or n" };
            writeln!(self.out, "Please answer {options} (q quits).")?;
        }
    }
}

/// Plays the session in the line view.
pub fn run<R: BufRead, W: Write>(session: &mut Session, input: R, out: W) -> io::Result<Exit> {
    let mut io = Lines { input, out };
    let rules = *session.rules();
    note_state(session);
    writeln!(
        io.out,
        "Welcome to Tic-Tac-Toe! {}x{} board, {}{} in a row to win{}.",
        rules.columns(),
        rules.rows(),
        if rules.excludes_overlines() && !rules.is_renju() {
            "exactly "
        } else {
            ""
        },
        rules.k(),
        if rules.is_renju() {
            " (renju: X wins with exactly five and may not play an overline, \
             a double four or a double three)"
        } else {
            ""
        }
    )?;
    let players = session.players();
    match players {
        Players::HumanVsComputer(ai) => writeln!(io.out, "You are playing against {ai}.")?,
        Players::TwoHumans => writeln!(io.out, "Two players: X goes first.")?,
        Players::ComputerVsComputer(..) => {}
    }
    if let Some(line) = session.record_line() {
        writeln!(io.out, "{line}")?;
    }
    if let Players::ComputerVsComputer(..) = players {
        return Ok(Exit::Done);
    }
    writeln!(io.out, "{}", help_text(&rules))?;
    loop {
        let you_first = if session.must_ask_first() {
            match io.ask_yes_no("Do you want to go first? (y/n) [r = random] ", true)? {
                None => return goodbye(&mut io.out, session, Exit::Done),
                Some(Answer::Quit) => return goodbye(&mut io.out, session, Exit::Done),
                Some(Answer::Yes) => Some(true),
                Some(Answer::No) => Some(false),
                Some(Answer::Random) => {
                    let c = session.coin();
                    writeln!(
                        io.out,
                        "{}",
                        if c { "You go first." } else { "I go first." }
                    )?;
                    Some(c)
                }
            }
        } else {
            None
        };
        session.start_game(you_first);
        note_state(session);
        if let Some(you) = session.human_mark() {
            writeln!(io.out, "You are {you}; I am {}.", you.other())?;
        }
        writeln!(io.out, "\n{}", session.score_line())?;
        writeln!(io.out, "{}", board_text(session.position()))?;
        if let Some(exit) = play_one(session, &mut io)? {
            return goodbye(&mut io.out, session, exit);
        }
        let finished = session.finish();
        note_state(session);
        if let Some(done) = finished {
            writeln!(io.out, "{}\n", done.message)?;
            writeln!(io.out, "{}", session.score_line())?;
            if let Some(r) = done.record {
                writeln!(io.out, "{r}")?;
            }
        }
        match io.ask_yes_no("Do you want to play again? (y/n) ", false)? {
            Some(Answer::Yes) => writeln!(io.out)?,
            _ => return goodbye(&mut io.out, session, Exit::Done),
        }
    }
}

/// Plays moves until the game ends (`None`) or the program must stop.
fn play_one<R: BufRead, W: Write>(
    session: &mut Session,
    io: &mut Lines<R, W>,
) -> io::Result<Option<Exit>> {
    let rules = *session.rules();
    while !session.position().outcome().is_over() {
        let mark = session.position().side_to_move();
        if let Seat::Computer(_) = session.seat_to_move() {
            if let Some(sq) = session.computer_move() {
                writeln!(
                    io.out,
                    "I am choosing square {}!\n",
                    session.square_name(sq)
                )?;
                writeln!(io.out, "{}", board_text(session.position()))?;
            }
            continue;
        }
        let prompt = match session.players() {
            Players::TwoHumans => format!("Player {mark}, enter a square: "),
            _ => "Enter a square: ".to_string(),
        };
        let Some(line) = io.ask(&prompt)? else {
            writeln!(
                io.out,
                "\nInput ended in the middle of a game; the game is abandoned."
            )?;
            return Ok(Some(Exit::Interrupted(Cause::EndOfInput)));
        };
        match parse_action(&rules, &line) {
            Err(why) => writeln!(io.out, "{why}")?,
            Ok(Action::Help) => writeln!(io.out, "{}", help_text(&rules))?,
            Ok(Action::Quit) => {
                writeln!(io.out, "Exiting the game...")?;
                return Ok(Some(Exit::Done));
            }
            Ok(Action::Undo) => {
                let undone = session.undo();
                writeln!(io.out, "{}", undo_message(undone))?;
                if undone != Undone::Nothing {
                    writeln!(io.out, "\n{}", board_text(session.position()))?;
                }
            }
            Ok(Action::Hint) => match session.hint() {
                Some((sq, why)) => {
                    writeln!(io.out, "Hint: square {} ({why}).", session.square_name(sq))?
                }
                None => writeln!(io.out, "No hint available.")?,
            },
            Ok(Action::Play(sq)) => match session.human_move(sq) {
                Ok(()) => {
                    writeln!(io.out)?;
                    writeln!(io.out, "{}", board_text(session.position()))?;
                }
                Err(ttt_core::PlayError::Occupied(_, m)) => writeln!(
                    io.out,
                    "Invalid move. That cell is already taken (square {} holds {m}). Try again.",
                    session.square_name(sq)
                )?,
                Err(e) => writeln!(io.out, "Invalid move: {e}.")?,
            },
        }
    }
    Ok(None)
}

fn goodbye<W: Write>(out: &mut W, session: &Session, exit: Exit) -> io::Result<Exit> {
    writeln!(out)?;
    if session.games_started() > 0 {
        writeln!(out, "{}", session.score_line())?;
    }
    writeln!(out, "Thanks for playing!")?;
    out.flush()?;
    Ok(exit)
}

/// Computer against computer: one game shown move by move, or many games
/// tallied (boards shown only with `--pace`).
pub fn run_ai_vs_ai<W: Write>(
    session: &mut Session,
    games: u32,
    pace: Option<u64>,
    mut out: W,
) -> io::Result<Exit> {
    let show = games == 1 || pace.is_some();
    let pause = Duration::from_millis(pace.unwrap_or(0));
    writeln!(
        out,
        "{} against {}: {} game{}.",
        session.player_name(Mark::X),
        session.player_name(Mark::O),
        games,
        if games == 1 { "" } else { "s" }
    )?;
    for g in 1..=games {
        session.start_game(None);
        note_state(session);
        if show {
            writeln!(out, "\nGame {g}\n\n{}", board_text(session.position()))?;
        }
        while !session.position().outcome().is_over() {
            let mark = session.position().side_to_move();
            let Some(sq) = session.computer_move() else {
                break;
            };
            if show {
                writeln!(
                    out,
                    "{} chooses square {}.\n\n{}",
                    session.player_name(mark),
                    session.square_name(sq),
                    board_text(session.position())
                )?;
                out.flush()?;
                if !pause.is_zero() {
                    std::thread::sleep(pause);
                }
            }
        }
        let moves = session.position().mark_count();
        let finished = session.finish();
        note_state(session);
        if let Some(done) = finished {
            if show {
                writeln!(out, "{}", done.message)?;
            } else {
                writeln!(out, "Game {g}: {} ({moves} moves)", done.message)?;
            }
            if let (Some(r), true) = (done.record, show || g == games) {
                writeln!(out, "{r}")?;
            }
        }
    }
    writeln!(out, "\n{}", session.score_line())?;
    out.flush()?;
    Ok(Exit::Done)
}
