//! Headless mupen64plus frontend for end-to-end tests of N64 ROMs.
//!
//! * [`script`]: the test script language (tokens, parsing; no emulator
//!   needed).
//! * [`expect`]: the expectation types and their checks.
//! * [`run`]: running one script in this process, and many runs as child
//!   processes.
//! * [`framebuffer`]: decoding the VI framebuffer from RDRAM, PNG output.
//! * [`emu`]: loading mupen64plus-core and the harness plugins.
//! * [`audio`]: the audio a run played.
//! * [`random`]: the seeded input of `random` lines.
//!
//! See `README.md` for the script format and the command line.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod audio;
pub mod emu;
pub mod expect;
pub mod framebuffer;
pub mod random;
pub mod run;
pub mod script;
