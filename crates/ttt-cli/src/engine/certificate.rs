//! Proof certificates: what `ttt solve --certificate FILE` writes, and
//! `ttt verify FILE` checks (in [`super::verify`], which shares nothing with
//! this writer or the prover but the rules: `Position`, `Rules`, and the
//! reduced positions of [`super::reduced`], derived from the rules alone).
//!
//! # The file format (version 2; text, UTF-8, one item per line)
//!
//! ```text
//! ttt-certificate 2
//! rules 5x5 k=4
//! claim draw
//! strategy o blocks x
//! ...../...../..x../...../..... 0 8
//! ...
//! end
//! strategy x blocks o
//! ...../...../...../...../..... 0 13
//! ...
//! end
//! ```
//!
//! * `rules CxR k=K`: the board (at most 64 cells, k or more in a row wins).
//! * `claim`: `draw`, `x wins` or `o wins`: the value of the empty board.
//! * `strategy P blocks Q`: a strategy for player P that keeps Q from ever
//!   completing k in a row, whatever Q plays; `strategy P wins`: one that
//!   completes k in a row for P, whatever the other side plays. A draw needs
//!   `o blocks x` and `x blocks o`; a win for P needs `P wins`.
//! * Each strategy line is `BOARD SPARE MOVE`: a *reduced position* with P
//!   to move and P's reply, the 1-based row-major cell number, which must be
//!   a `.` of BOARD. BOARD is the board text as `ttt` prints it (rows top to
//!   bottom separated by `/`), with every *dead* cell shown as `#`; SPARE is
//!   the number of dead cells still empty. A position may be given in any of
//!   its rotations or reflections (the writer stores the smallest over the
//!   symmetries); the checker turns the move with it.
//! * `strategy ... after N` (version 4): the strategy from the position
//!   after X's first move on cell N (1-based, row-major) rather than from
//!   the empty board. For X's strategies one such section does (X chooses
//!   its first move); O's must come with one for every first move of X (up
//!   to symmetry), or one from the empty board. Each section is checked on
//!   its own, with its own entries, so the checker holds one section at a
//!   time. `ttt solve --part` and `--resume` write such sections (in part
//!   files, `ttt-certificate-part 1`, which hold no claim), `ttt join` puts
//!   them together.
//! * Or, in a `blocks` strategy only (version 3), `pairs T BOARD SPARE A-B
//!   C-D ...`: a *pairing* for the reduced position with T (`x` or `o`) to
//!   move: disjoint pairs of `.` cells (1-based numbers) such that every
//!   line open to Q (no P mark, no dead cell) holds both cells of a pair.
//!   From there P answers Q's move in a pair with its partner (anywhere
//!   else: anything), so no such line is ever completed.
//!
//! A *line* is a k-cell window; it is *live* while it does not hold both
//! marks. A cell on no live line is *dead*. The reduced position of a real
//! position keeps: which cells are dead, the marks on the live cells, the
//! number of empty dead cells, and the side to move.
//!
//! # What the checker does
//!
//! It plays every game the strategy allows from the empty board: at P's
//! turn the listed reply for the position's reduction (missing: rejected),
//! at the other side's turn every legal move. A position is settled when
//! the game is over (a line for Q rejects; for `wins`, a draw or a line for
//! Q rejects), when P is to move and can complete a line at once, or, for
//! `blocks`, when the Erdos-Selfridge theorem shows that P can block every
//! line from there: over the lines holding no P mark, the sum of 2^(Q's
//! marks on the line) is below 2^k with P to move, below 2^(k-1) with Q to
//! move, or when the position has a pairing entry (checked when read: the
//! pairs are disjoint `.` cells and every line open to Q holds a pair).
//! Each reduced position (up to symmetry) is checked once per section, with
//! the first real position met that has it; later positions with the same
//! reduction count as proven. A section after a first move is checked from
//! that move's position: for every first move alike by symmetry the same
//! games, mirrored.
//!
//! # Why merging by reduced position is sound
//!
//! 1. The reduction determines everything the rules look at from here on.
//!    A dead cell stays dead (its lines hold both marks forever), so no
//!    completed line, now or later, can use a dead cell: who has won is
//!    read from the live cells. A move is either onto an empty live cell
//!    (the same cells in every position with this reduction, and the
//!    resulting reduction follows from the old one and the cell: a line
//!    through a dead cell is dead, the others are shown in full) or onto
//!    one of the SPARE empty dead cells (all such moves give the same
//!    reduction: SPARE one less, the other side to move). The board is full
//!    when no live cell is empty and SPARE is 0. So the game from a position
//!    is, move for move, the game from any other position with the same
//!    reduction (up to which dead cell a spare move takes); and the
//!    symmetries of the board map games onto games.
//! 2. Hence the checker's test of the first position with a reduction
//!    (its reply, each of the other side's moves, the outcome, the immediate
//!    win, the Erdos-Selfridge sum, which reads only lines without dead
//!    cells) gives the same verdict for every position with that reduction;
//!    the reply, a `.` cell, is an empty live cell in all of them.
//! 3. Every move fills a cell, so the number of empty cells (live empties
//!    plus SPARE) falls along every game and no reduced position recurs:
//!    by induction on that number, every reduced position the checker
//!    accepts is won for P (`wins`) or safe for P (`blocks`), for every real
//!    position that has it.
//! 4. The Erdos-Selfridge leaves are a theorem of Maker-Breaker games (Q the
//!    maker): P playing its potential-minimising strategy keeps Q from every
//!    line; in the real game P's own lines can only end the game earlier.
//! 5. A pairing leaf is a strategy in itself (Hales and Jewett): every line
//!    Q could complete holds both cells of a pair, Q can take only one cell
//!    of a pair before P takes the other, so each such line gets a P mark
//!    first. Lines open to Q hold no dead cell, so the test reads only what
//!    the reduction shows, as in 2.
//!
//! The writer walks the same tree and asks the prover for P's replies (an
//! empty live cell that keeps the win or the block: to block, first one of
//! the heaviest cells after which the walk ends at once, on a pairing or the
//! Erdos-Selfridge criterion, as the prover's own probes pick the defender's
//! moves), so a certificate holds exactly the reduced positions the checker
//! will visit (one per symmetry class).
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use ttt_core::ai::{ProofTable, Prover, SharedTable, Verdict};
use ttt_core::{Mark, Position, Rules};

use super::parallel_proof::on_threads;
use super::reduced::{Geometry, Key};
use super::verify::{FORMAT_VERSION, ROOT_VERSION};
use crate::output_file::OutputFile;

/// What a strategy achieves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The other side never completes a line.
    Blocks,
    /// The player completes a line.
    Wins,
}

/// One player's strategy: canonical reduced position (P to move) to P's
/// reply (row-major cell index in that frame).
pub struct Strategy {
    /// Whose strategy it is.
    pub player: Mark,
    /// What it achieves.
    pub goal: Goal,
    /// Where it starts: after X's first move on this cell (row-major
    /// index), else from the empty board (`strategy ... after N`, version 4).
    pub after: Option<usize>,
    /// The replies.
    pub replies: HashMap<Key, u8>,
    /// Canonical reduced positions (either side to move) settled by a
    /// pairing, and its pairs (row-major cell indices in that frame, each
    /// pair and the list sorted).
    pub pairings: HashMap<Key, Vec<(u8, u8)>>,
}

/// A proof of the value of the empty board.
pub struct Certificate {
    geometry: Geometry,
    verdict: Verdict,
    strategies: Vec<Strategy>,
}

/// Why no certificate was made.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// The prover was stopped (Ctrl-C).
    Stopped,
    /// The board is outside the format (more than 64 cells, exactly-k).
    Unsupported(String),
    /// The prover found no empty live cell that keeps the strategy going
    /// (a prover bug, or a wrong verdict).
    NoMove(String),
}

impl Certificate {
    /// Builds the proof of `verdict` (the empty board's value for X) with
    /// the help of `threads` provers over `table` (the proof's, so most of
    /// their questions are answered there); gives up (`Stopped`) once
    /// `stop` is set. Calls `progress` with the number of reduced positions
    /// walked so far, several times a second.
    ///
    /// The threads walk the same strategy, each taking the other side's
    /// moves in a different order and claiming each position it walks: a
    /// position is walked, and its reply chosen, by one thread only. On one
    /// thread the certificate is the same on every run; on several, the
    /// replies the prover picks (where the heaviest cells do not hold) may
    /// differ with the table's contents.
    pub fn prove(
        table: SharedTable<'_>,
        threads: usize,
        rules: Rules,
        verdict: Verdict,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(u64),
    ) -> Result<Certificate, Failure> {
        let geometry = Geometry::new(rules).map_err(Failure::Unsupported)?;
        let plan: &[(Mark, Goal)] = match verdict {
            Verdict::Draw => &[(Mark::O, Goal::Blocks), (Mark::X, Goal::Blocks)],
            Verdict::Win => &[(Mark::X, Goal::Wins)],
            Verdict::Loss => &[(Mark::O, Goal::Wins)],
        };
        let walked = AtomicU64::new(0);
        let mut strategies = Vec::new();
        for &(player, goal) in plan {
            let strategy = Strategy::prove(
                table,
                threads,
                &geometry,
                None,
                (player, goal),
                stop,
                &walked,
                progress,
            )?;
            strategies.push(strategy);
        }
        Ok(Certificate {
            geometry,
            verdict,
            strategies,
        })
    }

    /// Number of positions listed, over all strategies.
    pub fn entries(&self) -> usize {
        self.strategies.iter().map(Strategy::entries).sum()
    }

    /// Writes the certificate into `file` (see [`crate::output_file::OutputFile`])
    /// and puts it in place; returns its size in bytes.
    pub fn write_to(&self, file: OutputFile) -> anyhow::Result<u64> {
        let mut bytes = 0;
        file.write(|out| {
            let mut out = CountingWriter::new(out);
            let written = self.write(&mut out);
            bytes = out.bytes;
            written
        })?;
        Ok(bytes)
    }

    /// Writes the certificate text (entries sorted, so the same proof
    /// always gives the same file).
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        let g = &self.geometry;
        let r = g.rules();
        let version = if self.strategies.iter().any(|s| s.after.is_some()) {
            FORMAT_VERSION
        } else {
            ROOT_VERSION
        };
        writeln!(out, "ttt-certificate {version}")?;
        writeln!(out, "rules {}x{} k={}", r.columns(), r.rows(), r.k())?;
        writeln!(
            out,
            "claim {}",
            match self.verdict {
                Verdict::Draw => "draw",
                Verdict::Win => "x wins",
                Verdict::Loss => "o wins",
            }
        )?;
        for s in &self.strategies {
            s.write(g, out)?;
        }
        Ok(())
    }
}

impl Strategy {
    /// Builds `player`'s strategy for `goal` from the empty board, or
    /// (`after`) from X's first move on that cell, with the help of
    /// `threads` provers over `table` (see [`Certificate::prove`]); adds the
    /// reduced positions it walks to `walked` and reports it to `progress`.
    #[allow(clippy::too_many_arguments)]
    pub fn prove(
        table: SharedTable<'_>,
        threads: usize,
        geometry: &Geometry,
        after: Option<usize>,
        (player, goal): (Mark, Goal),
        stop: &AtomicBool,
        walked: &AtomicU64,
        progress: &mut dyn FnMut(u64),
    ) -> Result<Strategy, Failure> {
        let threads = threads.max(1);
        let rules = *geometry.rules();
        let mut start = Position::new(rules);
        if let Some(cell) = after {
            start
                .play(geometry.square(cell))
                .map_err(|e| Failure::NoMove(e.to_string()))?;
        }
        {
            let claimed = Mutex::new(HashSet::new());
            let finished = Mutex::new(HashSet::new());
            // Set when a thread fails, so the others give up too.
            let abort = AtomicBool::new(false);
            let parts = on_threads(
                threads,
                |turn| {
                    let mut prover = Prover::with_table(table);
                    prover.set_stop(stop);
                    let mut writer = Writer {
                        prover: &mut prover,
                        geometry,
                        player,
                        goal,
                        stop,
                        abort: &abort,
                        walked,
                        claimed: &claimed,
                        finished: &finished,
                        turn,
                        threads,
                        part: Part::default(),
                    };
                    let r = writer.walk(&mut start.clone());
                    if r.is_err() {
                        abort.store(true, Ordering::Relaxed);
                    }
                    r.map(|()| writer.part)
                },
                || progress(walked.load(Ordering::Relaxed)),
            );
            // The walk's sets go before the parts are merged: at 8x8 k=5
            // each holds tens of millions of positions.
            drop((claimed, finished));
            let mut strategy = Strategy {
                player,
                goal,
                after,
                replies: HashMap::new(),
                pairings: HashMap::new(),
            };
            // A real failure before the `Stopped` of the threads it halted.
            let mut stopped = false;
            for part in parts {
                match part.unwrap_or(Err(Failure::Stopped)) {
                    Ok(part) => {
                        merge(&mut strategy.replies, part.replies);
                        merge(&mut strategy.pairings, part.pairings);
                    }
                    Err(Failure::Stopped) => stopped = true,
                    Err(failure) => return Err(failure),
                }
            }
            if stopped {
                return Err(Failure::Stopped);
            }
            Ok(strategy)
        }
    }

    /// Positions listed.
    pub fn entries(&self) -> usize {
        self.replies.len() + self.pairings.len()
    }

    /// Writes the strategy's text: its head, its replies and then its
    /// pairings, each sorted by position (so the same proof always gives
    /// the same text), `end`.
    pub fn write(&self, g: &Geometry, out: &mut impl Write) -> std::io::Result<()> {
        write!(out, "strategy ")?;
        match self.goal {
            Goal::Blocks => write!(
                out,
                "{} blocks {}",
                mark_name(self.player),
                mark_name(self.player.other())
            )?,
            Goal::Wins => write!(out, "{} wins", mark_name(self.player))?,
        }
        match self.after {
            Some(cell) => writeln!(out, " after {}", cell + 1)?,
            None => writeln!(out)?,
        }
        // Sorted by position, each line made as it is written: the text of
        // every entry at once would be several times the maps' size.
        let mut replies: Vec<(&Key, &u8)> = self.replies.iter().collect();
        replies.sort_unstable();
        for (key, &mv) in replies {
            writeln!(out, "{}", g.entry_text(key, mv as usize))?;
        }
        let mut pairings: Vec<(&Key, &Vec<(u8, u8)>)> = self.pairings.iter().collect();
        pairings.sort_unstable();
        for (key, pairs) in pairings {
            writeln!(out, "{}", g.pairing_text(key, pairs))?;
        }
        writeln!(out, "end")
    }
}

/// Moves `part` into `all`: the larger map is kept and the smaller one's
/// entries added, so one thread's walk is never copied.
fn merge<V>(all: &mut HashMap<Key, V>, mut part: HashMap<Key, V>) {
    if part.len() > all.len() {
        std::mem::swap(all, &mut part);
    }
    all.extend(part);
}

/// `x` or `o`.
pub fn mark_name(m: Mark) -> &'static str {
    match m {
        Mark::X => "x",
        Mark::O => "o",
    }
}

/// A writer that counts the bytes written through it.
pub struct CountingWriter<W> {
    /// The writer written to.
    pub inner: W,
    /// Bytes written so far.
    pub bytes: u64,
}

impl<W> CountingWriter<W> {
    /// Counts from zero.
    pub fn new(inner: W) -> CountingWriter<W> {
        CountingWriter { inner, bytes: 0 }
    }
}

impl<W: Write> Write for CountingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// How many of the heaviest cells the writer offers the prover before it
/// asks for the prover's own move.
const GREEDY_TRIES: usize = 3;

/// How many of the heaviest cells a blocking strategy's reply is probed
/// among for one that ends the walk at once (see `Writer::settled_reply`).
const PROBE_REPLIES: usize = 8;

/// Steps of each probe's pairing search.
const PROBE_STEPS: u32 = 256;

/// `set`, locked (a thread that panicked holding it left no half-made
/// change: an insert is whole or not done).
fn lock(set: &Mutex<HashSet<Key>>) -> std::sync::MutexGuard<'_, HashSet<Key>> {
    set.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What one thread's walk of a strategy found.
#[derive(Default)]
struct Part {
    replies: HashMap<Key, u8>,
    pairings: HashMap<Key, Vec<(u8, u8)>>,
}

struct Writer<'w, 'a, T: ProofTable> {
    prover: &'w mut Prover<'a, T>,
    geometry: &'w Geometry,
    player: Mark,
    goal: Goal,
    stop: &'w AtomicBool,
    /// Another thread failed.
    abort: &'w AtomicBool,
    /// Reduced positions walked, by every thread over all strategies so far.
    walked: &'w AtomicU64,
    /// Canonical reduced positions walked (or being walked) by any thread.
    /// Canonical reduced positions with P to move whose reply a thread has
    /// chosen (or is choosing): it walks what follows, the others not.
    claimed: &'w Mutex<HashSet<Key>>,
    /// Canonical reduced positions with the other side to move walked to
    /// the end. Several threads may walk one at once (each from its own
    /// place in the moves), each then going on only into what it claims.
    finished: &'w Mutex<HashSet<Key>>,
    /// This thread's number, of `threads`: where it starts in the other
    /// side's moves.
    turn: usize,
    threads: usize,
    part: Part,
}

impl<T: ProofTable> Writer<'_, '_, T> {
    /// Walks every game the strategy allows from `pos`, as the checker will,
    /// recording P's reply once per reduced position.
    fn walk(&mut self, pos: &mut Position) -> Result<(), Failure> {
        if self.stop.load(Ordering::Relaxed) || self.abort.load(Ordering::Relaxed) {
            return Err(Failure::Stopped);
        }
        if pos.outcome().is_over() {
            return Ok(());
        }
        let g = self.geometry;
        let key = g.reduce(pos);
        let p_moves = pos.side_to_move() == self.player;
        if p_moves && g.has_immediate_win(&key, self.player) {
            return Ok(());
        }
        if self.goal == Goal::Blocks && g.erdos_selfridge_blocks(&key, self.player) {
            return Ok(());
        }
        let (canon, sym) = g.canonical(&key);
        // Walked before, by this thread or another (asked before the
        // pairing search, which costs more than the lookup).
        if p_moves {
            if !lock(self.claimed).insert(canon) {
                return Ok(());
            }
            self.walked.fetch_add(1, Ordering::Relaxed);
        } else if lock(self.finished).contains(&canon) {
            return Ok(());
        }
        if self.goal == Goal::Blocks {
            if self.part.pairings.contains_key(&canon) {
                return Ok(());
            }
            // With P to move (where the prover's proofs never sought
            // one) only a near pairing is tried: the search from scratch
            // mostly fails there, and costs more than the reply it saves.
            if let Some(found) = self.prover.blocking_pairs(pos, self.player, !p_moves) {
                let mut pairs: Vec<(u8, u8)> = found
                    .pairs()
                    .iter()
                    .map(|&(p, q)| {
                        let (p, q) = (
                            g.apply(sym, g.index(p)) as u8,
                            g.apply(sym, g.index(q)) as u8,
                        );
                        (p.min(q), p.max(q))
                    })
                    .collect();
                pairs.sort_unstable();
                self.part.pairings.insert(canon, pairs);
                return Ok(());
            }
        }
        if p_moves {
            let mv = self.reply(pos, &key)?;
            let index = g.index(mv);
            self.part.replies.insert(canon, g.apply(sym, index) as u8);
            pos.play(mv).map_err(|e| Failure::NoMove(e.to_string()))?;
            let r = self.walk(pos);
            pos.undo();
            r
        } else {
            // Each thread from its own place in the moves, so the threads
            // part ways at once.
            // Moves onto dead cells all give the same reduced position:
            // the first stands for them all.
            let mut dead_seen = false;
            let moves: Vec<_> = pos
                .legal_moves()
                .into_iter()
                .filter(|&sq| {
                    let dead = key.dead >> g.index(sq) & 1 != 0;
                    let first = !(dead && dead_seen);
                    dead_seen |= dead;
                    first
                })
                .collect();
            let start = self.turn * moves.len() / self.threads;
            for &sq in moves[start..].iter().chain(&moves[..start]) {
                pos.play(sq).map_err(|e| Failure::NoMove(e.to_string()))?;
                let r = self.walk(pos);
                pos.undo();
                r?;
            }
            if lock(self.finished).insert(canon) {
                self.walked.fetch_add(1, Ordering::Relaxed);
            }
            Ok(())
        }
    }

    /// P's reply in `pos` (reduced: `key`): an empty live cell after which P
    /// still wins (`wins`) or the other side still cannot (`blocks`).
    /// Chosen for short proofs (measured: 5x5 k=4 61,159 entries with the
    /// prover's choices, 27,411 so): to block, a reply after which the walk
    /// ends at once if one of the heaviest cells is one (see
    /// [`Writer::settled_reply`]), else the first of the
    /// [`GREEDY_TRIES`] cells that block and attack most (the
    /// Erdos-Selfridge weights) that the prover confirms; to win, the
    /// prover's own choice (its proof's move: the greedy cells win slowly,
    /// 6x5 k=4 grew from 903 entries to 107,549). Else the first live cell
    /// the prover confirms, heaviest first.
    fn reply(&mut self, pos: &Position, key: &Key) -> Result<ttt_core::Square, Failure> {
        let g = self.geometry;
        let p = self.player;
        let taken = key.dead | key.x | key.o;
        let (theirs, mine) = (g.weights(key, p.other()), g.weights(key, p));
        let mut cells: Vec<(u64, usize)> = (0..g.cells())
            .filter(|&i| taken >> i & 1 == 0)
            .map(|i| (2 * theirs[i] + mine[i], i))
            .collect();
        // Highest weight first; ties row-major (deterministic).
        cells.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut child = pos.clone();
        if self.goal == Goal::Blocks {
            if let Some(sq) = self.settled_reply(&mut child, &cells)? {
                return Ok(sq);
            }
        }
        let mut tried = 0;
        let greedy = if self.goal == Goal::Blocks {
            GREEDY_TRIES
        } else {
            0
        };
        for &(_, i) in cells.iter().take(greedy) {
            tried += 1;
            let sq = g.square(i);
            if self.keeps_goal(&mut child, sq)? {
                return Ok(sq);
            }
        }
        let first = match self.goal {
            Goal::Blocks => self.prover.holding_move(pos),
            Goal::Wins => self.prover.winning_move(pos),
        };
        if let Some(sq) = first.filter(|&sq| taken >> g.index(sq) & 1 == 0) {
            return Ok(sq);
        }
        for &(_, i) in &cells[tried.min(cells.len())..] {
            let sq = g.square(i);
            if self.keeps_goal(&mut child, sq)? {
                return Ok(sq);
            }
        }
        Err(Failure::NoMove(format!(
            "the prover finds no live move for {} in {pos}",
            mark_name(p)
        )))
    }

    /// For a blocking strategy: the first of P's [`PROBE_REPLIES`]
    /// heaviest `cells` after which the checker stops at once (the
    /// Erdos-Selfridge criterion holds, or a pairing is found within
    /// [`PROBE_STEPS`] steps), as the prover's probes choose the defender's
    /// moves. Such a reply needs no proof and ends the walk there, where
    /// the heaviest cell that holds may lead to a subtree of thousands of
    /// positions. `pos` is given and returned as it was.
    fn settled_reply(
        &mut self,
        pos: &mut Position,
        cells: &[(u64, usize)],
    ) -> Result<Option<ttt_core::Square>, Failure> {
        let g = self.geometry;
        for &(_, i) in cells.iter().take(PROBE_REPLIES) {
            let sq = g.square(i);
            pos.play(sq).map_err(|e| Failure::NoMove(e.to_string()))?;
            let settled = pos.outcome().is_over()
                || g.erdos_selfridge_blocks(&g.reduce(pos), self.player)
                || self
                    .prover
                    .blocking_pairs_within(pos, self.player, PROBE_STEPS)
                    .is_some();
            pos.undo();
            if settled {
                return Ok(Some(sq));
            }
        }
        Ok(None)
    }

    /// Whether P playing `sq` in `pos` (`pos` is given and returned as it
    /// was) keeps the strategy's goal, by the prover.
    fn keeps_goal(&mut self, pos: &mut Position, sq: ttt_core::Square) -> Result<bool, Failure> {
        let p = self.player;
        pos.play(sq).map_err(|e| Failure::NoMove(e.to_string()))?;
        let good = match self.goal {
            Goal::Blocks => self.prover.wins(pos, p.other()).map(|w| !w),
            Goal::Wins => self.prover.wins(pos, p),
        };
        pos.undo();
        good.ok_or(Failure::Stopped)
    }
}
