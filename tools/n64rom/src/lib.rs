//! `n64rom`: packs a big-endian MIPS ELF into a Nintendo 64 ROM image (.z64)
//! and inspects ROM headers. See `n64/README.md` for the layout.

pub mod checksum;
pub mod elf;
pub mod error;
pub mod header;

pub use error::RomError;
use header::{HeaderConfig, IPL3_LEN, IPL3_OFFSET, PROGRAM_OFFSET};

/// ROM images are padded to a multiple of this (real cartridges come in
/// whole megabytes, and the checksum needs at least 0x101000 bytes).
pub const ROM_ALIGN: usize = 0x10_0000;

/// Takes the IPL3 out of a user-supplied file: either a raw 4032-byte IPL3 or
/// a big-endian .z64 ROM (its bytes 0x40..0x1000).
pub fn ipl3_from_file(bytes: &[u8]) -> Result<Vec<u8>, RomError> {
    if bytes.len() == IPL3_LEN {
        return Ok(bytes.to_vec());
    }
    if bytes.len() < PROGRAM_OFFSET {
        return Err(RomError::BadIpl3Size(bytes.len()));
    }
    let first = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    if first != header::PI_CONFIG {
        return Err(RomError::NotZ64(first));
    }
    Ok(bytes[IPL3_OFFSET..PROGRAM_OFFSET].to_vec())
}

/// Builds a complete ROM image from an ELF file. `ipl3` (from
/// [`ipl3_from_file`]) replaces the ELF's own `.ipl3` section. `configure`
/// may adjust the header before it is written.
pub fn pack(
    elf_bytes: &[u8],
    ipl3: Option<&[u8]>,
    configure: impl FnOnce(&mut HeaderConfig),
) -> Result<Vec<u8>, RomError> {
    let program = elf::load(elf_bytes)?;
    let ipl3: &[u8] = match (ipl3, program.ipl3.as_deref()) {
        (Some(user), _) if user.len() == IPL3_LEN => user,
        (Some(user), _) => return Err(RomError::BadIpl3Size(user.len())),
        (None, Some(own)) if own.len() <= IPL3_LEN => own,
        (None, Some(own)) => return Err(RomError::Ipl3SectionTooLarge(own.len())),
        (None, None) => return Err(RomError::NoIpl3),
    };
    let mut cfg = HeaderConfig::new(program.entry);
    configure(&mut cfg);

    let used = PROGRAM_OFFSET + program.image.len();
    let min = checksum::CHECKSUM_START + checksum::CHECKSUM_LEN;
    let size = used.max(min).div_ceil(ROM_ALIGN) * ROM_ALIGN;
    let mut rom = vec![0u8; size];
    header::write_header(&mut rom, &cfg)?;
    rom[IPL3_OFFSET..IPL3_OFFSET + ipl3.len()].copy_from_slice(ipl3);
    rom[PROGRAM_OFFSET..used].copy_from_slice(&program.image);
    let crc = checksum::cic6102(&rom);
    header::write_checksum(&mut rom, crc);
    Ok(rom)
}

/// Result of checking a ROM's header checksum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub header: header::Header,
    pub computed: (u32, u32),
}

impl Verified {
    pub fn ok(&self) -> bool {
        self.computed == (self.header.crc1, self.header.crc2)
    }
}

/// Parses a ROM's header and recomputes its CIC-6102 checksum.
pub fn verify(rom: &[u8]) -> Result<Verified, RomError> {
    let header = header::Header::parse(rom)?;
    Ok(Verified {
        header,
        computed: checksum::cic6102(rom),
    })
}

#[cfg(test)]
mod tests {
    use super::elf::testelf::{build, Seg};
    use super::*;

    fn sample_elf(ipl3: Option<&[u8]>) -> Vec<u8> {
        build(
            0x8000_0400,
            &[
                Seg {
                    vaddr: 0x8000_0400,
                    data: vec![0x11, 0x22, 0x33, 0x44, 0x55],
                    mem_size: 5,
                },
                Seg {
                    vaddr: 0x8000_0800,
                    data: vec![0xEE; 3],
                    mem_size: 0x200,
                },
            ],
            ipl3,
        )
    }

    /// The whole header, byte for byte, written out by hand.
    #[test]
    fn header_is_byte_exact() {
        let rom = pack(&sample_elf(Some(&[0x5A; 100])), None, |_| {}).unwrap();
        let mut want = vec![
            0x80, 0x37, 0x12, 0x40, // PI config
            0x00, 0x00, 0x00, 0x0F, // clock
            0x80, 0x00, 0x04, 0x00, // entry
            0x00, 0x00, 0x00, 0x00, // libultra
        ];
        // CRC1/CRC2, recomputed below with the independent checker.
        want.extend_from_slice(&rom[0x10..0x18]);
        want.extend_from_slice(&[0; 8]);
        want.extend_from_slice(b"TIC-TAC-TOE 64      ");
        want.extend_from_slice(&[0x00, 0x00, 0x00, 0x00]); // controllers 1..4
        want.extend_from_slice(&[0, 0, 0]);
        want.extend_from_slice(b"NEDE");
        want.push(0x12); // EEPROM 4K, region-free
        assert_eq!(&rom[..0x40], &want[..]);
        assert_eq!(rom.len(), 0x20_0000);
        assert_eq!(&rom[0x40..0x40 + 100], &[0x5A; 100][..]);
        assert!(rom[0x40 + 100..0x1000].iter().all(|&b| b == 0));
        assert_eq!(&rom[0x1000..0x1005], &[0x11, 0x22, 0x33, 0x44, 0x55]);
        assert_eq!(&rom[0x1400..0x1403], &[0xEE; 3]);
        assert!(rom[0x1403..].iter().all(|&b| b == 0));
    }

    /// The stored checksum equals a from-scratch computation on the image.
    #[test]
    fn checksum_in_header_matches_independent_computation() {
        let rom = pack(&sample_elf(Some(&[1; 4])), None, |_| {}).unwrap();
        // Independent: word sums with u64 arithmetic over the padded window.
        let seed = 0xF8CA_4DDCu64;
        let (mut t1, mut t2, mut t3, mut t4, mut t5, mut t6) = (seed, seed, seed, seed, seed, seed);
        for w in rom[0x1000..0x10_1000].chunks(4) {
            let d = u64::from(u32::from_be_bytes([w[0], w[1], w[2], w[3]]));
            let r = u64::from((d as u32).rotate_left((d & 31) as u32));
            if t6 + d > 0xFFFF_FFFF {
                t4 = (t4 + 1) & 0xFFFF_FFFF;
            }
            t6 = (t6 + d) & 0xFFFF_FFFF;
            t3 ^= d;
            t5 = (t5 + r) & 0xFFFF_FFFF;
            t2 ^= if d < t2 { r } else { t6 ^ d };
            t1 = (t1 + (t5 ^ d)) & 0xFFFF_FFFF;
        }
        let want = ((t6 ^ t4 ^ t3) as u32, (t5 ^ t2 ^ t1) as u32);
        assert_eq!(&rom[0x10..0x14], &want.0.to_be_bytes());
        assert_eq!(&rom[0x14..0x18], &want.1.to_be_bytes());
        let v = verify(&rom).unwrap();
        assert!(v.ok());
        assert_eq!(v.header.title, "TIC-TAC-TOE 64");
        assert_eq!(v.header.entry, 0x8000_0400);
    }

    #[test]
    fn verify_detects_corruption() {
        let mut rom = pack(&sample_elf(Some(&[1; 4])), None, |_| {}).unwrap();
        rom[0x2000] ^= 1;
        assert!(!verify(&rom).unwrap().ok());
        let mut rom2 = pack(&sample_elf(Some(&[1; 4])), None, |_| {}).unwrap();
        rom2[0x14] ^= 0x80;
        assert!(!verify(&rom2).unwrap().ok());
    }

    #[test]
    fn verify_rejects_bad_roms() {
        assert_eq!(verify(&[0; 100]).unwrap_err(), RomError::RomTooSmall(100));
        let mut v64 = vec![0u8; 0x2000];
        v64[..4].copy_from_slice(&[0x37, 0x80, 0x40, 0x12]);
        assert_eq!(verify(&v64).unwrap_err(), RomError::NotZ64(0x3780_4012));
    }

    #[test]
    fn user_ipl3_replaces_the_elf_one() {
        let raw: Vec<u8> = (0..IPL3_LEN).map(|i| i as u8).collect();
        let rom = pack(&sample_elf(Some(&[9; 16])), Some(&raw), |_| {}).unwrap();
        assert_eq!(&rom[0x40..0x1000], &raw[..]);
        // And from a whole .z64: the donor's bytes 0x40..0x1000.
        let donor = pack(&sample_elf(Some(&[0x77; IPL3_LEN])), None, |_| {}).unwrap();
        let taken = ipl3_from_file(&donor).unwrap();
        assert_eq!(taken, vec![0x77; IPL3_LEN]);
        let rom = pack(&sample_elf(None), Some(&taken), |_| {}).unwrap();
        assert_eq!(&rom[0x40..0x1000], &donor[0x40..0x1000]);
        assert!(verify(&rom).unwrap().ok());
    }

    #[test]
    fn ipl3_errors() {
        assert_eq!(
            ipl3_from_file(&[0; 4031]).unwrap_err(),
            RomError::BadIpl3Size(4031)
        );
        assert_eq!(
            ipl3_from_file(&[0; 4033]).unwrap_err(),
            RomError::BadIpl3Size(4033)
        );
        assert_eq!(
            ipl3_from_file(&[0; 0x2000]).unwrap_err(),
            RomError::NotZ64(0)
        );
        assert_eq!(
            pack(&sample_elf(None), None, |_| {}).unwrap_err(),
            RomError::NoIpl3
        );
        assert_eq!(
            pack(&sample_elf(None), Some(&[0; 10]), |_| {}).unwrap_err(),
            RomError::BadIpl3Size(10)
        );
        let big = vec![0u8; IPL3_LEN + 4];
        assert_eq!(
            pack(&sample_elf(Some(&big)), None, |_| {}).unwrap_err(),
            RomError::Ipl3SectionTooLarge(IPL3_LEN + 4)
        );
    }

    #[test]
    fn header_options_and_title_errors() {
        let rom = pack(&sample_elf(Some(&[1])), None, |c| {
            c.title = "X".into();
            c.destination = b'P';
        })
        .unwrap();
        assert_eq!(&rom[0x20..0x34], b"X                   ");
        assert_eq!(rom[0x3E], b'P');
        let long = pack(&sample_elf(Some(&[1])), None, |c| c.title = "A".repeat(21));
        assert_eq!(long.unwrap_err(), RomError::BadTitle("A".repeat(21)));
        let non_ascii = pack(&sample_elf(Some(&[1])), None, |c| {
            c.title = "Tic\u{e9}".into()
        });
        assert!(matches!(non_ascii.unwrap_err(), RomError::BadTitle(_)));
        assert!(header::code_char("destination", "PP").is_err());
        assert_eq!(header::code_char("destination", "P"), Ok(b'P'));
    }

    #[test]
    fn rom_grows_in_whole_megabytes() {
        let e = build(
            0x8000_0400,
            &[Seg {
                vaddr: 0x8000_0400,
                data: vec![3; 0xF_F800],
                mem_size: 0xF_F800,
            }],
            Some(&[1]),
        );
        // 0x1000 + 0xFF800 = 0x100800 bytes used: fits in 2 MiB.
        assert_eq!(pack(&e, None, |_| {}).unwrap().len(), 0x20_0000);
    }
}
