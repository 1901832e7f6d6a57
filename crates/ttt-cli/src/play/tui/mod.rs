//! The full-screen view (crossterm): a box-drawn board, a cursor moved with
//! the arrow keys, WASD or the mouse, Enter/Space to place, squares typed on
//! an input line (`6`, `b2`, `2 2`, then Enter), colours for X, O and the
//! winning line (off with `NO_COLOR`; marks and the winning line also differ
//! by shape). The terminal is restored on every exit: normal, error, Ctrl-C
//! and Ctrl-D (raw mode delivers them as keys), panic (a hook restores it
//! before the message is printed) and SIGTERM/SIGHUP/SIGQUIT (a watcher
//! thread restores it, then exits with 128 + the signal number); and while
//! the program is suspended (Ctrl-Z or SIGTSTP; SIGCONT takes it back).
mod draw;
mod keys;
mod layout;
mod terminal_state;

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event};
use ttt_core::series::{Players, Seat};
use ttt_core::{Mark, Rules, Square};

use super::input::{squares_help, undo_message};
use super::session::Session;
use super::{Cause, Exit};

use self::layout::*;
use self::terminal_state::*;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// "Do you want to go first? (y/n) [r = random]"
    AskFirst,
    Playing,
    /// "Do you want to play again? (y/n)"
    GameOver,
}

struct Ui<'a> {
    session: &'a mut Session,
    phase: Phase,
    cursor: (u8, u8),
    /// The last event's answer; may hold several lines (`?`).
    message: String,
    confirm_quit: bool,
    colour: bool,
    pace: Duration,
    layout: Option<Layout>,
    hint: Option<Square>,
    /// The computer is choosing its move on another thread: the board must
    /// not change meanwhile.
    thinking: bool,
    /// Keys and clicks that came on the computer's turn, to be applied in
    /// order once it is the player's turn again (dropped, with a word, if
    /// the computer's move ends the game).
    typed_ahead: VecDeque<Event>,
    /// The player moved the cursor (keys or hint) since the last move: Enter
    /// on an empty input line places there. Otherwise that Enter places
    /// nothing (it is most likely left over from typing a square).
    cursor_moved: bool,
    /// The input line: a square (or command) being typed.
    typed: String,
    /// `typed` is one movement letter (a, d, s, w) that also names a column:
    /// it moved the cursor, and becomes a coordinate only if a digit follows.
    tentative: bool,
    /// `typed` was refused by Enter: still shown, and Backspace edits it,
    /// but the next character starts a new entry (typing 8 after a refused
    /// "9x" means 8, not "9x8").
    refused: bool,
    /// Warnings from the start (the record not kept, ignored flags, slow
    /// players), shown under the board for the whole session.
    notes: Vec<String>,
}

/// Runs the session full screen; `notes` are shown under the board.
pub fn run(session: &mut Session, pace: Option<u64>, notes: Vec<String>) -> anyhow::Result<Exit> {
    let colour = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let rules = *session.rules();
    let mut ui = Ui {
        session,
        phase: Phase::AskFirst,
        cursor: ((rules.columns() - 1) / 2, (rules.rows() - 1) / 2),
        message: String::new(),
        confirm_quit: false,
        colour,
        pace: Duration::from_millis(pace.unwrap_or(500)),
        layout: None,
        hint: None,
        thinking: false,
        typed_ahead: VecDeque::new(),
        cursor_moved: false,
        typed: String::new(),
        tentative: false,
        refused: false,
        notes,
    };
    let exit = {
        let _guard = Guard::enter()?;
        // Test hook: proves the panic hook gives the terminal back.
        if std::env::var_os("TTT_TEST_PANIC").is_some() {
            panic!("TTT_TEST_PANIC is set");
        }
        ui.new_game();
        if let Some(record) = ui.session.record_line() {
            ui.message = format!("{} {record}", ui.message).trim().to_string();
        }
        ui.event_loop()
    };
    // Back on the normal screen: the exit line.
    let mut out = io::stdout();
    if ui.session.games_started() > 0 {
        writeln!(out, "{}", ui.session.score_line())?;
    }
    match exit {
        Ok(Exit::Interrupted(cause)) => writeln!(out, "{} Thanks for playing!", cause.message())?,
        _ => writeln!(out, "Thanks for playing!")?,
    }
    exit
}

/// Whether `c` names a column of the board (`a` is the first).
fn is_column_letter(rules: &Rules, c: char) -> bool {
    c.is_ascii_lowercase() && (c as u8 - b'a') < rules.columns()
}

impl Ui<'_> {
    pub(super) fn new_game(&mut self) {
        self.hint = None;
        self.clear_typed();
        if self.session.must_ask_first() {
            self.phase = Phase::AskFirst;
        } else {
            self.start(None);
        }
    }

    pub(super) fn start(&mut self, you_first: Option<bool>) {
        self.session.start_game(you_first);
        self.phase = Phase::Playing;
        self.cursor_moved = false;
        self.message = match self.session.human_mark() {
            Some(Mark::X) => "You go first: you are X.".into(),
            Some(Mark::O) => "I go first: you are O.".into(),
            None => String::new(),
        };
    }

    pub(super) fn clear_typed(&mut self) {
        self.typed.clear();
        self.tentative = false;
        self.refused = false;
    }

    /// Whether the game can go on: the board is on screen and nothing else
    /// is asked. While the board does not fit, nothing moves.
    pub(super) fn running(&self) -> bool {
        self.phase == Phase::Playing && !self.confirm_quit && self.layout.is_some()
    }

    pub(super) fn event_loop(&mut self) -> anyhow::Result<Exit> {
        loop {
            self.draw()?;
            if self.running() {
                if let Seat::Computer(_) = self.session.seat_to_move() {
                    // Let the watcher see each move; stay responsive meanwhile.
                    let wait = if matches!(self.session.players(), Players::ComputerVsComputer(..))
                    {
                        self.pace
                    } else {
                        Duration::ZERO
                    };
                    if let Some(exit) = self.wait_for_key(wait)? {
                        return Ok(exit);
                    }
                    if self.running() && matches!(self.session.seat_to_move(), Seat::Computer(_)) {
                        if let Some(exit) = self.computer_turn()? {
                            return Ok(exit);
                        }
                    }
                    continue;
                }
                if let Some(ev) = self.typed_ahead.pop_front() {
                    if let Some(exit) = self.handle(ev)? {
                        return Ok(exit);
                    }
                    continue;
                }
            }
            if let Some(ev) = self.next_event()? {
                if let Some(exit) = self.handle(ev)? {
                    return Ok(exit);
                }
            }
        }
    }

    /// The next event, or `None` when the screen must be drawn again first
    /// (the program was suspended and continued).
    pub(super) fn next_event(&mut self) -> io::Result<Option<Event>> {
        loop {
            if REDRAW.swap(false, Ordering::SeqCst) {
                return Ok(None);
            }
            if event::poll(Duration::from_millis(200))? {
                return event::read().map(Some);
            }
        }
    }

    /// Handles events for up to `wait`; returns an exit if one was asked for.
    pub(super) fn wait_for_key(&mut self, wait: Duration) -> anyhow::Result<Option<Exit>> {
        let end = Instant::now() + wait;
        loop {
            if REDRAW.swap(false, Ordering::SeqCst) {
                self.draw()?;
            }
            let left = end.saturating_duration_since(Instant::now());
            if !event::poll(left.min(Duration::from_millis(200)))? {
                if left <= Duration::from_millis(200) {
                    return Ok(None);
                }
                continue;
            }
            if let Some(exit) = self.handle(event::read()?)? {
                return Ok(Some(exit));
            }
            self.draw()?;
            if left.is_zero() {
                return Ok(None);
            }
        }
    }

    /// The computer moves, on a worker thread while this one keeps reading
    /// keys: q (with confirmation) and Ctrl-C work while it thinks.
    pub(super) fn computer_turn(&mut self) -> anyhow::Result<Option<Exit>> {
        let mark = self.session.position().side_to_move();
        let Some(job) = self.session.begin_computer_move() else {
            return Ok(None);
        };
        let worker = std::thread::spawn(move || job.run());
        self.thinking = true;
        while !worker.is_finished() {
            let redraw = REDRAW.swap(false, Ordering::SeqCst);
            if event::poll(Duration::from_millis(20))? {
                let ev = event::read()?;
                if let Some(exit) = self.handle(ev)? {
                    // Leaving: the worker's result is not needed.
                    return Ok(Some(exit));
                }
                self.draw()?;
            } else if redraw {
                self.draw()?;
            }
        }
        self.thinking = false;
        let (chosen, tt) = worker
            .join()
            .map_err(|_| anyhow::anyhow!("the computer player failed"))?;
        if let Some(sq) = self.session.end_computer_move(chosen, tt) {
            self.message = match self.session.players() {
                Players::ComputerVsComputer(..) => format!(
                    "{} chooses square {}.",
                    self.session.player_name(mark),
                    self.session.square_name(sq)
                ),
                _ => format!("I am choosing square {}!", self.session.square_name(sq)),
            };
        }
        self.after_move();
        Ok(None)
    }

    pub(super) fn after_move(&mut self) {
        self.hint = None;
        self.cursor_moved = false;
        if let Some(done) = self.session.finish() {
            self.phase = Phase::GameOver;
            self.clear_typed();
            self.message = done.message;
            if let Some(r) = done.record {
                self.message.push_str("  ");
                self.message.push_str(&r);
            }
            if !self.typed_ahead.is_empty() {
                self.typed_ahead.clear();
                self.message
                    .push_str("  (The keys typed meanwhile were dropped: the game is over.)");
            }
        }
    }

    pub(super) fn undo(&mut self) {
        self.message = undo_message(self.session.undo()).into();
        self.hint = None;
        self.cursor_moved = false;
    }

    pub(super) fn give_hint(&mut self) {
        self.message = match self.session.hint() {
            Some((sq, why)) => {
                self.cursor = (sq.column(), sq.row());
                self.cursor_moved = true;
                self.hint = Some(sq);
                format!("Hint: square {} ({why}).", self.session.square_name(sq))
            }
            None => "No hint available.".into(),
        };
    }

    pub(super) fn show_help(&mut self) {
        let rules = *self.session.rules();
        // A command letter that also names a column starts a coordinate: it
        // acts once Enter follows it alone.
        let key = |c: char| {
            if is_column_letter(&rules, c) {
                format!("{c} then Enter")
            } else {
                c.to_string()
            }
        };
        self.message = format!(
            "{} Enter plays it.\nKeys: arrows or WASD move the cursor and Space places there \
             (Enter too, once the cursor has moved); a click places at once; {} undoes your \
             last move, {} gives a hint, {} or Esc asks before quitting; Backspace and Esc \
             edit a typed square; Ctrl-Z suspends. Keys typed while the computer thinks are \
             played after its move.",
            squares_help(&rules),
            key('u'),
            key('h'),
            key('q'),
        );
    }

    /// `q` or Esc: a game in progress asks first.
    pub(super) fn ask_quit(&mut self) -> Option<Exit> {
        if self.session.in_game() {
            self.confirm_quit = true;
            return None;
        }
        Some(Exit::Done)
    }

    pub(super) fn quit_exit(&self, cause: Cause) -> Exit {
        if self.session.in_game() {
            Exit::Interrupted(cause)
        } else {
            Exit::Done
        }
    }

    pub(super) fn place(&mut self) {
        if self.session.seat_to_move() != Seat::Human {
            return;
        }
        let Some(sq) = Square::new(self.cursor.0, self.cursor.1) else {
            return;
        };
        match self.session.human_move(sq) {
            Ok(()) => {
                self.message.clear();
                self.after_move();
            }
            Err(ttt_core::PlayError::Occupied(..)) => {
                self.message = "Invalid move. That cell is already taken.".into();
            }
            Err(e) => self.message = format!("Invalid move: {e}."),
        }
    }
}
