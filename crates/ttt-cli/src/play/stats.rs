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
//! It is written whole to a temporary file in the same directory, synced,
//! then renamed over the old one, so a crash leaves the old or the new record,
//! never half of one. A file that does not parse is reported and left alone.
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

const HEADER: &str = "# ttt record v1";

/// Counts for one kind of game: wins of the first side (you, or X), of the
/// second (the computer, or O), and draws.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// You (against the computer) or X.
    pub first: u64,
    /// The computer, or O.
    pub second: u64,
    /// Draws.
    pub draws: u64,
}

/// The record file and its contents.
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
    /// Reads the record at `path`; a missing file is an empty record. A file
    /// that is not a record is an error (and is not overwritten).
    pub fn load(path: &Path) -> Result<Record> {
        let text = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Record {
                    path: path.to_owned(),
                    entries: Vec::new(),
                })
            }
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let entries = parse(&text)
            .with_context(|| format!("the record file {} is corrupt", path.display()))?;
        Ok(Record {
            path: path.to_owned(),
            entries,
        })
    }

    /// The tally for `key` (zero if none).
    pub fn get(&self, key: &str) -> Tally {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, t)| *t)
            .unwrap_or_default()
    }

    /// Adds a result for `key` and writes the file atomically.
    pub fn add(&mut self, key: &str, f: impl FnOnce(&mut Tally)) -> Result<Tally> {
        let i = match self.entries.iter().position(|(k, _)| k == key) {
            Some(i) => i,
            None => {
                self.entries.push((key.to_owned(), Tally::default()));
                self.entries.len() - 1
            }
        };
        f(&mut self.entries[i].1);
        self.save()?;
        Ok(self.entries[i].1)
    }

    fn save(&self) -> Result<()> {
        let mut text = String::from(HEADER);
        text.push('\n');
        for (key, t) in &self.entries {
            text.push_str(&format!("{} {} {} {}\n", t.first, t.second, t.draws, key));
        }
        write_atomically(&self.path, text.as_bytes())
            .with_context(|| format!("cannot save the record to {}", self.path.display()))
    }
}

fn parse(bytes: &[u8]) -> Result<Vec<(String, Tally)>> {
    let text = std::str::from_utf8(bytes).context("it is not text")?;
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some(HEADER) {
        bail!("the first line is not {HEADER:?}");
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

/// Writes `bytes` to a temporary file next to `path`, syncs it and renames it
/// over `path`.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("record.txt");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
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
    Ok(result?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ttt").join("record.txt");
        let mut r = Record::load(&path).unwrap();
        r.add("human-vs-ai 3x3 k=3 classic", |t| t.first += 1)
            .unwrap();
        r.add("human-vs-ai 3x3 k=3 classic", |t| t.draws += 1)
            .unwrap();
        let r = Record::load(&path).unwrap();
        assert_eq!(
            r.get("human-vs-ai 3x3 k=3 classic"),
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
}
