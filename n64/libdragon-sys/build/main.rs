//! Builds libdragon for the ROM's ABI, into `OUT_DIR` only (the sources
//! may be read-only), and checks its bindings.
//!
//! - [`pin`]: `LIBDRAGON_SRC` must be libdragon's source at the pinned
//!   commit (`LIBDRAGON_ALLOW_UNPINNED=1` builds another, with a warning);
//! - here: the C sources the ROM uses and the interrupt handler, compiled
//!   with the compiler and ABI flags newlib-sys built newlib with
//!   (`DEP_NEWLIB_*`: o32 soft float, the target `mips-nintendo64-none`'s);
//! - [`ucode`]: the RSP microcode those sources load;
//! - one archive, `libdragon.a`, with libdragon's objects and every member
//!   of newlib's libc and libm: newlib's stdio and malloc sit on libdragon's
//!   `write` and `sbrk`, libdragon calls newlib, and GNU ld resolves such
//!   cycles only inside one archive;
//! - [`bindings`]: the checked-in bindings must come from these sources;
//!   with the `bindgen` feature they are generated instead
//!   (`LIBDRAGON_BINDINGS_CHECK=1`: an error if they differ).

mod bindings;
mod pin;
mod ucode;

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

type Result<T, E = String> = std::result::Result<T, E>;

/// libdragon's C sources (under `src/`) the ROM links: the display and VI,
/// joypads over joybus (with accessories: the Rumble Pak), the Audio
/// Interface, the EEPROM, timers, interrupts and exceptions with the
/// inspector screen, the debug output (IS-Viewer), and what those call.
const C_SOURCES: &[&str] = &[
    "audio.c",
    "backtrace.c",
    "console.c",
    "debug.c",
    "display.c",
    "dlfcn.c",
    "dma.c",
    "eeprom.c",
    "exception.c",
    "graphics.c",
    "inspector.c",
    "interrupt.c",
    "joybus.c",
    "joybus_accessory.c",
    "joypad.c",
    "joypad_accessory.c",
    "kernel/cthreads.c",
    "kernel/kernel.c",
    "kernel/kirq.c",
    "kernel/kqueue.c",
    "kernel/ksemaphore.c",
    "n64sys.c",
    "rdpq/rdpq_debug.c",
    "rompak.c",
    "rsp.c",
    "surface.c",
    "system.c",
    "timer.c",
];

/// libdragon's C flags (n64.mk, without -Werror: GCC 12 warns about things
/// the pinned sources do).
const C_FLAGS: &[&str] = &[
    "-O2",
    "-std=gnu17",
    "-ffunction-sections",
    "-fdata-sections",
    "-falign-functions=32",
    "-ffast-math",
    "-ftrapping-math",
    "-fno-associative-math",
    "-DN64",
    "-w",
];

/// newlib as newlib-sys built it (its `links` metadata).
pub struct Newlib {
    include: PathBuf,
    lib: PathBuf,
    tool_prefix: String,
    /// The ABI flags newlib was compiled with.
    cflags: Vec<String>,
    tarball: String,
    tarball_sha256: String,
}

impl Newlib {
    fn from_env() -> Result<Self> {
        let var = |key: &str| {
            env::var(format!("DEP_NEWLIB_{key}"))
                .map_err(|_| format!("DEP_NEWLIB_{key} is not set (newlib-sys's build sets it)"))
        };
        Ok(Self {
            include: var("INCLUDE")?.into(),
            lib: var("LIB")?.into(),
            tool_prefix: var("TOOL_PREFIX")?,
            cflags: var("CFLAGS")?
                .split_whitespace()
                .map(String::from)
                .collect(),
            tarball: var("TARBALL")?,
            tarball_sha256: var("TARBALL_SHA256")?,
        })
    }

    /// `mips-linux-gnu-gcc` and friends.
    fn tool(&self, name: &str) -> String {
        format!("{}{name}", self.tool_prefix)
    }
}

fn main() {
    // One message, as cargo's own error (no panic, no backtrace).
    if let Err(message) = try_main() {
        println!("cargo::error={message}");
    }
}

fn try_main() -> Result<()> {
    let out = PathBuf::from(env::var_os("OUT_DIR").ok_or("OUT_DIR is not set (cargo sets it)")?);
    for var in [
        "LIBDRAGON_SRC",
        "LIBDRAGON_ALLOW_UNPINNED",
        "LIBDRAGON_BINDINGS_CHECK",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    println!("cargo:rerun-if-changed=build");
    println!("cargo:rerun-if-changed=src/newlib_locks.c");

    let src = pin::source()?;
    let fingerprint = pin::check(&src)?;
    println!("cargo:rustc-env=LIBDRAGON_FINGERPRINT={fingerprint}");
    let newlib = Newlib::from_env()?;
    let origin = bindings::origin(&fingerprint, &newlib);
    #[cfg(not(feature = "bindgen"))]
    bindings::check_checked_in(&origin)?;

    // GCC's own header folder (stddef.h, stdarg.h), kept under -nostdinc.
    let gcc = Command::new(newlib.tool("gcc"))
        .arg("-print-file-name=include")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", newlib.tool("gcc")))?;
    let gcc_include = PathBuf::from(String::from_utf8_lossy(&gcc.stdout).trim());

    let mut objects = compile(&src, &out, &newlib, &gcc_include)?;
    objects.extend(ucode::assemble(&src, &out, &newlib)?);
    archive(&out, &newlib, &objects)?;
    #[cfg(feature = "bindgen")]
    bindings::generate(&src, &out, &newlib, &gcc_include, &origin)?;

    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=dragon");
    Ok(())
}

/// A C/assembler build with newlib's compiler, ABI flags and headers.
fn base_build(src: &Path, newlib: &Newlib, gcc_include: &Path) -> cc::Build {
    let mut build = cc::Build::new();
    build
        .compiler(newlib.tool("gcc"))
        .archiver(newlib.tool("ar"))
        .no_default_flags(true)
        .cargo_metadata(false)
        .warnings(false);
    for flag in &newlib.cflags {
        build.flag(flag);
    }
    build
        .flag("-nostdinc")
        .flag("-isystem")
        .flag(gcc_include.to_string_lossy().as_ref())
        .flag("-isystem")
        .flag(newlib.include.to_string_lossy().as_ref())
        .include(src.join("include"))
        .include(src.join("src"));
    build
}

/// Compiles libdragon's C sources and its interrupt handler.
fn compile(src: &Path, out: &Path, newlib: &Newlib, gcc_include: &Path) -> Result<Vec<PathBuf>> {
    let mut c = base_build(src, newlib, gcc_include);
    // ktls.h is included by every C file of libdragon's own build; it
    // breaks assembly, which is built apart below.
    c.flag("-include").flag("ktls.h");
    for flag in C_FLAGS {
        c.flag(flag);
    }
    for file in C_SOURCES {
        c.file(src.join("src").join(file));
    }
    // newlib 3.3's stdio still takes a lock libdragon does not define.
    c.file("src/newlib_locks.c");
    let mut objects = c.try_compile_intermediates().map_err(|e| e.to_string())?;

    // inthandler.S saves the 64-bit registers and the FPU: assembled with
    // those allowed (the object stays o32, soft float).
    let wrapper = out.join("inthandler_o32.S");
    write(
        &wrapper,
        &format!(
            "/* Generated by libdragon-sys: libdragon's interrupt handler under o32. */\n\
             .set gp=64\n.set fp=64\n.set hardfloat\n#include \"{}\"\n",
            src.join("src/inthandler.S").display()
        ),
    )?;
    let mut asm = base_build(src, newlib, gcc_include);
    asm.flag("-DN64").file(&wrapper);
    objects.extend(asm.try_compile_intermediates().map_err(|e| e.to_string())?);
    Ok(objects)
}

/// `libdragon.a`: libdragon's objects, then every member of newlib's libc
/// and libm (an MRI script keeps members of the same name apart).
fn archive(out: &Path, newlib: &Newlib, objects: &[PathBuf]) -> Result<()> {
    let archive = out.join("libdragon.a");
    let _ = fs::remove_file(&archive);
    let mut script = format!("create {}\n", archive.display());
    for object in objects {
        let _ = writeln!(script, "addmod {}", object.display());
    }
    for lib in ["libc.a", "libm.a"] {
        let _ = writeln!(script, "addlib {}", newlib.lib.join(lib).display());
    }
    script.push_str("save\nend\n");
    let mri = out.join("libdragon.mri");
    write(&mri, &script)?;
    let stdin = fs::File::open(&mri).map_err(|e| format!("cannot read {}: {e}", mri.display()))?;
    run(Command::new(newlib.tool("ar")).arg("-M").stdin(stdin))?;
    run(Command::new(newlib.tool("ranlib")).arg(&archive))
}

/// Runs a tool. On failure its error output is passed on as warnings (a
/// build script's own error output is not shown with its error).
fn run(cmd: &mut Command) -> Result<()> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let output = cmd
        .output()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    for line in String::from_utf8_lossy(&output.stderr).lines() {
        println!("cargo:warning={line}");
    }
    Err(format!("{cmd:?} failed ({})", output.status))
}

fn write(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
