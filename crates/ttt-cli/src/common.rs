//! Helpers every engine command shares: reading boards, naming squares,
//! building computer players, lending them memory, and the error type that
//! decides the exit status.
use std::fmt;
use std::io::{self, BufRead, IsTerminal};
use std::time::{Duration, Instant};

use ttt_core::{Outcome, Position, Rules, Square, SquareFormat, WinCondition};

use crate::ai::time::aim_reached;
use crate::ai::{Budget, Iteration, Player, PlayerKind, SearchStats, TtEntry};
use crate::lines::{quote_short, read_line_bounded, too_long_message, Line};

/// Exit status for bad input (a malformed or finished board, an impossible
/// size): the same as clap's usage errors.
pub const EXIT_INPUT: i32 = 2;
/// Exit status for anything else (I/O failures).
pub const EXIT_FAILURE: i32 = 1;

/// Bad input from the user: reported on stderr, exit status 2.
#[derive(Debug)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// Shorthand for an [`InputError`] as an `anyhow::Error`.
pub fn input_error(msg: impl Into<String>) -> anyhow::Error {
    InputError(msg.into()).into()
}

/// A command stopped by a signal after cleaning up: exit status 128 plus
/// the signal's number (130 for SIGINT, 143 for SIGTERM), as a shell
/// reports a program the signal killed.
#[derive(Debug)]
pub struct Interrupted {
    /// The signal's number.
    pub signal: i32,
    /// What was stopped, for the message.
    pub what: String,
}

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for Interrupted {}

/// The exit status for an error returned by a command.
pub fn exit_code(err: &anyhow::Error) -> i32 {
    if let Some(stop) = err.downcast_ref::<Interrupted>() {
        128 + stop.signal
    } else if err.downcast_ref::<InputError>().is_some() {
        EXIT_INPUT
    } else {
        EXIT_FAILURE
    }
}

/// Whether an error is a closed pipe (`ttt move - | head`): not worth a message.
/// JSON output meets it inside serde_json's error.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            || e.downcast_ref::<serde_json::Error>()
                .is_some_and(|e| e.io_error_kind() == Some(io::ErrorKind::BrokenPipe))
    })
}

/// Prints a message on stderr, ignoring a failure to write it: used on
/// paths that end the program, where a closed or full stderr (`2>/dev/full`,
/// a hung-up terminal) must not turn into a panic.
pub fn print_err(message: fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(io::stderr(), "{message}");
}

/// How squares are written in output (`--format`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// 1-based row-major square number: 5 is the centre of 3x3.
    #[default]
    Number,
    /// Column letter and 1-based row, row 1 at the top: b2.
    Coord,
    /// 1-based row then column: "2 2".
    Rowcol,
}

impl From<Format> for SquareFormat {
    fn from(f: Format) -> SquareFormat {
        match f {
            Format::Number => SquareFormat::Number,
            Format::Coord => SquareFormat::Coord,
            Format::Rowcol => SquareFormat::RowCol,
        }
    }
}

/// `square` written the way `--format` asks.
pub fn square_text(rules: &Rules, square: Square, format: Format) -> String {
    rules.display_square(square, format.into()).to_string()
}

/// Reads a board to play from: well-formed, reachable and not finished.
pub fn playable_board(text: &str, k: Option<u8>, exact_k: bool) -> Result<Position, String> {
    let quoted = quote_short(text);
    let pos = Position::from_board_with(text, k, win_condition(exact_k))
        .map_err(|e| format!("board {quoted:?}: {e}"))?;
    match pos.outcome() {
        Outcome::InProgress => Ok(pos),
        Outcome::Win(mark) => Err(format!(
            "board {quoted:?}: the game is over ({mark} has won), there is no move to find"
        )),
        Outcome::Draw => Err(format!(
            "board {quoted:?}: the game is over (a draw, the board is full), there is no move to find"
        )),
    }
}

/// Where a board came from, for error messages.
#[derive(Clone, Debug)]
pub enum Origin {
    /// The n-th board argument (1-based).
    Argument(usize),
    /// Line n of standard input (1-based).
    StdinLine(usize),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Argument(n) => write!(f, "argument {n}"),
            Origin::StdinLine(n) => write!(f, "stdin line {n}"),
        }
    }
}

/// Calls `each` for every board of the arguments, in order; an argument `-`
/// stands for the lines of `stdin` (one board per line; blank lines and lines
/// starting with `#` are skipped). Stops at the first error `each` returns.
pub fn for_each_board(
    args: &[String],
    stdin: &mut dyn BufRead,
    mut each: impl FnMut(&str, Origin) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    for (i, arg) in args.iter().enumerate() {
        if arg != "-" {
            each(arg, Origin::Argument(i + 1))?;
            continue;
        }
        let mut number = 0;
        loop {
            let bytes = match read_line_bounded(stdin)? {
                Line::End => break,
                Line::Text(bytes) => bytes,
                Line::TooLong { start, length } => {
                    number += 1;
                    let origin = Origin::StdinLine(number);
                    return Err(input_error(format!(
                        "{origin}: {}",
                        too_long_message(&start, length)
                    )));
                }
            };
            number += 1;
            let Ok(line) = std::str::from_utf8(&bytes) else {
                return Err(input_error(format!(
                    "{}: the line is not valid UTF-8 text: \"{}\"",
                    Origin::StdinLine(number),
                    quote_short(&String::from_utf8_lossy(&bytes))
                )));
            };
            let text = line.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            each(text, Origin::StdinLine(number))?;
        }
    }
    Ok(())
}

/// Reads a player name for clap (case-insensitive), listing the names on a
/// typo; the names show in `--help` and in shell completions.
#[derive(Copy, Clone, Debug, Default)]
pub struct PlayerParser;

impl clap::builder::TypedValueParser for PlayerParser {
    type Value = PlayerKind;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<PlayerKind, clap::Error> {
        let text = value.to_string_lossy();
        parse_player(&text).map_err(|msg| {
            let name = arg.map_or_else(|| "player".to_string(), |a| a.to_string());
            clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                format!("invalid value {text:?} for {name}: {msg}\n"),
            )
            .with_cmd(cmd)
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(PlayerKind::ALL.iter().map(|k| {
            clap::builder::PossibleValue::new(k.name()).help(k.description())
        })))
    }
}

/// Reads a player name, listing the names on a typo.
pub fn parse_player(name: &str) -> Result<PlayerKind, String> {
    name.parse().map_err(|_| {
        let names: Vec<&str> = PlayerKind::ALL.iter().map(|k| k.name()).collect();
        format!(
            "unknown player {name:?}: choose one of {}",
            names.join(", ")
        )
    })
}

/// Why the exact solver refuses the exactly-k rule on `rules` (a line
/// longer than k fits on the board), or `None` if it does not.
pub fn exact_k_refusal(rules: &Rules) -> Option<String> {
    let long = rules.columns().max(rules.rows());
    rules.excludes_overlines().then(|| {
        format!(
            "{rules}: the exact solver does not play the exactly-k rule where a line longer \
             than k fits (here up to {long}); it does with k equal to the longer side \
             (k={long}), and `ttt move --ai strong` plays this board"
        )
    })
}

/// Refuses `perfect` on boards the exact solver cannot finish.
pub fn check_player_fits(kind: PlayerKind, rules: &Rules) -> Result<(), String> {
    if kind == PlayerKind::Perfect && !crate::ai::is_solvable(rules) {
        return Err(format!(
            "the perfect player cannot solve {rules} in reasonable time: use impossible or strong"
        ));
    }
    Ok(())
}

/// The win condition `--exact-k` asks for.
pub fn win_condition(exact_k: bool) -> WinCondition {
    if exact_k {
        WinCondition::ExactlyK
    } else {
        WinCondition::AtLeastK
    }
}

/// Reads a board size for clap: `3`, `4x3`, `7x7 k=4`, `15 exact`.
pub fn parse_rules(text: &str) -> Result<Rules, String> {
    text.parse::<Rules>().map_err(|e| e.to_string())
}

/// Applies an explicit `-k` to a size.
pub fn with_k(rules: Rules, k: Option<u8>) -> anyhow::Result<Rules> {
    match k {
        Some(k) => rules.with_k(k).map_err(|e| input_error(e.to_string())),
        None => Ok(rules),
    }
}

/// `--size`'s value name, the same in every command.
pub const SIZE_VALUE: &str = "N|CxR";

/// The `--size` flag's text, shared by the commands that take it.
pub const SIZE_HELP: &str = "Board size: N (N x N) or CxR (columns x rows), 1 to 20 each; a win \
     length may follow (\"7x7 k=4\")";

/// The `-k, --win-length` flag's text, shared by the commands that take it.
pub const WIN_LENGTH_HELP: &str = "Marks in a row to win (default: a full row of the shorter side \
     up to 9x9, 5 in a row on larger boards)";

macro_rules! exact_k_text {
    () => {
        "Only exactly k in a row wins: a longer line (an overline) does not (Gomocup's \
         \"exactly five\" rule)"
    };
}

/// The `--exact-k` flag's text, for commands that read boards (no `--size`).
pub const EXACT_K_HELP: &str = exact_k_text!();

/// The `--exact-k` flag's text, for commands with `--size`.
pub const EXACT_K_SIZE_HELP: &str = concat!(
    exact_k_text!(),
    ". Also written as a size suffix: --size \"15 exact\""
);

/// Default transposition table size in MiB.
pub const DEFAULT_TT_MB: usize = 16;

/// Reads `--tt-mb` for clap: a whole number of MiB, at least 1.
pub fn parse_tt_mb(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("the table needs at least 1 MiB".into()),
        Ok(mb) => Ok(mb),
        Err(e) => Err(format!("{e} (a whole number of MiB, at least 1)")),
    }
}

/// A transposition table of about `mb` MiB (at least one entry); an input
/// error if the memory cannot be had.
pub fn alloc_tt(mb: usize) -> anyhow::Result<Vec<TtEntry>> {
    alloc_tt_bytes(mb.saturating_mul(1 << 20)).ok_or_else(|| {
        input_error(format!(
            "cannot allocate a {mb} MiB transposition table: choose a smaller --tt-mb"
        ))
    })
}

/// Table entries that can ever be of use on `rules`' board: twice the 3^cells
/// bound on its positions (so collisions stay rare), saturating. Only boards
/// of up to a dozen cells need less than the default table.
pub fn tt_entries_useful(rules: &Rules) -> usize {
    3usize
        .checked_pow(rules.cell_count() as u32)
        .and_then(|n| n.checked_mul(2))
        .unwrap_or(usize::MAX)
}

/// Makes `tt` the table to search `rules` with: as large as the board can
/// use, at most `mb` MiB. A 3x3 search with `--tt-mb 4096` then takes well
/// under a MiB instead of zeroing 4 GiB first. The table only grows (a batch
/// of boards keeps the table of its largest one); an input error if the
/// memory cannot be had.
pub fn fit_tt(tt: &mut Vec<TtEntry>, mb: usize, rules: &Rules) -> anyhow::Result<()> {
    let entry = std::mem::size_of::<TtEntry>().max(1);
    let budget = (mb.saturating_mul(1 << 20) / entry).max(1);
    let want = budget.min(tt_entries_useful(rules));
    if tt.len() < want {
        // The index depends on the length: a grown table starts empty.
        *tt = alloc_tt_bytes(want * entry).ok_or_else(|| {
            input_error(format!(
                "cannot allocate a {} MiB transposition table for {rules}: choose a smaller --tt-mb",
                (want * entry).div_ceil(1 << 20)
            ))
        })?;
    }
    Ok(())
}

/// A transposition table of at most `bytes` bytes (at least one entry), or
/// `None` if the memory cannot be had.
pub fn alloc_tt_bytes(bytes: usize) -> Option<Vec<TtEntry>> {
    let entry = std::mem::size_of::<TtEntry>().max(1);
    let n = (bytes / entry).max(1);
    // Zeroed (an all-zero entry is the empty one): the pages are mapped
    // when the search first writes them, so a big table costs nothing up
    // front.
    bytemuck::allocation::try_zeroed_vec(n).ok()
}

/// Whether colour may be used on stdout (a terminal, and no `NO_COLOR`).
pub fn use_color() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && io::stdout().is_terminal()
}

/// `n` with thousands separators: 1,234,567.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Nodes per second, guarding against a zero duration.
pub fn per_second(nodes: u64, secs: f64) -> u64 {
    if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    }
}

/// How long a computer player may think.
#[derive(Copy, Clone, Debug, Default)]
pub struct Limits {
    /// Stop after about this many nodes (default: the player's own limit,
    /// or none when there is a deadline).
    pub max_nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Aim to have moved by this instant (a game clock's share for this
    /// move, before the deadline): an iteration of the search that ends
    /// past a share of it (see [`aim_reached`]) plays its move.
    pub aim: Option<Instant>,
}

/// The share of a move's time (of its aim, under a game clock) the exact
/// solver may take before the player falls back on the search: 3/4, so a
/// position the solver cannot finish still gets a quarter of the time
/// searched (on 5x5 k=5 with 150 ms a move: about 110 ms of solving, then
/// the search).
pub const SOLVER_SHARE: (u32, u32) = (3, 4);

/// The move a `kind` player picks in `pos` within `limits`, and the search
/// statistics: the one place that drives `ttt_core::ai::Player`.
pub fn think(
    kind: PlayerKind,
    seed: u64,
    tt: &mut [TtEntry],
    pos: &Position,
    limits: Limits,
) -> (Option<Square>, SearchStats) {
    think_until(kind, seed, tt, pos, limits, &|| false)
}

/// [`think`], also stopping the search (`strong`'s, and the exact
/// solver's) as soon as `stop` returns `true`: the Gomocup brain's way to
/// drop a turn the manager no longer wants, and arena's on a signal.
pub fn think_until(
    kind: PlayerKind,
    seed: u64,
    tt: &mut [TtEntry],
    pos: &Position,
    limits: Limits,
    stop: &dyn Fn() -> bool,
) -> (Option<Square>, SearchStats) {
    think_watched(kind, seed, tt, pos, limits, stop, &|_, _| {})
}

/// [`think_until`], telling `watch` each completed iteration of the
/// search (`strong`'s; the exact solver has none) and how long after the
/// start it came: what the Gomocup brain and `ttt move --verbose` report
/// ([`search_report`](crate::search_report)).
pub fn think_watched(
    kind: PlayerKind,
    seed: u64,
    tt: &mut [TtEntry],
    pos: &Position,
    limits: Limits,
    stop: &dyn Fn() -> bool,
    watch: &dyn Fn(&Iteration, Duration),
) -> (Option<Square>, SearchStats) {
    let past_deadline = move || stop() || limits.deadline.is_some_and(|d| Instant::now() >= d);
    let began = Instant::now();
    let aim_reached = move |it: &Iteration| {
        watch(it, began.elapsed());
        limits.aim.is_some_and(|aim| {
            aim_reached(it, began.elapsed(), aim.saturating_duration_since(began))
        })
    };
    // The exact solver either finishes or has nothing: it gets a share of
    // the time (of the aim, under a game clock), and a position it cannot
    // solve by then gets the search's move in the rest.
    let solver_until = limits.aim.or(limits.deadline).map(|until| {
        began + until.saturating_duration_since(began) * SOLVER_SHARE.0 / SOLVER_SHARE.1
    });
    let solver_past = move || stop() || solver_until.is_some_and(|d| Instant::now() >= d);
    let mut player = Player::new(kind, seed, tt);
    player.set_solver_deadline(&solver_past);
    player.set_budget(Budget {
        // With a deadline only, the clock decides.
        max_nodes: limits.max_nodes.unwrap_or(if limits.deadline.is_some() {
            u64::MAX
        } else {
            Budget::DEFAULT_NODES
        }),
        max_depth: 0,
        deadline_check: Some(&past_deadline),
        deadline_every: Budget::DEADLINE_EVERY,
        iteration_done: Some(&aim_reached),
    });
    let choice = player.choose_move(pos);
    (choice, player.stats())
}

/// When the program started, for commands that report the wall time the
/// user waited (`solve`). Set by [`mark_start`]; the first call marks it if
/// nothing did.
pub fn started() -> std::time::Instant {
    *STARTED.get_or_init(process_start)
}

/// Marks the program's start: the first thing `main` does.
pub fn mark_start() {
    started();
}

/// When the process started: now, less the CPU time it has used so far.
/// Before `main` the process only runs (the kernel's exec, the dynamic
/// loader, the runtime's set-up: about 1.5 ms, a tenth of a small proof),
/// so its CPU time is the time since it began, unless the binary had to
/// be read from a slow disk. Where the clock is missing: now.
fn process_start() -> std::time::Instant {
    let now = std::time::Instant::now();
    let cpu = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    let used = std::time::Duration::new(cpu.tv_sec.max(0) as u64, cpu.tv_nsec.max(0) as u32);
    now.checked_sub(used).unwrap_or(now)
}

static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouping() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1234567), "1,234,567");
    }

    #[test]
    fn finished_boards_are_refused() {
        assert!(playable_board("xxx/oo./...", None, false).is_err());
        assert!(playable_board("xox/xoo/oxx", None, false).is_err());
        assert!(playable_board("x.o/.x./..o", None, false).is_ok());
        assert!(playable_board("xx", None, false).is_err());
        // Six in a row: won under "five or more", in progress under exactly five.
        let six = format!("xxxxxx.../{}/oooo.oo..", ["........."; 7].join("/"));
        assert!(playable_board(&six, Some(5), false).is_err());
        assert!(playable_board(&six, Some(5), true).is_ok());
    }

    #[test]
    fn stdin_batches_skip_blank_and_comment_lines() {
        let mut input = io::Cursor::new("x........\n\n# comment\n.x.......\n");
        let mut seen = Vec::new();
        for_each_board(&["a".into(), "-".into()], &mut input, |b, o| {
            seen.push(format!("{b}@{o}"));
            Ok(())
        })
        .unwrap();
        assert_eq!(
            seen,
            [
                "a@argument 1",
                "x........@stdin line 1",
                ".x.......@stdin line 4"
            ]
        );
    }
}
