use core::fmt;
use core::str::FromStr;

use crate::symmetry::Symmetry;
use crate::{
    zobrist, Direction, Mark, ParseBoardError, PlayError, Rules, Square, SquareSet, WinCondition,
    MAX_CELLS,
};

/// Where a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Moves remain and nobody has a line.
    InProgress,
    /// This mark made k in a row.
    Win(Mark),
    /// The board is full and nobody has a line.
    Draw,
}

impl Outcome {
    /// Whether the game has ended.
    #[inline]
    pub const fn is_over(self) -> bool {
        !matches!(self, Outcome::InProgress)
    }

    /// The winner, if any.
    #[inline]
    pub const fn winner(self) -> Option<Mark> {
        match self {
            Outcome::Win(mark) => Some(mark),
            _ => None,
        }
    }
}

/// A straight run of cells: a winning line, for frontends to highlight.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    /// The first cell (leftmost; topmost for vertical lines).
    pub start: Square,
    /// Which way it runs from `start`.
    pub direction: Direction,
    /// Number of cells (k, or more for an overline where that wins).
    pub len: u8,
}

impl Line {
    /// The cells of the line, from `start`.
    pub fn squares(&self) -> impl Iterator<Item = Square> + Clone {
        let (start, direction) = (self.start, self.direction);
        (0..self.len as i8).filter_map(move |i| start.step(direction, i))
    }

    /// Whether `square` is one of the line's cells.
    pub fn contains(&self, square: Square) -> bool {
        self.squares().any(|s| s == square)
    }
}

/// A game in progress: the cells, whose turn it is, the moves played, and the
/// outcome, kept up to date move by move.
///
/// Moves are made with [`play`](Position::play) and taken back with
/// [`undo`](Position::undo); both are O(k) and never allocate. The win check
/// looks only at the lines through the last move.
#[derive(Clone)]
pub struct Position {
    rules: Rules,
    marks: [SquareSet; 2],
    empty: SquareSet,
    turn: Mark,
    /// Zobrist hash of the position under each of the 8 symmetries (index =
    /// position in [`Symmetry::ALL`]); only the first 4 mean anything on a
    /// rectangular board.
    hashes: [u64; 8],
    history: [Square; MAX_CELLS],
    history_len: u16,
    outcome: Outcome,
    winning_line: Option<Line>,
}

impl Position {
    /// The empty board.
    pub fn new(rules: Rules) -> Position {
        Position {
            rules,
            marks: [SquareSet::EMPTY; 2],
            empty: rules.mask(),
            turn: Mark::X,
            hashes: [0; 8],
            history: [Square::from_index(0); MAX_CELLS],
            history_len: 0,
            outcome: if rules.cell_count() == 0 {
                Outcome::Draw
            } else {
                Outcome::InProgress
            },
            winning_line: None,
        }
    }

    /// A position with the given marks, checked to be one a real game can
    /// reach. X moves next if the counts are equal, O if X has one more.
    /// The moves that led here are unknown, so [`undo`](Position::undo) stops
    /// at this position.
    pub fn from_marks(
        rules: Rules,
        x: SquareSet,
        o: SquareSet,
    ) -> Result<Position, ParseBoardError> {
        let mut pos = Position::new(rules);
        let board = rules.mask();
        let (x, o) = (
            x.intersection(&board),
            o.intersection(&board).difference(&x),
        );
        for (mark, set) in [(Mark::X, x), (Mark::O, o)] {
            for sq in set {
                pos.put(sq, mark);
            }
        }
        let (nx, no) = (x.len(), o.len());
        pos.turn = match nx.checked_sub(no) {
            Some(0) => Mark::X,
            Some(1) => Mark::O,
            _ => return Err(ParseBoardError::BadCounts { x: nx, o: no }),
        };
        let x_line = pos.find_line(Mark::X);
        let o_line = pos.find_line(Mark::O);
        match (x_line, o_line) {
            (Some(_), Some(_)) => return Err(ParseBoardError::BothWin),
            (Some(line), None) | (None, Some(line)) => {
                let winner = if x_line.is_some() { Mark::X } else { Mark::O };
                // The winner moved last, and one of their marks completed every line.
                if pos.turn != winner.other() || !pos.has_last_mark(winner) {
                    return Err(ParseBoardError::UnreachableWin(winner));
                }
                pos.outcome = Outcome::Win(winner);
                pos.winning_line = Some(line);
            }
            (None, None) => {
                if pos.empty.is_empty() {
                    pos.outcome = Outcome::Draw;
                }
            }
        }
        Ok(pos)
    }

    /// Reads the board text of [`FromStr`], with an explicit win length
    /// (`None`: the default, [`Rules::with_default_k`]).
    pub fn from_board(text: &str, k: Option<u8>) -> Result<Position, ParseBoardError> {
        crate::notation::parse_board(text, k, WinCondition::AtLeastK)
    }

    /// [`from_board`](Position::from_board) with a win condition: under
    /// [`WinCondition::ExactlyK`] a board with an overline is a game in
    /// progress, not a won one.
    pub fn from_board_with(
        text: &str,
        k: Option<u8>,
        win: WinCondition,
    ) -> Result<Position, ParseBoardError> {
        crate::notation::parse_board(text, k, win)
    }

    /// The board's shape and win length.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whose turn it is (when the game is over: who would move next).
    #[inline]
    pub fn side_to_move(&self) -> Mark {
        self.turn
    }

    /// The mark on `square`, if any.
    #[inline]
    pub fn get(&self, square: Square) -> Option<Mark> {
        if self.marks[0].contains(square) {
            Some(Mark::X)
        } else if self.marks[1].contains(square) {
            Some(Mark::O)
        } else {
            None
        }
    }

    /// The squares holding `mark`.
    #[inline]
    pub fn marks(&self, mark: Mark) -> SquareSet {
        self.marks[mark.index()]
    }

    /// The empty squares of the board.
    #[inline]
    pub fn empty_squares(&self) -> SquareSet {
        self.empty
    }

    /// The squares the side to move may play: the empty ones (under renju,
    /// for X, those that are not [forbidden](Position::forbidden)), or none
    /// once the game is over.
    #[inline]
    pub fn legal_moves(&self) -> SquareSet {
        if self.outcome.is_over() {
            SquareSet::EMPTY
        } else if self.renju_applies() {
            let mut moves = self.empty;
            for sq in self.empty {
                if self.forbidden(sq).is_some() {
                    moves.remove(sq);
                }
            }
            moves
        } else {
            self.empty
        }
    }

    /// Whether `square` is a legal move now.
    #[inline]
    pub fn is_legal(&self, square: Square) -> bool {
        !self.outcome.is_over() && self.empty.contains(square) && self.forbidden(square).is_none()
    }

    /// Under renju with X to move, why X may not play the empty `square`
    /// (see [`renju`](crate::renju)); `None` otherwise.
    pub fn forbidden(&self, square: Square) -> Option<crate::Forbidden> {
        if self.renju_applies() {
            crate::renju::forbidden(&self.rules, self, square)
        } else {
            None
        }
    }

    /// Whether the side to move has forbidden moves: X under renju.
    #[inline]
    fn renju_applies(&self) -> bool {
        self.rules.is_renju() && self.turn == Mark::X
    }

    /// Marks on the board.
    #[inline]
    pub fn mark_count(&self) -> usize {
        self.rules.cell_count() - self.empty.len()
    }

    /// Where the game stands.
    #[inline]
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// The winning line, once someone has won.
    #[inline]
    pub fn winning_line(&self) -> Option<Line> {
        self.winning_line
    }

    /// The moves played since the starting position, oldest first.
    #[inline]
    pub fn history(&self) -> &[Square] {
        &self.history[..self.history_len as usize]
    }

    /// The last move played, if any since the starting position.
    #[inline]
    pub fn last_move(&self) -> Option<Square> {
        self.history().last().copied()
    }

    /// Zobrist hash of the marks (side to move follows from them).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hashes[0]
    }

    /// The smallest hash over the board's symmetries: equal for positions
    /// that are rotations or reflections of each other.
    #[inline]
    pub fn canonical_hash(&self) -> u64 {
        let n = if self.rules.is_square() { 8 } else { 4 };
        let mut best = self.hashes[0];
        for &h in &self.hashes[1..n] {
            best = best.min(h);
        }
        best
    }

    /// Hash of the position seen through `symmetry`.
    #[inline]
    pub fn hash_under(&self, symmetry: Symmetry) -> u64 {
        self.hashes[Symmetry::ALL
            .iter()
            .position(|&s| s == symmetry)
            .unwrap_or(0)]
    }

    /// Plays `square` for the side to move.
    ///
    /// On error the position is unchanged.
    #[inline]
    pub fn play(&mut self, square: Square) -> Result<(), PlayError> {
        if self.outcome.is_over() {
            return Err(PlayError::GameOver);
        }
        if !self.rules.contains(square) {
            return Err(PlayError::OffBoard(square));
        }
        if let Some(mark) = self.get(square) {
            return Err(PlayError::Occupied(square, mark));
        }
        if let Some(why) = self.forbidden(square) {
            return Err(PlayError::Forbidden(square, why));
        }
        let mark = self.turn;
        self.put(square, mark);
        self.history[self.history_len as usize] = square;
        self.history_len += 1;
        self.turn = mark.other();
        if let Some(line) = self.line_through(square, mark) {
            self.outcome = Outcome::Win(mark);
            self.winning_line = Some(line);
        } else if self.empty.is_empty() {
            self.outcome = Outcome::Draw;
        }
        Ok(())
    }

    /// Takes back the last move, returning its square; `None` at the start.
    #[inline]
    pub fn undo(&mut self) -> Option<Square> {
        if self.history_len == 0 {
            return None;
        }
        self.history_len -= 1;
        let square = self.history[self.history_len as usize];
        let mark = self.turn.other();
        self.take(square, mark);
        self.turn = mark;
        // The position before any move of the history was in progress.
        self.outcome = Outcome::InProgress;
        self.winning_line = None;
        Some(square)
    }

    /// Whether `mark` on the empty `square` would make a winning line (k in
    /// a row, or exactly k under [`WinCondition::ExactlyK`](crate::WinCondition), by
    /// `mark`'s rule under renju).
    #[inline]
    pub fn completes_line(&self, square: Square, mark: Mark) -> bool {
        let set = &self.marks[mark.index()];
        self.rays(square).iter().any(|ray| {
            let (back, forward) = ray.runs(set, square.index());
            self.rules.is_winning_length_for(mark, 1 + back + forward)
        })
    }

    /// Number of consecutive `mark`s from `square` (not counted) going
    /// `sign` (+1 or -1) along `direction`, on the board.
    #[inline]
    pub fn run(&self, square: Square, mark: Mark, direction: Direction, sign: i8) -> u32 {
        let set = &self.marks[mark.index()];
        let d = Direction::ALL
            .iter()
            .position(|&x| x == direction)
            .unwrap_or(0);
        let ray = self.rays(square)[d];
        if sign < 0 {
            run_length(set, square.index(), ray.step.wrapping_neg(), ray.back)
        } else {
            run_length(set, square.index(), ray.step, ray.forward)
        }
    }

    /// For each direction of [`Direction::ALL`], the index step and how many
    /// cells lie on the board behind and ahead of `square`: walking a line
    /// then needs no coordinate checks, and no index is divided per step.
    #[inline]
    fn rays(&self, square: Square) -> [Ray; 4] {
        let (c, r) = (square.column() as u32, square.row() as u32);
        let right = (self.rules.columns() as u32).saturating_sub(c + 1);
        let down = (self.rules.rows() as u32).saturating_sub(r + 1);
        const S: usize = Square::STRIDE;
        [
            Ray {
                step: 1,
                back: c,
                forward: right,
            },
            Ray {
                step: S,
                back: r,
                forward: down,
            },
            Ray {
                step: S + 1,
                back: c.min(r),
                forward: right.min(down),
            },
            // Up and to the right: the index goes back a row, on a column.
            Ray {
                step: (S - 1).wrapping_neg(),
                back: c.min(down),
                forward: right.min(r),
            },
        ]
    }

    /// Checks the whole board for a line of `mark`, without using the
    /// incremental state: the reference the incremental check is tested against.
    pub fn find_line(&self, mark: Mark) -> Option<Line> {
        self.marks[mark.index()]
            .into_iter()
            .find_map(|sq| self.line_through(sq, mark))
    }

    /// The position seen through a symmetry of the board (history included).
    pub fn transformed(&self, symmetry: Symmetry) -> Position {
        let mut pos = self.clone();
        pos.marks = [SquareSet::EMPTY; 2];
        pos.empty = self.rules.mask();
        pos.hashes = [0; 8];
        for mark in Mark::ALL {
            for sq in self.marks[mark.index()] {
                pos.put(symmetry.apply(sq, &self.rules), mark);
            }
        }
        for (dst, src) in pos.history.iter_mut().zip(self.history()) {
            *dst = symmetry.apply(*src, &self.rules);
        }
        pos.winning_line = pos
            .winning_line
            .and_then(|_| pos.find_line(self.turn.other()));
        pos
    }

    /// The maximal run of `mark` through its own mark on `square`, if it
    /// wins (k long, or more unless only exactly k wins).
    fn line_through(&self, square: Square, mark: Mark) -> Option<Line> {
        let set = &self.marks[mark.index()];
        let rays = self.rays(square);
        Direction::ALL.iter().zip(rays).find_map(|(&d, ray)| {
            let (back, forward) = ray.runs(set, square.index());
            let len = 1 + back + forward;
            self.rules.is_winning_length_for(mark, len).then(|| Line {
                start: square.step(d, -(back as i8)).unwrap_or(square),
                direction: d,
                len: len as u8,
            })
        })
    }

    /// Whether some mark of `winner`, taken away, leaves them no line: the
    /// mark a real game would have ended with.
    fn has_last_mark(&self, winner: Mark) -> bool {
        let mut probe = self.clone();
        self.marks[winner.index()].into_iter().any(|sq| {
            probe.take(sq, winner);
            let unwon = probe.find_line(winner).is_none();
            probe.put(sq, winner);
            unwon
        })
    }

    #[inline]
    fn put(&mut self, square: Square, mark: Mark) {
        self.marks[mark.index()].insert(square);
        self.empty.remove(square);
        self.toggle_hashes(square, mark);
    }

    #[inline]
    fn take(&mut self, square: Square, mark: Mark) {
        self.marks[mark.index()].remove(square);
        self.empty.insert(square);
        self.toggle_hashes(square, mark);
    }

    #[inline]
    fn toggle_hashes(&mut self, square: Square, mark: Mark) {
        // The square's image under each symmetry, in Symmetry::ALL's order
        // (see Symmetry::apply), from its coordinates and their mirrors:
        // a row or column times the stride plus a column or row.
        const S: usize = Square::STRIDE;
        let (c, r) = (square.column() as usize, square.row() as usize);
        let mc = (self.rules.columns() as usize - 1).wrapping_sub(c);
        let mr = (self.rules.rows() as usize - 1).wrapping_sub(r);
        let key = |index: usize| zobrist::key_at(mark, index);
        self.hashes[0] ^= key(r * S + c);
        self.hashes[1] ^= key(mr * S + mc);
        self.hashes[2] ^= key(r * S + mc);
        self.hashes[3] ^= key(mr * S + c);
        if self.rules.is_square() {
            self.hashes[4] ^= key(c * S + mr);
            self.hashes[5] ^= key(mc * S + r);
            self.hashes[6] ^= key(c * S + r);
            self.hashes[7] ^= key(mc * S + mr);
        }
    }
}

/// A line through a square: the index step along it, and the cells on the
/// board behind and ahead of the square.
#[derive(Copy, Clone)]
struct Ray {
    step: usize,
    back: u32,
    forward: u32,
}

impl Ray {
    /// The runs of the set's squares behind and ahead of `index`.
    #[inline]
    fn runs(&self, set: &SquareSet, index: usize) -> (u32, u32) {
        (
            run_length(set, index, self.step.wrapping_neg(), self.back),
            run_length(set, index, self.step, self.forward),
        )
    }
}

/// Consecutive squares of `set` from `index` (not counted), adding `step`
/// (wrapping) each time, at most `max` of them.
#[inline]
fn run_length(set: &SquareSet, index: usize, step: usize, max: u32) -> u32 {
    let mut n = 0;
    let mut i = index;
    while n < max {
        i = i.wrapping_add(step);
        if !set.contains(Square::from_index(i as u16)) {
            break;
        }
        n += 1;
    }
    n
}

impl crate::renju::Stones for Position {
    #[inline]
    fn stone(&self, square: Square) -> Option<Mark> {
        self.get(square)
    }
}

impl PartialEq for Position {
    /// Same rules, same marks (history is not compared).
    fn eq(&self, other: &Position) -> bool {
        self.rules == other.rules && self.marks == other.marks
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self}, {}, {:?})", self.rules, self.outcome)
    }
}

impl fmt::Display for Position {
    /// Board text: rows top to bottom separated by `/`, cells `x`, `o`, `.`;
    /// a single row ends in `/` (`x.o./`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        for r in 0..self.rules.rows() {
            if r > 0 {
                f.write_char('/')?;
            }
            for c in 0..self.rules.columns() {
                let sq = Square::new(c, r).ok_or(fmt::Error)?;
                f.write_char(match self.get(sq) {
                    Some(Mark::X) => 'x',
                    Some(Mark::O) => 'o',
                    None => '.',
                })?;
            }
        }
        // A lone row would read back as a square board; the slash keeps it a row.
        if self.rules.rows() == 1 && self.rules.columns() > 1 {
            f.write_char('/')?;
        }
        Ok(())
    }
}

impl FromStr for Position {
    type Err = ParseBoardError;

    /// Board text such as `x.o/.x./..o` (see [`crate::notation`]); the win
    /// length is the default ([`Rules::with_default_k`]).
    fn from_str(s: &str) -> Result<Position, ParseBoardError> {
        crate::notation::parse_board(s, None, WinCondition::AtLeastK)
    }
}
