//! The `n64rom` binary end to end: exit codes and messages on good and bad
//! input (never a panic).

use std::path::PathBuf;
use std::process::{Command, Output};

/// The binary under test: this build's, unless `CARGO_BIN_EXE_n64rom`
/// names another at run time (to see a test fail on an older build).
fn n64rom_path() -> PathBuf {
    std::env::var_os("CARGO_BIN_EXE_n64rom")
        .map_or_else(|| env!("CARGO_BIN_EXE_n64rom").into(), Into::into)
}

fn n64rom(args: &[&str]) -> Output {
    Command::new(n64rom_path())
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

/// libdragon's compat IPL3 from the team's shared folder (`../shared` next to
/// the repository, or `$TTT_SHARED_DIR`), if present.
fn shared_compat_ipl3() -> Option<PathBuf> {
    let dir = std::env::var("TTT_SHARED_DIR")
        .unwrap_or_else(|_| format!("{}/../../../shared", env!("CARGO_MANIFEST_DIR")));
    let path = PathBuf::from(dir).join("third-party/libdragon-ipl3/ipl3_compat.z64");
    path.exists().then_some(path)
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The ELF's own (unsigned) IPL3: info says so, and both commands refuse it
/// under --require-console (pack then writes nothing).
#[test]
fn unsigned_ipl3_is_for_emulators_only() {
    let elf = scratch("unsigned.elf");
    let rom = scratch("unsigned.z64");
    std::fs::write(&elf, tiny_elf()).unwrap();
    let out = n64rom(&["pack", elf.to_str().unwrap(), "-o", rom.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = n64rom(&["info", rom.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("cic:          none"), "{text}");
    assert!(text.contains("ipl3:         unknown"), "{text}");
    assert!(
        text.contains("verdict:      emulators that skip the PIF checks only"),
        "{text}"
    );
    let out = n64rom(&["info", "--require-console", rom.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not a ROM for a console"),
        "{}",
        stderr(&out)
    );

    let refused = scratch("refused.z64");
    let out = n64rom(&[
        "pack",
        "--require-console",
        elf.to_str().unwrap(),
        "-o",
        refused.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not written"), "{}", stderr(&out));
    assert!(!refused.exists());
}

/// An IPL3 carrying our marker (as `n64/src/boot/ipl3.s` will) is named as
/// ours, and is still unsigned.
#[test]
fn our_ipl3_is_recognised() {
    let mut ipl3 = vec![0u8; 4032];
    ipl3[..4].copy_from_slice(&[0x3C, 0x08, 0xA4, 0x60]);
    ipl3[0x300..0x300 + 19].copy_from_slice(b"Tic-Tac-Toe 64 IPL3");
    let ipl3_path = scratch("ours.ipl3");
    std::fs::write(&ipl3_path, &ipl3).unwrap();
    let elf = scratch("ours.elf");
    std::fs::write(&elf, tiny_elf()).unwrap();
    let rom = scratch("ours.z64");
    let out = n64rom(&[
        "pack",
        elf.to_str().unwrap(),
        "--ipl3",
        ipl3_path.to_str().unwrap(),
        "-o",
        rom.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&n64rom(&["info", rom.to_str().unwrap()]));
    assert!(
        text.contains("ipl3:         Tic-Tac-Toe 64's own"),
        "{text}"
    );
    assert!(text.contains("cic:          none"), "{text}");
    assert!(
        text.contains("emulators that skip the PIF checks only"),
        "{text}"
    );
}

/// Packed with libdragon's signed compat IPL3, the ROM passes
/// --require-console; corrupting it shows in the verdict or the exit code.
#[test]
fn compat_ipl3_rom_boots_on_a_console() {
    let Some(compat) = shared_compat_ipl3() else {
        println!("skipped: ../shared/third-party/libdragon-ipl3 not found");
        return;
    };
    let elf = scratch("hw.elf");
    std::fs::write(&elf, tiny_elf()).unwrap();
    let rom = scratch("hw.z64");
    let out = n64rom(&[
        "pack",
        "--require-console",
        elf.to_str().unwrap(),
        "--ipl3",
        compat.to_str().unwrap(),
        "-o",
        rom.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("verdict: boots on a CIC-6102/7101 console"));
    let out = n64rom(&["info", "--require-console", rom.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("A536C0F1D859 (seed 0x3F)"), "{text}");
    assert!(text.contains("cic:          CIC-6102/7101"), "{text}");
    assert!(text.contains("ipl3:         libdragon compat r8"), "{text}");
    assert!(
        text.contains("verdict:      boots on a CIC-6102/7101 console"),
        "{text}"
    );
    assert!(!text.contains("warning"), "{text}");
    let good = std::fs::read(&rom).unwrap();

    let run = |name: &str, bytes: &[u8]| {
        let path = scratch(name);
        std::fs::write(&path, bytes).unwrap();
        n64rom(&["info", "--require-console", path.to_str().unwrap()])
    };
    // One flipped IPL3 byte: no CIC accepts it any more, and its hash is no
    // longer compat r8's (libdragon's text marker is still there).
    let mut bad_ipl3 = good.clone();
    bad_ipl3[0x800] ^= 0x01;
    let out = run("bad-ipl3.z64", &bad_ipl3);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("cic:          none"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("ipl3:         libdragon, unrecognised revision"),
        "{}",
        stdout(&out)
    );

    // One flipped program byte: CRC mismatch (exit 1), though the compat
    // IPL3 itself does not check the CRC.
    let mut bad_program = good.clone();
    bad_program[0x1001] ^= 0x01;
    let out = run("bad-program.z64", &bad_program);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("MISMATCH"));
    assert!(stderr(&out).contains("checksum mismatch"));
    assert!(stdout(&out).contains("verdict:      boots on a CIC-6102/7101 console"));

    // Header word 0x10 small: compat loads only that many bytes. 4 bytes
    // cut the 8-byte program short; 0x100 bytes hold it.
    for (word, breaks) in [(4u32, true), (0x100, false)] {
        let mut small = good.clone();
        small[0x10..0x14].copy_from_slice(&word.to_be_bytes());
        let out = run("small-size.z64", &small);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(
            text.contains("warning:      libdragon's compat IPL3"),
            "{text}"
        );
        assert!(
            text.contains(&format!("loads only {word:#x} bytes")),
            "{text}"
        );
        assert_eq!(
            text.contains("verdict:      will not boot"),
            breaks,
            "{text}"
        );
    }
}

/// `n64rom ARGS` with its address space limited to 100 MB (`ulimit -v`).
fn n64rom_in_100_mb(args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 100000 && exec \"$0\" \"$@\"")
        .arg(n64rom_path())
        .args(args)
        .output()
        .expect("run n64rom")
}

#[test]
fn info_reads_a_huge_file_no_further_than_it_must() {
    // A 1 GiB sparse file: not a ROM (its first word is 0), refused after its header.
    let huge = scratch("huge.z64");
    let file = std::fs::File::create(&huge).unwrap();
    file.set_len(1 << 30).unwrap();
    let out = n64rom_in_100_mb(&["info", huge.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("0x00000000"), "{}", stderr(&out));
    // The same size behind a real ROM's header: refused by its size.
    let elf = scratch("huge.elf");
    let rom = scratch("small.z64");
    std::fs::write(&elf, tiny_elf()).unwrap();
    let packed = n64rom(&["pack", elf.to_str().unwrap(), "-o", rom.to_str().unwrap()]);
    assert!(packed.status.success(), "{}", stderr(&packed));
    let mut bytes = std::fs::read(&rom).unwrap();
    bytes.truncate(4096);
    std::fs::write(&huge, &bytes).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&huge)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let out = n64rom_in_100_mb(&["info", huge.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("(1073741824 bytes) is larger than any N64 ROM (at most 64 MiB)"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_file(&huge);
}

#[test]
fn pack_refuses_to_write_over_its_input() {
    let elf = scratch("self.elf");
    std::fs::write(&elf, tiny_elf()).unwrap();
    let path = elf.to_str().unwrap();
    let out = n64rom(&["pack", path, "-o", path]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is the ELF being packed: choose another output file"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&elf).unwrap(), tiny_elf());
}

#[test]
fn pack_reads_its_inputs_no_further_than_it_must() {
    let rom = scratch("bounded.z64");
    let out_path = rom.to_str().unwrap();
    // An endless input that is no ELF: refused after its first bytes.
    let out = n64rom_in_100_mb(&["pack", "/dev/zero", "-o", out_path]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not an ELF file"), "{}", stderr(&out));
    // A 1 GiB sparse file: the same, after 4 bytes.
    let huge = scratch("huge-pack.elf");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let out = n64rom_in_100_mb(&["pack", huge.to_str().unwrap(), "-o", out_path]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not an ELF file"), "{}", stderr(&out));
    // A real ELF's start, 1 GiB long: refused by its size.
    std::fs::write(&huge, tiny_elf()).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&huge)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let out = n64rom_in_100_mb(&["pack", huge.to_str().unwrap(), "-o", out_path]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("(1073741824 bytes) is larger than an ELF n64rom packs (at most 256 MiB)"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_file(&huge);
    // An endless IPL3 file: only its first 4 KiB are read, and they are no ROM.
    let elf = scratch("bounded.elf");
    std::fs::write(&elf, tiny_elf()).unwrap();
    let out = n64rom_in_100_mb(&[
        "pack",
        elf.to_str().unwrap(),
        "--ipl3",
        "/dev/zero",
        "-o",
        out_path,
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not a big-endian .z64 ROM"),
        "{}",
        stderr(&out)
    );
    assert!(!rom.exists(), "nothing written");
}

#[test]
fn pack_refuses_to_write_over_a_hard_link_to_its_input() {
    let elf = scratch("linked.elf");
    let link = scratch("linked-too.elf");
    std::fs::write(&elf, tiny_elf()).unwrap();
    let _ = std::fs::remove_file(&link);
    std::fs::hard_link(&elf, &link).unwrap();
    let out = n64rom(&["pack", elf.to_str().unwrap(), "-o", link.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is the ELF being packed: choose another output file"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&elf).unwrap(), tiny_elf());
}
