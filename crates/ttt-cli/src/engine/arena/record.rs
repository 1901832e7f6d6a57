//! Game records: one line per game, written as each game ends.
//!
//! `game=3 x="pbrain-ttt" o="strong" opening="h8 i9 g7" moves="h8 i9 g7 j10 ..."
//! result=1-0 reason="five in a row"`: squares in coordinate notation
//! (column letter, row number from the top: h8 is the protocol's 7,7), the
//! moves including the opening's stones, the result as in PGN (1-0: X won,
//! 0-1: O won, 1/2-1/2: a draw). Strings are quoted with `\"` and `\\`
//! escaped, so a line splits without ambiguity.
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use ttt_core::{Mark, Rules, Square, SquareFormat};

use crate::output_file::create_in_place;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `winner` completed a line.
    Line(Mark),
    /// The board filled up.
    Full,
    /// `loser` forfeited: the message says why.
    Forfeit {
        /// The side that forfeited.
        loser: Mark,
        /// Why, e.g. "timeout: no move after 1203 ms (limit 1000 ms + 200 ms grace)".
        message: String,
    },
}

impl Ending {
    /// The winning side, if any.
    pub fn winner(&self) -> Option<Mark> {
        match self {
            Ending::Line(mark) => Some(*mark),
            Ending::Full => None,
            Ending::Forfeit { loser, .. } => Some(loser.other()),
        }
    }

    /// The PGN-style result.
    pub fn result(&self) -> &'static str {
        match self.winner() {
            Some(Mark::X) => "1-0",
            Some(Mark::O) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// Why the game ended, in words.
    pub fn reason(&self) -> String {
        match self {
            Ending::Line(mark) => format!("{mark} completed a line"),
            Ending::Full => "the board is full".to_string(),
            Ending::Forfeit { loser, message } => format!("{loser} forfeits: {message}"),
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord<'a> {
    /// 1-based game number.
    pub number: u32,
    /// Who had X.
    pub x: &'a str,
    /// Who had O.
    pub o: &'a str,
    /// The opening's stones (X first, alternating).
    pub opening: &'a [Square],
    /// Every move of the game, the opening's included.
    pub moves: &'a [Square],
    /// How it ended.
    pub ending: &'a Ending,
}

/// `squares` in coordinate notation, separated by spaces.
pub fn squares_text(rules: &Rules, squares: &[Square]) -> String {
    let mut text = String::new();
    for (i, &sq) in squares.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        let _ = write!(text, "{}", rules.display_square(sq, SquareFormat::Coord));
    }
    text
}

/// The text of the quoted field `name` of a record line (`moves`,
/// `opening`, `x`, `rules`, ...), as [`GameRecord::line`] writes it; `None`
/// when the line has no such field. A field holding an escaped `"` (an
/// engine command may) is cut there: the moves and rules never hold one.
pub fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = line.find(&key)? + key.len();
    let end = line[start..].find('"')? + start;
    Some(&line[start..end])
}

/// The game number of a record line (its first field, unquoted).
pub fn game_number(line: &str) -> Option<&str> {
    line.strip_prefix("game=")?.split_whitespace().next()
}

/// `text` in double quotes with `"` and `\` escaped and control characters
/// as `?` (a record is one line).
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push('?'),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl GameRecord<'_> {
    /// The record line (without its end of line).
    pub fn line(&self, rules: &Rules) -> String {
        format!(
            "game={} rules={} x={} o={} opening={} moves={} result={} reason={}",
            self.number,
            quoted(&rules.to_string()),
            quoted(self.x),
            quoted(self.o),
            quoted(&squares_text(rules, self.opening)),
            quoted(&squares_text(rules, self.moves)),
            self.ending.result(),
            quoted(&self.ending.reason()),
        )
    }
}

/// The file the records go to: each line is flushed as the game ends, so a
/// match stopped early keeps the games it played.
pub struct RecordFile {
    out: BufWriter<File>,
    path: PathBuf,
}

impl RecordFile {
    /// Creates (or empties) the file given with `--record`, written in
    /// place (see [`create_in_place`]: a FIFO or a terminal takes the lines
    /// as they come).
    pub fn create(path: &Path) -> anyhow::Result<RecordFile> {
        Ok(RecordFile {
            out: BufWriter::new(create_in_place(path, "--record")?),
            path: path.to_path_buf(),
        })
    }

    /// Where the records go, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one game.
    pub fn write(&mut self, rules: &Rules, record: &GameRecord<'_>) -> io::Result<()> {
        writeln!(self.out, "{}", record.line(rules))?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_back_from_a_line() {
        let line = r#"game=3 rules="15x15 k=5" x="a/pbrain-ttt" o="b" opening="k10 k5" moves="k10 k5 g10" result=0-1"#;
        assert_eq!(game_number(line), Some("3"));
        assert_eq!(field(line, "x"), Some("a/pbrain-ttt"));
        assert_eq!(field(line, "o"), Some("b"));
        assert_eq!(field(line, "opening"), Some("k10 k5"));
        assert_eq!(field(line, "moves"), Some("k10 k5 g10"));
        assert_eq!(field(line, "rules"), Some("15x15 k=5"));
        assert_eq!(field(line, "reason"), None);
        assert_eq!(game_number("moves=\"h8\""), None);
    }

    #[test]
    fn a_record_line_names_the_moves_result_and_reason() {
        let rules = Rules::new(15, 15, 5).unwrap();
        let sq = |c, r| Square::new(c, r).unwrap();
        let moves = [sq(7, 7), sq(8, 8), sq(6, 6), sq(0, 14)];
        let ending = Ending::Forfeit {
            loser: Mark::X,
            message: "illegal move \"7,7\"".to_string(),
        };
        let record = GameRecord {
            number: 4,
            x: "sh -c \"x\"",
            o: "strong",
            opening: &moves[..3],
            moves: &moves,
            ending: &ending,
        };
        let line = record.line(&rules);
        assert_eq!(
            line,
            "game=4 rules=\"15x15 k=5\" x=\"sh -c \\\"x\\\"\" o=\"strong\" opening=\"h8 i9 g7\" \
             moves=\"h8 i9 g7 a15\" result=0-1 reason=\"X forfeits: illegal move \\\"7,7\\\"\""
        );
        assert_eq!(Ending::Line(Mark::X).result(), "1-0");
        assert_eq!(Ending::Full.result(), "1/2-1/2");
        assert_eq!(quoted("a\nb"), "\"a?b\"");
    }
}
