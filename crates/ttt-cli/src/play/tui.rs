//! The full-screen view (crossterm): a box-drawn board, a cursor moved with
//! the arrow keys, WASD or the mouse, Enter/Space to place, colours for X, O
//! and the winning line (off with `NO_COLOR`; marks and the winning line also
//! differ by shape). The terminal is restored on every exit: normal, error,
//! Ctrl-C (raw mode delivers it as a key), panic (a hook restores it
//! before the message is printed) and SIGTERM/SIGHUP/SIGQUIT (a watcher
//! thread restores it, then exits with 128 + the signal number).
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::cursor::{Hide, MoveTo, Show};
use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers, MouseButton, MouseEventKind,
};
use crossterm::style::{Attribute, Color, Print, ResetColor, SetAttribute, SetForegroundColor};
use crossterm::terminal::{
    self, disable_raw_mode, enable_raw_mode, Clear, ClearType, EnterAlternateScreen,
    LeaveAlternateScreen,
};
use crossterm::{execute, queue};
use ttt_core::{Mark, Rules, Square};

use super::args::Mode;
use super::session::{Seat, Session, Undone};
use super::Exit;

/// Whether the terminal is in the full-screen state.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Puts the terminal back: leave the alternate screen, show the cursor,
/// stop mouse reports, leave raw mode. Safe to call more than once.
fn restore_terminal() {
    // Only once: leaving the alternate screen twice would move the cursor
    // back over whatever was printed in between (a panic message).
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    let _ = execute!(
        out,
        DisableMouseCapture,
        LeaveAlternateScreen,
        Show,
        ResetColor
    );
    let _ = disable_raw_mode();
}

/// On SIGTERM, SIGHUP or SIGQUIT: give the terminal back and exit with
/// 128 + the signal, as the default action's exit status reads in a shell.
/// Holding the stdout lock while restoring means a frame being drawn is
/// finished first and no frame is drawn over the restored screen; but the
/// exit never waits on it for long (output may be blocked), and nothing on
/// this path can panic (stderr may be closed, full or a hung-up terminal):
/// a watcher that died would leave the signals caught and ignored.
fn watch_termination_signals() {
    use signal_hook::consts::{SIGHUP, SIGQUIT, SIGTERM};
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGQUIT])
        else {
            return; // Without the watcher these signals just end the process.
        };
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                let Some(signal) = signals.forever().next() else {
                    return;
                };
                let (done, restored) = std::sync::mpsc::channel();
                let _ = std::thread::Builder::new()
                    .name("restore".into())
                    .spawn(move || {
                        let _stdout = io::stdout().lock();
                        restore_terminal();
                        let _ = done.send(());
                    });
                let _ = restored.recv_timeout(Duration::from_secs(1));
                let name = match signal {
                    SIGTERM => "SIGTERM",
                    SIGHUP => "SIGHUP",
                    _ => "SIGQUIT",
                };
                crate::print_err(format_args!("ttt: stopped by {name}."));
                std::process::exit(128 + signal);
            });
    });
}

/// When the terminal goes away (its window closed) and no SIGHUP ended the
/// program, reading it returns end of file forever: end the game as the
/// hang-up it is (exit 129) rather than spin. poll(2) with no events asked
/// for still reports a hang-up or an error, and sleeps until then.
fn watch_terminal_hangup() {
    use rustix::event::{poll, PollFd, PollFlags};
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let _ = std::thread::Builder::new()
            .name("hangup".into())
            .spawn(|| loop {
                let stdin = rustix::stdio::stdin();
                let mut fds = [PollFd::new(&stdin, PollFlags::empty())];
                match poll(&mut fds, None) {
                    Ok(_) => {
                        let gone = PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL;
                        if fds[0].revents().intersects(gone) {
                            restore_terminal();
                            crate::print_err(format_args!("ttt: the terminal closed."));
                            std::process::exit(129);
                        }
                    }
                    Err(rustix::io::Errno::INTR) => {}
                    Err(_) => return,
                }
            });
    });
}

/// Owns the full-screen state; dropping it restores the terminal.
struct Guard;

impl Guard {
    fn enter() -> io::Result<Guard> {
        // A panic anywhere restores the terminal before its message is shown.
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal();
            previous(info);
        }));
        watch_termination_signals();
        watch_terminal_hangup();
        ACTIVE.store(true, Ordering::SeqCst);
        enable_raw_mode()?;
        let guard = Guard;
        execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture, Hide)?;
        Ok(guard)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// "Do you want to go first? (y/n) [r = random]"
    AskFirst,
    Playing,
    /// "Do you want to play again? (y/n)"
    GameOver,
}

/// Board geometry on screen, for drawing and for mouse clicks.
#[derive(Copy, Clone, Debug)]
struct Layout {
    /// Screen column and row of the top-left corner of cell a1's text.
    x0: u16,
    y0: u16,
    /// Screen columns and rows from one cell to the next.
    dx: u16,
    dy: u16,
    /// Box-drawn (cells separated by lines) or compact (one row per line).
    boxed: bool,
}

/// Lines of text above (title) and below (score, message, prompt) the board.
const TEXT_LINES: u16 = 5;

fn layout(rules: &Rules, width: u16, height: u16) -> Option<Layout> {
    let (c, r) = (rules.columns() as u16, rules.rows() as u16);
    // Row labels take 3 columns; the title one line; headers one line.
    if width >= 4 * c + 5 && height >= 2 * r + 2 + TEXT_LINES {
        Some(Layout {
            x0: 5,
            y0: 3,
            dx: 4,
            dy: 2,
            boxed: true,
        })
    } else if width >= 3 * c + 3 && height >= r + 1 + TEXT_LINES {
        Some(Layout {
            x0: 3,
            y0: 2,
            dx: 3,
            dy: 1,
            boxed: false,
        })
    } else {
        None
    }
}

impl Layout {
    /// The cell under screen position (`x`, `y`), if any.
    fn cell_at(&self, rules: &Rules, x: u16, y: u16) -> Option<Square> {
        let (x, y) = (x.checked_sub(self.x0 - 1)?, y.checked_sub(self.y0)?);
        if self.boxed && y % self.dy != 0 {
            return None; // a horizontal rule between rows
        }
        let (c, r) = (x / self.dx, y / self.dy);
        if c >= rules.columns() as u16 || r >= rules.rows() as u16 {
            return None;
        }
        Square::new(c as u8, r as u8)
    }

    fn height(&self, rules: &Rules) -> u16 {
        self.y0 + self.dy * rules.rows() as u16 - if self.boxed { 1 } else { 0 }
    }
}

struct Ui<'a> {
    session: &'a mut Session,
    phase: Phase,
    cursor: (u8, u8),
    message: String,
    confirm_quit: bool,
    colour: bool,
    pace: Duration,
    layout: Option<Layout>,
    hint: Option<Square>,
    /// The computer is choosing its move on another thread: the board must
    /// not change meanwhile.
    thinking: bool,
}

/// Runs the session full screen.
pub fn run(session: &mut Session, pace: Option<u64>) -> anyhow::Result<Exit> {
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
        Ok(Exit::Interrupted) => writeln!(out, "Game interrupted (Ctrl-C). Thanks for playing!")?,
        _ => writeln!(out, "Thanks for playing!")?,
    }
    exit
}

impl Ui<'_> {
    fn new_game(&mut self) {
        self.hint = None;
        if self.session.must_ask_first() {
            self.phase = Phase::AskFirst;
        } else {
            self.start(None);
        }
    }

    fn start(&mut self, you_first: Option<bool>) {
        self.session.start_game(you_first);
        self.phase = Phase::Playing;
        self.message = match self.session.human_mark() {
            Some(Mark::X) => "You go first: you are X.".into(),
            Some(Mark::O) => "I go first: you are O.".into(),
            None => String::new(),
        };
    }

    fn event_loop(&mut self) -> anyhow::Result<Exit> {
        loop {
            self.draw()?;
            if self.phase == Phase::Playing && !self.confirm_quit {
                if let Seat::Computer(_) = self.session.seat_to_move() {
                    // Let the watcher see each move; stay responsive meanwhile.
                    let wait = if self.session.mode() == Mode::AiVsAi {
                        self.pace
                    } else {
                        Duration::ZERO
                    };
                    if let Some(exit) = self.wait_for_key(wait)? {
                        return Ok(exit);
                    }
                    if self.phase == Phase::Playing
                        && !self.confirm_quit
                        && matches!(self.session.seat_to_move(), Seat::Computer(_))
                    {
                        if let Some(exit) = self.computer_turn()? {
                            return Ok(exit);
                        }
                    }
                    continue;
                }
            }
            let ev = event::read()?;
            if let Some(exit) = self.handle(ev)? {
                return Ok(exit);
            }
        }
    }

    /// Handles events for up to `wait`; returns an exit if one was asked for.
    fn wait_for_key(&mut self, wait: Duration) -> anyhow::Result<Option<Exit>> {
        let end = Instant::now() + wait;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            if !event::poll(left)? {
                return Ok(None);
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
    fn computer_turn(&mut self) -> anyhow::Result<Option<Exit>> {
        let mark = self.session.position().side_to_move();
        let Some(job) = self.session.begin_computer_move() else {
            return Ok(None);
        };
        let worker = std::thread::spawn(move || job.run());
        self.thinking = true;
        while !worker.is_finished() {
            if event::poll(Duration::from_millis(20))? {
                let ev = event::read()?;
                if let Some(exit) = self.handle(ev)? {
                    // Leaving: the worker's result is not needed.
                    return Ok(Some(exit));
                }
                self.draw()?;
            }
        }
        self.thinking = false;
        let (chosen, tt) = worker
            .join()
            .map_err(|_| anyhow::anyhow!("the computer player failed"))?;
        if let Some(sq) = self.session.end_computer_move(chosen, tt) {
            self.message = match self.session.mode() {
                Mode::AiVsAi => format!(
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

    fn after_move(&mut self) {
        self.hint = None;
        if let Some(done) = self.session.finish() {
            self.phase = Phase::GameOver;
            self.message = done.message;
            if let Some(r) = done.record {
                self.message.push_str("  ");
                self.message.push_str(&r);
            }
        }
    }

    fn handle(&mut self, ev: Event) -> anyhow::Result<Option<Exit>> {
        match ev {
            Event::Key(key) if key.kind != KeyEventKind::Release => self.key(key),
            Event::Mouse(m) => {
                if let (MouseEventKind::Down(MouseButton::Left), Some(l)) = (m.kind, self.layout) {
                    if let Some(sq) = l.cell_at(self.session.rules(), m.column, m.row) {
                        self.cursor = (sq.column(), sq.row());
                        if self.phase == Phase::Playing && !self.confirm_quit {
                            self.place();
                        }
                    }
                }
                Ok(None)
            }
            _ => Ok(None), // resize and focus: the loop redraws
        }
    }

    fn key(&mut self, key: KeyEvent) -> anyhow::Result<Option<Exit>> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('d')) {
            return Ok(Some(self.quit_exit()));
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
        if ch == Some('q') || key.code == KeyCode::Esc {
            if self.session.in_game() {
                self.confirm_quit = true;
                return Ok(None);
            }
            return Ok(Some(Exit::Done));
        }
        match self.phase {
            Phase::AskFirst => match ch {
                Some('y') => self.start(Some(true)),
                Some('n') => self.start(Some(false)),
                Some('r') => {
                    let c = self.session.coin();
                    self.start(Some(c));
                }
                _ => {}
            },
            Phase::GameOver => match ch {
                Some('y') | Some(' ') => self.new_game(),
                _ if key.code == KeyCode::Enter => self.new_game(),
                Some('n') => return Ok(Some(Exit::Done)),
                _ => {}
            },
            Phase::Playing if self.thinking => {} // only q and Ctrl-C while it thinks
            Phase::Playing => {
                let (c, r) = self.cursor;
                let rules = *self.session.rules();
                match (key.code, ch) {
                    (KeyCode::Left, _) | (_, Some('a')) => self.cursor.0 = c.saturating_sub(1),
                    (KeyCode::Right, _) | (_, Some('d')) => {
                        self.cursor.0 = (c + 1).min(rules.columns() - 1)
                    }
                    (KeyCode::Up, _) | (_, Some('w')) => self.cursor.1 = r.saturating_sub(1),
                    (KeyCode::Down, _) | (_, Some('s')) => {
                        self.cursor.1 = (r + 1).min(rules.rows() - 1)
                    }
                    (KeyCode::Enter, _) | (_, Some(' ')) => self.place(),
                    (_, Some('u')) => {
                        self.message = match self.session.undo() {
                            Undone::Nothing => "There is no move of yours to undo.".into(),
                            Undone::Moves(n) => format!("Took back {n} move(s)."),
                        };
                        self.hint = None;
                    }
                    (_, Some('h')) => {
                        self.message = match self.session.hint() {
                            Some((sq, why)) => {
                                self.cursor = (sq.column(), sq.row());
                                self.hint = Some(sq);
                                format!("Hint: square {} ({why}).", self.session.square_name(sq))
                            }
                            None => "No hint available.".into(),
                        };
                    }
                    _ => {}
                }
            }
        }
        Ok(None)
    }

    fn quit_exit(&self) -> Exit {
        if self.session.in_game() {
            Exit::Interrupted
        } else {
            Exit::Done
        }
    }

    fn place(&mut self) {
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

    fn prompt(&self) -> String {
        if self.confirm_quit {
            return "Quit the game in progress? (y/n)".into();
        }
        match self.phase {
            Phase::AskFirst => "Do you want to go first? (y/n) [r = random]   q: quit".into(),
            Phase::GameOver => "Do you want to play again? (y/n)".into(),
            Phase::Playing => {
                match self.session.seat_to_move() {
                    Seat::Computer(_) if self.session.mode() == Mode::AiVsAi => {
                        "Watching: q quits".into()
                    }
                    Seat::Computer(_) => "Thinking...".into(),
                    Seat::Human => {
                        let mark = self.session.position().side_to_move();
                        let who = match self.session.mode() {
                            Mode::TwoPlayer => format!("Player {mark}"),
                            _ => format!("Your move ({mark})"),
                        };
                        format!("{who}: arrows/WASD/mouse move, Enter/Space place, u undo, h hint, q quit")
                    }
                }
            }
        }
    }

    fn mark_colour(&self, mark: Mark) -> Color {
        match mark {
            Mark::X => Color::Cyan,
            Mark::O => Color::Yellow,
        }
    }

    fn draw(&mut self) -> io::Result<()> {
        let mut out = io::stdout().lock();
        let (width, height) = terminal::size()?;
        let rules = *self.session.rules();
        queue!(out, Clear(ClearType::All), MoveTo(0, 0))?;
        let title = match self.session.mode() {
            Mode::HumanVsAi => format!(
                "Tic-Tac-Toe {}x{}, {} in a row: you against {}",
                rules.columns(),
                rules.rows(),
                rules.k(),
                self.session.ai()
            ),
            Mode::TwoPlayer => format!(
                "Tic-Tac-Toe {}x{}, {} in a row: two players",
                rules.columns(),
                rules.rows(),
                rules.k()
            ),
            Mode::AiVsAi => format!(
                "Tic-Tac-Toe {}x{}, {} in a row: {} against {}",
                rules.columns(),
                rules.rows(),
                rules.k(),
                self.session.player_name(Mark::X),
                self.session.player_name(Mark::O)
            ),
        };
        queue!(out, Print(clip(&title, width)))?;
        self.layout = layout(&rules, width, height);
        let Some(l) = self.layout else {
            let lines = [
                "Too small for the board: enlarge the terminal.".into(),
                self.prompt(),
            ];
            for (y, text) in (1u16..).zip(lines) {
                queue!(out, MoveTo(0, y), Print(clip(&text, width)))?;
            }
            return out.flush();
        };
        self.draw_board(&mut out, l)?;
        let y = l.height(&rules) + 1;
        let lines = [
            self.session.score_line(),
            self.message.clone(),
            self.prompt(),
        ];
        for (dy, text) in (0u16..).zip(lines) {
            queue!(out, MoveTo(0, y + dy), Print(clip(&text, width)))?;
        }
        out.flush()
    }

    fn draw_board(&self, out: &mut impl Write, l: Layout) -> io::Result<()> {
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

/// At most `width` characters of `text`.
fn clip(text: &str, width: u16) -> String {
    text.chars().take(width as usize).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_and_clicks() {
        let rules = Rules::CLASSIC;
        let l = layout(&rules, 80, 24).unwrap();
        assert!(l.boxed);
        // The centre of b2's text.
        let b2 = rules.parse_square("b2").unwrap();
        assert_eq!(l.cell_at(&rules, l.x0 + l.dx, l.y0 + l.dy), Some(b2));
        assert_eq!(l.cell_at(&rules, 0, 0), None);
        let big = Rules::with_default_k(16, 16).unwrap();
        let l = layout(&big, 80, 24).unwrap();
        assert!(!l.boxed);
        assert!(layout(&big, 40, 10).is_none());
        // 20x20: the compact board needs 63 columns and 26 lines; on 80x24
        // the screen asks for a larger terminal.
        let twenty = Rules::with_default_k(20, 20).unwrap();
        let l = layout(&twenty, 80, 26).unwrap();
        assert!(!l.boxed);
        assert_eq!(l.height(&twenty), 22);
        assert!(layout(&twenty, 80, 24).is_none());
        assert!(layout(&twenty, 62, 30).is_none());
        let t20 = twenty.parse_square("t20").unwrap();
        assert_eq!(
            l.cell_at(&twenty, l.x0 + 19 * l.dx, l.y0 + 19 * l.dy),
            Some(t20)
        );
    }
}
