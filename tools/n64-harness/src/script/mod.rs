//! The test script language (see `README.md` for the user-facing
//! description): one command per line, `#` starts a comment.
//!
//! * [`names`]: CPU modes, controller buttons and paks by their script
//!   names.
//! * [`model`]: what a parsed script is (events at frames, expectations).
//! * `token`: a line as words and "quoted strings".
//! * `value`: numbers, ports, buttons, colours... inside the words.
//! * `parse` and `parse_expect`: the commands, and the `expect` lines.
//!
//! The expectation types and how they are checked live in
//! [`crate::expect`].

pub mod model;
pub mod names;
mod parse;
mod parse_expect;
mod token;
mod value;

#[cfg(test)]
mod tests;

pub use model::{
    Action, Event, RandomInput, Script, ScriptError, DEFAULT_PIXEL_TOLERANCE, DEFAULT_PRESS_FRAMES,
    MAX_FRAME,
};
pub use names::{Button, CpuMode, Pak, ALL_BUTTONS_MASK};
