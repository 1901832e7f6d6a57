//! Opening books for the exact solver, generated at build time by
//! `build.rs` (`ttt_core::ai::book`): on 4x4 k=4 the first moves of
//! `perfect`/`impossible` (every position with fewer than 4 marks) come from
//! the book instead of a search of up to 76,000 nodes (0.4-1 s on the N64).
//! The move is the one the search would choose with the same seed, so the
//! desktop (`ttt play --seed`, no book) replays console games.
use ttt_core::ai::book::{Book, BookEntry};
use ttt_core::Rules;

include!(concat!(env!("OUT_DIR"), "/books.rs"));

/// The book for `rules`, if the console has one.
pub fn for_rules(rules: &Rules) -> Option<&'static Book> {
    BOOKS.iter().copied().find(|b| b.is_for(rules))
}
