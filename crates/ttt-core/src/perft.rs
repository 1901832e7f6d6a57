//! Exhaustive game-tree counts, the m,n,k version of chess "perft": exact
//! numbers that prove the move generator and the win check.
use crate::{Mark, Outcome, Position};

/// How many complete games end each way.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct GameCounts {
    /// Games won by X.
    pub x_wins: u64,
    /// Games won by O.
    pub o_wins: u64,
    /// Drawn games.
    pub draws: u64,
}

impl GameCounts {
    /// All complete games.
    pub fn total(&self) -> u64 {
        self.x_wins + self.o_wins + self.draws
    }
}

/// Counts every complete game from `pos` (a game ends at the first line or a
/// full board). 3x3 from the empty board: 255,168 games.
pub fn count_games(pos: &mut Position) -> GameCounts {
    let mut counts = GameCounts::default();
    walk(pos, &mut counts);
    counts
}

fn walk(pos: &mut Position, counts: &mut GameCounts) {
    match pos.outcome() {
        Outcome::Win(Mark::X) => counts.x_wins += 1,
        Outcome::Win(Mark::O) => counts.o_wins += 1,
        Outcome::Draw => counts.draws += 1,
        Outcome::InProgress => {
            for sq in pos.legal_moves() {
                // The square comes from legal_moves, so play cannot fail.
                if pos.play(sq).is_ok() {
                    walk(pos, counts);
                    pos.undo();
                }
            }
        }
    }
}

/// Number of move sequences of exactly `depth` plies from `pos` (sequences
/// that end the game earlier are not counted), as in chess perft.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for sq in pos.legal_moves() {
        if pos.play(sq).is_ok() {
            nodes += perft(pos, depth - 1);
            pos.undo();
        }
    }
    nodes
}
