//! Typed volatile access to memory-mapped registers: the one way this crate
//! names a hardware address (libdragon drives the rest of the hardware).

use core::marker::PhantomData;

/// A memory-mapped register of width `T` at a fixed (KSEG1) address.
#[derive(Clone, Copy)]
pub struct Reg<T: Copy> {
    addr: usize,
    _width: PhantomData<T>,
}

impl<T: Copy> Reg<T> {
    /// # Safety
    /// `addr` must be a register (or uncached memory) of width `T` that is
    /// valid to read and write at any time.
    pub const unsafe fn at(addr: usize) -> Self {
        Self {
            addr,
            _width: PhantomData,
        }
    }

    #[inline(always)]
    pub fn read(self) -> T {
        // SAFETY: `at`'s contract: a valid register of this width.
        unsafe { core::ptr::read_volatile(self.addr as *const T) }
    }

    #[inline(always)]
    pub fn write(self, value: T) {
        // SAFETY: as in `read`.
        unsafe { core::ptr::write_volatile(self.addr as *mut T, value) }
    }
}
