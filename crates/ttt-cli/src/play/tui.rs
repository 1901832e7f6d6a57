//! The full-screen view (crossterm): a box-drawn board, a cursor moved with
//! the arrow keys, WASD or the mouse, Enter/Space to place, squares typed on
//! an input line (`6`, `b2`, `2 2`, then Enter), colours for X, O and the
//! winning line (off with `NO_COLOR`; marks and the winning line also differ
//! by shape). The terminal is restored on every exit: normal, error, Ctrl-C
//! and Ctrl-D (raw mode delivers them as keys), panic (a hook restores it
//! before the message is printed) and SIGTERM/SIGHUP/SIGQUIT (a watcher
//! thread restores it, then exits with 128 + the signal number); and while
//! the program is suspended (Ctrl-Z or SIGTSTP; SIGCONT takes it back).
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
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
use super::input::{help_text, parse_action, Action};
use super::session::{Seat, Session, Undone};
use super::{Cause, Exit};

/// Whether the terminal is in the full-screen state.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Held while the terminal changes state on purpose (entering, leaving,
/// suspending), so a suspension cannot interleave with the exit.
static SCREEN: Mutex<()> = Mutex::new(());

/// Set when the screen must be drawn again from scratch (after `fg`).
static REDRAW: AtomicBool = AtomicBool::new(false);

fn screen_lock() -> MutexGuard<'static, ()> {
    SCREEN.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Puts the terminal in the full-screen state: raw mode, alternate screen,
/// mouse reports, hidden cursor.
fn enter_terminal() -> io::Result<()> {
    ACTIVE.store(true, Ordering::SeqCst);
    enable_raw_mode()?;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture, Hide)
}

/// Ctrl-Z or SIGTSTP: give the terminal back to the shell, stop, and take it
/// again when continued (`fg`). The stop is SIGSTOP, as signal-hook's
/// emulation of the default action does: SIGTSTP itself is caught here.
fn suspend() {
    use signal_hook::consts::SIGSTOP;
    let _screen = screen_lock();
    // No frame is drawn over the shell's screen meanwhile.
    let _stdout = io::stdout().lock();
    let was_active = ACTIVE.load(Ordering::SeqCst);
    restore_terminal();
    let _ = signal_hook::low_level::raise(SIGSTOP);
    // Continued.
    if was_active {
        let _ = enter_terminal();
        REDRAW.store(true, Ordering::SeqCst);
    }
}

/// SIGCONT: whoever stopped the program (SIGSTOP from outside), the shell
/// may have reset the terminal meanwhile; set it up again and redraw.
fn resume() {
    let _screen = screen_lock();
    if ACTIVE.load(Ordering::SeqCst) {
        // crossterm only changes modes it believes are not set already.
        let _ = disable_raw_mode();
        let _ = enter_terminal();
    }
    REDRAW.store(true, Ordering::SeqCst);
}

/// Handles SIGTSTP (`kill -TSTP`; Ctrl-Z is a key in raw mode) and SIGCONT.
fn watch_job_control_signals() {
    use signal_hook::consts::{SIGCONT, SIGTSTP};
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTSTP, SIGCONT]) else {
            return; // Without the watcher the defaults apply.
        };
        let _ = std::thread::Builder::new()
            .name("job-control".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if signal == SIGTSTP {
                        suspend();
                    } else {
                        resume();
                    }
                }
            });
    });
}

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
        watch_job_control_signals();
        let entered = {
            let _screen = screen_lock();
            enter_terminal()
        };
        // A failure half way is undone too (the guard restores).
        let guard = Guard;
        entered?;
        Ok(guard)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _screen = screen_lock();
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

/// Lines of text besides the board: the title and a blank line above it;
/// the score, a message, the prompt and a note below it.
const TEXT_LINES: u16 = 6;

/// The longest text the input line takes (a square is at most "16 16").
const MAX_TYPED: usize = 12;

/// The compact board's needs: the smallest terminal that shows the board.
fn min_size(rules: &Rules) -> (u16, u16) {
    let (c, r) = (rules.columns() as u16, rules.rows() as u16);
    (3 * c + 3, r + 1 + TEXT_LINES)
}

fn layout(rules: &Rules, width: u16, height: u16) -> Option<Layout> {
    let (c, r) = (rules.columns() as u16, rules.rows() as u16);
    let (min_width, min_height) = min_size(rules);
    // Row labels take 3 columns; the title one line; headers one line.
    if width >= 4 * c + 5 && height >= 2 * r + 2 + TEXT_LINES {
        Some(Layout {
            x0: 5,
            y0: 3,
            dx: 4,
            dy: 2,
            boxed: true,
        })
    } else if width >= min_width && height >= min_height {
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
    fn new_game(&mut self) {
        self.hint = None;
        self.clear_typed();
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

    fn clear_typed(&mut self) {
        self.typed.clear();
        self.tentative = false;
        self.refused = false;
    }

    /// Whether the game can go on: the board is on screen and nothing else
    /// is asked. While the board does not fit, nothing moves.
    fn running(&self) -> bool {
        self.phase == Phase::Playing && !self.confirm_quit && self.layout.is_some()
    }

    fn event_loop(&mut self) -> anyhow::Result<Exit> {
        loop {
            self.draw()?;
            if self.running() {
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
                    if self.running() && matches!(self.session.seat_to_move(), Seat::Computer(_)) {
                        if let Some(exit) = self.computer_turn()? {
                            return Ok(exit);
                        }
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
    fn next_event(&mut self) -> io::Result<Option<Event>> {
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
    fn wait_for_key(&mut self, wait: Duration) -> anyhow::Result<Option<Exit>> {
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
    fn computer_turn(&mut self) -> anyhow::Result<Option<Exit>> {
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
            self.clear_typed();
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

    fn key(&mut self, key: KeyEvent) -> anyhow::Result<Option<Exit>> {
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
    fn typing_key(&mut self, key: KeyEvent, ch: Option<char>) -> bool {
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
    fn preview(&mut self) {
        if let Ok(sq) = self.session.rules().parse_square(self.typed.trim()) {
            self.cursor = (sq.column(), sq.row());
        }
    }

    /// Enter on the input line: the square or command as in the line view.
    fn submit_typed(&mut self) {
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
    fn typed_meaning(&self) -> String {
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

    fn undo(&mut self) {
        self.message = match self.session.undo() {
            Undone::Nothing => "There is no move of yours to undo.".into(),
            Undone::Moves(n) => format!("Took back {n} move(s)."),
        };
        self.hint = None;
    }

    fn give_hint(&mut self) {
        self.message = match self.session.hint() {
            Some((sq, why)) => {
                self.cursor = (sq.column(), sq.row());
                self.hint = Some(sq);
                format!("Hint: square {} ({why}).", self.session.square_name(sq))
            }
            None => "No hint available.".into(),
        };
    }

    fn show_help(&mut self) {
        let rules = *self.session.rules();
        self.message = format!(
            "{}\nKeys: arrows, WASD or the mouse move the cursor; Enter or Space places; \
             Backspace and Esc edit a typed square; Ctrl-Z suspends.",
            help_text(&rules)
        );
        if is_column_letter(&rules, 'h') {
            self.message
                .push_str(" Here h starts a coordinate: h then Enter asks for a hint.");
        }
    }

    /// `q` or Esc: a game in progress asks first.
    fn ask_quit(&mut self) -> Option<Exit> {
        if self.session.in_game() {
            self.confirm_quit = true;
            return None;
        }
        Some(Exit::Done)
    }

    fn quit_exit(&self, cause: Cause) -> Exit {
        if self.session.in_game() {
            Exit::Interrupted(cause)
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
            Phase::Playing => match self.session.seat_to_move() {
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
                    if !self.typed.is_empty() && !self.tentative {
                        format!(
                            "{who}: {}_   {}, Backspace edits, Esc clears",
                            self.typed,
                            self.typed_meaning()
                        )
                    } else {
                        format!("{who}: arrows/mouse or type a square (b2); Enter places; ? help, q quit")
                    }
                }
            },
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

/// `text` in lines of at most `width` characters, broken at spaces (and
/// inside words longer than a line); `\n` starts a new line.
fn wrap(text: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        let mut len = 0;
        for word in paragraph.split(' ').filter(|w| !w.is_empty()) {
            let mut word: Vec<char> = word.chars().collect();
            if len > 0 && len + 1 + word.len() > width {
                lines.push(std::mem::take(&mut line));
                len = 0;
            }
            if len > 0 {
                line.push(' ');
                len += 1;
            }
            while len + word.len() > width {
                let rest = word.split_off(width - len);
                line.extend(word);
                lines.push(std::mem::take(&mut line));
                len = 0;
                word = rest;
            }
            len += word.len();
            line.extend(word);
        }
        lines.push(line);
    }
    lines
}

/// The text under the board in `rows` lines of `width`: the score, the
/// message (wrapped), the prompt, the notes (wrapped). When rows run short
/// the message and then the notes lose their last lines, but one line of
/// each stays while there is room, and the prompt always.
fn bottom_lines(
    score: &str,
    message: &str,
    prompt: &str,
    notes: &[String],
    width: u16,
    rows: u16,
) -> Vec<String> {
    let message = if message.is_empty() {
        Vec::new()
    } else {
        wrap(message, width)
    };
    let notes: Vec<String> = notes.iter().flat_map(|n| wrap(n, width)).collect();
    let mut rest = usize::from(rows).saturating_sub(2);
    let message_rows = message.len().min(rest.saturating_sub(notes.len().min(1)));
    rest -= message_rows;
    let note_rows = notes.len().min(rest);
    let mut lines = vec![clip(score, width)];
    lines.extend(message.into_iter().take(message_rows));
    lines.push(clip(prompt, width));
    lines.extend(notes.into_iter().take(note_rows));
    lines.truncate(usize::from(rows));
    lines
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
        // 20x20: the compact board needs 63 columns and 27 lines (the board,
        // its labels and six lines of text); on 80x24 the screen asks for a
        // larger terminal.
        let twenty = Rules::with_default_k(20, 20).unwrap();
        assert!(layout(&twenty, 80, 26).is_none());
        let l = layout(&twenty, 80, 27).unwrap();
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

    #[test]
    fn wrapping_fits_any_width() {
        let text = "Too small for the board: enlarge the terminal to 51x23. q quits.";
        for width in [1u16, 5, 10, 40, 80] {
            let lines = wrap(text, width);
            assert!(lines
                .iter()
                .all(|l| l.chars().count() <= usize::from(width)));
            // Nothing is lost: the words come back joined.
            let joined: String = lines.concat().split_whitespace().collect();
            let words: String = text.split_whitespace().collect();
            assert_eq!(joined, words, "width {width}");
        }
        assert_eq!(
            wrap(text, 10)[..4],
            ["Too small", "for the", "board:", "enlarge"]
        );
        assert_eq!(wrap("ab\ncd", 80), ["ab", "cd"]);
    }

    #[test]
    fn text_under_the_board_keeps_the_prompt_and_a_note() {
        let notes = vec!["Note: a long note that needs two lines here.".to_string()];
        let lines = bottom_lines("score", "one two three", "prompt", &notes, 20, 3);
        assert_eq!(lines, ["score", "prompt", "Note: a long note"]);
        let lines = bottom_lines("score", "one two three", "prompt", &notes, 20, 5);
        assert_eq!(
            lines,
            [
                "score",
                "one two three",
                "prompt",
                "Note: a long note",
                "that needs two lines"
            ]
        );
        let lines = bottom_lines("score", "", "prompt", &[], 20, 10);
        assert_eq!(lines, ["score", "prompt"]);
    }
}
