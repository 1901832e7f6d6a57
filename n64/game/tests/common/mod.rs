//! Test harness: a fake host, an in-memory framebuffer and a driver that
//! feeds scripted controller input frame by frame.
#![allow(dead_code)]

use std::cell::Cell;
use std::collections::VecDeque;
use std::convert::Infallible;
use std::time::{Duration, Instant};

use embedded_graphics::mono_font::ascii::FONT_10X20;
use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};
use ttt64_game::{
    layout, palette, Buttons, Cue, Game, Host, Input, InputTracker, MenuItem, PatternUndo, RawPort,
    Refresh, Rgb555, SaveProgress, Screen, SearchJob, SearchReply, TtEntry, TAKE_BACKS,
};
use ttt_core::{Mark, Square};

/// Records log lines and keeps a 512-byte EEPROM.
pub struct FakeHost {
    pub start: Instant,
    pub lines: Vec<String>,
    pub eeprom: Vec<u8>,
    pub writes: usize,
    pub fail_reads: bool,
    pub echo: bool,
    pub fake_clock: Option<Cell<u64>>,
    /// Cues played, in order.
    pub sounds: Vec<Cue>,
    /// `rumble` calls: the port (0-based) of each.
    pub rumbles: Vec<u8>,
    /// The computer players' transposition table.
    pub tt: Vec<TtEntry>,
    /// The pattern board's take-back records, lent to every search.
    pub take_backs: Vec<PatternUndo>,
    /// Every search the game started, in order.
    pub jobs: Vec<SearchJob>,
    /// Replies not yet polled.
    pub replies: VecDeque<SearchReply>,
    /// `search_stop` calls.
    pub stops: usize,
    /// Polls that find nothing before a reply comes out: a search that
    /// takes this many frames (0: the reply is there at the first poll).
    pub search_polls: u32,
    polls_left: u32,
    /// Polls of `save_progress` that say "writing" before a save is in
    /// `eeprom` (0: written at once, as `save_write` is called).
    pub save_polls: u32,
    /// The save being written and the polls it still takes.
    saving: Option<(Vec<u8>, u32)>,
}

/// How much faster the host searches than the console: a job's time limit
/// is divided by this (the console's 1 s is 10 ms here).
pub const SEARCH_SPEEDUP: u64 = 100;

impl FakeHost {
    pub fn new() -> FakeHost {
        FakeHost {
            start: Instant::now(),
            lines: Vec::new(),
            eeprom: vec![0; 512],
            writes: 0,
            fail_reads: false,
            echo: std::env::var_os("GAME_LOG").is_some(),
            fake_clock: None,
            sounds: Vec::new(),
            rumbles: Vec::new(),
            tt: tt(),
            take_backs: take_backs(),
            jobs: Vec::new(),
            replies: VecDeque::new(),
            stops: 0,
            search_polls: 0,
            polls_left: 0,
            save_polls: 0,
            saving: None,
        }
    }

    pub fn has(&self, line: &str) -> bool {
        self.lines.iter().any(|l| l == line)
    }

    pub fn count_prefix(&self, prefix: &str) -> usize {
        self.lines.iter().filter(|l| l.starts_with(prefix)).count()
    }

    pub fn with_prefix(&self, prefix: &str) -> Vec<String> {
        self.lines
            .iter()
            .filter(|l| l.starts_with(prefix))
            .cloned()
            .collect()
    }
}

impl Host for FakeHost {
    fn now_us(&self) -> u64 {
        match &self.fake_clock {
            Some(c) => {
                let v = c.get() + 1;
                c.set(v);
                v
            }
            None => self.start.elapsed().as_micros() as u64,
        }
    }

    fn log(&mut self, line: &str) {
        if self.echo {
            eprintln!("log: {line}");
        }
        assert!(!line.contains('\n'), "one log call = one line: {line:?}");
        self.lines.push(line.to_string());
    }

    fn save_read(&mut self, buf: &mut [u8]) -> bool {
        if self.fail_reads || buf.len() > self.eeprom.len() {
            return false;
        }
        buf.copy_from_slice(&self.eeprom[..buf.len()]);
        true
    }

    fn sound(&mut self, cue: Cue) {
        self.sounds.push(cue);
    }

    /// Runs the job at once (its time limit scaled by [`SEARCH_SPEEDUP`]);
    /// the reply comes out after `search_polls` empty polls.
    fn search_start(&mut self, job: SearchJob) {
        let start = Instant::now();
        let limit = job
            .time_ms
            .map(|ms| Duration::from_micros(u64::from(ms) * 1000 / SEARCH_SPEEDUP));
        let stop = || limit.is_some_and(|l| start.elapsed() >= l);
        let mut reply = job.run(&mut self.tt, &mut self.take_backs, &stop);
        reply.us = start.elapsed().as_micros() as u64;
        self.jobs.push(job);
        self.replies.push_back(reply);
        self.polls_left = self.search_polls;
    }

    fn search_poll(&mut self) -> Option<SearchReply> {
        if self.polls_left > 0 {
            self.polls_left -= 1;
            return None;
        }
        self.replies.pop_front()
    }

    fn search_stop(&mut self) {
        self.stops += 1;
    }

    fn rumble(&mut self, port: u8) {
        self.rumbles.push(port);
    }

    fn save_write(&mut self, data: &[u8]) -> SaveProgress {
        if data.len() > self.eeprom.len() {
            return SaveProgress::Failed;
        }
        self.writes += 1;
        self.saving = Some((data.to_vec(), self.save_polls));
        self.save_progress()
    }

    fn save_progress(&mut self) -> SaveProgress {
        match self.saving.take() {
            Some((data, 0)) => {
                self.eeprom[..data.len()].copy_from_slice(&data);
                SaveProgress::Written
            }
            Some((data, polls)) => {
                self.saving = Some((data, polls - 1));
                SaveProgress::Writing
            }
            None => SaveProgress::Written,
        }
    }
}

/// 320x240 Rgb555 in memory.
pub struct Framebuffer {
    pub pixels: Vec<Rgb555>,
}

impl Framebuffer {
    pub fn new() -> Framebuffer {
        Framebuffer {
            pixels: vec![Rgb555::new(0, 0, 0); 320 * 240],
        }
    }

    pub fn get(&self, p: Point) -> Rgb555 {
        self.pixels[p.y as usize * 320 + p.x as usize]
    }

    /// Points of `rect` that have colour `c`.
    pub fn points_of(&self, rect: Rectangle, c: Rgb555) -> Vec<Point> {
        rect.points()
            .filter(|p| p.x >= 0 && p.y >= 0 && p.x < 320 && p.y < 240)
            .filter(|&p| self.get(p) == c)
            .collect()
    }

    pub fn count(&self, rect: Rectangle, c: Rgb555) -> usize {
        self.points_of(rect, c).len()
    }
}

impl OriginDimensions for Framebuffer {
    fn size(&self) -> Size {
        Size::new(320, 240)
    }
}

impl DrawTarget for Framebuffer {
    type Color = Rgb555;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Infallible>
    where
        I: IntoIterator<Item = Pixel<Rgb555>>,
    {
        for Pixel(p, c) in pixels {
            if p.x >= 0 && p.y >= 0 && p.x < 320 && p.y < 240 {
                self.pixels[p.y as usize * 320 + p.x as usize] = c;
            }
        }
        Ok(())
    }
}

/// The pixels `s` covers when drawn like the result message (FONT_10X20,
/// centred in the status bar): what the screen must show, exactly.
pub fn result_text_points(s: &str) -> Vec<Point> {
    let mut fb = Framebuffer::new();
    let style = MonoTextStyle::new(&FONT_10X20, palette::RESULT);
    let ts = TextStyleBuilder::new()
        .alignment(Alignment::Center)
        .baseline(Baseline::Middle)
        .build();
    Text::with_text_style(s, layout::STATUS.center(), style, ts)
        .draw(&mut fb)
        .unwrap();
    fb.points_of(layout::STATUS, palette::RESULT)
}

pub fn tt() -> Vec<TtEntry> {
    vec![TtEntry::EMPTY; 1 << 16]
}

/// As many take-back records as the console lends.
pub fn take_backs() -> Vec<PatternUndo> {
    (0..TAKE_BACKS).map(|_| PatternUndo::EMPTY).collect()
}

/// Drives a game with raw controller state through an [`InputTracker`].
pub struct Driver {
    pub game: Game,
    pub host: FakeHost,
    pub tracker: InputTracker,
    /// The controllers' state; [`Driver::input`] adds the press edges.
    pub raw: [RawPort; 4],
    /// `raw` as it was at the last reading.
    previous: [RawPort; 4],
    pub fb: Framebuffer,
    pub frames: u64,
    /// Draw every frame (else only on `render`).
    pub draw_always: bool,
}

pub fn connected(n: usize) -> [RawPort; 4] {
    let mut raw = [RawPort::default(); 4];
    for p in raw.iter_mut().take(n) {
        p.connected = true;
    }
    raw
}

/// The refresh rate of most tests: NTSC's 60 Hz.
pub const NTSC: Refresh = Refresh::hz(60);

impl Driver {
    pub fn new(host: FakeHost, ports: usize) -> Driver {
        Driver::with_refresh(host, ports, NTSC)
    }

    /// Computer against computer on 15x15 (`first` plays X, `second` O),
    /// set in the menu and not started; each search polls the host
    /// `search_polls` times.
    pub fn computers_on_15x15(search_polls: u32, first: &str, second: &str) -> Driver {
        let mut host = FakeHost::new();
        host.search_polls = search_polls;
        let mut d = Driver::new(host, 1);
        d.open_menu();
        d.set(MenuItem::Players, "cvc");
        d.set(MenuItem::Board, "15x15");
        d.set(MenuItem::Computer, first);
        d.set(MenuItem::Computer2, second);
        d
    }

    /// A game updated `refresh` times per second.
    pub fn with_refresh(mut host: FakeHost, ports: usize, refresh: Refresh) -> Driver {
        let game = Game::new(&mut host, refresh);
        Driver {
            game,
            host,
            tracker: InputTracker::new(refresh),
            raw: connected(ports),
            previous: [RawPort::default(); 4],
            fb: Framebuffer::new(),
            frames: 0,
            draw_always: false,
        }
    }

    /// Reads the controllers as the console's joypad module does, `frames`
    /// frames after the last reading: `raw`, with the buttons down now that
    /// were not then (on a port connected then) as its press edges.
    pub fn input(&mut self, frames: u32) -> Input {
        let mut raw = self.raw;
        for (port, before) in raw.iter_mut().zip(&self.previous) {
            let held_before = if before.connected {
                before.buttons.0
            } else {
                0
            };
            port.pressed = Buttons(port.buttons.0 & !held_before);
        }
        self.previous = self.raw;
        self.tracker.update_frames(frames, &raw)
    }

    /// One frame with the current raw state.
    pub fn step(&mut self) {
        let input = self.input(1);
        self.game.update(&input, &mut self.host);
        self.frames += 1;
        if self.draw_always {
            self.game.draw(&mut self.fb);
        }
    }

    pub fn idle(&mut self, frames: usize) {
        for _ in 0..frames {
            self.step();
        }
    }

    pub fn render(&mut self) {
        self.game.draw(&mut self.fb);
    }

    /// Press and release `b` on `port` (0-based): two frames.
    pub fn press(&mut self, port: usize, b: Buttons) {
        self.raw[port].buttons = b;
        self.step();
        self.raw[port].buttons = Buttons::NONE;
        self.step();
    }

    pub fn wait_screen(&mut self, screen: Screen, max: usize) {
        for _ in 0..max {
            if self.game.screen() == screen {
                return;
            }
            self.step();
        }
        assert_eq!(self.game.screen(), screen, "log: {:#?}", self.host.lines);
    }

    /// Title -> menu.
    pub fn open_menu(&mut self) {
        self.press(0, Buttons::START);
        assert_eq!(self.game.screen(), Screen::Menu);
    }

    /// Sets a menu item to the value the log shows (`menu <item>=<value>`).
    pub fn set(&mut self, item: MenuItem, value: &str) {
        for _ in 0..10 {
            if self.game.menu_selected() == item {
                break;
            }
            self.press(0, Buttons::DDOWN);
        }
        assert_eq!(self.game.menu_selected(), item);
        let want = format!("menu {}={}", item.name(), value);
        for _ in 0..16 {
            if self
                .host
                .lines
                .iter()
                .rev()
                .find(|l| l.starts_with(&format!("menu {}=", item.name())))
                == Some(&want)
            {
                return;
            }
            let before = self.host.lines.len();
            self.press(0, Buttons::DRIGHT);
            if self.host.lines[before..].contains(&want) {
                return;
            }
        }
        panic!("could not set {want}: {:#?}", self.host.lines);
    }

    /// Starts the game from the menu.
    pub fn start(&mut self) {
        self.press(0, Buttons::START);
        assert_eq!(self.game.screen(), Screen::Game, "{:#?}", self.host.lines);
    }

    /// Waits until `mark` is to move (or the game is over).
    pub fn wait_turn(&mut self, mark: Mark) {
        for _ in 0..2000 {
            let pos = self.game.position();
            if pos.outcome().is_over()
                || (pos.side_to_move() == mark && self.game.screen() == Screen::Game)
            {
                return;
            }
            self.step();
        }
        panic!("never {mark}'s turn: {:#?}", self.host.lines);
    }

    /// Moves the cursor to `sq` with D-pad presses on `port`.
    pub fn cursor_to(&mut self, port: usize, sq: Square) {
        for _ in 0..40 {
            let c = self.game.cursor();
            if c == sq {
                return;
            }
            let b = if c.column() < sq.column() {
                Buttons::DRIGHT
            } else if c.column() > sq.column() {
                Buttons::DLEFT
            } else if c.row() < sq.row() {
                Buttons::DDOWN
            } else {
                Buttons::DUP
            };
            self.press(port, b);
        }
        assert_eq!(self.game.cursor(), sq);
    }

    /// Moves the cursor to `sq` and presses A.
    pub fn place(&mut self, port: usize, sq: Square) {
        self.cursor_to(port, sq);
        self.press(port, Buttons::A);
    }
}

/// A square from its coordinate ("b2").
pub fn sq(name: &str) -> Square {
    let b = name.as_bytes();
    let col = b[0] - b'a';
    let row: u8 = name[1..].parse().unwrap();
    Square::new(col, row - 1).unwrap()
}
