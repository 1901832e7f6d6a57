//! Rules, notation and computer players for m,n,k-games: tic-tac-toe and its
//! bigger cousins, on boards of 1x1 up to 20x20 with k in a row to win.
//!
//! The crate is `#![no_std]` and never allocates, so the same code runs in the
//! desktop program and on a Nintendo 64. Memory the engine needs beyond the
//! stack (a transposition table) is lent by the caller as a slice.
//!
//! ```
//! use ttt_core::{Outcome, Position, Rules, Mark};
//!
//! let mut pos = Position::new(Rules::CLASSIC);
//! for text in ["5", "1", "9", "3", "2", "8", "7"] {
//!     let square = pos.rules().parse_square(text).unwrap();
//!     pos.play(square).unwrap();
//! }
//! assert_eq!(pos.to_string(), "oxo/.x./xox");
//! assert_eq!(pos.outcome(), Outcome::InProgress);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ai;
mod error;
mod mark;
pub mod notation;
pub mod pattern;
pub mod perft;
mod position;
pub mod renju;
pub mod rng;
mod rules;
pub mod series;
mod square;
mod squareset;
pub mod symmetry;
pub mod zobrist;

pub use error::{ParseBoardError, ParseRulesError, ParseSquareError, PlayError, RulesError};
pub use mark::Mark;
pub use notation::SquareFormat;
pub use position::{Line, Outcome, Position};
pub use renju::Forbidden;
pub use rules::{Rules, WinCondition};
pub use square::{Direction, Square};
pub use squareset::SquareSet;
pub use symmetry::Symmetry;

/// Largest number of columns or rows a board may have.
pub const MAX_SIDE: u8 = 20;
/// Largest number of cells a board may have (20 x 20).
pub const MAX_CELLS: usize = MAX_SIDE as usize * MAX_SIDE as usize;
