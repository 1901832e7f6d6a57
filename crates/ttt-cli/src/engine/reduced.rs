//! Reduced positions: a position with the cells that can no longer matter
//! erased, the key under which certificates list and check positions (see
//! the soundness argument in [`super::certificate`]).
//!
//! A k-cell window of the board (a *line*) is **live** while it does not
//! hold both marks: someone can still complete it. A cell on no live line is
//! **dead**: whoever holds it, it can never be part of a winning line again.
//! The reduced position keeps the marks on live cells, which cells are dead,
//! how many dead cells are still empty (the *spare* moves), and the side to
//! move. Everything here is derived from the rules alone (`Rules`,
//! `Square`, `Direction`, `Symmetry`); nothing comes from the solver.
use std::fmt::Write as _;

use ttt_core::{Direction, Mark, Position, Rules, Square, Symmetry};

/// A position with its dead cells' contents erased.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// Dead cells (bit = row-major cell index).
    pub dead: u64,
    /// X marks on live cells.
    pub x: u64,
    /// O marks on live cells.
    pub o: u64,
    /// Empty dead cells.
    pub spare: u8,
    /// Whether X is to move.
    pub x_to_move: bool,
}

/// The board's lines and symmetries as bit masks, for one set of rules.
pub struct Geometry {
    rules: Rules,
    /// Every cell of the board.
    full: u64,
    /// Every k-cell window.
    lines: Vec<u64>,
    /// Per symmetry of the board: the symmetry, and cell index -> image index.
    syms: Vec<(Symmetry, [u8; 64])>,
    /// Per symmetry, per byte of a bitboard, per value of that byte: the
    /// image of those cells (a bitboard mapped a byte at a time).
    byte_images: Vec<[[u64; 256]; 8]>,
}

impl Geometry {
    /// The geometry of `rules`; an error for boards of more than 64 cells,
    /// and for the exactly-k rule (where a longer line does not win, so a
    /// window of k is not enough to know who won).
    pub fn new(rules: Rules) -> Result<Geometry, String> {
        let cells = rules.cell_count();
        if cells > 64 {
            return Err(format!(
                "{rules}: certificates cover boards of at most 64 cells"
            ));
        }
        if rules.excludes_overlines() {
            return Err(format!(
                "{rules}: certificates do not cover the exactly-k rule"
            ));
        }
        let cols = rules.columns() as usize;
        let index = |s: Square| s.row() as usize * cols + s.column() as usize;
        let k = rules.k() as i8;
        let mut lines = Vec::new();
        for start in rules.squares() {
            for d in Direction::ALL {
                let mut mask = 0u64;
                for i in 0..k {
                    match start.step(d, i).filter(|&s| rules.contains(s)) {
                        Some(s) => mask |= 1 << index(s),
                        None => {
                            mask = 0;
                            break;
                        }
                    }
                }
                // With k = 1 all four directions give the same one-cell line.
                if mask != 0 && !lines.contains(&mask) {
                    lines.push(mask);
                }
            }
        }
        let syms: Vec<(Symmetry, [u8; 64])> = Symmetry::of(&rules)
            .iter()
            .map(|&sym| {
                let mut perm = [0u8; 64];
                for s in rules.squares() {
                    perm[index(s)] = index(sym.apply(s, &rules)) as u8;
                }
                (sym, perm)
            })
            .collect();
        let byte_images = syms
            .iter()
            .map(|(_, perm)| {
                let mut images = [[0u64; 256]; 8];
                for (b, table) in images.iter_mut().enumerate() {
                    for (value, image) in table.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let cell = 8 * b + bit;
                            if value >> bit & 1 != 0 && cell < cells {
                                *image |= 1 << perm[cell];
                            }
                        }
                    }
                }
                images
            })
            .collect();
        Ok(Geometry {
            rules,
            full: if cells == 64 { !0 } else { (1 << cells) - 1 },
            lines,
            syms,
            byte_images,
        })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The row-major cell index of `square`.
    pub fn index(&self, square: Square) -> usize {
        square.row() as usize * self.rules.columns() as usize + square.column() as usize
    }

    /// The square of row-major cell index `index` (below the cell count).
    pub fn square(&self, index: usize) -> Square {
        let cols = self.rules.columns() as usize;
        Square::new((index % cols) as u8, (index / cols) as u8).expect("index on the board")
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.rules.cell_count()
    }

    fn bits(&self, pos: &Position, mark: Mark) -> u64 {
        pos.marks(mark)
            .into_iter()
            .fold(0, |b, sq| b | 1 << self.index(sq))
    }

    /// The reduced position of `pos` (in its own frame).
    pub fn reduce(&self, pos: &Position) -> Key {
        let (x, o) = (self.bits(pos, Mark::X), self.bits(pos, Mark::O));
        let live = self
            .lines
            .iter()
            .filter(|&&l| l & x == 0 || l & o == 0)
            .fold(0, |a, &l| a | l);
        let dead = self.full & !live;
        Key {
            dead,
            x: x & live,
            o: o & live,
            spare: (dead & !(x | o)).count_ones() as u8,
            x_to_move: pos.side_to_move() == Mark::X,
        }
    }

    /// `key` under the `s`-th symmetry.
    fn transform(&self, key: &Key, s: usize) -> Key {
        let bytes = &self.byte_images[s];
        let map = |m: u64| {
            (0..8).fold(0u64, |out, b| {
                out | bytes[b][(m >> (8 * b)) as usize & 0xff]
            })
        };
        Key {
            dead: map(key.dead),
            x: map(key.x),
            o: map(key.o),
            ..*key
        }
    }

    /// The smallest image of `key` over the board's symmetries, and the
    /// symmetry that maps `key` onto it.
    pub fn canonical(&self, key: &Key) -> (Key, Symmetry) {
        (0..self.syms.len())
            .map(|s| (self.transform(key, s), self.syms[s].0))
            .min_by(|a, b| a.0.cmp(&b.0))
            .unwrap_or((*key, Symmetry::Identity))
    }

    /// The row-major index of the image of cell `index` under `sym`.
    pub fn apply(&self, sym: Symmetry, index: usize) -> usize {
        self.index(sym.apply(self.square(index), &self.rules))
    }

    /// Lines still open to `m` in `key`: no dead cell and no mark of the
    /// other side (a line through a dead cell holds both marks).
    fn open_lines<'g>(&'g self, key: &'g Key, m: Mark) -> impl Iterator<Item = u64> + 'g {
        let theirs = match m {
            Mark::X => key.o,
            Mark::O => key.x,
        };
        self.lines
            .iter()
            .copied()
            .filter(move |&l| l & (key.dead | theirs) == 0)
    }

    fn marks_of(key: &Key, m: Mark) -> u64 {
        match m {
            Mark::X => key.x,
            Mark::O => key.o,
        }
    }

    /// How much each cell is worth to `m`: over the lines open to `m`
    /// through it, the sum of 2^(m's marks on the line) (the Erdos-Selfridge
    /// potential that playing there adds for `m`, or takes from `m` when the
    /// other side plays there), by row-major cell index.
    pub fn weights(&self, key: &Key, m: Mark) -> [u64; 64] {
        let mine = Self::marks_of(key, m);
        let mut weights = [0u64; 64];
        for l in self.open_lines(key, m) {
            let v = 1u64 << (l & mine).count_ones();
            let mut cells = l;
            while cells != 0 {
                weights[cells.trailing_zeros() as usize] += v;
                cells &= cells - 1;
            }
        }
        weights
    }

    /// Whether `m` can complete a line with one move.
    pub fn has_immediate_win(&self, key: &Key, m: Mark) -> bool {
        let k = self.rules.k() as u32;
        let mine = Self::marks_of(key, m);
        self.open_lines(key, m)
            .any(|l| (l & mine).count_ones() + 1 == k)
    }

    /// Whether `p` can keep the other side (q) from ever completing a line,
    /// by the Erdos-Selfridge theorem on the lines open to q: the sum of
    /// 2^-(cells q still needs) below 1 with `p` to move, below 1/2 with q
    /// to move. In units of 2^-k: the sum of 2^(q's marks) below 2^k, resp.
    /// 2^(k-1).
    pub fn erdos_selfridge_blocks(&self, key: &Key, p: Mark) -> bool {
        let q = p.other();
        let k = self.rules.k() as u32;
        let theirs = Self::marks_of(key, q);
        let sum: u64 = self
            .open_lines(key, q)
            .map(|l| 1u64 << (l & theirs).count_ones())
            .sum();
        let p_moves = key.x_to_move == (p == Mark::X);
        sum < 1u64 << (k - 1 + p_moves as u32)
    }

    /// Whether `key` is the reduction of some position of this board: every
    /// cell shown is on a line open to someone (no dead cell, not both
    /// marks), no line is complete, at most every dead cell is spare, and
    /// the dead cells not spare can hold marks that make the counts of X and
    /// O fit the side to move.
    pub fn check_consistent(&self, key: &Key) -> Result<(), String> {
        let shown = self.full & !key.dead;
        let live = self
            .lines
            .iter()
            .filter(|&&l| l & key.dead == 0 && (l & key.x == 0 || l & key.o == 0))
            .fold(0, |a, &l| a | l);
        if shown & !live != 0 {
            let i = (shown & !live).trailing_zeros() as usize;
            return Err(format!(
                "cell {} is on no open line: it must be shown as dead (#)",
                i + 1
            ));
        }
        let k = self.rules.k() as u32;
        if self
            .lines
            .iter()
            .any(|&l| (l & key.x).count_ones() == k || (l & key.o).count_ones() == k)
        {
            return Err("the game is over there".into());
        }
        let dead_cells = key.dead.count_ones() as i64;
        let filled = dead_cells - key.spare as i64;
        // Dead marks: dx + do = filled; X's total minus O's total is 0 with
        // X to move, 1 with O to move.
        let want = if key.x_to_move { 0 } else { 1 };
        let diff = want - (key.x.count_ones() as i64 - key.o.count_ones() as i64);
        if filled < 0 || diff.abs() > filled || (filled - diff) % 2 != 0 {
            return Err(format!(
                "{} spare cells of {dead_cells} dead do not fit the marks and the side to move",
                key.spare
            ));
        }
        Ok(())
    }

    /// The board text of `key`: rows top to bottom separated by `/`, `x`,
    /// `o`, `.` for live cells and `#` for dead ones.
    pub fn board_text(&self, key: &Key) -> String {
        let cols = self.rules.columns() as usize;
        let mut s = String::with_capacity(self.cells() + self.rules.rows() as usize);
        for i in 0..self.cells() {
            if i > 0 && i % cols == 0 {
                s.push('/');
            }
            let bit = 1u64 << i;
            s.push(if key.dead & bit != 0 {
                '#'
            } else if key.x & bit != 0 {
                'x'
            } else if key.o & bit != 0 {
                'o'
            } else {
                '.'
            });
        }
        s
    }

    /// One certificate entry: `BOARD SPARE MOVE` (move: 1-based row-major).
    pub fn entry_text(&self, key: &Key, mv: usize) -> String {
        let mut s = self.board_text(key);
        let _ = write!(s, " {} {}", key.spare, mv + 1);
        s
    }

    /// One pairing entry: `pairs T BOARD SPARE A-B ...` (T: who is to
    /// move; cells 1-based row-major).
    pub fn pairing_text(&self, key: &Key, pairs: &[(u8, u8)]) -> String {
        let mut s = format!(
            "pairs {} {} {}",
            if key.x_to_move { 'x' } else { 'o' },
            self.board_text(key),
            key.spare
        );
        for &(p, q) in pairs {
            let _ = write!(s, " {}-{}", p + 1, q + 1);
        }
        s
    }

    /// Whether `pairs` (row-major cell indices) is a pairing for `p` in
    /// `key`: the pairs are disjoint empty live cells, and every line open
    /// to the other side holds both cells of one pair. The reason if not.
    pub fn check_pairing(
        &self,
        key: &Key,
        p: Mark,
        pairs: &[(usize, usize)],
    ) -> Result<(), String> {
        let taken = key.dead | key.x | key.o;
        let mut used = 0u64;
        for &(a, b) in pairs {
            if a == b {
                return Err(format!(
                    "{}-{} pairs cell {} with itself",
                    a + 1,
                    b + 1,
                    a + 1
                ));
            }
            for c in [a, b] {
                if c >= self.cells() {
                    return Err(format!("cell {} is not on the board", c + 1));
                }
                if taken >> c & 1 != 0 {
                    return Err(format!("cell {} is not an empty live cell (`.`)", c + 1));
                }
                if used >> c & 1 != 0 {
                    return Err(format!("cell {} is in two pairs", c + 1));
                }
                used |= 1 << c;
            }
        }
        let q = p.other();
        match self.open_lines(key, q).find(|&l| {
            !pairs
                .iter()
                .any(|&(a, b)| l >> a & 1 != 0 && l >> b & 1 != 0)
        }) {
            None => Ok(()),
            Some(l) => {
                let cells: Vec<String> = (0..self.cells())
                    .filter(|&i| l >> i & 1 != 0)
                    .map(|i| (i + 1).to_string())
                    .collect();
                Err(format!(
                    "the line through cells {} holds no pair",
                    cells.join(",")
                ))
            }
        }
    }

    /// Reads a board text as [`Geometry::board_text`] writes it (marks
    /// only; spare count and side to move are the caller's).
    pub fn parse_board(&self, text: &str) -> Result<(u64, u64, u64), String> {
        let rows: Vec<&str> = text.split('/').collect();
        let cols = self.rules.columns() as usize;
        if rows.len() != self.rules.rows() as usize || rows.iter().any(|r| r.len() != cols) {
            return Err(format!("the board is not {}x{}", cols, self.rules.rows()));
        }
        let (mut dead, mut x, mut o) = (0u64, 0u64, 0u64);
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let bit = 1u64 << (r * cols + c);
                match ch {
                    '#' => dead |= bit,
                    'x' | 'X' => x |= bit,
                    'o' | 'O' => o |= bit,
                    '.' => {}
                    _ => return Err(format!("unexpected `{ch}` in the board")),
                }
            }
        }
        Ok((dead, x, o))
    }
}
