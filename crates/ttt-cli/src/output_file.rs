//! Files a command writes when its work is done, checked before it starts.
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::common::input_error;

/// A file a command writes when its work is done (`--certificate FILE`),
/// made ready before the work starts: a path that is a directory or in a
/// folder that cannot be written to fails at once, not after minutes of
/// solving. The text goes to a temporary file beside it, renamed into place
/// by [`finish`](OutputFile::finish): a run that fails or is stopped leaves
/// the path as it was.
pub struct OutputFile {
    temp: tempfile::NamedTempFile,
    path: PathBuf,
    flag: &'static str,
}

impl OutputFile {
    /// Checks `path`, given with `flag`, and opens its temporary file.
    pub fn prepare(path: &Path, flag: &'static str) -> anyhow::Result<OutputFile> {
        let shown = path.display();
        if path.is_dir() {
            return Err(input_error(format!("{flag} {shown}: is a directory")));
        }
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if !folder.is_dir() {
            return Err(input_error(format!(
                "{flag} {shown}: there is no folder {}",
                folder.display()
            )));
        }
        let temp = tempfile::Builder::new()
            .prefix(".ttt-")
            .tempfile_in(folder)
            .map_err(|e| {
                // The error's own text names the temporary file: say the kind.
                input_error(format!(
                    "{flag} {shown}: cannot write in {}: {}",
                    folder.display(),
                    io::Error::from(e.kind())
                ))
            })?;
        Ok(OutputFile {
            temp,
            path: path.to_path_buf(),
            flag,
        })
    }

    /// The path given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The open temporary file, to write the text to.
    pub fn handle(&self) -> &std::fs::File {
        self.temp.as_file()
    }

    /// An error writing the file, naming the flag and the path.
    pub fn error(&self, e: &dyn fmt::Display) -> anyhow::Error {
        anyhow::anyhow!("{} {}: {e}", self.flag, self.path.display())
    }

    /// Puts the written file in place.
    pub fn finish(self) -> anyhow::Result<()> {
        let (flag, path) = (self.flag, self.path);
        self.temp
            .persist(&path)
            .map(drop)
            .map_err(|e| anyhow::anyhow!("{flag} {}: {}", path.display(), e.error))
    }
}
