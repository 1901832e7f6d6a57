//! Keys and the mouse on the full-screen view: moving the cursor, placing,
//! and the input line where a square or command is typed.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};

use crate::play::input::{parse_action, Action};
use crate::play::{Cause, Exit};

use super::layout::*;
use super::terminal_state::*;
use super::*;

impl Ui<'_> {
    pub(super) fn handle(&mut self, ev: Event) -> anyhow::Result<Option<Exit>> {
        if self.types_ahead(&ev) {
            self.typed_ahead.push_back(ev);
            return Ok(None);
        }
        match ev {
            Event::Key(key) if key.kind != KeyEventKind::Release => self.key(key),
            Event::Mouse(m) => {
                if let (MouseEventKind::Down(MouseButton::Left), Some(l)) = (m.kind, self.layout) {
                    if let Some(sq) = l.cell_at(self.session.rules(), m.column, m.row) {
                        self.cursor = (sq.column(), sq.row());
                        if self.phase == Phase::Playing && !self.confirm_quit && !self.thinking {
                            self.clear_typed();
                            self.place();
                        }
                    }
                }
                Ok(None)
            }
            _ => Ok(None), // resize and focus: the loop redraws
        }
    }

    /// Whether `ev` comes on the computer's turn against a player and waits
    /// for the player's turn: every key and click but Ctrl's, and q or Esc
    /// before anything else is typed (they ask to quit at once, as
    /// always; q is kept when it names a column).
    fn types_ahead(&self, ev: &Event) -> bool {
        let on_computer_turn = self.phase == Phase::Playing
            && !self.confirm_quit
            && self.layout.is_some()
            && !matches!(self.session.players(), Players::ComputerVsComputer(..))
            && matches!(self.session.seat_to_move(), Seat::Computer(_));
        if !on_computer_turn {
            return false;
        }
        match ev {
            Event::Key(key) if key.kind != KeyEventKind::Release => {
                if key.modifiers.contains(KeyModifiers::CONTROL) {
                    return false;
                }
                let quits = key.code == KeyCode::Esc
                    || (matches!(key.code, KeyCode::Char('q' | 'Q'))
                        && !is_column_letter(self.session.rules(), 'q'));
                !(quits && self.typed_ahead.is_empty())
            }
            Event::Mouse(m) => matches!(m.kind, MouseEventKind::Down(MouseButton::Left)),
            _ => false,
        }
    }

    pub(super) fn key(&mut self, key: KeyEvent) -> anyhow::Result<Option<Exit>> {
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            match key.code {
                KeyCode::Char('c') => return Ok(Some(self.quit_exit(Cause::CtrlC))),
                KeyCode::Char('d') => return Ok(Some(self.quit_exit(Cause::EndOfInput))),
                KeyCode::Char('z') => suspend(),
                _ => {}
            }
            return Ok(None);
        }
        let ch = match key.code {
            KeyCode::Char(c) => Some(c.to_ascii_lowercase()),
            _ => None,
        };
        if self.confirm_quit {
            match ch {
                // A quit the player confirmed is a normal end (exit 0).
                Some('y') => return Ok(Some(Exit::Done)),
                Some('n') => self.confirm_quit = false,
                _ if key.code == KeyCode::Esc => self.confirm_quit = false,
                _ => {}
            }
            return Ok(None);
        }
        if self.layout.is_none() {
            // The board cannot be seen: nothing but quitting.
            if ch == Some('q') || key.code == KeyCode::Esc {
                return Ok(self.ask_quit());
            }
            return Ok(None);
        }
        if self.phase == Phase::Playing
            && !self.thinking
            && self.session.seat_to_move() == Seat::Human
            && self.typing_key(key, ch)
        {
            return Ok(None);
        }
        if ch == Some('q') || key.code == KeyCode::Esc {
            return Ok(self.ask_quit());
        }
        match self.phase {
            Phase::AskFirst => match ch {
                Some('?') => self.show_help(),
                Some('y') => self.start(Some(true)),
                Some('n') => self.start(Some(false)),
                Some('r') => {
                    let c = self.session.coin();
                    self.start(Some(c));
                }
                _ => {}
            },
            Phase::GameOver => match ch {
                Some('?') => self.show_help(),
                Some('y') | Some(' ') => self.new_game(),
                _ if key.code == KeyCode::Enter => self.new_game(),
                Some('n') => return Ok(Some(Exit::Done)),
                _ => {}
            },
            Phase::Playing if self.thinking => {} // only q and Ctrl-C while it thinks
            Phase::Playing => {
                let (c, r) = self.cursor;
                let rules = *self.session.rules();
                let moved = match (key.code, ch) {
                    (KeyCode::Left, _) | (_, Some('a')) => Some((c.saturating_sub(1), r)),
                    (KeyCode::Right, _) | (_, Some('d')) => {
                        Some(((c + 1).min(rules.columns() - 1), r))
                    }
                    (KeyCode::Up, _) | (_, Some('w')) => Some((c, r.saturating_sub(1))),
                    (KeyCode::Down, _) | (_, Some('s')) => Some((c, (r + 1).min(rules.rows() - 1))),
                    _ => None,
                };
                if let Some(cursor) = moved {
                    self.cursor = cursor;
                    self.cursor_moved = true;
                    return Ok(None);
                }
                match (key.code, ch) {
                    (KeyCode::Enter, _) if !self.cursor_moved => {
                        self.message = "Type a square and press Enter, or move the cursor and \
                                        press Enter or Space."
                            .into();
                    }
                    (KeyCode::Enter, _) | (_, Some(' ')) => self.place(),
                    (_, Some('u')) => self.undo(),
                    (_, Some('h')) => self.give_hint(),
                    (_, Some('?')) => self.show_help(),
                    (_, Some(c)) if c.is_ascii_graphic() => {
                        self.message = format!("The key {c} does nothing here: ? shows help.");
                    }
                    _ => {}
                }
            }
        }
        Ok(None)
    }

    /// The input line's share of a key on the player's turn; `true` if the
    /// key was used. Digits and column letters start a line; movement and
    /// command keys keep their meaning on an empty line, except that a
    /// command letter naming a column (h on boards 8 wide) starts a line too
    /// ("h" then Enter still asks for a hint).
    pub(super) fn typing_key(&mut self, key: KeyEvent, ch: Option<char>) -> bool {
        let rules = *self.session.rules();
        // Only the key right after a refusal starts afresh.
        let refused = std::mem::take(&mut self.refused);
        if self.tentative {
            self.tentative = false;
            if let Some(digit) = ch.filter(char::is_ascii_digit) {
                self.typed.push(digit);
                self.preview();
                return true;
            }
            // A movement after all: the key acts on an empty line.
            self.typed.clear();
            if key.code == KeyCode::Esc {
                return true;
            }
        }
        if !self.typed.is_empty() {
            if refused && matches!(key.code, KeyCode::Char(c) if c.is_ascii_graphic() && c != '?') {
                self.typed.clear();
                // The key is read as on an empty line.
                return self.typing_key(key, ch);
            }
            match key.code {
                KeyCode::Enter => self.submit_typed(),
                KeyCode::Backspace => {
                    self.typed.pop();
                }
                KeyCode::Esc => self.typed.clear(),
                // Never part of a square: help, keeping the line.
                KeyCode::Char('?') => self.show_help(),
                KeyCode::Left | KeyCode::Right | KeyCode::Up | KeyCode::Down => {
                    self.typed.clear();
                    return false; // moves the cursor
                }
                // Longer text is no square: the rest is dropped.
                KeyCode::Char(c)
                    if (c == ' ' || c.is_ascii_graphic()) && self.typed.len() < MAX_TYPED =>
                {
                    self.typed.push(c.to_ascii_lowercase());
                }
                _ => {}
            }
            self.preview();
            return true;
        }
        let Some(c) = ch else {
            return false;
        };
        let column = is_column_letter(&rules, c);
        match c {
            '0'..='9' => {}
            'a' | 'd' | 's' | 'w' if column => {
                // Moves the cursor as usual; a digit next makes it "a1".
                self.typed.push(c);
                self.tentative = true;
                return false;
            }
            'h' | 'q' | 'u' if column => {}
            'a' | 'd' | 's' | 'w' | 'h' | 'q' | 'u' | ' ' | '?' => return false,
            _ if column => {}
            _ => return false,
        }
        self.typed.push(c);
        self.preview();
        true
    }

    /// A typed square moves the cursor there, to show where Enter plays.
    pub(super) fn preview(&mut self) {
        if let Ok(sq) = self.session.rules().parse_square(self.typed.trim()) {
            self.cursor = (sq.column(), sq.row());
        }
    }

    /// Enter on the input line: the square or command as in the line view.
    pub(super) fn submit_typed(&mut self) {
        let rules = *self.session.rules();
        match parse_action(&rules, &self.typed) {
            // Kept on the line, to be corrected with Backspace; a new
            // character starts afresh, and the message keeps the text.
            Err(why) => {
                self.message = format!("\"{}\": {why}", self.typed.trim());
                self.refused = true;
            }
            Ok(action) => {
                self.typed.clear();
                match action {
                    Action::Play(sq) => {
                        self.cursor = (sq.column(), sq.row());
                        self.place();
                    }
                    Action::Quit => self.confirm_quit = true,
                    Action::Undo => self.undo(),
                    Action::Hint => self.give_hint(),
                    Action::Help => self.show_help(),
                }
            }
        }
    }

    /// What the input line's Enter would do, for the prompt.
    pub(super) fn typed_meaning(&self) -> String {
        let rules = self.session.rules();
        match parse_action(rules, &self.typed) {
            Ok(Action::Play(sq)) => format!("Enter plays {}", self.session.square_name(sq)),
            Ok(Action::Quit) => "Enter quits".into(),
            Ok(Action::Undo) => "Enter undoes".into(),
            Ok(Action::Hint) => "Enter asks for a hint".into(),
            Ok(Action::Help) => "Enter shows help".into(),
            Err(_) => "type a square".into(),
        }
    }
}
