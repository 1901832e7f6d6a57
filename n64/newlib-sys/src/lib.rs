//! newlib's C library (libc, libm) for the ROM's ABI, built by `build.rs`
//! from Debian's `newlib-source` tarball.
//!
//! The crate has no Rust items: `libdragon-sys` compiles libdragon against
//! these headers and puts these libraries into its own archive (newlib and
//! libdragon call each other, and GNU ld resolves cycles only inside one
//! archive). It finds them through this crate's `links` metadata
//! (`DEP_NEWLIB_INCLUDE`, `DEP_NEWLIB_LIB`, ...).

#![no_std]
