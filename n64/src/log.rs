//! Debug lines to the IS-Viewer (what the test harness reads), through
//! libdragon's debug output: `debug_init_isviewer` routes the C library's
//! stderr to it, so a line is one `fwrite` to stderr, as `debugf` does.

use core::fmt::{self, Write};

use libdragon_sys as sys;
use ttt64_game::text::StrBuf;

/// Longest line kept (longer ones are cut).
pub const MAX_LINE: usize = 252;

/// One line being formatted, with room for its newline: newlines in the
/// text become spaces (one log line per call), and it is cut at
/// [`MAX_LINE`] bytes on a character boundary.
struct Line(StrBuf<{ MAX_LINE + 1 }>);

impl Write for Line {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // The pieces between newlines, each copied at once.
        for (i, piece) in s.split('\n').enumerate() {
            if i > 0 {
                self.push(" ");
            }
            self.push(piece);
        }
        Ok(())
    }
}

impl Line {
    /// Adds as much of `s` as fits in [`MAX_LINE`] bytes, whole characters.
    fn push(&mut self, s: &str) {
        let mut end = s.len().min(MAX_LINE.saturating_sub(self.0.len()));
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        let _ = self.0.write_str(s.get(..end).unwrap_or(""));
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
    let mut line = Line(StrBuf::new());
    let _ = line.write_fmt(args);
    let _ = line.0.write_char('\n');
    let text = line.0.as_str();
    // SAFETY: `text` is valid for its length; `_impure_ptr` is newlib's
    // current reentrancy structure (what the C `stderr` macro reads), set
    // up by newlib and libdragon before n64_start.
    unsafe {
        let stderr = (*sys::_impure_ptr)._stderr;
        sys::fwrite(text.as_ptr().cast(), 1, text.len() as _, stderr);
    }
}

/// `log!("fmt", args...)`: one IS-Viewer line.
#[macro_export]
macro_rules! log {
    ($($arg:tt)*) => {
        $crate::log::write_line(format_args!($($arg)*))
    };
}
