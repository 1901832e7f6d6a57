//! `Global<T>`: a `static` that the single CPU thread may mutate.
//!
//! The ROM runs on one core and starts no thread (libdragon's kernel
//! threads are not used). Interrupts are libdragon's (`inthandler.S`), and
//! the only Rust code they run, the VI handler in [`crate::display`],
//! touches nothing but atomics, never a `Global`, so nothing can touch a
//! global concurrently. Access goes through raw pointers (never a
//! long-lived `&mut`), each use site justifying itself with a SAFETY comment.

use core::cell::UnsafeCell;

#[repr(transparent)]
pub struct Global<T>(UnsafeCell<T>);

// SAFETY: single core, no threads, and no interrupt handler touches a
// `Global` (see the module docs).
unsafe impl<T> Sync for Global<T> {}

impl<T> Global<T> {
    pub const fn new(value: T) -> Self {
        Self(UnsafeCell::new(value))
    }

    pub const fn get(&self) -> *mut T {
        self.0.get()
    }
}
