//! The expectations a script makes, each type with its check, and the
//! outcome of a check.
//!
//! * [`text`]: the ROM's IS-Viewer lines (`expect "text" by F`, ...).
//! * [`picture`]: one frame's pixels and RDRAM words (`expect pixel`,
//!   `expect rect`, `expect u32`).
//! * [`screen`]: `expect screen changes every N`.
//! * [`audio`]: `expect audio ...`.
//! * [`gap`]: the longest stretch without an event (`every` checks).

pub mod audio;
pub mod gap;
pub mod picture;
pub mod screen;
pub mod text;

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// The script line of the expectation.
    pub line: usize,
    pub passed: bool,
    /// What was checked, e.g. `expect "screen title" by 300`.
    pub what: String,
    /// Why it passed or failed.
    pub detail: String,
}
