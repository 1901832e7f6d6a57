//! The CIC-6102 boot checksum ("CRC1/CRC2") that Nintendo's 6102 IPL3
//! computes over ROM 0x1000..0x101000 before it starts a game, stored in the
//! header at 0x10 and 0x14.

/// First byte of the checksummed area.
pub const CHECKSUM_START: usize = 0x1000;
/// Length of the checksummed area (1 MiB).
pub const CHECKSUM_LEN: usize = 0x10_0000;
/// Seed for CIC-6102/7101: `0x3F * 0x5D588B65 + 1` (mod 2^32).
pub const SEED_6102: u32 = 0xF8CA_4DDC;

/// Computes (CRC1, CRC2) of `rom` for CIC-6102. Bytes past the end of `rom`
/// count as zero, as if the image were padded.
pub fn cic6102(rom: &[u8]) -> (u32, u32) {
    let (mut t1, mut t2, mut t3, mut t4, mut t5, mut t6) = (
        SEED_6102, SEED_6102, SEED_6102, SEED_6102, SEED_6102, SEED_6102,
    );
    for i in (CHECKSUM_START..CHECKSUM_START + CHECKSUM_LEN).step_by(4) {
        let mut word = [0u8; 4];
        for (k, b) in word.iter_mut().enumerate() {
            *b = rom.get(i + k).copied().unwrap_or(0);
        }
        let d = u32::from_be_bytes(word);
        let r = d.rotate_left(d & 31);
        let (sum, carry) = t6.overflowing_add(d);
        if carry {
            t4 = t4.wrapping_add(1);
        }
        t6 = sum;
        t3 ^= d;
        t5 = t5.wrapping_add(r);
        t2 ^= if t2 > d { r } else { t6 ^ d };
        t1 = t1.wrapping_add(t5 ^ d);
    }
    (t6 ^ t4 ^ t3, t5 ^ t2 ^ t1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second, deliberately different implementation (64-bit arithmetic,
    /// shifts instead of rotate, carry from the 64-bit sum) to cross-check.
    fn reference(rom: &[u8]) -> (u32, u32) {
        let mut padded = rom.to_vec();
        if padded.len() < 0x10_1000 {
            padded.resize(0x10_1000, 0);
        }
        let seed: u64 = (0x3Fu64 * 0x5D58_8B65 + 1) & 0xFFFF_FFFF;
        let mask = 0xFFFF_FFFFu64;
        let mut t = [seed; 7]; // t[1]..t[6]
        for chunk in padded[0x1000..0x10_1000].chunks_exact(4) {
            let d = ((chunk[0] as u64) << 24)
                | ((chunk[1] as u64) << 16)
                | ((chunk[2] as u64) << 8)
                | chunk[3] as u64;
            let s = d & 31;
            let r = if s == 0 {
                d
            } else {
                ((d << s) | (d >> (32 - s))) & mask
            };
            let sum = t[6] + d;
            if sum > mask {
                t[4] = (t[4] + 1) & mask;
            }
            t[6] = sum & mask;
            t[3] ^= d;
            t[5] = (t[5] + r) & mask;
            if d < t[2] {
                t[2] ^= r;
            } else {
                t[2] ^= t[6] ^ d;
            }
            t[1] = (t[1] + (t[5] ^ d)) & mask;
        }
        ((t[6] ^ t[4] ^ t[3]) as u32, (t[5] ^ t[2] ^ t[1]) as u32)
    }

    #[test]
    fn seed_is_derived_from_cic_constant() {
        assert_eq!(0x3Fu32.wrapping_mul(0x5D58_8B65).wrapping_add(1), SEED_6102);
    }

    /// Worked by hand: with every data word zero, r = 0, no carry ever, and
    /// t2/t3/t5/t6 stay at the seed S, so CRC1 = S ^ S ^ S = S. t1 gains
    /// t5 ^ 0 = S per word: t1 = S * (1 + 0x40000) = S + (S << 18) mod 2^32
    /// = 0xF8CA4DDC + 0x37700000 = 0x303A4DDC, and CRC2 = S ^ S ^ t1 = t1.
    #[test]
    fn zero_image_known_vector() {
        assert_eq!(cic6102(&[]), (0xF8CA_4DDC, 0x303A_4DDC));
        assert_eq!(cic6102(&vec![0u8; 0x10_1000]), (0xF8CA_4DDC, 0x303A_4DDC));
    }

    /// Bytes before 0x1000 and after 0x101000 do not count.
    #[test]
    fn only_the_checksummed_window_counts() {
        let mut rom = vec![0u8; 0x10_2000];
        rom[..0x1000].fill(0xAB);
        rom[0x10_1000..].fill(0xCD);
        assert_eq!(cic6102(&rom), (0xF8CA_4DDC, 0x303A_4DDC));
        rom[0x1000] = 1;
        assert_ne!(cic6102(&rom), (0xF8CA_4DDC, 0x303A_4DDC));
    }

    #[test]
    fn matches_reference_on_synthetic_images() {
        // A pseudo-random image (xorshift), a short one (implicit padding),
        // and one full of 0xFFFFFFFF words (carries on every word).
        let mut x: u32 = 0x1234_5678;
        let mut random = vec![0u8; 0x10_1000];
        for b in random.iter_mut() {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            *b = (x >> 24) as u8;
        }
        let short: Vec<u8> = random[..0x5123].to_vec();
        let ones = vec![0xFFu8; 0x10_1000];
        for image in [&random, &short, &ones] {
            assert_eq!(cic6102(image), reference(image));
        }
        assert_ne!(cic6102(&random), cic6102(&short));
    }
}
