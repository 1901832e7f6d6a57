//! One game on the board (a [`Match`]): who plays which mark and on which
//! controller, the position, the cursor and hint, the computer's turn and the
//! moves played. The screens that show a game (game, pause, result,
//! unplugged, attract) share it.

use ttt_core::ai::PlayerKind;
use ttt_core::series::{Lineup, Players, Seat, Side};
use ttt_core::{Forbidden, Mark, Outcome, Position, Rules, Square, SquareFormat, SquareSet};

use crate::host::{log, sound, Host};
use crate::search::{move_seed, Purpose, SearchReply, Searches};
use crate::settings::{self, Mode};
use crate::sound::Cue;
use crate::text::StrBuf;
use crate::timing::Clock;

/// A search the match waits for: its job's id and purpose, and its reply
/// once the host has given it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Pending {
    pub(crate) id: u32,
    pub(crate) purpose: Purpose,
    pub(crate) reply: Option<SearchReply>,
}

/// Empty cells checked for renju's forbidden moves per update: the check
/// of a cell costs the console up to a few hundred microseconds, so the
/// marks of a new position appear over a few frames rather than in one
/// long one.
const FORBIDDEN_CELLS_PER_UPDATE: usize = 16;

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
    /// Frames left of the computer's shortest visible thinking (its move
    /// comes when this is over and its search has answered). It runs only
    /// while the game is on the screen (not while paused).
    pub(crate) think: u32,
    /// The search the match waits for (the computer's move or a hint).
    pub(crate) pending: Option<Pending>,
    /// The computer's last announcement: its mark and the square.
    pub(crate) said: Option<(Mark, Square)>,
    /// The last move refused as forbidden to X (renju), and why: shown
    /// until the cursor moves or a move is played.
    pub(crate) refused: Option<(Square, Forbidden)>,
    /// X's forbidden cells found so far (renju, X to move), and the index
    /// of the next cell to check (the board's cell count: done).
    pub(crate) forbidden: SquareSet,
    pub(crate) forbidden_scan: usize,
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
        let mut m = Match {
            mode,
            attract,
            seed,
            pos: Position::new(rules),
            lineup,
            cursor: centre(&rules),
            hint: None,
            hint_pending: false,
            think: 0,
            pending: None,
            said: None,
            refused: None,
            forbidden: SquareSet::EMPTY,
            forbidden_scan: 0,
            over_frames: 0,
        };
        m.position_changed();
        m
    }

    /// A new game (logged `[attract ]game seed=...`: the board, the
    /// players, and the computer's limit: `nodes=N` where it searches a
    /// node budget, `think=<ms>ms` where it searches for `think_ms`; then
    /// the rules).
    pub(crate) fn begin(
        mode: Mode,
        attract: bool,
        seed: u64,
        rules: Rules,
        lineup: Lineup,
        think_ms: u32,
        host: &mut impl Host,
    ) -> Match {
        let name = |mark: Mark| match lineup.seat(mark) {
            Seat::Human => "human",
            Seat::Computer(kind) => kind.name(),
        };
        let limit: StrBuf<24> = if settings::is_timed(&rules) {
            StrBuf::format(format_args!("think={think_ms}ms"))
        } else {
            StrBuf::format(format_args!("nodes={}", settings::console_nodes(&rules)))
        };
        log(
            host,
            format_args!(
                "{}game seed={} size={}x{} k={} x={} o={} {} rules={}",
                if attract { "attract " } else { "" },
                seed,
                rules.columns(),
                rules.rows(),
                rules.k(),
                name(Mark::X),
                name(Mark::O),
                limit,
                settings::win_name(rules.win_condition())
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

    /// The computer's turn, one update of it: its search starts at once
    /// (on the host, [`Host::search_start`]) with a visible pause; the move
    /// is played once the pause is over (counted in the clock's frames) and
    /// the search has answered. `think_ms` is the search's time on the
    /// boards searched for a time. The outcome if the move ended the game.
    pub(crate) fn computer_turn(
        &mut self,
        searches: &mut Searches,
        think_ms: u32,
        clock: &Clock,
        host: &mut impl Host,
    ) -> Option<Outcome> {
        let Seat::Computer(kind) = self.seat_to_move() else {
            return None;
        };
        if self.pending.is_none() {
            let seed = move_seed(self.seed, self.pos.mark_count());
            let purpose = Purpose::Move(kind);
            let id = searches.start(&self.pos, purpose, seed, think_ms, host);
            self.pending = Some(Pending {
                id,
                purpose,
                reply: None,
            });
            let timings = clock.timings();
            self.think = if self.mode == Mode::ComputerVsComputer {
                timings.think_cvc
            } else {
                timings.think
            };
            return None;
        }
        self.think = self.think.saturating_sub(clock.step());
        let reply = self.poll_search(host)?;
        // The update that started the search counts as the pause's first
        // frame: the move comes on its last.
        if self.think > 1 {
            return None;
        }
        self.think = 0;
        self.pending = None;
        log(
            host,
            format_args!(
                "{}ai {} {} nodes={} depth={}",
                if self.attract { "attract " } else { "" },
                kind.name(),
                reply.us,
                reply.nodes,
                reply.depth
            ),
        );
        let pos = &self.pos;
        let square = reply
            .square
            .filter(|&s| pos.is_legal(s))
            .or_else(|| pos.legal_moves().first());
        let sq = square?;
        let mark = pos.side_to_move();
        self.said = Some((mark, sq));
        if !self.attract {
            let rules = *pos.rules();
            if settings::is_timed(&rules) {
                log(host, format_args!("say I play {}!", coord(&rules, sq)));
            } else {
                let number = rules.number_of(sq);
                log(host, format_args!("say I am choosing square {number}!"));
            }
        }
        self.play_move(sq, host)
    }

    /// The reply to the search the match waits for, once the host has it
    /// (replies to searches given up on are dropped).
    pub(crate) fn poll_search(&mut self, host: &mut impl Host) -> Option<SearchReply> {
        let pending = self.pending.as_mut()?;
        if pending.reply.is_none() {
            while let Some(reply) = host.search_poll() {
                if reply.id == pending.id {
                    pending.reply = Some(reply);
                    break;
                }
            }
        }
        pending.reply
    }

    /// Gives up the search the match waits for, if any (a new game, the
    /// menu, an undo): the host stops it.
    pub(crate) fn abandon_search(&mut self, host: &mut impl Host) {
        if self.pending.take().is_some() {
            host.search_stop();
        }
        self.hint_pending = false;
        self.think = 0;
    }

    /// Checks a few more cells for X's forbidden moves (renju, X to move):
    /// [`FORBIDDEN_CELLS_PER_UPDATE`] per call, from where the last call
    /// stopped, so the marks of a new position appear over a few frames.
    pub(crate) fn scan_forbidden(&mut self) {
        let rules = *self.rules();
        let start = self.forbidden_scan;
        for sq in rules.squares().skip(start).take(FORBIDDEN_CELLS_PER_UPDATE) {
            if self.pos.get(sq).is_none() && self.pos.forbidden(sq).is_some() {
                self.forbidden.insert(sq);
            }
            self.forbidden_scan += 1;
        }
    }

    /// The position changed: X's forbidden cells are looked for again
    /// (none where renju does not apply), the refusal message goes.
    pub(crate) fn position_changed(&mut self) {
        self.forbidden = SquareSet::EMPTY;
        let renju_x = self.rules().is_renju()
            && self.pos.side_to_move() == Mark::X
            && !self.pos.outcome().is_over();
        self.forbidden_scan = if renju_x {
            0
        } else {
            self.rules().cell_count()
        };
        self.refused = None;
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
        self.position_changed();
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
