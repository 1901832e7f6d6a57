//! Parsing the manager's lines: one [`Command`] per line, BOARD lines apart.
use std::fmt;

/// A command from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START N`: a new game on an N x N board.
    Start(u32),
    /// `RECTSTART W,H`: a new game on a W-column, H-row board.
    RectStart(u32, u32),
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the brain plays first.
    Begin,
    /// `TURN x,y`: the opponent's move; answer with ours.
    Turn(u32, u32),
    /// `BOARD`: a position follows, one `x,y,field` per line, then `DONE`.
    Board,
    /// `PLAY x,y`: the brain must play this move (and answer it).
    Play(u32, u32),
    /// `TAKEBACK x,y`: undo the stone at x,y.
    Takeback(u32, u32),
    /// `INFO key value`.
    Info(String, String),
    /// `ABOUT`: describe the brain.
    About,
    /// `END`: exit.
    End,
    /// A blank line: ignored.
    Blank,
    /// A command word this brain does not know (the whole line).
    Unknown(String),
    /// A known command with arguments it cannot read.
    Malformed(String),
}

/// One line inside BOARD .. DONE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardLine {
    /// `x,y,field`.
    Stone(u32, u32, u32),
    /// `DONE`.
    Done,
    /// `END` (the manager gave up on us).
    End,
    /// A blank line.
    Blank,
    /// Anything else.
    Bad(String),
}

/// A problem with the manager's input, written after `ERROR `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError(pub String);

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Splits `line` into its upper-cased command word and the rest.
fn split_word(line: &str) -> (String, &str) {
    let line = line.trim();
    match line.find(char::is_whitespace) {
        Some(i) => (line[..i].to_ascii_uppercase(), line[i..].trim()),
        None => (line.to_ascii_uppercase(), ""),
    }
}

/// The arguments of a command line as sent (after the command word,
/// trimmed): quoted in answers, so a number too large to read is echoed as
/// it was written, not as the largest number it was read as.
pub fn arguments(line: &str) -> &str {
    split_word(line).1
}

/// Reads a non-negative decimal number (up to u32; larger, however many
/// digits, saturates so the range check can report it).
fn number(text: &str) -> Option<u32> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse::<u32>().unwrap_or(u32::MAX))
}

/// Reads `a,b` (spaces allowed around the numbers).
pub fn pair(text: &str) -> Option<(u32, u32)> {
    let (a, b) = text.split_once(',')?;
    Some((number(a)?, number(b)?))
}

/// Reads one command line.
pub fn parse_command(line: &str) -> Command {
    let (word, rest) = split_word(line);
    let malformed = || Command::Malformed(line.trim().to_string());
    match word.as_str() {
        "" => Command::Blank,
        "START" => number(rest).map_or_else(malformed, Command::Start),
        "RECTSTART" => pair(rest).map_or_else(malformed, |(w, h)| Command::RectStart(w, h)),
        "RESTART" => Command::Restart,
        "BEGIN" => Command::Begin,
        "TURN" => pair(rest).map_or_else(malformed, |(x, y)| Command::Turn(x, y)),
        "BOARD" => Command::Board,
        "PLAY" => pair(rest).map_or_else(malformed, |(x, y)| Command::Play(x, y)),
        "TAKEBACK" => pair(rest).map_or_else(malformed, |(x, y)| Command::Takeback(x, y)),
        "INFO" => {
            let (key, value) = split_word(rest);
            Command::Info(key.to_ascii_lowercase(), value.to_string())
        }
        "ABOUT" => Command::About,
        "END" => Command::End,
        _ => Command::Unknown(line.trim().to_string()),
    }
}

/// Whether a line read while the brain thinks ends that turn: `END`, or a
/// new game or position (`START`, `RECTSTART`, `RESTART`, `BOARD`). A
/// manager sends these without waiting for the move (the user started a new
/// game, or the match is over) and ignores a move that comes after them.
/// Anything else (`INFO time_left`, garbage) waits for the move.
pub fn interrupts_thinking(line: &str) -> bool {
    matches!(
        parse_command(line),
        Command::End
            | Command::Start(_)
            | Command::RectStart(..)
            | Command::Restart
            | Command::Board
    )
}

/// Reads one line between BOARD and DONE.
pub fn parse_board_line(line: &str) -> BoardLine {
    let text = line.trim();
    match text.to_ascii_uppercase().as_str() {
        "" => return BoardLine::Blank,
        "DONE" => return BoardLine::Done,
        "END" => return BoardLine::End,
        _ => {}
    }
    let mut parts = text.split(',');
    let mut next = || parts.next().and_then(number);
    match (next(), next(), next(), parts.next()) {
        (Some(x), Some(y), Some(f), None) => BoardLine::Stone(x, y, f),
        _ => BoardLine::Bad(text.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        assert_eq!(parse_command("START 15"), Command::Start(15));
        assert_eq!(parse_command("start 15\r"), Command::Start(15));
        assert_eq!(parse_command("RECTSTART 20,15"), Command::RectStart(20, 15));
        assert_eq!(parse_command("TURN 10, 7"), Command::Turn(10, 7));
        assert_eq!(parse_command("TAKEBACK 1,2"), Command::Takeback(1, 2));
        assert_eq!(parse_command("PLAY 3,4"), Command::Play(3, 4));
        assert_eq!(
            parse_command("INFO timeout_turn 5000"),
            Command::Info("timeout_turn".into(), "5000".into())
        );
        assert_eq!(
            parse_command("INFO folder C:\\x y"),
            Command::Info("folder".into(), "C:\\x y".into())
        );
        assert_eq!(parse_command(""), Command::Blank);
        assert_eq!(parse_command("   "), Command::Blank);
        assert_eq!(parse_command("FOO bar"), Command::Unknown("FOO bar".into()));
        assert_eq!(parse_command("START"), Command::Malformed("START".into()));
        assert_eq!(
            parse_command("START -1"),
            Command::Malformed("START -1".into())
        );
        assert_eq!(parse_command("TURN 1"), Command::Malformed("TURN 1".into()));
        assert_eq!(
            parse_command("TURN a,b"),
            Command::Malformed("TURN a,b".into())
        );
        assert_eq!(
            parse_command("START 99999999999999999999"),
            Command::Start(u32::MAX)
        );
    }

    #[test]
    fn what_interrupts_thinking() {
        for line in [
            "END",
            "end\r",
            "START 15",
            "RECTSTART 20,15",
            "RESTART",
            "BOARD",
        ] {
            assert!(interrupts_thinking(line), "{line}");
        }
        for line in [
            "INFO time_left 1000",
            "TURN 1,1",
            "START x",
            "ENDX",
            "",
            "ABOUT",
        ] {
            assert!(!interrupts_thinking(line), "{line}");
        }
    }

    #[test]
    fn board_lines() {
        assert_eq!(parse_board_line("7,7,1"), BoardLine::Stone(7, 7, 1));
        assert_eq!(parse_board_line(" 7 , 8 , 2 "), BoardLine::Stone(7, 8, 2));
        assert_eq!(parse_board_line("done"), BoardLine::Done);
        assert_eq!(parse_board_line("7,7"), BoardLine::Bad("7,7".into()));
        assert_eq!(
            parse_board_line("7,7,1,1"),
            BoardLine::Bad("7,7,1,1".into())
        );
        assert_eq!(parse_board_line("x,y,z"), BoardLine::Bad("x,y,z".into()));
    }
}
