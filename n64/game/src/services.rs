//! What every screen may use: the clock, the settings, the save and the
//! scores, the computer's searches; and starting a game with the settings.

use ttt_core::series::{Coin, GameResult, Series, Side};
use ttt_core::Outcome;

use crate::host::{log, poll_save, sound, write_save, Host, RumbleCause};
use crate::play::Match;
use crate::refresh::Refresh;
use crate::save::{SaveData, SaveError, MODES, SAVE_SIZE};
use crate::search::Searches;
use crate::settings::{Mode, Settings};
use crate::sound::Cue;
use crate::timing::Clock;

/// The game's shared state, apart from the match on the board.
pub(crate) struct Services {
    pub(crate) searches: Searches,
    pub(crate) clock: Clock,
    pub(crate) settings: Settings,
    pub(crate) save: SaveData,
    /// This session's series of games, per mode: the games started (for
    /// "alternate") and the scores.
    pub(crate) series: [Series; MODES],
    /// Per port: a controller with a Rumble Pak is connected (this frame's
    /// input).
    pub(crate) rumble_paks: [bool; 4],
    /// The host is still writing the save ([`Services::poll_save`] asks
    /// it once a frame).
    saving: bool,
}

impl Services {
    /// Loads the save; a missing or corrupt one is reset (logged `save
    /// reset`) and rewritten.
    pub(crate) fn load(host: &mut impl Host, refresh: Refresh) -> Self {
        let mut buf = [0u8; SAVE_SIZE];
        let loaded = if host.save_read(&mut buf) {
            SaveData::decode(&buf)
        } else {
            Err(SaveError::Short)
        };
        let (save, saving) = match loaded {
            Ok(data) => {
                log(host, format_args!("save loaded"));
                (data, false)
            }
            Err(e) => {
                log(host, format_args!("save invalid {}", e.name()));
                log(host, format_args!("save reset"));
                let data = SaveData::default();
                let saving = write_save(host, &data);
                (data, saving)
            }
        };
        let settings = save.settings;
        Services {
            searches: Searches::default(),
            clock: Clock::new(refresh),
            settings,
            save,
            series: Mode::ALL.map(|mode| Series::new(settings.players(mode), settings.first)),
            rumble_paks: [false; 4],
            saving,
        }
    }

    /// Once a frame: how the save the host is writing is going (logged
    /// when it ends).
    pub(crate) fn poll_save(&mut self, host: &mut impl Host) {
        if self.saving {
            self.saving = poll_save(host);
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
        if let Some(port) = play.port(winner) {
            self.rumble(port, RumbleCause::Win, host);
        } else if let Some(port) = play.port(winner.other()) {
            self.rumble(port, RumbleCause::Loss, host);
        }
    }

    /// A new game with the menu's settings, seeded by the clock. A coin
    /// toss is that of the game's seed, so `ttt --seed <seed>` opens its
    /// first game the same way.
    pub(crate) fn new_match(&mut self, host: &mut impl Host) -> Match {
        let s = self.settings;
        let seed = self.clock.frame();
        let series = &mut self.series[s.mode.index()];
        series.set_players(s.players(s.mode));
        series.set_first(s.first);
        let opener = series.next_opener(&mut Coin::new(seed));
        let lineup = series.start_game(opener);
        Match::begin(s.mode, false, seed, s.rules(), lineup, s.think_ms(), host)
    }

    /// A game (not the attract mode's) ended with `outcome`: its jingle, the
    /// scores (this session and the save's, logged) and the save written.
    pub(crate) fn record_result(&mut self, play: &Match, outcome: Outcome, host: &mut impl Host) {
        let mode = play.mode.index();
        let Some(result) = self.series[mode].finish_game(outcome) else {
            return;
        };
        // Loss: the computer beat a person; any other win is celebrated.
        let jingle = match result {
            GameResult::Draw => Cue::Draw,
            GameResult::Win(Side::Two) if play.mode == Mode::OnePlayer => Cue::Loss,
            GameResult::Win(_) => Cue::Win,
        };
        sound(host, jingle);
        self.rumble_result(play, outcome, host);
        self.save.scores[mode].add(result);
        log(
            host,
            format_args!(
                "score {} session={} total={}",
                play.mode.name(),
                self.series[mode].score(),
                self.save.scores[mode]
            ),
        );
        self.save.settings = self.settings;
        self.saving = write_save(host, &self.save);
    }
}
