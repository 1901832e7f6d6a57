//! A game with a Gomocup manager: the state between commands and the answers.
mod board;

use std::cell::RefCell;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use ttt_core::{Mark, Outcome, Position, Rules, Square, SquareSet, MAX_SIDE};

use self::board::BoardInput;
use super::brain::Brain;
use super::info::{win_text, Info, RULE_CARO, RULE_RENJU};
use super::interrupts::Interrupts;
use super::protocol::{arguments, parse_board_line, parse_command, BoardLine, Command};
use crate::ai::Iteration;
use crate::common::Limits;
use crate::lines::{quote_short, too_long_message, Line};
use crate::search_report::Reporter;

/// Gomocup's win length: five in a row (we accept five or more, "freestyle").
pub const GOMOKU_K: u8 = 5;

/// Whether to keep reading after a line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// END: stop.
    Exit,
}

/// A conversation with a manager.
pub struct Session<B: Brain> {
    brain: B,
    pos: Option<Position>,
    /// The stones of the game in the order they came (BOARD, TURN, PLAY, our
    /// moves): TAKEBACK undoes the last one only.
    moves: Vec<Square>,
    board: Option<BoardInput>,
    info: Info,
    interrupts: Interrupts,
}

impl<B: Brain> Session<B> {
    /// A session before START.
    pub fn new(brain: B) -> Session<B> {
        Session {
            brain,
            pos: None,
            moves: Vec::new(),
            board: None,
            info: Info::default(),
            interrupts: Interrupts::default(),
        }
    }

    /// The counter of waiting interrupting lines this session's searches
    /// watch (for the thread that reads the input).
    pub(crate) fn interrupts(&self) -> &Interrupts {
        &self.interrupts
    }

    /// The current position, once a game has started.
    pub fn position(&self) -> Option<&Position> {
        self.pos.as_ref()
    }

    /// The limits received so far.
    pub fn info(&self) -> &Info {
        &self.info
    }

    /// Handles one line from the manager, writing any answer to `out`.
    pub fn handle_line(&mut self, line: &str, out: &mut dyn Write) -> io::Result<Flow> {
        let received = Instant::now();
        if self.board.is_some() {
            return self.board_line(line, received, out);
        }
        match parse_command(line) {
            Command::Blank => {}
            Command::Start(n) => self.start(n, n, arguments(line), out)?,
            Command::RectStart(w, h) => self.start(w, h, arguments(line), out)?,
            Command::Restart => match &self.pos {
                Some(pos) => {
                    self.pos = Some(Position::new(*pos.rules()));
                    self.moves.clear();
                    writeln!(out, "OK")?;
                }
                None => writeln!(out, "ERROR no game to restart: send START first")?,
            },
            Command::Begin => match &self.pos {
                None => writeln!(out, "ERROR no game: send START first")?,
                // BEGIN asks for the first move of a game: on a board with
                // stones the manager and the brain disagree on the position.
                Some(pos) if pos.mark_count() > 0 => writeln!(
                    out,
                    "ERROR BEGIN: the board is not empty; BEGIN starts an empty board \
                     (send RESTART first, or BOARD for a position)"
                )?,
                Some(_) => self.answer(received, out)?,
            },
            Command::Turn(x, y) => {
                let Some(pos) = self.pos.as_mut() else {
                    writeln!(out, "ERROR no game: send START first")?;
                    return Ok(Flow::Continue);
                };
                match square_on(pos.rules(), x, y) {
                    Err(e) => writeln!(out, "ERROR TURN {x},{y}: {e}")?,
                    Ok(sq) => match pos.play(sq) {
                        Err(e) => writeln!(out, "ERROR TURN {x},{y}: {}", play_error(e))?,
                        Ok(()) => {
                            self.moves.push(sq);
                            self.answer(received, out)?;
                        }
                    },
                }
            }
            Command::Play(x, y) => {
                let Some(pos) = self.pos.as_mut() else {
                    writeln!(out, "ERROR no game: send START first")?;
                    return Ok(Flow::Continue);
                };
                // Our move, chosen by the manager: play it and echo it.
                match square_on(pos.rules(), x, y) {
                    Err(e) => writeln!(out, "ERROR PLAY {x},{y}: {e}")?,
                    Ok(sq) => match pos.play(sq) {
                        Err(e) => writeln!(out, "ERROR PLAY {x},{y}: {}", play_error(e))?,
                        Ok(()) => {
                            self.moves.push(sq);
                            writeln!(out, "{x},{y}")?;
                        }
                    },
                }
            }
            Command::Board => {
                if self.pos.is_none() {
                    // Read the lines anyway so they are not taken for commands.
                    self.board = Some(BoardInput::refused("no game: send START first"));
                } else {
                    self.board = Some(BoardInput::default());
                }
            }
            Command::Takeback(x, y) => self.takeback(x, y, out)?,
            Command::Info(key, value) => self.set_info(&key, &value, out)?,
            Command::About => writeln!(
                out,
                "name=\"ttt\", version=\"{}\", author=\"Tic-Tac-Toe 64\", country=\"-\", \
                 www=\"https://example.invalid/tic-tac-toe-64\"",
                env!("CARGO_PKG_VERSION")
            )?,
            Command::End => return Ok(Flow::Exit),
            Command::Unknown(text) => writeln!(out, "UNKNOWN command {}", printable(&text))?,
            Command::Malformed(text) => {
                writeln!(out, "ERROR cannot read arguments of: {}", printable(&text))?
            }
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    /// START or RECTSTART: `sent` is the size as the manager wrote it.
    fn start(
        &mut self,
        columns: u32,
        rows: u32,
        sent: &str,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let max = MAX_SIDE as u32;
        let size = printable(sent);
        if columns == 0 || rows == 0 {
            return writeln!(out, "ERROR unsupported size {size} (min 1)");
        }
        if columns > max || rows > max {
            return writeln!(out, "ERROR unsupported size {size} (max {max})");
        }
        let (c, r) = (columns as u8, rows as u8);
        // Five in a row, or a full line on boards too small for five.
        let k = GOMOKU_K.min(c.max(r));
        match Rules::new(c, r, k) {
            Ok(rules) => {
                let (rules, message) = self.info.apply_to(rules);
                if let Some(message) = message {
                    writeln!(out, "{message}")?;
                }
                self.pos = Some(Position::new(rules));
                self.moves.clear();
                writeln!(out, "OK")
            }
            Err(e) => writeln!(out, "ERROR {e}"),
        }
    }

    /// Thinks, plays and prints the brain's move.
    fn answer(&mut self, received: Instant, out: &mut dyn Write) -> io::Result<()> {
        let Some(pos) = self.pos.as_mut() else {
            return writeln!(out, "ERROR no game: send START first");
        };
        match pos.outcome() {
            Outcome::InProgress => {}
            Outcome::Win(mark) => {
                return writeln!(
                    out,
                    "ERROR the game is over: {} has {} in a row",
                    mark_name(mark),
                    pos.rules().k()
                )
            }
            Outcome::Draw => return writeln!(out, "ERROR the game is over: the board is full"),
        }
        let (most, aim) = self.info.move_times();
        let limits = Limits {
            max_nodes: None,
            deadline: Some(received + most),
            aim: aim.map(|a| received + a),
        };
        let interrupts = self.interrupts.clone();
        let stop = move || interrupts.pending();
        // What the search sees, as it goes: a MESSAGE line now and then
        // (search_report), and the last iteration's when it is done.
        let reporter = RefCell::new(Reporter::new(*pos.rules()));
        let out = RefCell::new(out);
        let watch = |it: &Iteration, elapsed: Duration| {
            if let Some(line) = reporter.borrow_mut().iteration(it, elapsed) {
                let mut out = out.borrow_mut();
                let _ = writeln!(out, "MESSAGE {line}").and_then(|()| out.flush());
            }
        };
        let choice = self
            .brain
            .think(pos, limits, self.info.max_memory, &stop, &watch)
            .filter(|&sq| pos.is_legal(sq))
            .or_else(|| pos.legal_moves().first());
        let out = out.into_inner();
        if self.interrupts.pending() {
            // END or a new game/position came meanwhile: the manager reads
            // its answer next, not this move.
            return Ok(());
        }
        if let Some(line) = reporter.into_inner().finish() {
            writeln!(out, "MESSAGE {line}")?;
        }
        match choice {
            Some(sq) if pos.play(sq).is_ok() => {
                self.moves.push(sq);
                writeln!(out, "{},{}", sq.column(), sq.row())
            }
            _ => writeln!(out, "ERROR no legal move"),
        }
    }

    /// TAKEBACK: managers take back the last move only (the user's undo);
    /// any other cell is an error and changes nothing.
    fn takeback(&mut self, x: u32, y: u32, out: &mut dyn Write) -> io::Result<()> {
        let Some(pos) = self.pos.as_mut() else {
            return writeln!(out, "ERROR no game: send START first");
        };
        let sq = match square_on(pos.rules(), x, y) {
            Ok(sq) => sq,
            Err(e) => return writeln!(out, "ERROR TAKEBACK {x},{y}: {e}"),
        };
        match self.moves.last() {
            None => return writeln!(out, "ERROR TAKEBACK {x},{y}: no move to take back"),
            Some(&last) if last != sq => {
                return writeln!(
                    out,
                    "ERROR TAKEBACK {x},{y}: only the last move ({},{}) can be taken back",
                    last.column(),
                    last.row()
                )
            }
            Some(_) => {}
        }
        if pos.last_move() == Some(sq) {
            pos.undo();
            self.moves.pop();
            return writeln!(out, "OK");
        }
        // The last stone of a BOARD (no history there): rebuild without it.
        // It must be a stone of the side that moved last.
        let last = pos.side_to_move().other();
        if pos.get(sq) != Some(last) {
            return writeln!(
                out,
                "ERROR TAKEBACK {x},{y}: the BOARD gave it to the side to move, \
                 so it cannot be the last move"
            );
        }
        let mut marks = [pos.marks(Mark::X), pos.marks(Mark::O)];
        marks[last.index()].remove(sq);
        match Position::from_marks(*pos.rules(), marks[0], marks[1]) {
            Ok(new) => {
                *pos = new;
                self.moves.pop();
                writeln!(out, "OK")
            }
            Err(e) => writeln!(out, "ERROR TAKEBACK {x},{y}: {e}"),
        }
    }

    fn set_info(&mut self, key: &str, value: &str, out: &mut dyn Write) -> io::Result<()> {
        // Values that are not numbers are ignored, like unknown keys.
        let number = value.trim().parse::<u64>().ok();
        match (key, number) {
            ("timeout_turn", Some(n)) => self.info.timeout_turn = Some(n),
            ("timeout_match", Some(n)) => self.info.timeout_match = Some(n),
            ("time_left", Some(n)) => self.info.time_left = Some(n),
            ("max_memory", Some(n)) => self.info.max_memory = n,
            ("rule", Some(n)) => return self.set_rule(n.min(u32::MAX as u64) as u32, out),
            _ => {}
        }
        Ok(())
    }

    /// `INFO rule`: the win condition applies to the game in progress and
    /// to later STARTs. INFO has no answer, so rule sets we cannot play are
    /// reported with MESSAGE (which managers log) rather than ERROR (which
    /// a manager waiting for a move could take for the answer).
    fn set_rule(&mut self, rule: u32, out: &mut dyn Write) -> io::Result<()> {
        self.info.rule = rule;
        let win = self.info.win_condition_without_renju();
        if let Some(pos) = &self.pos {
            let (rules, message) = self.info.apply_to(*pos.rules());
            if let Some(message) = message {
                writeln!(out, "{message}")?;
            }
            if *pos.rules() != rules {
                match with_rules(pos, rules) {
                    Some(updated) => self.pos = Some(updated),
                    None => writeln!(
                        out,
                        "MESSAGE INFO rule {rule}: the stones on the board are not a game \
                         under these rules; START or BOARD again"
                    )?,
                }
            }
        }
        if rule & RULE_CARO != 0 {
            let playing = if rule & RULE_RENJU != 0 {
                "renju"
            } else {
                win_text(win)
            };
            writeln!(
                out,
                "MESSAGE INFO rule {rule}: caro not supported; playing without its restrictions \
                 ({playing})"
            )?;
        }
        Ok(())
    }
}

impl<B: Brain> Session<B> {
    /// Handles one line as read by [`read_line_bounded`]: returns
    /// [`Flow::Exit`] at END and at the end of the input.
    pub fn handle_input(&mut self, line: Line, out: &mut dyn Write) -> io::Result<Flow> {
        match line {
            Line::End => Ok(Flow::Exit),
            Line::TooLong { start, length } => {
                writeln!(out, "ERROR {}", too_long_message(&start, length))?;
                out.flush()?;
                Ok(Flow::Continue)
            }
            // Managers send ASCII; anything else is garbage, not a reason to stop.
            Line::Text(buf) => self.handle_line(&String::from_utf8_lossy(&buf), out),
        }
    }
}

/// `pos` under other rules: its moves replayed (so TAKEBACK still works),
/// or, for a position set up with BOARD, its stones. `None` if the stones
/// are not a game under the new rules.
fn with_rules(pos: &Position, rules: Rules) -> Option<Position> {
    if pos.history().len() == pos.mark_count() {
        let mut replayed = Position::new(rules);
        if pos.history().iter().all(|&sq| replayed.play(sq).is_ok()) {
            return Some(replayed);
        }
    }
    Position::from_marks(rules, pos.marks(Mark::X), pos.marks(Mark::O)).ok()
}

fn square_on(rules: &Rules, x: u32, y: u32) -> Result<Square, String> {
    if x >= rules.columns() as u32 || y >= rules.rows() as u32 {
        return Err(format!(
            "{x},{y} is off the board (x 0 to {}, y 0 to {})",
            rules.columns() - 1,
            rules.rows() - 1
        ));
    }
    Square::new(x as u8, y as u8).ok_or_else(|| format!("{x},{y} is off the board"))
}

fn play_error(e: ttt_core::PlayError) -> String {
    match e {
        ttt_core::PlayError::Occupied(sq, _) => {
            format!("{},{} is already occupied", sq.column(), sq.row())
        }
        ttt_core::PlayError::Forbidden(sq, why) => format!(
            "{},{} is forbidden to black under renju: {why}",
            sq.column(),
            sq.row()
        ),
        other => other.to_string(),
    }
}

fn mark_name(mark: Mark) -> &'static str {
    match mark {
        Mark::X => "the first player",
        Mark::O => "the second player",
    }
}

/// Echo of manager input in a message: one line, printable, not too long.
fn printable(text: &str) -> String {
    quote_short(text)
}
