//! Command-line front end: `n64rom pack` and `n64rom info`.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use n64rom::boot::{BootCheck, Verdict};
use n64rom::compat;
use n64rom::header::{self, accessory, SaveType, PROGRAM_OFFSET};

/// The largest ROM `info` reads: 64 MiB, the largest N64 cartridge (512
/// Mbit) and what flashcarts take. A bigger file is refused by its size,
/// not read into memory.
const MAX_ROM_BYTES: u64 = 64 << 20;

/// The largest ELF `pack` reads: 256 MiB. The program it packs fits in
/// 1 MiB; the rest is room for symbols and debug information.
const MAX_ELF_BYTES: u64 = 256 << 20;

#[derive(Parser)]
#[command(
    name = "n64rom",
    version,
    about = "Build and inspect Nintendo 64 ROM images (.z64)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Pack a MIPS ELF executable into a bootable .z64 ROM.
    Pack {
        /// Big-endian 32-bit MIPS ELF executable linked for KSEG0 RDRAM.
        elf: PathBuf,
        /// Output ROM file.
        #[arg(short, long)]
        output: PathBuf,
        /// Take the IPL3 from this file (a raw 4032-byte IPL3, or a .z64 ROM's
        /// bytes 0x40..0x1000) instead of the ELF's own `.ipl3` section.
        /// A real console only boots a signed IPL3.
        #[arg(long, value_name = "FILE")]
        ipl3: Option<PathBuf>,
        /// Title stored at 0x20 (at most 20 ASCII characters).
        #[arg(long, default_value = "TIC-TAC-TOE 64")]
        title: String,
        /// Destination code at 0x3E (E = North America NTSC, P = Europe PAL,
        /// J = Japan, ...); emulators pick the TV type from it (mupen64plus:
        /// D F I P S U X Y are PAL, every other code NTSC, none MPAL).
        #[arg(long, default_value = "E")]
        destination: String,
        /// Refuse (exit 1, write nothing) unless the packed ROM would boot on
        /// a console: the IPL3 must be signed for a known CIC.
        #[arg(long)]
        require_console: bool,
    },
    /// Print a ROM's header, verify its CIC-6102 checksum and tell whether it
    /// can boot on a console (exit 1 on a checksum mismatch).
    Info {
        /// A big-endian .z64 ROM.
        rom: PathBuf,
        /// Also exit 1 unless the verdict is "boots on a console".
        #[arg(long)]
        require_console: bool,
    },
}

/// What a successful command found.
enum Outcome {
    Ok,
    ChecksumMismatch,
    NotForConsole(String),
}

fn pack(
    elf: PathBuf,
    output: PathBuf,
    ipl3: Option<PathBuf>,
    title: String,
    destination: String,
    require_console: bool,
) -> Result<Outcome> {
    // Writing the ROM over an input would destroy it (the ELF is read in
    // full first, so the pack itself would work).
    for (input, what) in [(Some(&elf), "the ELF"), (ipl3.as_ref(), "the --ipl3 file")] {
        if input.is_some_and(|input| same_file(input, &output)) {
            anyhow::bail!(
                "-o {} is {what} being packed: choose another output file",
                output.display()
            );
        }
    }
    let elf_bytes = read_bounded(&elf, "an ELF n64rom packs", MAX_ELF_BYTES, 4, |head| {
        // Not an ELF: refused after 4 bytes, whatever the file's size.
        n64rom::elf::check_magic(head).map_err(Into::into)
    })?;
    let user_ipl3 = match &ipl3 {
        Some(path) => {
            // A raw IPL3 (4032 bytes) or a ROM: its first 4 KiB hold the
            // IPL3, and nothing after them is read.
            let head = read_head(path, PROGRAM_OFFSET)?;
            Some(
                n64rom::ipl3_from_file(&head)
                    .with_context(|| format!("IPL3 {}", path.display()))?,
            )
        }
        None => None,
    };
    let destination = header::code_char("destination", &destination)?;
    let rom = n64rom::pack(&elf_bytes, user_ipl3.as_deref(), |cfg| {
        cfg.title = title;
        cfg.destination = destination;
    })
    .with_context(|| format!("packing {}", elf.display()))?;
    let (v, boot) = n64rom::inspect(&rom)?;
    if require_console && !matches!(boot.verdict, Verdict::Console(_)) {
        return Ok(Outcome::NotForConsole(format!(
            "{} not written: {}",
            output.display(),
            boot.verdict
        )));
    }
    std::fs::write(&output, &rom).with_context(|| format!("writing {}", output.display()))?;
    println!(
        "{}: {} bytes, entry {:#010x}, CRC {:08X} {:08X}, IPL3 from {}",
        output.display(),
        rom.len(),
        v.header.entry,
        v.header.crc1,
        v.header.crc2,
        ipl3.as_ref()
            .map_or(".ipl3 section of the ELF".into(), |p| p
                .display()
                .to_string()),
    );
    println!("verdict: {}", boot.verdict);
    Ok(Outcome::Ok)
}

/// Whether `a` and `b` name the same existing file: the same device and
/// inode (a hard link or a symbolic link to a file is that file).
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Opens `path` for reading, the error naming it.
fn open(path: &Path) -> Result<File> {
    File::open(path).with_context(|| format!("reading {}", path.display()))
}

/// Reads at most `len` bytes from the start of `file` (fewer at its end).
fn read_up_to(file: &mut File, len: usize, path: &Path) -> Result<Vec<u8>> {
    // Into a buffer of this size: `read_to_end` would size its buffer by
    // the whole file.
    let mut head = Vec::with_capacity(len);
    file.take(len as u64)
        .read_to_end(&mut head)
        .with_context(|| format!("reading {}", path.display()))?;
    Ok(head)
}

/// The first `len` bytes of the file at `path` (all of it if shorter).
fn read_head(path: &Path, len: usize) -> Result<Vec<u8>> {
    read_up_to(&mut open(path)?, len, path)
}

/// Reads the file at `path`, `what` (for the message), at most `limit`
/// bytes: its first `head` bytes first, given to `check`, so a file of the
/// wrong kind is refused after them whatever its size; then a regular file
/// larger than `limit` is refused by its size, and anything else (a device,
/// a pipe) is read up to the limit and refused past it.
fn read_bounded(
    path: &Path,
    what: &str,
    limit: u64,
    head: usize,
    check: impl FnOnce(&[u8]) -> Result<()>,
) -> Result<Vec<u8>> {
    let shown = path.display();
    let mut file = open(path)?;
    let mut bytes = read_up_to(&mut file, head, path)?;
    check(&bytes).with_context(|| format!("reading {shown}"))?;
    let too_large = |size: String| {
        anyhow::anyhow!(
            "{shown}{size} is larger than {what} (at most {} MiB)",
            limit >> 20
        )
    };
    // A file's size is known: refused, or read into a buffer of that size.
    let size = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    if let Some(size) = size {
        if size > limit {
            return Err(too_large(format!(" ({size} bytes)")));
        }
        bytes.reserve_exact((size as usize).saturating_sub(bytes.len()));
    }
    file.take(limit + 1 - bytes.len() as u64)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {shown}"))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(String::new()));
    }
    Ok(bytes)
}

/// Reads a ROM: its header first, so a file that is not a ROM is refused
/// after 4 KiB whatever its size, then the rest, at most [`MAX_ROM_BYTES`].
fn read_rom(path: &Path) -> Result<Vec<u8>> {
    read_bounded(path, "any N64 ROM", MAX_ROM_BYTES, PROGRAM_OFFSET, |head| {
        header::Header::parse(head).map(drop).map_err(Into::into)
    })
}

fn info(path: PathBuf, require_console: bool) -> Result<Outcome> {
    let rom = read_rom(&path)?;
    let (v, boot) =
        n64rom::inspect(&rom).with_context(|| format!("reading header of {}", path.display()))?;
    let h = &v.header;
    println!("file:         {} ({} bytes)", path.display(), rom.len());
    println!("pi config:    {:#010x}", h.pi_config);
    println!("clock rate:   {:#010x}", h.clock_rate);
    println!("entry:        {:#010x}", h.entry);
    println!("libultra:     {:#010x}", h.libultra);
    println!("title:        {:?}", h.title);
    let code: String = [h.category, h.game_id[0], h.game_id[1], h.destination]
        .iter()
        .map(|&b| if b.is_ascii_graphic() { b as char } else { '?' })
        .collect();
    println!(
        "game code:    {code} (destination {})",
        header::destination_name(h.destination)
    );
    if h.is_advanced() {
        let save = match SaveType::from_nibble(h.byte_3f >> 4) {
            Some(s) => format!("{s:?}"),
            None => format!("unknown ({})", h.byte_3f >> 4),
        };
        let flags = h.byte_3f & 0x0F;
        println!(
            "save type:    {save} (0x3F = {:#04x}; rtc {}, region-free {})",
            h.byte_3f,
            flags & header::FLAG_RTC != 0,
            flags & header::FLAG_REGION_FREE != 0
        );
        let ports: Vec<String> = h
            .accessories
            .iter()
            .enumerate()
            .map(|(i, &a)| format!("{}={}", i + 1, accessory::name(a)))
            .collect();
        println!("controllers:  {}", ports.join(", "));
    } else {
        println!("version:      {}", h.byte_3f);
    }
    let status = |stored: u32, computed: u32| if stored == computed { "ok" } else { "MISMATCH" };
    println!(
        "crc1:         {:08X} (computed {:08X}) {}",
        h.crc1,
        v.computed.0,
        status(h.crc1, v.computed.0)
    );
    println!(
        "crc2:         {:08X} (computed {:08X}) {}",
        h.crc2,
        v.computed.1,
        status(h.crc2, v.computed.1)
    );
    print_boot(&boot, h.entry);
    Ok(if !v.ok() {
        Outcome::ChecksumMismatch
    } else if require_console && !matches!(boot.verdict, Verdict::Console(_)) {
        Outcome::NotForConsole(format!("{}: {}", path.display(), boot.verdict))
    } else {
        Outcome::Ok
    })
}

fn print_boot(boot: &BootCheck, entry: u32) {
    let sums: Vec<String> = boot
        .ipl2_checksums
        .iter()
        .map(|(seed, sum)| format!("{sum:012X} (seed {seed:#04X})"))
        .collect();
    println!("ipl2 sums:    {}", sums.join(", "));
    match boot.cic {
        Some(cic) => println!(
            "cic:          {} (expects {:012X} with seed {:#04X})",
            cic.name(),
            cic.checksum(),
            cic.seed()
        ),
        None => println!("cic:          none (no retail CIC accepts this IPL3)"),
    }
    println!("ipl3:         {}", boot.ipl3.describe());
    println!("ipl3 sha256:  {} (ROM 0x40..0x1000)", boot.ipl3_sha256);
    if let Some(len) = boot.compat_partial_load {
        println!(
            "warning:      libdragon's compat IPL3 reads header word 0x10 ({len:#x}) as a size: \
             it is <= {:#x} (8 MiB - entry - 32 KiB), so it loads only {len:#x} bytes, not 1 MiB",
            compat::size_bound(entry)
        );
    }
    if boot.ipl3.loads_elf() {
        match boot.elf_offset {
            Some(at) => println!("elf:          at ROM {at:#x}"),
            None => println!("elf:          none at a 256-byte boundary from ROM 0x1000"),
        }
    }
    println!("verdict:      {}", boot.verdict);
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Pack {
            elf,
            output,
            ipl3,
            title,
            destination,
            require_console,
        } => pack(elf, output, ipl3, title, destination, require_console),
        Command::Info {
            rom,
            require_console,
        } => info(rom, require_console),
    };
    match result {
        Ok(Outcome::Ok) => ExitCode::SUCCESS,
        Ok(Outcome::ChecksumMismatch) => {
            eprintln!("n64rom: checksum mismatch");
            ExitCode::FAILURE
        }
        Ok(Outcome::NotForConsole(why)) => {
            eprintln!("n64rom: not a ROM for a console: {why}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("n64rom: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
