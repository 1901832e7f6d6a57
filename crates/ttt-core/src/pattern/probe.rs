//! Threats read off a plain grid one cell at a time, with the pattern
//! tables but without a [`PatternBoard`](super::PatternBoard): for a search
//! that keeps its board in another form and asks about a few cells only
//! (the cells its own bookkeeping says may be threats), so it pays for
//! those cells and not for keeping every cell's patterns up to date.
//!
//! A cell's pattern in a direction is read from the ten cells around it on
//! that line, gathered from the grid (off the board counts as blocked).
use super::error::NotFiveInARow;
use super::line::{self, neighbourhoods, LinePattern, CODE_EMPTY, CODE_WALL, REACH};
use super::threat::{ThreatClass, CLASS_OF, POW10};
use crate::{Mark, Rules, Square, SquareSet, MAX_CELLS};

/// Column and row steps of the four directions, in the pattern board's
/// order (a class code's direction d weighs 10^d).
const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A window of walls only (every one of its 11 slots off the board).
const WALLS: u64 = {
    let mut window = 0;
    let mut slot = 0;
    while slot <= 2 * REACH {
        window |= CODE_WALL << (2 * slot);
        slot += 1;
    }
    window
};

/// Pattern reading over a grid of cells (index row * 20 + column: 0 empty,
/// 1 X, 2 O).
pub struct Probe<'a> {
    cells: &'a [u8; MAX_CELLS],
    columns: i32,
    rows: i32,
    tables: [&'static [u8; line::NEIGHBOURHOODS]; 2],
}

impl<'a> Probe<'a> {
    /// A probe of `cells` under `rules` (five in a row; the five rule
    /// decides the tables: black under renju and everyone under "exactly
    /// five" need exactly five; renju's forbidden moves are not judged).
    pub fn new(rules: &Rules, cells: &'a [u8; MAX_CELLS]) -> Result<Probe<'a>, NotFiveInARow> {
        if rules.k() != 5 {
            return Err(NotFiveInARow { k: rules.k() });
        }
        Ok(Probe {
            cells,
            columns: rules.columns().into(),
            rows: rules.rows().into(),
            tables: Mark::ALL.map(|m| line::table(!rules.is_winning_length_for(m, 6))),
        })
    }

    /// The 11-cell window around `sq` in direction `d` (2 bits a cell, the
    /// cell itself, read as empty, in bits 10-11). The slots off the board
    /// are walls; the ones on it are read in one pass without a bounds
    /// check per cell (on 9x9 every window reaches past an edge).
    #[inline]
    fn window(&self, sq: Square, d: usize) -> u64 {
        let (dx, dy) = STEPS[d];
        let (c, r) = (i32::from(sq.column()), i32::from(sq.row()));
        let reach = REACH as i32;
        // The offsets along the line that stay on the board.
        let (mut lo, mut hi) = (-reach, reach);
        for (at, step, size) in [(c, dx, self.columns), (r, dy, self.rows)] {
            if step > 0 {
                lo = lo.max(-at);
                hi = hi.min(size - 1 - at);
            } else if step < 0 {
                lo = lo.max(at - (size - 1));
                hi = hi.min(at);
            }
        }
        let on_board = ((1u64 << (2 * (hi - lo + 1))) - 1) << (2 * (lo + reach));
        let mut window = WALLS & !on_board;
        let step = dy * Square::STRIDE as i32 + dx;
        let mut index = r * Square::STRIDE as i32 + c + lo * step;
        for slot in lo + reach..=hi + reach {
            window |= u64::from(self.cells[index as usize]) << (2 * slot);
            index += step;
        }
        window & !(3 << (2 * REACH))
    }

    /// `side`'s pattern number for the cell whose window is `window`.
    #[inline]
    fn read(&self, window: u64, side: usize) -> u8 {
        let (nx, no) = neighbourhoods(window);
        self.tables[side][if side == 0 { nx } else { no }]
    }

    /// What a stone of `mark` on the empty `sq` makes.
    pub fn class(&self, sq: Square, mark: Mark) -> ThreatClass {
        self.read_cell(sq, mark.index()).0
    }

    /// The empty `sq`'s class for `side`, its four windows and its pattern
    /// in each direction.
    #[inline]
    fn read_cell(&self, sq: Square, side: usize) -> (ThreatClass, [u64; 4], [u16; 4]) {
        let windows: [u64; 4] = core::array::from_fn(|d| self.window(sq, d));
        let patterns: [u16; 4] = core::array::from_fn(|d| u16::from(self.read(windows[d], side)));
        let code: u16 = (0..4).map(|d| patterns[d] * POW10[d]).sum();
        let class = ThreatClass::ALL[usize::from(CLASS_OF[usize::from(code)])];
        (class, windows, patterns)
    }

    /// The cells where a stone of `mark`'s opponent brings the empty `sq`'s
    /// class for `mark` below `threat`: `sq` itself and the empty cells
    /// along its four lines (within five steps) that break the shape.
    pub fn defusers(&self, sq: Square, mark: Mark, threat: ThreatClass) -> SquareSet {
        let (_, windows, patterns) = self.read_cell(sq, mark.index());
        self.defusers_of(sq, mark, threat, windows, patterns)
    }

    /// [`defusers`](Self::defusers), given the cell's windows and
    /// patterns for `mark` ([`read_cell`](Self::read_cell)).
    fn defusers_of(
        &self,
        sq: Square,
        mark: Mark,
        threat: ThreatClass,
        windows: [u64; 4],
        patterns: [u16; 4],
    ) -> SquareSet {
        let side = mark.index();
        let theirs = (1 - side) as u64 + 1;
        let code: u16 = (0..4).map(|d| patterns[d] * POW10[d]).sum();
        let mut set = SquareSet::EMPTY;
        set.insert(sq);
        for (d, &window) in windows.iter().enumerate() {
            let (dx, dy) = STEPS[d];
            for slot in 0..=2 * REACH as i32 {
                if slot == REACH as i32 || window >> (2 * slot) & 3 != CODE_EMPTY {
                    continue;
                }
                let new = u16::from(self.read(window | theirs << (2 * slot), side));
                if new == patterns[d] {
                    continue;
                }
                let changed = code + new * POW10[d] - patterns[d] * POW10[d];
                if CLASS_OF[usize::from(changed)] < threat as u8 {
                    let offset = slot - REACH as i32;
                    let (x, y) = (
                        i32::from(sq.column()) + offset * dx,
                        i32::from(sq.row()) + offset * dy,
                    );
                    set.insert(Square::from_index((y * Square::STRIDE as i32 + x) as u16));
                }
            }
        }
        set
    }

    /// The cells where `mark` makes five once a stone of `mark` stands
    /// on the empty `sq` as well: where the other side must block after
    /// that stone (none when it makes no four).
    pub fn completions(&self, sq: Square, mark: Mark) -> SquareSet {
        let side = mark.index();
        let ours = side as u64 + 1;
        let mut set = SquareSet::EMPTY;
        for d in 0..4 {
            let window = self.window(sq, d);
            if self.read(window, side) < LinePattern::Four as u8 {
                continue;
            }
            for slot in 0..=2 * REACH as i32 {
                if slot == REACH as i32 || window >> (2 * slot) & 3 != CODE_EMPTY {
                    continue;
                }
                // That cell's window, with `sq` (at the mirrored offset)
                // holding the stone.
                let offset = slot - REACH as i32;
                let cell = self.along(sq, d, offset);
                let there = self.window(cell, d) | ours << (2 * (REACH as i32 - offset));
                if self.read(there, side) == LinePattern::Five as u8 {
                    set.insert(cell);
                }
            }
        }
        set
    }

    /// The empty cells where a stone of `mark` raises the empty `sq`'s
    /// class for `mark` to `threat` or above (none when it is there
    /// already): the cells along its four lines, within five steps.
    pub fn raisers(&self, sq: Square, mark: Mark, threat: ThreatClass) -> SquareSet {
        let side = mark.index();
        let ours = side as u64 + 1;
        let (class, windows, patterns) = self.read_cell(sq, side);
        let mut set = SquareSet::EMPTY;
        if class >= threat {
            return set;
        }
        let code: u16 = (0..4).map(|d| patterns[d] * POW10[d]).sum();
        for (d, &window) in windows.iter().enumerate() {
            for slot in 0..=2 * REACH as i32 {
                if slot == REACH as i32 || window >> (2 * slot) & 3 != CODE_EMPTY {
                    continue;
                }
                let new = u16::from(self.read(window | ours << (2 * slot), side));
                let raised = code + new * POW10[d] - patterns[d] * POW10[d];
                if CLASS_OF[usize::from(raised)] >= threat as u8 {
                    set.insert(self.along(sq, d, slot - REACH as i32));
                }
            }
        }
        set
    }

    /// The cell `offset` steps from `sq` in direction `d` (on the board:
    /// the caller read it as an empty cell of a window).
    fn along(&self, sq: Square, d: usize, offset: i32) -> Square {
        let (dx, dy) = STEPS[d];
        let (x, y) = (
            i32::from(sq.column()) + offset * dx,
            i32::from(sq.row()) + offset * dy,
        );
        Square::from_index((y * Square::STRIDE as i32 + x) as u16)
    }

    /// The empty cells where a stone of `mark` leaves none of `candidates`
    /// (empty cells) of class `threat` or above for the other side: the
    /// defusers all such cells share. `None` when no candidate is such a
    /// threat. A stone only weakens the other side's patterns, and only
    /// within five steps along its lines, so these are exactly the cells
    /// that stop every threat among the candidates.
    pub fn defences(
        &self,
        mark: Mark,
        threat: ThreatClass,
        candidates: impl IntoIterator<Item = Square>,
    ) -> Option<SquareSet> {
        let them = mark.other();
        let mut shared: Option<SquareSet> = None;
        for q in candidates {
            let (class, windows, patterns) = self.read_cell(q, them.index());
            if class >= threat {
                let d = self.defusers_of(q, them, threat, windows, patterns);
                let now = shared.map_or(d, |a| a.intersection(&d));
                if now.is_empty() {
                    return Some(now);
                }
                shared = Some(now);
            }
        }
        shared
    }
}
