//! A playing session, shared by both views: who plays which mark, the game in
//! progress, turns, undo, hints, scores and the persistent record.
use ttt_core::rng::Rng;
use ttt_core::{Mark, Outcome, PlayError, Position, Rules, Square, SquareFormat};

use super::args::{First, Mode, PlayArgs};
use super::stats::{GameResult, Record, Tally};
use ttt_core::ai::{self, PlayerKind, TtEntry};

/// Who makes the moves for a mark.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at the keyboard.
    Human,
    /// A computer player.
    Computer(PlayerKind),
}

/// Session scores. Against the computer `first` is you and `second` the
/// computer; otherwise they are X and O.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Scores {
    /// You, or X.
    pub first: u32,
    /// The computer, or O.
    pub second: u32,
    /// Draws.
    pub draws: u32,
}

/// What undo did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Undone {
    /// This many moves were taken back.
    Moves(usize),
    /// There was none of your moves to take back.
    Nothing,
}

/// The result of a finished game, from the session's point of view.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The announcement ("I WIN!!!", "Congratulations, you win!", ...).
    pub message: String,
    /// The persistent record line, or why it could not be kept.
    pub record: Option<String>,
}

/// A computer player's move being worked out, detached from the session.
pub struct Thinking {
    kind: PlayerKind,
    seed: u64,
    max_nodes: Option<u64>,
    pos: Position,
    tt: Vec<TtEntry>,
}

impl Thinking {
    /// Chooses the move; returns it with the table.
    pub fn run(mut self) -> (Option<Square>, Vec<TtEntry>) {
        let mut player = ai::Player::new(self.kind, self.seed, &mut self.tt[..]);
        if let Some(n) = self.max_nodes {
            player.set_budget(ai::Budget::nodes(n));
        }
        let chosen = player.choose_move(&self.pos);
        (chosen, self.tt)
    }
}

/// One sitting at the program: many games, one score.
pub struct Session {
    rules: Rules,
    mode: Mode,
    first: First,
    ai: PlayerKind,
    ai_x: PlayerKind,
    ai_o: PlayerKind,
    seed: u64,
    /// `--max-nodes`: a node budget for every search.
    max_nodes: Option<u64>,
    rng: Rng,
    tt: Vec<TtEntry>,
    seats: [Seat; 2],
    pos: Position,
    games: u32,
    in_game: bool,
    scores: Scores,
    record: Option<Record>,
}

/// Transposition table size (entries) lent to the computer players.
const TT_ENTRIES: usize = 1 << 20;

impl Session {
    /// A session for `args` with board `rules` and seed `seed`; `record` is
    /// the opened persistent record when `--stats` was given.
    pub fn new(args: &PlayArgs, rules: Rules, seed: u64, record: Option<Record>) -> Session {
        Session {
            rules,
            mode: args.mode,
            first: args.first,
            ai: args.ai,
            ai_x: args.ai_x.unwrap_or(args.ai),
            ai_o: args.ai_o.unwrap_or(args.ai),
            seed,
            max_nodes: args.max_nodes,
            rng: Rng::new(seed ^ 0x5EED_F1257),
            tt: vec![TtEntry::EMPTY; TT_ENTRIES],
            seats: [Seat::Human, Seat::Human],
            pos: Position::new(rules),
            games: 0,
            in_game: false,
            scores: Scores::default(),
            record,
        }
    }

    /// The board shape.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Who plays.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The game in progress (or the last one).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Games started so far.
    pub fn games_started(&self) -> u32 {
        self.games
    }

    /// Whether a game has started and not finished (quitting now interrupts it).
    pub fn in_game(&self) -> bool {
        self.in_game
    }

    /// Notes about the computer players on this board: where `perfect` and
    /// `impossible` cannot solve it exactly, and where solving is slow.
    pub fn player_notes(&self) -> Vec<String> {
        let used: &[PlayerKind] = match self.mode {
            Mode::HumanVsAi => &[self.ai],
            Mode::TwoPlayer => &[],
            Mode::AiVsAi => &[self.ai_x, self.ai_o],
        };
        let mut notes: Vec<String> = Vec::new();
        for &kind in used {
            if !matches!(kind, PlayerKind::Perfect | PlayerKind::Impossible) {
                continue;
            }
            let note = if !ai::is_solvable(&self.rules) {
                format!(
                    "a {} board is too big to solve exactly: {kind} plays as strong there.",
                    self.rules
                )
            } else if self.rules.cell_count() > 16 {
                format!(
                    "{kind} solves a {} board exactly: its first moves can take several seconds.",
                    self.rules
                )
            } else {
                continue;
            };
            if !notes.contains(&note) {
                notes.push(note);
            }
        }
        notes
    }

    /// The computer opponent (human-vs-ai).
    pub fn ai(&self) -> PlayerKind {
        self.ai
    }

    /// Whether the next game needs "Do you want to go first?".
    pub fn must_ask_first(&self) -> bool {
        self.mode == Mode::HumanVsAi && self.first == First::Ask
    }

    /// A coin toss from the session's seed.
    pub fn coin(&mut self) -> bool {
        self.rng.below(2) == 0
    }

    /// Starts a new game. `you_first` is the answer to the question when
    /// [`must_ask_first`](Self::must_ask_first); otherwise `--first` decides.
    pub fn start_game(&mut self, you_first: Option<bool>) {
        self.seats = match self.mode {
            Mode::TwoPlayer => [Seat::Human, Seat::Human],
            Mode::AiVsAi => [Seat::Computer(self.ai_x), Seat::Computer(self.ai_o)],
            Mode::HumanVsAi => {
                let you_first = match (you_first, self.first) {
                    (Some(answer), _) => answer,
                    (None, First::You | First::Ask) => true,
                    (None, First::Computer) => false,
                    (None, First::Random) => self.coin(),
                    (None, First::Alternate) => self.games % 2 == 0,
                };
                let computer = Seat::Computer(self.ai);
                if you_first {
                    [Seat::Human, computer]
                } else {
                    [computer, Seat::Human]
                }
            }
        };
        self.pos = Position::new(self.rules);
        self.games += 1;
        self.in_game = true;
    }

    /// Who plays `mark` this game.
    pub fn seat(&self, mark: Mark) -> Seat {
        self.seats[mark.index()]
    }

    /// Who is to move.
    pub fn seat_to_move(&self) -> Seat {
        self.seat(self.pos.side_to_move())
    }

    /// Your mark against the computer this game.
    pub fn human_mark(&self) -> Option<Mark> {
        match self.mode {
            Mode::HumanVsAi => Mark::ALL.into_iter().find(|&m| self.seat(m) == Seat::Human),
            _ => None,
        }
    }

    /// The seed for the computer's move now: fixed by --seed, the game number
    /// and the move number, so the same seed replays the same game.
    fn move_seed(&self) -> u64 {
        ai::move_seed(self.seed, self.games as u64, self.pos.mark_count())
    }

    /// The computer to move chooses and plays its move. `None` if the game
    /// is over or a person is to move.
    pub fn computer_move(&mut self) -> Option<Square> {
        let job = self.begin_computer_move()?;
        let (chosen, tt) = job.run();
        self.end_computer_move(chosen, tt)
    }

    /// The computer's move as a job that can run on another thread (so the
    /// full-screen view stays responsive): it borrows the session's table
    /// until [`end_computer_move`](Self::end_computer_move) gives it back.
    pub fn begin_computer_move(&mut self) -> Option<Thinking> {
        let Seat::Computer(kind) = self.seat_to_move() else {
            return None;
        };
        if self.pos.outcome().is_over() {
            return None;
        }
        Some(Thinking {
            kind,
            seed: self.move_seed(),
            max_nodes: self.max_nodes,
            pos: self.pos.clone(),
            tt: std::mem::take(&mut self.tt),
        })
    }

    /// Plays the move a [`Thinking`] job chose and takes its table back.
    pub fn end_computer_move(
        &mut self,
        chosen: Option<Square>,
        tt: Vec<TtEntry>,
    ) -> Option<Square> {
        self.tt = tt;
        // A player that returns nothing or an illegal square must not stop
        // the game: fall back to the first empty square.
        let square = chosen
            .filter(|&s| self.pos.is_legal(s))
            .or_else(|| self.pos.legal_moves().into_iter().next())?;
        self.pos.play(square).ok()?;
        Some(square)
    }

    /// A person's move; the board is unchanged on error.
    pub fn human_move(&mut self, square: Square) -> Result<(), PlayError> {
        self.pos.play(square)
    }

    /// Takes back moves: against the computer your last move and its reply
    /// (back to your turn); between two people, one move.
    pub fn undo(&mut self) -> Undone {
        match (self.mode, self.human_mark()) {
            (Mode::HumanVsAi, Some(you)) => {
                let first_yours = if you == Mark::X { 0 } else { 1 };
                if self.pos.history().len() <= first_yours {
                    return Undone::Nothing;
                }
                let mut n = 0;
                // Back to the last position where it was your turn before one of your moves.
                while let Some(_sq) = self.pos.undo() {
                    n += 1;
                    if self.pos.side_to_move() == you {
                        break;
                    }
                }
                Undone::Moves(n)
            }
            (Mode::TwoPlayer, _) => match self.pos.undo() {
                Some(_) => Undone::Moves(1),
                None => Undone::Nothing,
            },
            _ => Undone::Nothing,
        }
    }

    /// A suggested move for the side to move and what it is worth: from the
    /// exact solver (`perfect`) on boards of up to 16 cells, where it answers
    /// at once, else from `strong` (5x5 k=4 is solvable but takes seconds).
    pub fn hint(&mut self) -> Option<(Square, String)> {
        if self.pos.outcome().is_over() {
            return None;
        }
        let seed = self.move_seed();
        if ai::is_solvable(&self.rules) && self.rules.cell_count() <= 16 {
            let (sq, value) = ai::Solver::new(&mut self.tt[..]).best_move(&self.pos, seed)?;
            Some((sq, format!("perfect play: {value}")))
        } else {
            let sq = ai::Player::new(PlayerKind::Strong, seed, &mut self.tt[..])
                .choose_move(&self.pos)?;
            Some((sq, "the choice of strong".to_string()))
        }
    }

    /// A square as people read it here: the number, plus the coordinate on
    /// boards other than 3x3 ("5", "10 (b3)").
    pub fn square_name(&self, square: Square) -> String {
        let n = self.rules.display_square(square, SquareFormat::Number);
        if self.rules == Rules::CLASSIC {
            n.to_string()
        } else {
            format!(
                "{n} ({})",
                self.rules.display_square(square, SquareFormat::Coord)
            )
        }
    }

    /// Name of whoever plays `mark` ("you", "the computer", "Player X",
    /// "X (classic)").
    pub fn player_name(&self, mark: Mark) -> String {
        match (self.mode, self.seat(mark)) {
            (Mode::HumanVsAi, Seat::Human) => "You".into(),
            (Mode::HumanVsAi, Seat::Computer(k)) => format!("Computer ({k})"),
            (Mode::TwoPlayer, _) => format!("Player {mark}"),
            (Mode::AiVsAi, _) => {
                let kind = if mark == Mark::X {
                    self.ai_x
                } else {
                    self.ai_o
                };
                format!("{mark} ({kind})")
            }
        }
    }

    /// When the game is over (and not yet counted): counts it, updates the
    /// record, and says how it ended.
    pub fn finish(&mut self) -> Option<Finished> {
        let outcome = self.pos.outcome();
        if !self.in_game || !outcome.is_over() {
            return None;
        }
        self.in_game = false;
        // Which score column: against the computer, you are "first".
        let first_won = match (outcome, self.mode) {
            (Outcome::Win(m), Mode::HumanVsAi) => Some(self.seat(m) == Seat::Human),
            (Outcome::Win(m), _) => Some(m == Mark::X),
            _ => None,
        };
        match first_won {
            Some(true) => self.scores.first += 1,
            Some(false) => self.scores.second += 1,
            None => self.scores.draws += 1,
        }
        let message = match (outcome, self.mode) {
            (Outcome::Draw, _) | (Outcome::InProgress, _) => "The game is a draw.".to_string(),
            (Outcome::Win(m), Mode::HumanVsAi) => {
                if self.seat(m) == Seat::Human {
                    "Congratulations, you win!".to_string()
                } else {
                    "I WIN!!!".to_string()
                }
            }
            (Outcome::Win(m), Mode::TwoPlayer) => format!("Player {m} wins!"),
            (Outcome::Win(m), Mode::AiVsAi) => format!("{} wins!", self.player_name(m)),
        };
        let record = self.record_result(first_won);
        Some(Finished { message, record })
    }

    fn record_key(&self) -> String {
        match self.mode {
            Mode::HumanVsAi => format!("human-vs-ai {} {}", self.rules, self.ai),
            Mode::TwoPlayer => format!("two-player {}", self.rules),
            Mode::AiVsAi => format!("ai-vs-ai {} {} {}", self.rules, self.ai_x, self.ai_o),
        }
    }

    fn record_result(&mut self, first_won: Option<bool>) -> Option<String> {
        let key = self.record_key();
        let record = self.record.as_mut()?;
        let result = record.add(
            &key,
            match first_won {
                Some(true) => GameResult::First,
                Some(false) => GameResult::Second,
                None => GameResult::Draw,
            },
        );
        Some(match result {
            Ok(t) => self.describe_record(t),
            Err(e) => format!("Could not save the record: {e:#}"),
        })
    }

    /// The record so far for this kind of game, in words (with `--stats`).
    pub fn record_line(&self) -> Option<String> {
        let record = self.record.as_ref()?;
        Some(self.describe_record(record.get(&self.record_key())))
    }

    fn describe_record(&self, t: Tally) -> String {
        let plural = |n: u64, word: &str| {
            if n == 1 {
                format!("{n} {word}")
            } else if word == "loss" {
                format!("{n} losses")
            } else {
                format!("{n} {word}s")
            }
        };
        match self.mode {
            Mode::HumanVsAi => format!(
                "Your record against {} on {}: {}, {}, {}.",
                self.ai,
                self.rules,
                plural(t.first, "win"),
                plural(t.second, "loss"),
                plural(t.draws, "draw")
            ),
            Mode::TwoPlayer => format!(
                "Record on {} (two players): X {} | O {} | Draws {}.",
                self.rules, t.first, t.second, t.draws
            ),
            Mode::AiVsAi => format!(
                "Record {} vs {} on {}: X {} | O {} | Draws {}.",
                self.ai_x, self.ai_o, self.rules, t.first, t.second, t.draws
            ),
        }
    }

    /// "Score - You: 1 | Computer (classic): 0 | Draws: 2".
    pub fn score_line(&self) -> String {
        let s = self.scores;
        match self.mode {
            Mode::HumanVsAi => format!(
                "Score - You: {} | Computer ({}): {} | Draws: {}",
                s.first, self.ai, s.second, s.draws
            ),
            Mode::TwoPlayer => format!(
                "Score - Player X: {} | Player O: {} | Draws: {}",
                s.first, s.second, s.draws
            ),
            Mode::AiVsAi => format!(
                "Score - X ({}): {} | O ({}): {} | Draws: {}",
                self.ai_x, s.first, self.ai_o, s.second, s.draws
            ),
        }
    }
}
