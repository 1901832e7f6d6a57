//! The games of `ttt arena --record` files, as the examples that replay
//! them with engines read them (`decisive_moments`, `false_wins`,
//! `blunders`).
use ttt_cli::engine::arena::record::{field, game_number};

/// One recorded game.
pub struct Game {
    /// Its number in the record (`?` if it has none).
    pub number: String,
    /// The players of X and O, as the record names them.
    pub players: [String; 2],
    /// `1-0`, `0-1`, `1/2-1/2` (`?` if missing).
    pub result: String,
    /// The moves, X first (square names such as `h8`), opening included.
    pub moves: Vec<String>,
    /// How many of the moves are the opening's.
    pub opening: usize,
}

/// The games of the record files at `paths`; a file that cannot be read
/// ends the program with a message naming `tool`.
pub fn read(paths: &[String], tool: &str) -> Vec<Game> {
    let mut games = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("{tool}: {path}: {e}");
            std::process::exit(1);
        });
        for line in text.lines() {
            let (Some(moves), Some(opening)) = (field(line, "moves"), field(line, "opening"))
            else {
                continue;
            };
            let named = |key| field(line, key).unwrap_or("?").to_string();
            games.push(Game {
                number: game_number(line).unwrap_or("?").to_string(),
                players: [named("x"), named("o")],
                result: line
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("result="))
                    .unwrap_or("?")
                    .to_string(),
                moves: moves.split_whitespace().map(String::from).collect(),
                opening: opening.split_whitespace().count(),
            });
        }
    }
    games
}
