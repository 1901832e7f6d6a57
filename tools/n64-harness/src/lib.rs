//! Headless mupen64plus frontend for end-to-end tests of N64 ROMs.
//!
//! * [`script`]: the test script format (parser, no emulator needed).
//! * [`framebuffer`]: decoding the VI framebuffer from RDRAM, PNG output.
//! * [`emu`]: loading mupen64plus-core and the harness plugins.
//! * [`run`]: running one script in this process.
//! * [`audio`]: the audio a run played and the `expect audio` checks.
//!
//! See `README.md` for the script format and the command line.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod audio;
pub mod emu;
pub mod framebuffer;
pub mod random;
pub mod run;
pub mod script;
