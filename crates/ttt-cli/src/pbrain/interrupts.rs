//! The count of lines that end the thinker's turn, shared by the input
//! thread (which counts them in) and the session (which takes them).
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Lines that end the current turn
/// ([`interrupts_thinking`](super::protocol::interrupts_thinking), and the
/// end of input) read but not yet handled: the input thread counts them up
/// as it reads them, the session down as it takes them, and a search stops
/// while the count is not zero.
#[derive(Clone, Debug, Default)]
pub(crate) struct Interrupts(Arc<AtomicUsize>);

impl Interrupts {
    /// Whether such a line is waiting: the turn being thought about is over.
    pub(crate) fn pending(&self) -> bool {
        self.0.load(Ordering::SeqCst) > 0
    }

    pub(crate) fn raise(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }

    pub(crate) fn settle(&self) {
        // Never below zero, whatever the order of calls.
        let _ = self
            .0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }
}
