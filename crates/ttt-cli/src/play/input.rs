//! What a person types during a game, and the answers to its commands, in
//! both views.
use ttt_core::{Rules, Square};

use super::session::Undone;

/// One line of input at the move prompt.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Place a mark.
    Play(Square),
    /// Leave the program.
    Quit,
    /// Take back your last move (and the computer's reply).
    Undo,
    /// Ask for a hint.
    Hint,
    /// Show the commands.
    Help,
}

/// Reads a move in any notation (`5`, `b2`, `2 2`) or a command (`q`, `u`,
/// `h`, `?`). The error says what was wrong, for the prompt to show.
pub fn parse_action(rules: &Rules, text: &str) -> Result<Action, String> {
    let t = text.trim().to_ascii_lowercase();
    match t.as_str() {
        "" => return Err("Please type a square (? shows help).".into()),
        "q" | "quit" | "exit" => return Ok(Action::Quit),
        "u" | "undo" => return Ok(Action::Undo),
        "h" | "hint" => return Ok(Action::Hint),
        "?" | "help" => return Ok(Action::Help),
        _ => {}
    }
    rules
        .parse_square(&t)
        .map(Action::Play)
        .map_err(|e| format!("Invalid move: {e}."))
}

/// How to name a square on this board, the first line of both views' help.
pub fn squares_help(rules: &Rules) -> String {
    let last = rules.cell_count();
    let last_col = (b'a' + rules.columns() - 1) as char;
    format!(
        "Type a square number (1 to {last}, row by row from the top left), a coordinate \
         (a1 to {last_col}{rows}: column letter, then row number) or a row and column (\"2 3\").",
        rows = rules.rows()
    )
}

/// The line view's help, shown by `?`.
pub fn help_text(rules: &Rules) -> String {
    format!(
        "{}\nCommands: u undoes your last move, h gives a hint, q quits.",
        squares_help(rules)
    )
}

/// What `u` did, as both views say it.
pub fn undo_message(undone: Undone) -> &'static str {
    match undone {
        Undone::Nothing => "There is no move of yours to undo.",
        Undone::Moves(1) => "Took back the last move.",
        // Against the computer: back to your turn, before your last move.
        Undone::Moves(_) => "Took back your last move and my reply.",
    }
}

/// Answer to a yes/no question.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// y, yes.
    Yes,
    /// n, no.
    No,
    /// r, random (only where offered).
    Random,
    /// q, quit.
    Quit,
}

/// Reads y/n (and r, q); `None` for anything else.
pub fn parse_answer(text: &str) -> Option<Answer> {
    match text.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" | "1" => Some(Answer::Yes),
        "n" | "no" | "0" => Some(Answer::No),
        "r" | "random" => Some(Answer::Random),
        "q" | "quit" | "exit" => Some(Answer::Quit),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_moves() {
        let rules = Rules::CLASSIC;
        assert_eq!(parse_action(&rules, " Q "), Ok(Action::Quit));
        assert_eq!(parse_action(&rules, "h"), Ok(Action::Hint));
        assert_eq!(
            parse_action(&rules, "b2"),
            Ok(Action::Play(rules.parse_square("5").unwrap()))
        );
        assert!(parse_action(&rules, "").is_err());
        assert!(parse_action(&rules, "10").unwrap_err().contains("1 to 9"));
        assert!(parse_action(&rules, "zz").is_err());
    }
}
