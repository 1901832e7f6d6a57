//! Proof certificates: what `ttt solve --certificate FILE` writes, and
//! `ttt verify FILE` checks (in [`super::verify`], which shares nothing with
//! this writer or the prover but the rules: `Position`, `Rules`).
//!
//! # The file format (text, UTF-8, one item per line)
//!
//! ```text
//! ttt-certificate 1
//! rules 6x5 k=4
//! claim draw
//! strategy o blocks x
//! x.........../............ 14
//! ...
//! end
//! strategy x blocks o
//! ........ 15
//! ...
//! end
//! ```
//!
//! * `rules CxR k=K`: the board.
//! * `claim`: `draw`, `x wins` or `o wins`: the value of the empty board.
//! * `strategy P blocks Q`: a strategy for player P that keeps Q from ever
//!   completing k in a row, whatever Q plays; `strategy P wins`: one that
//!   completes k in a row for P, whatever the other side plays. A draw needs
//!   `o blocks x` and `x blocks o`; a win for P needs `P wins`.
//! * Each strategy line is `BOARD MOVE`: a position with P to move (board
//!   text as `ttt` prints it, rows top to bottom separated by `/`) and P's
//!   reply, the 1-based row-major cell number. A position may be given in
//!   any of its rotations or reflections: the checker finds the entry for a
//!   position through the board's symmetries and turns the move with it.
//!   The writer stores the smallest board text over the symmetries.
//!
//! The checker plays every game the strategy allows from the empty board:
//! at P's turn the listed reply (missing or illegal: rejected), at the
//! other side's turn every legal move. For `blocks`, a game is settled when
//! it ends without a line for Q, or when the Erdos-Selfridge theorem shows
//! that P can block every line from there: over the lines holding no P mark,
//! the sum of 2^(Q's marks on the line) is below 2^k with P to move, below
//! 2^(k-1) with Q to move (in particular when every line holds a P mark);
//! for `wins`, when P completes a line. Anything else rejects the
//! certificate. (With k = 1 a cell counts once per direction: an overcount,
//! which only makes the test stricter.)
//!
//! The writer walks the same tree and asks the prover for P's replies, so a
//! certificate holds exactly the positions the checker will visit (one per
//! symmetry class).
use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use ttt_core::ai::{Prover, Verdict};
use ttt_core::{Direction, Mark, Position, Rules, Square};

/// What a strategy achieves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The other side never completes a line.
    Blocks,
    /// The player completes a line.
    Wins,
}

/// One player's strategy: position (canonical board text, P to move) to
/// P's reply (1-based row-major cell number).
pub struct Strategy {
    /// Whose strategy it is.
    pub player: Mark,
    /// What it achieves.
    pub goal: Goal,
    /// The replies.
    pub replies: BTreeMap<String, u16>,
}

/// A proof of the value of the empty board.
pub struct Certificate {
    rules: Rules,
    verdict: Verdict,
    strategies: Vec<Strategy>,
}

impl Certificate {
    /// Builds the proof of `verdict` (the empty board's value for X) with
    /// the prover's help; `None` if the prover was stopped or (which would be
    /// a prover bug) it finds no move to continue a strategy.
    pub fn prove(prover: &mut Prover, rules: Rules, verdict: Verdict) -> Option<Certificate> {
        let plan: &[(Mark, Goal)] = match verdict {
            Verdict::Draw => &[(Mark::O, Goal::Blocks), (Mark::X, Goal::Blocks)],
            Verdict::Win => &[(Mark::X, Goal::Wins)],
            Verdict::Loss => &[(Mark::O, Goal::Wins)],
        };
        let mut strategies = Vec::new();
        for &(player, goal) in plan {
            let mut writer = Writer {
                prover: &mut *prover,
                player,
                goal,
                seen: HashSet::new(),
                replies: BTreeMap::new(),
            };
            writer.walk(&mut Position::new(rules))?;
            strategies.push(Strategy {
                player,
                goal,
                replies: writer.replies,
            });
        }
        Some(Certificate {
            rules,
            verdict,
            strategies,
        })
    }

    /// Number of positions listed, over all strategies.
    pub fn entries(&self) -> usize {
        self.strategies.iter().map(|s| s.replies.len()).sum()
    }

    /// Writes the file; returns its size in bytes.
    pub fn write_to(&self, path: &Path) -> anyhow::Result<u64> {
        let file = File::create(path)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", path.display()))?;
        let mut out = CountingWriter {
            inner: BufWriter::new(file),
            bytes: 0,
        };
        self.write(&mut out)?;
        out.inner.flush()?;
        Ok(out.bytes)
    }

    /// Writes the certificate text.
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        let r = &self.rules;
        writeln!(out, "ttt-certificate 1")?;
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
            match s.goal {
                Goal::Blocks => writeln!(
                    out,
                    "strategy {} blocks {}",
                    mark_name(s.player),
                    mark_name(s.player.other())
                )?,
                Goal::Wins => writeln!(out, "strategy {} wins", mark_name(s.player))?,
            }
            for (board, mv) in &s.replies {
                writeln!(out, "{board} {mv}")?;
            }
            writeln!(out, "end")?;
        }
        Ok(())
    }
}

/// `x` or `o`.
pub fn mark_name(m: Mark) -> &'static str {
    match m {
        Mark::X => "x",
        Mark::O => "o",
    }
}

struct CountingWriter<W> {
    inner: W,
    bytes: u64,
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

struct Writer<'p, 'a> {
    prover: &'p mut Prover<'a>,
    player: Mark,
    goal: Goal,
    /// Canonical boards already walked.
    seen: HashSet<String>,
    replies: BTreeMap<String, u16>,
}

impl Writer<'_, '_> {
    fn walk(&mut self, pos: &mut Position) -> Option<()> {
        if pos.outcome().is_over() {
            return Some(());
        }
        if self.goal == Goal::Blocks && blocked_for_sure(pos, self.player) {
            return Some(());
        }
        let (board, sym) = canonical(pos);
        if !self.seen.insert(board.clone()) {
            return Some(());
        }
        if pos.side_to_move() == self.player {
            let mv = match self.goal {
                Goal::Blocks => self.prover.holding_move(pos)?,
                Goal::Wins => self.prover.winning_move(pos)?,
            };
            let in_frame = sym.apply(mv, pos.rules());
            self.replies.insert(board, pos.rules().number_of(in_frame));
            pos.play(mv).ok()?;
            let r = self.walk(pos);
            pos.undo();
            r
        } else {
            for sq in pos.legal_moves() {
                pos.play(sq).ok()?;
                let r = self.walk(pos);
                pos.undo();
                r?;
            }
            Some(())
        }
    }
}

/// The smallest board text of `pos` over the board's symmetries, and the
/// symmetry that gives it.
fn canonical(pos: &Position) -> (String, ttt_core::Symmetry) {
    let mut best: Option<(String, ttt_core::Symmetry)> = None;
    for &sym in ttt_core::Symmetry::of(pos.rules()) {
        let text = pos.transformed(sym).to_string();
        if best.as_ref().is_none_or(|(b, _)| text < *b) {
            best = Some((text, sym));
        }
    }
    best.unwrap_or_else(|| (pos.to_string(), ttt_core::Symmetry::Identity))
}

/// Whether `p` keeps the other side from ever completing a line by the
/// Erdos-Selfridge theorem (the checker's leaf test, see the module docs).
fn blocked_for_sure(pos: &Position, p: Mark) -> bool {
    let rules = pos.rules();
    let k = rules.k() as i8;
    let q = p.other();
    let mut potential = 0u64;
    for start in rules.squares() {
        for &d in &Direction::ALL {
            let cells: Option<Vec<Square>> = (0..k)
                .map(|i| start.step(d, i).filter(|&s| rules.contains(s)))
                .collect();
            let Some(cells) = cells else { continue };
            if cells.iter().any(|&s| pos.get(s) == Some(p)) {
                continue;
            }
            let mine = cells.iter().filter(|&&s| pos.get(s) == Some(q)).count();
            potential += 1 << mine;
        }
    }
    let q_moves = pos.side_to_move() == q;
    potential << (q_moves as u32) < 1u64 << k
}
