//! A series of games between the same two sides: who sits on each side, who
//! opens each game, and the score. Both frontends (the `ttt` program and the
//! console game) play their sessions through it.
//!
//! Side one is you (against the computer), player 1 or computer 1; side two
//! is the computer, player 2 or computer 2. Whoever opens a game plays X, as
//! in the seeds ("Whoever goes first is the X player"). The [`Score`] counts
//! side one's wins and losses and the draws.
//!
//! Randomness is seeded: [`First::Random`] tosses a [`Coin`] made from a
//! seed, so the same seed opens the same games.
//!
//! ```
//! use ttt_core::ai::PlayerKind;
//! use ttt_core::series::{Coin, First, GameResult, Players, Seat, Series, Side};
//! use ttt_core::{Mark, Position, Rules};
//!
//! let players = Players::HumanVsComputer(PlayerKind::Classic);
//! let mut series = Series::new(players, First::Alternate);
//! let mut coin = Coin::new(7);
//!
//! // Game 1: you open, so you are X.
//! let opener = series.next_opener(&mut coin);
//! let lineup = series.start_game(opener);
//! assert_eq!(lineup.seat(Mark::X), Seat::Human);
//!
//! let mut pos = Position::new(Rules::CLASSIC);
//! for square in ["1", "4", "2", "5", "3"] {
//!     pos.play(pos.rules().parse_square(square).unwrap()).unwrap();
//! }
//! assert_eq!(series.finish_game(pos.outcome()), Some(GameResult::Win(Side::One)));
//! assert_eq!(series.score().to_string(), "1-0-0");
//!
//! // Game 2: the computer opens and plays X.
//! let lineup = series.start_game(series.next_opener(&mut coin));
//! assert_eq!(lineup.seat(Mark::X), Seat::Computer(PlayerKind::Classic));
//! ```
use core::fmt;
use core::str::FromStr;

use crate::ai::PlayerKind;
use crate::rng::Rng;
use crate::{Mark, Outcome, Position};

/// One of the two sides of a series.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// You, player 1 or computer 1.
    One,
    /// The computer, player 2 or computer 2.
    Two,
}

impl Side {
    /// Both sides, side one first.
    pub const BOTH: [Side; 2] = [Side::One, Side::Two];

    /// 0 for side one, 1 for side two.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// 1 or 2, as people count sides ("player 2").
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::One => Side::Two,
            Side::Two => Side::One,
        }
    }
}

/// Who makes the moves for a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// A person.
    Human,
    /// A computer player.
    Computer(PlayerKind),
}

impl Seat {
    /// Whether a person plays here.
    pub const fn is_human(self) -> bool {
        matches!(self, Seat::Human)
    }
}

/// Who plays the series.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Players {
    /// A person (side one) against a computer player (side two).
    HumanVsComputer(PlayerKind),
    /// Two people.
    TwoHumans,
    /// Two computer players: side one's, then side two's.
    ComputerVsComputer(PlayerKind, PlayerKind),
}

impl Players {
    /// Who plays `side`.
    pub const fn seat(self, side: Side) -> Seat {
        match (self, side) {
            (Players::HumanVsComputer(_), Side::One) | (Players::TwoHumans, _) => Seat::Human,
            (Players::HumanVsComputer(kind), Side::Two)
            | (Players::ComputerVsComputer(kind, _), Side::One)
            | (Players::ComputerVsComputer(_, kind), Side::Two) => Seat::Computer(kind),
        }
    }

    /// The computer players, side one's first (none, one or two).
    pub fn computers(self) -> impl Iterator<Item = PlayerKind> {
        Side::BOTH
            .into_iter()
            .filter_map(move |side| match self.seat(side) {
                Seat::Computer(kind) => Some(kind),
                Seat::Human => None,
            })
    }
}

/// Who opens each game of a series (and so plays X).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum First {
    /// Side one always: you, player 1 or computer 1.
    #[default]
    You,
    /// Side two always: the computer, player 2 or computer 2.
    Computer,
    /// A [`Coin`] toss before every game.
    Random,
    /// Side one in the first game, then the sides take turns.
    Alternate,
}

impl First {
    /// Every rule, in the console menu's order.
    pub const ALL: [First; 4] = [First::You, First::Computer, First::Random, First::Alternate];

    /// The rule's name: `you`, `computer`, `random` or `alternate`.
    pub const fn name(self) -> &'static str {
        match self {
            First::You => "you",
            First::Computer => "computer",
            First::Random => "random",
            First::Alternate => "alternate",
        }
    }

    /// Who opens the game after `games_started` games; `coin` is tossed only
    /// under [`First::Random`], so a series' tosses follow from its seed.
    pub fn opener(self, games_started: u32, coin: &mut Coin) -> Side {
        match self {
            First::You => Side::One,
            First::Computer => Side::Two,
            First::Random => coin.toss(),
            First::Alternate if games_started % 2 == 0 => Side::One,
            First::Alternate => Side::Two,
        }
    }
}

impl fmt::Display for First {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text that is not one of the [`First`] rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParseFirstError;

impl fmt::Display for ParseFirstError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected who goes first: you, computer, random or alternate")
    }
}

impl core::error::Error for ParseFirstError {}

impl FromStr for First {
    type Err = ParseFirstError;

    /// The name, case-insensitive, surrounding spaces ignored.
    fn from_str(s: &str) -> Result<First, ParseFirstError> {
        let s = s.trim();
        First::ALL
            .into_iter()
            .find(|first| first.name().eq_ignore_ascii_case(s))
            .ok_or(ParseFirstError)
    }
}

/// The coin that decides who opens under [`First::Random`]: a sequence of
/// tosses fixed by its seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coin {
    rng: Rng,
}

/// Mixed into a coin's seed, so its tosses do not follow the computer
/// players' choices made from the same seed.
const COIN_SALT: u64 = 0x0005_EEDF_1257;

impl Coin {
    /// A coin whose tosses are fixed by `seed`.
    pub const fn new(seed: u64) -> Coin {
        Coin {
            rng: Rng::new(seed ^ COIN_SALT),
        }
    }

    /// The side the next toss falls for.
    pub fn toss(&mut self) -> Side {
        if self.rng.below(2) == 0 {
            Side::One
        } else {
            Side::Two
        }
    }
}

/// How one game of a series ended, from the sides' point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// This side completed a line.
    Win(Side),
    /// Neither did.
    Draw,
}

impl GameResult {
    /// The side that won, if one did.
    pub const fn winner(self) -> Option<Side> {
        match self {
            GameResult::Win(side) => Some(side),
            GameResult::Draw => None,
        }
    }
}

/// Who plays which mark in one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lineup {
    players: Players,
    opener: Side,
}

impl Lineup {
    /// `players`, with `opener` playing X.
    pub const fn new(players: Players, opener: Side) -> Lineup {
        Lineup { players, opener }
    }

    /// Who plays.
    pub const fn players(&self) -> Players {
        self.players
    }

    /// The side that opened (plays X).
    pub const fn opener(&self) -> Side {
        self.opener
    }

    /// The side playing `mark`.
    pub const fn side(&self, mark: Mark) -> Side {
        match mark {
            Mark::X => self.opener,
            Mark::O => self.opener.other(),
        }
    }

    /// The mark `side` plays.
    pub const fn mark(&self, side: Side) -> Mark {
        if side.index() == self.opener.index() {
            Mark::X
        } else {
            Mark::O
        }
    }

    /// Who plays `mark`.
    pub const fn seat(&self, mark: Mark) -> Seat {
        self.players.seat(self.side(mark))
    }

    /// The person's mark against the computer (none between two people or
    /// two computers).
    pub fn human_mark(&self) -> Option<Mark> {
        match self.players {
            Players::HumanVsComputer(_) => Some(self.mark(Side::One)),
            Players::TwoHumans | Players::ComputerVsComputer(..) => None,
        }
    }

    /// How a game with `outcome` ended for the sides (none while it goes on).
    pub const fn result(&self, outcome: Outcome) -> Option<GameResult> {
        match outcome {
            Outcome::Win(mark) => Some(GameResult::Win(self.side(mark))),
            Outcome::Draw => Some(GameResult::Draw),
            Outcome::InProgress => None,
        }
    }

    /// Takes back the people's moves in `pos` and says how many moves went:
    /// against the computer, back to the last position where it was the
    /// person's turn before one of their moves (their move and the reply);
    /// between two people, the last move; between computers, none. 0 when
    /// there is nothing to take back.
    pub fn take_back(&self, pos: &mut Position) -> usize {
        match self.players {
            Players::HumanVsComputer(_) => {
                let you = self.mark(Side::One);
                // The computer's opening move, when it opened, stays.
                let first_yours = if you == Mark::X { 0 } else { 1 };
                if pos.history().len() <= first_yours {
                    return 0;
                }
                let mut n = 0;
                while pos.undo().is_some() {
                    n += 1;
                    if pos.side_to_move() == you {
                        break;
                    }
                }
                n
            }
            Players::TwoHumans => usize::from(pos.undo().is_some()),
            Players::ComputerVsComputer(..) => 0,
        }
    }
}

/// The games of a series so far: side one's wins and losses, and draws.
/// Counts stop at `u32::MAX`.
///
/// Written `wins-losses-draws`, as in `2-0-1`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// Games side one won.
    pub wins: u32,
    /// Games side two won (side one's losses).
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
}

impl Score {
    /// No games.
    pub const ZERO: Score = Score {
        wins: 0,
        losses: 0,
        draws: 0,
    };

    /// Counts a game that ended with `result`.
    pub fn add(&mut self, result: GameResult) {
        let count = match result {
            GameResult::Win(Side::One) => &mut self.wins,
            GameResult::Win(Side::Two) => &mut self.losses,
            GameResult::Draw => &mut self.draws,
        };
        *count = count.saturating_add(1);
    }

    /// Games counted.
    pub const fn total(&self) -> u32 {
        self.wins
            .saturating_add(self.losses)
            .saturating_add(self.draws)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.losses, self.draws)
    }
}

/// Text that is not a score `wins-losses-draws`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParseScoreError;

impl fmt::Display for ParseScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a score wins-losses-draws like 2-0-1, each 0 to 4294967295")
    }
}

impl core::error::Error for ParseScoreError {}

impl FromStr for Score {
    type Err = ParseScoreError;

    /// Three counts joined by `-`, surrounding spaces ignored.
    fn from_str(s: &str) -> Result<Score, ParseScoreError> {
        let mut parts = s.trim().split('-');
        let mut count = || -> Result<u32, ParseScoreError> {
            let part = parts.next().ok_or(ParseScoreError)?;
            // Digits only: no sign, no spaces inside.
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseScoreError);
            }
            part.parse().map_err(|_| ParseScoreError)
        };
        let score = Score {
            wins: count()?,
            losses: count()?,
            draws: count()?,
        };
        match parts.next() {
            None => Ok(score),
            Some(_) => Err(ParseScoreError),
        }
    }
}

/// A series: who plays, who opens each game, the games started and the score.
///
/// The players and the opening rule may change between games (a menu in
/// the console game); the game count and the score carry on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Series {
    players: Players,
    first: First,
    games: u32,
    score: Score,
    lineup: Lineup,
    in_game: bool,
}

impl Series {
    /// No games yet between `players`, opening by `first`.
    pub const fn new(players: Players, first: First) -> Series {
        Series {
            players,
            first,
            games: 0,
            score: Score::ZERO,
            lineup: Lineup::new(players, Side::One),
            in_game: false,
        }
    }

    /// Who plays the next game.
    pub const fn players(&self) -> Players {
        self.players
    }

    /// Who opens the next game.
    pub const fn first(&self) -> First {
        self.first
    }

    /// Changes who plays from the next game on.
    pub fn set_players(&mut self, players: Players) {
        self.players = players;
    }

    /// Changes who opens from the next game on.
    pub fn set_first(&mut self, first: First) {
        self.first = first;
    }

    /// Games started (counting on from `u32::MAX` to 0, which keeps
    /// [`First::Alternate`] alternating).
    pub const fn games_started(&self) -> u32 {
        self.games
    }

    /// The games finished so far.
    pub const fn score(&self) -> Score {
        self.score
    }

    /// The game in progress, or the last one (before any: side one as X).
    pub const fn lineup(&self) -> Lineup {
        self.lineup
    }

    /// Whether a game has started and not finished.
    pub const fn in_game(&self) -> bool {
        self.in_game
    }

    /// Who opens the next game by the series' rule; `coin` is tossed only
    /// under [`First::Random`].
    pub fn next_opener(&self, coin: &mut Coin) -> Side {
        self.first.opener(self.games, coin)
    }

    /// Starts the next game with `opener` playing X (from
    /// [`next_opener`](Self::next_opener), or the players' own choice).
    pub fn start_game(&mut self, opener: Side) -> Lineup {
        self.lineup = Lineup::new(self.players, opener);
        self.games = self.games.wrapping_add(1);
        self.in_game = true;
        self.lineup
    }

    /// Counts the game in progress if `outcome` ends it, and says how it
    /// ended; `None` while it goes on, or when it is already counted.
    pub fn finish_game(&mut self, outcome: Outcome) -> Option<GameResult> {
        if !self.in_game {
            return None;
        }
        let result = self.lineup.result(outcome)?;
        self.in_game = false;
        self.score.add(result);
        Some(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_count_wraps_and_alternate_keeps_alternating() {
        let mut series = Series::new(Players::TwoHumans, First::Alternate);
        let mut coin = Coin::new(0);
        series.games = u32::MAX - 1;
        // Game u32::MAX: an even number of games before it, side one opens.
        assert_eq!(
            series.start_game(series.next_opener(&mut coin)).opener(),
            Side::One
        );
        assert_eq!(
            series.start_game(series.next_opener(&mut coin)).opener(),
            Side::Two
        );
        assert_eq!(series.games_started(), 0);
        assert_eq!(
            series.start_game(series.next_opener(&mut coin)).opener(),
            Side::One
        );
    }
}
