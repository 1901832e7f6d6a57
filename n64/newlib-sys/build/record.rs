//! The install's record (`OUT_DIR/installed`): the build's key, then
//! `<sha256>  <path>` for every file installed. It is what makes an install
//! trusted: by content, never by presence. And the install's dates, which
//! decide when cargo runs the build script again.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use crate::{hex, read, Result};

/// Whether `install` holds a finished build for `key`: the record's first
/// line is the key, and every file it lists has its recorded SHA-256. The
/// error says why not, in the past tense: it is shown (and replayed by
/// cargo) after the rebuild.
pub fn check(install: &Path, record: &Path, key: &str) -> Result<()> {
    let text = fs::read_to_string(record).map_err(|_| "there was no record of a finished build")?;
    let mut lines = text.lines();
    if lines.next() != Some(key) {
        return Err("its inputs had changed".into());
    }
    let mut files = 0;
    for line in lines {
        let (sha256, rel) = line.split_once("  ").ok_or("its record was damaged")?;
        let bytes = fs::read(install.join(rel)).map_err(|_| format!("{rel} was missing"))?;
        if hex(&Sha256::digest(bytes)) != sha256 {
            return Err(format!("{rel} had changed since it was installed"));
        }
        files += 1;
    }
    if files == 0 {
        return Err("its record listed no files".into());
    }
    Ok(())
}

/// Writes the record of a finished build: the key, then `<sha256>  <path>`
/// for every file under `install`; into place by a rename, so a record is
/// whole or absent.
pub fn write(install: &Path, record: &Path, key: &str) -> Result<()> {
    let mut files = Vec::new();
    list_files(install, install, &mut files)?;
    files.sort();
    let mut text = format!("{key}\n");
    for rel in &files {
        let bytes = read(&install.join(rel))?;
        let _ = writeln!(text, "{}  {rel}", hex(&Sha256::digest(bytes)));
    }
    let partial = record.with_extension("partial");
    fs::write(&partial, text)
        .and_then(|()| fs::rename(&partial, record))
        .map_err(|e| format!("cannot write {}: {e}", record.display()))
}

/// The files under `dir`, as paths relative to `root`.
fn list_files(root: &Path, dir: &Path, files: &mut Vec<String>) -> Result<()> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            list_files(root, &path, files)?;
        } else if let Ok(rel) = path.strip_prefix(root) {
            files.push(rel.to_string_lossy().into_owned());
        }
    }
    Ok(())
}

/// Sets the modification time of `path` and everything under it.
pub fn date_tree(path: &Path, time: SystemTime) -> Result<()> {
    let date = |p: &Path| {
        fs::File::open(p)
            .and_then(|f| f.set_modified(time))
            .map_err(|e| format!("cannot set the date of {}: {e}", p.display()))
    };
    if path.is_dir() {
        let entries =
            fs::read_dir(path).map_err(|e| format!("cannot list {}: {e}", path.display()))?;
        for entry in entries.flatten() {
            date_tree(&entry.path(), time)?;
        }
    }
    date(path)
}
