//! The `ttt` program and the `pbrain-ttt` Gomocup brain, as a library both
//! binaries share (and tests can call).
#![forbid(unsafe_code)]

pub mod ai_stub;
/// The computer players (`ttt_core::ai`).
pub use ai_stub as ai;
pub mod common;
pub mod engine;
pub mod pbrain;
