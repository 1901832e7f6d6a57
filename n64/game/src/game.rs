//! [`Game`]: the state machine over the screens. It owns the match on the
//! board and the shared services, runs the screen that is up each frame,
//! and hands control to the screen that one asks for.

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use ttt_core::series::Score;
use ttt_core::{Position, Square};

use crate::canvas::{Canvas, Plain};
use crate::host::{log, Host};
use crate::input::Input;
use crate::palette;
use crate::play::Match;
use crate::refresh::Refresh;
use crate::save::MODES;
use crate::screens::menu::Menu;
use crate::screens::pause::Pause;
use crate::screens::title::Title;
use crate::screens::unplugged::Unplugged;
use crate::screens::{game, result, Next, Screen};
use crate::services::Services;
use crate::settings::{MenuItem, Settings};
use crate::shown::Frame;
use crate::timing::FrameTimings;

/// The whole game: every screen and its state.
pub struct Game {
    sv: Services,
    play: Match,
    screen: Screen,
    title: Title,
    menu: Menu,
    pause: Pause,
    unplugged: Unplugged,
}

impl Game {
    /// A new game on the title screen. `refresh` is the display's frame
    /// rate (one [`Game::update`] per frame), which turns the game's delays
    /// into frames. Loads the save; a missing or corrupt one is reset
    /// (logged `save reset`) and rewritten. The computer's searches run on
    /// the host ([`Host::search_start`]), with its transposition table.
    pub fn new(host: &mut impl Host, refresh: Refresh) -> Game {
        let sv = Services::load(host, refresh);
        let play = Match::idle(sv.settings.rules());
        log(host, format_args!("screen title"));
        Game {
            sv,
            play,
            screen: Screen::Title,
            title: Title::new(),
            menu: Menu::new(),
            pause: Pause::new(),
            unplugged: Unplugged::new(0),
        }
    }

    /// The screen that is up.
    pub fn screen(&self) -> Screen {
        self.screen
    }

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        &self.sv.settings
    }

    /// Scores this session, per mode ([`Mode::index`](crate::Mode::index)).
    pub fn session_scores(&self) -> [Score; MODES] {
        self.sv.series.map(|series| series.score())
    }

    /// All-time scores (the save), per mode.
    pub fn saved_scores(&self) -> &[Score; MODES] {
        &self.sv.save.scores
    }

    /// The board of the current (or last) game.
    pub fn position(&self) -> &Position {
        &self.play.pos
    }

    /// The board cursor.
    pub fn cursor(&self) -> Square {
        self.play.cursor
    }

    /// Display frames since power on (the sum of the frames given to the
    /// updates).
    pub fn frame(&self) -> u64 {
        self.sv.clock.frame()
    }

    /// The display's frame rate given to [`Game::new`].
    pub fn refresh(&self) -> Refresh {
        self.sv.clock.refresh()
    }

    /// The delays in frames at this rate.
    pub fn timings(&self) -> &FrameTimings {
        self.sv.clock.timings()
    }

    /// The animation clock: frames of a 60 Hz display since power on, so
    /// animations run at the same speed at any refresh rate.
    pub fn anim_frame(&self) -> u64 {
        self.sv.clock.anim_frame()
    }

    /// Whether the game waits for a search (the computer's move or a hint).
    pub fn is_thinking(&self) -> bool {
        self.play.pending.is_some()
    }

    /// Visible menu items for the current mode.
    pub fn menu_items(&self) -> impl Iterator<Item = MenuItem> + '_ {
        Menu::items(&self.sv)
    }

    /// The menu item under the cursor.
    pub fn menu_selected(&self) -> MenuItem {
        self.menu.selected(&self.sv)
    }

    /// One frame of logic, one frame after the last.
    pub fn update(&mut self, input: &Input, host: &mut impl Host) {
        self.update_frames(1, input, host);
    }

    /// One frame of logic, `frames` display frames after the last update
    /// (the ROM counts the vertical interrupts; 0 counts as 1). The game's
    /// delays (attract mode, the computer's thinking pause, the result
    /// hold) and animations run on these frames, so an update that missed
    /// a vsync does not stretch them. Give the [`InputTracker`] the same
    /// count ([`InputTracker::update_frames`]) for auto-repeat.
    ///
    /// [`InputTracker`]: crate::InputTracker
    /// [`InputTracker::update_frames`]: crate::InputTracker::update_frames
    pub fn update_frames(&mut self, frames: u32, input: &Input, host: &mut impl Host) {
        self.sv.clock.advance(frames);
        self.sv.rumble_paks = input.ports.map(|p| p.connected && p.rumble_pak);
        self.sv.poll_save(host);
        let (sv, play) = (&mut self.sv, &mut self.play);
        let next = match self.screen {
            Screen::Title => self.title.update(sv, play, input, host),
            Screen::Attract => self.title.update_attract(sv, play, input, host),
            Screen::Menu => self.menu.update(sv, play, input, host),
            Screen::Game => game::update(sv, play, input, host),
            Screen::Pause => self.pause.update(sv, play, input, host),
            Screen::Result => result::update(sv, play, input, host),
            Screen::Unplugged => self.unplugged.update(play, input, host),
        };
        match next {
            Next::Stay => {}
            Next::To(screen) => self.enter(screen, host),
            Next::Unplugged { port } => {
                self.unplugged = Unplugged::new(port);
                self.enter(Screen::Unplugged, host);
            }
        }
    }

    /// Shows `screen` afresh (logged `screen <name>`), unless it is up.
    fn enter(&mut self, screen: Screen, host: &mut impl Host) {
        if self.screen == screen {
            return;
        }
        // Off the board: a search still running is not wanted any more.
        if matches!(screen, Screen::Title | Screen::Menu) {
            self.play.abandon_search(host);
        }
        match screen {
            Screen::Title => self.title.enter(),
            Screen::Menu => self.menu.enter(),
            Screen::Pause => self.pause.enter(),
            Screen::Attract | Screen::Game | Screen::Result | Screen::Unplugged => {}
        }
        self.screen = screen;
        log(host, format_args!("screen {}", screen.name()));
    }

    /// Draws the whole frame (320x240) with embedded-graphics.
    pub fn draw<D: DrawTarget<Color = Rgb555>>(&self, target: &mut D) {
        self.draw_on(&mut Plain(target));
    }

    /// Draws the whole frame (320x240) on a canvas.
    pub fn draw_on<C: Canvas>(&self, target: &mut C) {
        target.fill_screen(palette::BG);
        let (sv, play) = (&self.sv, &self.play);
        match self.screen {
            Screen::Title => self.title.draw(sv, target),
            Screen::Attract => Title::draw_attract(sv, play, target),
            Screen::Menu => self.menu.draw(sv, target),
            Screen::Game => game::draw(sv, play, target),
            Screen::Pause => self.pause.draw(sv, play, target),
            Screen::Result => result::draw(sv, play, target),
            Screen::Unplugged => self.unplugged.draw(sv, play, target),
        }
    }
}

impl Frame for Game {
    fn draw_on<C: Canvas>(&self, canvas: &mut C) {
        Game::draw_on(self, canvas);
    }
}
