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
//!   The side to move gets a bonus per three-window of its own (k-2 marks,
//!   none of the other's; up to four count): it makes a four from one
//!   before the opponent can, so equal shapes are not worth the same to
//!   both sides (won 13 pairs, lost 4 of 40 against the symmetric version,
//!   200 ms/move on 15x15).
//! * Tactics at every node: a win in one is taken; two opponent winning
//!   cells (a double threat) is a loss; a single one must be blocked, and that
//!   forced reply does not use up depth. Against an open three (a cell
//!   that gives the opponent two winning cells at once) only its blocks and
//!   our fours are searched; our own such cell against an opponent with no
//!   three-window at all is a win. Past the horizon, moves that make a four
//!   are still searched (up to 4 in a row), so short continuous-four wins
//!   are seen beyond the depth.
//! * Threat search at the root ([`vcf`]): a win by continuous fours (VCF)
//!   or by fours and threes (VCT) is played at once; against an opponent's
//!   VCF only the moves that stop it are searched.
//! * A transposition table lent by the caller (empty works: the console
//!   may lend none) gives each node its best move of earlier searches,
//!   across moves too; then two killer moves per ply. Principal-variation
//!   search (null windows after the first move) and late quiet moves one
//!   ply shallower.
//! * An empty board is answered without a search: the centre, or on even
//!   sides one of the cells next to it, picked by the seed.
//! * Candidate moves: empty cells within two steps of a mark, ordered by
//!   how much they gain for the side to move plus how much they would gain
//!   for the opponent; inside the tree only the best 12 are searched. At the root the seed perturbs the order slightly,
//!   so equal moves differ between seeds (same seed, same move).
//! * Cost per node: nothing is rescored. A move updates only the windows
//!   through its cell, each with one lookup in a step table (evaluation,
//!   ordering-key, threat and win changes by the window's counts), and adds
//!   the key changes to the cells of each line as a running sum; candidates
//!   come from per-row occupancy bitmasks. This matters most on the console
//!   (MIPS II), where a node costs 100-200 us.
use super::tt::{self, TtEntry, EXACT, LOWER, NO_MOVE, UPPER};
use super::SearchStats;
use crate::rng::Rng;
use crate::{zobrist, Direction, Mark, Position, Rules, Square, WinCondition, MAX_CELLS, MAX_SIDE};
use vcf::{RootVcf, Vcf};

mod vcf;

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
/// Fours searched past the horizon, at most, in a row.
const FOUR_PLIES: i32 = 4;
/// Static bonus per three-window of the side to move (at most 4 count).
const TEMPO_THREE: i32 = 256;

/// Mixed into strong's hashes so its table entries never match the exact
/// solver's (canonical) keys for the same position.
const STRONG_SALT: u64 = 0x5354_524f_4e47_0001;
/// Table flag: the entry holds a best move but no usable bound (its value
/// did not fit the entry's 16 bits).
const MOVE_ONLY: u8 = 8;
/// Table values: a win or loss `d` plies from the stored node is kept as
/// `±(TT_WIN - d)`; other values must lie within `±TT_EVAL_MAX`.
const TT_WIN: i32 = 32_000;
const TT_EVAL_MAX: i32 = 30_000;

/// The search value `v` at `ply` as stored in the table (`None`: does not
/// fit), relative to the node so a transposition at another ply reads the
/// same distance to the end.
fn value_to_tt(v: i32, ply: u32) -> Option<i16> {
    let ply = ply as i32;
    if v >= MATE_BOUND {
        let d = WIN - v - ply;
        (0..TT_WIN - TT_EVAL_MAX)
            .contains(&d)
            .then(|| (TT_WIN - d) as i16)
    } else if v <= -MATE_BOUND {
        let d = WIN + v - ply;
        (0..TT_WIN - TT_EVAL_MAX)
            .contains(&d)
            .then(|| -(TT_WIN - d) as i16)
    } else {
        (v.abs() <= TT_EVAL_MAX).then_some(v as i16)
    }
}

/// A stored value read back at `ply` (the inverse of [`value_to_tt`]).
fn value_from_tt(v: i16, ply: u32) -> i32 {
    let (v, ply) = (i32::from(v), ply as i32);
    if v > TT_EVAL_MAX {
        WIN - (TT_WIN - v) - ply
    } else if v < -TT_EVAL_MAX {
        -(WIN - (TT_WIN + v) - ply)
    } else {
        v
    }
}

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

/// Window mark counts run from 0 to k <= 20.
const MAX_COUNT: usize = MAX_SIDE as usize + 1;

/// Square index step along each direction of [`DIRS`] (index = row *
/// [`Square::STRIDE`] + column), as a wrapping add.
const INDEX_STEP: [usize; 4] = [
    1,
    Square::STRIDE,
    Square::STRIDE + 1,
    0usize.wrapping_sub(Square::STRIDE - 1),
];

/// Window ids: a square's index * 4 + direction.
const WINDOW_IDS: usize = MAX_CELLS * 4;

/// 64-bit words of a bitset of window ids.
const WINDOW_WORDS: usize = WINDOW_IDS.div_ceil(64);

/// What one more mark of a side changes in a window with given counts.
#[derive(Copy, Clone)]
struct WindowStep {
    /// Evaluation change (X's view).
    value: i16,
    /// Change of the window's share of each of its cells' keys, by side to
    /// move.
    key: [i16; 2],
    /// Bit per side: whether the window's "k-1 of that side, none of the
    /// other" state changes (bits 0-1), and its "k-2 of that side, none of
    /// the other" state (bits 2-3).
    four_flips: u8,
    /// Bits as in `four_flips`: those states after the mark.
    upper_fours: u8,
    /// Whether the mark completes the window.
    completes: bool,
}

impl WindowStep {
    const NONE: WindowStep = WindowStep {
        value: 0,
        key: [0, 0],
        four_flips: 0,
        upper_fours: 0,
        completes: false,
    };
}

/// Inserts `(key, sq)` into `out[..n]` (sorted by key, best first, equal
/// keys in arrival order), dropping the worst entry when full; returns the
/// new length.
#[inline]
fn insert_ranked(out: &mut [(i32, Square)], n: usize, key: i32, sq: Square) -> usize {
    let len = out.len();
    if len == 0 || (n == len && out[n - 1].0 >= key) {
        return n;
    }
    let mut j = if n < len { n } else { n - 1 };
    while j > 0 && out[j - 1].0 < key {
        out[j] = out[j - 1];
        j -= 1;
    }
    out[j] = (key, sq);
    if n < len {
        n + 1
    } else {
        n
    }
}

/// The cells of per-row column masks (bit c of `rows[r]`: the cell in
/// column c of row r), row by row: how `three_cells`, `frontier` and the
/// threat sets hand out cells.
fn cells_of(rows: [u32; MAX_SIDE as usize]) -> impl Iterator<Item = Square> {
    rows.into_iter().enumerate().flat_map(|(row, mut bits)| {
        core::iter::from_fn(move || {
            (bits != 0).then(|| {
                let column = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Square::from_index((row * Square::STRIDE + column) as u16)
            })
        })
    })
}

/// How much one more mark of a side in a window gains that side (`have`:
/// its marks there, `theirs`: the other side's): a one-sided window grows,
/// an opponent's window dies, a dead window stays dead.
fn window_gain(k: u32, have: u32, theirs: u32) -> i32 {
    if theirs == 0 {
        let before = if have > 0 {
            need_score(k.saturating_sub(have))
        } else {
            0
        };
        need_score(k.saturating_sub(have + 1)) - before
    } else if have == 0 {
        need_score(k.saturating_sub(theirs))
    } else {
        0
    }
}

/// The search engine. Made per move by [`Player`](super::Player); usable
/// directly for analysis.
pub struct Engine<'a> {
    budget: Budget<'a>,
    /// The transposition table lent by the caller (may be empty): best
    /// moves and bounds of positions already searched, also across moves.
    tt: &'a mut [TtEntry],
    /// Zobrist hash of the marks (salted by the rules), kept move by move.
    hash: u64,
    salt: u64,
    /// Two quiet moves per ply that caused a cut-off, tried early at other
    /// nodes of the same ply.
    killers: [[u16; 2]; MAX_PLY as usize + 2],
    rng: Rng,
    stats: SearchStats,
    aborted: bool,
    rules: Rules,
    k: u32,
    cells: [u8; MAX_CELLS],
    /// Marks of each side in each window (id = start square * 4 +
    /// direction), coded `x * MAX_COUNT + o`: one number indexes `steps`.
    counts: [u16; WINDOW_IDS],
    /// Windows with k-1 marks of a side and none of the other: a count and
    /// a bitset of window ids per side.
    fours: [u32; 2],
    four_set: [[u64; WINDOW_WORDS]; 2],
    /// Windows with k-2 marks of a side and none of the other (k >= 3): a
    /// mark on an empty cell shared by two of them makes two winning cells.
    three_set: [[u64; WINDOW_WORDS]; 2],
    threes: [u32; 2],
    /// Per row, a bit per column: the occupied cells (the candidates are
    /// the empty cells within two steps of these).
    occupied: [u32; MAX_SIDE as usize],
    /// Each cell's move-ordering key for each side to move (2 x its gain for
    /// that side + its gain for the other), summed over the windows through
    /// it and kept up to date as windows change, so ordering the candidates
    /// reads one number per cell instead of rescoring 4k windows.
    cell_key: [[i32; 2]; MAX_CELLS],
    /// What one more mark changes in a window, by side and the window's
    /// counts before it (coded as in `counts`); a take-back undoes the entry
    /// of the counts after it.
    steps: [[WindowStep; MAX_COUNT * MAX_COUNT]; 2],
    /// The key change (by side to move) of each window along the line being
    /// updated (scratch space, so the hot path clears nothing).
    line_deltas: [[i32; 2]; MAX_SIDE as usize],
    /// Evaluation from X's point of view.
    eval_x: i32,
    turn: Mark,
    marks: u32,
}

impl<'a> Engine<'a> {
    /// An engine with this budget; `seed` perturbs the order of equal moves.
    pub fn new(budget: Budget<'a>, seed: u64) -> Engine<'a> {
        Engine::with_table(budget, seed, &mut [])
    }

    /// An engine that keeps what it learns in `tt` (entries of other
    /// engines, other rules or earlier moves may be there: keys tell them
    /// apart). The table makes the search deeper, not different in kind:
    /// an empty one works.
    pub fn with_table(budget: Budget<'a>, seed: u64, tt: &'a mut [TtEntry]) -> Engine<'a> {
        Engine {
            budget,
            tt,
            hash: 0,
            salt: 0,
            killers: [[NO_MOVE; 2]; MAX_PLY as usize + 2],
            rng: Rng::new(seed),
            stats: SearchStats::default(),
            aborted: false,
            rules: Rules::CLASSIC,
            k: 3,
            cells: [0; MAX_CELLS],
            counts: [0; WINDOW_IDS],
            fours: [0; 2],
            four_set: [[0; WINDOW_WORDS]; 2],
            three_set: [[0; WINDOW_WORDS]; 2],
            threes: [0; 2],
            occupied: [0; MAX_SIDE as usize],
            cell_key: [[0; 2]; MAX_CELLS],
            steps: [[WindowStep::NONE; MAX_COUNT * MAX_COUNT]; 2],
            line_deltas: [[0; 2]; MAX_SIDE as usize],
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
        self.cells = [0; MAX_CELLS];
        self.counts = [0; WINDOW_IDS];
        self.fours = [0; 2];
        self.four_set = [[0; WINDOW_WORDS]; 2];
        self.three_set = [[0; WINDOW_WORDS]; 2];
        self.threes = [0; 2];
        self.occupied = [0; MAX_SIDE as usize];
        self.fill_window_keys();
        self.eval_x = 0;
        self.marks = 0;
        self.turn = Mark::X;
        self.salt = tt::salt(&self.rules) ^ STRONG_SALT;
        self.hash = self.salt;
        self.killers = [[NO_MOVE; 2]; MAX_PLY as usize + 2];
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

    fn fill_window_keys(&mut self) {
        let k = self.k;
        // A window's share of each of its cells' keys by side to move, and
        // of the evaluation (X's view), by its counts (X, O).
        let mut window_key = [[[0i32; MAX_COUNT]; MAX_COUNT]; 2];
        let mut window_value = [[0i32; MAX_COUNT]; MAX_COUNT];
        for x in 0..MAX_COUNT {
            for o in 0..MAX_COUNT {
                let (gx, go) = (
                    window_gain(k, x as u32, o as u32),
                    window_gain(k, o as u32, x as u32),
                );
                window_key[0][x][o] = 2 * gx + go;
                window_key[1][x][o] = 2 * go + gx;
                window_value[x][o] = self.contrib([x as u8, o as u8]);
            }
        }
        let k1 = k as usize - 1;
        // Threes only mean something with k >= 3 (else an empty window
        // would be one).
        let k2 = if k >= 3 { k as usize - 2 } else { usize::MAX };
        let fours = |x: usize, o: usize| {
            u8::from(o == 0 && x == k1)
                | u8::from(x == 0 && o == k1) << 1
                | u8::from(o == 0 && x == k2) << 2
                | u8::from(x == 0 && o == k2) << 3
        };
        for side in 0..2 {
            for x in 0..MAX_COUNT {
                for o in 0..MAX_COUNT {
                    let (ux, uo) = if side == 0 { (x + 1, o) } else { (x, o + 1) };
                    if ux >= MAX_COUNT || uo >= MAX_COUNT {
                        continue;
                    }
                    // Every change fits in i16: |key| <= 3 * 4096 per window.
                    let narrow = |v: i32| v.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
                    let upper_fours = fours(ux, uo);
                    self.steps[side][x * MAX_COUNT + o] = WindowStep {
                        value: narrow(window_value[ux][uo] - window_value[x][o]),
                        key: [0, 1].map(|s| narrow(window_key[s][ux][uo] - window_key[s][x][o])),
                        four_flips: fours(x, o) ^ upper_fours,
                        upper_fours,
                        completes: ux.max(uo) >= k as usize,
                    };
                }
            }
        }
        self.cell_key = [[0; 2]; MAX_CELLS];
        // Every window starts empty: add its share to each of its cells.
        for sq in self.rules.squares() {
            let mut windows = 0;
            self.for_windows(sq, |_| windows += 1);
            for (side, key) in self.cell_key[sq.index()].iter_mut().enumerate() {
                *key = windows * window_key[side][0][0];
            }
        }
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
            let (lo, hi) = window_offsets((x, y), (dx, dy), k, (w, h));
            for o in lo..=hi {
                let (sx, sy) = (x - o * dx, y - o * dy);
                f((sy as usize * Square::STRIDE + sx as usize) * 4 + d);
            }
        }
    }

    /// A window's share of the evaluation (X's view); counts above k (table
    /// entries never used) saturate.
    fn contrib(&self, c: [u8; 2]) -> i32 {
        if c[1] == 0 && c[0] > 0 {
            need_score(self.k.saturating_sub(c[0] as u32))
        } else if c[0] == 0 && c[1] > 0 {
            -need_score(self.k.saturating_sub(c[1] as u32))
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
        let won = self.update_windows(sq, mark.index(), true);
        self.hash ^= zobrist::key_at(mark, sq.index());
        self.cells[sq.index()] = mark.index() as u8 + 1;
        self.occupied[sq.row() as usize] |= 1 << sq.column();
        self.marks += 1;
        self.turn = mark.other();
        won
    }

    /// Takes `mark` back off `sq`.
    fn unapply(&mut self, sq: Square, mark: Mark) {
        self.update_windows(sq, mark.index(), false);
        self.hash ^= zobrist::key_at(mark, sq.index());
        self.cells[sq.index()] = 0;
        self.occupied[sq.row() as usize] &= !(1 << sq.column());
        self.marks -= 1;
        self.turn = mark;
    }

    /// Adds (or removes) a mark of side `m` on `sq` in every window through
    /// it: counts, evaluation, fours, and the ordering keys of the cells on
    /// those lines. Returns whether a window is now complete.
    fn update_windows(&mut self, sq: Square, m: usize, add: bool) -> bool {
        let k = self.k as i32;
        let (x, y) = (sq.column() as i32, sq.row() as i32);
        let (w, h) = (self.rules.columns() as i32, self.rules.rows() as i32);
        let ndirs = if k == 1 { 1 } else { 4 };
        const DELTA: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        let mut won = false;
        for (d, &(dx, dy)) in DELTA.iter().enumerate().take(ndirs) {
            let (lo, hi) = window_offsets((x, y), (dx, dy), k, (w, h));
            if lo > hi {
                continue;
            }
            // The windows in line order (offset hi first); the key change of
            // each for its side to move.
            let count = (hi - lo + 1) as usize;
            let mut changed = false;
            // One more mark of side m: its count goes up by one.
            let unit = [MAX_COUNT as u16, 1][m];
            let step_index = INDEX_STEP[d];
            let mut start = sq
                .index()
                .wrapping_sub(step_index.wrapping_mul(hi as usize));
            for j in 0..count {
                let id = start * 4 + d;
                start = start.wrapping_add(step_index);
                let code = self.counts[id];
                let (lower, upper) = if add {
                    (code, code + unit)
                } else {
                    (code - unit, code)
                };
                let step = self.steps[m][lower as usize];
                // Adding moves a window from `lower` to `upper`; taking back,
                // the other way.
                let (value, key) = (i32::from(step.value), step.key.map(i32::from));
                if add {
                    self.counts[id] = upper;
                    self.eval_x += value;
                    won |= step.completes;
                    self.line_deltas[j] = key;
                } else {
                    self.counts[id] = lower;
                    self.eval_x -= value;
                    self.line_deltas[j] = [-key[0], -key[1]];
                }
                changed |= (key[0] | key[1]) != 0;
                if step.four_flips != 0 {
                    for side in 0..2 {
                        if step.four_flips >> side & 1 != 0 {
                            let upper_four = step.upper_fours >> side & 1 != 0;
                            self.set_four(side, id, upper_four == add);
                        }
                        if step.four_flips >> (side + 2) & 1 != 0 {
                            let on = (step.upper_fours >> (side + 2) & 1 != 0) == add;
                            let bit = 1u64 << (id % 64);
                            let word = &mut self.three_set[side][id / 64];
                            if on {
                                *word |= bit;
                                self.threes[side] += 1;
                            } else {
                                *word &= !bit;
                                self.threes[side] -= 1;
                            }
                        }
                    }
                }
            }
            if !changed {
                continue;
            }
            // Each cell on the line gets the sum of the changes of the
            // windows covering it: a running sum as windows enter and leave.
            let step = INDEX_STEP[d];
            let mut cell = sq.index().wrapping_sub(step.wrapping_mul(hi as usize));
            let ku = self.k as usize;
            let mut acc = [0i32; 2];
            // count <= k: windows enter on the first `count` cells, none
            // enter or leave until cell k, then they leave one by one.
            for delta in &self.line_deltas[..count] {
                acc[0] += delta[0];
                acc[1] += delta[1];
                let key = &mut self.cell_key[cell];
                key[0] += acc[0];
                key[1] += acc[1];
                cell = cell.wrapping_add(step);
            }
            for _ in count..ku {
                let key = &mut self.cell_key[cell];
                key[0] += acc[0];
                key[1] += acc[1];
                cell = cell.wrapping_add(step);
            }
            for delta in &self.line_deltas[..count - 1] {
                acc[0] -= delta[0];
                acc[1] -= delta[1];
                let key = &mut self.cell_key[cell];
                key[0] += acc[0];
                key[1] += acc[1];
                cell = cell.wrapping_add(step);
            }
        }
        won
    }

    /// Per row, a bit per column: the empty cells within two steps of a
    /// mark (the candidates once the board is not empty).
    fn frontier(&self) -> [u32; MAX_SIDE as usize] {
        let rows = self.rules.rows() as usize;
        let all = (1u32 << self.rules.columns()) - 1;
        let mut spread = [0u32; MAX_SIDE as usize];
        for (out, &r) in spread.iter_mut().zip(&self.occupied[..rows]) {
            *out = (r | r << 1 | r << 2 | r >> 1 | r >> 2) & all;
        }
        let mut front = [0u32; MAX_SIDE as usize];
        for r in 0..rows {
            let mut near = 0;
            for s in &spread[r.saturating_sub(2)..(r + 3).min(rows)] {
                near |= s;
            }
            front[r] = near & !self.occupied[r];
        }
        front
    }

    /// The empty cells where `mark` completes a winning line: (first, how
    /// many; at most 2 counted). Under "exactly k" a window whose
    /// completion would touch another `mark` at either end makes an
    /// overline, which does not win, so it is skipped.
    fn winning_cells(&self, mark: Mark) -> (Option<Square>, u32) {
        let m = mark.index();
        if self.fours[m] == 0 {
            return (None, 0);
        }
        let k = self.k as i8;
        let exact = self.rules.win_condition() == WinCondition::ExactlyK
            || (self.rules.is_renju() && mark == Mark::X);
        // Windows start on the board: only the words of its rows can be set.
        let used = (self.rules.rows() as usize * Square::STRIDE * 4).div_ceil(64);
        let mut first: Option<Square> = None;
        for (word_index, &word) in self.four_set[m][..used].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let w = word_index * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let start = Square::from_index((w / 4) as u16);
                let dir = DIRS[w % 4];
                if exact
                    && (self.holds(start.step(dir, -1), m) || self.holds(start.step(dir, k), m))
                {
                    continue;
                }
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

    /// The empty cells of side `m`'s three-windows, per row a bit per
    /// column: `(in at least one, in at least two)`. A mark on a cell of
    /// the first kind makes a four; on one of the second, two winning
    /// cells at once (an open four, or two fours).
    fn three_cells(&self, m: usize) -> ([u32; MAX_SIDE as usize], [u32; MAX_SIDE as usize]) {
        let mut once = [0u32; MAX_SIDE as usize];
        let mut twice = [0u32; MAX_SIDE as usize];
        let used = (self.rules.rows() as usize * Square::STRIDE * 4).div_ceil(64);
        for (word_index, &word) in self.three_set[m][..used].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let w = word_index * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let step = INDEX_STEP[w % 4];
                let mut cell = w / 4;
                for _ in 0..self.k {
                    if self.cells[cell] == 0 {
                        let (row, bit) = (cell / Square::STRIDE, 1u32 << (cell % Square::STRIDE));
                        twice[row] |= once[row] & bit;
                        once[row] |= bit;
                    }
                    cell = cell.wrapping_add(step);
                }
            }
        }
        (once, twice)
    }

    /// When the opponent threatens two winning cells in one move (an open
    /// three, or two threes crossing) and has no four: the only moves that
    /// are not lost to it, per row a bit per column. They are the empty
    /// cells of the opponent's three-windows (a move elsewhere leaves every
    /// one of them, so the double threat stands) and the moves that make a
    /// four of our own (a counter-attack the opponent must answer). `None`
    /// when there is no such threat, or under "exactly k" (where an
    /// overline changes which windows count).
    fn threat_replies(&self) -> Option<[u32; MAX_SIDE as usize]> {
        // Under renju a fork of black's may be a forbidden cell: white need
        // not answer it.
        if self.rules.win_condition() == WinCondition::ExactlyK
            || self.k < 3
            || (self.rules.is_renju() && self.turn == Mark::O)
        {
            return None;
        }
        let me = self.turn.index();
        let (theirs, forks) = self.three_cells(1 - me);
        if forks.iter().all(|&r| r == 0) {
            return None;
        }
        let (mine, _) = self.three_cells(me);
        let mut replies = [0u32; MAX_SIDE as usize];
        for ((out, t), m) in replies.iter_mut().zip(theirs).zip(mine) {
            *out = t | m;
        }
        Some(replies)
    }

    /// Whether the side to move (the opponent having no four) wins by
    /// playing a cell shared by two of its three-windows that really makes
    /// two winning cells (x.xx.x makes one), and the opponent, without a
    /// single three-window, cannot answer with a four. Not used under
    /// "exactly k".
    fn wins_by_fork(&mut self) -> bool {
        let me = self.turn.index();
        if self.threes[1 - me] != 0
            || self.threes[me] < 2
            || self.k < 3
            || self.rules.win_condition() == WinCondition::ExactlyK
            || self.forbids(self.turn)
        {
            return false;
        }
        let (_, forks) = self.three_cells(me);
        self.fork_cell(self.turn, &forks).is_some()
    }

    /// Whether `mark` has forbidden moves: black (X) under renju.
    #[inline]
    fn forbids(&self, mark: Mark) -> bool {
        mark == Mark::X && self.rules.is_renju()
    }

    /// Whether `mark` may not play the empty `sq`: a renju forbidden move
    /// of black.
    fn is_forbidden(&self, sq: Square, mark: Mark) -> bool {
        if !self.forbids(mark) {
            return false;
        }
        let cells = &self.cells;
        let stones = |s: Square| match cells[s.index()] {
            1 => Some(Mark::X),
            2 => Some(Mark::O),
            _ => None,
        };
        crate::renju::forbidden(&self.rules, &stones, sq).is_some()
    }

    /// Whether `square` is on the board and holds a mark of side `m`.
    #[inline]
    fn holds(&self, square: Option<Square>, m: usize) -> bool {
        square.is_some_and(|sq| {
            self.rules.contains(sq) && usize::from(self.cells[sq.index()]) == m + 1
        })
    }

    /// How much playing `sq` gains for `mark` and would gain for the other
    /// side (evaluation changes, each from its own view), rescored from the
    /// windows: what `cell_key` keeps incrementally (checked in the tests).
    #[cfg(test)]
    fn gains(&self, sq: Square, mark: Mark) -> (i32, i32) {
        let m = mark.index();
        let o = 1 - m;
        let mut g = [0i32; 2];
        self.for_windows(sq, |w| {
            let code = self.counts[w] as usize;
            let c = [code / MAX_COUNT, code % MAX_COUNT];
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
        let me = self.turn.index();
        let mut front = self.frontier();
        if let Some(replies) = self.threat_replies() {
            for (f, r) in front.iter_mut().zip(replies) {
                *f &= r;
            }
        }
        let mut n = 0;
        for (row, &row_front) in front.iter().enumerate().take(self.rules.rows() as usize) {
            // Empty board: every cell, nearest the centre first; else the
            // empty cells near a mark.
            let mut bits = if self.marks == 0 {
                (1u32 << self.rules.columns()) - 1
            } else {
                row_front
            };
            let mut i = row * Square::STRIDE;
            while bits != 0 {
                if bits & 1 != 0 {
                    let sq = Square::from_index(i as u16);
                    let mut key = if self.marks == 0 {
                        -(self.rules.distance_from_centre(sq) as i32)
                    } else {
                        self.cell_key[i][me]
                    };
                    if jitter {
                        key = key * 4 + self.rng.below(4) as i32;
                    }
                    n = insert_ranked(out, n, key, sq);
                }
                bits >>= 1;
                i += 1;
            }
        }
        n
    }

    fn static_eval(&self) -> i32 {
        let e = match self.turn {
            Mark::X => self.eval_x,
            Mark::O => -self.eval_x,
        };
        // The side to move makes a four from any of its three-windows
        // first: its threes are worth more than the opponent's.
        let me = self.turn.index();
        e + 16 + TEMPO_THREE * self.threes[me].min(4) as i32
    }

    /// Past the horizon: the static evaluation, or better if a move that
    /// makes a four (the opponent's block is forced and free) leads
    /// somewhere, up to [`FOUR_PLIES`] fours deep: continuous fours that end
    /// in two winning cells are found beyond the search's depth.
    fn fours_only(&mut self, depth: i32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        let stand = self.static_eval();
        let me = self.turn;
        if stand >= beta
            || depth <= -FOUR_PLIES
            || ply >= MAX_PLY
            || self.threes[me.index()] == 0
            || self.rules.win_condition() == WinCondition::ExactlyK
        {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let (makes_four, _) = self.three_cells(me.index());
        for sq in cells_of(makes_four) {
            if self.is_forbidden(sq, me) {
                continue;
            }
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
                        return best;
                    }
                }
            }
        }
        best
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
            if self.is_forbidden(sq, me) {
                // Black may not block: white's five comes next.
                return -(WIN - ply as i32 - 2);
            }
            if ply >= MAX_PLY {
                return self.static_eval();
            }
            self.apply(sq, me);
            let v = -self.search(depth, ply + 1, -beta, -alpha);
            self.unapply(sq, me);
            return v;
        }
        if self.wins_by_fork() {
            return WIN - ply as i32 - 3;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.fours_only(depth, ply, alpha, beta);
        }
        let key = self.hash;
        let mut tt_move = NO_MOVE;
        if let Some(e) = tt::probe(self.tt, key) {
            self.stats.tt_hits += 1;
            tt_move = e.mv;
            if i32::from(e.depth) >= depth && e.flags != MOVE_ONLY {
                let v = value_from_tt(e.value, ply);
                let usable = match e.flags {
                    EXACT => true,
                    LOWER => v >= beta,
                    UPPER => v <= alpha,
                    _ => false,
                };
                if usable {
                    return v;
                }
            }
        }
        let mut list = [(0, Square::from_index(0)); BEAM];
        let n = self.candidates(&mut list, false);
        if n == 0 {
            return 0;
        }
        // The table's move first, then this ply's killers; the rest keep
        // their key order.
        let killers = self.killers[ply as usize];
        let mut front = 0;
        for want in [tt_move, killers[0], killers[1]] {
            if want == NO_MOVE {
                continue;
            }
            if let Some(i) = list[front..n]
                .iter()
                .position(|e| e.1.index() as u16 == want)
            {
                list[front..=front + i].rotate_right(1);
                front += 1;
            }
        }
        let alpha_in = alpha;
        let mut best = -WIN;
        let mut best_move = list[0].1;
        for (i, &(_, sq)) in list[..n].iter().enumerate() {
            // Black's forbidden moves (renju) are skipped here, when their
            // turn comes: most candidates are cut off before it.
            if self.is_forbidden(sq, me) {
                continue;
            }
            let fours_before = self.fours[me.index()];
            self.apply(sq, me);
            let v = if i == 0 {
                -self.search(depth - 1, ply + 1, -beta, -alpha)
            } else {
                // Late quiet moves are searched one ply shallower first,
                // and every later move with a null window: a move that
                // beats alpha is searched again in full.
                let makes_four = self.fours[me.index()] > fours_before;
                let reduction = i32::from(depth >= 3 && i >= front.max(3) && !makes_four);
                let mut v = -self.search(depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
                if v > alpha && reduction > 0 && !self.aborted {
                    v = -self.search(depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if v > alpha && v < beta && !self.aborted {
                    v = -self.search(depth - 1, ply + 1, -beta, -alpha);
                }
                v
            };
            self.unapply(sq, me);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        let slot = &mut self.killers[ply as usize];
                        let mv = sq.index() as u16;
                        if slot[0] != mv {
                            slot[1] = slot[0];
                            slot[0] = mv;
                        }
                        break;
                    }
                }
            }
        }
        let (value, flags) = match value_to_tt(best, ply) {
            None => (0, MOVE_ONLY),
            Some(v) if best >= beta => (v, LOWER),
            Some(v) if best <= alpha_in => (v, UPPER),
            Some(v) => (v, EXACT),
        };
        store(
            self.tt,
            TtEntry {
                key,
                value,
                flags,
                depth: depth.clamp(0, 255) as u8,
                mv: best_move.index() as u16,
            },
        );
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
        if pos.mark_count() == 0 {
            return Some((self.central_cell(pos.rules()), 0));
        }
        self.load(pos);
        let me = self.turn;
        // Tactics first, whatever the budget.
        if let (Some(sq), _) = self.winning_cells(me) {
            return Some((sq, WIN - 1));
        }
        if let (Some(sq), n) = self.winning_cells(me.other()) {
            // (A block black may not play is no move: lost, any legal
            // move will do, the search below picks one.)
            if !self.is_forbidden(sq, me) {
                return Some((sq, if n >= 2 { -(WIN - 2) } else { 0 }));
            }
        }
        let mut root = [(0, Square::from_index(0)); MAX_CELLS];
        let mut n = self.candidates(&mut root, true);
        if self.forbids(me) {
            let mut kept = 0;
            for i in 0..n {
                if !self.is_forbidden(root[i].1, me) {
                    root[kept] = root[i];
                    kept += 1;
                }
            }
            n = kept;
        }
        if n == 0 {
            return pos.legal_moves().first().map(|sq| (sq, 0));
        }
        let mut vcf = Vcf::new();
        match self.root_vcf(&mut root[..n], &mut vcf) {
            RootVcf::Win(sq, plies) => return Some((sq, WIN - plies as i32)),
            RootVcf::Keep(kept) => n = kept,
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
                let d = depth as i32 - 1;
                let v = if i == 0 {
                    -self.search(d, 1, -WIN - 1, -alpha)
                } else {
                    // Later moves only have to be shown worse (null window);
                    // one that is not is searched again in full.
                    let v = -self.search(d, 1, -alpha - 1, -alpha);
                    if v > alpha && !self.aborted {
                        let full = -self.search(d, 1, -WIN - 1, -alpha);
                        if self.aborted {
                            // It beat the best so far: play it even
                            // without its exact value.
                            iter_best = Some((sq, v, i));
                        }
                        full
                    } else {
                        v
                    }
                };
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

    /// The opening move on an empty board: the centre, or on even sides one
    /// of the cells next to it, picked by the seed. Every gomoku engine opens
    /// there; a search of the empty board only drifts off it (edge effects of
    /// a shallow evaluation: h5 on 15x15 before this rule).
    fn central_cell(&mut self, rules: &Rules) -> Square {
        let nearest = rules
            .squares()
            .map(|sq| rules.distance_from_centre(sq))
            .min()
            .unwrap_or(0);
        let central = || {
            rules
                .squares()
                .filter(move |&sq| rules.distance_from_centre(sq) == nearest)
        };
        let pick = self.rng.below(central().count().max(1) as u32) as usize;
        central().nth(pick).unwrap_or_else(|| Square::from_index(0))
    }

    /// The move to play (`None` when the game is over).
    pub fn best_move(&mut self, pos: &Position) -> Option<Square> {
        self.analyse(pos).map(|(sq, _)| sq)
    }
}

/// Stores `entry` in its two-slot bucket: over the same position, else in
/// the first slot if it is searched at least as deep as what is there, else
/// in the second (always replaced), so deep entries of earlier moves never
/// block the table.
fn store(table: &mut [TtEntry], entry: TtEntry) {
    if table.is_empty() {
        return;
    }
    let i = tt::index(table.len(), entry.key);
    let j = i ^ 1;
    if j >= table.len() || table[i].key == entry.key || table[i].depth <= entry.depth {
        table[i] = entry;
    } else {
        table[j] = entry;
    }
}

/// The offsets o (0..k) for which the k-cell window in direction
/// (`dx`, `dy`) starting o steps back from (`x`, `y`) lies on a `w` x `h`
/// board: `lo..=hi` (empty when `lo > hi`).
#[inline(always)]
fn window_offsets(
    (x, y): (i32, i32),
    (dx, dy): (i32, i32),
    k: i32,
    (w, h): (i32, i32),
) -> (i32, i32) {
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
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty board opens in the centre (odd sides) or on one of the cells
    /// next to it (even sides), whichever seed, however large the budget.
    #[test]
    fn empty_boards_open_in_the_centre() {
        for (c, r, centre) in [
            (15u8, 15u8, &[(7u8, 7u8)][..]),
            (9, 9, &[(4, 4)]),
            (3, 3, &[(1, 1)]),
            (16, 16, &[(7, 7), (8, 7), (7, 8), (8, 8)]),
            (10, 7, &[(4, 3), (5, 3)]),
        ] {
            let rules = Rules::new(c, r, 5.min(c.max(r))).unwrap();
            let mut seen = [false; 4];
            for seed in 0..32 {
                let mut engine = Engine::new(Budget::nodes(1 << 20), seed);
                let (sq, _) = engine.analyse(&Position::new(rules)).unwrap();
                let at = centre
                    .iter()
                    .position(|&(x, y)| (sq.column(), sq.row()) == (x, y));
                let Some(i) = at else {
                    panic!("{c}x{r} seed {seed}: {sq:?} is not central");
                };
                seen[i] = true;
            }
            // The seed chooses among the central cells.
            assert!(seen[..centre.len()].iter().all(|&s| s), "{c}x{r}");
        }
    }

    /// Mirror-image open threes (X's and O's, far apart): the evaluation
    /// favours the side to move by more than one three-window, for either
    /// side, since it makes its four first.
    #[test]
    fn equal_threes_favour_the_side_to_move() {
        // 15 rows of 15 cells, '/' between rows.
        let mut text = [b'/'; 15 * 16 - 1];
        for r in 0..15 {
            text[r * 16..r * 16 + 15].fill(b'.');
        }
        text[3 * 16 + 5..3 * 16 + 8].copy_from_slice(b"xxx");
        text[11 * 16 + 5..11 * 16 + 8].copy_from_slice(b"ooo");
        let board = |extra: Option<(usize, usize)>| {
            let mut text = text;
            if let Some((r, c)) = extra {
                text[r * 16 + c] = b'x';
            }
            Position::from_board(core::str::from_utf8(&text).unwrap(), Some(5)).unwrap()
        };
        // X to move; then (an X mark on a far corner, no window shared)
        // O to move.
        for (pos, to_move) in [(board(None), Mark::X), (board(Some((0, 14))), Mark::O)] {
            let mut engine = Engine::new(Budget::nodes(1), 0);
            engine.load(&pos);
            assert_eq!(engine.turn, to_move);
            let e = engine.static_eval();
            assert!(e > need_score(2), "{to_move:?} to move: {e}");
        }
    }

    /// The incrementally kept ordering keys and frontier match a rescore
    /// from scratch after every move and every take-back of random games.
    #[test]
    fn incremental_keys_and_frontier_match_a_rescore() {
        let mut rng = Rng::new(7);
        for (c, r, k) in [
            (3u8, 3u8, 3u8),
            (9, 9, 5),
            (7, 7, 4),
            (16, 16, 5),
            (20, 20, 5),
            (20, 15, 5),
            (13, 20, 4),
            (6, 4, 1),
            (5, 8, 6),
        ] {
            let rules = Rules::new(c, r, k).unwrap();
            // The rescore is cubic in the cells: fewer games on the biggest.
            let games = if rules.cell_count() > 256 { 2 } else { 8 };
            for _game in 0..games {
                let mut engine = Engine::new(Budget::nodes(1), 0);
                engine.load(&Position::new(rules));
                let mut played = [Square::from_index(0); MAX_CELLS];
                let mut count = 0;
                while count < rules.cell_count() {
                    let empty: [Option<Square>; MAX_CELLS] = core::array::from_fn(|i| {
                        let sq = Square::from_index(i as u16);
                        (rules.contains(sq) && engine.cells[i] == 0).then_some(sq)
                    });
                    let pick = rng.below((rules.cell_count() - count) as u32) as usize;
                    let sq = empty.iter().flatten().nth(pick).copied().unwrap();
                    let mark = engine.turn;
                    engine.apply(sq, mark);
                    played[count] = sq;
                    count += 1;
                    check(&engine);
                    if rng.below(4) == 0 {
                        count -= 1;
                        engine.unapply(played[count], mark);
                        check(&engine);
                    }
                }
            }
        }
    }

    fn check(engine: &Engine) {
        // The three-windows: exactly the windows with k-2 marks of a side
        // and none of the other (k >= 3), and their counts.
        for side in 0..2 {
            let mut count = 0;
            for sq in engine.rules.squares() {
                for d in 0..4 {
                    let id = sq.index() * 4 + d;
                    let set = engine.three_set[side][id / 64] >> (id % 64) & 1 != 0;
                    count += u32::from(set);
                    let (w, h) = (engine.rules.columns() as i32, engine.rules.rows() as i32);
                    let k = engine.k as i32;
                    let (dx, dy) = [(1, 0), (0, 1), (1, 1), (1, -1)][d];
                    let (x, y) = (sq.column() as i32, sq.row() as i32);
                    let (ex, ey) = (x + (k - 1) * dx, y + (k - 1) * dy);
                    let on_board = engine.k > 1 && (0..w).contains(&ex) && (0..h).contains(&ey);
                    let mut c = [0; 2];
                    for i in 0..k {
                        let (cx, cy) = (x + i * dx, y + i * dy);
                        if on_board {
                            let cell = engine.cells[cy as usize * Square::STRIDE + cx as usize];
                            if cell != 0 {
                                c[cell as usize - 1] += 1;
                            }
                        }
                    }
                    let want = on_board && engine.k >= 3 && c[1 - side] == 0 && c[side] == k - 2;
                    assert_eq!(set, want, "{sq:?} dir {d} side {side}");
                }
            }
            assert_eq!(engine.threes[side], count);
        }
        for sq in engine.rules.squares() {
            let i = sq.index();
            let in_frontier = engine.frontier()[sq.row() as usize] >> sq.column() & 1 != 0;
            let near_a_mark = engine.rules.squares().any(|m| {
                engine.cells[m.index()] != 0
                    && (m.column() as i32 - sq.column() as i32).abs() <= 2
                    && (m.row() as i32 - sq.row() as i32).abs() <= 2
            });
            assert_eq!(in_frontier, engine.cells[i] == 0 && near_a_mark, "{sq:?}");
            if engine.cells[i] != 0 {
                continue;
            }
            for mark in Mark::ALL {
                let (mine, theirs) = engine.gains(sq, mark);
                assert_eq!(
                    engine.cell_key[i][mark.index()],
                    2 * mine + theirs,
                    "{sq:?}"
                );
            }
        }
    }
}
