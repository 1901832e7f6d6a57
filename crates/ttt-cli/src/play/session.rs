//! A playing session, shared by both views: a [`Series`] of games (who plays
//! which mark, who opens, the score: the model the console game plays too),
//! the game in progress, turns, undo, hints and the persistent record.
use ttt_core::series::{self, Coin, GameResult, Players, Seat, Series, Side};
use ttt_core::{Mark, Outcome, PlayError, Position, Rules, Square, SquareFormat};

use super::args::{First, Mode, PlayArgs};
use super::stats::{Record, Tally};
use ttt_core::ai::{self, PlayerKind, TtEntry};

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

/// One sitting at the program: a series of games (side one is you against
/// the computer, else X) and its record.
pub struct Session {
    rules: Rules,
    series: Series,
    /// `--first ask`: the players are asked before every game.
    ask_first: bool,
    /// Tossed for `--first random` and for the answer `r`.
    coin: Coin,
    seed: u64,
    /// `--max-nodes`: a node budget for every search.
    max_nodes: Option<u64>,
    tt: Vec<TtEntry>,
    pos: Position,
    record: Option<Record>,
}

/// Transposition table size (entries) lent to the computer players.
const TT_ENTRIES: usize = 1 << 20;

impl Session {
    /// A session for `args` with board `rules` and seed `seed`; `record` is
    /// the opened persistent record when `--stats` was given.
    pub fn new(args: &PlayArgs, rules: Rules, seed: u64, record: Option<Record>) -> Session {
        let players = match args.mode {
            Mode::HumanVsAi => Players::HumanVsComputer(args.ai),
            Mode::TwoPlayer => Players::TwoHumans,
            Mode::AiVsAi => Players::ComputerVsComputer(
                args.ai_x.unwrap_or(args.ai),
                args.ai_o.unwrap_or(args.ai),
            ),
        };
        // --first is for games against the computer; between people or
        // computers X (side one) always opens. Under `ask` the views ask
        // before every game and pass the answer to `start_game`.
        let first = match args.first {
            _ if args.mode != Mode::HumanVsAi => series::First::You,
            First::Ask | First::You => series::First::You,
            First::Computer => series::First::Computer,
            First::Random => series::First::Random,
            First::Alternate => series::First::Alternate,
        };
        Session {
            rules,
            series: Series::new(players, first),
            ask_first: args.mode == Mode::HumanVsAi && args.first == First::Ask,
            coin: Coin::new(seed),
            seed,
            max_nodes: args.max_nodes,
            tt: vec![TtEntry::EMPTY; TT_ENTRIES],
            pos: Position::new(rules),
            record,
        }
    }

    /// The board shape.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Who plays.
    pub fn players(&self) -> Players {
        self.series.players()
    }

    /// The game in progress (or the last one).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Games started so far.
    pub fn games_started(&self) -> u32 {
        self.series.games_started()
    }

    /// Whether a game has started and not finished (quitting now interrupts it).
    pub fn in_game(&self) -> bool {
        self.series.in_game()
    }

    /// Notes about the computer players on this board: where `perfect` and
    /// `impossible` cannot solve it exactly, and where solving is slow.
    pub fn player_notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = Vec::new();
        for kind in self.series.players().computers() {
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

    /// Whether the next game needs "Do you want to go first?".
    pub fn must_ask_first(&self) -> bool {
        self.ask_first
    }

    /// A coin toss from the session's seed: whether you go first.
    pub fn coin(&mut self) -> bool {
        self.coin.toss() == Side::One
    }

    /// Starts a new game. `you_first` is the answer to the question when
    /// [`must_ask_first`](Self::must_ask_first); otherwise `--first` decides.
    pub fn start_game(&mut self, you_first: Option<bool>) {
        let opener = match you_first {
            Some(true) => Side::One,
            Some(false) => Side::Two,
            None => self.series.next_opener(&mut self.coin),
        };
        self.series.start_game(opener);
        self.pos = Position::new(self.rules);
    }

    /// Who plays `mark` this game.
    pub fn seat(&self, mark: Mark) -> Seat {
        self.series.lineup().seat(mark)
    }

    /// Who is to move.
    pub fn seat_to_move(&self) -> Seat {
        self.seat(self.pos.side_to_move())
    }

    /// Your mark against the computer this game.
    pub fn human_mark(&self) -> Option<Mark> {
        self.series.lineup().human_mark()
    }

    /// The seed for the computer's move now: fixed by --seed, the game number
    /// and the move number, so the same seed replays the same game.
    fn move_seed(&self) -> u64 {
        ai::move_seed(
            self.seed,
            u64::from(self.series.games_started()),
            self.pos.mark_count(),
        )
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
        match self.series.lineup().take_back(&mut self.pos) {
            0 => Undone::Nothing,
            n => Undone::Moves(n),
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
        match (self.series.players(), self.seat(mark)) {
            (Players::TwoHumans, _) => format!("Player {mark}"),
            (_, Seat::Human) => "You".into(),
            (Players::HumanVsComputer(_), Seat::Computer(k)) => format!("Computer ({k})"),
            (Players::ComputerVsComputer(..), Seat::Computer(k)) => format!("{mark} ({k})"),
        }
    }

    /// When the game is over (and not yet counted): counts it, updates the
    /// record, and says how it ended.
    pub fn finish(&mut self) -> Option<Finished> {
        let outcome = self.pos.outcome();
        let result = self.series.finish_game(outcome)?;
        let message = match (outcome, self.series.players()) {
            (Outcome::Win(m), Players::HumanVsComputer(_)) => {
                if self.seat(m) == Seat::Human {
                    "Congratulations, you win!".to_string()
                } else {
                    "I WIN!!!".to_string()
                }
            }
            (Outcome::Win(m), Players::TwoHumans) => format!("Player {m} wins!"),
            (Outcome::Win(m), Players::ComputerVsComputer(..)) => {
                format!("{} wins!", self.player_name(m))
            }
            (Outcome::Draw | Outcome::InProgress, _) => "The game is a draw.".to_string(),
        };
        let record = self.record_result(result);
        Some(Finished { message, record })
    }

    fn record_key(&self) -> String {
        match self.series.players() {
            Players::HumanVsComputer(ai) => format!("human-vs-ai {} {ai}", self.rules),
            Players::TwoHumans => format!("two-player {}", self.rules),
            Players::ComputerVsComputer(x, o) => format!("ai-vs-ai {} {x} {o}", self.rules),
        }
    }

    fn record_result(&mut self, game: GameResult) -> Option<String> {
        let key = self.record_key();
        let record = self.record.as_mut()?;
        let result = record.add(&key, game);
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
        match self.series.players() {
            Players::HumanVsComputer(ai) => format!(
                "Your record against {ai} on {}: {}, {}, {}.",
                self.rules,
                plural(t.first, "win"),
                plural(t.second, "loss"),
                plural(t.draws, "draw")
            ),
            Players::TwoHumans => format!(
                "Record on {} (two players): X {} | O {} | Draws {}.",
                self.rules, t.first, t.second, t.draws
            ),
            Players::ComputerVsComputer(x, o) => format!(
                "Record {x} vs {o} on {}: X {} | O {} | Draws {}.",
                self.rules, t.first, t.second, t.draws
            ),
        }
    }

    /// "Score - You: 1 | Computer (classic): 0 | Draws: 2".
    pub fn score_line(&self) -> String {
        let s = self.series.score();
        match self.series.players() {
            Players::HumanVsComputer(ai) => format!(
                "Score - You: {} | Computer ({ai}): {} | Draws: {}",
                s.wins, s.losses, s.draws
            ),
            Players::TwoHumans => format!(
                "Score - Player X: {} | Player O: {} | Draws: {}",
                s.wins, s.losses, s.draws
            ),
            Players::ComputerVsComputer(x, o) => format!(
                "Score - X ({x}): {} | O ({o}): {} | Draws: {}",
                s.wins, s.losses, s.draws
            ),
        }
    }
}
