//! `perfect`: the exact solver.
//!
//! Negamax alpha-beta over a bitboard (one `u64` per side, boards of up to
//! 64 cells; bigger boards fall back to the [plain search](super::baseline)),
//! with:
//!
//! * every k-cell line window precomputed as a mask; at each node one pass
//!   over the windows finds both sides' winning cells, whether each side can
//!   still make a line at all, and the cells that would make a threat;
//! * immediate-win shortcut (win in 1), forced block (the opponent's only
//!   winning cell is the only move), double threat (two opponent winning
//!   cells: lost in 2), dead board (no line possible for either side: draw)
//!   and bound tightening (a side with no possible line cannot win);
//! * a transposition table (the caller's slice of [`TtEntry`]) keyed by the
//!   canonical Zobrist hash of [`Position`] (the minimum over the board's
//!   symmetries), storing bounds and the best move in the canonical frame;
//! * move ordering: TT move, then cells that make a threat, then cells that
//!   stop one, then history heuristic, then centre-out (cells on more lines
//!   first);
//! * two passes: first win/draw/loss only (a much smaller search), and only
//!   if the position is won or lost, the exact distance (fastest win, slowest
//!   loss) with a window on the known side.
//!
//! A search can be stopped from outside as `strong`'s is: a callback (the
//! caller's clock, or a stop flag) asked every 1,024 nodes, see
//! [`Solver::set_deadline`]. A stopped search stores nothing it has not
//! finished, so the table stays sound for the next one.
use super::baseline::{self, from_tt, to_tt, to_value, WIN};
use super::book::Book;
use super::geometry::Geo;
use super::progress::Progress;
use super::prover::{Prover, Verdict};
use super::stats::SearchStats;
use super::tt::{self, TtEntry, DIST, EXACT, LOWER, NO_MOVE, UPPER};
use super::value::Value;
use crate::rng::Rng;
use crate::symmetry::Symmetry;
use crate::{zobrist, Mark, Outcome, Position, Square};

/// Boards of more cells than this (up to 64) get their win/draw/loss from
/// the [`Prover`] first; smaller ones are searched here alone, as before
/// (the console's boards, whose node counts and moves stay unchanged).
pub const PROVER_ABOVE: usize = 25;

/// How often (in nodes) progress is reported between root moves.
const PROGRESS_INTERVAL: u64 = 1 << 20;

/// The deadline callback is asked when the node count is a multiple of
/// this (plus one), as `strong`'s is.
const DEADLINE_INTERVAL: u64 = 1 << 10;

/// The exact solver. The transposition table is lent by the caller and kept
/// between calls (clear it with [`Solver::clear`] when switching boards is
/// not needed: entries are keyed by position).
pub struct Solver<'a> {
    tt: &'a mut [TtEntry],
    progress: Option<&'a mut dyn FnMut(Progress)>,
    stats: SearchStats,
    /// The geometry of the last board solved (rebuilt when the rules change).
    geo: Option<Geo>,
    /// Consulted by [`Solver::best_move`] before searching.
    book: Option<&'a Book>,
    /// Asked now and then; `true` stops the search (see [`Solver::set_deadline`]).
    deadline: Option<&'a dyn Fn() -> bool>,
    /// The last search was stopped by `deadline`.
    stopped: bool,
}

impl<'a> Solver<'a> {
    /// A solver using `tt` as its transposition table (any length; empty
    /// works, slowly). Entries from earlier searches are reused.
    pub fn new(tt: &'a mut [TtEntry]) -> Solver<'a> {
        Solver {
            tt,
            progress: None,
            stats: SearchStats::default(),
            geo: None,
            book: None,
            deadline: None,
            stopped: false,
        }
    }

    /// Lets [`best_move`](Solver::best_move) answer from `book` (an
    /// [opening book](super::book)) for the positions it holds, instead of
    /// searching; the move is the same either way.
    pub fn set_book(&mut self, book: &'a Book) {
        self.book = Some(book);
    }

    /// Calls `f` as the search advances (after each root move, and every
    /// million nodes or so).
    pub fn set_progress(&mut self, f: &'a mut dyn FnMut(Progress)) {
        self.progress = Some(f);
    }

    /// Stops every search once `f` returns `true` (it is asked every 1,024
    /// nodes or so, and by the prover on big boards every 16,384): a
    /// deadline measured by the caller's clock, or a stop flag, as
    /// [`Budget::deadline_check`](super::Budget::deadline_check) is for
    /// `strong`. A stopped search has no answer: [`best_move`](Solver::best_move)
    /// and [`try_solve`](Solver::try_solve) give `None`, and
    /// [`stopped`](Solver::stopped) says why. Without a deadline nothing
    /// changes: the same nodes are searched, the same moves found.
    pub fn set_deadline(&mut self, f: &'a dyn Fn() -> bool) {
        self.deadline = Some(f);
    }

    /// Whether the last search was stopped by the [deadline](Solver::set_deadline)
    /// before it had an answer.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Empties the transposition table.
    pub fn clear(&mut self) {
        tt::clear(self.tt);
    }

    /// Counters accumulated since the solver was made.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The exact value of `pos` for the side to move. A finished game is
    /// `Loss(0)` (the side to move has lost) or `Draw`. For a solver with
    /// a [deadline](Solver::set_deadline), see [`try_solve`](Solver::try_solve):
    /// a stopped search's value here means nothing.
    pub fn solve(&mut self, pos: &Position) -> Value {
        self.stopped = false;
        self.run(pos, true).1
    }

    /// [`solve`](Solver::solve), or `None` when the
    /// [deadline](Solver::set_deadline) stopped the search first.
    pub fn try_solve(&mut self, pos: &Position) -> Option<Value> {
        let value = self.solve(pos);
        (!self.stopped).then_some(value)
    }

    /// Asks the deadline; once it has said stop, the solver stays stopped
    /// until the next public call.
    fn poll_deadline(&mut self) -> bool {
        if !self.stopped && self.deadline.is_some_and(|f| f()) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Win (1), draw (0) or loss (-1) for the side to move, and with `exact`
    /// the exact value (else a value of the right kind: `Win(0)`/`Loss(0)`).
    /// Stopped (see [`Solver::stopped`]): `(0, Draw)`, meaning nothing.
    fn run(&mut self, pos: &Position, exact: bool) -> (i16, Value) {
        if self.poll_deadline() {
            return (0, Value::Draw);
        }
        match pos.outcome() {
            Outcome::Win(_) => return (-1, Value::Loss(0)),
            Outcome::Draw => return (0, Value::Draw),
            Outcome::InProgress => {}
        }
        if pos.rules().cell_count() > PROVER_ABOVE && Prover::fits(pos.rules()) {
            // The prover settles win/draw/loss far faster on big boards;
            // only a won or lost position still needs the distance search.
            let verdict = {
                let mut prover = Prover::new(&mut *self.tt);
                if let Some(f) = self.deadline {
                    prover.set_deadline(f);
                }
                let v = prover.verdict(pos);
                let st = prover.stats();
                self.stats.nodes += st.nodes;
                self.stats.tt_hits += st.tt_hits;
                self.stopped |= prover.stopped();
                v
            };
            match (verdict, exact) {
                _ if self.stopped => return (0, Value::Draw),
                (Some(Verdict::Draw), _) => return (0, Value::Draw),
                (Some(Verdict::Win), false) => return (1, Value::Win(0)),
                (Some(Verdict::Loss), false) => return (-1, Value::Loss(0)),
                _ => {}
            }
        }
        // The bitboard search knows only "k or more": boards where an
        // overline can happen and does not win go to the plain search.
        if pos.rules().cell_count() > 64 || pos.rules().excludes_overlines() {
            let Some(v) = baseline::solve_until(pos, self.tt, &mut self.stats, self.deadline)
            else {
                self.stopped = true;
                return (0, Value::Draw);
            };
            let w = match v {
                Value::Win(_) => 1,
                Value::Draw => 0,
                Value::Loss(_) => -1,
            };
            return (w, v);
        }
        if self.geo.as_ref().is_none_or(|g| g.rules != *pos.rules()) {
            self.geo = Some(Geo::new(pos.rules()));
        }
        let Some(geo) = self.geo.as_ref() else {
            return (0, Value::Draw);
        };
        let (me, opp, hashes) = geo.load(pos);
        let stm = pos.side_to_move();
        let mut s = Search {
            geo,
            tt: self.tt,
            progress: self.progress.as_deref_mut(),
            stats: &mut self.stats,
            history: [0; 64],
            next_report: PROGRESS_INTERVAL,
            done: 0,
            total: 0,
            deadline: self.deadline,
            stopped: false,
        };
        let wld = s.search::<false>(me, opp, stm, &hashes, 0, -1, 1);
        let value = match (wld, exact) {
            _ if s.stopped => Value::Draw,
            (0, _) => Value::Draw,
            (1, false) => Value::Win(0),
            (_, false) => Value::Loss(0),
            (1, true) => to_value(s.search::<true>(me, opp, stm, &hashes, 0, 0, WIN)),
            (_, true) => to_value(s.search::<true>(me, opp, stm, &hashes, 0, -WIN, 0)),
        };
        s.report();
        if s.stopped {
            self.stopped = true;
            return (0, Value::Draw);
        }
        (wld, value)
    }

    /// The value of every legal move of `pos` (for the side to move), best
    /// first, ties in row-major order. Writes at most `out.len()` pairs and
    /// returns how many it wrote. Stopped by the
    /// [deadline](Solver::set_deadline): 0.
    pub fn analyze(&mut self, pos: &Position, out: &mut [(Square, Value)]) -> usize {
        let mut n = 0;
        let mut child = pos.clone();
        for sq in pos.legal_moves() {
            if n == out.len() {
                break;
            }
            if child.play(sq).is_err() {
                continue;
            }
            let v = self.solve(&child).parent();
            child.undo();
            if self.stopped {
                return 0;
            }
            out[n] = (sq, v);
            n += 1;
        }
        // Stable insertion sort, best first (n <= 256, no allocation).
        for i in 1..n {
            let mut j = i;
            while j > 0 && out[j - 1].1 < out[j].1 {
                out.swap(j - 1, j);
                j -= 1;
            }
        }
        n
    }

    /// A best move and its value: the fastest win, else a draw, else the
    /// slowest loss; among equally good moves the seed picks one (uniformly:
    /// the moves are tried in an order shuffled by the seed, and the first
    /// one as good as the position's value is played). `None` when the game
    /// is over.
    ///
    /// On boards of more than [`PROVER_ABOVE`] cells the moves come from the
    /// [`Prover`]'s yes/no answers: a win in one, else a move keeping a
    /// forced win (`Win(0)`: distance not computed), else one keeping the
    /// draw, else (lost) a block or any move (`Loss(0)`).
    ///
    /// With a [book](Solver::set_book) holding the position, nothing is
    /// searched: the first move of the same shuffled order that the book
    /// lists as optimal is played (the move the search would have found).
    ///
    /// Cheaper than [`analyze`](Solver::analyze): the root is solved once,
    /// and the moves are only checked win/draw/loss first, so a drawn
    /// position never needs distances.
    ///
    /// `None` also when the [deadline](Solver::set_deadline) stopped the
    /// search ([`stopped`](Solver::stopped) says so): the caller plays the
    /// best move it has by other means.
    pub fn best_move(&mut self, pos: &Position, seed: u64) -> Option<(Square, Value)> {
        self.stopped = false;
        let mut order = [Square::from_index(0); crate::MAX_CELLS];
        let mut n = 0;
        for sq in pos.legal_moves() {
            order[n] = sq;
            n += 1;
        }
        if n == 0 {
            return None;
        }
        let mut rng = Rng::new(seed);
        for i in (1..n).rev() {
            let j = rng.below(i as u32 + 1) as usize;
            order.swap(i, j);
        }
        if let Some((root, set)) = self.book.and_then(|b| b.probe(pos)) {
            // The search below would play the first move of `order` that
            // keeps the root's value: the book lists exactly those moves.
            if let Some(&sq) = order[..n].iter().find(|&&sq| set.contains(sq)) {
                return Some((sq, root));
            }
        }
        // Boards past the old reach: the prover's yes/no questions only, no
        // distances.
        if pos.rules().cell_count() > PROVER_ABOVE && Prover::fits(pos.rules()) {
            let found = self.prover_move(pos, &order[..n]);
            if found.is_some() || self.stopped {
                return found.filter(|_| !self.stopped);
            }
        }
        let (root_wld, root) = self.run(pos, true);
        let mut child = pos.clone();
        for &sq in &order[..n] {
            if self.stopped {
                return None;
            }
            if child.play(sq).is_err() {
                continue;
            }
            let (w, _) = self.run(&child, false);
            let found = if self.stopped || -w != root_wld {
                None
            } else if root_wld == 0 {
                Some(Value::Draw)
            } else {
                let v = self.run(&child, true).1.parent();
                (v == root).then_some(v)
            };
            child.undo();
            if let Some(v) = found.filter(|_| !self.stopped) {
                return Some((sq, v));
            }
        }
        if self.stopped {
            return None;
        }
        // Unreachable with a consistent table; fall back to the full list.
        let mut buf = [(Square::from_index(0), Value::Draw); crate::MAX_CELLS];
        let n = self.analyze(pos, &mut buf);
        (n > 0).then(|| buf[0])
    }
}

impl Solver<'_> {
    /// [`Solver::best_move`] on a board past [`PROVER_ABOVE`] cells: a win
    /// in one if there is one; else, when the side to move can force a win,
    /// the first move of `order` that keeps the forced win (`Win(0)`: the
    /// distance is not computed, and the win is not always the fastest);
    /// else the first one after which the opponent cannot force a win
    /// (`Draw`); else, lost, a block of an immediate threat or the first
    /// move (`Loss(0)`). `None` only if stopped or without moves.
    fn prover_move(&mut self, pos: &Position, order: &[Square]) -> Option<(Square, Value)> {
        let me = pos.side_to_move();
        if let Some(&sq) = order.iter().find(|&&sq| pos.completes_line(sq, me)) {
            return Some((sq, Value::Win(1)));
        }
        let mut prover = Prover::new(&mut *self.tt);
        if let Some(f) = self.deadline {
            prover.set_deadline(f);
        }
        let mut child = pos.clone();
        let mut pick = |want_win: bool, prover: &mut Prover| {
            order.iter().copied().find(|&sq| {
                if child.play(sq).is_err() {
                    return false;
                }
                let ok = if want_win {
                    prover.wins(&child, me) == Some(true)
                } else {
                    prover.wins(&child, me.other()) == Some(false)
                };
                child.undo();
                ok
            })
        };
        let result = match prover.wins(pos, me) {
            // Stopped.
            None => None,
            Some(true) => pick(true, &mut prover).map(|sq| (sq, Value::Win(0))),
            Some(false) => match pick(false, &mut prover) {
                Some(sq) => Some((sq, Value::Draw)),
                None => {
                    let block = order
                        .iter()
                        .copied()
                        .find(|&sq| pos.completes_line(sq, me.other()));
                    block
                        .or(order.first().copied())
                        .map(|sq| (sq, Value::Loss(0)))
                }
            },
        };
        let st = prover.stats();
        self.stats.nodes += st.nodes;
        self.stats.tt_hits += st.tt_hits;
        self.stopped = prover.stopped();
        result.filter(|_| !self.stopped)
    }
}

struct Search<'s, 'p> {
    geo: &'s Geo,
    tt: &'s mut [TtEntry],
    progress: Option<&'s mut (dyn FnMut(Progress) + 'p)>,
    stats: &'s mut SearchStats,
    history: [u32; 64],
    next_report: u64,
    done: u32,
    total: u32,
    deadline: Option<&'s dyn Fn() -> bool>,
    /// Set when `deadline` said stop: every node returns at once, storing
    /// nothing (its value would be wrong).
    stopped: bool,
}

impl Search<'_, '_> {
    fn report(&mut self) {
        let p = Progress {
            done: self.done,
            total: self.total,
            nodes: self.stats.nodes,
            tt_hits: self.stats.tt_hits,
        };
        if let Some(f) = self.progress.as_mut() {
            f(p);
        }
    }

    /// Negamax. `D`: exact distance scores (`WIN - plies from the root`),
    /// else -1/0/1. Scores are for the side to move (`stm`, bitboard `me`).
    #[allow(clippy::too_many_arguments)]
    fn search<const D: bool>(
        &mut self,
        me: u64,
        opp: u64,
        stm: Mark,
        hashes: &[u64; 8],
        ply: i16,
        mut alpha: i16,
        mut beta: i16,
    ) -> i16 {
        self.stats.nodes += 1;
        if self.stats.nodes >= self.next_report {
            self.next_report += PROGRESS_INTERVAL;
            self.report();
        }
        if self.stats.nodes % DEADLINE_INTERVAL == 1 && self.deadline.is_some_and(|f| f()) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let g = self.geo;
        let empty = g.full & !(me | opp);
        if empty == 0 {
            return 0;
        }
        let s = g.scan(me, opp);
        if s.my_win & empty != 0 {
            return if D { WIN - (ply + 1) } else { 1 };
        }
        if empty & empty.wrapping_sub(1) == 0 || (!s.my_live && !s.opp_live) {
            return 0;
        }
        let opp_win = s.opp_win & empty;
        if opp_win & opp_win.wrapping_sub(1) != 0 {
            return if D { -(WIN - (ply + 2)) } else { -1 };
        }
        let (mut lo, mut hi) = if D {
            (-(WIN - (ply + 2)), WIN - (ply + 3))
        } else {
            (-1, 1)
        };
        if !s.my_live {
            hi = hi.min(0);
        }
        if !s.opp_live {
            lo = lo.max(0);
        }
        let (alpha_orig, beta_orig) = (alpha, beta);
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        if alpha >= beta {
            return if hi <= alpha_orig { hi } else { lo };
        }

        // Transposition table.
        let mut canon = hashes[0];
        let mut csym = 0;
        for (i, &h) in hashes[..g.nsym].iter().enumerate().skip(1) {
            if h < canon {
                canon = h;
                csym = i;
            }
        }
        let mut tt_move = 64u32;
        let key = canon ^ g.salt;
        if let Some(e) = tt::probe(self.tt, key) {
            self.stats.tt_hits += 1;
            let (v, flag) = if e.flags & DIST != 0 {
                let v = from_tt(e.value, ply);
                (if D { v } else { v.signum() }, e.flags & 3)
            } else if D {
                match (e.flags & 3, e.value) {
                    (EXACT, 1) => (1, LOWER),
                    (EXACT, -1) => (-1, UPPER),
                    (f, v) => (v, f),
                }
            } else {
                (e.value, e.flags & 3)
            };
            match flag {
                EXACT => return v,
                LOWER => alpha = alpha.max(v),
                UPPER => beta = beta.min(v),
                _ => {}
            }
            if alpha >= beta {
                return v;
            }
            if e.mv != NO_MOVE {
                let sym = Symmetry::of(&g.rules)[csym];
                let sq = sym.inverse().apply(Square::from_index(e.mv), &g.rules);
                tt_move = g.cell(sq);
            }
        }

        // Moves, ordered.
        let moves = if opp_win != 0 { opp_win } else { empty };
        let mut list = [(0u32, 0u8); 64];
        let mut n = 0;
        let mut rest = moves;
        while rest != 0 {
            let c = rest.trailing_zeros();
            rest &= rest - 1;
            let bit = 1u64 << c;
            let key = if c == tt_move {
                u32::MAX
            } else {
                let mut key =
                    self.history[c as usize].min(1 << 20) * 256 + g.weight[c as usize] as u32;
                if s.my_make & bit != 0 {
                    key += 1 << 30;
                }
                if s.opp_make & bit != 0 {
                    key += 1 << 29;
                }
                key
            };
            // Insertion, best key first.
            let mut j = n;
            while j > 0 && list[j - 1].0 < key {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[j] = (key, c as u8);
            n += 1;
        }
        if ply == 0 {
            self.total = n as u32;
            self.done = 0;
        }

        let mut best = i16::MIN + 1;
        let mut best_cell = 64u32;
        let empties = empty.count_ones();
        for &(_, c) in &list[..n] {
            let c = c as u32;
            let mut child = [0u64; 8];
            for (i, h) in child[..g.nsym].iter_mut().enumerate() {
                *h = hashes[i] ^ zobrist::key(stm, Square::from_index(g.sym_sq[i][c as usize]));
            }
            let v = -self.search::<D>(
                opp,
                me | 1 << c,
                stm.other(),
                &child,
                ply + 1,
                -beta,
                -alpha,
            );
            if self.stopped {
                return 0;
            }
            if ply == 0 {
                self.done += 1;
                self.report();
            }
            if v > best {
                best = v;
                best_cell = c;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        self.history[c as usize] += empties * empties;
                        break;
                    }
                }
            }
        }
        let best = best.clamp(lo, hi);
        let flag = if best <= alpha_orig {
            UPPER
        } else if best >= beta_orig {
            LOWER
        } else {
            EXACT
        };
        tt::store(
            self.tt,
            TtEntry {
                key,
                value: if D { to_tt(best, ply) } else { best },
                flags: flag | if D { DIST } else { 0 },
                depth: empties.min(255) as u8,
                mv: if best_cell < 64 {
                    g.sym_sq[csym][best_cell as usize]
                } else {
                    NO_MOVE
                },
            },
        );
        best
    }
}
