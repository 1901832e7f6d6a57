//! Builds libdragon for the ROM's ABI and generates its bindings.
//!
//! libdragon's own toolchain (a `mips64-elf` GCC with newlib, o64 ABI) is
//! on no package registry; Debian has `mips-linux-gnu-gcc` and newlib's
//! source. So this script compiles, into `OUT_DIR` only (the sources may be
//! read-only):
//!
//! 1. newlib (libc, libm) from Debian's `newlib-source` tarball, configured
//!    for `mips-elf` with `mips-linux-gnu-*` as the target tools, once;
//! 2. the libdragon sources the ROM uses, as o32 soft-float (the ABI of the
//!    target `mips-nintendo64-none`: rustc has no o64, and LLVM passes
//!    doubles differently from GCC under o32 hard float);
//! 3. the RSP microcode those sources load (`rsp_crash`), assembled with
//!    Debian's binutils and embedded as data;
//! 4. with the `bindgen` feature only, bindings over the headers the ROM
//!    uses, with bindgen (libclang); by default the crate uses the ones
//!    checked in as `src/bindings.rs` (generated the same way from the
//!    pinned libdragon and Debian's newlib), so the build needs neither
//!    bindgen nor libclang. Either way the build checks that those were
//!    generated from the libdragon source and newlib tarball it builds.
//!
//! Everything lands in one archive, `libdragon.a`: libdragon and newlib call
//! each other (newlib's stdio and malloc sit on libdragon's `write` and
//! `sbrk`), and GNU ld resolves cycles only inside one archive.
//!
//! Inputs (environment): `LIBDRAGON_SRC` (required: libdragon's source at
//! the pinned commit; the Makefile sets it), `NEWLIB_TARBALL` (default: the
//! `newlib-*.tar.xz` in `/usr/src/newlib`), `LIBDRAGON_TOOL_PREFIX` (default
//! `mips-linux-gnu-`), `LIBDRAGON_ALLOW_UNPINNED=1` to build another commit
//! anyway (with a warning). With the `bindgen` feature:
//! `LIBDRAGON_BINDINGS_CHECK=1` fails the build when the generated bindings
//! differ from `src/bindings.rs`, `LIBDRAGON_BINDINGS_OUT=FILE` writes a
//! copy of them to FILE (`make -C n64 bindings`, `bindings-check`).

use std::collections::BTreeMap;
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

/// The libdragon commit this crate is written and tested against (branch
/// `preview`).
const PINNED_COMMIT: &str = "020bd5b9999d0e008ef168635f0716d9c03e8be9";
/// SHA-256 over every file of that commit's `src/` and `include/` (see
/// `source_fingerprint`): identifies the commit without git, as a source
/// snapshot (`git archive`) has no history.
const PINNED_FINGERPRINT: &str = "e83b4e3d5a9185c696f0496dec5b550e2d88df9e7c6d64ae3be7904b069a1224";

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

/// RSP microcode the sources above load (`DEFINE_RSP_UCODE`).
const RSP_UCODE: &[&str] = &["rsp_crash.S"];

/// The VR4300 as o32 soft-float, no PIC, no small data (`$gp` is set by
/// the ROM's entry, but Rust code does not use it).
const ABI_FLAGS: &[&str] = &[
    "-march=vr4300",
    "-mtune=vr4300",
    "-mabi=32",
    "-msoft-float",
    "-EB",
    "-mno-abicalls",
    "-fno-pic",
    "-fno-pie",
    "-mno-shared",
    "-G0",
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

/// What bindgen binds: the headers, and of them the functions, types and
/// variables the ROM uses (regular expressions), less the blocked items;
/// and clang's target arguments (the include folders follow them). Their
/// hash is in the bindings' first lines, so the checked-in bindings must be
/// regenerated (`make -C n64 bindings`) when any of these change.
const BINDINGS_HEADER: &str = r#"
#include <stdio.h>
#include <n64sys.h>
#include <interrupt.h>
#include <display.h>
#include <surface.h>
#include <joypad.h>
#include <audio.h>
#include <eeprom.h>
#include <timer.h>
#include <debug.h>
#include <exception.h>
"#;
const BINDINGS_FUNCTIONS: &str = "(display|surface|joypad|audio|eeprom|timer|debug|exception|register_VI|unregister_VI|set_VI|set_SI_interrupt|data_cache|inst_cache|get_tv_type|get_memory_size|sys_|disable_interrupts|enable_interrupts|wait_|fwrite|fflush|_impure_ptr|__boot|__entropy|__assert_func_ptr|__do_global_ctors|__debug_assert|debug_assert|exception_reset_time|sys_reset_type|get_reset_type).*";
const BINDINGS_TYPES: &str = "(joypad|surface|tex_format|resolution|bitdepth|gamma|filter_options|tv_type|reset_type|eeprom|exception|interlace|joybus).*";
const BINDINGS_VARS: &[&str] = &["INTERLACE_.*", "(JOYPAD|TICKS|EEPROM|_impure_ptr|__boot).*"];
/// display.h's RESOLUTION_* are `static const` in the header (no symbol to
/// link): the ROM builds a resolution_t instead.
const BINDINGS_BLOCKED: &str = "RESOLUTION_.*";
const BINDINGS_CLANG_ARGS: &[&str] = &[
    "--target=mips-unknown-none-elf",
    "-mabi=32",
    "-msoft-float",
    "-nostdlibinc",
    "-DN64",
];

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for var in [
        "LIBDRAGON_SRC",
        "NEWLIB_TARBALL",
        "LIBDRAGON_TOOL_PREFIX",
        "LIBDRAGON_ALLOW_UNPINNED",
        "LIBDRAGON_BINDINGS_CHECK",
        "LIBDRAGON_BINDINGS_OUT",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/newlib_locks.c");

    let src = libdragon_source();
    let fingerprint = check_pinned(&src);
    let tools = Tools::new();
    let tarball = newlib_tarball();
    let tarball_sha256 = file_sha256(&tarball);
    let origin = bindings_origin(&fingerprint, &tarball, &tarball_sha256);
    // Without bindgen, refuse early (before newlib's minute of building)
    // when the checked-in bindings are not for these sources.
    #[cfg(not(feature = "bindgen"))]
    check_checked_in_bindings(&origin);
    let newlib = build_newlib(&out, &tools, &tarball, &tarball_sha256);
    let objects = compile_libdragon(&src, &newlib, &out, &tools);
    let archive = archive(&out, &tools, &objects, &newlib);
    #[cfg(feature = "bindgen")]
    generate_bindings(&src, &newlib, &out, &tools, &origin);

    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=dragon");
    // For the ROM's build script (DEP_DRAGON_*).
    println!("cargo:root={}", src.display());
    println!("cargo:archive={}", archive.display());
}

/// `mips-linux-gnu-gcc` and friends.
struct Tools {
    prefix: String,
}

impl Tools {
    fn new() -> Self {
        let prefix =
            env::var("LIBDRAGON_TOOL_PREFIX").unwrap_or_else(|_| "mips-linux-gnu-".to_string());
        let tools = Self { prefix };
        let gcc = tools.tool("gcc");
        if Command::new(&gcc).arg("--version").output().is_err() {
            fail(&format!(
                "{gcc} not found: libdragon is compiled with Debian's MIPS cross compiler \
                 (apt-get install gcc-mips-linux-gnu binutils-mips-linux-gnu)"
            ));
        }
        tools
    }

    fn tool(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// GCC's own header folder (stddef.h, stdarg.h), kept under -nostdinc.
    fn gcc_include(&self) -> PathBuf {
        let out = run_output(Command::new(self.tool("gcc")).arg("-print-file-name=include"));
        PathBuf::from(out.trim())
    }
}

fn fail(message: &str) -> ! {
    eprintln!("libdragon-sys: {message}");
    panic!("libdragon-sys: {message}");
}

fn libdragon_source() -> PathBuf {
    let Some(dir) = env::var_os("LIBDRAGON_SRC") else {
        fail(
            "LIBDRAGON_SRC is not set. It names libdragon's source at commit \
             020bd5b (https://github.com/DragonMinded/libdragon, branch preview); \
             `make rom` sets it (see n64/README.md, \"libdragon\")",
        );
    };
    let dir = PathBuf::from(dir);
    if !dir.join("include/libdragon.h").is_file() || !dir.join("src/display.c").is_file() {
        fail(&format!(
            "LIBDRAGON_SRC={} is not libdragon's source (no include/libdragon.h, src/display.c)",
            dir.display()
        ));
    }
    dir
}

/// Every file under `dir` (recursively), by path relative to `root`.
fn collect_files(root: &Path, dir: &Path, files: &mut BTreeMap<String, PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_files(root, &path, files);
        } else if let Ok(rel) = path.strip_prefix(root) {
            files.insert(rel.to_string_lossy().into_owned(), path);
        }
    }
}

/// SHA-256 over the relative path, a NUL, the length and the bytes of every
/// file under `src/` and `include/`, in path order.
fn source_fingerprint(src: &Path) -> String {
    let mut files = BTreeMap::new();
    collect_files(src, &src.join("src"), &mut files);
    collect_files(src, &src.join("include"), &mut files);
    let mut hash = Sha256::new();
    for (rel, path) in &files {
        let bytes = fs::read(path)
            .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", path.display())));
        hash.update(rel.as_bytes());
        hash.update([0]);
        hash.update((bytes.len() as u64).to_be_bytes());
        hash.update(&bytes);
    }
    hex(&hash.finalize())
}

/// Refuses (or, with LIBDRAGON_ALLOW_UNPINNED=1, warns about) a source that
/// is not the pinned commit: the bindings, flags and boot code here were
/// checked against that one. Returns the source's fingerprint.
fn check_pinned(src: &Path) -> String {
    let found = source_fingerprint(src);
    println!("cargo:rustc-env=LIBDRAGON_FINGERPRINT={found}");
    if found == PINNED_FINGERPRINT {
        return found;
    }
    let commit = Command::new("git")
        .arg("-C")
        .arg(src)
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let which = match commit {
        Some(c) => format!("is at commit {c}"),
        None => "has other sources".to_string(),
    };
    let message = format!(
        "libdragon at {} {which}, not the pinned commit {PINNED_COMMIT} \
         (source fingerprint {found}, pinned {PINNED_FINGERPRINT})",
        src.display()
    );
    if env::var_os("LIBDRAGON_ALLOW_UNPINNED").is_some_and(|v| v == "1") {
        println!("cargo:warning={message}; building it anyway (LIBDRAGON_ALLOW_UNPINNED=1)");
        found
    } else {
        fail(&format!(
            "{message}. Check out {PINNED_COMMIT} (git -C {} checkout {PINNED_COMMIT}), \
             or set LIBDRAGON_ALLOW_UNPINNED=1 to try this one",
            src.display()
        ));
    }
}

fn run(cmd: &mut Command) {
    let status = cmd
        .status()
        .unwrap_or_else(|e| fail(&format!("cannot run {cmd:?}: {e}")));
    if !status.success() {
        fail(&format!("{cmd:?} failed ({status})"));
    }
}

fn run_output(cmd: &mut Command) -> String {
    let output = cmd
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run {cmd:?}: {e}")));
    if !output.status.success() {
        fail(&format!(
            "{cmd:?} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// newlib's installed headers and libraries.
struct Newlib {
    include: PathBuf,
    lib: PathBuf,
}

fn newlib_tarball() -> PathBuf {
    if let Some(path) = env::var_os("NEWLIB_TARBALL") {
        return PathBuf::from(path);
    }
    let dir = Path::new("/usr/src/newlib");
    let found = fs::read_dir(dir).ok().and_then(|entries| {
        entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("newlib-") && n.ends_with(".tar.xz"))
            })
            .max()
    });
    found.unwrap_or_else(|| {
        fail(
            "newlib's source not found in /usr/src/newlib: apt-get install newlib-source \
             (or set NEWLIB_TARBALL to a newlib-*.tar.xz)",
        )
    })
}

/// newlib's configure arguments besides `--prefix`, the flags and the
/// tools.
const NEWLIB_CONFIGURE: &[&str] = &[
    "--target=mips-elf",
    "--disable-multilib",
    "--disable-newlib-supplied-syscalls",
    "--enable-newlib-retargetable-locking",
    "--enable-newlib-multithread",
];

/// What a built newlib depends on, hashed: the tarball, the flags and
/// configure arguments, the tools and their versions (and this format).
/// Names the build in `OUT_DIR`'s stamp and in the cache.
fn newlib_key(tarball_sha256: &str, cflags: &str, tools: &Tools) -> String {
    let version = |tool: &str| {
        run_output(Command::new(tools.tool(tool)).arg("--version"))
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let inputs = [
        "libdragon-sys newlib 1".to_string(),
        tarball_sha256.to_string(),
        cflags.to_string(),
        NEWLIB_CONFIGURE.join(" "),
        tools.prefix.clone(),
        version("gcc"),
        version("as"),
    ];
    let mut hash = Sha256::new();
    for input in &inputs {
        hash.update(input.as_bytes());
        hash.update([0]);
    }
    hex(&hash.finalize())
}

/// Where built newlibs are kept between builds and clones:
/// `LIBDRAGON_NEWLIB_CACHE` (`off` or empty: nowhere), else
/// `$XDG_CACHE_HOME/ttt64/newlib`, else `~/.cache/ttt64/newlib`.
fn newlib_cache_dir() -> Option<PathBuf> {
    if let Some(dir) = env::var_os("LIBDRAGON_NEWLIB_CACHE") {
        if dir.is_empty() || dir == "off" || dir == "0" {
            return None;
        }
        return Some(PathBuf::from(dir));
    }
    let nonempty = |var| {
        env::var_os(var)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    nonempty("XDG_CACHE_HOME")
        .or_else(|| nonempty("HOME").map(|home| home.join(".cache")))
        .map(|dir| dir.join("ttt64/newlib"))
}

/// Copies the files and folders under `from` to `to` (created).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// Copies a cached newlib (`<cache>/<key>/install`) to `install`; false if
/// there is none (or it cannot be copied).
fn newlib_from_cache(cache: &Path, key: &str, install: &Path) -> bool {
    let entry = cache.join(key);
    if !entry.join("complete").is_file() {
        return false;
    }
    let _ = fs::remove_dir_all(install);
    if copy_tree(&entry.join("install"), install).is_ok() {
        return true;
    }
    let _ = fs::remove_dir_all(install);
    false
}

/// Keeps a built newlib in the cache as `<cache>/<key>`: copied beside it
/// first, then renamed, so an entry is complete or absent (if another
/// build stored the same one meanwhile, the rename fails and the copy
/// goes). Best effort: a cache that cannot be written is not used.
fn newlib_to_cache(cache: &Path, key: &str, install: &Path, about: &str) {
    let staging = cache.join(format!("{key}.tmp-{}", std::process::id()));
    let stored = (|| -> std::io::Result<()> {
        fs::create_dir_all(&staging)?;
        copy_tree(install, &staging.join("install"))?;
        fs::write(staging.join("complete"), about)?;
        fs::rename(&staging, cache.join(key))
    })();
    if stored.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
}

/// Configures and builds newlib's libc and libm for the ROM's ABI into
/// `OUT_DIR/newlib` (about a minute on two cores), unless an earlier run
/// built it with the same inputs (`newlib_key`), or a cached one exists
/// (`newlib_cache_dir`: another clone or target dir built it), which is
/// then copied.
fn build_newlib(out: &Path, tools: &Tools, tarball: &Path, tarball_sha256: &str) -> Newlib {
    println!("cargo:rerun-if-changed={}", tarball.display());
    println!("cargo:rerun-if-env-changed=LIBDRAGON_NEWLIB_CACHE");
    let root = out.join("newlib");
    let install = root.join("install");
    let newlib = Newlib {
        include: install.join("mips-elf/include"),
        lib: install.join("mips-elf/lib"),
    };
    let cflags = [
        ABI_FLAGS,
        &["-O2", "-ffunction-sections", "-fdata-sections"],
    ]
    .concat()
    .join(" ");
    let key = newlib_key(tarball_sha256, &cflags, tools);
    let stamp = root.join("built");
    if fs::read_to_string(&stamp).is_ok_and(|s| s == key) {
        return newlib;
    }
    let _ = fs::remove_dir_all(&root);
    let source = root.join("source");
    let build = root.join("build");
    for dir in [&source, &build] {
        fs::create_dir_all(dir)
            .unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", dir.display())));
    }
    let cache = newlib_cache_dir();
    if cache
        .as_deref()
        .is_some_and(|cache| newlib_from_cache(cache, &key, &install))
        && has_libc_libm(&newlib)
    {
        fs::write(&stamp, &key)
            .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", stamp.display())));
        return newlib;
    }
    run(Command::new("tar")
        .arg("xf")
        .arg(tarball)
        .arg("--strip-components=1")
        .arg("-C")
        .arg(&source));
    // The source and build folders' paths (in `__FILE__` of newlib's
    // asserts) written as `newlib-<version>/...`: the libraries do not
    // depend on where they were built, so a cached one is the same.
    let name = tarball
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".tar.xz"))
        .unwrap_or("newlib");
    let target_cflags = format!(
        "{cflags} -ffile-prefix-map={}={name} -ffile-prefix-map={}={name}-build",
        source.display(),
        build.display()
    );
    let mut configure = Command::new(source.join("configure"));
    configure
        .current_dir(&build)
        .arg(format!("--prefix={}", install.display()))
        .args(NEWLIB_CONFIGURE)
        .arg(format!("CFLAGS_FOR_TARGET={target_cflags}"));
    for (var, tool) in [
        ("CC_FOR_TARGET", "gcc"),
        ("AR_FOR_TARGET", "ar"),
        ("AS_FOR_TARGET", "as"),
        ("LD_FOR_TARGET", "ld"),
        ("NM_FOR_TARGET", "nm"),
        ("RANLIB_FOR_TARGET", "ranlib"),
        ("OBJDUMP_FOR_TARGET", "objdump"),
        ("READELF_FOR_TARGET", "readelf"),
        ("STRIP_FOR_TARGET", "strip"),
    ] {
        configure.arg(format!("{var}={}", tools.tool(tool)));
    }
    run(configure.stdout(quiet_log(&root, "configure.log")));
    let jobs = env::var("NUM_JOBS").unwrap_or_else(|_| "2".to_string());
    run(Command::new("make")
        .current_dir(&build)
        .arg(format!("-j{jobs}"))
        .arg("all-target-newlib")
        .stdout(quiet_log(&root, "make.log")));
    run(Command::new("make")
        .current_dir(&build)
        .arg("install-target-newlib")
        .stdout(quiet_log(&root, "install.log")));
    if !has_libc_libm(&newlib) {
        fail(&format!(
            "newlib built no libc.a and libm.a in {}",
            newlib.lib.display()
        ));
    }
    if let Some(cache) = cache {
        let about = format!(
            "newlib from {} (sha256 {tarball_sha256})\nCFLAGS_FOR_TARGET={cflags}\n{}\ntools {}\n",
            tarball.display(),
            NEWLIB_CONFIGURE.join(" "),
            tools.prefix
        );
        newlib_to_cache(&cache, &key, &install, &about);
    }
    fs::write(&stamp, &key)
        .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", stamp.display())));
    newlib
}

fn has_libc_libm(newlib: &Newlib) -> bool {
    ["libc.a", "libm.a"]
        .iter()
        .all(|lib| newlib.lib.join(lib).is_file())
}

/// A log file for a noisy step's standard output (its errors still reach
/// cargo's output).
fn quiet_log(root: &Path, name: &str) -> fs::File {
    let path = root.join(name);
    fs::File::create(&path)
        .unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", path.display())))
}

fn base_build(tools: &Tools, newlib: &Newlib) -> cc::Build {
    let mut build = cc::Build::new();
    build
        .compiler(tools.tool("gcc"))
        .archiver(tools.tool("ar"))
        .no_default_flags(true)
        .cargo_metadata(false)
        .warnings(false);
    for flag in ABI_FLAGS {
        build.flag(flag);
    }
    build
        .flag("-nostdinc")
        .flag("-isystem")
        .flag(tools.gcc_include().to_string_lossy().as_ref())
        .flag("-isystem")
        .flag(newlib.include.to_string_lossy().as_ref());
    build
}

/// Compiles libdragon's C sources, its interrupt handler and its RSP
/// microcode; returns the objects.
fn compile_libdragon(src: &Path, newlib: &Newlib, out: &Path, tools: &Tools) -> Vec<PathBuf> {
    let mut c = base_build(tools, newlib);
    c.include(src.join("include"))
        .include(src.join("src"))
        .flag("-include")
        .flag("ktls.h");
    for flag in C_FLAGS {
        c.flag(flag);
    }
    for file in C_SOURCES {
        c.file(src.join("src").join(file));
    }
    // newlib 3.3's stdio still takes a lock libdragon does not define.
    c.file("src/newlib_locks.c");
    let mut objects = c.compile_intermediates();

    // inthandler.S saves the 64-bit registers and the FPU: assembled with
    // those allowed (the object stays o32, soft float).
    let wrapper = out.join("inthandler_o32.S");
    fs::write(
        &wrapper,
        format!(
            "/* Generated by libdragon-sys: libdragon's interrupt handler under o32. */\n\
             .set gp=64\n.set fp=64\n.set hardfloat\n#include \"{}\"\n",
            src.join("src/inthandler.S").display()
        ),
    )
    .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", wrapper.display())));
    let mut asm = base_build(tools, newlib);
    asm.include(src.join("include"))
        .include(src.join("src"))
        .flag("-DN64")
        .file(&wrapper);
    objects.extend(asm.compile_intermediates());

    for ucode in RSP_UCODE {
        objects.push(assemble_ucode(src, out, tools, ucode));
    }
    objects
}

/// Assembles one RSP program (`rsp_*.S`) and embeds its text (IMEM) and
/// data (DMEM) images as `<name>_text_start/_end` and `<name>_data_start/
/// _end`, as libdragon's `DEFINE_RSP_UCODE` expects.
fn assemble_ucode(src: &Path, out: &Path, tools: &Tools, file: &str) -> PathBuf {
    let name = file.trim_end_matches(".S");
    let dir = out.join("ucode");
    fs::create_dir_all(&dir)
        .unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", dir.display())));
    // libdragon's rsp.ld names the bfd "elf32-bigmips" (a mips64-elf
    // toolchain's name); Debian's binutils call it elf32-tradbigmips.
    let ld_script = dir.join("rsp.ld");
    let script = fs::read_to_string(src.join("rsp.ld"))
        .unwrap_or_else(|e| fail(&format!("cannot read rsp.ld: {e}")))
        .replace("elf32-bigmips", "elf32-tradbigmips")
        .replace("elf32-littlemips", "elf32-tradlittlemips");
    fs::write(&ld_script, script)
        .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", ld_script.display())));
    let elf = dir.join(format!("{name}.elf"));
    run(Command::new(tools.tool("gcc"))
        .args([
            "-march=mips1",
            "-mabi=32",
            "-mfp32",
            "-EB",
            "-mno-abicalls",
            "-fno-pic",
        ])
        .args([
            "-Wa,--fatal-warnings",
            "-nostdlib",
            "-nostartfiles",
            "-static",
        ])
        .args(["-Wl,--build-id=none", "-Wl,--gc-sections"])
        .arg(format!("-Wl,-T{}", ld_script.display()))
        .arg("-I")
        .arg(src.join("include"))
        .arg("-o")
        .arg(&elf)
        .arg(src.join("src").join(file)));
    for section in ["text", "data"] {
        run(Command::new(tools.tool("objcopy"))
            .args(["-O", "binary", "-j", &format!(".{section}")])
            .arg(&elf)
            .arg(dir.join(format!("{name}.{section}.bin"))));
    }
    let embed = dir.join(format!("{name}_embed.S"));
    let mut text = String::from("/* Generated by libdragon-sys: RSP microcode images. */\n");
    for section in ["text", "data"] {
        let _ = write!(
            text,
            "    .section .data.{name}_{section}, \"aw\"\n    .balign 16\n\
             \x20   .global {name}_{section}_start\n    .global {name}_{section}_end\n\
             {name}_{section}_start:\n    .incbin \"{}\"\n{name}_{section}_end:\n",
            dir.join(format!("{name}.{section}.bin")).display()
        );
    }
    fs::write(&embed, text)
        .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", embed.display())));
    let object = dir.join(format!("{name}_embed.o"));
    run(Command::new(tools.tool("gcc"))
        .args(ABI_FLAGS)
        .arg("-c")
        .arg("-o")
        .arg(&object)
        .arg(&embed));
    object
}

/// `libdragon.a`: libdragon's objects, then every member of newlib's libc
/// and libm (an MRI script keeps members of the same name apart).
fn archive(out: &Path, tools: &Tools, objects: &[PathBuf], newlib: &Newlib) -> PathBuf {
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
    fs::write(&mri, &script)
        .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", mri.display())));
    run(Command::new(tools.tool("ar"))
        .arg("-M")
        .stdin(fs::File::open(&mri).unwrap_or_else(|e| fail(&format!("{e}")))));
    run(Command::new(tools.tool("ranlib")).arg(&archive));
    archive
}

/// The bindings checked in with the crate (used without the `bindgen`
/// feature; `make -C n64 bindings` regenerates them).
const CHECKED_IN_BINDINGS: &str = "src/bindings.rs";

/// The first lines of the bindings: what they were generated from. The
/// checked-in file must start with exactly these lines for the sources
/// being built.
fn bindings_origin(fingerprint: &str, tarball: &Path, tarball_sha256: &str) -> String {
    let name = tarball
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!(
        "// libdragon-sys bindings, generated by its build.rs with bindgen (feature `bindgen`);\n\
         // do not edit: `make -C n64 bindings` regenerates them, `make -C n64 bindings-check`\n\
         // compares. Generated from:\n\
         // libdragon source fingerprint: {fingerprint}\n\
         // newlib tarball: {name} sha256 {tarball_sha256}\n\
         // bindgen options (BINDINGS_* in build.rs): sha256 {}\n",
        bindings_options_hash()
    )
}

/// SHA-256 over the `BINDINGS_*` options, each followed by a NUL.
fn bindings_options_hash() -> String {
    let mut hash = Sha256::new();
    let options = [
        BINDINGS_HEADER,
        BINDINGS_FUNCTIONS,
        BINDINGS_TYPES,
        BINDINGS_BLOCKED,
    ]
    .into_iter()
    .chain(BINDINGS_VARS.iter().copied())
    .chain(BINDINGS_CLANG_ARGS.iter().copied());
    for option in options {
        hash.update(option.as_bytes());
        hash.update([0]);
    }
    hex(&hash.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// SHA-256 of a file, in hex.
fn file_sha256(path: &Path) -> String {
    let bytes =
        fs::read(path).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", path.display())));
    hex(&Sha256::digest(&bytes))
}

/// The `// ...: value` lines of a bindings header (for messages).
fn origin_lines(text: &str) -> String {
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .filter(|l| l.contains(" sha256 ") || l.contains("fingerprint:"))
        .map(|l| l.trim_start_matches("// "))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Without bindgen: the checked-in bindings must have been generated from
/// the libdragon source and the newlib tarball this build uses.
#[cfg(not(feature = "bindgen"))]
fn check_checked_in_bindings(origin: &str) {
    println!("cargo:rerun-if-changed={CHECKED_IN_BINDINGS}");
    let text = fs::read_to_string(CHECKED_IN_BINDINGS)
        .unwrap_or_else(|e| fail(&format!("cannot read {CHECKED_IN_BINDINGS}: {e}")));
    if text.starts_with(origin) {
        return;
    }
    fail(&format!(
        "{CHECKED_IN_BINDINGS} was generated from other sources ({}) than this build's ({}). \
         Build with the crate's `bindgen` feature to generate bindings for these sources \
         (needs libclang: apt-get install libclang-dev), or regenerate the file: \
         make -C n64 bindings",
        origin_lines(&text),
        origin_lines(origin)
    ));
}

/// Rust declarations of the functions, types and variables the ROM uses,
/// generated from libdragon's and newlib's headers (no hand-typed
/// constants or layouts) into `OUT_DIR/bindings.rs`, which the crate then
/// uses; compared with the checked-in ones (a warning, or an error with
/// `LIBDRAGON_BINDINGS_CHECK=1`) and copied to `LIBDRAGON_BINDINGS_OUT`.
/// Changing the options here means regenerating `src/bindings.rs`.
#[cfg(feature = "bindgen")]
fn generate_bindings(src: &Path, newlib: &Newlib, out: &Path, tools: &Tools, origin: &str) {
    let mut builder = bindgen::Builder::default()
        .header_contents("libdragon_sys.h", BINDINGS_HEADER)
        .clang_args(BINDINGS_CLANG_ARGS)
        .clang_arg("-isystem")
        .clang_arg(newlib.include.to_string_lossy())
        // GCC's stddef.h and stdarg.h, as the C build uses (libclang loaded
        // at run time does not always find its own).
        .clang_arg("-isystem")
        .clang_arg(tools.gcc_include().to_string_lossy())
        .clang_arg("-I")
        .clang_arg(src.join("include").to_string_lossy())
        .use_core()
        .ctypes_prefix("core::ffi")
        .layout_tests(false)
        .generate_comments(true)
        .allowlist_function(BINDINGS_FUNCTIONS)
        .allowlist_type(BINDINGS_TYPES)
        .blocklist_item(BINDINGS_BLOCKED)
        .default_enum_style(bindgen::EnumVariation::Consts)
        .prepend_enum_name(false);
    for var in BINDINGS_VARS {
        builder = builder.allowlist_var(var);
    }
    let bindings = builder.generate().unwrap_or_else(|e| {
        fail(&format!(
            "bindgen over libdragon's headers failed: {e} (bindgen loads libclang: \
                 apt-get install libclang-dev)"
        ))
    });
    let text = format!("{origin}{bindings}");
    let path = out.join("bindings.rs");
    fs::write(&path, &text)
        .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", path.display())));
    println!("cargo:rerun-if-changed={CHECKED_IN_BINDINGS}");
    let checked_in = fs::read_to_string(CHECKED_IN_BINDINGS).unwrap_or_default();
    if checked_in != text {
        let message = format!(
            "bindgen's bindings ({}) differ from {CHECKED_IN_BINDINGS} (generated from: {}): \
             `make -C n64 bindings` replaces that file",
            path.display(),
            if checked_in.is_empty() {
                "missing".to_string()
            } else {
                origin_lines(&checked_in)
            }
        );
        if env::var_os("LIBDRAGON_BINDINGS_CHECK").is_some_and(|v| v == "1") {
            fail(&message);
        }
        println!("cargo:warning={message}");
    }
    if let Some(copy) = env::var_os("LIBDRAGON_BINDINGS_OUT") {
        fs::write(&copy, &text)
            .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", Path::new(&copy).display())));
    }
}
