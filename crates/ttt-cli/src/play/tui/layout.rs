//! Where things go on the screen: the board's geometry for a terminal
//! size (and which cell a click hits), and the text around it fitted to
//! the width and the rows left.

use ttt_core::{Rules, Square};

/// Board geometry on screen, for drawing and for mouse clicks.
#[derive(Copy, Clone, Debug)]
pub(super) struct Layout {
    /// Screen column and row of the top-left corner of cell a1's text.
    pub(super) x0: u16,
    pub(super) y0: u16,
    /// Screen columns and rows from one cell to the next.
    pub(super) dx: u16,
    pub(super) dy: u16,
    /// Box-drawn (cells separated by lines) or compact (one row per line).
    pub(super) boxed: bool,
}

/// Lines of text besides the board: the title and a blank line above it;
/// the score, a message, the prompt and a note below it.
pub(super) const TEXT_LINES: u16 = 6;

/// The longest text the input line takes (a square is at most "16 16").
pub(super) const MAX_TYPED: usize = 12;

/// The compact board's needs: the smallest terminal that shows the board.
pub(super) fn min_size(rules: &Rules) -> (u16, u16) {
    let (c, r) = (rules.columns() as u16, rules.rows() as u16);
    (3 * c + 3, r + 1 + TEXT_LINES)
}

pub(super) fn layout(rules: &Rules, width: u16, height: u16) -> Option<Layout> {
    let (c, r) = (rules.columns() as u16, rules.rows() as u16);
    let (min_width, min_height) = min_size(rules);
    // Row labels take 3 columns; the title one line; headers one line.
    if width >= 4 * c + 5 && height >= 2 * r + 2 + TEXT_LINES {
        Some(Layout {
            x0: 5,
            y0: 3,
            dx: 4,
            dy: 2,
            boxed: true,
        })
    } else if width >= min_width && height >= min_height {
        Some(Layout {
            x0: 3,
            y0: 2,
            dx: 3,
            dy: 1,
            boxed: false,
        })
    } else {
        None
    }
}

impl Layout {
    /// The cell under screen position (`x`, `y`), if any.
    pub(super) fn cell_at(&self, rules: &Rules, x: u16, y: u16) -> Option<Square> {
        let (x, y) = (x.checked_sub(self.x0 - 1)?, y.checked_sub(self.y0)?);
        if self.boxed && y % self.dy != 0 {
            return None; // a horizontal rule between rows
        }
        let (c, r) = (x / self.dx, y / self.dy);
        if c >= rules.columns() as u16 || r >= rules.rows() as u16 {
            return None;
        }
        Square::new(c as u8, r as u8)
    }

    pub(super) fn height(&self, rules: &Rules) -> u16 {
        self.y0 + self.dy * rules.rows() as u16 - if self.boxed { 1 } else { 0 }
    }
}

/// At most `width` characters of `text`.
pub(super) fn clip(text: &str, width: u16) -> String {
    text.chars().take(width as usize).collect()
}

/// `text` in lines of at most `width` characters, broken at spaces (and
/// inside words longer than a line); `\n` starts a new line.
pub(super) fn wrap(text: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        let mut len = 0;
        for word in paragraph.split(' ').filter(|w| !w.is_empty()) {
            let mut word: Vec<char> = word.chars().collect();
            if len > 0 && len + 1 + word.len() > width {
                lines.push(std::mem::take(&mut line));
                len = 0;
            }
            if len > 0 {
                line.push(' ');
                len += 1;
            }
            while len + word.len() > width {
                let rest = word.split_off(width - len);
                line.extend(word);
                lines.push(std::mem::take(&mut line));
                len = 0;
                word = rest;
            }
            len += word.len();
            line.extend(word);
        }
        lines.push(line);
    }
    lines
}

/// The text under the board in `rows` lines of `width`: the score, the
/// message (wrapped), the prompt, the notes (wrapped). When rows run short
/// the message and then the notes lose their last lines, but one line of
/// each stays while there is room, and the prompt always.
pub(super) fn bottom_lines(
    score: &str,
    message: &str,
    prompt: &str,
    notes: &[String],
    width: u16,
    rows: u16,
) -> Vec<String> {
    let message = if message.is_empty() {
        Vec::new()
    } else {
        wrap(message, width)
    };
    let notes: Vec<String> = notes.iter().flat_map(|n| wrap(n, width)).collect();
    let mut rest = usize::from(rows).saturating_sub(2);
    let message_rows = message.len().min(rest.saturating_sub(notes.len().min(1)));
    rest -= message_rows;
    let note_rows = notes.len().min(rest);
    let mut lines = vec![clip(score, width)];
    lines.extend(message.into_iter().take(message_rows));
    lines.push(clip(prompt, width));
    lines.extend(notes.into_iter().take(note_rows));
    lines.truncate(usize::from(rows));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_and_clicks() {
        let rules = Rules::CLASSIC;
        let l = layout(&rules, 80, 24).unwrap();
        assert!(l.boxed);
        // The centre of b2's text.
        let b2 = rules.parse_square("b2").unwrap();
        assert_eq!(l.cell_at(&rules, l.x0 + l.dx, l.y0 + l.dy), Some(b2));
        assert_eq!(l.cell_at(&rules, 0, 0), None);
        let big = Rules::with_default_k(16, 16).unwrap();
        let l = layout(&big, 80, 24).unwrap();
        assert!(!l.boxed);
        assert!(layout(&big, 40, 10).is_none());
        // 20x20: the compact board needs 63 columns and 27 lines (the board,
        // its labels and six lines of text); on 80x24 the screen asks for a
        // larger terminal.
        let twenty = Rules::with_default_k(20, 20).unwrap();
        assert!(layout(&twenty, 80, 26).is_none());
        let l = layout(&twenty, 80, 27).unwrap();
        assert!(!l.boxed);
        assert_eq!(l.height(&twenty), 22);
        assert!(layout(&twenty, 80, 24).is_none());
        assert!(layout(&twenty, 62, 30).is_none());
        let t20 = twenty.parse_square("t20").unwrap();
        assert_eq!(
            l.cell_at(&twenty, l.x0 + 19 * l.dx, l.y0 + 19 * l.dy),
            Some(t20)
        );
    }

    #[test]
    fn wrapping_fits_any_width() {
        let text = "Too small for the board: enlarge the terminal to 51x23. q quits.";
        for width in [1u16, 5, 10, 40, 80] {
            let lines = wrap(text, width);
            assert!(lines
                .iter()
                .all(|l| l.chars().count() <= usize::from(width)));
            // Nothing is lost: the words come back joined.
            let joined: String = lines.concat().split_whitespace().collect();
            let words: String = text.split_whitespace().collect();
            assert_eq!(joined, words, "width {width}");
        }
        assert_eq!(
            wrap(text, 10)[..4],
            ["Too small", "for the", "board:", "enlarge"]
        );
        assert_eq!(wrap("ab\ncd", 80), ["ab", "cd"]);
    }

    #[test]
    fn text_under_the_board_keeps_the_prompt_and_a_note() {
        let notes = vec!["Note: a long note that needs two lines here.".to_string()];
        let lines = bottom_lines("score", "one two three", "prompt", &notes, 20, 3);
        assert_eq!(lines, ["score", "prompt", "Note: a long note"]);
        let lines = bottom_lines("score", "one two three", "prompt", &notes, 20, 5);
        assert_eq!(
            lines,
            [
                "score",
                "one two three",
                "prompt",
                "Note: a long note",
                "that needs two lines"
            ]
        );
        let lines = bottom_lines("score", "", "prompt", &[], 20, 10);
        assert_eq!(lines, ["score", "prompt"]);
    }
}
