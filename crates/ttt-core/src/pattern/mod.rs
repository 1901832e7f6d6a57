//! Gomoku threat patterns (five in a row): for every empty cell and each
//! side, what a stone there makes along each line ([`LinePattern`]: open
//! three, four, open four...) and over all four lines ([`ThreatClass`]:
//! four-three, double three...), kept up to date move by move by
//! [`PatternBoard`].
//!
//! This is the knowledge strong gomoku engines read instead of counting
//! k-cell windows: which cells win, which must be answered and with what.
//! A pattern depends on the five cells on each side of a cell along its
//! line, so all 3^10 neighbourhoods are classified once, by the build
//! script (one table per five rule: five or more wins, or exactly five,
//! 58 KB each, linked only where used); the board
//! keeps each line as one 64-bit word and reads a pattern with two table
//! lookups. `ttt threats` shows them for a board.
//!
//! Not judged here: renju's forbidden moves (a cell may make black a four
//! and still be forbidden: [`Position::forbidden`](crate::Position::forbidden)
//! tells), and whether the opponent's answer to a threat is itself a threat.
mod board;
mod classify;
mod error;
mod line;
mod probe;
mod threat;
mod weights;

pub use board::{PatternBoard, PatternUndo};
pub use error::NotFiveInARow;
pub use line::LinePattern;
pub use probe::Probe;
pub use threat::ThreatClass;
pub(crate) use threat::COMBINATIONS;
pub(crate) use weights::{by_multiset, CellWeights};
pub use weights::{multiset_index, MULTISETS};
