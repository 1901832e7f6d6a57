//! What every screen may use: the clock, the settings, the save and the
//! scores, the computer's searches; and starting a game with the settings.

use ttt_core::ai::TtEntry;
use ttt_core::Outcome;

use crate::host::{log, sound, write_save, Host, RumbleCause};
use crate::play::{coin_side1_first, Match, Seat};
use crate::refresh::Refresh;
use crate::save::{SaveData, SaveError, Score, MODES, SAVE_SIZE};
use crate::search::Search;
use crate::settings::{self, First, Mode, Settings};
use crate::sound::Cue;
use crate::timing::Clock;

/// The game's shared state, apart from the match on the board.
pub(crate) struct Services<'a> {
    pub(crate) search: Search<'a>,
    pub(crate) clock: Clock,
    pub(crate) settings: Settings,
    pub(crate) save: SaveData,
    /// Scores this session, per mode.
    pub(crate) session: [Score; MODES],
    /// Games started per mode this session (for "alternate").
    pub(crate) games: [u32; MODES],
    /// Per port: a controller with a Rumble Pak is connected (this frame's
    /// input).
    pub(crate) rumble_paks: [bool; 4],
}

impl<'a> Services<'a> {
    /// Loads the save; a missing or corrupt one is reset (logged `save
    /// reset`) and rewritten.
    pub(crate) fn load(tt: &'a mut [TtEntry], host: &mut impl Host, refresh: Refresh) -> Self {
        let mut buf = [0u8; SAVE_SIZE];
        let loaded = if host.save_read(&mut buf) {
            SaveData::decode(&buf)
        } else {
            Err(SaveError::Short)
        };
        let save = match loaded {
            Ok(data) => {
                log(host, format_args!("save loaded"));
                data
            }
            Err(e) => {
                log(host, format_args!("save invalid {}", e.name()));
                log(host, format_args!("save reset"));
                let data = SaveData::default();
                write_save(host, &data);
                data
            }
        };
        Services {
            search: Search::new(tt),
            clock: Clock::new(refresh),
            settings: save.settings,
            save,
            session: [Score::ZERO; MODES],
            games: [0; MODES],
            rumble_paks: [false; 4],
        }
    }

    /// Whether any connected controller has a Rumble Pak (the menu shows
    /// the Rumble line then).
    pub(crate) fn any_rumble_pak(&self) -> bool {
        self.rumble_paks.contains(&true)
    }

    /// Rumbles the controller on `port` (0-based) for `cause`, logged
    /// `rumble <port + 1> <cause>`, if the Rumble setting is on and that
    /// controller has a Rumble Pak: a controller without one gets no line
    /// and no call, so it behaves as before Rumble Pak support.
    pub(crate) fn rumble(&self, port: u8, cause: RumbleCause, host: &mut impl Host) {
        let has_pak = self.rumble_paks.get(port as usize).copied() == Some(true);
        if !self.settings.rumble || !has_pak {
            return;
        }
        log(host, format_args!("rumble {} {}", port + 1, cause.name()));
        host.rumble(port);
    }

    /// The rumble for a game `outcome`: the winner's controller if a person
    /// won; the person's controller if the computer beat them. Nothing for a
    /// draw or a game between computers.
    fn rumble_result(&self, play: &Match, outcome: Outcome, host: &mut impl Host) {
        let Some(winner) = outcome.winner() else {
            return;
        };
        match play.seats[winner.index()] {
            Seat::Human { port, .. } => self.rumble(port, RumbleCause::Win, host),
            Seat::Computer { .. } => {
                if let Seat::Human { port, .. } = play.seats[winner.other().index()] {
                    self.rumble(port, RumbleCause::Loss, host);
                }
            }
        }
    }

    /// A new game with the menu's settings, seeded by the clock.
    pub(crate) fn new_match(&mut self, host: &mut impl Host) -> Match {
        let s = self.settings;
        let rules = s.rules();
        let mode = s.mode;
        let seed = self.clock.frame();
        let game_no = self.games[mode.index()];
        self.games[mode.index()] = game_no.wrapping_add(1);
        let side0_first = match s.first {
            First::You => true,
            First::Computer => false,
            First::Random => coin_side1_first(seed),
            First::Alternate => game_no.is_multiple_of(2),
        };
        let (side0, side1) = match mode {
            Mode::OnePlayer => (
                Seat::Human { port: 0, side: 0 },
                Seat::Computer {
                    kind: settings::effective_kind(s.computer_kind(), &rules),
                    side: 1,
                },
            ),
            Mode::TwoPads => (
                Seat::Human { port: 0, side: 0 },
                Seat::Human { port: 1, side: 1 },
            ),
            Mode::SharedPad => (
                Seat::Human { port: 0, side: 0 },
                Seat::Human { port: 0, side: 1 },
            ),
            Mode::ComputerVsComputer => (
                Seat::Computer {
                    kind: settings::effective_kind(s.computer_kind(), &rules),
                    side: 0,
                },
                Seat::Computer {
                    kind: settings::effective_kind(s.computer2_kind(), &rules),
                    side: 1,
                },
            ),
        };
        let seats = if side0_first {
            [side0, side1]
        } else {
            [side1, side0]
        };
        Match::begin(mode, false, seed, rules, seats, host)
    }

    /// A game (not the attract mode's) ended with `outcome`: its jingle, the
    /// scores (this session and the save's, logged) and the save written.
    pub(crate) fn record_result(&mut self, play: &Match, outcome: Outcome, host: &mut impl Host) {
        let mode = play.mode.index();
        let side0 = play.side0_mark();
        // Loss: the computer beat a person; any other win is celebrated.
        let jingle = match outcome.winner() {
            None => Cue::Draw,
            Some(m) if play.mode == Mode::OnePlayer && m != side0 => Cue::Loss,
            Some(_) => Cue::Win,
        };
        sound(host, jingle);
        self.rumble_result(play, outcome, host);
        for score in [&mut self.session[mode], &mut self.save.scores[mode]] {
            match outcome.winner() {
                Some(m) if m == side0 => score.wins = score.wins.saturating_add(1),
                Some(_) => score.losses = score.losses.saturating_add(1),
                None => score.draws = score.draws.saturating_add(1),
            }
        }
        let s = self.session[mode];
        let t = self.save.scores[mode];
        log(
            host,
            format_args!(
                "score {} session={}-{}-{} total={}-{}-{}",
                play.mode.name(),
                s.wins,
                s.losses,
                s.draws,
                t.wins,
                t.losses,
                t.draws
            ),
        );
        self.save.settings = self.settings;
        write_save(host, &self.save);
    }
}
