//! The CIC-6102 boot checksum ("CRC1/CRC2") that Nintendo's 6102 IPL3
//! computes over ROM 0x1000..0x101000 before it starts a game, stored in the
//! header at 0x10 and 0x14.

/// First byte of the checksummed area.
pub const CHECKSUM_START: usize = 0x1000;
/// Length of the checksummed area (1 MiB).
pub const CHECKSUM_LEN: usize = 0x10_0000;
/// Seed for CIC-6102/7101: `0x3F * 0x5D588B65 + 1` (mod 2^32).
pub const SEED_6102: u32 = 0xF8CA_4DDC;
/// Words in the checksummed area.
pub const WINDOW_WORDS: usize = CHECKSUM_LEN / 4;

/// Computes (CRC1, CRC2) of `rom` for CIC-6102. Bytes past the end of `rom`
/// count as zero, as if the image were padded.
pub fn cic6102(rom: &[u8]) -> (u32, u32) {
    let window = rom.get(CHECKSUM_START..).unwrap_or(&[]);
    let window = &window[..window.len().min(CHECKSUM_LEN)];
    let mut state = Cic6102State::new();
    state.update(window);
    state.zeros(WINDOW_WORDS - state.words());
    state.finish()
}

/// The running state of the CIC-6102 checksum after some words of the
/// window. Cloning it lets the packer try several values of a late word
/// (the pad) without re-reading everything before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cic6102State {
    t1: u32,
    t2: u32,
    t3: u32,
    t4: u32,
    t5: u32,
    t6: u32,
    words: usize,
}

impl Default for Cic6102State {
    fn default() -> Self {
        Self::new()
    }
}

impl Cic6102State {
    pub fn new() -> Self {
        let s = SEED_6102;
        Self {
            t1: s,
            t2: s,
            t3: s,
            t4: s,
            t5: s,
            t6: s,
            words: 0,
        }
    }

    /// Words of the window consumed so far.
    pub fn words(&self) -> usize {
        self.words
    }

    /// Feeds one big-endian word of the window.
    pub fn word(&mut self, d: u32) {
        let r = d.rotate_left(d & 31);
        let (sum, carry) = self.t6.overflowing_add(d);
        if carry {
            self.t4 = self.t4.wrapping_add(1);
        }
        self.t6 = sum;
        self.t3 ^= d;
        self.t5 = self.t5.wrapping_add(r);
        self.t2 ^= if self.t2 > d { r } else { self.t6 ^ d };
        self.t1 = self.t1.wrapping_add(self.t5 ^ d);
        self.words += 1;
    }

    /// Feeds bytes (a multiple of 4 long; a trailing partial word is
    /// zero-padded).
    pub fn update(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(4) {
            let mut w = [0u8; 4];
            w[..chunk.len()].copy_from_slice(chunk);
            self.word(u32::from_be_bytes(w));
        }
    }

    /// Feeds `n` zero words in constant time. A zero word leaves t3..t6
    /// alone (no rotation, no carry), adds t5 to t1, and turns t2 into
    /// t6 only if t2 is zero (t2 > 0 xors in r = 0).
    pub fn zeros(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        self.t1 = self.t1.wrapping_add(self.t5.wrapping_mul(n as u32));
        if self.t2 == 0 {
            self.t2 = self.t6;
        }
        self.words += n;
    }

    /// (CRC1, CRC2) of the words fed so far.
    pub fn finish(&self) -> (u32, u32) {
        (self.t6 ^ self.t4 ^ self.t3, self.t5 ^ self.t2 ^ self.t1)
    }
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

    /// The constant-time run of zero words equals feeding them one by one,
    /// including from a state whose t2 is zero.
    #[test]
    fn zero_run_matches_word_by_word() {
        let mut x: u32 = 0x9E37_79B9;
        for n in [0usize, 1, 2, 3, 1000, 0x4_0000] {
            let mut a = Cic6102State::new();
            for _ in 0..50 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                a.word(x);
            }
            let mut b = a;
            a.zeros(n);
            for _ in 0..n {
                b.word(0);
            }
            assert_eq!(a, b, "n = {n}");
            assert_eq!(a.finish(), b.finish());
        }
        let mut zero_t2 = Cic6102State::new();
        zero_t2.t2 = 0;
        let mut by_word = zero_t2;
        zero_t2.zeros(7);
        for _ in 0..7 {
            by_word.word(0);
        }
        assert_eq!(zero_t2, by_word);
    }
}
