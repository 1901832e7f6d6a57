//! The evaluation's shape terms (five in a row, not renju, boards larger
//! than 9x9): what each empty cell would make for each side, counted by
//! threat class on a pattern board kept move by move.
//!
//! The line windows (`eval.rs`) count marks; they cannot tell a split three
//! that is one move from an open four from a blocked one, nor a cell where
//! two lines cross. The pattern board can: for every empty cell and side
//! it keeps the cell's threat class (open two, blocked three, double two,
//! open three, four-three...; [`ThreatClass`]) and how many cells have each
//! class. The evaluation adds a weight per class and side (the side to
//! move's cells and the opponent's weigh differently: the side to move plays
//! first) and a bonus for having the move.
//!
//! The weights were fitted to Rapfi 0.43 (classical evaluation, 50 ms a
//! position): 5,981 quiet positions (no four-window) from its games against
//! `strong`, its evaluation read as a win rate `1 / (1 + e^(-v/200))`
//! (mates as 0 or 1), and ours as `1 / (1 + e^(-e/1500))` with the windows'
//! value kept and these terms added, least squares on the win rate (Gauss-
//! Newton), 70% of the positions to fit and 30% to check: the squared error
//! of the predicted win rate fell from 0.106 (windows alone) to 0.064. In
//! play, 15x15 freestyle against Rapfi at 100 ms a move with `strong` at
//! 1 s, the 40 balanced openings played twice: see the README.
//!
//! Taking a stone back copies the cells it changed back from a record kept
//! when it was placed (the deepest [`UNDO_DEPTH`] stones of a search);
//! reading the patterns again would cost as much as placing it.
use crate::pattern::{PatternBoard, PatternUndo, ThreatClass};
use crate::{Mark, Position, Square};

/// The fewest cells of a board with shape terms: more than 9x9. The
/// weights were fitted and measured on 15x15; the console's boards (up to
/// 9x9) keep the cheaper node (on 15x15 a node costs about 1.6 times as
/// much with the pattern board), and a console game still replays move for
/// move on the desktop with the same node budget.
pub(super) const MIN_CELLS: usize = 82;

/// Stones in a row (from the loaded position) whose changes are recorded
/// for a cheap take-back; deeper ones read their patterns again.
const UNDO_DEPTH: usize = 64;

/// Weight of each class of the side to move's empty cells (index: the
/// class as `u8`). The forcing classes from a four up are mostly settled by
/// the search before a position is evaluated.
const MOVER: [i32; 13] = [
    0, 15, -9, -34, 113, 144, 296, 412, -243, 360, 4223, 15842, 0,
];
/// Weight of each class of the opponent's empty cells.
const WAITER: [i32; 13] = [0, 0, 12, 32, -12, -53, -214, -45, 126, -487, -1701, -948, 0];
/// What having the move is worth besides the classes.
const TEMPO: i32 = 295;

/// The pattern board and the take-back records of the stones on it since
/// the position was loaded.
pub(super) struct ShapeEval {
    board: PatternBoard,
    undo: [PatternUndo; UNDO_DEPTH],
    /// Stones placed since loading.
    placed: usize,
}

impl ShapeEval {
    /// The shape terms of `pos`: `None` unless five in a row wins, renju
    /// is off (black's forbidden cells change which shapes are threats) and
    /// the board is larger than 9x9 ([`MIN_CELLS`]).
    pub(super) fn new(pos: &Position) -> Option<ShapeEval> {
        let rules = pos.rules();
        if rules.is_renju() || rules.cell_count() < MIN_CELLS {
            return None;
        }
        Some(ShapeEval {
            board: PatternBoard::new(pos).ok()?,
            undo: [const { PatternUndo::EMPTY }; UNDO_DEPTH],
            placed: 0,
        })
    }

    /// Puts a stone of `mark` on the empty `sq`.
    #[inline]
    pub(super) fn place(&mut self, sq: Square, mark: Mark) {
        match self.undo.get_mut(self.placed) {
            Some(record) => self.board.place_saving(sq, mark, record),
            None => self.board.place(sq, mark),
        }
        self.placed += 1;
    }

    /// Takes back the last stone placed: `mark` on `sq`.
    #[inline]
    pub(super) fn remove(&mut self, sq: Square, mark: Mark) {
        self.placed -= 1;
        match self.undo.get(self.placed) {
            Some(record) => self.board.remove_restoring(sq, mark, record),
            None => self.board.remove(sq, mark),
        }
    }

    /// The shape terms for the side to move, `to_move`.
    pub(super) fn value(&self, to_move: Mark) -> i32 {
        let mut value = TEMPO;
        for class in ThreatClass::ALL {
            let c = class as usize;
            value += MOVER[c] * self.board.count(to_move, class) as i32
                + WAITER[c] * self.board.count(to_move.other(), class) as i32;
        }
        value
    }

    /// What a stone of `mark` on the empty `sq` makes.
    pub(super) fn class(&self, sq: Square, mark: Mark) -> ThreatClass {
        self.board.class(sq, mark)
    }

    /// Whether `mark` has a cell where a stone wins by force unless the
    /// other side answers at once: an open-four cell (an open three, or two
    /// threes crossing) or a four-three cell.
    pub(super) fn threatens(&self, mark: Mark) -> bool {
        self.board.count(mark, ThreatClass::OpenFour) > 0
            || self.board.count(mark, ThreatClass::FourThree) > 0
    }

    /// Against the other side's four-three cells, the cells where a stone
    /// of `me` leaves it none: those that defuse them all (the cell
    /// itself, and the cells that break its four or its three). `None`
    /// when the other side has no four-three cell.
    pub(super) fn four_three_defences(&self, me: Mark) -> Option<crate::SquareSet> {
        if self.board.count(me.other(), ThreatClass::FourThree) == 0 {
            return None;
        }
        self.board.defences(me, ThreatClass::FourThree)
    }

    /// The classes of the empty `sq` (on the board) for X and O, as
    /// numbers.
    #[inline]
    pub(super) fn class_numbers(&self, sq: Square) -> [u8; 2] {
        self.board.class_numbers(sq)
    }
}

impl super::Engine<'_> {
    /// The shape terms' part of a move (`add`) or of its take-back.
    #[inline]
    pub(super) fn update_shapes(&mut self, sq: Square, mark: Mark, add: bool) {
        if let Some(shapes) = &mut self.shapes {
            if add {
                shapes.place(sq, mark);
            } else {
                shapes.remove(sq, mark);
            }
        }
    }

    /// The shape terms for the side to move (0 without them).
    #[inline]
    pub(super) fn shape_value(&self) -> i32 {
        self.shapes
            .as_ref()
            .map_or(0, |shapes| shapes.value(self.turn))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_boards::{board, engine};
    use super::super::{Budget, Engine};
    use super::*;

    /// A search plays and takes back thousands of stones, past the depth
    /// of the take-back records too; afterwards the shape terms are those
    /// of the position read afresh.
    #[test]
    fn a_search_leaves_the_shape_terms_as_it_found_them() {
        // A game's first eight moves (Rapfi against `strong`), X to move.
        let mut pos = Position::new(crate::Rules::new(15, 15, 5).unwrap());
        for name in ["j6", "k11", "e9", "j11", "g9", "i9", "h11", "h8"] {
            pos.play(pos.rules().parse_square(name).unwrap()).unwrap();
        }
        let fresh = ShapeEval::new(&pos).unwrap().value(pos.side_to_move());
        let mut e = Engine::new(Budget::nodes(30_000), 1);
        assert!(e.analyse(&pos).is_some());
        assert_eq!(e.stats().nodes, 30_000);
        let shapes = e.shapes.as_ref().unwrap();
        assert_eq!(shapes.placed, 0);
        assert_eq!(shapes.value(pos.side_to_move()), fresh);
        // Stones beyond the records are read again, and taken back too.
        let mut deep = ShapeEval::new(&pos).unwrap();
        let empties: [Square; UNDO_DEPTH + 8] =
            core::array::from_fn(|i| pos.empty_squares().into_iter().nth(i).unwrap());
        for (i, &sq) in empties.iter().enumerate() {
            deep.place(sq, Mark::ALL[i % 2]);
        }
        for (i, &sq) in empties.iter().enumerate().rev() {
            deep.remove(sq, Mark::ALL[i % 2]);
        }
        assert_eq!(deep.value(pos.side_to_move()), fresh);
    }

    /// Two stones with room on both sides (an open two: four cells make an
    /// open three) are worth more to their side than two against the
    /// opponent's stone (two cells make a blocked three).
    #[test]
    fn an_open_two_is_worth_more_than_a_blocked_one() {
        // X to move in both; O has two stones in each.
        let open = board(&[(7, "......xx......."), (0, "o.............o")]);
        let blocked = board(&[(7, ".....oxx......."), (0, "o..............")]);
        let value = |pos: &Position| ShapeEval::new(pos).unwrap().value(Mark::X);
        assert!(
            value(&open) > value(&blocked) + 300,
            "{} {}",
            value(&open),
            value(&blocked)
        );
        // And the whole evaluation says so too.
        assert!(engine(&open).static_eval() > engine(&blocked).static_eval());
    }

    /// The console's boards (up to 9x9), renju and other win lengths keep
    /// the windows alone.
    #[test]
    fn only_large_five_in_a_row_boards_have_shape_terms() {
        use crate::Rules;
        let on = |rules: Rules| ShapeEval::new(&Position::new(rules)).is_some();
        assert!(on(Rules::new(15, 15, 5).unwrap()));
        assert!(on(Rules::new(20, 20, 5).unwrap()));
        assert!(on(Rules::new(10, 10, 5).unwrap()));
        assert!(!on(Rules::new(9, 9, 5).unwrap()));
        assert!(!on(Rules::new(15, 15, 5).unwrap().with_renju().unwrap()));
        assert!(!on(Rules::new(15, 15, 4).unwrap()));
    }
}
