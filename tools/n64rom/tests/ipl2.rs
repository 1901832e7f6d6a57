//! The IPL2 checksum (the console's check of a ROM's IPL3) against a second
//! implementation written here in a different shape (64-bit arithmetic,
//! shift-built rotations, the state in named arrays following the n64brew
//! pseudo-code's "buf" layout), on random IPL3s and on libdragon's signed
//! compat IPL3 when `../shared` is present.

use n64rom::ipl2::{self, Cic};
use n64rom::ipl3::{self, KnownIpl3};

const IPL3_LEN: usize = 0xFC0;
use sha2::{Digest, Sha256};

/// libdragon's compat IPL3 from the team's shared folder (`../shared` next to
/// the repository, or `$TTT_SHARED_DIR`), if present. Never part of the
/// repository.
fn shared_compat_ipl3() -> Option<Vec<u8>> {
    let dir = std::env::var("TTT_SHARED_DIR")
        .unwrap_or_else(|_| format!("{}/../../../shared", env!("CARGO_MANIFEST_DIR")));
    std::fs::read(format!("{dir}/third-party/libdragon-ipl3/ipl3_compat.z64")).ok()
}

const M32: u64 = 0xFFFF_FFFF;

fn rol(x: u64, s: u64) -> u64 {
    let s = s % 32;
    if s == 0 {
        x
    } else {
        ((x << s) | (x >> (32 - s))) & M32
    }
}

fn ror(x: u64, s: u64) -> u64 {
    rol(x, (32 - s % 32) % 32)
}

/// The PIF's helper: high minus low word of a*b (b replaced by c when 0);
/// a zero difference returns a.
fn helper(a: u64, b: u64, c: u64) -> u64 {
    let b = if b == 0 { c } else { b };
    let p = a * b;
    let d = ((p >> 32) + (1 << 32) - (p & M32)) & M32;
    if d == 0 {
        a
    } else {
        d
    }
}

/// IPL2 checksum, written independently of `n64rom::ipl2`.
fn reference(ipl3: &[u8], seed: u64) -> u64 {
    let words: Vec<u64> = ipl3
        .chunks_exact(4)
        .map(|c| u64::from(u32::from_be_bytes([c[0], c[1], c[2], c[3]])))
        .collect();
    assert_eq!(words.len(), 1008);
    let init = ((0x6C07_8965 * seed + 1) & M32) ^ words[0];
    let mut buf = [init; 16];
    let add = |a: u64, b: u64| (a + b) & M32;
    let mut last;
    let mut data = words[0];
    let mut next = words[0];
    let mut k: u64 = 0;
    loop {
        k += 1;
        last = data;
        data = next;
        buf[0] = add(buf[0], helper((1007 + (1 << 32) - k) & M32, data, k));
        buf[1] = helper(buf[1], data, k);
        buf[2] ^= data;
        buf[3] = add(buf[3], helper(add(data, 5), 0x6C07_8965, k));
        if last < data {
            buf[9] = helper(buf[9], data, k);
        } else {
            buf[9] = add(buf[9], data);
        }
        buf[4] = add(buf[4], ror(data, last & 31));
        buf[7] = helper(buf[7], rol(data, last & 31), k);
        if data < buf[6] {
            buf[6] = add(buf[3], buf[6]) ^ add(data, k);
        } else {
            buf[6] ^= add(buf[4], data);
        }
        buf[5] = add(buf[5], rol(data, last >> 27));
        buf[8] = helper(buf[8], ror(data, last >> 27), k);
        if k == 1008 {
            break;
        }
        next = words[k as usize];
        buf[15] = helper(
            helper(buf[15], rol(data, last >> 27), k),
            rol(next, data >> 27),
            k,
        );
        buf[14] = helper(
            helper(buf[14], ror(data, last & 31), k),
            ror(next, data & 31),
            k,
        );
        buf[13] = add(buf[13], add(ror(data, data & 31), ror(next, next & 31)));
        buf[10] = helper(add(buf[10], data), next, k);
        buf[11] = helper(buf[11] ^ data, next, k);
        buf[12] = add(buf[12], buf[8] ^ data);
    }
    let (mut a, mut b, mut c, mut d) = (buf[0], buf[0], buf[0], buf[0]);
    for (i, &x) in buf.iter().enumerate() {
        let i = i as u64;
        a = add(a, ror(x, x & 31));
        b = if x < a { add(b, x) } else { helper(b, x, i) };
        c = if ((x & 2) >> 1) == (x & 1) {
            add(c, x)
        } else {
            helper(c, x, i)
        };
        d = if x & 1 == 1 { d ^ x } else { helper(d, x, i) };
    }
    ((helper(a, b, 16) & 0xFFFF) << 32) | (d ^ c)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn as_ipl3(bytes: &[u8]) -> &[u8; IPL3_LEN] {
    bytes.try_into().unwrap()
}

#[test]
fn library_matches_reference_on_random_ipl3s() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    for i in 0..300 {
        let mut ipl3 = vec![0u8; IPL3_LEN];
        // Mostly random words; some images mostly zero or with runs of equal
        // words, to reach the helper's zero-multiplier and equal-word paths.
        for w in ipl3.chunks_mut(4) {
            let r = rng.next();
            let word = match i % 3 {
                0 => r as u32,
                1 if r % 4 == 0 => r as u32,
                1 => 0,
                _ => (r % 3) as u32 * 0x0101_0101,
            };
            w.copy_from_slice(&word.to_be_bytes());
        }
        for cic in Cic::ALL {
            let seed = cic.seed();
            assert_eq!(
                ipl2::checksum(as_ipl3(&ipl3), seed),
                reference(&ipl3, u64::from(seed)),
                "image {i}, seed {seed:#x}"
            );
        }
        assert_eq!(ipl2::identify(as_ipl3(&ipl3)), None, "image {i}");
    }
}

/// libdragon's compat IPL3 is signed for CIC-6102/7101: A536C0F1D859.
#[test]
fn libdragon_compat_ipl3_is_signed_for_6102() {
    let Some(file) = shared_compat_ipl3() else {
        println!("skipped: ../shared/third-party/libdragon-ipl3 not found");
        return;
    };
    assert_eq!(file.len(), 4096);
    assert_eq!(
        format!("{:x}", Sha256::digest(&file)),
        "f522db2e31a701f82597f399e76d55c9487760d015aff9d90176b463ae39a068",
        "not libdragon's ipl3_compat.z64 at 535d7517"
    );
    let ipl3 = as_ipl3(&file[0x40..0x1000]);
    assert_eq!(reference(ipl3, 0x3F), 0xA536_C0F1_D859);
    assert_eq!(ipl2::checksum(ipl3, 0x3F), 0xA536_C0F1_D859);
    assert_eq!(ipl2::identify(ipl3), Some(Cic::Cic6102Or7101));
    assert_eq!(ipl3::identify(ipl3), KnownIpl3::LibdragonCompat);
    // One flipped bit anywhere in the IPL3 breaks the signature.
    for at in [0, 0x200, 0xFBF] {
        let mut broken = *ipl3;
        broken[at] ^= 0x10;
        assert_eq!(ipl2::identify(&broken), None, "byte {at:#x}");
        assert_ne!(ipl3::identify(&broken), KnownIpl3::LibdragonCompat);
    }
}
