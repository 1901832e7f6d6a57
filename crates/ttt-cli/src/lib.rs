//! The `ttt` program and the `pbrain-ttt` Gomocup brain, as a library both
//! binaries share (and tests can call).
#![forbid(unsafe_code)]

/// The computer players.
pub use ttt_core::ai;
pub mod common;
pub mod engine;
pub mod interrupt;
pub mod lines;
pub mod output_file;
pub mod pbrain;
pub mod progress;
pub mod search_report;
