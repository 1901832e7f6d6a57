//! The `n64rom` binary end to end: exit codes and messages on good and bad
//! input (never a panic).

use std::path::PathBuf;
use std::process::{Command, Output};

fn n64rom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_n64rom"))
        .args(args)
        .output()
        .expect("run n64rom")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("n64rom-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A minimal big-endian MIPS executable: one segment at 0x80000400 and a
/// `.ipl3` section.
fn tiny_elf() -> Vec<u8> {
    // ELF header 52, one program header 32, program 8, .ipl3 4, strings 20.
    const SHOFF: usize = 52 + 32 + 8 + 4 + 20;
    let mut e = Vec::new();
    e.extend_from_slice(b"\x7fELF\x01\x02\x01\0\0\0\0\0\0\0\0\0");
    let half = |e: &mut Vec<u8>, v: u16| e.extend_from_slice(&v.to_be_bytes());
    let word = |e: &mut Vec<u8>, v: u32| e.extend_from_slice(&v.to_be_bytes());
    half(&mut e, 2);
    half(&mut e, 8);
    word(&mut e, 1);
    word(&mut e, 0x8000_0400); // entry
    word(&mut e, 52); // phoff
    word(&mut e, SHOFF as u32);
    word(&mut e, 0);
    for v in [52u16, 32, 1, 40, 3, 2] {
        half(&mut e, v);
    }
    for v in [1u32, 84, 0x8000_0400, 0x8000_0400, 8, 8, 7, 16] {
        word(&mut e, v);
    }
    e.extend_from_slice(&[0x24, 0x02, 0x00, 0x2A, 0x10, 0x00, 0xFF, 0xFF]); // program
    e.extend_from_slice(&[0x00, 0x00, 0x00, 0x00]); // .ipl3 (one nop)
    e.extend_from_slice(b"\0.ipl3\0.shstrtab\0\0\0\0"); // 17 + 3 padding
    assert_eq!(e.len(), SHOFF);
    e.extend_from_slice(&[0u8; 40]);
    for (name, ty, off, size) in [(1u32, 1u32, 92u32, 4u32), (7, 3, 96, 17)] {
        for v in [name, ty, 0, 0, off, size, 0, 0, 1, 0] {
            word(&mut e, v);
        }
    }
    e
}

#[test]
fn pack_then_info_verifies() {
    let elf = scratch("ok.elf");
    let rom = scratch("ok.z64");
    std::fs::write(&elf, tiny_elf()).unwrap();
    let out = n64rom(&["pack", elf.to_str().unwrap(), "-o", rom.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&rom).unwrap();
    assert_eq!(
        &bytes[0x1000..0x1008],
        &[0x24, 0x02, 0x00, 0x2A, 0x10, 0x00, 0xFF, 0xFF]
    );
    let out = n64rom(&["info", rom.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("\"TIC-TAC-TOE 64\""), "{text}");
    assert!(text.contains("Eeprom4k"), "{text}");
    assert_eq!(text.matches(" ok").count(), 2, "{text}");

    // Corrupt one program byte: info must fail with exit code 1.
    let mut bad = bytes.clone();
    bad[0x1003] ^= 0xFF;
    let bad_rom = scratch("bad.z64");
    std::fs::write(&bad_rom, &bad).unwrap();
    let out = n64rom(&["info", bad_rom.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("MISMATCH"));

    // --ipl3 taken from the packed ROM gives the same image.
    let again = scratch("again.z64");
    let out = n64rom(&[
        "pack",
        elf.to_str().unwrap(),
        "-o",
        again.to_str().unwrap(),
        "--ipl3",
        rom.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
}

#[test]
fn bad_input_is_a_clear_error() {
    let not_elf = scratch("not.elf");
    std::fs::write(&not_elf, b"hello").unwrap();
    let out_path = scratch("never.z64");
    let out = n64rom(&[
        "pack",
        not_elf.to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an ELF file"));
    assert!(!out_path.exists());

    let out = n64rom(&["info", not_elf.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least 4096 bytes"));

    let missing = scratch("missing.elf");
    let out = n64rom(&[
        "pack",
        missing.to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("reading"));

    let elf = scratch("ipl.elf");
    std::fs::write(&elf, tiny_elf()).unwrap();
    let short_ipl3 = scratch("short.bin");
    std::fs::write(&short_ipl3, [0u8; 100]).unwrap();
    let out = n64rom(&[
        "pack",
        elf.to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
        "--ipl3",
        short_ipl3.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("4032"));

    let out = n64rom(&[
        "pack",
        elf.to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
        "--destination",
        "PAL",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("single ASCII character"));
}
