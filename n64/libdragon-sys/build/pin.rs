//! libdragon's source: where it is, and that it is the pinned commit.

use std::collections::BTreeMap;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use crate::{hex, Result};

/// The libdragon commit this crate is written and tested against (branch
/// `preview`).
const PINNED_COMMIT: &str = "020bd5b9999d0e008ef168635f0716d9c03e8be9";
/// SHA-256 over every file of that commit's `src/` and `include/` (see
/// [`fingerprint`]): identifies the commit without git, as a source
/// snapshot (`git archive`) has no history.
const PINNED_FINGERPRINT: &str = "e83b4e3d5a9185c696f0496dec5b550e2d88df9e7c6d64ae3be7904b069a1224";

/// `LIBDRAGON_SRC`, checked to be a libdragon source folder.
pub fn source() -> Result<PathBuf> {
    let Some(dir) = env::var_os("LIBDRAGON_SRC") else {
        return Err(format!(
            "LIBDRAGON_SRC is not set. It names libdragon's source at commit {PINNED_COMMIT} \
             (https://github.com/DragonMinded/libdragon, branch preview); `make rom` sets it \
             (see n64/README.md, \"libdragon\")"
        ));
    };
    let dir = PathBuf::from(dir);
    if !dir.join("include/libdragon.h").is_file() || !dir.join("src/display.c").is_file() {
        return Err(format!(
            "LIBDRAGON_SRC={} is not libdragon's source (no include/libdragon.h, src/display.c)",
            dir.display()
        ));
    }
    Ok(dir)
}

/// Refuses (or, with `LIBDRAGON_ALLOW_UNPINNED=1`, warns about) a source
/// that is not the pinned commit: the bindings, flags and boot code were
/// checked against that one. Returns the source's fingerprint.
pub fn check(src: &Path) -> Result<String> {
    let found = fingerprint(src)?;
    if found == PINNED_FINGERPRINT {
        return Ok(found);
    }
    let (which, remedy) = match checked_out_commit(src) {
        Some(c) => (
            format!("is at commit {c}"),
            format!(
                "check out the pinned one (git -C {} checkout {PINNED_COMMIT})",
                src.display()
            ),
        ),
        None => (
            "has other sources".to_string(),
            "point LIBDRAGON_SRC at that commit's source".to_string(),
        ),
    };
    let message = format!(
        "libdragon at {} {which}, not the pinned commit {PINNED_COMMIT} \
         (source fingerprint {found}, pinned {PINNED_FINGERPRINT})",
        src.display()
    );
    if env::var_os("LIBDRAGON_ALLOW_UNPINNED").is_some_and(|v| v == "1") {
        println!("cargo:warning={message}; building it anyway (LIBDRAGON_ALLOW_UNPINNED=1)");
        return Ok(found);
    }
    Err(format!(
        "{message}: {remedy}, or set LIBDRAGON_ALLOW_UNPINNED=1 to try this one"
    ))
}

/// The commit git says `src` is at, if `src` is a git checkout of its own
/// (not a folder inside another repository).
fn checked_out_commit(src: &Path) -> Option<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(src)
        .args(["rev-parse", "--show-toplevel", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let text = String::from_utf8_lossy(&output.stdout);
    let (top, commit) = text.trim().split_once('\n')?;
    let same = fs::canonicalize(top).ok()? == fs::canonicalize(src).ok()?;
    same.then(|| commit.trim().to_string())
}

/// SHA-256 over the relative path, a NUL, the length and the bytes of every
/// file under `src/` and `include/`, in path order.
fn fingerprint(src: &Path) -> Result<String> {
    let mut files = BTreeMap::new();
    collect_files(src, &src.join("src"), &mut files);
    collect_files(src, &src.join("include"), &mut files);
    let mut hash = Sha256::new();
    for (rel, path) in &files {
        let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        hash.update(rel.as_bytes());
        hash.update([0]);
        hash.update((bytes.len() as u64).to_be_bytes());
        hash.update(&bytes);
    }
    Ok(hex(&hash.finalize()))
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
