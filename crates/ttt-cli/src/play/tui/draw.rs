//! Drawing the full-screen view: the board, its marks and cursor, and the
//! text under it.
use std::io::{self, Write};

use crossterm::cursor::MoveTo;
use crossterm::event::{Event, KeyCode};
use crossterm::queue;
use crossterm::style::{Attribute, Color, Print, ResetColor, SetAttribute, SetForegroundColor};
use crossterm::terminal::{self, Clear, ClearType};
use ttt_core::{Mark, Square};

use ttt_core::series::{Players, Seat};

use super::layout::*;
use super::*;

impl Ui<'_> {
    pub(super) fn prompt(&self) -> String {
        if self.confirm_quit {
            return "Quit the game in progress? (y/n)".into();
        }
        match self.phase {
            Phase::AskFirst => "Do you want to go first? (y/n) [r = random]   q: quit".into(),
            Phase::GameOver => "Do you want to play again? (y/n)".into(),
            Phase::Playing => {
                match self.session.seat_to_move() {
                    Seat::Computer(_)
                        if matches!(self.session.players(), Players::ComputerVsComputer(..)) =>
                    {
                        "Watching: q quits".into()
                    }
                    Seat::Computer(_) if self.typed_ahead.is_empty() => "Thinking...".into(),
                    Seat::Computer(_) => format!(
                        "Thinking...   typed meanwhile, played after my move: {}",
                        self.typed_ahead_text()
                    ),
                    Seat::Human => {
                        let mark = self.session.position().side_to_move();
                        let who = match self.session.players() {
                            Players::TwoHumans => format!("Player {mark}"),
                            _ => format!("Your move ({mark})"),
                        };
                        if !self.typed.is_empty() && !self.tentative {
                            format!(
                                "{who}: {}_   {}, Backspace edits, Esc clears",
                                self.typed,
                                self.typed_meaning()
                            )
                        } else {
                            format!("{who}: arrows + Space, or type a square (b2) + Enter; ? help, q quits")
                        }
                    }
                }
            }
        }
    }

    /// The keys waiting for the player's turn, as typed: `f8 Enter`.
    fn typed_ahead_text(&self) -> String {
        let mut text = String::new();
        for ev in &self.typed_ahead {
            let word = match ev {
                Event::Key(key) => match key.code {
                    KeyCode::Char(c) => {
                        text.push(c);
                        continue;
                    }
                    KeyCode::Enter => "Enter",
                    KeyCode::Backspace => "Backspace",
                    KeyCode::Esc => "Esc",
                    KeyCode::Left | KeyCode::Right | KeyCode::Up | KeyCode::Down => "arrow",
                    _ => "key",
                },
                _ => "click",
            };
            if !text.is_empty() && !text.ends_with(' ') {
                text.push(' ');
            }
            text.push_str(word);
            text.push(' ');
        }
        text.trim_end().to_string()
    }

    pub(super) fn mark_colour(&self, mark: Mark) -> Color {
        match mark {
            Mark::X => Color::Cyan,
            Mark::O => Color::Yellow,
        }
    }

    pub(super) fn draw(&mut self) -> io::Result<()> {
        let mut out = io::stdout().lock();
        let (width, height) = terminal::size()?;
        let rules = *self.session.rules();
        queue!(out, Clear(ClearType::All), MoveTo(0, 0))?;
        self.layout = layout(&rules, width, height);
        let Some(l) = self.layout else {
            // Whatever the size: the text wraps, and the game waits.
            let (min_width, min_height) = min_size(&rules);
            // A board that needs more than the usual 80x24 may not fit at
            // all: the line view plays any board in any terminal.
            let plain = if min_width > 80 || min_height > 24 {
                ", or play line by line with ttt --plain"
            } else {
                ""
            };
            let text = format!(
                "Too small for the board: enlarge the terminal to {min_width}x{min_height}{plain}. {}",
                if self.confirm_quit {
                    self.prompt()
                } else {
                    "q quits.".into()
                }
            );
            for (y, line) in (0..height).zip(wrap(&text, width)) {
                queue!(out, MoveTo(0, y), Print(line))?;
            }
            return out.flush();
        };
        let title = match self.session.players() {
            Players::HumanVsComputer(ai) => format!(
                "Tic-Tac-Toe {}x{}, {} in a row: you against {ai}",
                rules.columns(),
                rules.rows(),
                rules.k(),
            ),
            Players::TwoHumans => format!(
                "Tic-Tac-Toe {}x{}, {} in a row: two players",
                rules.columns(),
                rules.rows(),
                rules.k()
            ),
            Players::ComputerVsComputer(..) => format!(
                "Tic-Tac-Toe {}x{}, {} in a row: {} against {}",
                rules.columns(),
                rules.rows(),
                rules.k(),
                self.session.player_name(Mark::X),
                self.session.player_name(Mark::O)
            ),
        };
        queue!(out, Print(clip(&title, width)))?;
        self.draw_board(&mut out, l)?;
        let y = l.height(&rules) + 1;
        let lines = bottom_lines(
            &self.session.score_line(),
            &self.message,
            &self.prompt(),
            &self.notes,
            width,
            height.saturating_sub(y),
        );
        for (dy, text) in (0u16..).zip(lines) {
            queue!(out, MoveTo(0, y + dy), Print(text))?;
        }
        out.flush()
    }

    pub(super) fn draw_board(&self, out: &mut impl Write, l: Layout) -> io::Result<()> {
        let rules = *self.session.rules();
        let pos = self.session.position();
        let line = pos.winning_line();
        let (cols, rows) = (rules.columns() as u16, rules.rows() as u16);
        // Column letters.
        for c in 0..cols {
            queue!(
                out,
                MoveTo(l.x0 + c * l.dx, l.y0 - 1 - u16::from(l.boxed)),
                Print((b'A' + c as u8) as char)
            )?;
        }
        if l.boxed {
            let rule = |left: &str, mid: &str, right: &str| {
                let mut s = String::from(left);
                for c in 0..cols {
                    s.push_str("───");
                    s.push_str(if c + 1 < cols { mid } else { right });
                }
                s
            };
            queue!(out, MoveTo(l.x0 - 2, l.y0 - 1), Print(rule("┌", "┬", "┐")))?;
            for r in 0..rows {
                let y = l.y0 + r * l.dy;
                let mut s = String::from("│");
                for _ in 0..cols {
                    s.push_str("   │");
                }
                queue!(out, MoveTo(l.x0 - 2, y), Print(s))?;
                let bottom = if r + 1 < rows {
                    rule("├", "┼", "┤")
                } else {
                    rule("└", "┴", "┘")
                };
                queue!(out, MoveTo(l.x0 - 2, y + 1), Print(bottom))?;
            }
        }
        for r in 0..rows {
            let y = l.y0 + r * l.dy;
            queue!(out, MoveTo(0, y), Print(format!("{:>2}", r + 1)))?;
            for c in 0..cols {
                let Some(sq) = Square::new(c as u8, r as u8) else {
                    continue;
                };
                let mark = pos.get(sq);
                let winning = line.is_some_and(|ln| ln.contains(sq));
                let is_cursor = self.cursor == (c as u8, r as u8) && self.phase == Phase::Playing;
                let text = match (mark, winning) {
                    (Some(m), true) => format!("[{m}]"),
                    (Some(m), false) => format!(" {m} "),
                    (None, _) if Some(sq) == self.hint => " ? ".into(),
                    (None, _) if l.boxed => "   ".into(),
                    (None, _) => " · ".into(),
                };
                queue!(out, MoveTo(l.x0 - 1 + c * l.dx, y))?;
                if is_cursor {
                    queue!(out, SetAttribute(Attribute::Reverse))?;
                }
                if pos.last_move() == Some(sq) && !winning {
                    queue!(out, SetAttribute(Attribute::Underlined))?;
                }
                if let Some(m) = mark {
                    queue!(out, SetAttribute(Attribute::Bold))?;
                    if self.colour {
                        let colour = if winning {
                            Color::Green
                        } else {
                            self.mark_colour(m)
                        };
                        queue!(out, SetForegroundColor(colour))?;
                    }
                }
                queue!(out, Print(text), SetAttribute(Attribute::Reset), ResetColor)?;
            }
        }
        Ok(())
    }
}
