//! Debug lines to the IS-Viewer (what the test harness reads), through
//! libdragon's debug output: `debug_init_isviewer` routes the C library's
//! stderr to it, so a line is one `fwrite` to stderr, as `debugf` does.

use core::fmt::{self, Write};

use libdragon_sys as sys;

/// Longest line kept (longer ones are cut).
pub const MAX_LINE: usize = 252;

/// One line being formatted, on the stack (no allocator).
pub struct Line {
    buf: [u8; MAX_LINE + 1],
    len: usize,
}

impl Line {
    pub const fn new() -> Self {
        Self {
            buf: [0; MAX_LINE + 1],
            len: 0,
        }
    }

    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("?")
    }
}

impl Default for Line {
    fn default() -> Self {
        Self::new()
    }
}

impl Write for Line {
    /// Appends `s`, newlines turned into spaces (one log line per call),
    /// cut at [`MAX_LINE`] bytes on a character boundary.
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            let c = if c == '\n' { ' ' } else { c };
            let mut tmp = [0u8; 4];
            let enc = c.encode_utf8(&mut tmp).as_bytes();
            if self.len + enc.len() > MAX_LINE {
                return Ok(());
            }
            self.buf[self.len..self.len + enc.len()].copy_from_slice(enc);
            self.len += enc.len();
        }
        Ok(())
    }
}

/// Routes stderr to the IS-Viewer if one answers (on a console without a
/// development cartridge the lines go nowhere).
pub fn init() {
    // SAFETY: debug_init_isviewer probes the IS-Viewer's memory on the PI
    // bus and installs libdragon's stderr hook; called once at boot.
    unsafe { sys::debug_init_isviewer() };
}

/// Writes one line (a newline is added).
pub fn write_line(args: fmt::Arguments) {
    let mut line = Line::new();
    let _ = line.write_fmt(args);
    line.buf[line.len] = b'\n';
    let len = line.len + 1;
    // SAFETY: the buffer holds `len` initialised bytes; `_impure_ptr` is
    // newlib's current reentrancy structure (what the C `stderr` macro
    // reads), set up by newlib and libdragon before n64_start.
    unsafe {
        let stderr = (*sys::_impure_ptr)._stderr;
        sys::fwrite(line.buf.as_ptr().cast(), 1, len as _, stderr);
    }
}

/// `log!("fmt", args...)`: one IS-Viewer line.
#[macro_export]
macro_rules! log {
    ($($arg:tt)*) => {
        $crate::log::write_line(format_args!($($arg)*))
    };
}
