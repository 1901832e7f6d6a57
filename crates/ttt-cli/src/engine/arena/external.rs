//! A Gomocup ("Piskvork") protocol client: runs an engine program and plays
//! through its standard input and output.
//!
//! The command runs under `sh -c` in a process group of its own, so a
//! wrapper script and whatever it starts are stopped together. A game is
//! START N (or RECTSTART W,H) answered `OK` (RESTART for the next games),
//! then INFO timeout_turn / timeout_match / rule / game_type; each move is
//! asked (after INFO time_left when games have a time limit) with BEGIN
//! (empty board), BOARD ... DONE (the first request on a board with stones:
//! an opening, or the second player's first move) or TURN x,y (the
//! opponent's last move). A reply is read on a
//! thread that stamps its arrival time, so the clock does not depend on
//! when this side looks. `MESSAGE`, `DEBUG` and `SUGGEST` lines are
//! dropped as they arrive, and at most [`QUEUED_LINES`] other lines wait to
//! be read: whatever an engine prints, and however fast, memory stays flat
//! (a full queue stops the reader, and the engine then waits on its own
//! output). At the end: END, and the process group is killed if it is still
//! there shortly after.
use std::collections::VecDeque;
use std::io::{self, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal};
use ttt_core::{Position, Rules, Square, WinCondition};

use super::terms::{Forfeit, TimeControl};
use crate::interrupt::{GroupGuard, Interrupt};
use crate::lines::{quote_short, read_line_bounded, Line};

/// How long an engine may take to answer START (or RESTART).
pub const START_TIMEOUT: Duration = Duration::from_secs(10);

/// How long an engine has to exit after END before it is killed.
pub const END_TIMEOUT: Duration = Duration::from_millis(500);

/// Bytes of the engine's stderr kept for a crash message.
const STDERR_TAIL: usize = 2048;

/// Lines read from an engine and not yet looked at (each at most
/// [`crate::lines::MAX_LINE_BYTES`] and usually a few bytes): a protocol
/// exchange needs one or two, so this only bounds a flood.
pub const QUEUED_LINES: usize = 64;

/// How often a wait for an engine looks whether the match was interrupted.
const INTERRUPT_POLL: Duration = Duration::from_millis(20);

/// What the reader thread passes on.
enum Reply {
    /// A line (lossily decoded), and when it arrived.
    Line(String, Instant),
    /// The output closed (or could not be read): the engine is gone.
    Closed,
}

/// A running engine process.
struct Process {
    child: Child,
    /// Its process group, killed if a signal ends the program meanwhile.
    _group: GroupGuard,
    stdin: ChildStdin,
    replies: Receiver<Reply>,
    stderr_tail: Arc<Mutex<VecDeque<u8>>>,
    /// The thread filling `stderr_tail`; it ends when the pipe closes.
    stderr_reader: thread::JoinHandle<()>,
}

/// An external engine, started on demand and restarted after a forfeit.
pub struct ExternalEngine {
    command: String,
    process: Option<Process>,
    /// The board the running process was started on.
    rules: Option<Rules>,
    /// Whether the process has been shown the current game's position.
    synced: bool,
    /// When the engine's last move arrived (see [`SETTLE`]).
    last_answer: Option<Instant>,
    /// Set by a signal: every wait gives up.
    interrupt: Interrupt,
}

/// How long after an engine's move the next line is held back. Rapfi 0.43
/// still reads its input while its search winds down, so a `TURN x,y` sent
/// within a few milliseconds of its move is split (it answered "ERROR
/// Unknown command: 11,4"); Piskvork-style managers never send that fast.
/// The wait is not on the engine's clock: its time starts when the request
/// is sent.
const SETTLE: Duration = Duration::from_millis(50);

/// Why an engine has no move: too late (the caller knows the clock and
/// says why), or any other forfeit.
pub enum MoveError {
    /// No answer within the time allowed.
    Late {
        /// The request, e.g. `TURN 7,7`.
        asked: String,
        /// How long it waited.
        waited: Duration,
    },
    /// Anything else that loses the game.
    Lost(Forfeit),
}

impl From<Forfeit> for MoveError {
    fn from(f: Forfeit) -> MoveError {
        MoveError::Lost(f)
    }
}

/// Why waiting for a reply ended without one.
enum NoReply {
    Timeout,
    Closed,
    Interrupted,
}

impl ExternalEngine {
    /// An engine run as `sh -c command` (not started yet); its waits end
    /// early when `interrupt` is set.
    pub fn new(command: &str, interrupt: Interrupt) -> ExternalEngine {
        ExternalEngine {
            command: command.to_string(),
            process: None,
            rules: None,
            synced: false,
            last_answer: None,
            interrupt,
        }
    }

    fn spawn(&self) -> io::Result<Process> {
        use std::os::unix::process::CommandExt;
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group, so the whole group can be killed at the end.
            .process_group(0)
            .spawn()?;
        let group = match GroupGuard::new(Pid::from_child(&child)) {
            Ok(group) => group,
            Err(e) => {
                kill_group(&mut child);
                let _ = child.wait();
                return Err(e);
            }
        };
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("the engine's pipes could not be set up"));
        };
        let (send, replies) = mpsc::sync_channel(QUEUED_LINES);
        thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            loop {
                let reply = match read_line_bounded(&mut out) {
                    Ok(Line::Text(bytes)) if is_chatter(&bytes) => continue,
                    Ok(Line::Text(bytes)) => {
                        Reply::Line(String::from_utf8_lossy(&bytes).into_owned(), Instant::now())
                    }
                    // Over the limit: classified by its start, as any line.
                    Ok(Line::TooLong { start, .. }) if is_chatter(&start) => continue,
                    Ok(Line::TooLong { start, length }) => Reply::Line(
                        format!("{}... ({length} bytes)", String::from_utf8_lossy(&start)),
                        Instant::now(),
                    ),
                    Ok(Line::End) | Err(_) => Reply::Closed,
                };
                let closed = matches!(reply, Reply::Closed);
                if send.send(reply).is_err() || closed {
                    break;
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let stderr_reader = thread::spawn(move || {
            let mut err = stderr;
            let mut buf = [0u8; 1024];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut tail) = tail.lock() {
                    tail.extend(&buf[..n]);
                    let excess = tail.len().saturating_sub(STDERR_TAIL);
                    tail.drain(..excess);
                }
            }
        });
        Ok(Process {
            child,
            _group: group,
            stdin,
            replies,
            stderr_tail,
            stderr_reader,
        })
    }

    /// Sends one line.
    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        let Some(p) = self.process.as_mut() else {
            return Err(Forfeit::new("the engine is not running"));
        };
        let sent = writeln!(p.stdin, "{line}").and_then(|()| p.stdin.flush());
        sent.map_err(|e| self.gone(&format!("could not send {line:?} ({e})")))
    }

    /// The next reply line (MESSAGE, DEBUG, SUGGEST and blank lines were
    /// dropped by the reader) before `deadline`.
    fn reply_before(&mut self, deadline: Instant) -> Result<(String, Instant), NoReply> {
        let Some(p) = self.process.as_mut() else {
            return Err(NoReply::Closed);
        };
        loop {
            if self.interrupt.is_set() {
                return Err(NoReply::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(NoReply::Timeout);
            }
            let wait = deadline.duration_since(now).min(INTERRUPT_POLL);
            match p.replies.recv_timeout(wait) {
                Ok(Reply::Line(line, at)) => return Ok((line.trim().to_string(), at)),
                Ok(Reply::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(NoReply::Closed)
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// The forfeit for an engine that went away: how it exited and the
    /// last line it wrote on stderr. Kills what is left of it.
    fn gone(&mut self, what: &str) -> Forfeit {
        let Some(mut p) = self.process.take() else {
            return Forfeit::new(what);
        };
        // Give it a moment to finish exiting, so the status is known.
        let until = Instant::now() + Duration::from_millis(200);
        let mut status = None;
        while Instant::now() < until {
            if let Ok(Some(s)) = p.child.try_wait() {
                status = Some(s);
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        kill_group(&mut p.child);
        let status = status.or_else(|| p.child.wait().ok());
        // The process is gone, so its stderr pipe closes; let the reader
        // take in the last bytes (the shell's "not found", a panic
        // message) before the tail is read. A grandchild still holding the
        // pipe must not hang us: give up after a moment.
        let until = Instant::now() + Duration::from_millis(500);
        while !p.stderr_reader.is_finished() && Instant::now() < until {
            thread::sleep(Duration::from_millis(2));
        }
        let mut message = what.to_string();
        match status {
            Some(s) if s.success() => message.push_str(" (the engine exited, status 0)"),
            Some(s) => message.push_str(&format!(" (the engine exited: {s})")),
            None => {}
        }
        let tail = p
            .stderr_tail
            .lock()
            .map(|t| String::from_utf8_lossy(&t.iter().copied().collect::<Vec<u8>>()).into_owned())
            .unwrap_or_default();
        if let Some(last) = tail.lines().rev().find(|l| !l.trim().is_empty()) {
            message.push_str(&format!("; its stderr: {}", quoted(last.trim())));
        }
        self.rules = None;
        Forfeit::new(&message)
    }

    /// Waits for `OK` to `command`.
    fn expect_ok(&mut self, command: &str) -> Result<(), Forfeit> {
        self.send(command)?;
        match self.reply_before(Instant::now() + START_TIMEOUT) {
            Ok((line, _)) if line.eq_ignore_ascii_case("OK") => Ok(()),
            Ok((line, _)) => Err(Forfeit::new(&format!(
                "answered {} to {command}, not OK",
                quoted(&line)
            ))),
            Err(NoReply::Timeout) => Err(Forfeit::new(&format!(
                "no answer to {command} within {} s",
                START_TIMEOUT.as_secs()
            ))),
            Err(NoReply::Closed) => Err(self.gone(&format!("no answer to {command}"))),
            Err(NoReply::Interrupted) => Err(Forfeit::new(INTERRUPTED)),
        }
    }

    /// Gets the engine ready for a new game on `rules`: RESTART if it is
    /// running on that board (a new process if that fails), else a new
    /// process and START; then the INFO lines.
    pub fn start_game(&mut self, rules: &Rules, time: &TimeControl) -> Result<(), Forfeit> {
        self.synced = false;
        let mut ready = false;
        if self.process.is_some() && self.rules == Some(*rules) {
            ready = self.expect_ok("RESTART").is_ok();
            if !ready {
                self.stop();
            }
        }
        if !ready {
            self.stop();
            let process = self
                .spawn()
                .map_err(|e| Forfeit::new(&format!("could not run sh -c: {e}")))?;
            self.process = Some(process);
            let start = if rules.is_square() {
                format!("START {}", rules.columns())
            } else {
                format!("RECTSTART {},{}", rules.columns(), rules.rows())
            };
            self.expect_ok(&start)?;
            self.rules = Some(*rules);
        }
        let turn_ms = time.turn.map_or(0, |d| d.as_millis() as u64);
        let game_ms = time.game.map_or(0, |d| d.as_millis() as u64);
        self.send(&format!("INFO timeout_turn {turn_ms}"))?;
        self.send(&format!("INFO timeout_match {game_ms}"))?;
        // Freestyle (five or more wins), exactly five (rule bit 1) or
        // renju (bit 4), against another program.
        let rule = match rules.win_condition() {
            WinCondition::AtLeastK => 0,
            WinCondition::ExactlyK => 1,
            WinCondition::Renju => 4,
        };
        self.send(&format!("INFO rule {rule}"))?;
        self.send("INFO game_type 1")?;
        Ok(())
    }

    /// Asks for a move in `pos` (not finished; the engine's side to move)
    /// and waits up to `wait`. `time_left` is its remaining game time.
    /// Returns the square (checked to be on the board and empty) and when
    /// the answer arrived.
    pub fn request_move(
        &mut self,
        pos: &Position,
        time_left: Option<Duration>,
        wait: Option<Duration>,
    ) -> Result<(Square, Instant, Instant), MoveError> {
        let rules = *pos.rules();
        // Lines nobody asked for (a second answer to the last request) are
        // dropped, so they are not taken for the answer to this one. At most
        // a queue's worth: an engine that never stops talking must not keep
        // this loop going.
        if let Some(p) = self.process.as_mut() {
            for reply in p.replies.try_iter().take(QUEUED_LINES) {
                if matches!(reply, Reply::Closed) {
                    return Err(self
                        .gone("the engine closed its output between moves")
                        .into());
                }
            }
        }
        if let Some(at) = self.last_answer {
            thread::sleep(SETTLE.saturating_sub(at.elapsed()));
        }
        // Only with a game limit: an INFO line reaching an engine that is
        // still winding down its last search can be misread (Rapfi 0.43
        // then answers "ERROR Unknown command: TIME_LEFT" in place of its
        // move), and without a limit timeout_match 0 already says it all.
        if let Some(left) = time_left {
            self.send(&format!("INFO time_left {}", left.as_millis()))?;
        }
        let asked = if !self.synced && pos.mark_count() == 0 {
            self.send("BEGIN")?;
            "BEGIN".to_string()
        } else if !self.synced {
            // Own stones are 1, the opponent's 2, in the order played.
            let me = pos.side_to_move();
            let mut lines = vec!["BOARD".to_string()];
            for &sq in pos.history() {
                let field = if pos.get(sq) == Some(me) { 1 } else { 2 };
                lines.push(format!("{},{},{field}", sq.column(), sq.row()));
            }
            lines.push("DONE".to_string());
            for line in &lines {
                self.send(line)?;
            }
            "BOARD".to_string()
        } else {
            let Some(last) = pos.last_move() else {
                return Err(Forfeit::new("no last move to send (internal error)").into());
            };
            let turn = format!("TURN {},{}", last.column(), last.row());
            self.send(&turn)?;
            turn
        };
        let sent = Instant::now();
        self.synced = true;
        // A day stands for "no limit": nobody waits longer in a match.
        let deadline = sent + wait.unwrap_or(Duration::from_secs(86_400));
        let (line, at) = match self.reply_before(deadline) {
            Ok(reply) => reply,
            Err(NoReply::Timeout) => {
                let waited = sent.elapsed();
                self.stop();
                return Err(MoveError::Late { asked, waited });
            }
            Err(NoReply::Closed) => {
                return Err(self.gone(&format!("no move after {asked}")).into())
            }
            Err(NoReply::Interrupted) => return Err(Forfeit::new(INTERRUPTED).into()),
        };
        self.last_answer = Some(at);
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        if word == "ERROR" || word == "UNKNOWN" {
            return Err(Forfeit::new(&format!("answered {} to {asked}", quoted(&line))).into());
        }
        let Some((x, y)) = parse_move(&line) else {
            return Err(Forfeit::new(&format!(
                "unreadable move {} (expected x,y) after {asked}",
                quoted(&line)
            ))
            .into());
        };
        if x >= u32::from(rules.columns()) || y >= u32::from(rules.rows()) {
            return Err(Forfeit::new(&format!(
                "illegal move {x},{y}: off the {}x{} board",
                rules.columns(),
                rules.rows()
            ))
            .into());
        }
        let Some(sq) = Square::new(x as u8, y as u8) else {
            return Err(Forfeit::new(&format!("illegal move {x},{y}: off the board")).into());
        };
        if let Some(mark) = pos.get(sq) {
            let whose = if mark == pos.side_to_move() {
                "its own"
            } else {
                "the opponent's"
            };
            return Err(Forfeit::new(&format!(
                "illegal move {x},{y}: the square holds {whose} stone ({mark})"
            ))
            .into());
        }
        if let Some(why) = pos.forbidden(sq) {
            return Err(Forfeit::new(&format!("forbidden move {x},{y} (renju): {why}")).into());
        }
        Ok((sq, sent, at))
    }

    /// Ends the process: END, a short wait, then the group is killed.
    pub fn stop(&mut self) {
        let Some(mut p) = self.process.take() else {
            return;
        };
        self.rules = None;
        self.synced = false;
        let _ = writeln!(p.stdin, "END").and_then(|()| p.stdin.flush());
        drop(p.stdin);
        let until = Instant::now() + END_TIMEOUT;
        while Instant::now() < until {
            if let Ok(Some(_)) = p.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Also ends what the command started in its group.
        kill_group(&mut p.child);
        let _ = p.child.wait();
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Kills the process group led by `child` (started with `process_group(0)`).
fn kill_group(child: &mut Child) {
    // ESRCH: the group is already gone, which is what we want.
    let _ = rustix::process::kill_process_group(Pid::from_child(child), Signal::KILL);
    let _ = child.kill();
}

/// The forfeit message of a wait cut short by a signal (the game is not
/// counted: the match is stopping).
const INTERRUPTED: &str = "the match was interrupted";

/// Whether a line is one the protocol lets an engine send at any time and
/// that answers nothing (MESSAGE, DEBUG, SUGGEST), or a blank line.
fn is_chatter(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let word = text.split_whitespace().next().unwrap_or("");
    word.is_empty()
        || ["MESSAGE", "DEBUG", "SUGGEST"]
            .iter()
            .any(|w| word.eq_ignore_ascii_case(w))
}

/// An engine's line in a message: in quotes, one line, not too long.
fn quoted(text: &str) -> String {
    format!("\"{}\"", quote_short(text))
}

/// Reads `x,y` (spaces allowed around the numbers).
fn parse_move(line: &str) -> Option<(u32, u32)> {
    let (x, y) = line.split_once(',')?;
    let number = |t: &str| {
        let t = t.trim();
        (!t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse().ok())
            .flatten()
    };
    Some((number(x)?, number(y)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chatter_is_told_from_answers() {
        assert!(is_chatter(b"MESSAGE thinking"));
        assert!(is_chatter(b"debug depth 3"));
        assert!(is_chatter(b"  "));
        assert!(!is_chatter(b"7,7"));
        assert!(!is_chatter(b"OK"));
        assert!(!is_chatter(b"MESSAGES"));
    }

    #[test]
    fn moves_are_read_strictly() {
        assert_eq!(parse_move("7,7"), Some((7, 7)));
        assert_eq!(parse_move(" 10 , 3 "), Some((10, 3)));
        assert_eq!(parse_move("7"), None);
        assert_eq!(parse_move("7,7,1"), None);
        assert_eq!(parse_move("-1,2"), None);
        assert_eq!(parse_move("a,b"), None);
        assert_eq!(parse_move("99999999999,1"), None);
    }
}
