//! The console's own check of a cartridge's IPL3: at power-on the PIF boot
//! ROM (IPL2) computes a 48-bit checksum of ROM 0x40..0x1000 with the seed
//! the cartridge's CIC chip sends, and halts unless the CIC confirms it. A
//! ROM therefore boots only with an IPL3 "signed" for its CIC: Nintendo's,
//! or one whose signature was brute-forced (libdragon's).
//!
//! Algorithm as reverse-engineered from the PIF ROM (n64brew "PIF-NUS",
//! ares `mia/medium/nintendo-64.cpp`, jago85/PifChecksum); seeds and
//! checksums of the retail CICs as in ares `n64/cic/cic.cpp` and
//! N64FlashcartMenu `src/boot/cic.c`. The 6102 value is checked in the tests
//! against libdragon's signed compat IPL3.

use crate::header::{IPL3_LEN, IPL3_OFFSET, PROGRAM_OFFSET};

/// Multiplier of the PIF's seed expansion.
const MAGIC: u32 = 0x6C07_8965;

/// The lockout chips (CIC-NUS) a cartridge can carry, by the IPL3 they
/// accept. NTSC and PAL chips of one family share seed and checksum, except
/// 6101 and 7102.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cic {
    Cic6101,
    Cic7102,
    Cic6102Or7101,
    Cic6103Or7103,
    Cic6105Or7105,
    Cic6106Or7106,
}

impl Cic {
    /// Every CIC, in the order `identify` tries them.
    pub const ALL: [Cic; 6] = [
        Cic::Cic6102Or7101,
        Cic::Cic6101,
        Cic::Cic7102,
        Cic::Cic6103Or7103,
        Cic::Cic6105Or7105,
        Cic::Cic6106Or7106,
    ];

    /// The seed byte the CIC sends to the PIF.
    pub fn seed(self) -> u8 {
        match self {
            Cic::Cic6101 | Cic::Cic7102 | Cic::Cic6102Or7101 => 0x3F,
            Cic::Cic6103Or7103 => 0x78,
            Cic::Cic6105Or7105 => 0x91,
            Cic::Cic6106Or7106 => 0x85,
        }
    }

    /// The 48-bit IPL2 checksum the CIC expects of the IPL3.
    pub fn checksum(self) -> u64 {
        match self {
            Cic::Cic6101 => 0x45CC_73EE_317A,
            Cic::Cic7102 => 0x4416_0EC5_D9AF,
            Cic::Cic6102Or7101 => 0xA536_C0F1_D859,
            Cic::Cic6103Or7103 => 0x586F_D470_9867,
            Cic::Cic6105Or7105 => 0x8618_A45B_C2D3,
            Cic::Cic6106Or7106 => 0x2BBA_D4E6_EB74,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Cic::Cic6101 => "CIC-6101",
            Cic::Cic7102 => "CIC-7102",
            Cic::Cic6102Or7101 => "CIC-6102/7101",
            Cic::Cic6103Or7103 => "CIC-6103/7103",
            Cic::Cic6105Or7105 => "CIC-6105/7105",
            Cic::Cic6106Or7106 => "CIC-6106/7106",
        }
    }

    /// Whether the IPL3s of this CIC check the header CRC with the algorithm
    /// of `checksum::cic6102` (seed 0x3F, no entry-point tweaks). The x103,
    /// x105 and x106 IPL3s use other variants, which n64rom does not compute.
    pub fn crc_is_6102_variant(self) -> bool {
        matches!(self, Cic::Cic6101 | Cic::Cic7102 | Cic::Cic6102Or7101)
    }
}

/// The PIF's mixing function: the difference of the high and low halves of
/// a 64-bit product, where a zero multiplier is replaced by `fallback` and
/// a zero difference by `a`.
fn mix(a: u32, b: u32, fallback: u32) -> u32 {
    let b = if b == 0 { fallback } else { b };
    let product = u64::from(a) * u64::from(b);
    match ((product >> 32) as u32).wrapping_sub(product as u32) {
        0 => a,
        diff => diff,
    }
}

/// The 48-bit IPL2 checksum of an IPL3 (exactly 4032 bytes, ROM
/// 0x40..0x1000) for a CIC seed.
pub fn checksum(ipl3: &[u8; IPL3_LEN], seed: u8) -> u64 {
    const WORDS: u32 = (IPL3_LEN / 4) as u32;
    let word = |i: u32| {
        let at = i as usize * 4;
        u32::from_be_bytes([ipl3[at], ipl3[at + 1], ipl3[at + 2], ipl3[at + 3]])
    };
    let first = word(0);
    let init = MAGIC.wrapping_mul(u32::from(seed)).wrapping_add(1) ^ first;
    let mut s = [init; 16];

    // Word i (1-based `n`) is mixed with its predecessor `prev` (the first
    // word is its own predecessor) and, for all but the last, its successor.
    let mut prev = first;
    for n in 1..=WORDS {
        let cur = word(n - 1);
        s[0] = s[0].wrapping_add(mix(1007u32.wrapping_sub(n), cur, n));
        s[1] = mix(s[1], cur, n);
        s[2] ^= cur;
        s[3] = s[3].wrapping_add(mix(cur.wrapping_add(5), MAGIC, n));
        s[9] = if prev < cur {
            mix(s[9], cur, n)
        } else {
            s[9].wrapping_add(cur)
        };
        s[4] = s[4].wrapping_add(cur.rotate_right(prev & 31));
        s[7] = mix(s[7], cur.rotate_left(prev & 31), n);
        s[6] = if cur < s[6] {
            s[3].wrapping_add(s[6]) ^ cur.wrapping_add(n)
        } else {
            s[4].wrapping_add(cur) ^ s[6]
        };
        s[5] = s[5].wrapping_add(cur.rotate_left(prev >> 27));
        s[8] = mix(s[8], cur.rotate_right(prev >> 27), n);
        if n == WORDS {
            break;
        }
        let next = word(n);
        s[15] = mix(
            mix(s[15], cur.rotate_left(prev >> 27), n),
            next.rotate_left(cur >> 27),
            n,
        );
        s[14] = mix(
            mix(s[14], cur.rotate_right(prev & 31), n),
            next.rotate_right(cur & 31),
            n,
        );
        s[13] = s[13]
            .wrapping_add(cur.rotate_right(cur & 31))
            .wrapping_add(next.rotate_right(next & 31));
        s[10] = mix(s[10].wrapping_add(cur), next, n);
        s[11] = mix(s[11] ^ cur, next, n);
        s[12] = s[12].wrapping_add(s[8] ^ cur);
        prev = cur;
    }

    // Finalisation: fold the 16 state words into four.
    let mut f = [s[0]; 4];
    for (i, &d) in s.iter().enumerate() {
        let i = i as u32;
        f[0] = f[0].wrapping_add(d.rotate_right(d & 31));
        f[1] = if d < f[0] {
            f[1].wrapping_add(d)
        } else {
            mix(f[1], d, i)
        };
        f[2] = if (d >> 1) & 1 == d & 1 {
            f[2].wrapping_add(d)
        } else {
            mix(f[2], d, i)
        };
        f[3] = if d & 1 == 1 {
            f[3] ^ d
        } else {
            mix(f[3], d, i)
        };
    }
    let high = u64::from(mix(f[0], f[1], 16) & 0xFFFF);
    (high << 32) | u64::from(f[3] ^ f[2])
}

/// The IPL3 of a ROM image (bytes 0x40..0x1000), if the image is that long.
pub fn ipl3_of(rom: &[u8]) -> Option<&[u8; IPL3_LEN]> {
    rom.get(IPL3_OFFSET..PROGRAM_OFFSET)?.try_into().ok()
}

/// The CIC whose check this IPL3 passes, if any.
pub fn identify(ipl3: &[u8; IPL3_LEN]) -> Option<Cic> {
    Cic::ALL
        .into_iter()
        .find(|cic| checksum(ipl3, cic.seed()) == cic.checksum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix_rules() {
        // 3 * 5 = 15: high 0, low 15, difference -15.
        assert_eq!(mix(3, 5, 9), 0u32.wrapping_sub(15));
        // A zero multiplier takes the fallback: 3 * 9 = 27.
        assert_eq!(mix(3, 0, 9), 0u32.wrapping_sub(27));
        // 0x10001 * 0x10001 = 0x1_0002_0001... high 1, low 0x20001.
        assert_eq!(mix(0x1_0001, 0x1_0001, 1), 1u32.wrapping_sub(0x2_0001));
        // A zero difference gives `a` back (both factors zero: 0 - 0).
        assert_eq!(mix(0, 0, 0), 0);
        assert_eq!(mix(0, 7, 1), 0);
    }

    #[test]
    fn ipl3_of_needs_the_whole_area() {
        assert!(ipl3_of(&[0; 0xFFF]).is_none());
        let mut rom = vec![0u8; 0x1000];
        rom[0x40] = 7;
        assert_eq!(ipl3_of(&rom).unwrap()[0], 7);
    }

    /// Every seed gives a different checksum, and one flipped bit anywhere
    /// changes it.
    #[test]
    fn checksum_depends_on_seed_and_every_word() {
        let ipl3 = [0x5Au8; IPL3_LEN];
        let base = checksum(&ipl3, 0x3F);
        assert!(base <= 0xFFFF_FFFF_FFFF);
        assert_ne!(base, checksum(&ipl3, 0x78));
        for at in [0, 4, 2000, IPL3_LEN - 1] {
            let mut flipped = ipl3;
            flipped[at] ^= 1;
            assert_ne!(checksum(&flipped, 0x3F), base, "byte {at}");
        }
        assert_eq!(identify(&ipl3), None);
    }
}
