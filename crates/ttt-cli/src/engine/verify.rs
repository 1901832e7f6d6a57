//! `ttt verify FILE`: checks a proof certificate (format: see
//! [`super::certificate`]) without trusting the prover that made it: this
//! module uses only the rules (`Position`, `Rules`, and the reduced
//! positions of [`super::reduced`], derived from the rules alone), never
//! the search code or the writer.
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;
use ttt_core::{Mark, Outcome, Position, Rules};

use super::reduced::{Geometry, Key};

use crate::common::{grouped, input_error};
use crate::lines::{quote_short, read_line_capped, Line, MAX_LINE_BYTES};

const AFTER_HELP: &str = "\
Reads a certificate written by `ttt solve --certificate FILE` and plays every
game its strategies allow from the empty board, checking that each one ends as
claimed (positions that differ only in cells no line can use any more are
checked once). Exit status 0: the proof holds; 2: it is malformed or wrong (the
reason is printed; with --json also as \"valid\": false and its \"reason\").

Examples:
  ttt solve --size 5x5 -k 4 --certificate 554.cert && ttt verify 554.cert";

/// Arguments of `ttt verify`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct VerifyArgs {
    /// The certificate file.
    pub file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// What a checked strategy achieves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// The other side never completes a line.
    Blocks,
    /// The player completes a line.
    Wins,
}

struct Strategy {
    player: Mark,
    goal: Goal,
    /// X's first move (row-major cell index) the strategy starts after;
    /// `None`: from the empty board.
    after: Option<usize>,
    /// Canonical reduced position (P to move) to P's reply (row-major cell
    /// index) in that frame.
    replies: HashMap<Key, u8>,
    /// Canonical reduced positions (either side to move) whose pairing
    /// entry was checked when read.
    paired: HashSet<Key>,
}

/// The result of a successful check.
#[derive(Serialize, Debug)]
pub struct Checked {
    /// The board, `CxR k=K`.
    pub rules: String,
    /// `draw`, `x wins` or `o wins`.
    pub claim: &'static str,
    /// Reduced positions visited over all strategies (one per symmetry
    /// class, per strategy section).
    pub positions: u64,
    /// Strategy entries in the file.
    pub entries: usize,
    /// Strategy sections in the file.
    pub sections: usize,
}

/// Runs `ttt verify`.
pub fn run(args: &VerifyArgs) -> anyhow::Result<()> {
    let file = File::open(&args.file)
        .map_err(|e| input_error(format!("cannot read {}: {e}", args.file.display())))?;
    let start = Instant::now();
    // Read as a stream of bounded lines: memory follows the certificate's
    // entries, not the size of whatever file is given (/dev/zero).
    let checked = check(&mut BufReader::new(file));
    let secs = start.elapsed().as_secs_f64();
    let shown = args.file.display().to_string();
    let mut out = io::stdout().lock();
    if args.json {
        #[derive(Serialize)]
        struct Json<'a> {
            file: &'a str,
            valid: bool,
            /// Why the certificate was rejected.
            #[serde(skip_serializing_if = "Option::is_none")]
            reason: Option<&'a str>,
            #[serde(flatten)]
            checked: Option<&'a Checked>,
            seconds: f64,
        }
        serde_json::to_writer_pretty(
            &mut out,
            &Json {
                file: &shown,
                valid: checked.is_ok(),
                reason: checked.as_ref().err().map(String::as_str),
                checked: checked.as_ref().ok(),
                seconds: secs,
            },
        )?;
        writeln!(out)?;
        out.flush()?;
    }
    let checked =
        checked.map_err(|e| input_error(format!("{shown}: certificate rejected: {e}")))?;
    if !args.json {
        writeln!(
            out,
            "{shown}: valid proof: {} {} ({} entries, {} positions checked, {secs:.3} s)",
            checked.rules,
            checked.claim,
            grouped(checked.entries as u64),
            grouped(checked.positions)
        )?;
    }
    Ok(())
}

/// The format version this checker reads (and 2 and 3: see [`check`]).
pub const FORMAT_VERSION: u32 = 4;
/// The version of certificates whose strategies all start from the empty
/// board (version 4 adds `strategy ... after N`).
pub const ROOT_VERSION: u32 = 3;
/// The first line of a part of a certificate (`ttt solve --part`, a
/// `--resume` journal): its strategies, no claim; `ttt join` makes the
/// certificate.
pub const PART_HEADER: &str = "ttt-certificate-part 1";

/// Parses and checks certificate text; the error says what is wrong.
pub fn check_text(text: &str) -> Result<Checked, String> {
    check(&mut text.as_bytes())
}

/// Parses and checks a certificate read from `input`, one strategy section
/// at a time: memory holds the largest section, not the whole file.
pub fn check(input: &mut dyn BufRead) -> Result<Checked, String> {
    let mut lines = Lines { input, number: 0 };
    let (version, geometry, claim) = parse_header(&mut lines)?;
    let needed: &[(Mark, Goal)] = match claim {
        "draw" => &[(Mark::O, Goal::Blocks), (Mark::X, Goal::Blocks)],
        "x wins" => &[(Mark::X, Goal::Wins)],
        _ => &[(Mark::O, Goal::Wins)],
    };
    // Per needed strategy, the openings its sections cover (canonical
    // reduced positions after X's first move), or `None` once a section
    // from the empty board covers them all.
    let mut covered: Vec<Option<HashSet<Key>>> = vec![Some(HashSet::new()); needed.len()];
    let mut heads = HashSet::new();
    let mut checked = Checked {
        rules: geometry.rules().to_string(),
        claim,
        positions: 0,
        entries: 0,
        sections: 0,
    };
    while let Some(s) = next_strategy(&mut lines, &geometry, version, &mut heads)? {
        checked.entries += s.replies.len() + s.paired.len();
        checked.sections += 1;
        let Some(i) = needed
            .iter()
            .position(|&(p, g)| p == s.player && g == s.goal)
        else {
            continue;
        };
        let mut start = Position::new(*geometry.rules());
        if let Some(cell) = s.after {
            start
                .play(geometry.square(cell))
                .map_err(|e| format!("{}: {e}", describe_section(&s)))?;
        }
        let opening = s
            .after
            .map(|_| geometry.canonical(&geometry.reduce(&start)).0);
        let mut checker = Checker {
            geometry: &geometry,
            strategy: &s,
            proven: HashSet::new(),
        };
        checker
            .check(&mut start)
            .map_err(|e| format!("{}: {e}", describe_section(&s)))?;
        checked.positions += checker.proven.len() as u64;
        match (opening, &mut covered[i]) {
            (None, c) => *c = None,
            (Some(key), Some(set)) => {
                set.insert(key);
            }
            (Some(_), None) => {}
        }
    }
    for (&(player, goal), c) in needed.iter().zip(&covered) {
        let Some(set) = c else { continue };
        if set.is_empty() {
            return Err(format!("claim {claim} needs {}", describe(player, goal)));
        }
        // X's strategy chooses the first move: one section is enough. O's
        // must answer every first move of X.
        if player == Mark::O {
            if let Some(cell) = first_move_uncovered(&geometry, set) {
                return Err(format!(
                    "claim {claim} needs {} after every first move of x: none after {} \
                     (or a move like it by symmetry)",
                    describe(player, goal),
                    cell + 1
                ));
            }
        }
    }
    Ok(checked)
}

/// The first cell (row-major index) whose opening by X `covered` lacks.
fn first_move_uncovered(geometry: &Geometry, covered: &HashSet<Key>) -> Option<usize> {
    let empty = Position::new(*geometry.rules());
    (0..geometry.cells()).find(|&cell| {
        let mut pos = empty.clone();
        pos.play(geometry.square(cell)).is_ok()
            && !covered.contains(&geometry.canonical(&geometry.reduce(&pos)).0)
    })
}

fn describe(player: Mark, goal: Goal) -> String {
    let p = name(player);
    match goal {
        Goal::Blocks => format!("strategy {p} blocks {}", name(player.other())),
        Goal::Wins => format!("strategy {p} wins"),
    }
}

fn describe_section(s: &Strategy) -> String {
    match s.after {
        Some(cell) => format!("{} after {}", describe(s.player, s.goal), cell + 1),
        None => describe(s.player, s.goal),
    }
}

fn name(m: Mark) -> &'static str {
    match m {
        Mark::X => "x",
        Mark::O => "o",
    }
}

/// The non-blank lines of a certificate, numbered from 1, trimmed; each
/// must be UTF-8 text of at most [`crate::lines::MAX_LINE_BYTES`]. A UTF-8
/// byte order mark before the first line is skipped.
pub struct Lines<'a> {
    input: &'a mut dyn BufRead,
    number: usize,
}

impl<'a> Lines<'a> {
    /// The lines of `input`.
    pub fn new(input: &'a mut dyn BufRead) -> Lines<'a> {
        Lines { input, number: 0 }
    }

    /// The next non-blank line, `None` at the end of the file.
    fn next(&mut self) -> Result<Option<(usize, String)>, String> {
        loop {
            let line = read_line_capped(self.input);
            self.number += 1;
            let n = self.number;
            let mut bytes = match line {
                Ok(Line::End) => return Ok(None),
                Ok(Line::Text(bytes)) => bytes,
                Ok(Line::TooLong { start, .. }) => {
                    return Err(format!(
                        "line {n}: the line is too long (over {MAX_LINE_BYTES} bytes): \"{}\"",
                        quote_short(&String::from_utf8_lossy(&start))
                    ))
                }
                Err(e) => return Err(format!("line {n}: cannot read: {e}")),
            };
            if n == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
                bytes.drain(..3);
            }
            // Not quoted: the bytes of a binary file would garble the terminal.
            let text = String::from_utf8(bytes)
                .map_err(|_| format!("line {n}: not UTF-8 text (is this a certificate?)"))?;
            let text = text.trim();
            if !text.is_empty() {
                return Ok(Some((n, text.to_string())));
            }
        }
    }

    /// The next non-blank line; the end of the file is an error: `what`
    /// was expected.
    fn expect(&mut self, what: &str) -> Result<(usize, String), String> {
        self.next()?
            .ok_or_else(|| format!("unexpected end of file: expected {what}"))
    }
}

/// Reads the first three lines: the version, the board's geometry, the
/// claim.
fn parse_header(lines: &mut Lines<'_>) -> Result<(u32, Geometry, &'static str), String> {
    let (n, magic) = lines.expect("the header")?;
    if magic == PART_HEADER {
        return Err(format!(
            "line {n}: a part of a certificate, not a whole one: join the parts with `ttt join`"
        ));
    }
    let version_text = magic
        .strip_prefix("ttt-certificate ")
        .ok_or_else(|| format!("line {n}: not a ttt certificate"))?;
    let version = match number::<u32>(version_text) {
        // Version 2 is version 3 without pairing entries, 3 version 4
        // without strategies after a first move.
        Ok(v @ (2 | ROOT_VERSION | FORMAT_VERSION)) => v,
        Ok(1) => {
            return Err(format!(
                "line {n}: a version 1 certificate (whole positions); this ttt reads version \
                 {FORMAT_VERSION} (reduced positions): write it again with `ttt solve --certificate`"
            ))
        }
        _ => {
            return Err(format!(
                "line {n}: unknown certificate version `{}` (this ttt reads version \
                 {FORMAT_VERSION})",
                quote_short(version_text)
            ))
        }
    };
    let geometry = parse_rules_line(lines)?;
    let (n, claim_line) = lines.expect("the claim")?;
    let claim = match claim_line.as_str() {
        "claim draw" => "draw",
        "claim x wins" => "x wins",
        "claim o wins" => "o wins",
        _ => return Err(format!("line {n}: expected `claim draw|x wins|o wins`")),
    };
    Ok((version, geometry, claim))
}

/// Reads a `rules CxR k=K` line: the board's geometry.
pub fn parse_rules_line(lines: &mut Lines<'_>) -> Result<Geometry, String> {
    let (n, rules_line) = lines.expect("the rules")?;
    let rules: Rules = rules_line
        .strip_prefix("rules ")
        .ok_or_else(|| format!("line {n}: expected `rules CxR k=K`"))?
        .parse()
        .map_err(|e| format!("line {n}: {e}"))?;
    Geometry::new(rules).map_err(|e| format!("line {n}: {e}"))
}

/// A strategy section's head line, `strategy P blocks Q|P wins [after N]`
/// (after the word `strategy `): the player, the goal, and X's first move
/// (row-major cell index) it starts after. `after` needs `version` 4.
pub fn parse_head(
    geometry: &Geometry,
    version: u32,
    head: &str,
) -> Result<(Mark, Goal, Option<usize>), String> {
    let (what, after) = match head.split_once(" after ") {
        Some((what, cell)) => {
            if version < FORMAT_VERSION {
                return Err(format!(
                    "`strategy ... after N` needs version {FORMAT_VERSION} (the header says \
                     {version})"
                ));
            }
            let index = number::<usize>(cell)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .filter(|&i| i < geometry.cells())
                .ok_or_else(|| {
                    format!(
                        "`after {}`: not a cell of the board (1 to {})",
                        quote_short(cell),
                        geometry.cells()
                    )
                })?;
            (what, Some(index))
        }
        None => (head, None),
    };
    let (player, goal) = match what {
        "x blocks o" => (Mark::X, Goal::Blocks),
        "o blocks x" => (Mark::O, Goal::Blocks),
        "x wins" => (Mark::X, Goal::Wins),
        "o wins" => (Mark::O, Goal::Wins),
        _ => return Err(format!("unknown strategy `{}`", quote_short(head))),
    };
    Ok((player, goal, after))
}

/// The next strategy section, read and its entries checked for form;
/// `None` at the end of the file. `heads` holds the sections seen so far
/// (a second one with the same head is an error).
fn next_strategy(
    lines: &mut Lines<'_>,
    geometry: &Geometry,
    version: u32,
    heads: &mut HashSet<(Mark, Goal, Option<Key>)>,
) -> Result<Option<Strategy>, String> {
    let Some((n, line)) = lines.next()? else {
        return Ok(None);
    };
    let head = line
        .strip_prefix("strategy ")
        .ok_or_else(|| format!("line {n}: expected `strategy ...`"))?;
    let (player, goal, after) =
        parse_head(geometry, version, head).map_err(|e| format!("line {n}: {e}"))?;
    // Sections after first moves alike by symmetry are the same section.
    let opening = after.map(|cell| {
        let mut pos = Position::new(*geometry.rules());
        // A first move on an empty board is always legal.
        let _ = pos.play(geometry.square(cell));
        geometry.canonical(&geometry.reduce(&pos)).0
    });
    if !heads.insert((player, goal, opening)) {
        return Err(format!("line {n}: strategy `{head}` given twice"));
    }
    let mut replies = HashMap::new();
    let mut paired = HashSet::new();
    loop {
        let (n, line) = lines
            .next()?
            .ok_or_else(|| format!("unexpected end of file in strategy `{head}`"))?;
        if line == "end" {
            break;
        }
        if let Some(rest) = line.strip_prefix("pairs ") {
            if version < ROOT_VERSION {
                return Err(format!(
                    "line {n}: a pairing entry in a version {version} certificate (pairings came \
                     with version {ROOT_VERSION}: the file says `ttt-certificate {version}`)"
                ));
            }
            if goal != Goal::Blocks {
                return Err(format!(
                    "line {n}: a pairing only blocks: it cannot be part of `strategy {head}`"
                ));
            }
            let key =
                parse_pairing(geometry, player, rest).map_err(|e| format!("line {n}: {e}"))?;
            if !paired.insert(geometry.canonical(&key).0) {
                return Err(format!("line {n}: position given twice (up to symmetry)"));
            }
            continue;
        }
        let (key, mv) =
            parse_entry(geometry, player, &line).map_err(|e| format!("line {n}: {e}"))?;
        let (canon, sym) = geometry.canonical(&key);
        let mv = geometry.apply(sym, mv) as u8;
        if replies.insert(canon, mv).is_some() {
            return Err(format!("line {n}: position given twice (up to symmetry)"));
        }
    }
    Ok(Some(Strategy {
        player,
        goal,
        after,
        replies,
        paired,
    }))
}

/// A number as the writer writes it: decimal digits, no sign, no leading
/// zero (a file with `+3` or `03` was not written by `ttt solve`).
fn number<T: std::str::FromStr>(text: &str) -> Result<T, ()> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    canonical.then(|| text.parse().ok()).flatten().ok_or(())
}

/// One `BOARD SPARE MOVE` line of `player`'s strategy: the reduced position
/// (`player` to move) and the reply's cell index. The reply must be an
/// empty live cell (a `.`).
fn parse_entry(geometry: &Geometry, player: Mark, line: &str) -> Result<(Key, usize), String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [board, spare, mv] = fields[..] else {
        return Err("expected `BOARD SPARE MOVE`".into());
    };
    let (dead, x, o) = geometry
        .parse_board(board)
        .map_err(|e| format!("bad board: {e}"))?;
    let spare: u8 = number(spare).map_err(|_| format!("bad spare cell count `{spare}`"))?;
    let key = Key {
        dead,
        x,
        o,
        spare,
        x_to_move: player == Mark::X,
    };
    geometry
        .check_consistent(&key)
        .map_err(|e| format!("not a reduced position with {} to move: {e}", name(player)))?;
    let cell: usize = number(mv).map_err(|_| format!("bad move `{}`", quote_short(mv)))?;
    let index = cell
        .checked_sub(1)
        .filter(|&i| i < geometry.cells())
        .ok_or_else(|| format!("move {cell} is not on the board"))?;
    if (dead | x | o) >> index & 1 != 0 {
        return Err(format!(
            "move {cell} is not legal there: the reply must be an empty live cell (`.`)"
        ));
    }
    Ok((key, index))
}

/// One `pairs T BOARD SPARE A-B ...` line (after `pairs `) of `player`'s
/// blocking strategy, checked: the reduced position, T to move, for which
/// the pairs are a pairing (see [`Geometry::check_pairing`]).
fn parse_pairing(geometry: &Geometry, player: Mark, line: &str) -> Result<Key, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [to_move, board, spare, ref pairs @ ..] = fields[..] else {
        return Err("expected `pairs T BOARD SPARE A-B ...`".into());
    };
    let x_to_move = match to_move {
        "x" => true,
        "o" => false,
        _ => {
            return Err(format!(
                "expected `x` or `o` to move, found `{}`",
                quote_short(to_move)
            ))
        }
    };
    let (dead, x, o) = geometry
        .parse_board(board)
        .map_err(|e| format!("bad board: {e}"))?;
    let spare: u8 =
        number(spare).map_err(|_| format!("bad spare cell count `{}`", quote_short(spare)))?;
    let key = Key {
        dead,
        x,
        o,
        spare,
        x_to_move,
    };
    geometry
        .check_consistent(&key)
        .map_err(|e| format!("not a reduced position with {to_move} to move: {e}"))?;
    let cell = |text: &str| -> Result<usize, String> {
        number::<usize>(text)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .ok_or_else(|| format!("bad cell number `{}`", quote_short(text)))
    };
    let pairs = pairs
        .iter()
        .map(|pair| {
            let (a, b) = pair
                .split_once('-')
                .ok_or_else(|| format!("expected a pair `A-B`, found `{}`", quote_short(pair)))?;
            Ok((cell(a)?, cell(b)?))
        })
        .collect::<Result<Vec<_>, String>>()?;
    geometry
        .check_pairing(&key, player, &pairs)
        .map_err(|e| format!("not a pairing for {}: {e}", name(player)))?;
    Ok(key)
}

struct Checker<'c> {
    geometry: &'c Geometry,
    strategy: &'c Strategy,
    /// Canonical reduced positions already proven fine.
    proven: HashSet<Key>,
}

impl Checker<'_> {
    /// Checks every game the strategy allows from `pos` (see the soundness
    /// argument in [`super::certificate`]): the position is played for real,
    /// and proven fine once per reduced position.
    fn check(&mut self, pos: &mut Position) -> Result<(), String> {
        let p = self.strategy.player;
        let q = p.other();
        match (pos.outcome(), self.strategy.goal) {
            (Outcome::Win(w), _) if w == p => return Ok(()),
            (Outcome::Win(_), Goal::Blocks) => {
                return Err(format!("{} completes a line in {pos}", name(q)))
            }
            (Outcome::Win(_), Goal::Wins) | (Outcome::Draw, Goal::Wins) => {
                return Err(format!(
                    "the game {pos} ends without a line for {}",
                    name(p)
                ))
            }
            (Outcome::Draw, Goal::Blocks) => return Ok(()),
            (Outcome::InProgress, _) => {}
        }
        let g = self.geometry;
        let key = g.reduce(pos);
        let p_moves = pos.side_to_move() == p;
        // P to move completes a line: the game ends in P's favour.
        if p_moves && g.has_immediate_win(&key, p) {
            return Ok(());
        }
        if self.strategy.goal == Goal::Blocks && g.erdos_selfridge_blocks(&key, p) {
            return Ok(());
        }
        let (canon, sym) = g.canonical(&key);
        if self.proven.contains(&canon) || self.strategy.paired.contains(&canon) {
            return Ok(());
        }
        if p_moves {
            let reply = *self.strategy.replies.get(&canon).ok_or_else(|| {
                format!(
                    "no reply for {pos} ({} to move; reduced {} {})",
                    name(p),
                    g.board_text(&canon),
                    canon.spare
                )
            })?;
            let mv = g.square(g.apply(sym.inverse(), reply as usize));
            pos.play(mv)
                .map_err(|e| format!("the reply in {pos} is illegal: {e}"))?;
            let r = self.check(pos);
            pos.undo();
            r?;
        } else {
            for sq in pos.legal_moves() {
                pos.play(sq).map_err(|e| e.to_string())?;
                let r = self.check(pos);
                pos.undo();
                r?;
            }
        }
        self.proven.insert(canon);
        Ok(())
    }
}
