//! The ROM's main loop: runs the console game ([`ttt64_game::Game`]) on
//! libdragon's display, joypads, audio and EEPROM.
//!
//! Per frame: read the pads ([`input::poll`]) and log their changes, count
//! the frames shown since the last pass (vertical interrupts, see
//! [`FrameCounter`]), `InputTracker::update_frames`, `Game::update_frames`
//! (the computer's search runs in here), [`Audio::feed`] (tops up the audio
//! queue), the frame into the back buffer (`ShownFrames`: recorded,
//! compared with what that buffer shows, and only the changed rectangles
//! redrawn), then show it and wait for the vertical blank. Every
//! [`HEARTBEAT_FRAMES`] frames the loop logs `heartbeat <frame>` (liveness
//! for the soak test), and once a second of COP0 time `perf frames=<n>
//! drawn=<n> frame_us_max=<us> draw_us_max=<us> update_us_max=<us>`: frames
//! shown in that second, how many of them had to be drawn into their buffer
//! (whole or in part), and the worst frame's cost, update (without the
//! computer's searches and EEPROM writes, which are meant to take long) plus
//! draw. A frame fits a 60 Hz vsync when frame_us_max stays below 16,667.
//!
//! [`RomHost`] is the game's [`Host`]: COP0 time in microseconds, IS-Viewer
//! lines, the save in the cartridge EEPROM's first 8-byte blocks, the
//! sound effects ([`Audio`]) and the Rumble Pak pulses ([`Rumbles`]: the
//! motor starts when the game asks and the main loop stops it
//! [`RUMBLE_MS`] later, so no frame waits for it).

use core::mem::MaybeUninit;

use ttt64_game::{Buttons, Cue, Game, Host, InputTracker, RawPort, Redraw, ShownFrames, TtEntry};

use crate::audio::Audio;
use crate::display::{self, Display, RateMeter};
use crate::global::Global;
use crate::input;
use crate::log;
use crate::save::Eeprom;
use crate::time::{self, ticks_to_micros, TICKS_PER_SECOND};

/// Frames between heartbeat lines.
pub const HEARTBEAT_FRAMES: u32 = 60;

/// Transposition table entries for the computer players: 16K x 16 bytes =
/// 256 KiB (see n64/game/README.md, "Measurements").
pub const TT_ENTRIES: usize = 16 * 1024;

/// The computer players' transposition table, in .bss (not on the stack,
/// whose room libdragon's heap shares; not in .data, as an empty entry is
/// not all zeros and would take 256 KiB of the ROM): filled with empty
/// entries by `run`.
static TT: Global<MaybeUninit<[TtEntry; TT_ENTRIES]>> = Global::new(MaybeUninit::uninit());

/// Bytes per EEPROM block.
const BLOCK: usize = 8;

/// How long one rumble runs: long enough to feel, short enough not to
/// outlast the moment (the win jingle, the illegal buzz).
pub const RUMBLE_MS: u64 = 250;

/// The Rumble Pak pulses running: per port, the tick at which its motor
/// is to stop. The motor is started by [`Host::rumble`] and stopped by
/// [`Rumbles::stop_due`] in the main loop, once per pass: a pulse never
/// blocks a frame, and one that ends during a long update (the computer's
/// search, an EEPROM write) stops right after it.
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
    audio: &'a mut Audio,
    rumbles: &'a mut Rumbles,
    /// Microseconds spent in `save_write` (EEPROM writes take 15 ms a block).
    save_us: u64,
}

impl<'a> RomHost<'a> {
    fn new(eeprom: &'a mut Eeprom, audio: &'a mut Audio, rumbles: &'a mut Rumbles) -> Self {
        Self {
            eeprom,
            audio,
            rumbles,
            save_us: 0,
        }
    }

    fn blocks(len: usize) -> usize {
        len.div_ceil(BLOCK)
    }

    fn write_blocks(&mut self, data: &[u8]) -> bool {
        let eeprom = &mut self.eeprom;
        if Self::blocks(data.len()) > usize::from(eeprom.block_count()) {
            return false;
        }
        for (i, chunk) in data.chunks(BLOCK).enumerate() {
            let index = i as u8;
            let Ok(mut block) = eeprom.read_block(index) else {
                return false;
            };
            if block[..chunk.len()] == *chunk {
                continue;
            }
            block[..chunk.len()].copy_from_slice(chunk);
            if eeprom.write_block(index, &block).is_err() {
                return false;
            }
            match eeprom.read_block(index) {
                Ok(back) if back == block => {}
                _ => return false,
            }
        }
        true
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

    fn hush(&mut self) {
        self.audio.hush();
    }

    fn rumble(&mut self, port: u8) {
        self.rumbles.start(usize::from(port), time::ticks());
    }

    fn save_read(&mut self, buf: &mut [u8]) -> bool {
        if Self::blocks(buf.len()) > usize::from(self.eeprom.block_count()) {
            return false;
        }
        for (i, chunk) in buf.chunks_mut(BLOCK).enumerate() {
            match self.eeprom.read_block(i as u8) {
                Ok(data) => chunk.copy_from_slice(&data[..chunk.len()]),
                Err(_) => return false,
            }
        }
        true
    }

    /// Writes the blocks that differ (each EEPROM write costs 15 ms), then
    /// reads them back: `false` if any block does not verify.
    fn save_write(&mut self, data: &[u8]) -> bool {
        let t0 = time::ticks();
        let written = self.write_blocks(data);
        let t1 = time::ticks();
        self.save_us += ticks_to_micros(t1.saturating_sub(t0));
        written
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
/// their length when a pass misses a vsync. The interrupts taken during an
/// update that searched or wrote the EEPROM are left out: they came before
/// what that update leads to (the computer's move, the result) was shown,
/// and the delays that follow start when it is.
struct FrameCounter {
    /// The VI count when the last update started.
    start: u32,
    /// VIs to leave out of the next count.
    skip: u32,
}

impl FrameCounter {
    fn new(vsyncs: u32) -> Self {
        Self {
            start: vsyncs,
            skip: 0,
        }
    }

    /// Frames since the last update (at least 1: a missing VI must not stop
    /// the game's clock); `vsyncs` is the VI count now, as the update starts.
    fn start_update(&mut self, vsyncs: u32) -> u32 {
        let frames = vsyncs.wrapping_sub(self.start).saturating_sub(self.skip);
        self.start = vsyncs;
        self.skip = 0;
        frames.max(1)
    }

    /// The update ended with the VI count at `vsyncs`; `long` if it searched
    /// or wrote the EEPROM.
    fn end_update(&mut self, vsyncs: u32, long: bool) {
        if long {
            self.skip = vsyncs.wrapping_sub(self.start);
        }
    }
}

/// The worst frame costs over one second of COP0 time (the `perf` line).
struct FrameStats {
    window_start: u64,
    frames: u32,
    drawn: u32,
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
            frame_us_max: 0,
            draw_us_max: 0,
            update_us_max: 0,
        }
    }

    fn add(&mut self, update_us: u64, draw_us: u64, drawn: bool) {
        self.frames += 1;
        self.drawn += u32::from(drawn);
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
            "perf frames={} drawn={} frame_us_max={} draw_us_max={} update_us_max={}",
            self.frames,
            self.drawn,
            self.frame_us_max,
            self.draw_us_max,
            self.update_us_max
        );
        *self = Self::new(now);
    }
}

/// Runs the game forever, at the display's refresh rate.
pub fn run(mut display: Display, mut eeprom: Eeprom, mut audio: Audio) -> ! {
    // SAFETY: `run` is called once and never returns, so this is the only
    // reference to TT; every entry is written before the slice is made.
    let tt: &mut [TtEntry] = unsafe {
        let first = (*TT.get()).as_mut_ptr().cast::<TtEntry>();
        for i in 0..TT_ENTRIES {
            first.add(i).write(TtEntry::EMPTY);
        }
        core::slice::from_raw_parts_mut(first, TT_ENTRIES)
    };
    let refresh = display.refresh();
    log!(
        "audio rate={} buffer={}",
        audio.rate(),
        audio.buffer_samples()
    );
    let mut rumbles = Rumbles::new();
    let mut game = Game::new(
        tt,
        &mut RomHost::new(&mut eeprom, &mut audio, &mut rumbles),
        refresh,
    );
    let mut tracker = InputTracker::new(refresh);
    let mut frame: u32 = 0;
    let mut vsync_meter = None;
    let mut stats = FrameStats::new(time::ticks());
    // What each framebuffer shows: a frame is drawn only into a buffer that
    // does not show it yet.
    let mut shown = ShownFrames::new();
    let mut frames_shown = FrameCounter::new(display::frames());
    let mut last_pads = None;
    loop {
        let pads = input::poll();
        log_pads(last_pads.as_ref(), &pads);
        last_pads = Some(pads);
        let passed = frames_shown.start_update(display::frames());
        let input = tracker.update_frames(passed, &pads);
        let search_before = game.search_us();
        let t0 = time::ticks();
        let mut host = RomHost::new(&mut eeprom, &mut audio, &mut rumbles);
        game.update_frames(passed, &input, &mut host);
        let save_us = host.save_us;
        let searched = game.search_us() != search_before;
        frames_shown.end_update(display::frames(), searched || save_us > 0);
        audio.feed();
        rumbles.stop_due(time::ticks());
        let t1 = time::ticks();
        let buffer = display.back_index();
        // A new screen is drawn over two frames (half each, shown one
        // frame later) so that no frame costs a whole screen's drawing.
        let redraw = shown.draw_in_halves(&game, buffer, display.back());
        let t2 = time::ticks();
        let search_us = game.search_us().saturating_sub(search_before);
        let update_us = ticks_to_micros(t1.saturating_sub(t0))
            .saturating_sub(search_us)
            .saturating_sub(save_us);
        let draw_us = ticks_to_micros(t2.saturating_sub(t1));
        stats.add(update_us, draw_us, redraw != Redraw::Skipped);
        if redraw == Redraw::FirstHalf {
            display.hold();
        } else {
            display.present();
        }
        frame = frame.wrapping_add(1);
        if frame == 1 {
            vsync_meter = Some(RateMeter::start());
        } else if let Some(meter) = vsync_meter.filter(|_| frame == HEARTBEAT_FRAMES) {
            log_vsync_rate(&meter);
        }
        if frame % HEARTBEAT_FRAMES == 0 {
            log!("heartbeat {frame}");
        }
        stats.report(t2);
    }
}
