//! Files a command writes when its work is done, checked before it starts,
//! and written the way careful tools write them.
//!
//! What the path names decides how it is written:
//!
//! * nothing yet, or a regular file: the text goes to a temporary file
//!   beside it, renamed over it at the end. A run that fails or is stopped
//!   (by any signal that ends the program: see [`crate::interrupt`]) leaves
//!   the path as it was. A new file's mode follows the umask, as a shell's
//!   `>` makes it; a replaced file keeps its mode.
//! * a symbolic link: never replaced itself; the file it names is (made if
//!   missing, replaced as above if regular, written into as below if not).
//! * a character device (`/dev/null`, a terminal) or a pipe (a FIFO): the
//!   text is written into it at the end; nothing is created or replaced.
//! * this program's standard output (`/dev/stdout`, whatever it is): the
//!   text is written there, before what the command prints after it.
//! * a directory, a block device or a socket: refused at once, with the
//!   reason.
use std::fmt;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::common::input_error;
use crate::interrupt::TempFileGuard;

/// A file a command writes when its work is done (`--certificate FILE`),
/// made ready before the work starts: a path that cannot be written (a
/// directory, a folder that is not there or not writable, a block device)
/// fails at once, not after minutes of solving. See the [module](self) for
/// how each kind of path is written.
pub struct OutputFile {
    target: Target,
    /// The path given.
    path: PathBuf,
    flag: &'static str,
}

/// How the text reaches the path.
enum Target {
    /// A temporary file beside the file (the path, or what its links
    /// name), renamed over it at the end.
    Replace {
        temp: tempfile::NamedTempFile,
        /// The file replaced: the path with its symbolic links followed.
        file: PathBuf,
        /// Removes the temporary file if a signal ends the program.
        _guard: TempFileGuard,
    },
    /// A character device or a FIFO, opened and written at the end.
    Into,
    /// This program's standard output.
    Stdout,
}

/// What a path names, for a command that writes to it (see
/// [`check_writable`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Nothing yet (a dangling symbolic link included).
    Missing,
    /// A regular file.
    Regular,
    /// A character device or a FIFO: written into, never replaced.
    Special,
}

/// What `path` names (following symbolic links), for a command that writes
/// to it given with `flag`: an error for a directory, a block device (never
/// written over: a disk) and a socket (it cannot be opened).
pub fn check_writable(path: &Path, flag: &str) -> anyhow::Result<Kind> {
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Kind::Missing),
        Err(e) => return Err(input_error(format!("{flag} {}: {e}", path.display()))),
    };
    let kind = meta.file_type();
    let why = if kind.is_dir() {
        "is a directory"
    } else if kind.is_block_device() {
        "is a block device (a disk): not written over; give a file, a pipe or a character \
         device such as /dev/null"
    } else if kind.is_socket() {
        "is a socket: it cannot be written as a file"
    } else if kind.is_file() {
        return Ok(Kind::Regular);
    } else {
        return Ok(Kind::Special);
    };
    Err(input_error(format!("{flag} {}: {why}", path.display())))
}

/// The file `path` names after following symbolic links (a dangling link
/// names the file to create); `path` itself when it is no link.
pub fn resolve_symlinks(path: &Path) -> PathBuf {
    let mut current = path.to_owned();
    // A bound, as the kernel has, against link cycles.
    for _ in 0..40 {
        let Ok(target) = fs::read_link(&current) else {
            return current;
        };
        current = match current.parent() {
            Some(dir) => dir.join(target),
            None => target,
        };
    }
    current
}

/// Whether `a` and `b` name one file: the same file (links followed) if
/// both exist, the same path if neither does. An output that is also an
/// input of the same command would replace what it is made from.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        (Err(_), Err(_)) => a == b,
        _ => false,
    }
}

/// Whether `meta` is the file this program's standard output writes to.
fn is_stdout(meta: &Metadata) -> bool {
    rustix::fs::fstat(rustix::stdio::stdout())
        .is_ok_and(|st| st.st_dev == meta.dev() && st.st_ino == meta.ino())
}

impl OutputFile {
    /// Checks `path`, given with `flag`, and gets ready to write it.
    pub fn prepare(path: &Path, flag: &'static str) -> anyhow::Result<OutputFile> {
        let shown = path.display();
        let kind = check_writable(path, flag)?;
        let output = |target| OutputFile {
            target,
            path: path.to_path_buf(),
            flag,
        };
        if kind != Kind::Missing && fs::metadata(path).is_ok_and(|m| is_stdout(&m)) {
            return Ok(output(Target::Stdout));
        }
        if kind == Kind::Special {
            // Checked now, opened at the end (a FIFO's open waits for a
            // reader, and the work comes first).
            rustix::fs::access(path, rustix::fs::Access::WRITE_OK)
                .map_err(|e| input_error(format!("{flag} {shown}: {}", io::Error::from(e))))?;
            return Ok(output(Target::Into));
        }
        let file = resolve_symlinks(path);
        let folder = match file.parent() {
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
            // A new file's mode as the umask makes it (as `>` does);
            // a replaced file's is set at the end.
            .permissions(fs::Permissions::from_mode(0o666))
            .tempfile_in(folder)
            .map_err(|e| {
                // The error's own text names the temporary file: say the kind.
                input_error(format!(
                    "{flag} {shown}: cannot write in {}: {}",
                    folder.display(),
                    io::Error::from(e.kind())
                ))
            })?;
        let guard = TempFileGuard::new(temp.path())
            .map_err(|e| anyhow::anyhow!("{flag} {shown}: cannot watch for signals: {e}"))?;
        Ok(output(Target::Replace {
            temp,
            file,
            _guard: guard,
        }))
    }

    /// The path given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// An error writing the file, naming the flag and the path.
    pub fn error(&self, e: &dyn fmt::Display) -> anyhow::Error {
        anyhow::anyhow!("{} {}: {e}", self.flag, self.path.display())
    }

    /// Writes the text with `write` and puts it in place (see the
    /// [module](self)); an error names the flag and the path.
    pub fn write(self, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> anyhow::Result<()> {
        let written = match &self.target {
            Target::Replace { temp, .. } => {
                let mut out = BufWriter::new(temp.as_file());
                write(&mut out).and_then(|()| out.flush())
            }
            Target::Into => OpenOptions::new()
                .write(true)
                .open(&self.path)
                .and_then(|file| {
                    let mut out = BufWriter::new(file);
                    write(&mut out).and_then(|()| out.flush())
                }),
            Target::Stdout => {
                let mut out = io::stdout().lock();
                write(&mut out).and_then(|()| out.flush())
            }
        };
        written.map_err(|e| self.error(&e))?;
        let OutputFile { target, path, flag } = self;
        let error = |e: &dyn fmt::Display| anyhow::anyhow!("{flag} {}: {e}", path.display());
        let Target::Replace { temp, file, .. } = target else {
            return Ok(());
        };
        // A regular file replaced keeps its mode (what it is now: it may
        // have changed during the work).
        if let Ok(meta) = fs::symlink_metadata(&file) {
            if meta.is_file() {
                temp.as_file()
                    .set_permissions(meta.permissions())
                    .map_err(|e| error(&e))?;
            }
        }
        temp.persist(&file).map(drop).map_err(|e| error(&e.error))
    }
}

/// Opens `path` for a command that writes into it as it goes (arena's
/// `--record`): through a symbolic link, into a device or FIFO as it is, a
/// regular file emptied with its mode kept, a new one made as the umask
/// says; see [`check_writable`] for what is refused.
pub fn create_in_place(path: &Path, flag: &str) -> anyhow::Result<File> {
    check_writable(path, flag)?;
    File::create(path).map_err(|e| input_error(format!("{flag} {}: {e}", path.display())))
}
