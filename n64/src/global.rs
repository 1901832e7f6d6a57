//! `Global<T>`: a `static` that the single CPU thread may mutate.
//!
//! The ROM runs on one core with no threads. Its only interrupt handler
//! (`boot/entry.s`: the VI and the COP0 timer) touches nothing but the
//! `N64_VI_*` atomics in `vi.rs`, never a `Global`, so nothing can touch a
//! global concurrently. Access goes through raw pointers (never a
//! long-lived `&mut`), each use site justifying itself with a SAFETY comment.

use core::cell::UnsafeCell;

#[repr(transparent)]
pub struct Global<T>(UnsafeCell<T>);

// SAFETY: single core, no threads, and the interrupt handler never touches a
// `Global` (see module docs).
unsafe impl<T> Sync for Global<T> {}

impl<T> Global<T> {
    pub const fn new(value: T) -> Self {
        Self(UnsafeCell::new(value))
    }

    pub const fn get(&self) -> *mut T {
        self.0.get()
    }
}
