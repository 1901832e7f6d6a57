//! Builds newlib's libc and libm for the ROM's ABI, into `OUT_DIR` only.
//!
//! libdragon's own toolchain (a `mips64-elf` GCC with newlib) is on no
//! package registry; Debian has `mips-linux-gnu-gcc` and newlib's source
//! (`newlib-source`, a tarball in `/usr/src/newlib`). This script configures
//! that source for `mips-elf` with the `mips-linux-gnu-*` tools and the ROM's
//! ABI flags, and installs libc, libm and their headers into
//! `OUT_DIR/install` (about a minute on two cores). `OUT_DIR/installed`
//! records the build's inputs (a key) and the SHA-256 of every file
//! installed. A later run keeps the install only if the record says so for
//! the same inputs and every file still has its recorded content; a file cut
//! short, changed or missing means a rebuild from the tarball, never a
//! trusted copy. Cargo runs this script again when a file under `install`
//! changes (`rerun-if-changed`), so a damaged library is found before
//! libdragon-sys archives it.
//!
//! Environment: `NEWLIB_TARBALL` (default: the newest
//! `/usr/src/newlib/newlib-*.tar.xz`), `NEWLIB_TOOL_PREFIX` (default
//! `mips-linux-gnu-`). For libdragon-sys (`DEP_NEWLIB_*`): `include`, `lib`,
//! `tool_prefix`, `cflags` (the ABI flags), `tarball` and `tarball_sha256`.

mod record;

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

/// The VR4300 as o32 soft-float, no PIC, no small data: the ABI of the
/// target `mips-nintendo64-none` (rustc has no o64, and under o32 hard float
/// LLVM passes doubles unlike GCC). libdragon-sys compiles with these too.
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

/// newlib's optimisation flags, besides the ABI's.
const OPT_FLAGS: &[&str] = &["-O2", "-ffunction-sections", "-fdata-sections"];

/// configure's arguments besides `--prefix`, the flags and the tools: no
/// syscalls (libdragon supplies `write`, `sbrk`, ...) and libdragon's locks.
const CONFIGURE_ARGS: &[&str] = &[
    "--target=mips-elf",
    "--disable-multilib",
    "--disable-newlib-supplied-syscalls",
    "--enable-newlib-retargetable-locking",
    "--enable-newlib-multithread",
];

/// The target tools configure is given, by variable and tool name.
const TARGET_TOOLS: &[(&str, &str)] = &[
    ("CC_FOR_TARGET", "gcc"),
    ("AR_FOR_TARGET", "ar"),
    ("AS_FOR_TARGET", "as"),
    ("LD_FOR_TARGET", "ld"),
    ("NM_FOR_TARGET", "nm"),
    ("RANLIB_FOR_TARGET", "ranlib"),
    ("OBJDUMP_FOR_TARGET", "objdump"),
    ("READELF_FOR_TARGET", "readelf"),
    ("STRIP_FOR_TARGET", "strip"),
];

/// The first line of the key's inputs: changed when this script builds
/// newlib differently in a way the other inputs do not show.
const RECIPE: &str = "newlib-sys 1";

/// The libraries the build must install.
const LIBS: [&str; 2] = ["libc.a", "libm.a"];

type Result<T, E = String> = std::result::Result<T, E>;

fn main() {
    // One message, as cargo's own error (no panic, no backtrace).
    if let Err(message) = try_main() {
        println!("cargo::error={message}");
    }
}

fn try_main() -> Result<()> {
    let out = PathBuf::from(env::var_os("OUT_DIR").ok_or("OUT_DIR is not set (cargo sets it)")?);
    println!("cargo:rerun-if-changed=build");
    println!("cargo:rerun-if-env-changed=NEWLIB_TARBALL");
    println!("cargo:rerun-if-env-changed=NEWLIB_TOOL_PREFIX");
    let prefix = env::var("NEWLIB_TOOL_PREFIX").unwrap_or_else(|_| "mips-linux-gnu-".into());
    let tarball = tarball()?;
    println!("cargo:rerun-if-changed={}", tarball.display());
    let tarball_sha256 = hex(&Sha256::digest(read(&tarball)?));
    let cflags = [ABI_FLAGS, OPT_FLAGS].concat().join(" ");
    let key = key(&prefix, &tarball_sha256, &cflags)?;

    let install = out.join("install");
    let record = out.join("installed");
    if let Err(why) = record::check(&install, &record, &key) {
        if record.exists() {
            println!("cargo:warning=newlib rebuilt from the tarball: {why}");
        }
        remove(&record)?;
        build(&out, &install, &prefix, &tarball, &cflags)?;
        record::write(&install, &record, &key)?;
    }
    // Cargo re-runs this script when a file under `install` is newer than
    // its last run; the files this run wrote would always be, so they are
    // dated as the tarball they come from.
    let source_date = fs::metadata(&tarball)
        .and_then(|m| m.modified())
        .map_err(|e| format!("cannot read the date of {}: {e}", tarball.display()))?;
    record::date_tree(&install, source_date)?;
    println!("cargo:rerun-if-changed={}", install.display());

    let name = tarball.file_name().unwrap_or_default().to_string_lossy();
    let target = install.join("mips-elf");
    println!("cargo:include={}", target.join("include").display());
    println!("cargo:lib={}", target.join("lib").display());
    println!("cargo:tool_prefix={prefix}");
    println!("cargo:cflags={}", ABI_FLAGS.join(" "));
    println!("cargo:tarball={name}");
    println!("cargo:tarball_sha256={tarball_sha256}");
    Ok(())
}

/// `NEWLIB_TARBALL`, else the newest `newlib-*.tar.xz` in `/usr/src/newlib`.
fn tarball() -> Result<PathBuf> {
    if let Some(path) = env::var_os("NEWLIB_TARBALL") {
        return Ok(PathBuf::from(path));
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
    found.ok_or_else(|| {
        "newlib's source not found in /usr/src/newlib: apt-get install newlib-source \
         (or set NEWLIB_TARBALL to a newlib-*.tar.xz)"
            .to_string()
    })
}

/// What a build depends on, hashed: the recipe, the tarball, the flags and
/// configure arguments, the tools and their versions.
fn key(prefix: &str, tarball_sha256: &str, cflags: &str) -> Result<String> {
    let version = |tool: &str| -> Result<String> {
        let name = format!("{prefix}{tool}");
        let output = Command::new(&name).arg("--version").output().map_err(|e| {
            format!(
                "cannot run {name} ({e}): newlib and libdragon are compiled with Debian's \
                 MIPS cross compiler (apt-get install gcc-mips-linux-gnu binutils-mips-linux-gnu)"
            )
        })?;
        let text = String::from_utf8_lossy(&output.stdout);
        Ok(text.lines().next().unwrap_or_default().to_string())
    };
    let inputs = [
        RECIPE.to_string(),
        tarball_sha256.to_string(),
        cflags.to_string(),
        CONFIGURE_ARGS.join(" "),
        prefix.to_string(),
        version("gcc")?,
        version("as")?,
    ];
    let mut hash = Sha256::new();
    for input in &inputs {
        hash.update(input.as_bytes());
        hash.update([0]);
    }
    Ok(hex(&hash.finalize()))
}

/// Extracts, configures, builds and installs newlib into `install`.
fn build(out: &Path, install: &Path, prefix: &str, tarball: &Path, cflags: &str) -> Result<()> {
    let source = out.join("source");
    let build = out.join("build");
    for dir in [&source, &build, install] {
        remove(dir)?;
    }
    for dir in [&source, &build] {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut tar = Command::new("tar");
    tar.arg("xf")
        .arg(tarball)
        .arg("--strip-components=1")
        .arg("-C")
        .arg(&source);
    run_logged("tar", &mut tar, &out.join("tar.log"))?;
    // The source and build folders written as `newlib-<version>/...` in
    // `__FILE__` of newlib's asserts: the libraries do not depend on where
    // they were built.
    let name = tarball.file_name().unwrap_or_default().to_string_lossy();
    let name = name.strip_suffix(".tar.xz").unwrap_or("newlib");
    let target_cflags = format!(
        "{cflags} -ffile-prefix-map={}={name} -ffile-prefix-map={}={name}-build",
        source.display(),
        build.display()
    );
    let mut configure = Command::new(source.join("configure"));
    configure
        .current_dir(&build)
        .arg(format!("--prefix={}", install.display()))
        .args(CONFIGURE_ARGS)
        .arg(format!("CFLAGS_FOR_TARGET={target_cflags}"));
    for (var, tool) in TARGET_TOOLS {
        configure.arg(format!("{var}={prefix}{tool}"));
    }
    run_logged("configure", &mut configure, &out.join("configure.log"))?;
    let jobs = env::var("NUM_JOBS").unwrap_or_else(|_| "2".into());
    let mut make = Command::new("make");
    make.current_dir(&build)
        .arg(format!("-j{jobs}"))
        .arg("all-target-newlib");
    run_logged("make all-target-newlib", &mut make, &out.join("make.log"))?;
    let mut make_install = Command::new("make");
    make_install
        .current_dir(&build)
        .arg("install-target-newlib");
    run_logged(
        "make install-target-newlib",
        &mut make_install,
        &out.join("install.log"),
    )?;
    let lib = install.join("mips-elf/lib");
    for name in LIBS {
        let bytes = fs::read(lib.join(name)).unwrap_or_default();
        if !bytes.starts_with(b"!<arch>\n") {
            return Err(format!(
                "newlib's install left no archive {}",
                lib.join(name).display()
            ));
        }
    }
    // The extracted source and the build tree (over 100 MB) are not needed
    // again: a rebuild starts from the tarball.
    remove(&source)?;
    remove(&build)
}

/// Runs `cmd` with both output streams into `log`. On failure: the log's
/// last lines as warnings, and an error naming the log.
fn run_logged(what: &str, cmd: &mut Command, log: &Path) -> Result<()> {
    let file =
        fs::File::create(log).map_err(|e| format!("cannot create {}: {e}", log.display()))?;
    let stderr = file
        .try_clone()
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let status = cmd
        .stdout(file)
        .stderr(stderr)
        .status()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if status.success() {
        return Ok(());
    }
    let text = fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    for line in &lines[lines.len().saturating_sub(20)..] {
        println!("cargo:warning={line}");
    }
    Err(format!(
        "{what} failed ({status}); its output: {}",
        log.display()
    ))
}

fn read(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Removes a file or folder if it is there.
fn remove(path: &Path) -> Result<()> {
    let removed = if path.is_dir() {
        fs::remove_dir_all(path)
    } else {
        fs::remove_file(path)
    };
    match removed {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("cannot remove {}: {e}", path.display()))
        }
        _ => Ok(()),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
