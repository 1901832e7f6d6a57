//! Whether a ROM can boot on a console: the three checks between power-on
//! and the program, in order.
//!
//! 1. The PIF's IPL2 checksum of the IPL3 must match the cartridge's CIC
//!    (`ipl2`); emulators such as mupen64plus skip this check.
//! 2. The IPL3 must load the program: Nintendo's checks CRC1/CRC2 first;
//!    libdragon's compat build reads header word 0x10 as a size
//!    (`compat`); libdragon's prod/dev builds need an ELF in the ROM.
//! 3. (Not visible in the ROM: the program must tell the PIF the boot is
//!    over; see `n64/README.md`.)

use crate::compat;
use crate::header::{Header, IPL3_LEN, PROGRAM_OFFSET};
use crate::ipl2::{self, Cic};
use crate::ipl3::{self, KnownIpl3};
use crate::RomError;

/// libdragon's prod/dev IPL3 looks for `\x7fELF` from ROM 0x1000 in 256-byte
/// steps, through at most 64 MiB (`boot/README.md`).
const ELF_STEP: usize = 256;
const ELF_SEARCH_END: usize = 64 << 20;

/// The one-line answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Passes every check a console makes that is visible in the ROM.
    Console(Cic),
    /// The IPL3 is not signed for any known CIC: only emulators that skip
    /// the PIF checks (mupen64plus) run it.
    EmulatorsOnly,
    /// Signed, but the IPL3 will not start the program.
    WillNotBoot(String),
    /// Signed, but n64rom cannot tell whether the IPL3 accepts the rest.
    Undecided(String),
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Console(cic) => write!(f, "boots on a {} console", cic.name()),
            Verdict::EmulatorsOnly => write!(
                f,
                "emulators that skip the PIF checks only (unsigned IPL3: a console refuses it)"
            ),
            Verdict::WillNotBoot(why) => write!(f, "will not boot: {why}"),
            Verdict::Undecided(why) => write!(f, "cannot tell: {why}"),
        }
    }
}

/// Everything `n64rom info` reports about booting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BootCheck {
    /// IPL2 checksum of the IPL3 for each distinct CIC seed, in
    /// `ipl2::Cic::ALL` order.
    pub ipl2_checksums: Vec<(u8, u64)>,
    pub cic: Option<Cic>,
    pub ipl3: KnownIpl3,
    pub ipl3_sha256: String,
    /// Stored CRC1/CRC2 equal the CIC-6102 computation.
    pub crc_ok: bool,
    /// Under libdragon's compat IPL3 (or an unrecognised libdragon build):
    /// header word 0x10 is taken as a size (bytes loaded), not 1 MiB.
    pub compat_partial_load: Option<u32>,
    /// ROM offset of the first ELF at a 256-byte boundary from 0x1000.
    pub elf_offset: Option<usize>,
    pub verdict: Verdict,
}

fn elf_offset(rom: &[u8]) -> Option<usize> {
    (PROGRAM_OFFSET..rom.len().min(ELF_SEARCH_END))
        .step_by(ELF_STEP)
        .find(|&at| rom[at..].starts_with(b"\x7fELF"))
}

/// One past the last non-zero byte the compat IPL3 would load in full
/// (ROM 0x1000..0x101000), relative to 0x1000.
fn program_extent(rom: &[u8]) -> usize {
    let end = rom
        .len()
        .min(PROGRAM_OFFSET + compat::DEFAULT_LOAD as usize);
    rom.get(PROGRAM_OFFSET..end)
        .and_then(|area| area.iter().rposition(|&b| b != 0))
        .map_or(0, |last| last + 1)
}

/// What the verdict depends on.
#[derive(Clone, Copy, Debug)]
struct Facts {
    cic: Option<Cic>,
    ipl3: KnownIpl3,
    crc_ok: bool,
    compat_partial_load: Option<u32>,
    has_elf: bool,
    /// Bytes from ROM 0x1000 up to the last non-zero one (within 1 MiB).
    program_extent: usize,
}

fn decide(f: &Facts) -> Verdict {
    let Some(cic) = f.cic else {
        return Verdict::EmulatorsOnly;
    };
    match f.ipl3 {
        KnownIpl3::LibdragonCompat => match f.compat_partial_load {
            Some(len) if (len as usize) < f.program_extent => Verdict::WillNotBoot(format!(
                "libdragon's compat IPL3 loads only {len:#x} bytes (header word 0x10) \
                 but the program reaches {:#x} bytes past ROM 0x1000",
                f.program_extent
            )),
            _ => Verdict::Console(cic),
        },
        k if k.loads_elf() => match f.has_elf {
            true => Verdict::Console(cic),
            false => Verdict::WillNotBoot(
                "libdragon's prod/dev IPL3 finds no ELF at a 256-byte boundary from ROM 0x1000"
                    .into(),
            ),
        },
        KnownIpl3::LibdragonOther => match f.has_elf {
            true => Verdict::Console(cic),
            false => Verdict::Undecided(
                "an unrecognised libdragon IPL3 revision: it boots this flat ROM only if \
                 it is a compat build"
                    .into(),
            ),
        },
        // Nintendo's IPL3s (and anything else signed) check the header CRC.
        _ if !cic.crc_is_6102_variant() => Verdict::Undecided(format!(
            "the IPL3 is signed for {}, whose header CRC variant n64rom does not compute",
            cic.name()
        )),
        _ if f.crc_ok => Verdict::Console(cic),
        _ => Verdict::WillNotBoot(
            "header CRC mismatch (a Nintendo IPL3 checks CRC1/CRC2 and hangs)".into(),
        ),
    }
}

/// Checks a parsed ROM; `computed_crc` is `checksum::cic6102(rom)`.
pub fn check(rom: &[u8], header: &Header, computed_crc: (u32, u32)) -> Result<BootCheck, RomError> {
    let code: &[u8; IPL3_LEN] = ipl2::ipl3_of(rom).ok_or(RomError::RomTooSmall(rom.len()))?;
    let mut seeds: Vec<u8> = Cic::ALL.iter().map(|c| c.seed()).collect();
    seeds.dedup();
    let ipl2_checksums = seeds
        .iter()
        .map(|&s| (s, ipl2::checksum(code, s)))
        .collect();
    let cic = ipl2::identify(code);
    let kind = ipl3::identify(code);
    let crc_ok = computed_crc == (header.crc1, header.crc2);
    // Other libdragon revisions may be compat builds (r3..r7 read the word
    // the same way), so they get the warning too.
    let may_be_compat = matches!(kind, KnownIpl3::LibdragonCompat | KnownIpl3::LibdragonOther);
    let compat_partial_load =
        (may_be_compat && compat::loads_partial(header.crc1, header.entry)).then_some(header.crc1);
    let elf_offset = elf_offset(rom);

    let facts = Facts {
        cic,
        ipl3: kind,
        crc_ok,
        compat_partial_load,
        has_elf: elf_offset.is_some(),
        program_extent: program_extent(rom),
    };
    let verdict = decide(&facts);
    Ok(BootCheck {
        ipl2_checksums,
        cic,
        ipl3: kind,
        ipl3_sha256: ipl3::sha256_hex(code),
        crc_ok,
        compat_partial_load,
        elf_offset,
        verdict,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(cic: Option<Cic>, ipl3: KnownIpl3) -> Facts {
        Facts {
            cic,
            ipl3,
            crc_ok: true,
            compat_partial_load: None,
            has_elf: false,
            program_extent: 0x1000,
        }
    }

    #[test]
    fn unsigned_is_emulators_only_whatever_else() {
        for kind in [
            KnownIpl3::Ours,
            KnownIpl3::Unknown,
            KnownIpl3::LibdragonCompat,
        ] {
            let mut f = facts(None, kind);
            assert_eq!(decide(&f), Verdict::EmulatorsOnly);
            f.crc_ok = false;
            assert_eq!(decide(&f), Verdict::EmulatorsOnly);
        }
    }

    /// A signed IPL3 n64rom does not recognise is taken as Nintendo's, which
    /// checks the CRC; libdragon's compat IPL3 does not.
    #[test]
    fn crc_matters_for_nintendo_ipl3_only() {
        let cic = Some(Cic::Cic6102Or7101);
        let mut f = facts(cic, KnownIpl3::Unknown);
        assert_eq!(decide(&f), Verdict::Console(Cic::Cic6102Or7101));
        f.crc_ok = false;
        assert!(decide(&f)
            .to_string()
            .starts_with("will not boot: header CRC mismatch"));
        let mut f = facts(cic, KnownIpl3::LibdragonCompat);
        f.crc_ok = false;
        assert_eq!(decide(&f), Verdict::Console(Cic::Cic6102Or7101));
        let f = facts(Some(Cic::Cic6105Or7105), KnownIpl3::Unknown);
        assert!(matches!(decide(&f), Verdict::Undecided(_)));
        let f = facts(Some(Cic::Cic6101), KnownIpl3::Unknown);
        assert_eq!(decide(&f).to_string(), "boots on a CIC-6101 console");
    }

    #[test]
    fn compat_partial_load_breaks_only_a_longer_program() {
        let mut f = facts(Some(Cic::Cic6102Or7101), KnownIpl3::LibdragonCompat);
        f.compat_partial_load = Some(0x1000);
        assert_eq!(decide(&f), Verdict::Console(Cic::Cic6102Or7101));
        f.compat_partial_load = Some(0xFFF);
        assert!(decide(&f).to_string().contains("loads only 0xfff bytes"));
    }

    #[test]
    fn elf_loading_ipl3s_need_an_elf() {
        for kind in [KnownIpl3::LibdragonProd, KnownIpl3::LibdragonDev] {
            let mut f = facts(Some(Cic::Cic6102Or7101), kind);
            assert!(decide(&f).to_string().contains("finds no ELF"));
            f.has_elf = true;
            assert_eq!(decide(&f), Verdict::Console(Cic::Cic6102Or7101));
        }
        let f = facts(Some(Cic::Cic6102Or7101), KnownIpl3::LibdragonOther);
        assert!(matches!(decide(&f), Verdict::Undecided(_)));
    }

    #[test]
    fn elf_search_and_extent() {
        let mut rom = vec![0u8; 0x3000];
        assert_eq!(elf_offset(&rom), None);
        assert_eq!(program_extent(&rom), 0);
        rom[0x1080..0x1084].copy_from_slice(b"\x7fELF");
        assert_eq!(elf_offset(&rom), None, "not at a 256-byte boundary");
        rom[0x1200..0x1204].copy_from_slice(b"\x7fELF");
        assert_eq!(elf_offset(&rom), Some(0x1200));
        assert_eq!(program_extent(&rom), 0x204);
        rom[0x2FFE..0x3000].copy_from_slice(b"\x7fE");
        assert_eq!(elf_offset(&rom[..0x2FFF]), Some(0x1200));
        assert_eq!(program_extent(&rom), 0x2000);
    }

    /// The size-word warning applies to IPL3s that may read 0x10 as a size
    /// (compat, or a libdragon build n64rom does not know), not to others.
    #[test]
    fn size_warning_only_for_possible_compat_builds() {
        let mut rom = vec![0u8; 0x2000];
        rom[..4].copy_from_slice(&crate::header::PI_CONFIG.to_be_bytes());
        rom[0x08..0x0C].copy_from_slice(&0x8000_0400u32.to_be_bytes());
        rom[0x10..0x14].copy_from_slice(&0x100u32.to_be_bytes());
        let inspect = |rom: &[u8]| {
            let header = Header::parse(rom).unwrap();
            check(rom, &header, crate::checksum::cic6102(rom)).unwrap()
        };
        assert_eq!(inspect(&rom).compat_partial_load, None);
        rom[0x400..0x400 + ipl3::LIBDRAGON_MARKER.len()].copy_from_slice(ipl3::LIBDRAGON_MARKER);
        let found = inspect(&rom);
        assert_eq!(found.ipl3, KnownIpl3::LibdragonOther);
        assert_eq!(found.compat_partial_load, Some(0x100));
        assert_eq!(found.verdict, Verdict::EmulatorsOnly, "still unsigned");
    }
}
