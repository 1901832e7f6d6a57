//! SIGINT and SIGTERM during a match: noted, so the match stops between
//! (or in the middle of) moves, the engines are ended and the games
//! finished so far are reported. A second signal ends the program at once.
use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::SigId;

/// The signal that asked the match to stop, shared by everything that
/// waits: the engines' reply loops and the built-in players' searches.
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    /// The signal's number, 0 until one arrives.
    signal: Arc<AtomicUsize>,
}

/// The handlers of [`Interrupt::on_signals`]; dropping it removes them.
pub struct Handlers(Vec<SigId>);

impl Drop for Handlers {
    fn drop(&mut self) {
        for id in self.0.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}

impl Interrupt {
    /// Notes SIGINT and SIGTERM from now until the handlers are dropped.
    /// A second one exits at once with status 128 + its number: a user who
    /// presses Ctrl-C twice does not want to wait for a stuck engine.
    pub fn on_signals(&self) -> io::Result<Handlers> {
        let seen = Arc::new(AtomicBool::new(false));
        let mut ids = Vec::new();
        for signal in [SIGINT, SIGTERM] {
            // Runs before the handlers below: exits only if a signal came before.
            ids.push(signal_hook::flag::register_conditional_shutdown(
                signal,
                128 + signal,
                Arc::clone(&seen),
            )?);
            ids.push(signal_hook::flag::register(signal, Arc::clone(&seen))?);
            ids.push(signal_hook::flag::register_usize(
                signal,
                Arc::clone(&self.signal),
                signal as usize,
            )?);
        }
        Ok(Handlers(ids))
    }

    /// The signal received, if any.
    pub fn signal(&self) -> Option<i32> {
        match self.signal.load(Ordering::Relaxed) {
            0 => None,
            n => i32::try_from(n).ok(),
        }
    }

    /// Whether a signal asked the match to stop.
    pub fn is_set(&self) -> bool {
        self.signal().is_some()
    }
}
