//! Tic-Tac-Toe 64: the console game, independent of the hardware.
//!
//! The ROM feeds [`Game::update`] one [`Input`] per frame (see
//! [`InputTracker`] for edges and auto-repeat), calls [`Game::draw`] on a
//! 320x240 [`Rgb555`] framebuffer, and implements [`Host`] (clock, log line
//! output, EEPROM). Everything else (screens, menu, game flow, computer
//! players, scores, save format) lives here and runs on the host in tests.
//!
//! `#![no_std]`, no allocator, no `unsafe`, no panics on any input.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod books;
pub mod canvas;
mod draw;
pub mod geometry;
pub mod input;
pub mod raster;
pub mod refresh;
pub mod save;
pub mod settings;
pub mod shown;
pub mod sound;
pub mod text;

use core::fmt;

pub use canvas::{Canvas, DisplayList, Font, Plain};
pub use draw::{layout, palette};
pub use embedded_graphics::pixelcolor::Rgb555;
pub use input::{Buttons, Input, InputTracker, PortInput, RawPort};
pub use raster::{rgba5551, Raster, Sprites};
pub use refresh::Refresh;
pub use save::{SaveData, SaveError, Score, SAVE_SIZE};
pub use settings::{First, MenuItem, Mode, Settings};
pub use shown::{Damage, Frame, Redraw, ShownFrames};
pub use sound::{Cue, Synth};
pub use ttt_core::ai::TtEntry;

use save::MODES;
use text::StrBuf;
use ttt_core::ai::{Budget, Player, PlayerKind, Solver};
use ttt_core::rng::Rng;
use ttt_core::{Mark, Outcome, Position, Rules, Square, SquareFormat};

/// What the game needs from the console.
pub trait Host {
    /// Microseconds since some fixed point (boot).
    fn now_us(&self) -> u64;
    /// One log line (IS-Viewer), without the newline.
    fn log(&mut self, line: &str);
    /// Reads the save into `buf` (the EEPROM's first `buf.len()` bytes);
    /// `false` if it cannot be read.
    fn save_read(&mut self, buf: &mut [u8]) -> bool;
    /// Writes `data` to the start of the EEPROM; `false` on failure.
    fn save_write(&mut self, data: &[u8]) -> bool;
    /// Plays a sound effect (the game has logged `sound <name>` already).
    fn sound(&mut self, cue: Cue);
    /// The next call may take long (the computer searches for up to a
    /// second): let what is playing end in silence rather than be cut off.
    fn hush(&mut self) {}
}

/// Idle time on the title screen (no input) before the attract mode starts.
pub const ATTRACT_AFTER_MS: u32 = 10_000;
/// How long the computer visibly "thinks" before it searches.
pub const THINK_MS: u32 = 333;
/// The same in the attract mode and computer-vs-computer games.
pub const THINK_CVC_MS: u32 = 667;
/// How long the result is shown before A/B are accepted.
pub const RESULT_HOLD_MS: u32 = 500;
/// How long an attract game's result stays up before the title returns.
pub const ATTRACT_RESULT_MS: u32 = 3_000;
/// Frame rate the title and cursor animations were designed at: they run
/// on [`Game::anim_frame`], a clock of this rate.
const ANIM_HZ: u64 = 60;

/// The game's delays in frames of the display's rate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FrameTimings {
    /// [`ATTRACT_AFTER_MS`].
    pub attract_after: u32,
    /// [`THINK_MS`] (at least 2: the frame before the search shows the pause).
    pub think: u32,
    /// [`THINK_CVC_MS`] (at least 2).
    pub think_cvc: u32,
    /// [`RESULT_HOLD_MS`].
    pub result_hold: u32,
    /// [`ATTRACT_RESULT_MS`].
    pub attract_result: u32,
}

impl FrameTimings {
    /// The delays at `refresh`.
    pub const fn new(refresh: Refresh) -> FrameTimings {
        let think = refresh.frames(THINK_MS);
        let think_cvc = refresh.frames(THINK_CVC_MS);
        FrameTimings {
            attract_after: refresh.frames(ATTRACT_AFTER_MS),
            think: if think < 2 { 2 } else { think },
            think_cvc: if think_cvc < 2 { 2 } else { think_cvc },
            result_hold: refresh.frames(RESULT_HOLD_MS),
            attract_result: refresh.frames(ATTRACT_RESULT_MS),
        }
    }
}

/// Which screen is up.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The title with its animation.
    Title,
    /// Two computer players playing, after some time idle on the title.
    Attract,
    /// Game setup.
    Menu,
    /// A game in progress.
    Game,
    /// Paused (resume, restart, main menu).
    Pause,
    /// The game is over: result and "Play again?".
    Result,
    /// A controller a player needs was unplugged.
    Unplugged,
}

impl Screen {
    /// Name in the log (`screen <name>`).
    pub const fn name(self) -> &'static str {
        match self {
            Screen::Title => "title",
            Screen::Attract => "attract",
            Screen::Menu => "menu",
            Screen::Game => "game",
            Screen::Pause => "pause",
            Screen::Result => "result",
            Screen::Unplugged => "unplugged",
        }
    }
}

/// Who sits at one side of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person on this controller port (0-based), side 0 or 1.
    Human {
        /// Controller port, 0..4.
        port: u8,
        /// 0: you / player 1; 1: player 2.
        side: u8,
    },
    /// The computer.
    Computer {
        /// Which player.
        kind: PlayerKind,
        /// 0: computer 1 (cvc); 1: the computer / computer 2.
        side: u8,
    },
}

impl Seat {
    fn side(self) -> usize {
        match self {
            Seat::Human { side, .. } | Seat::Computer { side, .. } => side as usize & 1,
        }
    }
}

/// Pause menu entries.
pub const PAUSE_ITEMS: [&str; 3] = ["Resume", "Restart", "Main menu"];

/// One game on the board.
#[derive(Clone)]
struct Match {
    mode: Mode,
    attract: bool,
    seed: u64,
    pos: Position,
    /// Indexed by mark.
    seats: [Seat; 2],
    cursor: Square,
    hint: Option<Square>,
    hint_pending: bool,
    /// Frames left before the computer searches (0: not scheduled).
    think: u32,
    /// The computer's last announcement: its mark and the square number.
    said: Option<(Mark, u16)>,
    /// Frames since the game ended.
    over_frames: u32,
}

impl Match {
    fn idle(rules: Rules) -> Match {
        Match {
            mode: Mode::OnePlayer,
            attract: false,
            seed: 0,
            pos: Position::new(rules),
            seats: [
                Seat::Human { port: 0, side: 0 },
                Seat::Computer {
                    kind: PlayerKind::Medium,
                    side: 1,
                },
            ],
            cursor: centre(&rules),
            hint: None,
            hint_pending: false,
            think: 0,
            said: None,
            over_frames: 0,
        }
    }

    fn rules(&self) -> &Rules {
        self.pos.rules()
    }

    fn seat_to_move(&self) -> Seat {
        self.seats[self.pos.side_to_move().index()]
    }

    /// The mark side 0 plays.
    fn side0_mark(&self) -> Mark {
        if self.seats[0].side() == 0 {
            Mark::X
        } else {
            Mark::O
        }
    }

    /// Ports a person needs (for the unplug check).
    fn needed_ports(&self) -> [Option<u8>; 2] {
        let mut out = [None; 2];
        for (o, seat) in out.iter_mut().zip(self.seats) {
            if let Seat::Human { port, .. } = seat {
                *o = Some(port);
            }
        }
        out
    }

    fn human_ports(&self) -> impl Iterator<Item = u8> + '_ {
        self.needed_ports().into_iter().flatten()
    }
}

fn centre(rules: &Rules) -> Square {
    Square::new((rules.columns() - 1) / 2, (rules.rows() - 1) / 2).unwrap_or(Square::from_index(0))
}

/// The seed of the computer's move: the desktop's formula (`ttt play`), with
/// the game's seed and game number 1, so `ttt --seed <n>` replays the game.
pub fn move_seed(game_seed: u64, mark_count: usize) -> u64 {
    ttt_core::ai::move_seed(game_seed, 1, mark_count)
}

/// The first-player coin toss of a game (the desktop's session coin).
pub fn coin_side1_first(game_seed: u64) -> bool {
    Rng::new(game_seed ^ 0x0005_EEDF_1257).below(2) == 0
}

/// The computer player the console uses for `kind` (already passed through
/// [`settings::effective_kind`]) on `rules`: searches are limited to
/// [`settings::console_nodes`], and the exact solver gets the console's
/// [opening book](books) for the board, if there is one (the moves are the
/// same as without it, only faster).
pub fn new_player<'a>(
    kind: PlayerKind,
    seed: u64,
    tt: &'a mut [TtEntry],
    rules: &Rules,
) -> Player<'a> {
    let mut player = Player::new(kind, seed, tt);
    player.set_budget(Budget::nodes(settings::console_nodes(rules)));
    if let Some(book) = books::for_rules(rules) {
        player.set_book(book);
    }
    player
}

/// The whole game: every screen and its state.
pub struct Game<'a> {
    tt: &'a mut [TtEntry],
    frame: u64,
    refresh: Refresh,
    timings: FrameTimings,
    screen: Screen,
    settings: Settings,
    save: SaveData,
    session: [Score; MODES],
    /// Games started per mode this session (for "alternate").
    games: [u32; MODES],
    menu_cursor: u8,
    pause_cursor: u8,
    title_idle: u32,
    unplugged_port: u8,
    play: Match,
    /// Microseconds spent in the computer's searches since power on.
    search_us: u64,
}

fn log(host: &mut impl Host, args: fmt::Arguments<'_>) {
    let line = StrBuf::<160>::format(args);
    host.log(line.as_str());
}

/// Logs `sound <name>` and plays the cue.
fn sound(host: &mut impl Host, cue: Cue) {
    log(host, format_args!("sound {}", cue.name()));
    host.sound(cue);
}

impl<'a> Game<'a> {
    /// A new game on the title screen. `tt` is the computer players'
    /// transposition table (a few thousand to 64K entries); `refresh` is the
    /// display's frame rate (one [`Game::update`] per frame), which turns the
    /// game's delays into frames. Loads the save; a missing or corrupt one is
    /// reset (logged `save reset`) and rewritten.
    pub fn new(tt: &'a mut [TtEntry], host: &mut impl Host, refresh: Refresh) -> Game<'a> {
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
        let settings = save.settings;
        let game = Game {
            tt,
            frame: 0,
            refresh,
            timings: FrameTimings::new(refresh),
            screen: Screen::Title,
            settings,
            save,
            session: [Score::ZERO; MODES],
            games: [0; MODES],
            menu_cursor: 0,
            pause_cursor: 0,
            title_idle: 0,
            unplugged_port: 0,
            play: Match::idle(settings.rules()),
            search_us: 0,
        };
        log(host, format_args!("screen title"));
        game
    }

    /// The screen that is up.
    pub fn screen(&self) -> Screen {
        self.screen
    }

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Scores this session, per mode ([`Mode::index`]).
    pub fn session_scores(&self) -> &[Score; MODES] {
        &self.session
    }

    /// All-time scores (the save), per mode.
    pub fn saved_scores(&self) -> &[Score; MODES] {
        &self.save.scores
    }

    /// The board of the current (or last) game.
    pub fn position(&self) -> &Position {
        &self.play.pos
    }

    /// The board cursor.
    pub fn cursor(&self) -> Square {
        self.play.cursor
    }

    /// Frames since power on.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// The display's frame rate given to [`Game::new`].
    pub fn refresh(&self) -> Refresh {
        self.refresh
    }

    /// The delays in frames at this rate.
    pub fn timings(&self) -> &FrameTimings {
        &self.timings
    }

    /// The animation clock: frames of a 60 Hz display since power on, so
    /// animations run at the same speed at any refresh rate.
    pub fn anim_frame(&self) -> u64 {
        self.refresh.millis(self.frame).saturating_mul(ANIM_HZ) / 1000
    }

    /// Microseconds spent in the computer's searches (moves and hints) since
    /// power on, by [`Host::now_us`]: lets the ROM time a frame without them.
    pub fn search_us(&self) -> u64 {
        self.search_us
    }

    fn goto(&mut self, screen: Screen, host: &mut impl Host) {
        if self.screen != screen {
            self.screen = screen;
            log(host, format_args!("screen {}", screen.name()));
        }
    }

    /// One frame of logic.
    pub fn update(&mut self, input: &Input, host: &mut impl Host) {
        self.frame = self.frame.wrapping_add(1);
        match self.screen {
            Screen::Title => self.update_title(input, host),
            Screen::Attract => self.update_attract(input, host),
            Screen::Menu => self.update_menu(input, host),
            Screen::Game => self.update_game(input, host),
            Screen::Pause => self.update_pause(input, host),
            Screen::Result => self.update_result(input, host),
            Screen::Unplugged => self.update_unplugged(input, host),
        }
    }

    fn update_title(&mut self, input: &Input, host: &mut impl Host) {
        let p = input.merged();
        if p.pressed.intersects(Buttons::START | Buttons::A) {
            self.menu_cursor = 0;
            sound(host, Cue::Confirm);
            self.goto(Screen::Menu, host);
            return;
        }
        let active = !p.pressed.is_empty() || !p.repeated.is_empty();
        if active {
            self.title_idle = 0;
        } else {
            self.title_idle = self.title_idle.saturating_add(1);
        }
        if self.title_idle >= self.timings.attract_after {
            self.title_idle = 0;
            self.start_attract(host);
        }
    }

    fn start_attract(&mut self, host: &mut impl Host) {
        // Pick the players and board from the frame counter.
        const PAIRS: [(PlayerKind, PlayerKind, u8); 6] = [
            (PlayerKind::Classic, PlayerKind::Squid, 3),
            (PlayerKind::Medium, PlayerKind::God, 3),
            (PlayerKind::Random, PlayerKind::Classic, 3),
            (PlayerKind::Hard, PlayerKind::Medium, 5),
            (PlayerKind::Squid, PlayerKind::Standard, 4),
            (PlayerKind::Easy, PlayerKind::Random, 3),
        ];
        let seed = self.frame;
        let (x, o, size) = PAIRS[(seed % PAIRS.len() as u64) as usize];
        let k = if size == 5 { 4 } else { size };
        let rules = Rules::new(size, size, k).unwrap_or(Rules::CLASSIC);
        let seats = [
            Seat::Computer { kind: x, side: 0 },
            Seat::Computer { kind: o, side: 1 },
        ];
        self.begin_match(Mode::ComputerVsComputer, true, seed, rules, seats, host);
        self.goto(Screen::Attract, host);
    }

    fn update_attract(&mut self, input: &Input, host: &mut impl Host) {
        let p = input.merged();
        if !p.pressed.is_empty() {
            self.title_idle = 0;
            self.goto(Screen::Title, host);
            return;
        }
        if self.play.pos.outcome().is_over() {
            self.play.over_frames = self.play.over_frames.saturating_add(1);
            if self.play.over_frames >= self.timings.attract_result {
                self.title_idle = 0;
                self.goto(Screen::Title, host);
            }
            return;
        }
        self.computer_turn(host);
    }

    /// Visible menu items for the current mode.
    pub fn menu_items(&self) -> impl Iterator<Item = MenuItem> + '_ {
        MenuItem::ALL
            .into_iter()
            .filter(|i| i.visible(self.settings.mode))
    }

    /// The menu item under the cursor.
    pub fn menu_selected(&self) -> MenuItem {
        self.menu_items()
            .nth(self.menu_cursor as usize)
            .unwrap_or(MenuItem::Start)
    }

    fn update_menu(&mut self, input: &Input, host: &mut impl Host) {
        let p = input.merged();
        let count = self.menu_items().count().max(1) as u8;
        if self.menu_cursor >= count {
            self.menu_cursor = count - 1;
        }
        if p.pressed.intersects(Buttons::B) {
            self.title_idle = 0;
            sound(host, Cue::Undo);
            self.goto(Screen::Title, host);
            return;
        }
        let menu_cursor = self.menu_cursor;
        if p.repeated.intersects(Buttons::DUP) {
            self.menu_cursor = (self.menu_cursor + count - 1) % count;
        }
        if p.repeated.intersects(Buttons::DDOWN) {
            self.menu_cursor = (self.menu_cursor + 1) % count;
        }
        if self.menu_cursor != menu_cursor {
            sound(host, Cue::Cursor);
        }
        let item = self.menu_selected();
        let mut delta = 0i8;
        if p.repeated.intersects(Buttons::DLEFT) {
            delta -= 1;
        }
        if p.repeated.intersects(Buttons::DRIGHT) {
            delta += 1;
        }
        if p.pressed.intersects(Buttons::A) && item != MenuItem::Start {
            delta = 1;
        }
        if delta != 0 && item != MenuItem::Start {
            let before = self.settings;
            self.settings.change(item, delta);
            if self.settings != before {
                sound(host, Cue::Cursor);
                let mut value = StrBuf::<32>::new();
                let _ = self.settings.log_value(item, &mut value);
                log(host, format_args!("menu {}={}", item.name(), value));
                if item == MenuItem::Board && self.settings.k != before.k {
                    log(host, format_args!("menu k={}", self.settings.k));
                }
            }
        }
        let start = p.pressed.intersects(Buttons::START)
            || (p.pressed.intersects(Buttons::A) && item == MenuItem::Start);
        if start {
            sound(host, Cue::Confirm);
            self.start_game(host);
        }
    }

    /// Starts a game with the menu's settings.
    fn start_game(&mut self, host: &mut impl Host) {
        let s = self.settings;
        let rules = s.rules();
        let mode = s.mode;
        let seed = self.frame;
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
        self.begin_match(mode, false, seed, rules, seats, host);
        self.goto(Screen::Game, host);
        self.check_ports(&Input::NONE, host, true);
    }

    fn begin_match(
        &mut self,
        mode: Mode,
        attract: bool,
        seed: u64,
        rules: Rules,
        seats: [Seat; 2],
        host: &mut impl Host,
    ) {
        self.play = Match {
            mode,
            attract,
            seed,
            pos: Position::new(rules),
            seats,
            cursor: centre(&rules),
            hint: None,
            hint_pending: false,
            think: 0,
            said: None,
            over_frames: 0,
        };
        let name = |seat: Seat| match seat {
            Seat::Human { .. } => "human",
            Seat::Computer { kind, .. } => kind.name(),
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
                name(seats[0]),
                name(seats[1]),
                settings::console_nodes(&rules)
            ),
        );
    }

    /// Goes to the unplugged screen if a needed controller is missing. With
    /// `initial`, only the ports are checked (`input` is ignored and the
    /// last known state is unknown): the next update re-checks with real input.
    fn check_ports(&mut self, input: &Input, host: &mut impl Host, initial: bool) -> bool {
        if initial || self.play.attract {
            return false;
        }
        for port in self.play.needed_ports().into_iter().flatten() {
            let connected = input.ports.get(port as usize).is_some_and(|p| p.connected);
            if !connected {
                self.unplugged_port = port;
                log(host, format_args!("controller {} unplugged", port + 1));
                self.goto(Screen::Unplugged, host);
                return true;
            }
        }
        false
    }

    fn update_game(&mut self, input: &Input, host: &mut impl Host) {
        if self.check_ports(input, host, false) {
            return;
        }
        // Start pauses, from any player's controller (any controller in cvc).
        let start = match self.play.mode {
            Mode::ComputerVsComputer => input.merged().pressed.intersects(Buttons::START),
            _ => self.play.human_ports().any(|port| {
                input
                    .ports
                    .get(port as usize)
                    .is_some_and(|p| p.pressed.intersects(Buttons::START))
            }),
        };
        if start {
            self.pause_cursor = 0;
            sound(host, Cue::Pause);
            self.goto(Screen::Pause, host);
            return;
        }
        if self.play.pos.outcome().is_over() {
            self.goto(Screen::Result, host);
            return;
        }
        if self.play.hint_pending {
            self.play.hint_pending = false;
            host.hush();
            self.compute_hint(host);
            return;
        }
        match self.play.seat_to_move() {
            Seat::Computer { .. } => self.computer_turn(host),
            Seat::Human { port, .. } => {
                let p = input.ports.get(port as usize).copied().unwrap_or_default();
                self.human_turn(&p, input, host);
            }
        }
    }

    fn human_turn(&mut self, p: &PortInput, input: &Input, host: &mut impl Host) {
        let rules = *self.play.rules();
        let (cols, rows) = (rules.columns(), rules.rows());
        let mut c = self.play.cursor.column().min(cols - 1);
        let mut r = self.play.cursor.row().min(rows - 1);
        if p.repeated.intersects(Buttons::DLEFT) {
            c = if c == 0 { cols - 1 } else { c - 1 };
        }
        if p.repeated.intersects(Buttons::DRIGHT) {
            c = if c + 1 >= cols { 0 } else { c + 1 };
        }
        if p.repeated.intersects(Buttons::DUP) {
            r = if r == 0 { rows - 1 } else { r - 1 };
        }
        if p.repeated.intersects(Buttons::DDOWN) {
            r = if r + 1 >= rows { 0 } else { r + 1 };
        }
        if let Some(sq) = Square::new(c, r) {
            if sq != self.play.cursor {
                sound(host, Cue::Cursor);
            }
            self.play.cursor = sq;
        }
        if p.pressed.intersects(Buttons::A) {
            let sq = self.play.cursor;
            if self.play.pos.is_legal(sq) {
                self.play_move(sq, host);
            } else {
                log(host, format_args!("illegal {}", coord(&rules, sq)));
                sound(host, Cue::Illegal);
            }
            return;
        }
        // Undo: the player to move, or in the two-controller mode either player.
        let undo = p.pressed.intersects(Buttons::B)
            || (self.play.mode == Mode::TwoPads
                && self.play.human_ports().any(|port| {
                    input
                        .ports
                        .get(port as usize)
                        .is_some_and(|q| q.pressed.intersects(Buttons::B))
                }));
        if undo {
            self.undo(host);
            return;
        }
        if p.pressed.intersects(Buttons::Z) {
            self.play.hint_pending = true;
        }
    }

    fn undo(&mut self, host: &mut impl Host) {
        let pos = &mut self.play.pos;
        let mut n = 0;
        match self.play.mode {
            Mode::OnePlayer => {
                let you = Mark::ALL
                    .into_iter()
                    .find(|&m| matches!(self.play.seats[m.index()], Seat::Human { .. }));
                let Some(you) = you else { return };
                let first_yours = if you == Mark::X { 0 } else { 1 };
                if pos.history().len() <= first_yours {
                    return;
                }
                while pos.undo().is_some() {
                    n += 1;
                    if pos.side_to_move() == you {
                        break;
                    }
                }
            }
            Mode::TwoPads | Mode::SharedPad => {
                if pos.undo().is_some() {
                    n = 1;
                }
            }
            Mode::ComputerVsComputer => {}
        }
        if n > 0 {
            self.play.hint = None;
            self.play.said = None;
            self.play.think = 0;
            // `undo`, then how many moves went: `undone 2`.
            log(host, format_args!("undo"));
            log(host, format_args!("undone {n}"));
            sound(host, Cue::Undo);
        }
    }

    fn compute_hint(&mut self, host: &mut impl Host) {
        let pos = &self.play.pos;
        if pos.outcome().is_over() {
            return;
        }
        let seed = move_seed(self.play.seed, pos.mark_count());
        let t0 = host.now_us();
        // The exact solver where it is quick on the console, else the
        // strongest player that is (see `settings::effective_kind`).
        let sq = if settings::console_solvable(pos.rules()) {
            let mut solver = Solver::new(&mut *self.tt);
            if let Some(book) = books::for_rules(pos.rules()) {
                solver.set_book(book);
            }
            solver.best_move(pos, seed).map(|(sq, _)| sq)
        } else {
            let kind = settings::effective_kind(PlayerKind::Strong, pos.rules());
            new_player(kind, seed, &mut *self.tt, pos.rules()).choose_move(pos)
        };
        let t1 = host.now_us();
        self.search_us = self.search_us.saturating_add(t1.saturating_sub(t0));
        if let Some(sq) = sq.filter(|&s| pos.is_legal(s)) {
            let rules = *pos.rules();
            self.play.hint = Some(sq);
            self.play.cursor = sq;
            log(host, format_args!("hint {}", coord(&rules, sq)));
            log(host, format_args!("hint-time {}", t1.saturating_sub(t0)));
            sound(host, Cue::Hint);
        }
    }

    fn computer_turn(&mut self, host: &mut impl Host) {
        let Seat::Computer { kind, .. } = self.play.seat_to_move() else {
            return;
        };
        if self.play.think == 0 {
            self.play.think = if self.play.mode == Mode::ComputerVsComputer {
                self.timings.think_cvc
            } else {
                self.timings.think
            };
            return;
        }
        self.play.think -= 1;
        if self.play.think > 1 {
            return;
        }
        self.play.think = 0;
        host.hush();
        let pos = &self.play.pos;
        let seed = move_seed(self.play.seed, pos.mark_count());
        let t0 = host.now_us();
        let chosen = new_player(kind, seed, &mut *self.tt, pos.rules()).choose_move(pos);
        let t1 = host.now_us();
        self.search_us = self.search_us.saturating_add(t1.saturating_sub(t0));
        log(
            host,
            format_args!(
                "{}ai {} {}",
                if self.play.attract { "attract " } else { "" },
                kind.name(),
                t1.saturating_sub(t0)
            ),
        );
        let square = chosen
            .filter(|&s| pos.is_legal(s))
            .or_else(|| pos.legal_moves().first());
        if let Some(sq) = square {
            let mark = pos.side_to_move();
            let number = pos.rules().number_of(sq);
            self.play.said = Some((mark, number));
            if !self.play.attract {
                log(host, format_args!("say I am choosing square {number}!"));
            }
            self.play_move(sq, host);
        }
    }

    fn play_move(&mut self, sq: Square, host: &mut impl Host) {
        let mark = self.play.pos.side_to_move();
        if self.play.pos.play(sq).is_err() {
            return;
        }
        let rules = *self.play.rules();
        if matches!(self.play.seats[mark.index()], Seat::Human { .. }) {
            self.play.said = None;
        }
        self.play.hint = None;
        log(
            host,
            format_args!(
                "{}move {} {}",
                if self.play.attract { "attract " } else { "" },
                mark,
                coord(&rules, sq)
            ),
        );
        if !self.play.attract {
            sound(
                host,
                if mark == Mark::X {
                    Cue::PlaceX
                } else {
                    Cue::PlaceO
                },
            );
        }
        let outcome = self.play.pos.outcome();
        if outcome.is_over() {
            self.finish(outcome, host);
        }
    }

    fn finish(&mut self, outcome: Outcome, host: &mut impl Host) {
        let result = match outcome {
            Outcome::Win(Mark::X) => "x-wins",
            Outcome::Win(Mark::O) => "o-wins",
            _ => "draw",
        };
        self.play.over_frames = 0;
        if self.play.attract {
            log(host, format_args!("attract result {result}"));
            return;
        }
        log(host, format_args!("result {result}"));
        let mode = self.play.mode.index();
        let side0 = self.play.side0_mark();
        // Loss: the computer beat a person; any other win is celebrated.
        let jingle = match outcome.winner() {
            None => Cue::Draw,
            Some(m) if self.play.mode == Mode::OnePlayer && m != side0 => Cue::Loss,
            Some(_) => Cue::Win,
        };
        sound(host, jingle);
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
                self.play.mode.name(),
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
        self.goto(Screen::Result, host);
    }

    fn update_pause(&mut self, input: &Input, host: &mut impl Host) {
        let p = input.merged();
        let n = PAUSE_ITEMS.len() as u8;
        let pause_cursor = self.pause_cursor;
        if p.repeated.intersects(Buttons::DUP) {
            self.pause_cursor = (self.pause_cursor + n - 1) % n;
        }
        if p.repeated.intersects(Buttons::DDOWN) {
            self.pause_cursor = (self.pause_cursor + 1) % n;
        }
        if self.pause_cursor != pause_cursor {
            sound(host, Cue::Cursor);
        }
        if p.pressed.intersects(Buttons::B | Buttons::START) {
            sound(host, Cue::Pause);
            self.goto(Screen::Game, host);
            return;
        }
        if p.pressed.intersects(Buttons::A) {
            sound(host, Cue::Confirm);
            match self.pause_cursor {
                0 => self.goto(Screen::Game, host),
                1 => {
                    log(host, format_args!("restart"));
                    self.start_game(host);
                }
                _ => {
                    self.menu_cursor = 0;
                    self.goto(Screen::Menu, host);
                }
            }
        }
    }

    fn update_result(&mut self, input: &Input, host: &mut impl Host) {
        self.play.over_frames = self.play.over_frames.saturating_add(1);
        if self.play.over_frames < self.timings.result_hold {
            return;
        }
        let p = input.merged();
        if p.pressed.intersects(Buttons::A | Buttons::START) {
            sound(host, Cue::Confirm);
            log(host, format_args!("play again"));
            self.start_game(host);
        } else if p.pressed.intersects(Buttons::B) {
            self.menu_cursor = 0;
            sound(host, Cue::Undo);
            self.goto(Screen::Menu, host);
        }
    }

    fn update_unplugged(&mut self, input: &Input, host: &mut impl Host) {
        let all = self
            .play
            .needed_ports()
            .into_iter()
            .flatten()
            .all(|port| input.ports.get(port as usize).is_some_and(|p| p.connected));
        if all {
            log(
                host,
                format_args!("controller {} reconnected", self.unplugged_port + 1),
            );
            self.pause_cursor = 0;
            self.goto(Screen::Pause, host);
        }
    }
}

fn coord(rules: &Rules, sq: Square) -> StrBuf<8> {
    StrBuf::format(format_args!(
        "{}",
        rules.display_square(sq, SquareFormat::Coord)
    ))
}

fn write_save(host: &mut impl Host, data: &SaveData) {
    let bytes = data.encode();
    if host.save_write(&bytes) {
        log(host, format_args!("save written"));
    } else {
        log(host, format_args!("save write failed"));
    }
}
