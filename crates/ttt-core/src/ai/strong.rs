//! `strong`: a search engine for boards too large to solve (9x9 k=5,
//! 15x15 k=5, ...), usable on any board.
//!
//! * Iterative deepening negamax alpha-beta, stopped by a [`Budget`] (nodes,
//!   optional depth cap, optional deadline callback: no clock in `no_std`).
//!   The move of the last completed iteration is played.
//! * Evaluation over every k-cell line window, kept up to date move by move:
//!   a window holding only one side's marks is worth `8^(4 - need)` to that
//!   side (need = marks still missing: a window missing 1 is worth 4096,
//!   missing 2: 512, 3: 64, 4 or more: 8); windows holding both marks are
//!   dead. Overlapping windows make open runs worth more than closed ones.
//! * Tactics at every node: a win in one is taken; two opponent winning
//!   cells (a double threat) is a loss; a single one must be blocked, and that
//!   forced reply does not use up depth.
//! * Candidate moves: empty cells within two steps of a mark (the centre on
//!   an empty board), ordered by how much they gain for the side to move
//!   plus how much they would gain for the opponent; inside the tree only the
//!   best 12 are searched. At the root the seed perturbs the order slightly,
//!   so equal moves differ between seeds (same seed, same move).
use super::SearchStats;
use crate::rng::Rng;
use crate::{Direction, Mark, Position, Rules, Square};

/// Limits for a search. The search stops at whichever comes first.
#[derive(Copy, Clone)]
pub struct Budget<'a> {
    /// Positions to visit at most (per move).
    pub max_nodes: u64,
    /// Deepest iteration in plies (0: no limit).
    pub max_depth: u32,
    /// Called now and then; returning `true` stops the search (a deadline
    /// measured by the caller's clock).
    pub deadline_check: Option<&'a dyn Fn() -> bool>,
}

impl Budget<'_> {
    /// The default number of nodes per move for `strong`.
    pub const DEFAULT_NODES: u64 = 60_000;

    /// A budget of `max_nodes` nodes, no depth cap, no deadline.
    pub const fn nodes(max_nodes: u64) -> Budget<'static> {
        Budget {
            max_nodes,
            max_depth: 0,
            deadline_check: None,
        }
    }
}

impl Default for Budget<'_> {
    fn default() -> Self {
        Budget::nodes(Budget::DEFAULT_NODES)
    }
}

impl core::fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Budget")
            .field("max_nodes", &self.max_nodes)
            .field("max_depth", &self.max_depth)
            .field("deadline_check", &self.deadline_check.is_some())
            .finish()
    }
}

const WIN: i32 = 1 << 29;
const MATE_BOUND: i32 = WIN - 1024;
const BEAM: usize = 12;
const MAX_PLY: u32 = 64;

/// Window value by marks still needed.
#[inline]
fn need_score(need: u32) -> i32 {
    match need {
        0 => 0,
        1 => 4096,
        2 => 512,
        3 => 64,
        _ => 8,
    }
}

const DIRS: [Direction; 4] = Direction::ALL;

/// The search engine. Made per move by [`Player`](super::Player); usable
/// directly for analysis.
pub struct Engine<'a> {
    budget: Budget<'a>,
    rng: Rng,
    stats: SearchStats,
    aborted: bool,
    rules: Rules,
    k: u32,
    cells: [u8; 256],
    /// Marks of each side in each window (id = start square * 4 + direction).
    counts: [[u8; 2]; 1024],
    /// Windows with k-1 marks of a side and none of the other: a count and
    /// a bitset of window ids per side.
    fours: [u32; 2],
    four_set: [[u64; 16]; 2],
    /// Number of marks within two steps of each cell.
    near: [u8; 256],
    /// Evaluation from X's point of view.
    eval_x: i32,
    turn: Mark,
    marks: u32,
}

impl<'a> Engine<'a> {
    /// An engine with this budget; `seed` perturbs the order of equal moves.
    pub fn new(budget: Budget<'a>, seed: u64) -> Engine<'a> {
        Engine {
            budget,
            rng: Rng::new(seed),
            stats: SearchStats::default(),
            aborted: false,
            rules: Rules::CLASSIC,
            k: 3,
            cells: [0; 256],
            counts: [[0; 2]; 1024],
            fours: [0; 2],
            four_set: [[0; 16]; 2],
            near: [0; 256],
            eval_x: 0,
            turn: Mark::X,
            marks: 0,
        }
    }

    /// Counters of the last search.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    fn load(&mut self, pos: &Position) {
        self.rules = *pos.rules();
        self.k = self.rules.k() as u32;
        self.cells = [0; 256];
        self.counts = [[0; 2]; 1024];
        self.fours = [0; 2];
        self.four_set = [[0; 16]; 2];
        self.near = [0; 256];
        self.eval_x = 0;
        self.marks = 0;
        self.turn = Mark::X;
        if self.k == 1 {
            // Every empty cell is a one-cell window missing one mark.
            let cells = self.rules.cell_count() as u32;
            self.fours = [cells, cells];
            for sq in self.rules.squares() {
                let w = sq.index() * 4;
                for side in 0..2 {
                    self.four_set[side][w / 64] |= 1 << (w % 64);
                }
            }
        }
        for mark in Mark::ALL {
            for sq in pos.marks(mark) {
                self.apply(sq, mark);
            }
        }
        self.turn = pos.side_to_move();
    }

    /// The window ids through `sq` (up to 4k <= 64 of them).
    #[inline]
    fn windows(&self, sq: Square) -> ([u16; 64], usize) {
        let mut ids = [0u16; 64];
        let mut n = 0;
        self.for_windows(sq, |w| {
            ids[n] = w as u16;
            n += 1;
        });
        (ids, n)
    }

    /// The window ids through `sq` (up to 4k of them), passed to `f`.
    #[inline]
    fn for_windows(&self, sq: Square, mut f: impl FnMut(usize)) {
        let (x, y) = (sq.column() as i32, sq.row() as i32);
        let k = self.k as i32;
        let (w, h) = (self.rules.columns() as i32, self.rules.rows() as i32);
        let ndirs = if k == 1 { 1 } else { 4 };
        const DELTA: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        for (d, &(dx, dy)) in DELTA.iter().enumerate().take(ndirs) {
            // Offsets o: the window starts o steps back from `sq`.
            let (mut lo, mut hi) = (0, k - 1);
            if dx == 1 {
                hi = hi.min(x);
                lo = lo.max(x + k - w);
            }
            if dy == 1 {
                hi = hi.min(y);
                lo = lo.max(y + k - h);
            } else if dy == -1 {
                lo = lo.max(k - 1 - y);
                hi = hi.min(h - 1 - y);
            }
            for o in lo..=hi {
                let (sx, sy) = (x - o * dx, y - o * dy);
                f(((sy * 16 + sx) * 4) as usize + d);
            }
        }
    }

    #[inline]
    fn contrib(&self, c: [u8; 2]) -> i32 {
        if c[1] == 0 && c[0] > 0 {
            need_score(self.k - c[0] as u32)
        } else if c[0] == 0 && c[1] > 0 {
            -need_score(self.k - c[1] as u32)
        } else {
            0
        }
    }

    #[inline]
    fn set_four(&mut self, side: usize, w: usize, on: bool) {
        if on {
            self.fours[side] += 1;
            self.four_set[side][w / 64] |= 1 << (w % 64);
        } else {
            self.fours[side] -= 1;
            self.four_set[side][w / 64] &= !(1 << (w % 64));
        }
    }

    /// Puts `mark` on `sq`; returns whether it completes a line.
    fn apply(&mut self, sq: Square, mark: Mark) -> bool {
        let m = mark.index();
        let o = 1 - m;
        let k1 = self.k as u8 - 1;
        let mut won = false;
        let (ids, count) = self.windows(sq);
        for &w in &ids[..count] {
            let w = w as usize;
            let c = self.counts[w];
            self.eval_x -= self.contrib(c);
            if c[o] == 0 && c[m] == k1 {
                self.set_four(m, w, false);
            }
            if c[m] == 0 && c[o] == k1 {
                self.set_four(o, w, false);
            }
            let mut n = c;
            n[m] += 1;
            if n[m] as u32 >= self.k {
                won = true;
            }
            if n[o] == 0 && n[m] == k1 {
                self.set_four(m, w, true);
            }
            self.eval_x += self.contrib(n);
            self.counts[w] = n;
        }
        self.cells[sq.index()] = m as u8 + 1;
        self.bump_near(sq, true);
        self.marks += 1;
        self.turn = mark.other();
        won
    }

    fn unapply(&mut self, sq: Square, mark: Mark) {
        let m = mark.index();
        let o = 1 - m;
        let k1 = self.k as u8 - 1;
        let (ids, count) = self.windows(sq);
        for &w in &ids[..count] {
            let w = w as usize;
            let c = self.counts[w];
            self.eval_x -= self.contrib(c);
            if c[o] == 0 && c[m] == k1 {
                self.set_four(m, w, false);
            }
            let mut n = c;
            n[m] -= 1;
            if n[o] == 0 && n[m] == k1 {
                self.set_four(m, w, true);
            }
            if n[m] == 0 && n[o] == k1 {
                self.set_four(o, w, true);
            }
            self.eval_x += self.contrib(n);
            self.counts[w] = n;
        }
        self.cells[sq.index()] = 0;
        self.bump_near(sq, false);
        self.marks -= 1;
        self.turn = mark;
    }

    fn bump_near(&mut self, sq: Square, add: bool) {
        let (c, r) = (sq.column() as i16, sq.row() as i16);
        for dr in -2..=2i16 {
            for dc in -2..=2i16 {
                let (nc, nr) = (c + dc, r + dr);
                if nc < 0
                    || nr < 0
                    || nc >= self.rules.columns() as i16
                    || nr >= self.rules.rows() as i16
                {
                    continue;
                }
                let i = (nr * 16 + nc) as usize;
                if add {
                    self.near[i] += 1;
                } else {
                    self.near[i] -= 1;
                }
            }
        }
    }

    /// The empty cells where `mark` completes a line: (first, how many; at
    /// most 2 counted).
    fn winning_cells(&self, mark: Mark) -> (Option<Square>, u32) {
        let m = mark.index();
        if self.fours[m] == 0 {
            return (None, 0);
        }
        let k = self.k as i8;
        let mut first: Option<Square> = None;
        for (word_index, &word) in self.four_set[m].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let w = word_index * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let start = Square::from_index((w / 4) as u8);
                let dir = DIRS[w % 4];
                for i in 0..k {
                    let Some(cell) = start.step(dir, i) else {
                        break;
                    };
                    if self.cells[cell.index()] == 0 {
                        match first {
                            None => first = Some(cell),
                            Some(f) if f != cell => return (first, 2),
                            _ => {}
                        }
                        break;
                    }
                }
            }
        }
        (first, first.is_some() as u32)
    }

    /// How much playing `sq` gains for `mark` and would gain for the other
    /// side (evaluation changes, each from its own view).
    fn gains(&self, sq: Square, mark: Mark) -> (i32, i32) {
        let m = mark.index();
        let o = 1 - m;
        let mut g = [0i32; 2];
        self.for_windows(sq, |w| {
            let c = self.counts[w];
            for (side, other, out) in [(m, o, 0), (o, m, 1)] {
                if c[other] == 0 {
                    let have = c[side] as u32;
                    g[out] += need_score(self.k - have - 1)
                        - if have > 0 {
                            need_score(self.k - have)
                        } else {
                            0
                        };
                } else if c[side] == 0 {
                    g[out] += need_score(self.k - c[other] as u32);
                }
            }
        });
        (g[0], g[1])
    }

    fn budget_exhausted(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.stats.nodes >= self.budget.max_nodes {
            self.aborted = true;
        } else if self.stats.nodes & 1023 == 0 {
            if let Some(f) = self.budget.deadline_check {
                if f() {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// Candidate moves, best first (the best `out.len()`, equal keys in
    /// row-major order); returns the count.
    fn candidates(&mut self, out: &mut [(i32, Square)], jitter: bool) -> usize {
        let me = self.turn;
        let mut n = 0;
        for sq in self.rules.squares() {
            let i = sq.index();
            if self.cells[i] != 0 || (self.marks > 0 && self.near[i] == 0) {
                continue;
            }
            let mut key = if self.marks == 0 {
                -(self.rules.distance_from_centre(sq) as i32)
            } else {
                let (mine, theirs) = self.gains(sq, me);
                mine * 2 + theirs
            };
            if jitter {
                key = key * 4 + self.rng.below(4) as i32;
            }
            if n == out.len() && out[n - 1].0 >= key {
                continue;
            }
            let mut j = if n < out.len() { n } else { n - 1 };
            while j > 0 && out[j - 1].0 < key {
                out[j] = out[j - 1];
                j -= 1;
            }
            out[j] = (key, sq);
            if n < out.len() {
                n += 1;
            }
        }
        n
    }

    fn static_eval(&self) -> i32 {
        let e = match self.turn {
            Mark::X => self.eval_x,
            Mark::O => -self.eval_x,
        };
        e + 16
    }

    fn search(&mut self, depth: i32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.stats.nodes += 1;
        if self.budget_exhausted() {
            return 0;
        }
        let me = self.turn;
        if self.winning_cells(me).1 > 0 {
            return WIN - ply as i32 - 1;
        }
        if self.marks as usize == self.rules.cell_count() {
            return 0;
        }
        let (block, threats) = self.winning_cells(me.other());
        if threats >= 2 {
            return -(WIN - ply as i32 - 2);
        }
        if let Some(sq) = block {
            if ply >= MAX_PLY {
                return self.static_eval();
            }
            self.apply(sq, me);
            let v = -self.search(depth, ply + 1, -beta, -alpha);
            self.unapply(sq, me);
            return v;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.static_eval();
        }
        let mut list = [(0, Square::from_index(0)); BEAM];
        let n = self.candidates(&mut list, false);
        if n == 0 {
            return 0;
        }
        let mut best = -WIN;
        for &(_, sq) in &list[..n] {
            self.apply(sq, me);
            let v = -self.search(depth - 1, ply + 1, -beta, -alpha);
            self.unapply(sq, me);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The move to play in `pos` (`None` when the game is over), and its
    /// score (positive: good for the side to move).
    pub fn analyse(&mut self, pos: &Position) -> Option<(Square, i32)> {
        self.stats = SearchStats::default();
        self.aborted = false;
        if pos.outcome().is_over() {
            return None;
        }
        self.load(pos);
        let me = self.turn;
        // Tactics first, whatever the budget.
        if let (Some(sq), _) = self.winning_cells(me) {
            return Some((sq, WIN - 1));
        }
        if let (Some(sq), n) = self.winning_cells(me.other()) {
            return Some((sq, if n >= 2 { -(WIN - 2) } else { 0 }));
        }
        let mut root = [(0, Square::from_index(0)); 256];
        let n = self.candidates(&mut root, true);
        if n == 0 {
            return pos.legal_moves().first().map(|sq| (sq, 0));
        }
        if n == 1 {
            return Some((root[0].1, 0));
        }
        let mut best = (root[0].1, 0);
        let max_depth = match self.budget.max_depth {
            0 => MAX_PLY,
            d => d.min(MAX_PLY),
        };
        for depth in 1..=max_depth {
            let mut alpha = -WIN - 1;
            let mut iter_best: Option<(Square, i32, usize)> = None;
            for (i, &(_, sq)) in root[..n].iter().enumerate() {
                self.apply(sq, me);
                let v = -self.search(depth as i32 - 1, 1, -WIN - 1, -alpha);
                self.unapply(sq, me);
                if self.aborted {
                    break;
                }
                if v > alpha {
                    alpha = v;
                    iter_best = Some((sq, v, i));
                }
            }
            if self.aborted {
                // A partial iteration still counts if its best beats the
                // previous one's move as searched so far (searched first).
                if let Some((sq, v, i)) = iter_best {
                    if i > 0 {
                        best = (sq, v);
                    }
                }
                break;
            }
            self.stats.depth = depth;
            if let Some((sq, v, i)) = iter_best {
                best = (sq, v);
                // Best move first next time.
                let item = root[i];
                for j in (1..=i).rev() {
                    root[j] = root[j - 1];
                }
                root[0] = item;
            }
            if best.1.abs() >= MATE_BOUND || depth as usize >= pos.empty_squares().len() {
                break;
            }
        }
        Some(best)
    }

    /// The move to play (`None` when the game is over).
    pub fn best_move(&mut self, pos: &Position) -> Option<Square> {
        self.analyse(pos).map(|(sq, _)| sq)
    }
}
