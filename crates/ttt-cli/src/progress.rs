//! The progress line the long commands (solve, analyze, bench, arena) show
//! on stderr, drawn by indicatif: on a terminal only (through a pipe, under
//! `NO_COLOR` or with `TERM=dumb` nothing is drawn), shown only once a task
//! has run for a moment (quick boards print nothing), with the rate, and the
//! ETA where the length of the task is known, and cleared before results.
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::common::grouped;

/// How long a task runs before its line appears.
const DELAY: Duration = Duration::from_millis(300);

/// How often the line is redrawn at most.
const REFRESH_HZ: u8 = 10;

/// Whether progress lines are drawn: stderr is a terminal that is not
/// `TERM=dumb`, and `NO_COLOR` is not set (a user who turns decoration off
/// gets plain output).
pub fn enabled() -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    !no_color && !dumb && std::io::stderr().is_terminal()
}

/// One progress line. Its position is a count (nodes, positions, games);
/// with a length, the line shows the ETA.
pub struct ProgressLine {
    bar: ProgressBar,
    enabled: bool,
    start: Instant,
    drawn: bool,
}

impl ProgressLine {
    /// A line drawn with `template` (indicatif's keys: `{human_pos}`,
    /// `{eta}`, `{elapsed}`, `{msg}`...; and `{rate}`: steps per second as
    /// a whole number, 2,862,531/s), of `length` steps if known.
    pub fn new(template: &str, length: Option<u64>) -> ProgressLine {
        let bar = ProgressBar::with_draw_target(length, ProgressDrawTarget::hidden());
        // A template is a constant of this program: a bad one only loses
        // the line's layout, never the command.
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.with_key(
                "rate",
                |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{}/s", grouped(state.per_sec() as u64));
                },
            ));
        }
        ProgressLine {
            bar,
            enabled: enabled(),
            start: Instant::now(),
            drawn: false,
        }
    }

    /// Moves to `position`; the line appears once the task has run for a
    /// moment.
    pub fn set(&mut self, position: u64) {
        self.bar.set_position(position);
        self.reveal();
    }

    /// Sets the `{msg}` part.
    pub fn message(&mut self, message: String) {
        self.bar.set_message(message);
    }

    /// Sets the `{prefix}` part.
    pub fn prefix(&mut self, prefix: String) {
        self.bar.set_prefix(prefix);
    }

    fn reveal(&mut self) {
        if self.enabled && !self.drawn && self.start.elapsed() >= DELAY {
            self.drawn = true;
            self.bar
                .set_draw_target(ProgressDrawTarget::stderr_with_hz(REFRESH_HZ));
            self.bar.tick();
        }
    }

    /// Runs `print` with the line off the screen (a message on stderr
    /// goes above it, not through it).
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        self.bar.suspend(print)
    }

    /// Removes the line, before results are printed.
    pub fn clear(&mut self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for ProgressLine {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
