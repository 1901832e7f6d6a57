//! The ROM's main loop: runs the console game ([`ttt64_game::Game`]) on
//! libdragon's display, joypads, audio and EEPROM.
//!
//! A frame ([`Loop::frame`]): read the pads ([`input::poll`]) and log their
//! changes, count the frames shown since the last one (vertical
//! interrupts, see [`FrameCounter`]), `InputTracker::update_frames`,
//! `Game::update_frames`, [`Audio::feed`] (tops up the audio queue), the
//! frame into the back buffer (`ShownFrames`: recorded, compared with what
//! that buffer shows, and only the changed rectangles redrawn), then show
//! it (from the next vertical blank). Between frames the loop waits for the
//! vertical interrupt, or, when the game has asked for a search, runs it
//! ([`Thinker::run`]) and runs each frame from inside it, as soon as the
//! interrupt has come (the engine asks its stop rule every few nodes).
//! Every [`HEARTBEAT_FRAMES`] frames the loop logs `heartbeat <frame>`
//! (liveness for the soak test), and once a second of COP0 time `perf
//! frames=<n> drawn=<n> frame_us_max=<us> draw_us_max=<us>
//! update_us_max=<us> missed=<n> thinking=<n>`: frames in that second, how
//! many of them had to be drawn into their buffer (whole or in part), the
//! worst frame's cost, update (with a block of a save being written) plus
//! draw, the vertical interrupts that passed without a new frame (the
//! picture stood still), and how many of the frames came while
//! the computer searched. The picture is alive when frame_us_max stays
//! below 16,667 and missed at 0.
//!
//! [`RomHost`] is the game's [`Host`]: COP0 time in microseconds, IS-Viewer
//! lines, the save in the cartridge EEPROM's first 8-byte blocks (written
//! a block a frame by a [`SaveWriter`] each frame steps, so that no frame
//! waits out the chip's 15 ms write cycle), the
//! sound effects ([`Audio`]), the Rumble Pak pulses ([`Rumbles`]: the
//! motor starts when the game asks and the main loop stops it
//! [`RUMBLE_MS`] later, so no frame waits for it) and the searches
//! ([`Queue`]).

use core::cell::RefCell;

use ttt64_game::save::BLOCK;
use ttt64_game::{
    Buttons, Cue, Game, Host, InputTracker, RawPort, Redraw, SaveProgress, SaveWriter, SearchJob,
    SearchReply, ShownFrames,
};

use crate::audio::Audio;
use crate::display::{self, Display, RateMeter};
use crate::input;
use crate::log;
use crate::save::Eeprom;
use crate::think::{Queue, Thinker};
use crate::time::{self, ticks_to_micros, TICKS_PER_SECOND};

/// Frames between heartbeat lines.
pub const HEARTBEAT_FRAMES: u32 = 60;

/// How long one rumble runs: long enough to feel, short enough not to
/// outlast the moment (the win jingle, the illegal buzz).
pub const RUMBLE_MS: u64 = 250;

/// The Rumble Pak pulses running: per port, the tick at which its motor
/// is to stop. The motor is started by [`Host::rumble`] and stopped by
/// [`Rumbles::stop_due`] in the main loop, once per pass: a pulse never
/// blocks a frame, and one that ends during a long update (the computer's
/// search) stops right after it.
struct Rumbles {
    stop_at: [Option<u64>; 4],
}

impl Rumbles {
    const fn new() -> Self {
        Self { stop_at: [None; 4] }
    }

    /// Starts the motor on `port` (if it is not running already) and
    /// (re)sets its stop to [`RUMBLE_MS`] from `now`.
    fn start(&mut self, port: usize, now: u64) {
        let Some(stop) = self.stop_at.get_mut(port) else {
            return;
        };
        if stop.is_none() {
            input::set_rumble(port, true);
        }
        *stop = Some(now + RUMBLE_MS * TICKS_PER_SECOND / 1000);
    }

    /// Stops every motor whose pulse has run its time by `now`.
    fn stop_due(&mut self, now: u64) {
        for (port, stop) in self.stop_at.iter_mut().enumerate() {
            if stop.is_some_and(|at| now >= at) {
                input::set_rumble(port, false);
                *stop = None;
            }
        }
    }
}

/// The game's view of the console.
pub struct RomHost<'a> {
    eeprom: &'a mut Eeprom,
    saver: &'a mut SaveWriter,
    audio: &'a mut Audio,
    rumbles: &'a mut Rumbles,
    searches: &'a Queue,
}

impl<'a> RomHost<'a> {
    fn new(
        eeprom: &'a mut Eeprom,
        saver: &'a mut SaveWriter,
        audio: &'a mut Audio,
        rumbles: &'a mut Rumbles,
        searches: &'a Queue,
    ) -> Self {
        Self {
            eeprom,
            saver,
            audio,
            rumbles,
            searches,
        }
    }
}

impl Host for RomHost<'_> {
    fn now_us(&self) -> u64 {
        ticks_to_micros(time::ticks())
    }

    fn log(&mut self, line: &str) {
        log!("{line}");
    }

    fn sound(&mut self, cue: Cue) {
        self.audio.play(cue);
    }

    fn search_start(&mut self, job: SearchJob) {
        self.searches.start(job);
    }

    fn search_poll(&mut self) -> Option<SearchReply> {
        self.searches.poll()
    }

    fn search_stop(&mut self) {
        self.searches.stop();
    }

    fn rumble(&mut self, port: u8) {
        self.rumbles.start(usize::from(port), time::ticks());
    }

    fn save_read(&mut self, buf: &mut [u8]) -> bool {
        if buf.len().div_ceil(BLOCK) > usize::from(self.eeprom.block_count()) {
            return false;
        }
        for (i, chunk) in buf.chunks_mut(BLOCK).enumerate() {
            match self.eeprom.read_block(i as u8) {
                Ok(data) => chunk.copy_from_slice(&data[..chunk.len()]),
                Err(_) => return false,
            }
        }
        // What the EEPROM holds: a save need not read these blocks again.
        self.saver.know(buf);
        true
    }

    /// Hands the save to the [`SaveWriter`], which the frames step: the
    /// blocks that differ from what the EEPROM holds, one a frame, each
    /// read back.
    fn save_write(&mut self, data: &[u8]) -> SaveProgress {
        self.saver.start(data, self.eeprom.block_count())
    }

    fn save_progress(&mut self) -> SaveProgress {
        self.saver.progress()
    }
}

/// Logs what changed on each port since the last frame's reading (`None`:
/// this is the first, and every port's connection is logged): `pad <p>
/// connected|disconnected`, `pad <p> rumble-pak in|out`, and `pad <p>
/// press <NAME>` for each button pressed.
fn log_pads(last: Option<&[RawPort; 4]>, now: &[RawPort; 4]) {
    for (i, pad) in now.iter().enumerate() {
        let port = i + 1;
        let before = last.map(|ports| ports[i]);
        if before.map(|b| b.connected) != Some(pad.connected) {
            let state = if pad.connected {
                "connected"
            } else {
                "disconnected"
            };
            log!("pad {port} {state}");
        }
        if before.is_some_and(|b| b.rumble_pak) != pad.rumble_pak {
            log!(
                "pad {port} rumble-pak {}",
                if pad.rumble_pak { "in" } else { "out" }
            );
        }
        for (button, name) in Buttons::NAMES {
            if pad.pressed.contains(button) {
                log!("pad {port} press {name}");
            }
        }
    }
}

/// Logs `vsync rate <hz> Hz (<n> interrupts)`, the vertical interrupt rate
/// measured against COP0 Count (the e2e tests tell PAL from NTSC by it).
fn log_vsync_rate(meter: &RateMeter) {
    let n = meter.interrupts();
    match meter.millihz() {
        Some(mhz) => log!(
            "vsync rate {}.{:03} Hz ({n} interrupts)",
            mhz / 1000,
            mhz % 1000
        ),
        None => log!("vsync rate unknown ({n} interrupts)"),
    }
}

/// Counts the frames the display showed between two passes of the loop
/// (vertical interrupts), so that the game's delays and auto-repeat keep
/// their length when a pass misses a vsync.
struct FrameCounter {
    /// The VI count when the last update started.
    start: u32,
}

impl FrameCounter {
    fn new(vsyncs: u32) -> Self {
        Self { start: vsyncs }
    }

    /// Frames since the last update (at least 1: a missing VI must not stop
    /// the game's clock); `vsyncs` is the VI count now, as the update starts.
    fn start_update(&mut self, vsyncs: u32) -> u32 {
        let frames = vsyncs.wrapping_sub(self.start);
        self.start = vsyncs;
        frames.max(1)
    }
}

/// The worst frame costs over one second of COP0 time (the `perf` line).
struct FrameStats {
    window_start: u64,
    frames: u32,
    drawn: u32,
    missed: u32,
    thinking: u32,
    frame_us_max: u64,
    draw_us_max: u64,
    update_us_max: u64,
}

impl FrameStats {
    fn new(now: u64) -> Self {
        Self {
            window_start: now,
            frames: 0,
            drawn: 0,
            missed: 0,
            thinking: 0,
            frame_us_max: 0,
            draw_us_max: 0,
            update_us_max: 0,
        }
    }

    /// A frame: its update and draw times, whether it drew, the vertical
    /// interrupts since the one before (1: none missed), whether the
    /// computer was searching.
    fn add(&mut self, update_us: u64, draw_us: u64, drawn: bool, passed: u32, thinking: bool) {
        self.frames += 1;
        self.drawn += u32::from(drawn);
        self.missed += passed.saturating_sub(1);
        self.thinking += u32::from(thinking);
        self.frame_us_max = self.frame_us_max.max(update_us + draw_us);
        self.draw_us_max = self.draw_us_max.max(draw_us);
        self.update_us_max = self.update_us_max.max(update_us);
    }

    /// Logs and restarts the window once a second has passed.
    fn report(&mut self, now: u64) {
        if now.saturating_sub(self.window_start) < TICKS_PER_SECOND {
            return;
        }
        log!(
            "perf frames={} drawn={} frame_us_max={} draw_us_max={} update_us_max={} missed={} thinking={}",
            self.frames,
            self.drawn,
            self.frame_us_max,
            self.draw_us_max,
            self.update_us_max,
            self.missed,
            self.thinking
        );
        *self = Self::new(now);
    }
}

/// Everything a frame uses, from one frame to the next.
struct Loop<'q> {
    display: Display,
    eeprom: Eeprom,
    saver: SaveWriter,
    audio: Audio,
    rumbles: Rumbles,
    searches: &'q Queue,
    game: Game,
    tracker: InputTracker,
    /// What each framebuffer shows: a frame is drawn only into a buffer
    /// that does not show it yet.
    shown: ShownFrames,
    frames_shown: FrameCounter,
    stats: FrameStats,
    last_pads: Option<[RawPort; 4]>,
    frame: u32,
    vsync_meter: Option<RateMeter>,
    /// The vertical interrupts counted when the last frame was shown (or
    /// held): the next one is due once the count has moved on.
    shown_at: u32,
}

impl Loop<'_> {
    /// Whether a vertical interrupt has come since the last frame was
    /// shown: the next frame is due.
    fn due(&self) -> bool {
        display::frames() != self.shown_at
    }

    /// One frame: input, update, sound, drawing, shown from the next
    /// vertical blank (or held, see `ShownFrames::draw_in_halves`).
    fn frame(&mut self) {
        let pads = input::poll();
        log_pads(self.last_pads.as_ref(), &pads);
        self.last_pads = Some(pads);
        let passed = self.frames_shown.start_update(display::frames());
        let input = self.tracker.update_frames(passed, &pads);
        let t0 = time::ticks();
        // The save being written: its next block, if the chip is ready.
        self.saver.step(ticks_to_micros(t0), &mut self.eeprom);
        let mut host = RomHost::new(
            &mut self.eeprom,
            &mut self.saver,
            &mut self.audio,
            &mut self.rumbles,
            self.searches,
        );
        self.game.update_frames(passed, &input, &mut host);
        self.audio.feed();
        self.rumbles.stop_due(time::ticks());
        let t1 = time::ticks();
        let buffer = self.display.begin();
        // A new screen is drawn over two frames (half each, shown one
        // frame later) so that no frame costs a whole screen's drawing.
        let redraw = self
            .shown
            .draw_in_halves(&self.game, buffer, self.display.back());
        let t2 = time::ticks();
        let update_us = ticks_to_micros(t1.saturating_sub(t0));
        let draw_us = ticks_to_micros(t2.saturating_sub(t1));
        let drawn = redraw != Redraw::Skipped;
        let thinking = self.game.is_thinking();
        self.stats.add(update_us, draw_us, drawn, passed, thinking);
        if redraw != Redraw::FirstHalf {
            self.display.show();
        }
        self.shown_at = display::frames();
        self.frame = self.frame.wrapping_add(1);
        if self.frame == 1 {
            self.vsync_meter = Some(RateMeter::start());
        } else if let Some(meter) = self.vsync_meter.filter(|_| self.frame == HEARTBEAT_FRAMES) {
            log_vsync_rate(&meter);
        }
        if self.frame % HEARTBEAT_FRAMES == 0 {
            log!("heartbeat {}", self.frame);
        }
        self.stats.report(t2);
    }
}

/// Runs the game forever, at the display's refresh rate: a frame at each
/// vertical interrupt; the computer's searches between them, with the
/// frames that come due meanwhile run from inside the search.
pub fn run(display: Display, mut eeprom: Eeprom, mut audio: Audio, mut thinker: Thinker) -> ! {
    let refresh = display.refresh();
    log!(
        "audio rate={} buffer={}",
        audio.rate(),
        audio.buffer_samples()
    );
    let searches = Queue::new();
    let mut rumbles = Rumbles::new();
    let mut saver = SaveWriter::new();
    let game = Game::new(
        &mut RomHost::new(&mut eeprom, &mut saver, &mut audio, &mut rumbles, &searches),
        refresh,
    );
    let shown_at = display::frames();
    let frames_shown = FrameCounter::new(shown_at);
    let state = RefCell::new(Loop {
        display,
        eeprom,
        saver,
        audio,
        rumbles,
        searches: &searches,
        game,
        tracker: InputTracker::new(refresh),
        shown: ShownFrames::new(),
        frames_shown,
        stats: FrameStats::new(time::ticks()),
        last_pads: None,
        frame: 0,
        vsync_meter: None,
        shown_at,
    });
    // A frame due while the search runs: the search's stop rule is asked
    // from inside the engine, never from inside a frame, so the state is
    // free whenever it asks.
    let between = || {
        if let Ok(mut state) = state.try_borrow_mut() {
            if state.due() {
                state.frame();
            }
        }
    };
    loop {
        if !state.borrow().due() {
            display::wait_vsync();
        }
        state.borrow_mut().frame();
        if let Some(job) = searches.take_job() {
            thinker.run(job, &searches, &between);
        }
    }
}
