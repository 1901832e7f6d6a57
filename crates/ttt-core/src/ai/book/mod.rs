//! Opening books for the exact solver: the answer of [`Solver::best_move`]
//! for the first plies of a board, worked out ahead of time (at build time on
//! the Nintendo 64, where solving an early 4x4 position takes seconds).
//!
//! A book does not store *a* move per position but the **set** of moves the
//! solver considers optimal (every move whose exact value equals the
//! position's value), so that the seed still picks among them exactly as
//! after a search: [`Solver::best_move`] shuffles the legal moves with the
//! seed and plays the first one of the set. With or without a book, the same
//! seed gives the same move (`tests/ai_book.rs` checks every entry).
//!
//! # Format
//!
//! One [`BookEntry`] per position up to symmetry, sorted by `key`:
//!
//! * `key`: the canonical hash of the position ([`Position::canonical_hash`],
//!   the smallest Zobrist hash over the board's symmetries);
//! * `moves`: the optimal moves **in the canonical frame**: bit
//!   `row * columns + column` is set for the cell `s.apply(sq)` of every
//!   optimal move `sq`, where `s` is the first symmetry of
//!   [`Symmetry::of`](crate::Symmetry::of) whose [`Position::hash_under`]
//!   equals the key (boards of at most 64 cells). When several symmetries give the key, the
//!   position is symmetric under them and so is the set: any of them maps it
//!   back;
//! * `value`: the position's exact value ([`encode_value`]).
//!
//! A lookup checks the rules, the ply (`mark_count() < plies`), and that
//! every move of the set is a legal move of the position; anything else is a
//! miss and the solver searches as usual. A 64-bit hash collision between a
//! position in the book and another one at the same ply is the only way a
//! book can be wrong (about one chance in 2^64 / entries per lookup).
//!
//! [`generate`] walks the positions (no allocation: it calls back once per
//! position, duplicates included, and the caller sorts and deduplicates).
use super::solver::Solver;
use super::tt::TtEntry;
use crate::{Position, Rules};
use table::{bit, canonical};

mod table;

pub use table::{decode_value, encode_value, Book, BookEntry, BookMoves};

/// The book entry of `pos` worked out with `solver`: its value and every move
/// that keeps it. `None` if the game is over or the board has more than 64
/// cells.
pub fn entry(solver: &mut Solver<'_>, pos: &Position) -> Option<BookEntry> {
    let rules = *pos.rules();
    if pos.outcome().is_over() || rules.cell_count() > 64 {
        return None;
    }
    let (key, sym) = canonical(pos);
    let root = solver.solve(pos);
    let mut moves = 0;
    let mut child = pos.clone();
    for sq in pos.legal_moves() {
        if child.play(sq).is_err() {
            continue;
        }
        if solver.solve(&child).parent() == root {
            moves |= bit(&rules, sym.apply(sq, &rules));
        }
        child.undo();
    }
    Some(BookEntry {
        key,
        moves,
        value: encode_value(root),
    })
}

/// Calls `emit` with the entry of every position of `rules` reachable with
/// fewer than `plies` marks on the board (games not over), solving each one
/// with `tt` as the table. Positions reached by several move orders or
/// symmetric to each other are emitted again each time they are reached
/// (the same entry): sort and deduplicate to build a [`Book`]. Only the
/// first position of each canonical class is expanded when `seen` says the
/// class was seen before (`seen(key)` returns whether `key` was already
/// visited, and records it); pass `|_| false` to walk every move order.
pub fn generate(
    rules: Rules,
    plies: u8,
    tt: &mut [TtEntry],
    seen: &mut dyn FnMut(u64) -> bool,
    emit: &mut dyn FnMut(BookEntry),
) {
    let mut solver = Solver::new(tt);
    let mut pos = Position::new(rules);
    walk(&mut solver, &mut pos, plies as usize, seen, emit);
}

fn walk(
    solver: &mut Solver<'_>,
    pos: &mut Position,
    plies: usize,
    seen: &mut dyn FnMut(u64) -> bool,
    emit: &mut dyn FnMut(BookEntry),
) {
    if pos.mark_count() >= plies || pos.outcome().is_over() {
        return;
    }
    if seen(pos.canonical_hash()) {
        return;
    }
    if let Some(e) = entry(solver, pos) {
        emit(e);
    }
    for sq in pos.legal_moves() {
        if pos.play(sq).is_ok() {
            walk(solver, pos, plies, seen, emit);
            pos.undo();
        }
    }
}
