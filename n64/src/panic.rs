//! Panic handler: logs `panic: <message> (<file>:<line>)` to the IS-Viewer
//! (the harness's contract), then shows libdragon's assertion screen with
//! the same text (its inspector: message, registers, backtrace), which
//! never returns.

use core::panic::PanicInfo;

use libdragon_sys as sys;
use ttt64_game::text::StrBuf;

use crate::global::Global;
use crate::log::MAX_LINE;

static PANICKING: Global<bool> = Global::new(false);

/// A NUL-terminated copy of `text` (cut to fit) for libdragon's C API.
fn c_string<const N: usize>(text: &str) -> [u8; N] {
    let mut out = [0u8; N];
    let len = text.len().min(N - 1);
    out[..len].copy_from_slice(&text.as_bytes()[..len]);
    out
}

#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    // SAFETY: single thread; a panic inside the panic handler stops here.
    unsafe {
        if *PANICKING.get() {
            loop {}
        }
        *PANICKING.get() = true;
    }
    let message = StrBuf::<MAX_LINE>::format(format_args!("{}", info.message()));
    let (file, line) = info
        .location()
        .map_or(("?", 0), |loc| (loc.file(), loc.line()));
    crate::log!("panic: {} ({file}:{line})", message.as_str());
    let file = c_string::<128>(file);
    let text = c_string::<256>(message.as_str());
    // SAFETY: both strings are NUL-terminated and outlive the call, which
    // never returns (libdragon's inspector takes over the screen); "%s"
    // takes exactly the one string argument passed.
    unsafe {
        sys::debug_assert_func_f(
            file.as_ptr().cast(),
            line as i32,
            c"rust".as_ptr(),
            core::ptr::null(),
            c"%s".as_ptr(),
            text.as_ptr(),
        )
    }
}
