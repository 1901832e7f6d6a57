//! The opt-in persistent record (`--stats`): results per board and opponent,
//! kept across sessions in `$XDG_DATA_HOME/ttt/record.txt`.
//!
//! The file is text, one line per kind of game, `first second draws key`:
//!
//! ```text
//! # ttt record v1
//! 3 1 5 human-vs-ai 3x3 k=3 classic
//! ```
//!
//! Several sessions may share the file, so a result is never written from a
//! snapshot taken earlier: at each game end the file is locked (an exclusive
//! lock on its directory), read again, the one result is added, and the whole
//! record is written to a temporary file in the same directory, synced, then
//! renamed over the old one. A crash leaves the old or the new record, never
//! half of one; a temporary file a killed writer left is removed by the next
//! writer. A symlinked record is updated where the link points, and the
//! file's permissions are kept. A file that does not parse is reported and
//! left alone; an empty file is an empty record.
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use ttt_core::series::{GameResult, Side};

use ttt_cli::output_file::{check_writable, resolve_symlinks, Kind};

const HEADER: &str = "# ttt record v1";

/// Counts for one kind of game: wins of side one (you, or X), of side two
/// (the computer, or O), and draws.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// You (against the computer) or X.
    pub first: u64,
    /// The computer, or O.
    pub second: u64,
    /// Draws.
    pub draws: u64,
}

impl Tally {
    /// Counts one more game ending `result`; a counter at its maximum stays
    /// there instead of wrapping to zero.
    pub fn count(&mut self, result: GameResult) {
        let counter = match result {
            GameResult::Win(Side::One) => &mut self.first,
            GameResult::Win(Side::Two) => &mut self.second,
            GameResult::Draw => &mut self.draws,
        };
        *counter = counter.saturating_add(1);
    }
}

/// The record file and the contents last read from or written to it.
#[derive(Debug)]
pub struct Record {
    path: PathBuf,
    entries: Vec<(String, Tally)>,
}

/// Where the record lives: `$XDG_DATA_HOME/ttt/record.txt` (or the platform's
/// data directory).
pub fn default_path() -> Result<PathBuf> {
    let dir = match std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => dirs::data_dir().context("cannot find your data directory (set XDG_DATA_HOME)")?,
    };
    Ok(dir.join("ttt").join("record.txt"))
}

impl Record {
    /// Reads the record at `path`; a missing or empty file is an empty
    /// record. A file that is not a record is an error (and is not
    /// overwritten).
    pub fn load(path: &Path) -> Result<Record> {
        Ok(Record {
            path: path.to_owned(),
            entries: read_entries(path)?,
        })
    }

    /// The tally for `key` (zero if none), as last read or written.
    pub fn get(&self, key: &str) -> Tally {
        find(&self.entries, key)
    }

    /// Adds one game ending `result` for `key` to the file as it is now
    /// (other sessions may have written meanwhile) and returns the new tally.
    pub fn add(&mut self, key: &str, result: GameResult) -> Result<Tally> {
        let target = resolve_symlinks(&self.path);
        let dir = target
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_owned();
        fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create the directory {}", dir.display()))?;
        let lock = fs::File::open(&dir)
            .and_then(|d| {
                rustix::fs::flock(&d, rustix::fs::FlockOperation::LockExclusive)?;
                Ok(d)
            })
            .with_context(|| format!("cannot lock {}", dir.display()))?;
        remove_stale_temp_files(&dir, &target);
        let mut entries = read_entries(&target)?;
        let i = match entries.iter().position(|(k, _)| k == key) {
            Some(i) => i,
            None => {
                entries.push((key.to_owned(), Tally::default()));
                entries.len() - 1
            }
        };
        entries[i].1.count(result);
        write_atomically(&target, render(&entries).as_bytes())
            .with_context(|| format!("cannot save the record to {}", target.display()))?;
        drop(lock);
        let tally = entries[i].1;
        self.entries = entries;
        Ok(tally)
    }
}

fn find(entries: &[(String, Tally)], key: &str) -> Tally {
    entries
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, t)| *t)
        .unwrap_or_default()
}

fn render(entries: &[(String, Tally)]) -> String {
    let mut text = String::from(HEADER);
    text.push('\n');
    for (key, t) in entries {
        text.push_str(&format!("{} {} {} {}\n", t.first, t.second, t.draws, key));
    }
    text
}

/// The entries of the record at `path`: none for a missing or empty file.
/// Only a regular file is a record (read, and then replaced): a link to
/// /dev/null must not turn the device into a record, nor a FIFO hang.
fn read_entries(path: &Path) -> Result<Vec<(String, Tally)>> {
    if check_writable(path, "the record")? == Kind::Special {
        bail!("the record {} is not a regular file", path.display());
    }
    match fs::read(path) {
        Ok(bytes) => {
            parse(&bytes).with_context(|| format!("the record file {} is corrupt", path.display()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// The prefix of the temporary files for `target`: `.record.txt.`.
fn temp_prefix(target: &Path) -> String {
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("record.txt");
    format!(".{name}.")
}

/// Removes temporary files that writers killed before their rename left in
/// `dir`. Only called under the lock, when no writer is at work.
fn remove_stale_temp_files(dir: &Path, target: &Path) {
    let prefix = temp_prefix(target);
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(&prefix) && name.ends_with(".tmp") {
            let _ = fs::remove_file(entry.path());
        }
    }
}

fn parse(bytes: &[u8]) -> Result<Vec<(String, Tally)>> {
    let text = std::str::from_utf8(bytes).context("it is not text")?;
    let mut lines = text.lines();
    match lines.next().map(str::trim_end) {
        // An empty file (e.g. `: > record.txt`) is an empty record.
        None => return Ok(Vec::new()),
        Some(HEADER) => {}
        Some(_) => bail!("the first line is not {HEADER:?}"),
    }
    let mut entries: Vec<(String, Tally)> = Vec::new();
    for (n, line) in lines.enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let bad = || anyhow::anyhow!("line {} is not `wins losses draws key`: {line:?}", n + 2);
        let mut parts = line.splitn(4, ' ');
        let mut num =
            || -> Result<u64> { parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad) };
        let tally = Tally {
            first: num()?,
            second: num()?,
            draws: num()?,
        };
        let key = parts
            .next()
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .ok_or_else(bad)?;
        if entries.iter().any(|(k, _)| k == key) {
            bail!("line {} repeats {key:?}", n + 2);
        }
        entries.push((key.to_owned(), tally));
    }
    Ok(entries)
}

/// Writes `bytes` to a temporary file next to `path` (with `path`'s
/// permissions, if it exists), syncs it and renames it over `path`.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = dir.join(format!("{}{}.tmp", temp_prefix(path), std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        if let Ok(meta) = fs::metadata(path) {
            f.set_permissions(meta.permissions())?;
        }
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        // Make the rename itself durable where the platform allows it.
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "human-vs-ai 3x3 k=3 classic";

    #[test]
    fn round_trip_and_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ttt").join("record.txt");
        let mut r = Record::load(&path).unwrap();
        r.add(KEY, GameResult::Win(Side::One)).unwrap();
        r.add(KEY, GameResult::Draw).unwrap();
        let r = Record::load(&path).unwrap();
        assert_eq!(
            r.get(KEY),
            Tally {
                first: 1,
                second: 0,
                draws: 1
            }
        );
        fs::write(&path, "# ttt record v1\n1 2 x key\n").unwrap();
        let e = Record::load(&path).unwrap_err();
        assert!(format!("{e:#}").contains("corrupt"), "{e:#}");
        fs::write(&path, "garbage").unwrap();
        assert!(Record::load(&path).is_err());
    }

    #[test]
    fn a_session_adds_to_what_others_wrote_meanwhile() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.txt");
        let mut early = Record::load(&path).unwrap();
        let mut other = Record::load(&path).unwrap();
        other
            .add("two-player 4x4 k=4", GameResult::Win(Side::Two))
            .unwrap();
        other.add(KEY, GameResult::Win(Side::One)).unwrap();
        // `early` read the file before `other` wrote; its result adds up.
        assert_eq!(
            early.add(KEY, GameResult::Win(Side::One)).unwrap(),
            Tally {
                first: 2,
                ..Tally::default()
            }
        );
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "# ttt record v1\n0 1 0 two-player 4x4 k=4\n2 0 0 human-vs-ai 3x3 k=3 classic\n"
        );
    }

    #[test]
    fn empty_file_saturation_mode_symlink_and_stale_temp_files() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real_dir = dir.path().join("real");
        fs::create_dir(&real_dir).unwrap();
        let real = real_dir.join("kept.txt");
        fs::write(&real, "").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.path().join("record.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        // A killed writer's temporary file.
        let stale = real_dir.join(".kept.txt.99999.tmp");
        fs::write(&stale, "half").unwrap();

        let mut r = Record::load(&link).unwrap();
        assert_eq!(r.get(KEY), Tally::default(), "an empty file is empty");
        r.add(KEY, GameResult::Draw).unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(
            fs::read_to_string(&real).unwrap(),
            format!("# ttt record v1\n0 0 1 {KEY}\n")
        );
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert!(!stale.exists(), "stale temporary file removed");

        fs::write(&real, format!("# ttt record v1\n{} 0 0 {KEY}\n", u64::MAX)).unwrap();
        let t = r.add(KEY, GameResult::Win(Side::One)).unwrap();
        assert_eq!(t.first, u64::MAX, "saturates instead of wrapping");
    }
}
