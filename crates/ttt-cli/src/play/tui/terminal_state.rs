//! The terminal's full-screen state (raw mode, alternate screen, mouse
//! reports, hidden cursor): entered and restored on every way out, and
//! handed back to the shell while the program is suspended.
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use crossterm::cursor::{Hide, Show};
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::style::ResetColor;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};

/// Whether the terminal is in the full-screen state.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Held while the terminal changes state on purpose (entering, leaving,
/// suspending), so a suspension cannot interleave with the exit.
static SCREEN: Mutex<()> = Mutex::new(());

/// Set when the screen must be drawn again from scratch (after `fg`).
pub(super) static REDRAW: AtomicBool = AtomicBool::new(false);

fn screen_lock() -> MutexGuard<'static, ()> {
    SCREEN.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Puts the terminal in the full-screen state: raw mode, alternate screen,
/// mouse reports, hidden cursor.
fn enter_terminal() -> io::Result<()> {
    ACTIVE.store(true, Ordering::SeqCst);
    enable_raw_mode()?;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture, Hide)
}

/// Ctrl-Z or SIGTSTP: give the terminal back to the shell, stop, and take it
/// again when continued (`fg`). The stop is SIGSTOP, as signal-hook's
/// emulation of the default action does: SIGTSTP itself is caught here.
pub(super) fn suspend() {
    use signal_hook::consts::SIGSTOP;
    let _screen = screen_lock();
    // No frame is drawn over the shell's screen meanwhile.
    let _stdout = io::stdout().lock();
    let was_active = ACTIVE.load(Ordering::SeqCst);
    restore_terminal();
    let _ = signal_hook::low_level::raise(SIGSTOP);
    // Continued.
    if was_active {
        let _ = enter_terminal();
        REDRAW.store(true, Ordering::SeqCst);
    }
}

/// SIGCONT: whoever stopped the program (SIGSTOP from outside), the shell
/// may have reset the terminal meanwhile; set it up again and redraw.
fn resume() {
    let _screen = screen_lock();
    if ACTIVE.load(Ordering::SeqCst) {
        // crossterm only changes modes it believes are not set already.
        let _ = disable_raw_mode();
        let _ = enter_terminal();
    }
    REDRAW.store(true, Ordering::SeqCst);
}

/// Handles SIGTSTP (`kill -TSTP`; Ctrl-Z is a key in raw mode) and SIGCONT.
fn watch_job_control_signals() {
    use signal_hook::consts::{SIGCONT, SIGTSTP};
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTSTP, SIGCONT]) else {
            return; // Without the watcher the defaults apply.
        };
        let _ = std::thread::Builder::new()
            .name("job-control".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if signal == SIGTSTP {
                        suspend();
                    } else {
                        resume();
                    }
                }
            });
    });
}

/// Puts the terminal back: leave the alternate screen, show the cursor,
/// stop mouse reports, leave raw mode. Safe to call more than once.
fn restore_terminal() {
    // Only once: leaving the alternate screen twice would move the cursor
    // back over whatever was printed in between (a panic message).
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    let _ = execute!(
        out,
        DisableMouseCapture,
        LeaveAlternateScreen,
        Show,
        ResetColor
    );
    let _ = disable_raw_mode();
}

/// On SIGTERM, SIGHUP or SIGQUIT: give the terminal back and exit with
/// 128 + the signal, as the default action's exit status reads in a shell.
/// Holding the stdout lock while restoring means a frame being drawn is
/// finished first and no frame is drawn over the restored screen; but the
/// exit never waits on it for long (output may be blocked), and nothing on
/// this path can panic (stderr may be closed, full or a hung-up terminal):
/// a watcher that died would leave the signals caught and ignored.
fn watch_termination_signals() {
    use signal_hook::consts::{SIGHUP, SIGQUIT, SIGTERM};
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGQUIT])
        else {
            return; // Without the watcher these signals just end the process.
        };
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                let Some(signal) = signals.forever().next() else {
                    return;
                };
                let (done, restored) = std::sync::mpsc::channel();
                let _ = std::thread::Builder::new()
                    .name("restore".into())
                    .spawn(move || {
                        let _stdout = io::stdout().lock();
                        restore_terminal();
                        let _ = done.send(());
                    });
                let _ = restored.recv_timeout(Duration::from_secs(1));
                let name = match signal {
                    SIGTERM => "SIGTERM",
                    SIGHUP => "SIGHUP",
                    _ => "SIGQUIT",
                };
                ttt_cli::common::print_err(format_args!("ttt: stopped by {name}."));
                std::process::exit(128 + signal);
            });
    });
}

/// When the terminal goes away (its window closed) and no SIGHUP ended the
/// program, reading it returns end of file forever: end the game as the
/// hang-up it is (exit 129) rather than spin. poll(2) with no events asked
/// for still reports a hang-up or an error, and sleeps until then.
fn watch_terminal_hangup() {
    use rustix::event::{poll, PollFd, PollFlags};
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let _ = std::thread::Builder::new()
            .name("hangup".into())
            .spawn(|| loop {
                let stdin = rustix::stdio::stdin();
                let mut fds = [PollFd::new(&stdin, PollFlags::empty())];
                match poll(&mut fds, None) {
                    Ok(_) => {
                        let gone = PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL;
                        if fds[0].revents().intersects(gone) {
                            restore_terminal();
                            ttt_cli::common::print_err(format_args!("ttt: the terminal closed."));
                            std::process::exit(129);
                        }
                    }
                    Err(rustix::io::Errno::INTR) => {}
                    Err(_) => return,
                }
            });
    });
}

/// Owns the full-screen state; dropping it restores the terminal.
pub(super) struct Guard;

impl Guard {
    pub(super) fn enter() -> io::Result<Guard> {
        // A panic anywhere restores the terminal before its message is shown.
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal();
            previous(info);
        }));
        watch_termination_signals();
        watch_terminal_hangup();
        watch_job_control_signals();
        let entered = {
            let _screen = screen_lock();
            enter_terminal()
        };
        // A failure half way is undone too (the guard restores).
        let guard = Guard;
        entered?;
        Ok(guard)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _screen = screen_lock();
        restore_terminal();
    }
}
