//! The pattern board as the search keeps it: for every empty cell and
//! side, what a stone there makes on each of its four lines and over all
//! four ([`PatternBoard`]), kept move by move; the search reads its
//! threats, replies, evaluation and move order from there. Five in a row
//! (five or more, or exactly five: the board reads its patterns from the
//! table of the rule), boards larger than 9x9, not renju: black's
//! forbidden cells change which shapes are threats.
//!
//! * `eval.rs`: the evaluation, from the cells' weights (`weights/`).
//! * `order.rs`: the move order, from other cell weights.
//! * `threats.rs`: winning cells, fours and forks, the exact replies to
//!   an open three or a four-three, the wins seen without a search.
//! * `policy.rs`: how selective the search is on this board.
//!
//! Taking a stone back copies the cells it changed back from a record kept
//! when it was placed (one a stone of the line played out, as many as the
//! caller lent: [`TAKE_BACKS`] by default); reading the patterns again would
//! cost as much as placing it. The records (about 32 KB) are lent, not
//! part of the board: the board is made and moved into the search each
//! move, and the console takes milliseconds to copy tens of KB.
use super::board::SearchBoard;
use super::rows::{cells_of, Rows};
use super::stones::Stones;
use crate::pattern::{PatternBoard, PatternUndo, ThreatClass};
use crate::{Mark, Position, Rules, Square};

mod eval;
mod order;
pub(super) mod policy;
mod threats;
mod weights;

#[cfg(test)]
mod tests;

/// The fewest cells of a board the pattern board is kept for: more than
/// 9x9. The weights were fitted on 15x15; the console's boards (up to
/// 9x9) keep the window board's cheaper node, and a console game still
/// replays move for move on the desktop with the same node budget.
const MIN_CELLS: usize = 82;

/// Take-back records an engine keeps of its own when none are lent
/// ([`Engine::set_take_backs`](crate::ai::Engine::set_take_backs)): the
/// stones in a row from the searched position whose take-back is a copy;
/// deeper ones read their patterns again (the same board, only slower).
pub const TAKE_BACKS: usize = 64;

/// Take-back records of a board's own ([`ShapeBoard::new`]).
pub(super) type OwnRecords = [PatternUndo; TAKE_BACKS];

/// The pattern board, and the take-back records of the stones on it since
/// the position was loaded: `U` is their storage, lent (`&mut
/// [PatternUndo]`, the engine's) or the board's own ([`OwnRecords`], the
/// threat probe's, made once per position).
pub(super) struct ShapeBoard<U = OwnRecords> {
    stones: Stones,
    /// Stones placed since loading.
    placed: usize,
    board: PatternBoard,
    /// One record a stone placed, from the first; stones past the last
    /// have none.
    undo: U,
}

impl ShapeBoard {
    /// Whether the pattern board fits `rules`: five in a row, not renju,
    /// more than 9x9 ([`MIN_CELLS`]).
    pub(super) fn fits(rules: &Rules) -> bool {
        rules.k() == 5 && !rules.is_renju() && rules.cell_count() >= MIN_CELLS
    }

    /// The pattern board of `pos` with take-back records of its own;
    /// `None` where it does not [`fit`](Self::fits) the rules.
    pub(super) fn new(pos: &Position) -> Option<ShapeBoard> {
        ShapeBoard::new_pausing(pos, [const { PatternUndo::EMPTY }; TAKE_BACKS], &mut || {})
    }
}

impl<U: AsMut<[PatternUndo]>> ShapeBoard<U> {
    /// The pattern board of `pos`, keeping its take-backs in `undo`,
    /// calling `pause` between stretches of the work (see
    /// [`PatternBoard::read_pausing`]), and once the cells' weights are
    /// summed; `None` where it does not [`fit`](Self::fits) the rules.
    pub(super) fn new_pausing(
        pos: &Position,
        undo: U,
        pause: &mut dyn FnMut(),
    ) -> Option<ShapeBoard<U>> {
        if !ShapeBoard::fits(pos.rules()) {
            return None;
        }
        let mut board = PatternBoard::read_pausing(pos, pause);
        pause();
        board.set_cell_weights(&eval::CELL_WEIGHTS);
        pause();
        let mut stones = Stones::new(*pos.rules());
        for mark in Mark::ALL {
            for sq in pos.marks(mark) {
                stones.place(sq, mark);
            }
        }
        stones.turn = pos.side_to_move();
        Some(ShapeBoard {
            stones,
            placed: 0,
            board,
            undo,
        })
    }
}

#[cfg(test)]
impl<U> ShapeBoard<U> {
    /// The pattern board itself.
    pub(super) fn patterns(&self) -> &PatternBoard {
        &self.board
    }
}

impl<U: AsMut<[PatternUndo]>> SearchBoard for ShapeBoard<U> {
    #[inline(always)]
    fn stones(&self) -> &Stones {
        &self.stones
    }

    #[inline]
    fn set_turn(&mut self, mark: Mark) {
        self.stones.turn = mark;
    }

    #[inline]
    fn apply(&mut self, sq: Square, mark: Mark) -> bool {
        let won = self.board.class(sq, mark) == ThreatClass::Five;
        match self.undo.as_mut().get_mut(self.placed) {
            Some(record) => self.board.place_saving(sq, mark, record),
            None => self.board.place(sq, mark),
        }
        self.placed += 1;
        self.stones.place(sq, mark);
        won
    }

    #[inline]
    fn unapply(&mut self, sq: Square, mark: Mark) {
        self.placed -= 1;
        match self.undo.as_mut().get(self.placed) {
            Some(record) => self.board.remove_restoring(sq, mark, record),
            None => self.board.remove(sq, mark),
        }
        self.stones.take_back(sq, mark);
    }

    #[inline]
    fn static_eval(&self) -> i32 {
        eval::value(&self.board, self.stones.turn)
    }

    const LOGIT: Option<i32> = Some(eval::LOGIT);

    #[inline]
    fn winning_cells(&self, mark: Mark) -> (Option<Square>, u32) {
        self.five_cells(mark)
    }

    #[inline]
    fn has_four_cells(&self, m: usize) -> bool {
        self.makes_a_four(Mark::ALL[m])
    }

    #[inline]
    fn four_cells(&self, m: usize) -> (Rows, Rows) {
        self.four_rows(m)
    }

    /// The pattern board's forks are exact: the first of them.
    #[inline]
    fn fork_cell(&mut self, _me: Mark, forks: &Rows) -> Option<Square> {
        cells_of(*forks).next()
    }

    #[inline]
    fn static_win(&mut self) -> Option<i32> {
        self.wins_unanswered(self.stones.turn)
    }

    #[inline]
    fn makes_three(&self, sq: Square, mark: Mark) -> bool {
        self.makes_a_three(sq, mark)
    }

    /// Never: renju keeps the window board.
    #[inline(always)]
    fn forbids(&self, _mark: Mark) -> bool {
        false
    }

    /// Never: renju keeps the window board.
    #[inline(always)]
    fn is_forbidden(&self, _sq: Square, _mark: Mark) -> bool {
        false
    }

    #[inline]
    fn candidate_cells(&self) -> Rows {
        // The exact replies to an open three (none: the position is lost),
        // else to a four-three, wherever they are.
        self.exact_replies()
            .or_else(|| self.four_three_replies())
            .unwrap_or_else(|| self.stones.frontier())
    }

    #[inline(always)]
    fn order_key(&self, sq: Square, m: usize) -> i32 {
        order::key(&self.board, sq, m)
    }

    #[inline(always)]
    fn class_before_move(&self, sq: Square, mark: Mark) -> Option<ThreatClass> {
        Some(self.board.class(sq, mark))
    }

    #[inline(always)]
    fn counted_fours(&self, _m: usize) -> u32 {
        0
    }
}
