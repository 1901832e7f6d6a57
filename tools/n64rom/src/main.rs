//! Command-line front end: `n64rom pack` and `n64rom info`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use n64rom::header::{self, accessory, SaveType};

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
    },
    /// Print a ROM's header and verify its CIC-6102 checksum (exit 1 on mismatch).
    Info {
        /// A big-endian .z64 ROM.
        rom: PathBuf,
    },
}

fn pack(
    elf: PathBuf,
    output: PathBuf,
    ipl3: Option<PathBuf>,
    title: String,
    destination: String,
) -> Result<()> {
    let elf_bytes = std::fs::read(&elf).with_context(|| format!("reading {}", elf.display()))?;
    let user_ipl3 = match &ipl3 {
        Some(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            Some(
                n64rom::ipl3_from_file(&bytes)
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
    std::fs::write(&output, &rom).with_context(|| format!("writing {}", output.display()))?;
    let v = n64rom::verify(&rom)?;
    println!(
        "{}: {} bytes, entry {:#010x}, CRC {:08X} {:08X}, IPL3 from {}",
        output.display(),
        rom.len(),
        v.header.entry,
        v.header.crc1,
        v.header.crc2,
        ipl3.as_ref()
            .map_or(".ipl3 section (unsigned, emulators only)".into(), |p| p
                .display()
                .to_string()),
    );
    Ok(())
}

fn info(path: PathBuf) -> Result<bool> {
    let rom = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    let v =
        n64rom::verify(&rom).with_context(|| format!("reading header of {}", path.display()))?;
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
    Ok(v.ok())
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Pack {
            elf,
            output,
            ipl3,
            title,
            destination,
        } => pack(elf, output, ipl3, title, destination).map(|()| true),
        Command::Info { rom } => info(rom),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("n64rom: checksum mismatch");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("n64rom: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
