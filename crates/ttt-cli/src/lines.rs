//! Reading input a line at a time with a bound on what is kept: the
//! readers of boards, certificates, engine output and protocol commands
//! all go through here, so memory stays flat whatever is piped in.
use std::io::{self, BufRead};

/// The longest input line any reader accepts: far more than any real line
/// (a 20x20 board is about 420 bytes), small enough that memory stays flat
/// whatever is piped in.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line read by [`read_line_bounded`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line, without its end of line.
    Text(Vec<u8>),
    /// A line over [`MAX_LINE_BYTES`]: its start (for the message) and its
    /// length; the rest was read and dropped.
    TooLong {
        /// The first bytes of the line.
        start: Vec<u8>,
        /// The length of the whole line in bytes.
        length: u64,
    },
    /// End of input.
    End,
}

/// Reads one line (up to `\n`, or to the end of input) keeping at most
/// [`MAX_LINE_BYTES`] of it in memory: a longer line is read to its end and
/// dropped, so the next call starts at the next line.
pub fn read_line_bounded(input: &mut dyn BufRead) -> io::Result<Line> {
    read_line_limited(input, true)
}

/// [`read_line_bounded`] for input that is refused at its first long line
/// (a file): stops reading as soon as the line passes [`MAX_LINE_BYTES`],
/// so a file without line ends (`/dev/zero`) is refused at once instead of
/// read forever. The length of [`Line::TooLong`] is then what was read.
pub fn read_line_capped(input: &mut dyn BufRead) -> io::Result<Line> {
    read_line_limited(input, false)
}

fn read_line_limited(input: &mut dyn BufRead, read_to_end_of_line: bool) -> io::Result<Line> {
    let mut kept = Vec::new();
    let mut length: u64 = 0;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break; // end of input
        }
        any = true;
        let (part, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], true),
            None => (chunk, false),
        };
        let room = (MAX_LINE_BYTES + 1).saturating_sub(kept.len());
        kept.extend_from_slice(&part[..part.len().min(room)]);
        length += part.len() as u64;
        let used = part.len() + usize::from(ends);
        input.consume(used);
        if ends || (!read_to_end_of_line && length > MAX_LINE_BYTES as u64 + 1) {
            break;
        }
    }
    if !any {
        return Ok(Line::End);
    }
    if kept.last() == Some(&b'\r') && length <= MAX_LINE_BYTES as u64 + 1 {
        kept.pop();
        length -= 1;
    }
    if length > MAX_LINE_BYTES as u64 {
        // Enough bytes for the quoted characters and the sign that more follow.
        kept.truncate((QUOTE_CHARS + 1) * 4);
        return Ok(Line::TooLong {
            start: kept,
            length,
        });
    }
    Ok(Line::Text(kept))
}

/// How many characters of an input line an error message quotes.
pub const QUOTE_CHARS: usize = 60;

/// Input text for an error message: one line, control characters as `?`,
/// at most [`QUOTE_CHARS`] characters (then `...`).
pub fn quote_short(text: &str) -> String {
    let mut s: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(QUOTE_CHARS)
        .collect();
    if text.chars().nth(QUOTE_CHARS).is_some() {
        s.push_str("...");
    }
    s
}

/// The message for a line over [`MAX_LINE_BYTES`].
pub fn too_long_message(start: &[u8], length: u64) -> String {
    format!(
        "the line is too long ({length} bytes, at most {MAX_LINE_BYTES}): \"{}\"",
        quote_short(&String::from_utf8_lossy(start))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_dropped_and_the_next_line_is_read() {
        let long = "a".repeat(MAX_LINE_BYTES * 3);
        let text = format!("x........\r\n{long}\nnext\nlast");
        let mut input = io::BufReader::with_capacity(1000, io::Cursor::new(text));
        assert_eq!(
            read_line_bounded(&mut input).unwrap(),
            Line::Text(b"x........".to_vec())
        );
        match read_line_bounded(&mut input).unwrap() {
            Line::TooLong { start, length } => {
                assert!(start.len() < 300);
                assert_eq!(length, long.len() as u64);
                let message = too_long_message(&start, length);
                assert!(message.ends_with("aaa...\""), "{message}");
                assert!(message.len() < 150, "{message}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            read_line_bounded(&mut input).unwrap(),
            Line::Text(b"next".to_vec())
        );
        assert_eq!(
            read_line_bounded(&mut input).unwrap(),
            Line::Text(b"last".to_vec())
        );
        assert_eq!(read_line_bounded(&mut input).unwrap(), Line::End);
        let exactly = "b".repeat(MAX_LINE_BYTES);
        let mut input = io::Cursor::new(format!("{exactly}\n"));
        assert_eq!(
            read_line_bounded(&mut input).unwrap(),
            Line::Text(exactly.into_bytes())
        );
    }
}
