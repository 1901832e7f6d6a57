//! The ROM's main loop: runs the console game ([`ttt64_game::Game`]) on a
//! [`Platform`].
//!
//! Per frame: read the pads (SI), log pad changes, `InputTracker::update`,
//! `Game::update` (the computer's search runs in here), `Game::draw` into the
//! back buffer, `present` (vsync). After the update the loop tops up the
//! audio queue ([`Audio::feed`]). Every [`HEARTBEAT_FRAMES`] frames the loop
//! logs `heartbeat <frame>` (liveness for the soak test).
//!
//! [`RomHost`] is the game's [`Host`]: COP0 time in microseconds, IS-Viewer
//! lines, the save in the cartridge EEPROM's first 8-byte blocks, and the
//! sound effects ([`Audio`]).

use ttt64_game::{Buttons, Cue, Game, Host, InputTracker, RawPort, TtEntry};

use crate::audio::Audio;

use crate::input::{button, Pads};
use crate::platform::{Platform, Save};
use crate::timer::ticks_to_micros;

/// Frames between heartbeat lines.
pub const HEARTBEAT_FRAMES: u32 = 60;

/// Transposition table entries for the computer players: 16K x 16 bytes =
/// 256 KiB (see n64/game/README.md, "Measurements").
pub const TT_ENTRIES: usize = 16 * 1024;

/// Bytes per EEPROM block.
const BLOCK: usize = 8;

/// The game's view of the console.
pub struct RomHost<'p, P: Platform> {
    platform: &'p mut P,
    audio: Option<&'p mut Audio>,
}

impl<P: Platform> RomHost<'_, P> {
    fn blocks(len: usize) -> usize {
        len.div_ceil(BLOCK)
    }
}

impl<P: Platform> Host for RomHost<'_, P> {
    fn now_us(&self) -> u64 {
        ticks_to_micros(self.platform.ticks())
    }

    fn log(&mut self, line: &str) {
        self.platform.log(format_args!("{line}"));
    }

    fn sound(&mut self, cue: Cue) {
        if let Some(audio) = self.audio.as_deref_mut() {
            audio.play(cue);
        }
    }

    fn hush(&mut self) {
        if let Some(audio) = self.audio.as_deref_mut() {
            audio.hush();
        }
    }

    fn save_read(&mut self, buf: &mut [u8]) -> bool {
        let save = self.platform.save();
        if Self::blocks(buf.len()) > usize::from(save.block_count()) {
            return false;
        }
        for (i, chunk) in buf.chunks_mut(BLOCK).enumerate() {
            match save.read_block(i as u8) {
                Ok(data) => chunk.copy_from_slice(&data[..chunk.len()]),
                Err(_) => return false,
            }
        }
        true
    }

    /// Writes the blocks that differ (each EEPROM write costs 15 ms), then
    /// reads them back: `false` if any block does not verify.
    fn save_write(&mut self, data: &[u8]) -> bool {
        let save = self.platform.save();
        if Self::blocks(data.len()) > usize::from(save.block_count()) {
            return false;
        }
        for (i, chunk) in data.chunks(BLOCK).enumerate() {
            let index = i as u8;
            let Ok(mut block) = save.read_block(index) else {
                return false;
            };
            if block[..chunk.len()] == *chunk {
                continue;
            }
            block[..chunk.len()].copy_from_slice(chunk);
            if save.write_block(index, &block).is_err() {
                return false;
            }
            match save.read_block(index) {
                Ok(back) if back == block => {}
                _ => return false,
            }
        }
        true
    }
}

/// Logs connection changes and press edges of this frame (`pad <p>
/// connected|disconnected`, `pad <p> press <NAME>`).
fn log_pads<P: Platform>(p: &mut P, pads: &Pads) {
    for (i, pad) in pads.ports.iter().enumerate() {
        let port = i + 1;
        match pad.connection_changed {
            Some(true) => p.log(format_args!("pad {port} connected")),
            Some(false) => p.log(format_args!("pad {port} disconnected")),
            None => {}
        }
        for (bit, name) in button::NAMES {
            if pad.pressed & bit != 0 {
                p.log(format_args!("pad {port} press {name}"));
            }
        }
    }
}

/// The game's raw input from this frame's reading.
fn raw_ports(pads: &Pads) -> [RawPort; 4] {
    pads.ports.map(|pad| RawPort {
        connected: pad.state.connected,
        buttons: Buttons(pad.state.buttons & button::ALL),
        stick_x: pad.state.stick_x,
        stick_y: pad.state.stick_y,
    })
}

/// Logs `vsync rate <hz> Hz (<n> interrupts)`, the vertical interrupt rate
/// measured against COP0 Count (the e2e tests tell PAL from NTSC by it).
fn log_vsync_rate<P: Platform>(p: &mut P, meter: &crate::vi::RateMeter) {
    let n = meter.interrupts();
    match meter.millihz() {
        Some(mhz) => p.log(format_args!(
            "vsync rate {}.{:03} Hz ({n} interrupts)",
            mhz / 1000,
            mhz % 1000
        )),
        None => p.log(format_args!("vsync rate unknown ({n} interrupts)")),
    }
}

/// Runs the game forever.
pub fn run<P: Platform>(p: &mut P) -> ! {
    // On the stack of a function that never returns (the stack has ~3 MiB).
    let mut tt = [TtEntry::EMPTY; TT_ENTRIES];
    let refresh = crate::vi::refresh(p.tv_type());
    let mut audio = Audio::take(p.tv_type());
    match &audio {
        Some(a) => p.log(format_args!(
            "audio rate={} dacrate={}",
            a.rate(),
            a.dacrate()
        )),
        None => p.log(format_args!("audio unavailable")),
    }
    let mut game = Game::new(
        &mut tt,
        &mut RomHost {
            platform: p,
            audio: audio.as_mut(),
        },
        refresh,
    );
    let mut tracker = InputTracker::new(refresh);
    let mut frame: u32 = 0;
    let mut vsync_meter = None;
    loop {
        let pads = *p.poll_input();
        log_pads(p, &pads);
        let input = tracker.update(&raw_ports(&pads));
        game.update(
            &input,
            &mut RomHost {
                platform: p,
                audio: audio.as_mut(),
            },
        );
        if let Some(a) = audio.as_mut() {
            a.feed();
        }
        game.draw(p.target());
        p.present();
        frame = frame.wrapping_add(1);
        if frame == 1 {
            vsync_meter = Some(crate::vi::RateMeter::start());
        } else if let Some(meter) = vsync_meter.filter(|_| frame == HEARTBEAT_FRAMES) {
            log_vsync_rate(p, &meter);
        }
        if frame % HEARTBEAT_FRAMES == 0 {
            p.log(format_args!("heartbeat {frame}"));
        }
    }
}
