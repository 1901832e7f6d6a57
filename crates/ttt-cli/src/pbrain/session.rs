//! A game with a Gomocup manager: the state between commands and the answers.
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use ttt_core::{Mark, Outcome, Position, Rules, Square, SquareSet, WinCondition, MAX_SIDE};

use super::protocol::{
    arguments, interrupts_thinking, parse_board_line, parse_command, BoardLine, Command,
};
use crate::ai::{PlayerKind, TtEntry};
use crate::common::{
    alloc_tt_bytes, quote_short, read_line_bounded, think_until, too_long_message, Limits, Line,
};

/// Gomocup's win length: five in a row (we accept five or more, "freestyle").
pub const GOMOKU_K: u8 = 5;

/// Turn time when the manager gives none (ms).
pub const DEFAULT_TURN_MS: u64 = 5_000;

/// Largest transposition table the brain allocates (bytes).
pub const MAX_TT_BYTES: u64 = 64 << 20;

/// What picks the brain's moves: the engine, or a stand-in in tests.
pub trait Brain {
    /// A legal move for the side to move in `pos` (not finished), within
    /// `limits`; `max_memory` is the manager's memory limit in bytes (0: none).
    /// When `stop` returns `true` the manager has moved on: return soon (the
    /// move is not used).
    fn think(
        &mut self,
        pos: &Position,
        limits: Limits,
        max_memory: u64,
        stop: &dyn Fn() -> bool,
    ) -> Option<Square>;
}

/// The engine: `perfect` on boards it can solve, `strong` on the others.
#[derive(Default)]
pub struct EngineBrain {
    tt: Vec<TtEntry>,
    tt_bytes: u64,
    seed: u64,
}

impl EngineBrain {
    /// A brain whose random choices follow `seed`.
    pub fn new(seed: u64) -> EngineBrain {
        EngineBrain {
            tt: Vec::new(),
            tt_bytes: 0,
            seed,
        }
    }
}

impl EngineBrain {
    /// Bytes of transposition table in use (0 before the first move).
    pub fn table_bytes(&self) -> usize {
        std::mem::size_of_val(self.tt.as_slice())
    }
}

impl Brain for EngineBrain {
    fn think(
        &mut self,
        pos: &Position,
        limits: Limits,
        max_memory: u64,
        stop: &dyn Fn() -> bool,
    ) -> Option<Square> {
        // Half the memory limit for the table, leaving room for the rest.
        let bytes = if max_memory == 0 {
            MAX_TT_BYTES
        } else {
            (max_memory / 2).min(MAX_TT_BYTES)
        };
        if bytes != self.tt_bytes {
            self.tt = Vec::new();
            // Halve the request until the memory is there (empty works too, slowly).
            let mut want = bytes as usize;
            while want >= 1 << 16 {
                if let Some(tt) = alloc_tt_bytes(want) {
                    self.tt = tt;
                    break;
                }
                want /= 2;
            }
            self.tt_bytes = bytes;
        }
        // Perfect where the board can be solved, strong within the limits elsewhere.
        let kind = PlayerKind::Impossible;
        self.seed = self.seed.wrapping_add(1);
        think_until(kind, self.seed, &mut self.tt, pos, limits, stop).0
    }
}

/// Lines that end the current turn ([`interrupts_thinking`], and the end of
/// input) read but not yet handled: the input thread counts them up as it
/// reads them, the session down as it takes them, and a search stops while
/// the count is not zero.
#[derive(Clone, Debug, Default)]
struct Interrupts(Arc<AtomicUsize>);

impl Interrupts {
    /// Whether such a line is waiting: the turn being thought about is over.
    fn pending(&self) -> bool {
        self.0.load(Ordering::SeqCst) > 0
    }

    fn raise(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }

    fn settle(&self) {
        // Never below zero, whatever the order of calls.
        let _ = self
            .0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }
}

/// Whether to keep reading after a line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// END: stop.
    Exit,
}

/// Stones read so far between BOARD and DONE.
#[derive(Default)]
struct BoardInput {
    own: SquareSet,
    opponent: SquareSet,
    /// Own and opponent's stones in the order given (the last one is the
    /// move TAKEBACK may undo).
    order: Vec<Square>,
    /// Field 3: cells of a line already won in a continuous game (or
    /// forbidden by renju rules), in the order given; nobody plays there.
    walls: Vec<Square>,
    taken: SquareSet,
    /// The first problem found (reported at DONE).
    problem: Option<String>,
    lines: u32,
}

/// The time and memory limits the manager sent with INFO.
#[derive(Copy, Clone, Debug, Default)]
pub struct Info {
    /// `timeout_turn`, ms (0: play fast).
    pub timeout_turn: Option<u64>,
    /// `timeout_match`, ms (0: no limit).
    pub timeout_match: Option<u64>,
    /// `time_left`, ms.
    pub time_left: Option<u64>,
    /// `max_memory`, bytes (0: no limit).
    pub max_memory: u64,
    /// `rule` bits: 1 exactly five, 2 continuous game (nothing to do), 4
    /// renju (on boards of 15x15 and up), 8 caro (not supported: answered
    /// with a MESSAGE).
    pub rule: u32,
}

/// `INFO rule` bit: only exactly five wins.
const RULE_EXACTLY_FIVE: u32 = 1;
/// `INFO rule` bit: renju (forbidden moves for black, who wins with
/// exactly five; white wins with five or more).
const RULE_RENJU: u32 = 4;
/// `INFO rule` bit of a rule set this brain does not play: caro (a five
/// blocked at both ends does not win).
const RULE_CARO: u32 = 8;

impl Info {
    /// The win condition the `rule` bits ask for: renju with bit 4 (it
    /// includes black's exactly five), else exactly five with bit 1.
    pub fn win_condition(&self) -> WinCondition {
        if self.rule & RULE_RENJU != 0 {
            WinCondition::Renju
        } else {
            self.win_condition_without_renju()
        }
    }

    /// What the rule bits ask for apart from renju: for boards renju is not
    /// played on.
    fn win_condition_without_renju(&self) -> WinCondition {
        if self.rule & RULE_EXACTLY_FIVE != 0 {
            WinCondition::ExactlyK
        } else {
            WinCondition::AtLeastK
        }
    }

    /// `rules` under the win condition asked for, and, when renju was asked
    /// for on a board it is not played on, a MESSAGE saying what is played.
    fn apply_to(&self, rules: Rules) -> (Rules, Option<String>) {
        let win = self.win_condition();
        if win == WinCondition::Renju {
            if let Err(e) = rules.with_renju() {
                let fallback = self.win_condition_without_renju();
                return (
                    rules.with_win_condition(fallback),
                    Some(format!(
                        "MESSAGE INFO rule {}: {e}; playing without its restrictions ({})",
                        self.rule,
                        win_text(fallback)
                    )),
                );
            }
        }
        (rules.with_win_condition(win), None)
    }
}

/// How a win condition is said in MESSAGEs.
fn win_text(win: WinCondition) -> &'static str {
    match win {
        WinCondition::ExactlyK => "exactly five wins",
        WinCondition::AtLeastK => "five or more win",
        WinCondition::Renju => "renju",
    }
}

impl Info {
    /// How long the brain may think for one move.
    pub fn move_time(&self) -> Duration {
        let mut ms = self.timeout_turn.unwrap_or(DEFAULT_TURN_MS);
        if let Some(left) = self.time_left {
            // A match lasts about 30 more moves of ours, at worst.
            if self.timeout_match != Some(0) {
                ms = ms.min(left / 30);
            }
        }
        // Safety margin for process scheduling and the answer's trip: a
        // search stops within a few ms of its deadline (its longest overrun
        // in 1 s moves was 50 ms at load 7), so 5% + 30 ms is enough.
        let ms = ms.saturating_sub(ms / 20).saturating_sub(30).max(5);
        Duration::from_millis(ms)
    }
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
    fn interrupts(&self) -> &Interrupts {
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
                    self.board = Some(BoardInput {
                        problem: Some("no game: send START first".into()),
                        ..BoardInput::default()
                    });
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
                return writeln!(out, "ERROR the game is over: {} has five", mark_name(mark))
            }
            Outcome::Draw => return writeln!(out, "ERROR the game is over: the board is full"),
        }
        let limits = Limits {
            max_nodes: None,
            deadline: Some(received + self.info.move_time()),
        };
        let interrupts = self.interrupts.clone();
        let stop = move || interrupts.pending();
        let choice = self
            .brain
            .think(pos, limits, self.info.max_memory, &stop)
            .filter(|&sq| pos.is_legal(sq))
            .or_else(|| pos.legal_moves().first());
        if self.interrupts.pending() {
            // END or a new game/position came meanwhile: the manager reads
            // its answer next, not this move.
            return Ok(());
        }
        match choice {
            Some(sq) if pos.play(sq).is_ok() => {
                self.moves.push(sq);
                writeln!(out, "{},{}", sq.column(), sq.row())
            }
            _ => writeln!(out, "ERROR no legal move"),
        }
    }

    fn board_line(
        &mut self,
        line: &str,
        received: Instant,
        out: &mut dyn Write,
    ) -> io::Result<Flow> {
        let Some(board) = self.board.as_mut() else {
            return Ok(Flow::Continue);
        };
        board.lines += 1;
        let n = board.lines;
        match parse_board_line(line) {
            BoardLine::Blank => {}
            BoardLine::End => return Ok(Flow::Exit),
            BoardLine::Bad(text) => {
                board.problem.get_or_insert_with(|| {
                    format!(
                        "BOARD line {n}: expected x,y,field or DONE, got {}",
                        printable(&text)
                    )
                });
            }
            BoardLine::Stone(x, y, field) => {
                if board.problem.is_some() {
                    return Ok(Flow::Continue);
                }
                let Some(rules) = self.pos.as_ref().map(|p| *p.rules()) else {
                    return Ok(Flow::Continue);
                };
                let problem = match square_on(&rules, x, y) {
                    Err(e) => Some(format!("BOARD line {n}: {e}")),
                    Ok(sq) if board.taken.contains(sq) => {
                        Some(format!("BOARD line {n}: {x},{y} is given twice"))
                    }
                    Ok(_) if !(1..=3).contains(&field) => Some(format!(
                        "BOARD line {n}: field {field} is not 1 (own), 2 (opponent's) \
                         or 3 (a won line of a continuous game)"
                    )),
                    Ok(sq) => {
                        board.taken.insert(sq);
                        match field {
                            1 => board.own.insert(sq),
                            2 => board.opponent.insert(sq),
                            _ => board.walls.push(sq),
                        }
                        if field != 3 {
                            board.order.push(sq);
                        }
                        None
                    }
                };
                board.problem = problem;
            }
            BoardLine::Done => {
                let board = self.board.take().unwrap_or_default();
                self.finish_board(board, received, out)?;
            }
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    fn finish_board(
        &mut self,
        mut board: BoardInput,
        received: Instant,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if let Some(problem) = board.problem {
            return writeln!(out, "ERROR {problem}");
        }
        let Some(rules) = self.pos.as_ref().map(|p| *p.rules()) else {
            return writeln!(out, "ERROR no game: send START first");
        };
        let (own, opp, walls) = (
            board.own.len() as i64,
            board.opponent.len() as i64,
            board.walls.len() as i64,
        );
        // We are to move: first (X) when the counts are equal, else second
        // (O) with one stone fewer. The position has no cell nobody owns, so
        // field-3 cells become stones, `ours` of them ours, the rest the
        // opponent's, alternately in the order given (a won line is then
        // dead for both sides): they are never played, but the evaluation
        // sees them as stones.
        let twice_ours = opp - own + walls;
        let we_are_x = twice_ours.rem_euclid(2) == 0;
        let ours = if we_are_x {
            twice_ours / 2
        } else {
            (twice_ours - 1) / 2
        };
        if !(0..=walls).contains(&ours) {
            let walls_note = if walls > 0 {
                format!(" and {walls} field-3 cells")
            } else {
                String::new()
            };
            return writeln!(
                out,
                "ERROR BOARD: {own} own and {opp} opponent's stones{walls_note} cannot be a \
                 position with us to move (moves alternate)"
            );
        }
        let (mut ours_left, mut theirs_left) = (ours, walls - ours);
        for (i, &sq) in board.walls.iter().enumerate() {
            if (i % 2 == 0 && ours_left > 0) || theirs_left == 0 {
                board.own.insert(sq);
                ours_left -= 1;
            } else {
                board.opponent.insert(sq);
                theirs_left -= 1;
            }
        }
        let (x, o) = if we_are_x {
            (board.own, board.opponent)
        } else {
            (board.opponent, board.own)
        };
        match Position::from_marks(rules, x, o) {
            Ok(pos) => {
                self.pos = Some(pos);
                self.moves = board.order;
                self.answer(received, out)
            }
            Err(e) => writeln!(out, "ERROR BOARD: {e}"),
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

/// Runs a session until END or the end of the input, reading each line
/// after answering the one before (for scripts and tests: nothing
/// interrupts a search; see [`serve`] for a manager).
pub fn run<B: Brain>(brain: B, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
    let mut session = Session::new(brain);
    loop {
        if session.handle_input(read_line_bounded(input)?, out)? == Flow::Exit {
            return Ok(());
        }
    }
}

/// A line from the input thread, and whether it was counted in the
/// session's [`Interrupts`].
struct Incoming {
    line: io::Result<Line>,
    interrupting: bool,
}

/// Runs a session with a manager until END or the end of the input. A
/// thread reads the input while the brain thinks, so END or a new game or
/// position (see [`interrupts_thinking`]) stops the search at once: no move
/// is printed for that turn, and the new command is handled (END returns at
/// once). Other lines (`INFO time_left`, ...) wait until the move is out.
/// The reading thread is left blocked in its read when this returns: for a
/// program that exits then.
pub fn serve<B, R>(brain: B, input: R, out: &mut dyn Write) -> io::Result<()>
where
    B: Brain,
    R: BufRead + Send + 'static,
{
    let mut session = Session::new(brain);
    let interrupts = session.interrupts().clone();
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .name("pbrain-input".into())
        .spawn(move || read_input(input, &interrupts, &sender))?;
    for Incoming { line, interrupting } in receiver {
        if interrupting {
            session.interrupts().settle();
        }
        if session.handle_input(line?, out)? == Flow::Exit {
            return Ok(());
        }
    }
    Ok(())
}

/// The input thread: each line to the session, interrupting lines counted
/// first; stops after the end of the input or a read error (both of which
/// interrupt: nobody is waiting for the move).
fn read_input(mut input: impl BufRead, interrupts: &Interrupts, sender: &mpsc::Sender<Incoming>) {
    loop {
        let line = read_line_bounded(&mut input);
        let (interrupting, last) = match &line {
            Ok(Line::Text(buf)) => (interrupts_thinking(&String::from_utf8_lossy(buf)), false),
            Ok(Line::TooLong { .. }) => (false, false),
            Ok(Line::End) | Err(_) => (true, true),
        };
        if interrupting {
            interrupts.raise();
        }
        if sender.send(Incoming { line, interrupting }).is_err() || last {
            return;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_memory_bounds_the_table() {
        let pos = Position::new(Rules::CLASSIC);
        let mut brain = EngineBrain::new(1);
        let limits = Limits::default();
        assert!(brain.think(&pos, limits, 0, &|| false).is_some());
        assert_eq!(brain.table_bytes(), MAX_TT_BYTES as usize);
        assert!(brain.think(&pos, limits, 1 << 20, &|| false).is_some());
        assert!(brain.table_bytes() <= 1 << 19 && brain.table_bytes() > 0);
        assert!(brain.think(&pos, limits, 100 << 30, &|| false).is_some());
        assert_eq!(brain.table_bytes(), MAX_TT_BYTES as usize);
    }

    #[test]
    fn move_time_honours_turn_and_match_limits() {
        let ms = |info: Info| info.move_time().as_millis();
        assert_eq!(ms(Info::default()), 4_720);
        let turn = Info {
            timeout_turn: Some(1000),
            ..Info::default()
        };
        assert_eq!(ms(turn), 920);
        let short = Info {
            timeout_turn: Some(30_000),
            timeout_match: Some(60_000),
            time_left: Some(3_000),
            ..Info::default()
        };
        assert_eq!(ms(short), 65);
        let fast = Info {
            timeout_turn: Some(0),
            ..Info::default()
        };
        assert_eq!(ms(fast), 5);
    }
}
