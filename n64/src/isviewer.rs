//! IS-Viewer 64 debug output, as emulated by mupen64plus and others: the text
//! goes to the cartridge-space buffer at 0xB3FF0020 (written in 32-bit words,
//! the only width the PI bus takes), then its length to 0xB3FF0014. The
//! emulator prints each "\n"-terminated line (mupen64plus: `IS64: <text>`).
//!
//! Contract with the test harness: one [`log!`](crate::log) call = one write
//! = one line, always terminated with "\n".
//!
//! On a console the writes go over the PI bus, one at a time
//! ([`crate::pi::write_u32`] waits for an idle PI before each): without a
//! flashcart that emulates the IS-Viewer they land in ROM space and change
//! nothing.

use core::fmt::{self, Write};

use crate::pi;

const BUFFER: usize = 0xB3FF_0020;
/// IS-Viewer length register in cartridge space, 32-bit.
const LENGTH: usize = 0xB3FF_0014;
/// Longest line sent; longer messages are cut (the emulator buffer is 4 KiB).
pub const MAX_LINE: usize = 252;

/// A line being assembled (text + final "\n").
pub struct Line {
    buf: [u8; MAX_LINE + 4],
    len: usize,
}

impl Line {
    pub const fn new() -> Self {
        Self {
            buf: [0; MAX_LINE + 4],
            len: 0,
        }
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    pub fn as_str(&self) -> &str {
        // Only whole UTF-8 chars are appended (see write_str).
        core::str::from_utf8(self.as_bytes()).unwrap_or("?")
    }
}

impl Default for Line {
    fn default() -> Self {
        Self::new()
    }
}

impl Write for Line {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            // Newlines inside a message would split it into two lines.
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

/// Sends one line ("\n" appended) to the IS-Viewer.
pub fn write_line(args: fmt::Arguments) {
    let mut line = Line::new();
    let _ = line.write_fmt(args);
    send(&line);
}

fn send(line: &Line) {
    let mut bytes = [0u8; MAX_LINE + 4];
    let text = line.as_bytes();
    bytes[..text.len()].copy_from_slice(text);
    bytes[text.len()] = b'\n';
    let len = text.len() + 1;
    for (i, word) in bytes[..len.div_ceil(4) * 4].chunks_exact(4).enumerate() {
        let value = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        // SAFETY: IS-Viewer buffer words 0xB3FF0020.., inside its 4 KiB
        // window in cartridge space.
        unsafe { pi::write_u32(BUFFER + 4 * i, value) };
    }
    // SAFETY: the IS-Viewer length word in cartridge space.
    unsafe { pi::write_u32(LENGTH, len as u32) };
}

/// `log!("pad {} connected", port)`: one IS-Viewer line.
#[macro_export]
macro_rules! log {
    ($($arg:tt)*) => {
        $crate::isviewer::write_line(format_args!($($arg)*))
    };
}
