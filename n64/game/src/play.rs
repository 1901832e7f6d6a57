//! One game on the board (a [`Match`]): who plays which mark and on which
//! controller, the position, the cursor and hint, the computer's turn and the
//! moves played. The screens that show a game (game, pause, result,
//! unplugged, attract) share it.

use ttt_core::ai::PlayerKind;
use ttt_core::series::{Lineup, Players, Seat, Side};
use ttt_core::{Mark, Outcome, Position, Rules, Square, SquareFormat};

use crate::host::{log, sound, Host};
use crate::search::{move_seed, Search};
use crate::settings::{self, Mode};
use crate::sound::Cue;
use crate::text::StrBuf;
use crate::timing::Clock;

/// One game on the board.
#[derive(Clone)]
pub(crate) struct Match {
    pub(crate) mode: Mode,
    pub(crate) attract: bool,
    pub(crate) seed: u64,
    pub(crate) pos: Position,
    /// Who plays which mark.
    pub(crate) lineup: Lineup,
    pub(crate) cursor: Square,
    pub(crate) hint: Option<Square>,
    pub(crate) hint_pending: bool,
    /// Frames left of the computer's thinking pause (0: not started). It
    /// runs only while the game is on the screen (not while paused).
    pub(crate) think: u32,
    /// The computer's last announcement: its mark and the square number.
    pub(crate) said: Option<(Mark, u16)>,
    /// Frames since the game ended, counted by the screen showing it.
    pub(crate) over_frames: u32,
}

impl Match {
    /// The match before any game: an empty board of `rules`.
    pub(crate) fn idle(rules: Rules) -> Match {
        let lineup = Lineup::new(Players::HumanVsComputer(PlayerKind::Medium), Side::One);
        Match::new(Mode::OnePlayer, false, 0, rules, lineup)
    }

    fn new(mode: Mode, attract: bool, seed: u64, rules: Rules, lineup: Lineup) -> Match {
        Match {
            mode,
            attract,
            seed,
            pos: Position::new(rules),
            lineup,
            cursor: centre(&rules),
            hint: None,
            hint_pending: false,
            think: 0,
            said: None,
            over_frames: 0,
        }
    }

    /// A new game (logged `[attract ]game seed=...`).
    pub(crate) fn begin(
        mode: Mode,
        attract: bool,
        seed: u64,
        rules: Rules,
        lineup: Lineup,
        host: &mut impl Host,
    ) -> Match {
        let name = |mark: Mark| match lineup.seat(mark) {
            Seat::Human => "human",
            Seat::Computer(kind) => kind.name(),
        };
        log(
            host,
            format_args!(
                "{}game seed={} size={}x{} k={} x={} o={} nodes={}",
                if attract { "attract " } else { "" },
                seed,
                rules.columns(),
                rules.rows(),
                rules.k(),
                name(Mark::X),
                name(Mark::O),
                settings::console_nodes(&rules)
            ),
        );
        Match::new(mode, attract, seed, rules, lineup)
    }

    pub(crate) fn rules(&self) -> &Rules {
        self.pos.rules()
    }

    pub(crate) fn seat_to_move(&self) -> Seat {
        self.lineup.seat(self.pos.side_to_move())
    }

    /// The controller port (0-based) of the person playing `mark`; `None`
    /// when the computer plays it.
    pub(crate) fn port(&self, mark: Mark) -> Option<u8> {
        let side = self.lineup.side(mark);
        self.lineup
            .seat(mark)
            .is_human()
            .then(|| self.mode.port(side))
    }

    /// Ports a person needs, X's and O's (for the unplug check).
    pub(crate) fn needed_ports(&self) -> [Option<u8>; 2] {
        Mark::ALL.map(|mark| self.port(mark))
    }

    pub(crate) fn human_ports(&self) -> impl Iterator<Item = u8> + '_ {
        self.needed_ports().into_iter().flatten()
    }

    /// The computer's turn, one update of it: first a visible pause
    /// (counted in the clock's frames; its first update only starts it, so
    /// the frame before the search shows "thinking"), then the search and
    /// the move. The outcome if the move ended the game.
    pub(crate) fn computer_turn(
        &mut self,
        search: &mut Search<'_>,
        clock: &Clock,
        host: &mut impl Host,
    ) -> Option<Outcome> {
        let Seat::Computer(kind) = self.seat_to_move() else {
            return None;
        };
        if self.think == 0 {
            let timings = clock.timings();
            self.think = if self.mode == Mode::ComputerVsComputer {
                timings.think_cvc
            } else {
                timings.think
            };
            return None;
        }
        self.think = self.think.saturating_sub(clock.step());
        if self.think > 1 {
            return None;
        }
        self.think = 0;
        host.hush();
        let pos = &self.pos;
        let seed = move_seed(self.seed, pos.mark_count());
        let (chosen, us) = search.choose(kind, pos, seed, host);
        log(
            host,
            format_args!(
                "{}ai {} {}",
                if self.attract { "attract " } else { "" },
                kind.name(),
                us
            ),
        );
        let square = chosen
            .filter(|&s| pos.is_legal(s))
            .or_else(|| pos.legal_moves().first());
        let sq = square?;
        let mark = pos.side_to_move();
        let number = pos.rules().number_of(sq);
        self.said = Some((mark, number));
        if !self.attract {
            log(host, format_args!("say I am choosing square {number}!"));
        }
        self.play_move(sq, host)
    }

    /// Plays `sq` for the side to move (logged, with its sound). The
    /// outcome if it ended the game (logged `[attract ]result <result>`).
    pub(crate) fn play_move(&mut self, sq: Square, host: &mut impl Host) -> Option<Outcome> {
        let mark = self.pos.side_to_move();
        if self.pos.play(sq).is_err() {
            return None;
        }
        let rules = *self.rules();
        if self.lineup.seat(mark).is_human() {
            self.said = None;
        }
        self.hint = None;
        log(
            host,
            format_args!(
                "{}move {} {}",
                if self.attract { "attract " } else { "" },
                mark,
                coord(&rules, sq)
            ),
        );
        if !self.attract {
            sound(
                host,
                if mark == Mark::X {
                    Cue::PlaceX
                } else {
                    Cue::PlaceO
                },
            );
        }
        let outcome = self.pos.outcome();
        if !outcome.is_over() {
            return None;
        }
        let result = match outcome {
            Outcome::Win(Mark::X) => "x-wins",
            Outcome::Win(Mark::O) => "o-wins",
            _ => "draw",
        };
        self.over_frames = 0;
        let prefix = if self.attract { "attract " } else { "" };
        log(host, format_args!("{prefix}result {result}"));
        Some(outcome)
    }
}

fn centre(rules: &Rules) -> Square {
    Square::new((rules.columns() - 1) / 2, (rules.rows() - 1) / 2).unwrap_or(Square::from_index(0))
}

/// A square's coordinate as the log shows it (`b2`).
pub(crate) fn coord(rules: &Rules, sq: Square) -> StrBuf<8> {
    StrBuf::format(format_args!(
        "{}",
        rules.display_square(sq, SquareFormat::Coord)
    ))
}
