//! Header word 0x10 under two contracts. Nintendo's IPL3 reads it as CRC1
//! (with CRC2 at 0x14) and hangs on a mismatch; libdragon's compat IPL3
//! (`boot/loader_compat.c`) reads it as a byte count instead, and loads only
//! that many bytes when `0 < word <= 8 MiB - (entry & 0x1FFFFFFF) - 32 KiB`
//! (otherwise 1 MiB). A random CRC1 falls below that bound in about 0.2 % of
//! builds, which would cut the program short.
//!
//! One layout serves both: the packer keeps the CRC valid and makes CRC1
//! larger than the bound by choosing an 8-byte pad inside the
//! checksummed window, after the program (`settle_pad`).

use crate::checksum::{Cic6102State, CHECKSUM_LEN, CHECKSUM_START, WINDOW_WORDS};
use crate::error::RomError;

/// RDRAM libdragon's IPL3 reserves at the top of the first 8 MiB for its
/// loader and stack (`boot/loader.h`: 28 KiB + 4 KiB).
pub const RESERVED: u32 = 32 * 1024;
/// What the compat IPL3 loads when the word is 0 or above the bound.
pub const DEFAULT_LOAD: u32 = 1 << 20;
/// Length of the pad: two big-endian words.
pub const PAD_LEN: usize = 8;
/// Pad candidates the packer tries before giving up.
pub const PAD_TRIES: u32 = 1 << 16;

/// The largest word 0x10 that the compat IPL3 takes as a byte count for a
/// program at `entry` (computed in wrapping u32 arithmetic, as the IPL3's C
/// code does).
pub fn size_bound(entry: u32) -> u32 {
    (8u32 << 20)
        .wrapping_sub(entry & 0x1FFF_FFFF)
        .wrapping_sub(RESERVED)
}

/// How many bytes from ROM 0x1000 the compat IPL3 loads, given header word
/// 0x10 and the entry point.
pub fn load_len(word_0x10: u32, entry: u32) -> u32 {
    if word_0x10 == 0 || word_0x10 > size_bound(entry) {
        DEFAULT_LOAD
    } else {
        word_0x10
    }
}

/// True when the compat IPL3 would load only `word_0x10` bytes rather than
/// the full 1 MiB the layout expects.
pub fn loads_partial(word_0x10: u32, entry: u32) -> bool {
    load_len(word_0x10, entry) != DEFAULT_LOAD
}

/// The `i`-th pad candidate: two words `v` and `-v`. Their sum is zero, so
/// CRC1's word sum (t6) is unchanged, while the xor (t3) changes by
/// `v ^ -v`, which for `v = 1 << 23` sets bits 24..31. A single word cannot
/// do that: it moves CRC1 only through the carries of the sum, which often
/// never reach the high bits.
pub fn pad_candidate(i: u32) -> (u32, u32) {
    let v = if i < 512 {
        i << 23
    } else {
        i.wrapping_mul(0x9E37_79B9)
    };
    (v, v.wrapping_neg())
}

/// Chooses the 8-byte pad at `rom[pad_at..pad_at + 8]` (inside the
/// checksummed window, 4-aligned) so that CRC1 is above the compat bound
/// for `entry`; writes it and returns (CRC1, CRC2). Tries zeros first, so a
/// ROM that needs no pad keeps zeros there. The checksum state up to the pad
/// is computed once; each try then costs two words plus the tail (constant
/// time when the tail is zero, as the packer's always is).
pub fn settle_pad(rom: &mut [u8], pad_at: usize, entry: u32) -> Result<(u32, u32), RomError> {
    let window_end = CHECKSUM_START + CHECKSUM_LEN;
    if pad_at < CHECKSUM_START || pad_at % 4 != 0 || pad_at + PAD_LEN > window_end.min(rom.len()) {
        return Err(RomError::NoRoomForPad { offset: pad_at });
    }
    let mut prefix = Cic6102State::new();
    prefix.update(&rom[CHECKSUM_START..pad_at]);
    let tail = &rom[pad_at + PAD_LEN..window_end.min(rom.len())];
    let tail_is_zero = tail.iter().all(|&b| b == 0);
    let bound = size_bound(entry);
    for i in 0..PAD_TRIES {
        let (first, second) = pad_candidate(i);
        let mut state = prefix;
        state.word(first);
        state.word(second);
        if !tail_is_zero {
            state.update(tail);
        }
        state.zeros(WINDOW_WORDS - state.words());
        let crc = state.finish();
        if !loads_partial(crc.0, entry) {
            rom[pad_at..pad_at + 4].copy_from_slice(&first.to_be_bytes());
            rom[pad_at + 4..pad_at + 8].copy_from_slice(&second.to_be_bytes());
            return Ok(crc);
        }
    }
    Err(RomError::NoPadValue { entry, bound })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checksum::cic6102;

    #[test]
    fn bound_for_our_entry() {
        // 8 MiB - 0x400 - 32 KiB, the figure in the design notes.
        assert_eq!(size_bound(0x8000_0400), 0x7F_7C00);
        assert_eq!(load_len(0, 0x8000_0400), DEFAULT_LOAD);
        assert_eq!(load_len(0x7F_7C00, 0x8000_0400), 0x7F_7C00);
        assert_eq!(load_len(0x7F_7C01, 0x8000_0400), DEFAULT_LOAD);
        assert_eq!(load_len(0x2_0000, 0x8000_0400), 0x2_0000);
        assert!(loads_partial(1, 0x8000_0400));
        assert!(!loads_partial(0xFFFF_FFFF, 0x8000_0400));
        // The KSEG1 alias of the same address has the same bound.
        assert_eq!(size_bound(0xA000_0400), 0x7F_7C00);
    }

    /// A window whose CRC1 with a zero pad is below the bound. Its last two
    /// program words are searched for that: each pseudo-random pair changes
    /// both the word sum and the xor, so each try gives an unrelated CRC1
    /// (about 1 in 500 is low enough) at O(1) cost.
    #[test]
    fn pad_moves_a_low_crc1_above_the_bound() {
        let entry = 0x8000_0400;
        let pad_at = 0x1000 + 0x100;
        let mut rom = vec![0u8; 0x20_0000];
        for (i, b) in rom[0x1000..pad_at - 8].iter_mut().enumerate() {
            *b = (i * 7 + 3) as u8;
        }
        let mut prefix = Cic6102State::new();
        prefix.update(&rom[0x1000..pad_at - 8]);
        let words = (1u32..1 << 20)
            .map(|k| {
                (
                    k.wrapping_mul(0x2545_F491),
                    k.wrapping_mul(0x9E37_79B9) ^ 0x5BD1_E995,
                )
            })
            .find(|&(w1, w2)| {
                let mut s = prefix;
                s.word(w1);
                s.word(w2);
                s.zeros(WINDOW_WORDS - s.words());
                loads_partial(s.finish().0, entry)
            })
            .expect("a low CRC1 within 2^20 tries");
        rom[pad_at - 8..pad_at - 4].copy_from_slice(&words.0.to_be_bytes());
        rom[pad_at - 4..pad_at].copy_from_slice(&words.1.to_be_bytes());
        assert!(loads_partial(cic6102(&rom).0, entry));
        let program = rom[0x1000..pad_at].to_vec();

        let crc = settle_pad(&mut rom, pad_at, entry).unwrap();
        assert_ne!(&rom[pad_at..pad_at + PAD_LEN], &[0; PAD_LEN]);
        assert_eq!(crc, cic6102(&rom));
        assert!(crc.0 > size_bound(entry));
        assert_eq!(&rom[0x1000..pad_at], &program[..]);
        assert!(rom[pad_at + PAD_LEN..].iter().all(|&b| b == 0));
    }

    /// The first non-zero candidate leaves the word sum alone and flips
    /// CRC1's top byte, which lifts any CRC1 below 2^24 over the bound.
    #[test]
    fn first_candidate_sets_the_top_byte() {
        let (v, minus_v) = pad_candidate(1);
        assert_eq!(v.wrapping_add(minus_v), 0);
        assert_eq!(v ^ minus_v, 0xFF00_0000);
    }

    #[test]
    fn pad_with_a_nonzero_tail() {
        let mut rom = vec![0x5Au8; 0x10_2000];
        let crc = settle_pad(&mut rom, 0x2000, 0x8000_0400).unwrap();
        assert_eq!(crc, cic6102(&rom));
        assert!(!loads_partial(crc.0, 0x8000_0400));
    }

    #[test]
    fn pad_outside_the_window_is_an_error() {
        let mut rom = vec![0u8; 0x20_0000];
        for at in [0xFFC, 0x1002, 0x10_1000, 0x10_0FFC, 0x10_0FFE] {
            assert_eq!(
                settle_pad(&mut rom, at, 0x8000_0400),
                Err(RomError::NoRoomForPad { offset: at })
            );
        }
        assert!(settle_pad(&mut rom, 0x10_0FF8, 0x8000_0400).is_ok());
        let mut short = vec![0u8; 0x1100];
        assert!(settle_pad(&mut short, 0x10FC, 0x8000_0400).is_err());
        assert!(settle_pad(&mut short, 0x10F8, 0x8000_0400).is_ok());
    }

    /// An entry so high that the bound wraps to u32::MAX: no CRC1 can be
    /// above it, and the packer says so instead of looping or panicking.
    #[test]
    fn no_pad_value_is_an_error() {
        let entry = 0x807F_8001;
        assert_eq!(size_bound(entry), u32::MAX);
        let mut rom = vec![0u8; 0x20_0000];
        assert_eq!(
            settle_pad(&mut rom, 0x1000, entry),
            Err(RomError::NoPadValue {
                entry,
                bound: u32::MAX
            })
        );
        assert!(rom.iter().all(|&b| b == 0), "nothing written on failure");
    }
}
