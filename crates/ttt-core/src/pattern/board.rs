//! The pattern board: every empty cell's line patterns and threat class for
//! both sides, kept up to date stone by stone.
//!
//! Each line of the board (rows, columns, both diagonals) is one 64-bit word
//! with 2 bits a cell and five wall cells before its first cell, walls also
//! past its last: placing or taking back a stone flips bits in four words.
//! A cell's pattern in a direction is read from the 11-cell window around it
//! in that line's word (two table lookups per side); a stone changes only
//! the patterns of the empty cells within five steps of it along its four
//! lines (at most 40; four steps, at most 32, where six in a row also wins
//! for both sides), and with them their classes and the class counts.
//! Nothing is rescanned. A search that places stones one after another can
//! keep what each one changed ([`PatternUndo`]) and take it back by
//! copying.
use super::error::NotFiveInARow;
use super::line::{self, LinePattern, CODE_EMPTY, CODE_WALL, REACH};
use super::probe::Probe;
use super::threat::{ThreatClass, CLASS_OF, POW10};
use super::weights::CellWeights;
use crate::{Direction, Mark, Position, Rules, Square, SquareSet, MAX_CELLS, MAX_SIDE};

/// Square index step along each direction (index = row * 20 + column).
const INDEX_STEP: [isize; 4] = [1, SIDE as isize, SIDE as isize + 1, 1 - SIDE as isize];

/// Lines per direction: rows or columns (20), diagonals (39).
const LINES: usize = 2 * MAX_SIDE as usize - 1;
const SIDE: i32 = MAX_SIDE as i32;
/// [`ThreatClass::Four`] as stored.
const FOUR: u8 = ThreatClass::Four as u8;

/// Which line of direction `d` holds the cell, and where on it.
#[inline]
fn line_of(column: i32, row: i32, d: usize) -> (usize, u32) {
    match d {
        0 => (row as usize, column as u32),
        1 => (column as usize, row as u32),
        2 => ((column - row + SIDE - 1) as usize, column as u32),
        _ => ((column + row) as usize, column as u32),
    }
}

/// Line patterns and threat classes of every empty cell, for both sides,
/// updated incrementally by [`play`](PatternBoard::play) and
/// [`undo`](PatternBoard::undo).
///
/// ```
/// use ttt_core::pattern::{PatternBoard, ThreatClass};
/// use ttt_core::{Mark, Position, Rules, SquareFormat};
///
/// // X has three in a row with both ends open (O to move).
/// let mut pos = Position::new(Rules::new(15, 15, 5).unwrap());
/// for name in ["g8", "g9", "h8", "h9", "i8"] {
///     pos.play(pos.rules().parse_square(name).unwrap()).unwrap();
/// }
/// let board = PatternBoard::new(&pos).unwrap();
/// // f8 and j8 each make an open four for X; O must take one of them
/// // (after e8 or k8, the other one still makes an open four).
/// let open_fours = board.cells_of(Mark::X, ThreatClass::OpenFour);
/// let names: Vec<String> = open_fours
///     .into_iter()
///     .map(|sq| pos.rules().display_square(sq, SquareFormat::Coord).to_string())
///     .collect();
/// assert_eq!(names, ["f8", "j8"]);
/// ```
#[derive(Clone)]
pub struct PatternBoard {
    rules: Rules,
    /// Per direction and line: 2 bits a cell (empty 0, X 1, O 2, wall 3),
    /// the line's first cell at bits 10-11.
    lines: [[u64; LINES]; 4],
    /// 0 empty, 1 X, 2 O.
    cells: [u8; MAX_CELLS],
    /// Per cell and direction: X's pattern in the low nibble, O's in the
    /// high one (of empty cells; stale on occupied ones).
    patterns: [[u8; 4]; MAX_CELLS],
    /// Per cell and side: its four patterns as one number (direction d's
    /// times 10^d), the index of its class.
    codes: [[u16; 2]; MAX_CELLS],
    /// Per cell and side: its threat class (`ThreatClass::None` when
    /// occupied).
    classes: [[u8; 2]; MAX_CELLS],
    /// Per side: how many empty cells have each class.
    counts: [[u16; 13]; 2],
    /// Per side: the empty cells whose class is a four or stronger (the
    /// threats a search must look at, without scanning the board).
    fours: [SquareSet; 2],
    /// Per side, over its empty cells: the sum of their weights as the
    /// side to move's and as the other side's (0 without weights).
    weight_sums: [[i32; 2]; 2],
    cell_weights: Option<&'static CellWeights>,
    /// Per side: its pattern table (five or more wins, or exactly five).
    tables: [&'static [u8; line::NEIGHBOURHOODS]; 2],
    side_to_move: Mark,
    stones: u32,
    /// How far along a line a stone changes other cells' patterns: five
    /// cells when a six in a row is no five for a side (its stone five
    /// cells away can make an overline), else four.
    reach: u32,
}

/// Stones placed between two pauses of [`PatternBoard::read_pausing`].
const STONES_PER_PAUSE: u32 = 8;

impl PatternBoard {
    /// The pattern board of `pos` (any size up to 20x20; five in a row).
    pub fn new(pos: &Position) -> Result<PatternBoard, NotFiveInARow> {
        let k = pos.rules().k();
        if k != 5 {
            return Err(NotFiveInARow { k });
        }
        Ok(PatternBoard::read_pausing(pos, &mut || {}))
    }

    /// The pattern board of `pos`, whose rules are five in a row (the
    /// caller checked), calling `pause` after each row of the empty
    /// board's cells, after every [`STONES_PER_PAUSE`] stones placed and
    /// after the last: a caller on one CPU thread runs its frames from
    /// there (the console takes 8-9.5 ms to read a 15x15 board in
    /// mupen64plus, and a stone costs it about 0.1 ms in ares). The board
    /// (about 6 KB) is made where it is returned and only then filled:
    /// each copy of it costs the console most of a millisecond in ares.
    pub(crate) fn read_pausing(pos: &Position, pause: &mut dyn FnMut()) -> PatternBoard {
        let mut board = PatternBoard::blank(*pos.rules());
        board.read_empty_cells(pause);
        let mut placed = 0;
        for mark in Mark::ALL {
            for sq in pos.marks(mark) {
                board.place(sq, mark);
                placed += 1;
                if placed % STONES_PER_PAUSE == 0 {
                    pause();
                }
            }
        }
        if placed % STONES_PER_PAUSE != 0 {
            pause();
        }
        board.side_to_move = pos.side_to_move();
        board
    }

    /// The empty board of `rules`.
    pub fn empty(rules: Rules) -> Result<PatternBoard, NotFiveInARow> {
        if rules.k() != 5 {
            return Err(NotFiveInARow { k: rules.k() });
        }
        let mut board = PatternBoard::blank(rules);
        board.read_empty_cells(&mut || {});
        Ok(board)
    }

    /// The board of `rules` (five in a row) before its cells are read: no
    /// cell on it, every line a wall.
    fn blank(rules: Rules) -> PatternBoard {
        PatternBoard {
            rules,
            lines: [[u64::MAX; LINES]; 4],
            cells: [0; MAX_CELLS],
            patterns: [[0; 4]; MAX_CELLS],
            codes: [[0; 2]; MAX_CELLS],
            classes: [[0; 2]; MAX_CELLS],
            counts: [[0; 13]; 2],
            fours: [SquareSet::EMPTY; 2],
            weight_sums: [[0; 2]; 2],
            cell_weights: None,
            tables: Mark::ALL.map(|m| line::table(!rules.is_winning_length_for(m, 6))),
            side_to_move: Mark::X,
            stones: 0,
            reach: if Mark::ALL.iter().all(|&m| rules.is_winning_length_for(m, 6)) {
                4
            } else {
                5
            },
        }
    }

    /// Makes the [blank](Self::blank) board the empty board of its rules:
    /// its cells on the lines, their patterns and classes read, calling
    /// `pause` after each row of cells.
    fn read_empty_cells(&mut self, pause: &mut dyn FnMut()) {
        let rules = self.rules;
        for sq in rules.squares() {
            for d in 0..4 {
                let (l, at) = line_of(sq.column().into(), sq.row().into(), d);
                self.lines[d][l] &= !(CODE_WALL << (2 * (at as usize + REACH)));
            }
        }
        for sq in rules.squares() {
            for d in 0..4 {
                self.refresh_pattern(sq, d);
            }
            self.counts[0][0] += 1;
            self.counts[1][0] += 1;
            self.refresh_class(sq);
            if sq.column() + 1 == rules.columns() {
                pause();
            }
        }
    }

    /// The rules of the board.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whose turn it is.
    pub fn side_to_move(&self) -> Mark {
        self.side_to_move
    }

    /// The mark on `sq`, if any.
    pub fn get(&self, sq: Square) -> Option<Mark> {
        match self.cells[sq.index()] {
            1 => Some(Mark::X),
            2 => Some(Mark::O),
            _ => None,
        }
    }

    /// Plays the side to move on the empty `sq` (on the board; nothing is
    /// checked but that, and a misuse changes nothing: `false`).
    pub fn play(&mut self, sq: Square) -> bool {
        if !self.rules.contains(sq) || self.cells[sq.index()] != 0 {
            return false;
        }
        self.place(sq, self.side_to_move);
        self.side_to_move = self.side_to_move.other();
        true
    }

    /// Takes the stone on `sq` back (it becomes the side to move's turn
    /// again); `false`, changing nothing, when `sq` is empty or off the
    /// board.
    pub fn undo(&mut self, sq: Square) -> bool {
        if !self.rules.contains(sq) || self.cells[sq.index()] == 0 {
            return false;
        }
        let mark = Mark::ALL[usize::from(self.cells[sq.index()] - 1)];
        self.remove(sq, mark);
        self.side_to_move = mark;
        true
    }

    /// The pattern that a stone of `mark` on the empty `sq` makes in
    /// direction `d` (`Dead` on occupied cells).
    pub fn pattern(&self, sq: Square, mark: Mark, d: Direction) -> LinePattern {
        if !self.rules.contains(sq) || self.cells[sq.index()] != 0 {
            return LinePattern::Dead;
        }
        let d = Direction::ALL.iter().position(|&x| x == d).unwrap_or(0);
        let nibble = self.patterns[sq.index()][d] >> (4 * mark.index()) & 15;
        LinePattern::from_index(nibble).unwrap_or(LinePattern::Dead)
    }

    /// What a stone of `mark` on `sq` makes (`None` on occupied cells).
    pub fn class(&self, sq: Square, mark: Mark) -> ThreatClass {
        if !self.rules.contains(sq) {
            return ThreatClass::None;
        }
        ThreatClass::ALL[usize::from(self.classes[sq.index()][mark.index()])]
    }

    /// The classes of the empty `sq` on the board, X's then O's, as the
    /// classes' numbers (`ThreatClass as u8`): one read for a hot loop
    /// that weighs both.
    pub(crate) fn class_numbers(&self, sq: Square) -> [u8; 2] {
        self.classes[sq.index()]
    }

    /// The class codes of the empty `sq` on the board, X's then O's (its
    /// four patterns as one number, direction d's times 10^d): what the
    /// cell weights and the engine's move order are indexed by.
    #[inline]
    pub(crate) fn class_codes(&self, sq: Square) -> [u16; 2] {
        self.codes[sq.index()]
    }

    /// How many empty cells give `mark` this class.
    pub fn count(&self, mark: Mark, class: ThreatClass) -> u32 {
        self.counts[mark.index()][class as usize].into()
    }

    /// The empty cells that give `mark` this class.
    pub fn cells_of(&self, mark: Mark, class: ThreatClass) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        if self.count(mark, class) == 0 {
            return set;
        }
        if class >= ThreatClass::Four {
            for sq in self.fours[mark.index()] {
                if self.classes[sq.index()][mark.index()] == class as u8 {
                    set.insert(sq);
                }
            }
            return set;
        }
        for sq in self.rules.squares() {
            if self.classes[sq.index()][mark.index()] == class as u8 && self.cells[sq.index()] == 0
            {
                set.insert(sq);
            }
        }
        set
    }

    /// The other side's strongest winning threat against `mark` (a five
    /// point; else an open-four point, which an open three or two fours
    /// give; else a four-three point) and the empty cells where a stone of
    /// `mark` leaves the other side no threat of that class or above:
    /// `mark`'s answers, found by trying every empty cell (play, read the
    /// counts, take back). `None` when the other side has none of these
    /// threats. A four of `mark`'s own may also delay the answer; it is not
    /// counted here.
    pub fn answers(&mut self, mark: Mark) -> Option<(ThreatClass, SquareSet)> {
        let them = mark.other();
        let threat = [
            ThreatClass::Five,
            ThreatClass::OpenFour,
            ThreatClass::FourThree,
        ]
        .into_iter()
        .find(|&c| self.count(them, c) > 0)?;
        let stopped = |board: &PatternBoard| {
            ThreatClass::ALL[threat as usize..]
                .iter()
                .all(|&c| board.count(them, c) == 0)
        };
        let mut cells = SquareSet::EMPTY;
        for sq in self.rules.squares() {
            if self.cells[sq.index()] != 0 {
                continue;
            }
            self.place(sq, mark);
            if stopped(self) {
                cells.insert(sq);
            }
            self.remove(sq, mark);
        }
        Some((threat, cells))
    }

    /// The empty cells where a stone of `mark` makes a four or more
    /// (classes [`Four`](ThreatClass::Four) to [`Five`](ThreatClass::Five)).
    pub fn four_cells(&self, mark: Mark) -> SquareSet {
        self.fours[mark.index()]
    }

    /// The empty cells where a stone of `mark` leaves the other side no
    /// cell of class `threat` or stronger: [`answers`](Self::answers)
    /// without trying every cell. A stone only weakens the other side's
    /// patterns, and only those of cells within five steps along its lines,
    /// so for each threatening cell the stones that defuse it are that cell
    /// and the empty cells along its four lines whose stone lowers its
    /// class below `threat` (one table lookup each); the answers are what
    /// all threatening cells share. `None` when the other side has no cell
    /// of that class or stronger.
    pub fn defences(&self, mark: Mark, threat: ThreatClass) -> Option<SquareSet> {
        // The board's cells are coded as a probe reads them.
        let probe = Probe::new(&self.rules, &self.cells).ok()?;
        probe.defences(mark, threat, self.fours[mark.other().index()])
    }

    /// Keeps the sums of `weights` over the empty cells from now on (see
    /// [`weight_sums`](Self::weight_sums)).
    pub(crate) fn set_cell_weights(&mut self, weights: &'static CellWeights) {
        self.cell_weights = Some(weights);
        self.weight_sums = [[0; 2]; 2];
        for sq in self.rules.squares() {
            if self.cells[sq.index()] == 0 {
                for side in 0..2 {
                    self.add_weight(side, self.codes[sq.index()][side], 1);
                }
            }
        }
    }

    /// `mark`'s empty cells' weights summed: as the side to move's cells,
    /// and as the other side's (zeros without weights).
    #[inline]
    pub(crate) fn weight_sums(&self, mark: Mark) -> [i32; 2] {
        self.weight_sums[mark.index()]
    }

    /// Adds (`sign` 1) or takes away (-1) the weights of an empty cell of
    /// `side` with class code `code`.
    #[inline(always)]
    fn add_weight(&mut self, side: usize, code: u16, sign: i32) {
        if let Some(weights) = self.cell_weights {
            let w = weights[usize::from(code)];
            let sums = &mut self.weight_sums[side];
            sums[0] += sign * i32::from(w[0]);
            sums[1] += sign * i32::from(w[1]);
        }
    }

    /// Moves an empty cell of `side` from class code `old` to `new` in the
    /// weight sums.
    #[inline(always)]
    fn replace_weight(&mut self, side: usize, old: u16, new: u16) {
        if let Some(weights) = self.cell_weights {
            let (w, v) = (weights[usize::from(new)], weights[usize::from(old)]);
            let sums = &mut self.weight_sums[side];
            sums[0] += i32::from(w[0]) - i32::from(v[0]);
            sums[1] += i32::from(w[1]) - i32::from(v[1]);
        }
    }

    /// Stones on the board.
    pub fn stones(&self) -> u32 {
        self.stones
    }

    /// Puts a stone of `mark` on the empty `sq`, whoever's turn it is (the
    /// side to move is left alone): for searches that play threats of one
    /// side in a row. The caller checks that `sq` is empty and on the board.
    pub(crate) fn place(&mut self, sq: Square, mark: Mark) {
        self.place_recording(sq, mark, None);
    }

    /// [`place`](Self::place), saving what it changes to `undo` so that
    /// [`remove_restoring`](Self::remove_restoring) takes the stone back
    /// by copying instead of reading patterns again.
    pub(crate) fn place_saving(&mut self, sq: Square, mark: Mark, undo: &mut PatternUndo) {
        undo.counts = self.counts;
        undo.weight_sums = self.weight_sums;
        undo.fours = self.fours;
        undo.centre = self.classes[sq.index()];
        undo.len = 0;
        self.place_recording(sq, mark, Some(undo));
    }

    /// [`place`](Self::place), each changed cell's old state written to
    /// `undo` when there is one.
    #[inline(always)]
    fn place_recording(&mut self, sq: Square, mark: Mark, undo: Option<&mut PatternUndo>) {
        let i = sq.index();
        for side in 0..2 {
            self.counts[side][usize::from(self.classes[i][side])] -= 1;
            self.add_weight(side, self.codes[i][side], -1);
        }
        self.classes[i] = [0, 0];
        for set in &mut self.fours {
            set.remove(sq);
        }
        self.cells[i] = mark.index() as u8 + 1;
        self.stones += 1;
        self.flip_and_refresh(sq, mark.index() as u64 + 1, undo);
    }

    /// Takes back the stone of `mark` on `sq` that
    /// [`place_saving`](Self::place_saving) put there with this `undo`.
    pub(crate) fn remove_restoring(&mut self, sq: Square, mark: Mark, undo: &PatternUndo) {
        let i = sq.index();
        self.cells[i] = 0;
        self.stones -= 1;
        let (column, row) = (i32::from(sq.column()), i32::from(sq.row()));
        let code = mark.index() as u64 + 1;
        for d in 0..4 {
            let (l, at) = line_of(column, row, d);
            self.lines[d][l] ^= code << (2 * (at as usize + REACH));
        }
        for j in 0..undo.len {
            let (n, d, old) = undo.cells[j];
            let n = usize::from(n);
            self.patterns[n][usize::from(d)] = old;
            self.codes[n] = undo.codes[j];
            self.classes[n] = undo.classes[j];
        }
        // The cell's own patterns were left as they were.
        self.classes[i] = undo.centre;
        self.counts = undo.counts;
        self.weight_sums = undo.weight_sums;
        self.fours = undo.fours;
    }

    /// Takes back the stone of `mark` on `sq` that [`place`](Self::place)
    /// put there.
    pub(crate) fn remove(&mut self, sq: Square, mark: Mark) {
        let i = sq.index();
        self.cells[i] = 0;
        self.stones -= 1;
        self.flip_and_refresh(sq, mark.index() as u64 + 1, None);
        for d in 0..4 {
            self.refresh_pattern(sq, d);
        }
        self.counts[0][0] += 1;
        self.counts[1][0] += 1;
        self.classes[i] = [0, 0];
        self.refresh_class(sq);
    }

    /// XORs `code` into `sq`'s four line words (placing on an empty cell,
    /// or taking the same stone back), then refreshes the empty cells
    /// within reach on those lines. A neighbour is found by its code in the
    /// line word (walls and stones are skipped) and its index by a fixed
    /// step along the line; only a pattern that changed touches its class.
    /// Each changed cell's old state goes to `undo` first, when there is
    /// one.
    #[inline(always)]
    fn flip_and_refresh(&mut self, sq: Square, code: u64, mut undo: Option<&mut PatternUndo>) {
        let (column, row) = (i32::from(sq.column()), i32::from(sq.row()));
        for (d, &step) in INDEX_STEP.iter().enumerate() {
            let (l, at) = line_of(column, row, d);
            let word = self.lines[d][l] ^ code << (2 * (at as usize + REACH));
            self.lines[d][l] = word;
            // Cells at offsets -reach..reach along the line (slot at+5 is
            // the stone's).
            let outer = REACH as u32 - self.reach;
            let first = at + outer;
            let span = word >> (2 * first);
            // One bit (the low one of its two) per empty cell in reach,
            // the stone's own cell left out.
            let in_reach = (1u64 << (4 * self.reach + 2)) - 1;
            let mut empties = !(span | span >> 1)
                & 0x5555_5555_5555_5555
                & in_reach
                & !(1u64 << (2 * self.reach));
            while empties != 0 {
                let slot = first + empties.trailing_zeros() / 2;
                empties &= empties - 1;
                let offset = slot as isize - (at as isize + REACH as isize);
                let n = sq.index().wrapping_add_signed(offset * step);
                let new = self.read_patterns(word >> (2 * (slot - REACH as u32)));
                let old = self.patterns[n][d];
                if new != old {
                    if let Some(u) = undo.as_mut() {
                        u.cells[u.len] = (n as u16, d as u8, old);
                        u.codes[u.len] = self.codes[n];
                        u.classes[u.len] = self.classes[n];
                        u.len += 1;
                    }
                    self.patterns[n][d] = new;
                    for side in 0..2 {
                        let (a, b) = (old >> (4 * side) & 15, new >> (4 * side) & 15);
                        if a != b {
                            let old_code = self.codes[n][side];
                            let code =
                                (old_code + u16::from(b) * POW10[d]) - u16::from(a) * POW10[d];
                            self.codes[n][side] = code;
                            self.replace_weight(side, old_code, code);
                            let class = CLASS_OF[usize::from(code)];
                            let was = &mut self.classes[n][side];
                            if class != *was {
                                self.counts[side][usize::from(*was)] -= 1;
                                self.counts[side][usize::from(class)] += 1;
                                if (class >= FOUR) != (*was >= FOUR) {
                                    self.fours[side].toggle(Square::from_index(n as u16));
                                }
                                *was = class;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Reads the empty `sq`'s pattern in direction `d` for both sides.
    fn refresh_pattern(&mut self, sq: Square, d: usize) {
        let (l, at) = line_of(sq.column().into(), sq.row().into(), d);
        let window = self.lines[d][l] >> (2 * at);
        debug_assert_eq!(window >> (2 * REACH) & 3, CODE_EMPTY);
        self.patterns[sq.index()][d] = self.read_patterns(window);
    }

    /// Both sides' patterns (X's in the low nibble) of the empty cell whose
    /// 11-cell window is `window`.
    #[inline]
    fn read_patterns(&self, window: u64) -> u8 {
        let (nx, no) = line::neighbourhoods(window);
        self.tables[0][nx] | self.tables[1][no] << 4
    }

    /// Recomputes the empty `sq`'s class codes and classes for both sides
    /// from its patterns (the cell was not in the weight sums: it was
    /// occupied, or the board is being set up).
    fn refresh_class(&mut self, sq: Square) {
        let p = self.patterns[sq.index()];
        for side in 0..2 {
            let shift = 4 * side;
            let code = (0..4)
                .map(|d| u16::from(p[d] >> shift & 15) * POW10[d])
                .sum::<u16>();
            self.codes[sq.index()][side] = code;
            self.add_weight(side, code, 1);
            let new = CLASS_OF[usize::from(code)];
            let old = &mut self.classes[sq.index()][side];
            self.counts[side][usize::from(*old)] -= 1;
            self.counts[side][usize::from(new)] += 1;
            if (new >= FOUR) != (*old >= FOUR) {
                self.fours[side].toggle(sq);
            }
            *old = new;
        }
    }
}

#[cfg(test)]
mod tests;
mod undo;

pub use undo::PatternUndo;
