//! The prover: boolean proofs ("can this side force k in a row?") for boards
//! of up to 64 cells, past the reach of the exact [`Solver`](super::Solver).
//!
//! The game value is found with two yes/no questions instead of one
//! three-valued search: the side to move wins if it can force a win; it
//! loses if the opponent can; otherwise it is a draw. A yes/no search needs
//! no alpha-beta window, so every result it stores is exact.
//!
//! Each question is first asked in the **Maker-Breaker** game, where only
//! the attacker ("maker") can win and the defender only blocks: if the
//! attacker cannot force a line there, it cannot in the real game either
//! (the real game only adds the defender's own threats, which can end the
//! game early or force the attacker to answer them, never helping the
//! attacker). Maker-Breaker proofs prune hard:
//!
//! * only cells on a **live** line (a k-cell window holding no defender
//!   mark) matter; cells on no live line are dead for both sides, so the
//!   position is reduced to (attacker marks on live cells, dead cells) and
//!   positions with the same reduction share one table entry;
//! * no live line left: the attacker has lost;
//! * a completed k-1 on a live line: the attacker wins if to move, the
//!   defender must block if to move (two such cells: the attacker wins);
//! * the Erdos-Selfridge criterion: with the unclaimed cells of the live
//!   lines as a hypergraph, the defender wins if the sum over live lines of
//!   2^-(cells still needed) is below 1 with the defender to move, below 1/2
//!   with the attacker to move (a theorem of Maker-Breaker games), and the
//!   same test one attacker move ahead: the potential plus the largest gain
//!   of a single attacker move below 1;
//! * a **pairing strategy** (module `pairing`): disjoint pairs of empty cells
//!   such that every live line holds both cells of one pair; the defender
//!   answers each attacker move in a pair with its partner and wins. One
//!   pair may serve every window through both its cells, which is what
//!   settles most positions of 7x7 k=5 (797.5M nodes without shared pairs,
//!   0.9M with them);
//! * **twins** (Maker-Breaker): two empty cells on exactly the same live
//!   lines are such a pair; they are taken out of play with their lines
//!   before the position is searched or looked up (an exact reduction);
//! * **dominance**: a cell whose live lines all pass through another
//!   candidate cell is worth no more than that cell to either side, so it
//!   is not searched beside it;
//! * **the defender's moves probed** (Maker-Breaker): the defender needs one
//!   move that holds, and nearly every move does, but one whose position
//!   needs a search costs that search; so its first moves' positions are
//!   put to the static tests (the table, a bounded pairing search, the
//!   Erdos-Selfridge test) before any is searched, and the first settled
//!   that way decides (six 8x8 k=5 positions: 373,747 nodes instead of
//!   3,328,105);
//! * **relevance zones** (after Hsu et al., 2020): every answer comes with a
//!   zone of cells such that the answer stays the same when the side that
//!   failed to prove its goal gets every empty cell outside the zone for
//!   free. When a move fails for the side to move with zone Z, every other
//!   move outside Z fails by the same strategy (owning that cell is no
//!   better than owning all of the outside), so only moves inside Z are
//!   still tried. The zones are kept in the table beside each entry.
//!
//! Only when the Maker-Breaker game is a win for the attacker is the real
//! game searched (there the Erdos-Selfridge cuts still apply, and the
//! defender-win zones, which need no Maker-Breaker argument; the rest of the
//! Maker-Breaker test costs more than it saves). Both searches use the
//! caller's table, keyed by the smallest Zobrist hash over the board's
//! symmetries. The attacker tries first the cells that add most to its
//! live lines (a line with n marks weighs 4^n), the defender the cells that
//! take most Erdos-Selfridge potential away (2^n).
//!
//! The prover never allocates; a search can be stopped from outside (an
//! [`AtomicBool`], or a deadline callback), and then answers `None`.
use core::sync::atomic::{AtomicBool, Ordering};

mod census;
mod keys;
mod pairing;
mod records;
#[cfg(target_has_atomic = "64")]
mod shared;

use super::progress::Progress;
use super::stats::SearchStats;
use super::tt::{TtEntry, EXACT, NO_MOVE};
use crate::symmetry::Symmetry;
use crate::{Mark, Outcome, Position, Square};
pub use census::{Census, Settled, Subtree};
use keys::{key_of, Tables};
pub use records::ProofTable;
#[cfg(target_has_atomic = "64")]
pub use shared::SharedTable;

/// The game value of a position for the side to move, without distances.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The side to move can force a win.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The opponent can force a win.
    Loss,
}

/// How many of the defender's first moves are asked the static tests
/// before any is searched, and the steps of the pairing search each gets
/// there (a search from scratch, after the mending). On six 8x8 k=5
/// positions (solver.md): 373,747 nodes in a fifth of the time of
/// 3,328,105 without probes. With the first move's probe at 2,048 steps
/// (these figures), 8 moves at 128, 256 and 512 steps took 375,785,
/// 345,620 and 326,768 nodes, 2, 4 and 16 moves at 256 steps 1,086,999,
/// 507,002 and 306,491, the time least from 6 to 16 moves and about the
/// same from 128 to 512 steps; the first move's probe at 2,048 costs
/// more time than it saves (most probes that fail run out of steps).
const PROBE_REPLIES: usize = 8;
/// See [`PROBE_REPLIES`].
const PROBE_STEPS: u32 = 256;
/// How often (in nodes) the stop flag and the progress callback are checked.
const CHECK_INTERVAL: u64 = 1 << 14;
/// A pairing strategy: pairs of empty cells such that every line the other
/// side could still complete holds both cells of one pair. The blocker
/// answers a move in a pair with its partner (and plays anywhere when it is
/// to move), so the other side never completes a line. See
/// [`Prover::blocking_pairs`].
#[derive(Copy, Clone, Debug)]
pub struct Pairing {
    pairs: [(Square, Square); 32],
    len: usize,
}

impl Pairing {
    /// The pairs.
    pub fn pairs(&self) -> &[(Square, Square)] {
        &self.pairs[..self.len]
    }
}

/// The prover. Like the [`Solver`](super::Solver), it searches with a
/// transposition table lent by the caller, kept between calls: its own
/// (`&mut [TtEntry]`), or a [`SharedTable`] that provers on other threads
/// search at the same time.
pub struct Prover<'a, T: ProofTable = &'a mut [TtEntry]> {
    tt: T,
    tables: Option<Tables>,
    stats: SearchStats,
    progress: Option<&'a mut dyn FnMut(Progress)>,
    stop: Option<&'a AtomicBool>,
    deadline: Option<&'a dyn Fn() -> bool>,
    stopped: bool,
    next_check: u64,
    zone_cuts: u64,
    pairings: u64,
    /// The last pairing found: a hint for the next search (a sibling's
    /// pairing needs mending at a mark or two).
    last_pairs: pairing::Pairs,
    dominance_cuts: u64,
    /// Set by a parent for its next child: put the child off if another
    /// prover is searching it (parallel search only).
    exclusive: bool,
    /// Set by a child put off so.
    deferred: bool,
    /// Set by a defender's position for its next child: answer only what
    /// the static tests settle, else return at once with `probe_open` set.
    probe: bool,
    /// Set by a probed child the static tests did not settle.
    probe_open: bool,
    /// Set by such a child: whether its pairing search ran out of steps.
    probe_gave_up: bool,
    /// Set by a defender's position for a child probed before: the
    /// pairing search there already failed (`Some(ran out of steps)`).
    known_unpaired: Option<bool>,
    probe_picks: u64,
    deferrals: u64,
    /// Plies below the question's position, and that position's moves
    /// finished and to search (for the progress reports).
    ply: u32,
    root_done: u32,
    root_total: u32,
    census: Census,
    /// How the last position searched was settled (for the profile).
    settled: Settled,
    /// The heaviest subtrees at `profile_ply`, kept in the caller's slots
    /// (the first `profile_len` in use).
    profile: Option<&'a mut [Subtree]>,
    profile_len: usize,
    profile_ply: u32,
}

impl<'a> Prover<'a> {
    /// A prover using `tt` as its transposition table (any length).
    pub fn new(tt: &'a mut [TtEntry]) -> Prover<'a> {
        Prover::with_table(tt)
    }

    /// Whether the boards of `rules` fit the prover: at most 64 cells, and
    /// not a board where an overline can happen and does not win (the
    /// prover knows only "k or more").
    pub fn fits(rules: &crate::Rules) -> bool {
        rules.cell_count() <= 64 && !rules.excludes_overlines()
    }
}

impl<'a, T: ProofTable> Prover<'a, T> {
    /// A prover keeping its records in `tt`.
    pub fn with_table(tt: T) -> Prover<'a, T> {
        Prover {
            tt,
            tables: None,
            stats: SearchStats::default(),
            progress: None,
            stop: None,
            deadline: None,
            stopped: false,
            next_check: CHECK_INTERVAL,
            zone_cuts: 0,
            pairings: 0,
            last_pairs: pairing::Pairs::EMPTY,
            dominance_cuts: 0,
            exclusive: false,
            deferred: false,
            probe: false,
            probe_open: false,
            probe_gave_up: false,
            known_unpaired: None,
            probe_picks: 0,
            deferrals: 0,
            ply: 0,
            root_done: 0,
            root_total: 0,
            census: Census::default(),
            settled: Settled::Searched,
            profile: None,
            profile_len: 0,
            profile_ply: 0,
        }
    }

    /// Calls `f` every few thousand nodes: `done` of `total` are the moves
    /// of the question's position (the position a call such as
    /// [`wins`](Prover::wins) asks about, each question in turn) settled so
    /// far.
    pub fn set_progress(&mut self, f: &'a mut dyn FnMut(Progress)) {
        self.progress = Some(f);
    }

    /// Stops searching (every call then answers `None`) once `flag` is set.
    pub fn set_stop(&mut self, flag: &'a AtomicBool) {
        self.stop = Some(flag);
    }

    /// Stops searching (every call then answers `None`) once `f` returns
    /// `true`: a deadline measured by the caller's clock, asked as often as
    /// the stop flag (every 16,384 nodes).
    pub fn set_deadline(&mut self, f: &'a dyn Fn() -> bool) {
        self.deadline = Some(f);
    }

    /// Whether a stop flag or the deadline stopped the prover (from then on
    /// every call answers `None`).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Counters accumulated since the prover was made.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// How the positions visited since the prover was made were settled.
    pub fn census(&self) -> Census {
        self.census
    }

    /// Keeps the heaviest subtrees (by nodes) that start `ply` plies below
    /// a question's position, as many as `slots` holds, in `slots`; read
    /// them with [`profile`](Prover::profile).
    pub fn set_profile(&mut self, ply: u32, slots: &'a mut [Subtree]) {
        self.profile = Some(slots);
        self.profile_len = 0;
        self.profile_ply = ply;
    }

    /// The subtrees kept by [`set_profile`](Prover::set_profile) so far,
    /// in no order.
    pub fn profile(&self) -> &[Subtree] {
        self.profile
            .as_deref()
            .map_or(&[], |p| &p[..self.profile_len])
    }

    /// Moves left unsearched since the prover was made because a sibling's
    /// proof already covered them (relevance zones).
    pub fn zone_cuts(&self) -> u64 {
        self.zone_cuts
    }

    /// Moves left unsearched since the prover was made because another
    /// candidate's live lines include all of theirs (Maker-Breaker).
    pub fn dominance_cuts(&self) -> u64 {
        self.dominance_cuts
    }

    /// Positions settled since the prover was made by a pairing strategy.
    pub fn pairings(&self) -> u64 {
        self.pairings
    }

    /// Defender positions settled since the prover was made by a move that
    /// the static tests settled where the first move in order needed a
    /// search (the static tests are put to its first few moves first).
    pub fn probe_picks(&self) -> u64 {
        self.probe_picks
    }

    /// Moves put off since the prover was made because another prover on
    /// the same [`SharedTable`] was searching them.
    pub fn deferrals(&self) -> u64 {
        self.deferrals
    }

    /// The value of `pos` for the side to move; `None` if stopped or the
    /// board has more than 64 cells.
    pub fn verdict(&mut self, pos: &Position) -> Option<Verdict> {
        match pos.outcome() {
            Outcome::Win(_) => return Some(Verdict::Loss),
            Outcome::Draw => return Some(Verdict::Draw),
            Outcome::InProgress => {}
        }
        let me = pos.side_to_move();
        if self.wins(pos, me)? {
            return Some(Verdict::Win);
        }
        if self.wins(pos, me.other())? {
            return Some(Verdict::Loss);
        }
        Some(Verdict::Draw)
    }

    /// Whether `attacker` can force k in a row from `pos` in the real game
    /// (the defender's lines count: if the defender completes one first, the
    /// attacker has failed).
    pub fn wins(&mut self, pos: &Position, attacker: Mark) -> Option<bool> {
        match pos.outcome() {
            Outcome::Win(m) => return Some(m == attacker),
            Outcome::Draw => return Some(false),
            Outcome::InProgress => {}
        }
        let (a, d, a_moves) = self.load(pos, attacker)?;
        // The Maker-Breaker game bounds the real one from above: asked
        // first, it often settles the question alone.
        let r = self.search::<true>(a, d, a_moves).0 && self.search::<false>(a, d, a_moves).0;
        (!self.stopped).then_some(r)
    }

    /// Whether `maker` can force k in a row from `pos` in the Maker-Breaker
    /// game (the other side only blocks; its own lines do not count). A
    /// `false` here proves that `maker` cannot win the real game either.
    pub fn maker_wins(&mut self, pos: &Position, maker: Mark) -> Option<bool> {
        if let Outcome::Win(m) = pos.outcome() {
            return Some(m == maker);
        }
        let (a, d, a_moves) = self.load(pos, maker)?;
        let r = self.search::<true>(a, d, a_moves).0;
        (!self.stopped).then_some(r)
    }

    /// With the side to move unable to lose against `attacker` (the other
    /// side) in the real game: a move that keeps `attacker` from forcing a
    /// win. `None` if there is none, or when stopped.
    pub fn holding_move(&mut self, pos: &Position) -> Option<Square> {
        let attacker = pos.side_to_move().other();
        let hint = self.hint(pos, attacker);
        self.find_move(pos, attacker, hint, |p, child| {
            p.wins(child, attacker).map(|w| !w)
        })
    }

    /// With `pos.side_to_move()` able to force a real win: a move that keeps
    /// the forced win. `None` if there is none, or when stopped.
    pub fn winning_move(&mut self, pos: &Position) -> Option<Square> {
        let me = pos.side_to_move();
        let hint = self.hint(pos, me);
        self.find_move(pos, me, hint, |p, child| p.wins(child, me))
    }

    /// A pairing strategy for `blocker` in `pos` against the other side's
    /// lines (those holding no `blocker` mark), if the prover's pairing
    /// searches find one: the static wins its proofs end in. `None` also
    /// above 64 cells. The last pairing found (here or in a search) is
    /// mended first; `thorough` then searches from scratch as the proofs do
    /// (else only the mending is tried: cheap where a pairing is unlikely).
    pub fn blocking_pairs(
        &mut self,
        pos: &Position,
        blocker: Mark,
        thorough: bool,
    ) -> Option<Pairing> {
        let steps = if thorough { pairing::PAIRING_STEPS } else { 0 };
        self.blocking_pairs_within(pos, blocker, steps)
    }

    /// [`blocking_pairs`](Prover::blocking_pairs) with a search from
    /// scratch of at most `steps` steps after the mending (the prover's
    /// own searches take 2,048; its probes of the defender's moves 256).
    pub fn blocking_pairs_within(
        &mut self,
        pos: &Position,
        blocker: Mark,
        steps: u32,
    ) -> Option<Pairing> {
        let (a, d, _) = self.load(pos, blocker.other())?;
        let t = self.tables.as_ref()?;
        let g = &t.geo;
        let found = pairing::pairing_near(
            g,
            t.cell_lines.as_ref(),
            d,
            g.full & !(a | d),
            &self.last_pairs,
            steps,
        )
        .pairs?;
        self.last_pairs = found;
        let square = |c: u8| {
            let cols = g.cols;
            Square::new(c % cols, c / cols)
        };
        let mut out = Pairing {
            pairs: [(Square::from_index(0), Square::from_index(0)); 32],
            len: 0,
        };
        for &(p, q) in &found.pairs[..found.len] {
            out.pairs[out.len] = (square(p)?, square(q)?);
            out.len += 1;
        }
        Some(out)
    }

    /// The first move (`first`, then the others by how much they add to the
    /// live lines of `attacker`: the attacker's strongest moves, the
    /// defender's most potential-removing blocks) whose child satisfies
    /// `good`. The order matters for certificates: a strategy built of these
    /// moves reaches the Erdos-Selfridge leaves the checker accepts soon.
    fn find_move(
        &mut self,
        pos: &Position,
        attacker: Mark,
        first: Option<Square>,
        mut good: impl FnMut(&mut Prover<'a, T>, &Position) -> Option<bool>,
    ) -> Option<Square> {
        let (a, d, _) = self.load(pos, attacker)?;
        let g = &self.tables.as_ref()?.geo;
        let mut gain = [0u64; 64];
        for &w in &g.win[..g.nwin] {
            if w & d == 0 {
                let v = 1u64 << (a & w).count_ones();
                let mut cells = w & !a;
                while cells != 0 {
                    gain[cells.trailing_zeros() as usize] += v;
                    cells &= cells - 1;
                }
            }
        }
        let mut order = [(0u64, Square::from_index(0)); 64];
        let mut n = 0;
        for sq in pos.legal_moves() {
            if n == order.len() {
                break;
            }
            let v = gain[g.cell(sq) as usize];
            let mut j = n;
            while j > 0 && order[j - 1].0 < v {
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = (v, sq);
            n += 1;
        }
        let mut child = pos.clone();
        for sq in first
            .into_iter()
            .chain(order[..n].iter().map(|&(_, sq)| sq))
        {
            if child.play(sq).is_err() {
                continue;
            }
            let ok = good(self, &child);
            child.undo();
            if ok? {
                return Some(sq);
            }
        }
        None
    }

    /// Bitboards (attacker, defender, attacker to move) of `pos`, after
    /// (re)building the tables for its rules; `None` above 64 cells.
    fn load(&mut self, pos: &Position, attacker: Mark) -> Option<(u64, u64, bool)> {
        let rules = pos.rules();
        if !Prover::fits(rules) {
            return None;
        }
        if self.tables.as_ref().is_none_or(|t| t.geo.rules != *rules) {
            self.tables = Some(Tables::new(rules));
        }
        let geo = &self.tables.as_ref()?.geo;
        let bits = |m: Mark| {
            pos.marks(m)
                .into_iter()
                .fold(0u64, |b, sq| b | 1 << geo.cell(sq))
        };
        Some((
            bits(attacker),
            bits(attacker.other()),
            pos.side_to_move() == attacker,
        ))
    }

    /// The move the table holds for `pos` (from earlier searches on the
    /// question whether `attacker` wins): the attacker's winning move or the
    /// defender's refutation. Only a hint, to try first.
    fn hint(&mut self, pos: &Position, attacker: Mark) -> Option<Square> {
        let (a, d, a_moves) = self.load(pos, attacker)?;
        let t = self.tables.as_ref()?;
        let g = &t.geo;
        let mut live = 0u64;
        for &w in &g.win[..g.nwin] {
            if w & d == 0 {
                live |= w;
            }
        }
        let keys = [
            key_of::<false>(t, a, d, a_moves),
            key_of::<true>(t, a & live, g.full & !live, a_moves),
        ];
        keys.iter().find_map(|&(key, csym)| {
            let e = self
                .tt
                .probe(key)
                .map(|(e, _)| e)
                .filter(|e| e.mv != NO_MOVE)?;
            let sym = Symmetry::of(&g.rules)[csym];
            let sq = sym.inverse().apply(Square::from_index(e.mv), &g.rules);
            pos.is_legal(sq).then_some(sq)
        })
    }

    /// Counts a position settled `how` (after its children, if searched).
    fn note(&mut self, how: Settled) {
        self.census.count(how);
        self.settled = how;
    }

    fn check(&mut self) {
        self.next_check = self.stats.nodes + CHECK_INTERVAL;
        if self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|f| f())
        {
            self.stopped = true;
        }
        let p = Progress {
            done: self.root_done,
            total: self.root_total,
            nodes: self.stats.nodes,
            tt_hits: self.stats.tt_hits,
        };
        if let Some(f) = self.progress.as_mut() {
            f(p);
        }
    }

    /// Whether the attacker (bitboard `a`) can force a line against `d`,
    /// and the relevance zone of that answer, a set of empty cells:
    ///
    /// * `false` (the attacker fails): it still fails if it also owns every
    ///   empty cell outside the zone;
    /// * `true` in the Maker-Breaker game: the attacker still wins if the
    ///   defender also owns every empty cell outside the zone (in the real
    ///   game the defender's own lines could then win: there a win's zone
    ///   is every empty cell).
    ///
    /// Both rest on monotonicity: an extra mark never hurts its owner (it
    /// can play as if the mark were not there). `MB`: the Maker-Breaker game
    /// (the defender's lines never count).
    fn search<const MB: bool>(&mut self, a: u64, d: u64, a_moves: bool) -> (bool, u64) {
        if self.profile.is_none() || self.ply != self.profile_ply {
            return self.search_twins::<MB>(a, d, a_moves);
        }
        let before = self.stats.nodes;
        let r = self.search_twins::<MB>(a, d, a_moves);
        if self.probe_open {
            return r;
        }
        // A subtree cut short by a stop is kept too: where a bounded run
        // was spending its time.
        let s = Subtree {
            nodes: self.stats.nodes - before,
            attacker: a,
            defender: d,
            attacker_to_move: a_moves,
            finished: !self.stopped,
            attacker_wins: r.0 && !self.stopped,
            maker_breaker: MB,
            settled_by: self.settled,
        };
        if let Some(kept) = self.profile.as_deref_mut() {
            census::keep_heaviest(kept, &mut self.profile_len, s);
        }
        r
    }

    /// [`search`](Prover::search) past the profile: takes twins out.
    fn search_twins<const MB: bool>(&mut self, a: u64, d: u64, a_moves: bool) -> (bool, u64) {
        // With the attacker to move (twins only ever prune the attacker's
        // moves; the defender's first move nearly always holds).
        if MB && a_moves {
            let paired = self.tables.as_ref().map_or(0, |t| {
                t.cell_lines
                    .as_ref()
                    .map_or(0, |lines| pairing::twin_cells(&t.geo, lines, a, d))
            });
            if paired != 0 {
                let (r, zone) = self.search_reduced::<MB>(a, d | paired, a_moves);
                // (A position probed and left open is counted when searched.)
                self.census.twins += !self.probe_open as u64;
                return (r, zone | paired);
            }
        }
        self.search_reduced::<MB>(a, d, a_moves)
    }

    fn search_reduced<const MB: bool>(&mut self, a: u64, d: u64, a_moves: bool) -> (bool, u64) {
        let exclusive = T::PARALLEL && core::mem::take(&mut self.exclusive);
        let probe = core::mem::take(&mut self.probe);
        let known_unpaired = self.known_unpaired.take();
        if self.ply == 0 {
            self.root_done = 0;
            self.root_total = 0;
        }
        self.stats.nodes += 1;
        if self.stats.nodes >= self.next_check {
            self.check();
        }
        if self.stopped {
            return (false, 0);
        }
        let Some(t) = self.tables.as_ref() else {
            return (false, 0);
        };
        let g = &t.geo;
        let k1 = g.k - 1;
        let empty = g.full & !(a | d);
        if self.ply > self.census.deepest {
            self.census.deepest = self.ply;
        }
        if empty == 0 {
            self.note(Settled::NoLines);
            return (false, 0);
        }
        // One pass over the windows: live cells, both sides' winning cells.
        let mut live = 0u64;
        let mut a_win = 0u64;
        let mut d_win = 0u64;
        // Erdos-Selfridge potential: the sum over live lines of 2^(attacker
        // marks), in units of 2^-k.
        let mut potential = 0u64;
        for &w in &g.win[..g.nwin] {
            if w & d == 0 {
                live |= w;
                let n = (a & w).count_ones();
                potential += 1 << n;
                if n == k1 {
                    a_win |= w & !a;
                }
            } else if !MB && w & a == 0 && (d & w).count_ones() == k1 {
                d_win |= w & !d;
            }
        }
        // The zone that holds whatever the outside cells become: every
        // cell that can still matter (dead cells never do in Maker-Breaker).
        let whole = if MB { empty & live } else { empty };
        let forced;
        if a_moves {
            if a_win != 0 {
                // Maker-Breaker: the winning cell alone; the real game also
                // needs the defender's lines to stay as they are.
                self.note(Settled::Lines);
                return (
                    true,
                    if MB {
                        a_win & a_win.wrapping_neg()
                    } else {
                        whole
                    },
                );
            }
            if live & empty == 0 {
                self.note(Settled::NoLines);
                return (false, 0);
            }
            if !MB && d_win != 0 {
                if d_win & (d_win - 1) != 0 {
                    self.note(Settled::Lines);
                    return (false, whole);
                }
                forced = d_win;
            } else {
                forced = 0;
            }
        } else {
            if !MB && d_win != 0 {
                self.note(Settled::Lines);
                return (false, whole);
            }
            if live & empty == 0 {
                self.note(Settled::NoLines);
                return (false, 0);
            }
            if a_win != 0 {
                if a_win & (a_win - 1) != 0 {
                    let first = a_win & a_win.wrapping_neg();
                    let rest = a_win & !first;
                    let two = first | (rest & rest.wrapping_neg());
                    self.note(Settled::Lines);
                    return (true, if MB { two } else { whole });
                }
                forced = a_win;
            } else {
                forced = 0;
            }
        }
        // Erdos-Selfridge: the defender wins the Maker-Breaker game when the
        // potential is below 1 with the defender to move, below 1/2 with the
        // attacker to move (the live lines' unclaimed cells as hyperedges).
        if potential << (a_moves as u32) < 1 << g.k {
            self.note(Settled::Potential);
            return (false, empty & live);
        }
        // With the attacker to move, the same test one move on: the
        // attacker's move doubles the weight of its live lines, and if even
        // the heaviest such move leaves the potential below 1 the defender
        // (then to move) wins. Saves visiting every child to cut it there.
        // The same pass gathers, for the Maker-Breaker search below, each
        // cell's live lines (dominance) and gain (the attacker's order).
        let mut gain = [0u64; 64];
        let mut through = [0u128; 64];
        let mut nlive = 0u32;
        if a_moves {
            for &w in &g.win[..g.nwin] {
                if w & d == 0 {
                    let v = 1u64 << (a & w).count_ones();
                    let line = if MB && nlive < 128 { 1u128 << nlive } else { 0 };
                    nlive += 1;
                    let mut cells = w & empty;
                    while cells != 0 {
                        let c = cells.trailing_zeros() as usize;
                        gain[c] += v;
                        through[c] |= line;
                        cells &= cells - 1;
                    }
                }
            }
            if potential + gain.iter().copied().max().unwrap_or(0) < 1 << g.k {
                self.note(Settled::PotentialAhead);
                return (false, empty & live);
            }
        }
        // Table key. Maker-Breaker: reduce to (attacker marks on live
        // cells, dead cells), which is all that game depends on.
        let (ka, kd) = if MB {
            (a & live, g.full & !live)
        } else {
            (a, d)
        };
        let (key, csym) = key_of::<MB>(t, ka, kd, a_moves);
        let mut tt_move = 64u32;
        if let Some((e, stored_zone)) = self.tt.probe(key) {
            self.stats.tt_hits += 1;
            if e.flags & 3 == EXACT {
                let zone = stored_zone.map_or(whole, |z| t.canonical_to_board(csym, z) & whole);
                self.note(Settled::Table);
                return (e.value != 0, zone);
            }
            if e.mv != NO_MOVE {
                let sym = Symmetry::of(&g.rules)[csym];
                tt_move = g.cell(sym.inverse().apply(Square::from_index(e.mv), &g.rules));
            }
        }

        // A pairing strategy: the defender answers in the same pair, so no
        // live line is ever completed. Its zone is the pairs' cells. Sought
        // after the table (a position met again is answered there).
        // Sought with the attacker to move only: with the defender to move
        // its first move keeps such a pairing, and the search for one that
        // is not there costs more than the extra node.
        let mut gave_up = known_unpaired.unwrap_or(false);
        let paired = if a_moves && known_unpaired.is_none() {
            let sought = pairing::pairing_near(
                g,
                t.cell_lines.as_ref(),
                d,
                empty,
                &self.last_pairs,
                if probe {
                    PROBE_STEPS
                } else {
                    pairing::PAIRING_STEPS
                },
            );
            let steps = u64::from(sought.steps);
            let c = &mut self.census;
            gave_up = sought.gave_up;
            if sought.pairs.is_some() {
                c.pairing_steps_found += steps;
            } else if sought.gave_up {
                c.pairing_steps_given_up += steps;
            } else {
                c.pairing_steps_none += steps;
            }
            sought.pairs
        } else {
            None
        };
        if let Some(pairs) = paired {
            self.pairings += 1;
            self.last_pairs = pairs;
            // Kept, so the position is not paired again when met again.
            let zone = pairs.cells();
            self.tt.store(
                TtEntry {
                    key,
                    value: 0,
                    flags: EXACT,
                    depth: empty.count_ones().min(255) as u8,
                    mv: NO_MOVE,
                },
                t.board_to_canonical(csym, zone),
            );
            self.note(Settled::Pairing);
            return (false, zone);
        }

        if probe {
            // Not settled without a search: the parent searches it later
            // (counted then as a node) or not at all.
            self.stats.nodes -= 1;
            self.probe_open = true;
            self.probe_gave_up = gave_up;
            return (false, 0);
        }
        self.census.pairing_misses += a_moves as u64;
        self.census.pairing_give_ups += (a_moves && gave_up) as u64;
        // Parallel search: put off when another prover is on it (a later
        // sibling only: the parent tries it again once its other moves are
        // done), else marked as being searched.
        let marked = if T::PARALLEL {
            if exclusive && self.tt.is_busy(key) {
                self.deferred = true;
                self.deferrals += 1;
                return (false, 0);
            }
            self.tt.mark(key)
        } else {
            false
        };

        // Candidate moves: the forced one, else (Maker-Breaker) the live
        // cells, else every empty cell.
        let moves = if forced != 0 {
            forced
        } else if MB {
            empty & live
        } else {
            empty
        };
        // Order: how much the cell is worth to the attacker's live lines
        // (a line with n attacker marks weighs 4^n), plus, in the real
        // game, to the defender's.
        let mut score = [0u32; 64];
        if MB && a_moves {
            // Gathered above (the attacker's order by 2^n per line, which
            // orders as well as 4^n here).
            for (s, &v) in score.iter_mut().zip(&gain) {
                *s = v as u32;
            }
        } else if forced == 0 {
            for &w in &g.win[..g.nwin] {
                let (mine, weight) = if w & d == 0 {
                    ((a & w).count_ones(), 4)
                } else if !MB && w & a == 0 {
                    ((d & w).count_ones(), 2)
                } else {
                    continue;
                };
                let v = if a_moves {
                    weight << (2 * mine)
                } else {
                    weight << mine
                };
                let mut cells = w & moves;
                while cells != 0 {
                    score[cells.trailing_zeros() as usize] += v;
                    cells &= cells - 1;
                }
            }
        }
        // Dominance (Maker-Breaker): a cell whose live lines all pass
        // through another candidate is worth no more than that cell to
        // either side (owning it kills or builds a subset of the same
        // lines), so when the other one is searched this one need not be.
        // Of cells with equal line sets the lowest is kept. Only the
        // attacker's moves are pruned so: the defender's first move nearly
        // always holds, and then the prune would be work for nothing.
        let mut dominated = 0u64;
        let mut dominators = 0u64;
        if MB && a_moves && forced == 0 && nlive <= 128 {
            let mut rest = moves;
            while rest != 0 {
                let c = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let lc = through[c];
                let mut others = moves & !(1u64 << c);
                while others != 0 {
                    let o = others.trailing_zeros() as usize;
                    others &= others - 1;
                    let lo = through[o];
                    if lc & !lo == 0 && (lc != lo || o < c) {
                        dominated |= 1 << c;
                        dominators |= 1 << o;
                        break;
                    }
                }
            }
            self.dominance_cuts += dominated.count_ones() as u64;
        }
        let mut list = [(0u32, 0u8); 64];
        let mut n = 0;
        let mut rest = moves & !dominated;
        while rest != 0 {
            let c = rest.trailing_zeros();
            rest &= rest - 1;
            let key = if c == tt_move {
                u32::MAX
            } else {
                score[c as usize] * 256 + g.weight[c as usize] as u32
            };
            let mut j = n;
            while j > 0 && list[j - 1].0 < key {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[j] = (key, c as u8);
            n += 1;
        }

        // The attacker needs one move that wins; the defender one that holds.
        // A move that fails for the mover with zone Z refutes, by the same
        // strategy, every move outside Z (the mover owning such a cell
        // changes nothing the proof used), so only moves inside every zone
        // seen so far are still tried. The defender's such prune needs
        // attacker-win zones, which only the Maker-Breaker game keeps.
        let zone_prunes = a_moves || MB;
        let mut untried = moves;
        let mut result = !a_moves;
        let mut best = 64u32;
        let mut zone = 0u64;
        // Moves another prover was searching when this one came to them,
        // tried after the others (parallel search only).
        let mut later = [0u8; 64];
        let mut n_later = 0;
        let root = self.ply == 0;
        if root {
            self.root_total = n as u32;
        }
        // The defender (Maker-Breaker) needs one move that holds, and most
        // of its moves do; but a move whose position only a search settles
        // costs that search where another's may be settled at once (by a
        // pairing, the table, the Erdos-Selfridge test). So its first moves
        // are asked the static tests first, and the first one settled so
        // ends the position; those left open are searched as usual.
        let mut probed_open = 0u64;
        let mut probe_gave_up = 0u64;
        let mut probed_failed = 0u64;
        let mut settled_early = false;
        if MB && !a_moves && n > 1 {
            for &(_, c) in &list[..n.min(PROBE_REPLIES)] {
                let bit = 1u64 << c;
                self.probe = true;
                self.ply += 1;
                let (r, child_zone) = self.search::<MB>(a, d | bit, true);
                self.ply -= 1;
                self.probe = false;
                if self.stopped {
                    break;
                }
                if core::mem::take(&mut self.probe_open) {
                    probed_open |= bit;
                    if self.probe_gave_up {
                        probe_gave_up |= bit;
                    }
                    continue;
                }
                self.census.defender_moves += 1;
                self.root_done += root as u32;
                probed_failed |= bit;
                if !r {
                    result = false;
                    best = c as u32;
                    zone = child_zone | bit;
                    settled_early = true;
                    self.probe_picks += (probed_open != 0) as u64;
                    break;
                }
                zone |= child_zone | bit;
                untried &= child_zone;
            }
        }
        'passes: for pass in 0..2 {
            if settled_early || self.stopped {
                break;
            }
            let count = if pass == 0 { n } else { n_later };
            for i in 0..count {
                let c = if pass == 0 { list[i].1 } else { later[i] };
                let bit = 1u64 << c;
                if probed_failed & bit != 0 {
                    continue;
                }
                if untried & bit == 0 {
                    self.zone_cuts += 1;
                    self.root_done += root as u32;
                    continue;
                }
                // The first move is searched by every prover that gets
                // here (where one move suffices it nearly always does).
                self.exclusive = T::PARALLEL && pass == 0 && i > 0;
                if probed_open & bit != 0 {
                    self.known_unpaired = Some(probe_gave_up & bit != 0);
                }
                if a_moves {
                    self.census.attacker_moves += 1;
                } else {
                    self.census.defender_moves += 1;
                }
                self.ply += 1;
                let (r, child_zone) = if a_moves {
                    self.search::<MB>(a | bit, d, false)
                } else {
                    self.search::<MB>(a, d | bit, true)
                };
                self.ply -= 1;
                if self.stopped {
                    break 'passes;
                }
                if T::PARALLEL && core::mem::take(&mut self.deferred) {
                    later[n_later] = c;
                    n_later += 1;
                    continue;
                }
                self.root_done += root as u32;
                if r == a_moves {
                    result = r;
                    best = c as u32;
                    zone = child_zone | bit;
                    break 'passes;
                }
                zone |= child_zone | bit;
                if zone_prunes {
                    untried &= child_zone;
                }
            }
        }
        if marked {
            self.tt.unmark(key);
        }
        if self.stopped {
            return (false, 0);
        }
        self.note(Settled::Searched);
        self.census.defender_searched += !a_moves as u64;
        // A dominated move fails with its dominator: that needs the
        // dominator left empty.
        if result != a_moves {
            zone |= dominators;
        }
        // The real game's attacker wins, and its forced replies (the other
        // moves lose to the defender's line, not by a zone), keep the
        // whole board as their zone.
        if !MB && (result || (a_moves && forced != 0)) {
            zone = whole;
        }
        zone &= whole;
        let Some(t) = self.tables.as_ref() else {
            return (result, zone);
        };
        let g = &t.geo;
        self.tt.store(
            TtEntry {
                key,
                value: result as i16,
                flags: EXACT,
                depth: empty.count_ones().min(255) as u8,
                mv: if best < 64 {
                    g.sym_sq[csym][best as usize]
                } else {
                    NO_MOVE
                },
            },
            t.board_to_canonical(csym, zone),
        );
        (result, zone)
    }
}
