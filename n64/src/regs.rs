//! Typed, volatile access to memory-mapped hardware registers.
//!
//! A [`Reg`] is an address plus a width; it can only be created with
//! `unsafe` ([`Reg::at`]), which is where the one promise is made: the
//! address is a real register of that width. Reading and writing are then
//! safe. Register addresses are KSEG1 (uncached) addresses.

use core::marker::PhantomData;

/// A memory-mapped register holding a `T` (u8, u16 or u32).
#[derive(Clone, Copy)]
pub struct Reg<T: Copy> {
    addr: usize,
    _width: PhantomData<T>,
}

impl<T: Copy> Reg<T> {
    /// # Safety
    /// `addr` must be the uncached address of a hardware register (or RAM)
    /// that may be accessed with `T`'s width at any time, without other
    /// preconditions than the ones documented on each register.
    pub const unsafe fn at(addr: usize) -> Self {
        Self {
            addr,
            _width: PhantomData,
        }
    }

    /// Reads the register.
    #[inline(always)]
    pub fn read(self) -> T {
        // SAFETY: `at` was promised a valid register address of this width.
        unsafe { core::ptr::read_volatile(self.addr as *const T) }
    }

    /// Writes the register.
    #[inline(always)]
    pub fn write(self, value: T) {
        // SAFETY: as for `read`.
        unsafe { core::ptr::write_volatile(self.addr as *mut T, value) }
    }

    /// Address of the register.
    pub const fn addr(self) -> usize {
        self.addr
    }
}

/// Uncached (KSEG1) address of a physical address.
pub const fn kseg1(physical: usize) -> usize {
    physical | 0xA000_0000
}

/// Physical address of a KSEG0/KSEG1 pointer.
pub fn physical<T>(ptr: *const T) -> u32 {
    (ptr as usize as u32) & 0x1FFF_FFFF
}

/// MIPS Interface: interrupt lines of the RCP.
pub mod mi {
    use super::Reg;
    /// MI_INTERRUPT: pending RCP interrupts (bit 3 = VI), whether or not
    /// they are masked or the CPU takes interrupts.
    // SAFETY: MI register at 0x04300008, 32-bit.
    pub const INTERRUPT: Reg<u32> = unsafe { Reg::at(0xA430_0008) };
    pub const INTERRUPT_VI: u32 = 1 << 3;
    /// MI_MASK: which RCP interrupts raise the CPU's IP2. Writes take
    /// clear/set bit pairs per source (SP, SI, AI, VI, PI, DP).
    // SAFETY: MI register at 0x0430000C, 32-bit.
    pub const MASK: Reg<u32> = unsafe { Reg::at(0xA430_000C) };
    /// MI_MASK write: clear every source.
    pub const MASK_CLEAR_ALL: u32 = 0x0555;
    /// MI_MASK write: enable the VI.
    pub const MASK_SET_VI: u32 = 1 << 7;
}
