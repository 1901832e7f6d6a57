//! The tactics suite: 15x15 freestyle positions (five or more in a row
//! wins) with a known answer, a fast and quiet measure of `strong`'s
//! tactics to screen a change before an hour-long match.
//!
//! Three kinds of position:
//!
//! * `vcf`: the side to move wins by continuous fours (VCF);
//! * `vct`: the side to move wins by fours and threes (VCT), not by fours
//!   alone;
//! * `defend`: the opponent would win by continuous fours if it moved, and
//!   the side to move has no threat win of its own: it must stop the VCF.
//!
//! Neither side has a four on the board (no move is forced). The answers
//! are every move the threat searches of `strong` prove correct
//! ([`ThreatProbe`]): for `vcf` and `vct` every move that starts a win
//! they prove (a four that keeps a VCF or VCT after its forced block, or a
//! three-threat every defence of which loses), for `defend` every move
//! after which the opponent has no VCF (a four of ours counts with its
//! forced block, as a delay before a defence that works: up to
//! [`DELAYS`](super::strong::DELAYS) of them). "Every" is over all empty
//! cells, within those searches' limits; a position where a search hit its
//! node cap ([`JUDGE_NODES`]) is not in the suite. So a win asks for a
//! threat sequence: a quiet move that wins more slowly is no answer.
//!
//! # Format
//!
//! The suite is the text file `tactics.txt` beside this file, compiled in
//! as [`SUITE`]. One position per line:
//!
//! ```text
//! KIND BOARD ANSWERS # NOTE
//! ```
//!
//! `KIND` is `vcf`, `vct` or `defend`; `BOARD` is in the board notation of
//! `ttt move` (15 rows of 15 cells from the top, `/` between rows, `x`,
//! `o` and `.`; the side to move follows from the counts); `ANSWERS` are
//! the correct moves, comma-separated, in coordinate notation (column
//! letter, row number from the top: `h8` is the centre); the note after
//! `#` says where the position comes from. Blank lines and lines starting
//! with `#` are comments. `ttt tactics generate` writes the file from
//! game records (docs/benchmarks.md).
use super::stats::SearchStats;
use super::strong::{Budget, Engine, Threat, ThreatProbe};
use super::tt::{self, TtEntry};
use crate::{Mark, Position, Square, SquareFormat, SquareSet};

/// The suite as compiled in.
pub const SUITE: &str = include_str!("tactics.txt");

/// The node cap of each threat search that judges a position: the
/// generator keeps only positions decided within it, and [`check`] allows
/// four times as much.
pub const JUDGE_NODES: u64 = 200_000;

/// `strong`'s node budget per position in `ttt bench` and in the floor
/// test (its default per move is 60,000).
pub const BENCH_NODES: u64 = 20_000;

/// What a position of the suite asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The side to move wins by continuous fours.
    Vcf,
    /// The side to move wins by fours and threes, not by fours alone.
    Vct,
    /// The side to move must stop the opponent's continuous fours.
    Defend,
}

impl Kind {
    /// Every kind, in file order.
    pub const ALL: [Kind; 3] = [Kind::Vcf, Kind::Vct, Kind::Defend];

    /// The name in the file.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Vcf => "vcf",
            Kind::Vct => "vct",
            Kind::Defend => "defend",
        }
    }
}

/// One position of the suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// What it asks for.
    pub kind: Kind,
    /// The position; the side to move is to find an answer.
    pub pos: Position,
    /// Every correct move.
    pub answers: SquareSet,
}

impl Puzzle {
    /// Writes the puzzle as a line of the file (without a note).
    pub fn write(&self, out: &mut impl core::fmt::Write) -> core::fmt::Result {
        write!(out, "{} {} ", self.kind.name(), self.pos)?;
        for (i, sq) in self.answers.into_iter().enumerate() {
            if i > 0 {
                out.write_char(',')?;
            }
            write!(
                out,
                "{}",
                self.pos.rules().display_square(sq, SquareFormat::Coord)
            )?;
        }
        Ok(())
    }
}

/// Reads one line of the file: `Ok(None)` for a blank or comment line.
pub fn parse_line(line: &str) -> Result<Option<Puzzle>, &'static str> {
    let line = line.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(None);
    }
    let mut fields = line.split_whitespace();
    let (Some(kind), Some(board), Some(answers), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("expected KIND BOARD ANSWERS");
    };
    let kind = Kind::ALL
        .into_iter()
        .find(|k| k.name() == kind)
        .ok_or("unknown kind (vcf, vct, defend)")?;
    let pos = Position::from_board(board, Some(5)).map_err(|_| "bad board")?;
    if pos.outcome().is_over() {
        return Err("the game is over");
    }
    let mut set = SquareSet::EMPTY;
    for text in answers.split(',') {
        let sq = pos.rules().parse_square(text).map_err(|_| "bad answer")?;
        if !pos.is_legal(sq) {
            return Err("an answer is no legal move");
        }
        set.insert(sq);
    }
    Ok(Some(Puzzle {
        kind,
        pos,
        answers: set,
    }))
}

/// The puzzles of `text` with their 1-based line numbers, comments
/// skipped.
pub fn puzzles(text: &str) -> impl Iterator<Item = (usize, Result<Puzzle, &'static str>)> + '_ {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| parse_line(line).transpose().map(|p| (i + 1, p)))
}

/// Why a position is not a puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reject {
    /// The game is over, or the rules are not freestyle with k >= 4.
    NotApplicable,
    /// A side has a four on the board: the next move is forced.
    Forced,
    /// Neither side has a threat win.
    Quiet,
    /// A search hit its node cap.
    Unknown,
    /// A `defend` position where no move stops the VCF.
    Lost,
    /// A win was proven but no first move (the searches disagree).
    Inconsistent,
}

/// The kind of `pos` as the threat searches see it (the side to move's
/// VCF, its VCT, the opponent's VCF, in that order), checked the same way
/// by [`examine`] and [`check`].
fn classify(probe: &mut ThreatProbe, me: Mark) -> Result<Kind, Reject> {
    if probe.winning_cells(me) > 0 || probe.winning_cells(me.other()) > 0 {
        return Err(Reject::Forced);
    }
    match probe.vcf(me) {
        Threat::Proven => return Ok(Kind::Vcf),
        Threat::Unknown => return Err(Reject::Unknown),
        Threat::NotFound => {}
    }
    match probe.vct(me) {
        Threat::Proven => return Ok(Kind::Vct),
        Threat::Unknown => return Err(Reject::Unknown),
        Threat::NotFound => {}
    }
    match probe.vcf(me.other()) {
        Threat::Proven => Ok(Kind::Defend),
        Threat::Unknown => Err(Reject::Unknown),
        Threat::NotFound => Err(Reject::Quiet),
    }
}

/// The kind of puzzle `pos` makes, each threat search stopped after
/// `max_nodes` nodes, and the nodes the searches took (a measure of how
/// hard the threat is to see): the first step of [`examine`], cheap
/// enough to scan every position of many games.
pub fn kind_of(pos: &Position, max_nodes: u64) -> Result<(Kind, u64), Reject> {
    let mut probe = ThreatProbe::new(pos, max_nodes).ok_or(Reject::NotApplicable)?;
    let kind = classify(&mut probe, pos.side_to_move())?;
    Ok((kind, probe.nodes()))
}

/// Whether `sq` answers `pos` as a puzzle of `kind` (each threat search
/// stopped after `max_nodes` nodes): how the generator tells the positions
/// where a game's move missed the answer.
pub fn answers(pos: &Position, kind: Kind, sq: Square, max_nodes: u64) -> Threat {
    match ThreatProbe::new(pos, max_nodes) {
        Some(mut probe) if pos.is_legal(sq) => judge(&mut probe, kind, sq),
        _ => Threat::NotFound,
    }
}

/// Whether `sq` answers a position of `kind`.
fn judge(probe: &mut ThreatProbe, kind: Kind, sq: Square) -> Threat {
    match kind {
        Kind::Vcf | Kind::Vct => probe.wins_with(sq),
        Kind::Defend => probe.saves_with(sq),
    }
}

/// The puzzle `pos` makes, with every correct move, each threat search
/// stopped after `max_nodes` nodes (the generator's judge: use
/// [`JUDGE_NODES`]).
pub fn examine(pos: &Position, max_nodes: u64) -> Result<Puzzle, Reject> {
    let mut probe = ThreatProbe::new(pos, max_nodes).ok_or(Reject::NotApplicable)?;
    let kind = classify(&mut probe, pos.side_to_move())?;
    let mut answers = SquareSet::EMPTY;
    for sq in pos.legal_moves() {
        match judge(&mut probe, kind, sq) {
            Threat::Proven => answers.insert(sq),
            Threat::Unknown => return Err(Reject::Unknown),
            Threat::NotFound => {}
        }
    }
    if answers.is_empty() {
        return Err(match kind {
            Kind::Defend => Reject::Lost,
            _ => Reject::Inconsistent,
        });
    }
    Ok(Puzzle {
        kind,
        pos: pos.clone(),
        answers,
    })
}

/// Checks a puzzle with the threat searches ([`JUDGE_NODES`] times four
/// per search): the threat that makes it a puzzle is there (`vcf`: the
/// side to move's VCF; `vct`: no VCF, and its VCT is proven by the
/// answers; `defend`: the opponent's VCF, and none of the side to move's),
/// neither side has a four, and every stored answer is proven correct. What [`examine`] found
/// beyond that when the suite was made (that no other move is correct; in
/// `defend`, that the side to move has no VCT either) is not checked again
/// here: `ttt tactics check --full` does.
pub fn check(puzzle: &Puzzle) -> Result<(), &'static str> {
    let mut probe =
        ThreatProbe::new(&puzzle.pos, 4 * JUDGE_NODES).ok_or("threat search does not apply")?;
    let me = puzzle.pos.side_to_move();
    if probe.winning_cells(me) > 0 || probe.winning_cells(me.other()) > 0 {
        return Err("a side has a four");
    }
    let holds = match puzzle.kind {
        Kind::Vcf => probe.vcf(me) == Threat::Proven,
        // (A proven answer is a proven VCT.)
        Kind::Vct => probe.vcf(me) == Threat::NotFound,
        Kind::Defend => {
            probe.vcf(me) == Threat::NotFound && probe.vcf(me.other()) == Threat::Proven
        }
    };
    if !holds {
        return Err("the position is not of its kind");
    }
    if puzzle.answers.is_empty() {
        return Err("no answer");
    }
    for sq in puzzle.answers {
        if judge(&mut probe, puzzle.kind, sq) != Threat::Proven {
            return Err("an answer is not proven correct");
        }
    }
    Ok(())
}

/// The engine's move on one puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The move `strong` chose (`None`: it had none).
    pub choice: Option<Square>,
    /// Whether it is one of the answers.
    pub solved: bool,
    /// The search's counters.
    pub stats: SearchStats,
}

/// Entries of the table each puzzle is searched with (cleared first), so
/// the result does not depend on the size of the table lent.
pub const TABLE_ENTRIES: usize = 1 << 16;

/// `strong`'s move on `puzzle` with a budget of `max_nodes` nodes and
/// seed 0, searching with the first [`TABLE_ENTRIES`] of `tt` (cleared
/// first; fewer if `tt` is shorter): the same answer on every run.
pub fn attempt(puzzle: &Puzzle, max_nodes: u64, tt: &mut [TtEntry]) -> Attempt {
    let len = tt.len().min(TABLE_ENTRIES);
    let table = &mut tt[..len];
    tt::clear(table);
    let mut engine = Engine::with_table(Budget::nodes(max_nodes), 0, table);
    let choice = engine.best_move(&puzzle.pos);
    Attempt {
        choice,
        solved: choice.is_some_and(|sq| puzzle.answers.contains(sq)),
        stats: engine.stats(),
    }
}
