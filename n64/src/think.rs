//! The computer's searches, sliced across frames: the game hands over one
//! [`SearchJob`] at a time ([`Queue`], through the game's `Host`), and the
//! main loop runs it between two frames ([`Thinker::run`]) with a stop
//! rule the engine asks every few nodes. The rule checks the job's time on
//! the COP0 clock and whether the game gave it up, and, whenever a vertical
//! interrupt has come since the last frame, first runs a whole frame of the
//! main loop (pads, the game's update, the drawing): the picture and the
//! input stay alive however long the computer thinks, on one CPU thread.
//!
//! libdragon's kernel threads were tried first (a search thread below the
//! main loop's priority): Debian's mupen64plus 2.5.9, which CI runs,
//! delivers an interrupt it queued while interrupts were enabled even after
//! they are disabled (`check_int_handler` raises the exception without
//! looking at Status.IE), and libdragon's kernel then asserts ("thread ... in
//! list?") when that interrupt wakes a thread in the middle of its wait.

use core::cell::{Cell, RefCell};

use libdragon_sys as sys;
use ttt64_game::{PatternUndo, SearchJob, SearchReply, TtEntry, TAKE_BACKS};

use crate::time::{self, ticks_to_micros, TICKS_PER_SECOND};

/// Transposition table entries (16 bytes each): 64K (1 MiB) on a 4 MiB
/// console, 256K (4 MiB) with the Expansion Pak. The table keeps what the
/// searches learn from move to move.
pub const TT_ENTRIES_4MB: usize = 64 * 1024;
/// With the Expansion Pak (8 MiB).
pub const TT_ENTRIES_8MB: usize = 256 * 1024;

/// The searches the game asked for: the job waiting to run, the reply of
/// the last one, and whether the one running is still wanted. The game's
/// `Host` (the main loop's frames, also those run from inside a search)
/// and [`Thinker::run`] share it.
pub struct Queue {
    /// The job to run next.
    job: RefCell<Option<SearchJob>>,
    /// The reply of the job that ended, until the game takes it.
    reply: Cell<Option<SearchReply>>,
    /// A job is running.
    running: Cell<bool>,
    /// The game gave the running job up: stop at the next check, drop the
    /// reply.
    cancelled: Cell<bool>,
}

impl Queue {
    /// Nothing asked for.
    pub const fn new() -> Queue {
        Queue {
            job: RefCell::new(None),
            reply: Cell::new(None),
            running: Cell::new(false),
            cancelled: Cell::new(false),
        }
    }

    /// Runs `job` next (a job running now is given up: it stops at its
    /// next check).
    pub fn start(&self, job: SearchJob) {
        self.stop();
        self.reply.set(None);
        *self.job.borrow_mut() = Some(job);
    }

    /// The reply of the job that ended, once.
    pub fn poll(&self) -> Option<SearchReply> {
        self.reply.take()
    }

    /// Gives up the job running (and the one waiting).
    pub fn stop(&self) {
        self.job.borrow_mut().take();
        if self.running.get() {
            self.cancelled.set(true);
        }
    }

    /// The job to run, if one waits.
    pub fn take_job(&self) -> Option<SearchJob> {
        self.job.borrow_mut().take()
    }

    /// Whether the job running was given up.
    pub fn cancelled(&self) -> bool {
        self.cancelled.get()
    }
}

impl Default for Queue {
    fn default() -> Self {
        Self::new()
    }
}

/// The transposition table and the pattern board's take-back records,
/// and the runs of the searches.
pub struct Thinker {
    tt: &'static mut [TtEntry],
    /// Lent to every search, as the table is: made there each move, the
    /// records (about 32 KB) cost the console 11 ms in ares before the
    /// first node, and 4 ms more to copy, with no stop check between.
    take_backs: &'static mut [PatternUndo],
}

/// `count` values made by `make` in memory from libdragon's heap, never
/// freed: the searches' memory, made once, at boot.
fn allocate<T>(count: usize, make: impl Fn() -> T) -> &'static mut [T] {
    assert!(core::mem::align_of::<T>() <= 8, "malloc aligns to 8 bytes");
    let bytes = count * core::mem::size_of::<T>();
    // SAFETY: malloc hands out `bytes` bytes (8-byte aligned, enough for
    // T, as checked above) or null; every element is written
    // before the slice is made, and the memory is this slice's alone for
    // good.
    unsafe {
        let first = sys::malloc(bytes as _).cast::<T>();
        assert!(!first.is_null(), "no memory for the search");
        for i in 0..count {
            first.add(i).write(make());
        }
        core::slice::from_raw_parts_mut(first, count)
    }
}

impl Thinker {
    /// Allocates the transposition table for `memory` bytes of RDRAM, and
    /// the take-back records (from libdragon's heap, never freed). Once,
    /// at boot.
    pub fn new(memory: usize) -> Thinker {
        let entries = if memory >= 8 << 20 {
            TT_ENTRIES_8MB
        } else {
            TT_ENTRIES_4MB
        };
        Thinker {
            tt: allocate(entries, || TtEntry::EMPTY),
            take_backs: allocate(TAKE_BACKS, || PatternUndo::EMPTY),
        }
    }

    /// Entries in the transposition table.
    pub fn tt_entries(&self) -> usize {
        self.tt.len()
    }

    /// Runs `job` to its end: its time on the COP0 clock (counted from
    /// now), the node budget, or `queue` saying it was given up. `between`
    /// is asked at every check of the engine (every few nodes) and may run
    /// a frame of the main loop. The reply goes to `queue` unless the job
    /// was given up.
    pub fn run(&mut self, job: SearchJob, queue: &Queue, between: &dyn Fn()) {
        queue.running.set(true);
        queue.cancelled.set(false);
        let start = time::ticks();
        let deadline = job
            .time_ms
            .map(|ms| start + u64::from(ms) * TICKS_PER_SECOND / 1000);
        // The search's work between two checks (the frames run from a
        // check left out), the start and the end included: the longest
        // stretch, which a frame due meanwhile waits for.
        let last_check = Cell::new(start);
        let longest = Cell::new(0u64);
        let stop = || {
            let now = time::ticks();
            longest.set(longest.get().max(now.saturating_sub(last_check.get())));
            between();
            let stop = queue.cancelled() || deadline.is_some_and(|d| time::ticks() >= d);
            last_check.set(time::ticks());
            stop
        };
        let mut reply = job.run(self.tt, self.take_backs, &stop);
        let end = time::ticks();
        longest.set(longest.get().max(end.saturating_sub(last_check.get())));
        reply.us = ticks_to_micros(end.saturating_sub(start));
        crate::log!("think longest_us={}", ticks_to_micros(longest.get()));
        queue.running.set(false);
        if !queue.cancelled.replace(false) {
            queue.reply.set(Some(reply));
        }
    }
}
