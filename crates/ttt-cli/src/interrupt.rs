//! The signals that end the program (SIGINT, SIGTERM, SIGHUP, SIGQUIT)
//! during the long commands (`solve`, `arena`), and what must not outlive
//! the program whatever ends it: the temporary files of [output
//! files](crate::output_file) and the process groups of arena's engines.
//!
//! A command that can stop cleanly notes the first signal
//! ([`Interrupt::on_signals`]): its searches and waits see it, it removes
//! what it made and reports what it did. A second signal, or one while no
//! command is noting them, ends the program at once, after the essentials:
//! the registered process groups are killed and the registered temporary
//! files removed (a user who presses Ctrl-C twice does not want to wait for
//! a stuck engine, and gets no stray engine or file either).
//!
//! The signals are taken by a thread of their own (signal-hook's iterator),
//! so all this runs as ordinary code, not in a signal handler.
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rustix::process::Pid;
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};

/// The signals handled here: those whose default action ends the program
/// and that a user or a system sends to stop it.
pub const SIGNALS: [i32; 4] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT];

/// The signal that asked a command to stop, shared by everything that
/// waits or searches: the engines' reply loops, the built-in players'
/// searches, the prover (through [`Interrupt::flag`]).
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    /// The signal's number, 0 until one arrives.
    signal: Arc<AtomicUsize>,
    /// Set with `signal`, for the searches that take an `AtomicBool`.
    flag: Arc<AtomicBool>,
}

/// While it lives, the first signal is noted by the [`Interrupt`] that
/// made it ([`Interrupt::on_signals`]); dropped, signals end the program at
/// once again (after the cleanup).
pub struct Handlers(());

impl Drop for Handlers {
    fn drop(&mut self) {
        state().noting = None;
    }
}

impl Interrupt {
    /// Notes the first of [`SIGNALS`] from now until the handlers are
    /// dropped; a second one ends the program at once with status 128 +
    /// its number, after the cleanup.
    pub fn on_signals(&self) -> io::Result<Handlers> {
        watch()?;
        state().noting = Some(self.clone());
        Ok(Handlers(()))
    }

    /// The signal received, if any.
    pub fn signal(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            n => i32::try_from(n).ok(),
        }
    }

    /// Whether a signal asked the command to stop.
    pub fn is_set(&self) -> bool {
        self.signal().is_some()
    }

    /// Set when a signal arrives: for the searches that take a flag.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// Notes `signal`; `false` if one was noted already.
    fn note(&self, signal: i32) -> bool {
        let first = self
            .signal
            .compare_exchange(0, signal as usize, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok();
        self.flag.store(true, Ordering::SeqCst);
        first
    }
}

/// The name of a signal of [`SIGNALS`], for messages.
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        SIGQUIT => "SIGQUIT",
        _ => "a signal",
    }
}

/// What the signal thread works from.
struct State {
    /// The command noting the first signal, if any.
    noting: Option<Interrupt>,
    /// Process groups to kill on the way out.
    groups: Vec<Pid>,
    /// Temporary files to remove on the way out.
    temp_files: Vec<PathBuf>,
}

static STATE: Mutex<State> = Mutex::new(State {
    noting: None,
    groups: Vec::new(),
    temp_files: Vec::new(),
});

/// The state, locked (a thread that panicked holding it left no half-made
/// change: each change is one push or one removal).
fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts the signal thread, once; from then on [`SIGNALS`] go through it.
fn watch() -> io::Result<()> {
    static STARTED: Mutex<bool> = Mutex::new(false);
    let mut started = STARTED.lock().unwrap_or_else(PoisonError::into_inner);
    if *started {
        return Ok(());
    }
    let mut signals = signal_hook::iterator::Signals::new(SIGNALS)?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                on_signal(signal);
            }
        })?;
    *started = true;
    Ok(())
}

/// One signal: noted by the command if it is the first, else the end.
fn on_signal(signal: i32) {
    let mut state = state();
    if state.noting.as_ref().is_some_and(|i| i.note(signal)) {
        return;
    }
    for &group in &state.groups {
        // ESRCH: the group is gone already, which is what we want.
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    for path in &state.temp_files {
        let _ = std::fs::remove_file(path);
    }
    state.groups.clear();
    state.temp_files.clear();
    // Still holding the lock: nothing is registered (and then left
    // behind) between the cleanup and the exit. The message is not waited
    // for long: stderr may be a full pipe.
    let (done, printed) = std::sync::mpsc::channel();
    let _ = std::thread::Builder::new()
        .name("signal-message".into())
        .spawn(move || {
            crate::common::print_err(format_args!("ttt: stopped by {}", signal_name(signal)));
            let _ = done.send(());
        });
    let _ = printed.recv_timeout(std::time::Duration::from_millis(200));
    std::process::exit(128 + signal);
}

/// A process group killed if a signal ends the program while this lives
/// (see the [module](self)); dropping it forgets the group.
#[derive(Debug)]
pub struct GroupGuard(Pid);

impl GroupGuard {
    /// Registers `group` (and starts the signal thread if need be).
    pub fn new(group: Pid) -> io::Result<GroupGuard> {
        watch()?;
        state().groups.push(group);
        Ok(GroupGuard(group))
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        let mut state = state();
        if let Some(i) = state.groups.iter().position(|&g| g == self.0) {
            state.groups.swap_remove(i);
        }
    }
}

/// A temporary file removed if a signal ends the program while this lives
/// (see the [module](self)); dropping it forgets the file (it does not
/// remove it: its owner does).
#[derive(Debug)]
pub struct TempFileGuard(PathBuf);

impl TempFileGuard {
    /// Registers `path` (and starts the signal thread if need be).
    pub fn new(path: &Path) -> io::Result<TempFileGuard> {
        watch()?;
        state().temp_files.push(path.to_path_buf());
        Ok(TempFileGuard(path.to_path_buf()))
    }
}

impl Drop for TempFileGuard {
    fn drop(&mut self) {
        let mut state = state();
        if let Some(i) = state.temp_files.iter().position(|p| *p == self.0) {
            state.temp_files.swap_remove(i);
        }
    }
}
