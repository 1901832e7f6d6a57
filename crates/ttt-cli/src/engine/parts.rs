//! Proofs in parts: a board's proof split into jobs that each prove one
//! question and write their part of the certificate, for proofs that span
//! several sittings (`ttt solve --resume FILE`) or several machines
//! (`ttt solve --part N` under a scheduler, then `ttt join`).
//!
//! The parts of a board's proof:
//!
//! * part 0: does O win from the empty board? Its section is X's blocking
//!   strategy after the first move the proof chooses (`strategy x blocks o
//!   after N`), or, were O to win, O's winning strategy from the empty board.
//! * part i (1 to the number of X's first moves up to symmetry): does X win
//!   after its i-th first move (row-major order of the smallest cell of each
//!   class of moves alike by symmetry)? Its section is X's winning strategy
//!   from there (`strategy x wins after N`) or O's blocking one (`strategy o
//!   blocks x after N`).
//!
//! X wins if some part i says so (that section alone proves it); else the
//! board is a draw (every part i and part 0 together prove it), or O wins
//! if part 0 says so. A part file (`ttt-certificate-part 1`, the rules,
//! strategy sections) holds one part or, written by `--resume`, every part
//! settled so far; `ttt join` picks the sections the claim needs, writes
//! the certificate (version 4: sections after first moves) a section at a
//! time, and checks it as `ttt verify` does, a section at a time.
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use ttt_core::ai::{Census, Progress, SharedTable, Subtree};
use ttt_core::{Mark, Position, Rules, SquareFormat};

use super::certificate::{self, CountingWriter, Failure, Strategy};
use super::parallel_proof::{self, Profile};
use super::reduced::{Geometry, Key};
use super::verify::{self, Goal, Lines, FORMAT_VERSION, PART_HEADER};
use crate::common::grouped;
use crate::lines::{read_line_capped, Line};
use crate::output_file::OutputFile;

/// X's first moves up to symmetry: one per class of moves alike by a
/// symmetry of the board.
pub struct Openings {
    /// Per class: its smallest cell (row-major index), the number of cells
    /// in it, and the canonical reduced position after it.
    classes: Vec<(usize, usize, Key)>,
}

impl Openings {
    /// The classes of X's first moves on `geometry`'s board, by their
    /// smallest cell.
    pub fn of(geometry: &Geometry) -> Openings {
        let mut classes: Vec<(usize, usize, Key)> = Vec::new();
        for cell in 0..geometry.cells() {
            let key = opening_key(geometry, cell);
            match classes.iter_mut().find(|c| c.2 == key) {
                Some(c) => c.1 += 1,
                None => classes.push((cell, 1, key)),
            }
        }
        Openings { classes }
    }

    /// The number of parts: part 0 and one per class.
    pub fn parts(&self) -> usize {
        self.classes.len() + 1
    }

    /// The class (0-based) of X's first move on `cell`.
    fn class_of(&self, geometry: &Geometry, cell: usize) -> Option<usize> {
        let key = opening_key(geometry, cell);
        self.classes.iter().position(|c| c.2 == key)
    }

    /// Part `part`'s first move (row-major index) and its class's size;
    /// `None` for part 0.
    pub fn opening(&self, part: usize) -> Option<(usize, usize)> {
        let &(cell, cells, _) = self.classes.get(part.checked_sub(1)?)?;
        Some((cell, cells))
    }
}

/// The canonical reduced position after X's first move on `cell`.
fn opening_key(geometry: &Geometry, cell: usize) -> Key {
    let mut pos = Position::new(*geometry.rules());
    // A first move on the empty board is always legal.
    let _ = pos.play(geometry.square(cell));
    geometry.canonical(&geometry.reduce(&pos)).0
}

/// A cell by its coordinate (`d4`) and number (`28`).
pub fn cell_name(geometry: &Geometry, cell: usize) -> String {
    let rules = geometry.rules();
    let sq = geometry.square(cell);
    format!(
        "{} (cell {})",
        rules.display_square(sq, SquareFormat::Coord),
        cell + 1
    )
}

/// What part `part` asks, in words.
pub fn describe_part(geometry: &Geometry, openings: &Openings, part: usize) -> String {
    match openings.opening(part) {
        None => "part 0: does O win? (X's first move chosen by the proof)".to_string(),
        Some((cell, cells)) => format!(
            "part {part}: does X win after opening on {}? ({cells} first move{} alike)",
            cell_name(geometry, cell),
            if cells == 1 { "" } else { "s" }
        ),
    }
}

/// What a part's proof did, and found.
pub struct PartProof {
    /// The proof's nodes (all threads).
    pub nodes: u64,
    /// How the proof's positions were settled.
    pub census: Census,
    /// The heaviest subtrees, where a profile was asked for.
    pub profile: Vec<Subtree>,
    /// Seconds of proof.
    pub proof_seconds: f64,
    /// The answer in words, the section, the seconds it took to build.
    pub result: Result<(String, Strategy, f64), PartFailure>,
}

/// Why a part was not proved.
pub enum PartFailure {
    /// Stopped (Ctrl-C).
    Stopped,
    /// The prover could not make the section (see [`Failure`]).
    Failed(String),
}

/// Proves part `part` and builds its section, with `threads` provers over
/// `table`; `progress` hears of the proof (nodes), `walked` of the
/// section (positions walked).
#[allow(clippy::too_many_arguments)]
pub fn prove_part(
    table: SharedTable<'_>,
    threads: usize,
    geometry: &Geometry,
    openings: &Openings,
    part: usize,
    stop: &AtomicBool,
    profile: Option<Profile>,
    progress: &mut dyn FnMut(Progress),
    walked: &mut dyn FnMut(u64),
) -> PartProof {
    let rules = *geometry.rules();
    let start = Instant::now();
    let mut pos = Position::new(rules);
    let attacker = match openings.opening(part) {
        Some((cell, _)) => {
            // A first move on the empty board is always legal.
            let _ = pos.play(geometry.square(cell));
            Mark::X
        }
        None => Mark::O,
    };
    let proof = parallel_proof::wins(table, &pos, attacker, threads, stop, profile, progress);
    let mut run = PartProof {
        nodes: proof.stats.nodes,
        census: proof.census,
        profile: proof.profile,
        proof_seconds: start.elapsed().as_secs_f64(),
        result: Err(PartFailure::Stopped),
    };
    if let Some(attacker_wins) = proof.verdict {
        run.result = section(
            table,
            threads,
            geometry,
            openings,
            part,
            &pos,
            attacker_wins,
            stop,
            walked,
        );
    }
    run
}

/// Builds part `part`'s section (its question, asked of `pos`, answered
/// `attacker_wins`).
#[allow(clippy::too_many_arguments)]
fn section(
    table: SharedTable<'_>,
    threads: usize,
    geometry: &Geometry,
    openings: &Openings,
    part: usize,
    pos: &Position,
    attacker_wins: bool,
    stop: &AtomicBool,
    walked: &mut dyn FnMut(u64),
) -> Result<(String, Strategy, f64), PartFailure> {
    let start = Instant::now();
    let (after, plan, answer) = match (openings.opening(part), attacker_wins) {
        (Some((cell, _)), true) => (Some(cell), (Mark::X, certificate::Goal::Wins), "X wins"),
        (Some((cell, _)), false) => (
            Some(cell),
            (Mark::O, certificate::Goal::Blocks),
            "X does not win (O blocks)",
        ),
        (None, true) => (None, (Mark::O, certificate::Goal::Wins), "O wins"),
        (None, false) => {
            // X's first move that holds, as the proof found it.
            let mut prover = ttt_core::ai::Prover::with_table(table);
            prover.set_stop(stop);
            let Some(sq) = prover.holding_move(pos) else {
                return Err(if stop.load(Ordering::Relaxed) {
                    PartFailure::Stopped
                } else {
                    PartFailure::Failed("the prover finds no first move that holds".into())
                });
            };
            (
                Some(geometry.index(sq)),
                (Mark::X, certificate::Goal::Blocks),
                "O does not win (X blocks)",
            )
        }
    };
    let counter = AtomicU64::new(0);
    let strategy = Strategy::prove(
        table, threads, geometry, after, plan, stop, &counter, walked,
    )
    .map_err(|f| match f {
        Failure::Stopped => PartFailure::Stopped,
        Failure::Unsupported(why) | Failure::NoMove(why) => PartFailure::Failed(why),
    })?;
    let answer = match after {
        Some(cell) if part == 0 => format!("{answer} after {}", cell_name(geometry, cell)),
        _ => answer.to_string(),
    };
    Ok((answer, strategy, start.elapsed().as_secs_f64()))
}

/// The first two lines of a part file.
pub fn write_part_header(out: &mut dyn Write, rules: &Rules) -> io::Result<()> {
    writeln!(out, "{PART_HEADER}")?;
    writeln!(
        out,
        "rules {}x{} k={}",
        rules.columns(),
        rules.rows(),
        rules.k()
    )
}

/// Writes a part file holding `strategy` alone into `file` and puts it in
/// place (see [`crate::output_file`]); returns its size in bytes.
pub fn write_part_file(
    file: OutputFile,
    geometry: &Geometry,
    strategy: &Strategy,
) -> anyhow::Result<u64> {
    let mut bytes = 0;
    file.write(|out| {
        let mut out = CountingWriter::new(out);
        let written = write_part_header(&mut out, geometry.rules())
            .and_then(|()| strategy.write(geometry, &mut out));
        bytes = out.bytes;
        written
    })?;
    Ok(bytes)
}

/// Appends `strategy` to `journal` (a `--resume` part file, opened to
/// append) and waits until it is on disk; returns the bytes appended.
pub fn append_section(journal: &File, geometry: &Geometry, strategy: &Strategy) -> io::Result<u64> {
    let mut out = CountingWriter::new(BufWriter::new(journal));
    strategy.write(geometry, &mut out)?;
    out.inner.flush()?;
    let bytes = out.bytes;
    drop(out);
    journal.sync_data()?;
    Ok(bytes)
}

/// One strategy section of a part file.
#[derive(Clone, Debug)]
pub struct Section {
    /// Its head, after `strategy `.
    pub head: String,
    /// The player, the goal, X's first move it starts after.
    pub player: Mark,
    /// What the strategy achieves.
    pub goal: Goal,
    /// X's first move (row-major index) it starts after.
    pub after: Option<usize>,
    /// Byte offsets of its head line and past its `end` line.
    pub start: u64,
    /// See `start`.
    pub end: u64,
    /// Its entry lines.
    pub entries: u64,
}

/// A part file read: its board and its whole sections.
pub struct PartFile {
    /// The board.
    pub geometry: Geometry,
    /// The sections, in file order.
    pub sections: Vec<Section>,
    /// Bytes up to the end of the last whole section (or of the rules).
    pub whole: u64,
    /// Whether something follows that (a section cut off when a run was
    /// killed while appending).
    pub cut_off: bool,
}

/// A reader that counts the bytes consumed.
struct Counted<R> {
    inner: R,
    at: u64,
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.at += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.at += n as u64;
        self.inner.consume(n);
    }
}

/// Reads the part file at `path`: its header and rules, and where each
/// section starts and ends (the entries are checked by `ttt join`).
pub fn scan(path: &Path) -> Result<PartFile, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut input = Counted {
        inner: BufReader::new(file),
        at: 0,
    };
    let mut number = 0;
    let mut next =
        |input: &mut Counted<BufReader<File>>| -> Result<Option<(usize, String)>, String> {
            number += 1;
            match read_line_capped(input) {
                Ok(Line::End) => Ok(None),
                Ok(Line::Text(bytes)) => String::from_utf8(bytes)
                    .map(|t| Some((number, t.trim().to_string())))
                    .map_err(|_| format!("line {number}: not UTF-8 text (is this a part file?)")),
                Ok(Line::TooLong { .. }) => Err(format!("line {number}: the line is too long")),
                Err(e) => Err(format!("line {number}: cannot read: {e}")),
            }
        };
    match next(&mut input)? {
        Some((_, line)) if line == PART_HEADER => {}
        Some((n, line)) if line.starts_with("ttt-certificate ") => {
            return Err(format!(
                "line {n}: a whole certificate, not a part file (`ttt verify` checks it)"
            ))
        }
        _ => return Err(format!("line 1: not a part file (`{PART_HEADER}`)")),
    }
    let rules_line = match next(&mut input)? {
        Some((_, line)) => line,
        None => return Err("unexpected end of file: expected the rules".into()),
    };
    let geometry = verify::parse_rules_line(&mut Lines::new(&mut rules_line.as_bytes()))
        .map_err(|e| e.replacen("line 1", "line 2", 1))?;
    let mut sections = Vec::new();
    let mut whole = input.at;
    let mut cut_off = false;
    'sections: loop {
        let start = input.at;
        let Some((n, line)) = next(&mut input)? else {
            break;
        };
        if line.is_empty() {
            whole = input.at;
            continue;
        }
        let Some(head) = line.strip_prefix("strategy ") else {
            return Err(format!("line {n}: expected `strategy ...`"));
        };
        let (player, goal, after) = verify::parse_head(&geometry, FORMAT_VERSION, head)
            .map_err(|e| format!("line {n}: {e}"))?;
        let mut entries = 0;
        loop {
            match next(&mut input)? {
                Some((_, line)) if line == "end" => break,
                Some(_) => entries += 1,
                None => {
                    cut_off = true;
                    break 'sections;
                }
            }
        }
        sections.push(Section {
            head: head.to_string(),
            player,
            goal,
            after,
            start,
            end: input.at,
            entries,
        });
        whole = input.at;
    }
    // A last line without its line end is cut off too.
    if !cut_off && input.at > whole {
        cut_off = true;
    }
    Ok(PartFile {
        geometry,
        sections,
        whole,
        cut_off,
    })
}

/// The part a section answers: 0 for X's blocking strategy or O's winning
/// one from the empty board, else the class of its first move plus one;
/// `None` for a section proving the whole board (X wins from the empty
/// board) or answering no part.
pub fn part_of(geometry: &Geometry, openings: &Openings, s: &Section) -> Option<usize> {
    match (s.player, s.goal, s.after) {
        (Mark::X, Goal::Blocks, _) | (Mark::O, Goal::Wins, None) => Some(0),
        (Mark::X, Goal::Wins, Some(cell)) | (Mark::O, Goal::Blocks, Some(cell)) => {
            openings.class_of(geometry, cell).map(|c| c + 1)
        }
        _ => None,
    }
}

/// The claim the sections prove, and which sections (index into
/// `sections`) prove it, in the order they are written; an error names
/// the parts missing.
pub fn choose(
    geometry: &Geometry,
    openings: &Openings,
    sections: &[Section],
) -> Result<(&'static str, Vec<usize>), String> {
    if let Some(i) = sections
        .iter()
        .position(|s| s.player == Mark::X && s.goal == Goal::Wins)
    {
        return Ok(("x wins", vec![i]));
    }
    if let Some(i) = sections
        .iter()
        .position(|s| (s.player, s.goal, s.after) == (Mark::O, Goal::Wins, None))
    {
        return Ok(("o wins", vec![i]));
    }
    let mut chosen = Vec::new();
    let mut missing = Vec::new();
    if let Some(i) = sections
        .iter()
        .position(|s| (s.player, s.goal, s.after) == (Mark::O, Goal::Blocks, None))
    {
        chosen.push(i);
    } else {
        // The first section of each opening class.
        let mut firsts: HashMap<usize, usize> = HashMap::new();
        for (i, s) in sections.iter().enumerate() {
            if s.player == Mark::O && s.goal == Goal::Blocks {
                if let Some(part) = part_of(geometry, openings, s) {
                    firsts.entry(part).or_insert(i);
                }
            }
        }
        for part in 1..openings.parts() {
            match firsts.get(&part) {
                Some(&i) => chosen.push(i),
                None => missing.push(part),
            }
        }
    }
    match sections
        .iter()
        .position(|s| s.player == Mark::X && s.goal == Goal::Blocks)
    {
        Some(i) => chosen.push(i),
        None => missing.insert(0, 0),
    }
    if missing.is_empty() {
        return Ok(("draw", chosen));
    }
    let named: Vec<String> = missing
        .iter()
        .map(|&p| describe_part(geometry, openings, p))
        .collect();
    Err(format!(
        "no proof yet: {} part{} missing (no part says X wins): {}",
        missing.len(),
        if missing.len() == 1 { " is" } else { "s are" },
        named.join("; ")
    ))
}

/// What [`join`] made.
pub struct Joined {
    /// The claim.
    pub claim: &'static str,
    /// Sections written, and read (over every file).
    pub sections: usize,
    /// See `sections`.
    pub sections_read: usize,
    /// Bytes written.
    pub bytes: u64,
    /// The check's result.
    pub checked: verify::Checked,
    /// Seconds spent writing and checking (one pass: what is checked is
    /// what is written).
    pub seconds: f64,
}

/// Joins the part files `inputs` into the certificate `output` (copying the
/// sections the claim needs, a block at a time) and checks it as `ttt
/// verify` does while it is written: a certificate rejected is not put in
/// place. The error says which file or part is wrong; once `stop` is set,
/// the join gives up (an error, nothing put in place).
pub fn join(inputs: &[&Path], output: OutputFile, stop: &AtomicBool) -> anyhow::Result<Joined> {
    let start = Instant::now();
    let mut files = Vec::new();
    for &path in inputs {
        let file = scan(path).map_err(|e| output.error(&format!("{}: {e}", path.display())))?;
        if file.cut_off {
            return Err(output.error(&format!(
                "{}: its last section is cut off (a run stopped while writing it): \
                 `ttt solve --resume` on it drops it and proves that part again",
                path.display()
            )));
        }
        if let Some((first, _)) = files.first() {
            let first: &PartFile = first;
            if first.geometry.rules() != file.geometry.rules() {
                return Err(output.error(&format!(
                    "{}: a part of a proof of {}, the other files of {}",
                    path.display(),
                    file.geometry.rules(),
                    first.geometry.rules()
                )));
            }
        }
        files.push((file, path));
    }
    let Some((first, _)) = files.first() else {
        return Err(output.error(&"no part files given"));
    };
    let geometry = Geometry::new(*first.geometry.rules()).map_err(|e| output.error(&e))?;
    let openings = Openings::of(&geometry);
    // Every section with where it is.
    let mut all = Vec::new();
    let mut whose = Vec::new();
    for (f, (file, _)) in files.iter().enumerate() {
        for s in &file.sections {
            all.push(s.clone());
            whose.push(f);
        }
    }
    let (claim, chosen) = choose(&geometry, &openings, &all).map_err(|e| output.error(&e))?;
    let r = geometry.rules();
    let head = format!(
        "ttt-certificate {FORMAT_VERSION}\nrules {}x{} k={}\nclaim {claim}\n",
        r.columns(),
        r.rows(),
        r.k()
    );
    let ranges: Vec<(&Path, u64, u64)> = chosen
        .iter()
        .map(|&i| (files[whose[i]].1, all[i].start, all[i].end))
        .collect();
    let mut bytes = 0;
    let mut checked = None;
    output.write(|out| {
        let mut joining = Joining {
            head: head.as_bytes(),
            ranges: ranges.iter(),
            section: None,
            stop,
            out: CountingWriter::new(out),
            write_error: None,
        };
        let check = verify::check(&mut BufReader::with_capacity(1 << 16, &mut joining));
        bytes = joining.out.bytes;
        if let Some(e) = joining.write_error {
            return Err(e);
        }
        if stop.load(Ordering::Relaxed) {
            return Err(io::Error::other("interrupted: no file written"));
        }
        checked = Some(check.map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the joined certificate is rejected: {e}"),
            )
        })?);
        Ok(())
    })?;
    let checked =
        checked.ok_or_else(|| anyhow::anyhow!("the joined certificate was not checked"))?;
    Ok(Joined {
        claim,
        sections: chosen.len(),
        sections_read: all.len(),
        bytes,
        checked,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The joined certificate as it is read by the check: its head, then the
/// byte ranges of the sections chosen, each read from its part file; what
/// is read is written to `out` on the way.
struct Joining<'a, 'w> {
    head: &'a [u8],
    ranges: std::slice::Iter<'a, (&'a Path, u64, u64)>,
    /// The section being read: its file, what is left of its range.
    section: Option<(&'a Path, io::Take<File>)>,
    stop: &'a AtomicBool,
    out: CountingWriter<&'w mut dyn Write>,
    /// Why `out` could not be written (the read then fails).
    write_error: Option<io::Error>,
}

impl Joining<'_, '_> {
    /// The next bytes of the certificate, not yet written to `out`.
    fn next(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.head.is_empty() {
            return self.head.read(buf);
        }
        loop {
            if let Some((path, range)) = &mut self.section {
                let n = range.read(buf)?;
                if n > 0 {
                    return Ok(n);
                }
                if range.limit() > 0 {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        format!("{} changed while being joined", path.display()),
                    ));
                }
                self.section = None;
            }
            let Some(&(path, start, end)) = self.ranges.next() else {
                return Ok(0);
            };
            let mut file = File::open(path)?;
            io::Seek::seek(&mut file, io::SeekFrom::Start(start))?;
            self.section = Some((path, file.take(end - start)));
        }
    }
}

impl Read for Joining<'_, '_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(io::Error::other("interrupted"));
        }
        let n = self.next(buf)?;
        if let Err(e) = self.out.write_all(&buf[..n]) {
            self.write_error = Some(e);
            return Err(io::Error::other("the certificate cannot be written"));
        }
        Ok(n)
    }
}

/// A table of a census, for `--census`: the share of positions each test
/// settled.
pub fn census_lines(c: &Census) -> Vec<String> {
    let total =
        c.lines + c.no_lines + c.potential + c.potential_ahead + c.table + c.pairings + c.searched;
    let share = |n: u64| {
        format!(
            "{:>15} {:>5.1}%",
            grouped(n),
            100.0 * n as f64 / total.max(1) as f64
        )
    };
    vec![
        format!("  line completed or forced  {}", share(c.lines)),
        format!("  no live line              {}", share(c.no_lines)),
        format!("  Erdos-Selfridge           {}", share(c.potential)),
        format!("  Erdos-Selfridge, 1 ahead  {}", share(c.potential_ahead)),
        format!("  table                     {}", share(c.table)),
        format!("  pairing                   {}", share(c.pairings)),
        format!("  searched                  {}", share(c.searched)),
        format!(
            "  pairing sought, not found {:>15} ({} out of steps)",
            grouped(c.pairing_misses),
            grouped(c.pairing_give_ups)
        ),
        format!(
            "  pairing search steps      {:>15} found, {} none exists, {} out of steps",
            grouped(c.pairing_steps_found),
            grouped(c.pairing_steps_none),
            grouped(c.pairing_steps_given_up)
        ),
        format!("  twins taken out           {:>15}", grouped(c.twins)),
        format!(
            "  moves searched, attacker  {:>15} at {} positions",
            grouped(c.attacker_moves),
            grouped(c.searched - c.defender_searched)
        ),
        format!(
            "  moves searched, defender  {:>15} at {} positions",
            grouped(c.defender_moves),
            grouped(c.defender_searched)
        ),
        format!("  deepest ply               {:>15}", c.deepest),
    ]
}

/// A subtree of a profile as text: its nodes, its board (the attacker's
/// marks as `A`, the defender's as `d`), who is to move, how it ended.
pub fn subtree_line(geometry: &Geometry, s: &Subtree) -> String {
    let rules = geometry.rules();
    let cols = rules.columns() as usize;
    let mut board = String::new();
    for cell in 0..geometry.cells() {
        if cell > 0 && cell % cols == 0 {
            board.push('/');
        }
        board.push(if s.attacker >> cell & 1 != 0 {
            'A'
        } else if s.defender >> cell & 1 != 0 {
            'd'
        } else {
            '.'
        });
    }
    format!(
        "{:>14} nodes  {board}  {} to move: {} ({}; itself settled by {})",
        grouped(s.nodes),
        if s.attacker_to_move {
            "attacker"
        } else {
            "defender"
        },
        if !s.finished {
            "unfinished (stopped)"
        } else if s.attacker_wins {
            "attacker wins"
        } else {
            "defender holds"
        },
        if s.maker_breaker {
            "maker-breaker"
        } else {
            "real game"
        },
        s.settled_by.name()
    )
}
