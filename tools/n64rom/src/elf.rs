//! Reading the program out of a big-endian 32-bit MIPS ELF executable.
//!
//! The program image is built from the ELF's `PT_LOAD` segments, each placed
//! at `vaddr - entry` bytes after ROM 0x1000: the IPL3 copies ROM 0x1000.. to
//! the header's boot address (= the ELF entry), so the entry must be the
//! lowest loaded address. Zero-fill (`.bss`, `p_memsz > p_filesz`) is not
//! stored in the ROM; the program clears it at start-up.

use object::elf;
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader};
use object::BigEndian;

use crate::error::RomError;

/// RDRAM as seen through KSEG0 (8 MiB with the Expansion Pak).
pub const RDRAM_START: u64 = 0x8000_0000;
pub const RDRAM_END: u64 = 0x8080_0000;
/// What the IPL3 copies from ROM 0x1000 to the entry point.
pub const MAX_PROGRAM: usize = 0x10_0000;
/// Name of the section holding the boot code that goes to ROM 0x40..0x1000.
pub const IPL3_SECTION: &[u8] = b".ipl3";

/// One loadable segment as placed in RDRAM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub vaddr: u32,
    pub file_size: u32,
    pub mem_size: u32,
}

/// The program extracted from an ELF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub entry: u32,
    /// Bytes to store at ROM 0x1000 (loaded at `entry`).
    pub image: Vec<u8>,
    pub segments: Vec<Segment>,
    /// Contents of the `.ipl3` section, if the ELF has one.
    pub ipl3: Option<Vec<u8>>,
}

fn malformed(e: object::read::Error) -> RomError {
    RomError::Malformed(e.to_string())
}

/// Whether `data` starts as an ELF file does (`\x7fELF`): the first check
/// of [`load`], for a caller that reads a file's start before the rest.
pub fn check_magic(data: &[u8]) -> Result<(), RomError> {
    if data.len() < 4 || &data[..4] != b"\x7fELF" {
        return Err(RomError::NotElf);
    }
    Ok(())
}

/// Parses and checks an ELF file and lays its segments out as a ROM program.
pub fn load(data: &[u8]) -> Result<Program, RomError> {
    check_magic(data)?;
    if data.len() < 16 {
        return Err(RomError::Malformed("truncated ELF identification".into()));
    }
    match data[4] {
        elf::ELFCLASS32 => {}
        elf::ELFCLASS64 => return Err(RomError::WrongClass),
        c => return Err(RomError::Malformed(format!("unknown ELF class {c}"))),
    }
    match data[5] {
        elf::ELFDATA2MSB => {}
        elf::ELFDATA2LSB => return Err(RomError::WrongEndian),
        d => {
            return Err(RomError::Malformed(format!(
                "unknown ELF data encoding {d}"
            )))
        }
    }
    let header = elf::FileHeader32::<BigEndian>::parse(data).map_err(malformed)?;
    let endian = BigEndian;
    let machine = header.e_machine(endian);
    if machine != elf::EM_MIPS {
        return Err(RomError::WrongMachine(machine));
    }
    let e_type = header.e_type(endian);
    if e_type != elf::ET_EXEC {
        return Err(RomError::NotExecutable(e_type));
    }
    let entry = header.e_entry(endian);
    if !(RDRAM_START..RDRAM_END).contains(&u64::from(entry)) {
        return Err(RomError::EntryOutsideRdram(entry.into()));
    }

    let mut placed: Vec<(usize, &[u8], u32)> = Vec::new();
    let mut segments = Vec::new();
    for ph in header.program_headers(endian, data).map_err(malformed)? {
        if ph.p_type(endian) != elf::PT_LOAD || ph.p_memsz(endian) == 0 {
            continue;
        }
        let vaddr = ph.p_vaddr(endian);
        let (file_size, mem_size) = (ph.p_filesz(endian), ph.p_memsz(endian));
        if file_size > mem_size {
            return Err(RomError::Malformed(format!(
                "segment at {vaddr:#010x} has p_filesz {file_size:#x} > p_memsz {mem_size:#x}"
            )));
        }
        let (start, end) = (u64::from(vaddr), u64::from(vaddr) + u64::from(mem_size));
        if start < RDRAM_START || end > RDRAM_END {
            return Err(RomError::SegmentOutsideRdram { start, end });
        }
        segments.push(Segment {
            vaddr,
            file_size,
            mem_size,
        });
        if file_size == 0 {
            continue;
        }
        if vaddr < entry {
            return Err(RomError::SegmentBelowEntry {
                start: vaddr,
                entry,
            });
        }
        let offset = (vaddr - entry) as usize;
        let size = offset + file_size as usize;
        if size > MAX_PROGRAM {
            return Err(RomError::ProgramTooLarge {
                size,
                max: MAX_PROGRAM,
            });
        }
        let bytes = ph.data(endian, data).map_err(|()| {
            RomError::Malformed(format!(
                "segment at {vaddr:#010x} extends past the end of the file"
            ))
        })?;
        placed.push((offset, bytes, vaddr));
    }
    if placed.is_empty() {
        return Err(RomError::NoLoadableSegment);
    }
    placed.sort_by_key(|p| p.0);
    for pair in placed.windows(2) {
        if pair[0].0 + pair[0].1.len() > pair[1].0 {
            return Err(RomError::SegmentsOverlap {
                first: pair[0].2,
                second: pair[1].2,
            });
        }
    }
    let size = placed.iter().map(|p| p.0 + p.1.len()).max().unwrap_or(0);
    let mut image = vec![0u8; size];
    for (offset, bytes, _) in &placed {
        image[*offset..offset + bytes.len()].copy_from_slice(bytes);
    }

    let sections = header.sections(endian, data).map_err(malformed)?;
    let ipl3 = match sections.section_by_name(endian, IPL3_SECTION) {
        Some((_, sh)) => Some(sh.data(endian, data).map_err(malformed)?.to_vec()),
        None => None,
    };
    Ok(Program {
        entry,
        image,
        segments,
        ipl3,
    })
}

#[cfg(test)]
pub(crate) mod testelf {
    //! A minimal ELF32 writer for tests: executable, big-endian MIPS, with
    //! the given `PT_LOAD` segments and an optional `.ipl3` section.

    pub struct Seg {
        pub vaddr: u32,
        pub data: Vec<u8>,
        pub mem_size: u32,
    }

    fn put16(v: &mut Vec<u8>, x: u16) {
        v.extend_from_slice(&x.to_be_bytes());
    }
    fn put32(v: &mut Vec<u8>, x: u32) {
        v.extend_from_slice(&x.to_be_bytes());
    }

    pub fn build(entry: u32, segs: &[Seg], ipl3: Option<&[u8]>) -> Vec<u8> {
        let phoff = 52u32;
        let mut data_off = phoff + 32 * segs.len() as u32;
        let mut out = Vec::new();
        out.extend_from_slice(b"\x7fELF");
        out.extend_from_slice(&[1, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        put16(&mut out, 2); // ET_EXEC
        put16(&mut out, 8); // EM_MIPS
        put32(&mut out, 1);
        put32(&mut out, entry);
        put32(&mut out, phoff);
        let shoff_at = out.len();
        put32(&mut out, 0); // e_shoff, patched below
        put32(&mut out, 0);
        put16(&mut out, 52);
        put16(&mut out, 32);
        put16(&mut out, segs.len() as u16);
        put16(&mut out, 40);
        put16(&mut out, if ipl3.is_some() { 3 } else { 0 });
        put16(&mut out, if ipl3.is_some() { 2 } else { 0 });
        for s in segs {
            put32(&mut out, 1); // PT_LOAD
            put32(&mut out, data_off);
            put32(&mut out, s.vaddr);
            put32(&mut out, s.vaddr);
            put32(&mut out, s.data.len() as u32);
            put32(&mut out, s.mem_size);
            put32(&mut out, 7);
            put32(&mut out, 16);
            data_off += s.data.len() as u32;
        }
        for s in segs {
            out.extend_from_slice(&s.data);
        }
        if let Some(code) = ipl3 {
            let code_off = out.len() as u32;
            out.extend_from_slice(code);
            let strtab_off = out.len() as u32;
            let strtab = b"\0.ipl3\0.shstrtab\0";
            out.extend_from_slice(strtab);
            while out.len() % 4 != 0 {
                out.push(0);
            }
            let shoff = out.len() as u32;
            out[shoff_at..shoff_at + 4].copy_from_slice(&shoff.to_be_bytes());
            out.extend_from_slice(&[0u8; 40]);
            for (name, off, size) in [(1u32, code_off, code.len()), (7, strtab_off, strtab.len())] {
                put32(&mut out, name);
                put32(&mut out, if name == 1 { 1 } else { 3 }); // PROGBITS / STRTAB
                put32(&mut out, 0);
                put32(&mut out, 0);
                put32(&mut out, off);
                put32(&mut out, size as u32);
                put32(&mut out, 0);
                put32(&mut out, 0);
                put32(&mut out, 1);
                put32(&mut out, 0);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::testelf::{build, Seg};
    use super::*;

    fn seg(vaddr: u32, data: Vec<u8>, mem_size: u32) -> Seg {
        Seg {
            vaddr,
            data,
            mem_size,
        }
    }

    #[test]
    fn places_segments_relative_to_entry() {
        let elf = build(
            0x8000_0400,
            &[
                seg(0x8000_0400, vec![1, 2, 3, 4], 4),
                seg(0x8000_0410, vec![9, 8], 0x100), // data + bss
                seg(0x8001_0000, vec![], 0x40),      // bss only
            ],
            Some(&[0xAA; 8]),
        );
        let p = load(&elf).unwrap();
        assert_eq!(p.entry, 0x8000_0400);
        let mut want = vec![0u8; 0x12];
        want[..4].copy_from_slice(&[1, 2, 3, 4]);
        want[0x10..0x12].copy_from_slice(&[9, 8]);
        assert_eq!(p.image, want);
        assert_eq!(p.segments.len(), 3);
        assert_eq!(p.ipl3, Some(vec![0xAA; 8]));
    }

    #[test]
    fn no_ipl3_section_is_none() {
        let elf = build(0x8000_0400, &[seg(0x8000_0400, vec![0; 4], 4)], None);
        assert_eq!(load(&elf).unwrap().ipl3, None);
    }

    #[test]
    fn rejects_non_elf() {
        assert_eq!(load(b"").unwrap_err(), RomError::NotElf);
        assert_eq!(load(b"\x80\x37\x12\x40rest").unwrap_err(), RomError::NotElf);
        assert!(matches!(
            load(b"\x7fELF\x01").unwrap_err(),
            RomError::Malformed(_)
        ));
    }

    #[test]
    fn rejects_wrong_class_endian_machine_type() {
        let good = build(0x8000_0400, &[seg(0x8000_0400, vec![0; 4], 4)], None);
        let mut e = good.clone();
        e[4] = 2;
        assert_eq!(load(&e).unwrap_err(), RomError::WrongClass);
        let mut e = good.clone();
        e[5] = 1;
        assert_eq!(load(&e).unwrap_err(), RomError::WrongEndian);
        let mut e = good.clone();
        e[18..20].copy_from_slice(&62u16.to_be_bytes()); // EM_X86_64
        assert_eq!(load(&e).unwrap_err(), RomError::WrongMachine(62));
        let mut e = good.clone();
        e[16..18].copy_from_slice(&1u16.to_be_bytes()); // ET_REL
        assert_eq!(load(&e).unwrap_err(), RomError::NotExecutable(1));
        // Truncated program header table.
        assert!(matches!(
            load(&good[..60]).unwrap_err(),
            RomError::Malformed(_)
        ));
    }

    #[test]
    fn rejects_addresses_outside_rdram() {
        let e = build(0x8000_0400, &[seg(0xA400_0000, vec![0; 4], 4)], None);
        assert_eq!(
            load(&e).unwrap_err(),
            RomError::SegmentOutsideRdram {
                start: 0xA400_0000,
                end: 0xA400_0004
            }
        );
        let e = build(0x8000_0400, &[seg(0x807F_FFF0, vec![], 0x20)], None);
        assert!(matches!(
            load(&e).unwrap_err(),
            RomError::SegmentOutsideRdram { .. }
        ));
        let e = build(0x0040_0000, &[seg(0x8000_0400, vec![0; 4], 4)], None);
        assert_eq!(
            load(&e).unwrap_err(),
            RomError::EntryOutsideRdram(0x0040_0000)
        );
    }

    #[test]
    fn rejects_segment_below_entry() {
        let e = build(0x8000_0400, &[seg(0x8000_0000, vec![0; 4], 4)], None);
        assert_eq!(
            load(&e).unwrap_err(),
            RomError::SegmentBelowEntry {
                start: 0x8000_0000,
                entry: 0x8000_0400
            }
        );
    }

    #[test]
    fn rejects_too_large_program() {
        let e = build(
            0x8000_0400,
            &[seg(0x8000_0400, vec![0; MAX_PROGRAM + 4], 0x10_0004)],
            None,
        );
        assert_eq!(
            load(&e).unwrap_err(),
            RomError::ProgramTooLarge {
                size: MAX_PROGRAM + 4,
                max: MAX_PROGRAM
            }
        );
        // Exactly 1 MiB is fine.
        let e = build(
            0x8000_0400,
            &[seg(0x8000_0400, vec![0; MAX_PROGRAM], 0x10_0000)],
            None,
        );
        assert_eq!(load(&e).unwrap().image.len(), MAX_PROGRAM);
    }

    /// Every truncation and many single-byte corruptions of a valid ELF give
    /// either a program or an error, never a panic (or a huge allocation).
    #[test]
    fn corrupted_input_never_panics() {
        let good = build(
            0x8000_0400,
            &[
                seg(0x8000_0400, vec![1; 16], 16),
                seg(0x8000_0800, vec![2; 8], 64),
            ],
            Some(&[3; 12]),
        );
        for len in 0..good.len() {
            let _ = load(&good[..len]);
        }
        for i in 0..good.len() {
            for v in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                let mut e = good.clone();
                e[i] = v;
                if let Ok(p) = load(&e) {
                    assert!(p.image.len() <= MAX_PROGRAM);
                }
            }
        }
    }

    #[test]
    fn rejects_overlap_truncation_and_empty() {
        let e = build(
            0x8000_0400,
            &[
                seg(0x8000_0400, vec![0; 8], 8),
                seg(0x8000_0404, vec![0; 8], 8),
            ],
            None,
        );
        assert!(matches!(
            load(&e).unwrap_err(),
            RomError::SegmentsOverlap { .. }
        ));
        let full = build(0x8000_0400, &[seg(0x8000_0400, vec![7; 64], 64)], None);
        assert!(matches!(
            load(&full[..full.len() - 8]).unwrap_err(),
            RomError::Malformed(_)
        ));
        let e = build(0x8000_0400, &[seg(0x8000_0400, vec![], 64)], None);
        assert_eq!(load(&e).unwrap_err(), RomError::NoLoadableSegment);
        let mut e = build(0x8000_0400, &[seg(0x8000_0400, vec![0; 8], 8)], None);
        e[52 + 20..52 + 24].copy_from_slice(&4u32.to_be_bytes()); // memsz < filesz
        assert!(matches!(load(&e).unwrap_err(), RomError::Malformed(_)));
    }
}
