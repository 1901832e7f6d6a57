//! A fixed-capacity string for formatting without an allocator.

use core::fmt;

/// Up to `N` bytes of text; writes past the end are dropped (whole
/// characters only), never a panic.
#[derive(Clone, Copy)]
pub struct StrBuf<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> StrBuf<N> {
    /// Empty.
    pub const fn new() -> Self {
        StrBuf {
            buf: [0; N],
            len: 0,
        }
    }

    /// The text so far.
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(self.buf.get(..self.len).unwrap_or(&[])).unwrap_or("")
    }

    /// Bytes of text so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No text so far.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the buffer.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Formats `args` into a new buffer.
    pub fn format(args: fmt::Arguments<'_>) -> Self {
        let mut s = Self::new();
        let _ = fmt::write(&mut s, args);
        s
    }
}

impl<const N: usize> Default for StrBuf<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> fmt::Write for StrBuf<N> {
    /// Copies as much of `s` as fits, whole characters only (at once: the
    /// console formats some fifty texts a frame).
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let mut end = s.len().min(N.saturating_sub(self.len));
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        if let (Some(dst), Some(src)) = (
            self.buf.get_mut(self.len..self.len + end),
            s.as_bytes().get(..end),
        ) {
            dst.copy_from_slice(src);
            self.len += end;
        }
        Ok(())
    }
}

impl<const N: usize> fmt::Debug for StrBuf<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize> fmt::Display for StrBuf<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
