//! What the game needs from the console ([`Host`]), and the few ways the
//! game talks to it: log lines, sound cues, the save.

use core::fmt;

use crate::save::{SaveData, SaveProgress};
use crate::search::{SearchJob, SearchReply};
use crate::sound::Cue;
use crate::text::StrBuf;

/// What the game needs from the console.
pub trait Host {
    /// Microseconds since some fixed point (boot).
    fn now_us(&self) -> u64;
    /// One log line (IS-Viewer), without the newline.
    fn log(&mut self, line: &str);
    /// Reads the save into `buf` (the EEPROM's first `buf.len()` bytes);
    /// `false` if it cannot be read.
    fn save_read(&mut self, buf: &mut [u8]) -> bool;
    /// Writes `data` to the start of the EEPROM, or starts to: a host may
    /// write it over the next frames ([`SaveProgress::Writing`]; the ROM
    /// writes a block a frame, [`crate::save::SaveWriter`]) so that no
    /// frame waits for the EEPROM. A save started while another is being
    /// written replaces it.
    fn save_write(&mut self, data: &[u8]) -> SaveProgress;
    /// How the save last started is going, asked once a frame while it is
    /// [`SaveProgress::Writing`]. Default: written (a host whose
    /// `save_write` writes at once never says `Writing`).
    fn save_progress(&mut self) -> SaveProgress {
        SaveProgress::Written
    }
    /// Plays a sound effect (the game has logged `sound <name>` already).
    fn sound(&mut self, cue: Cue);
    /// Starts the computer's search `job` ([`SearchJob::run`], with the
    /// host's clock against [`SearchJob::time_ms`]), to be answered by
    /// [`Host::search_poll`]. The game waits for one search at a time; a
    /// search started while an earlier one still runs (one given up on with
    /// [`Host::search_stop`]) follows it. A host may run the job at once,
    /// or beside the frames (the ROM: sliced across them, see its
    /// `think.rs`), so the picture stays alive while the computer thinks.
    fn search_start(&mut self, job: SearchJob);
    /// The reply of a search that has ended, once (the game drops replies
    /// whose id it no longer waits for); `None` while it runs.
    fn search_poll(&mut self) -> Option<SearchReply>;
    /// The game no longer wants the search it started last: stop it soon
    /// (its reply may still come, and is dropped).
    fn search_stop(&mut self);
    /// A short pulse of the Rumble Pak in the controller on `port` (0..4):
    /// the motor on now, off a moment later, without blocking the frame
    /// (the game has logged `rumble <port + 1> <why>` already). The game
    /// asks only for a port whose controller reported a Rumble Pak, and
    /// only with the Rumble setting on. Default: nothing (a host without
    /// rumble).
    fn rumble(&mut self, _port: u8) {}
}

/// Why a controller rumbles: what happened to that player's move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RumbleCause {
    /// The player's move won the game (or, two players, this player won).
    Win,
    /// The computer beat the player.
    Loss,
    /// The move was refused (A on a taken square, with the illegal buzz).
    Illegal,
}

impl RumbleCause {
    /// Name in the log (`rumble <port> <name>`).
    pub const fn name(self) -> &'static str {
        match self {
            RumbleCause::Win => "win",
            RumbleCause::Loss => "loss",
            RumbleCause::Illegal => "illegal",
        }
    }
}

/// Logs one formatted line.
pub(crate) fn log(host: &mut impl Host, args: fmt::Arguments<'_>) {
    let line = StrBuf::<160>::format(args);
    host.log(line.as_str());
}

/// Logs `sound <name>` and plays the cue.
pub(crate) fn sound(host: &mut impl Host, cue: Cue) {
    log(host, format_args!("sound {}", cue.name()));
    host.sound(cue);
}

/// Writes the save (or starts to): `true` while the host is still
/// writing it; logs `save written` or `save write failed` once it knows.
pub(crate) fn write_save(host: &mut impl Host, data: &SaveData) -> bool {
    let progress = host.save_write(&data.encode());
    log_save(host, progress)
}

/// Asks the host how the save being written is going: `true` while it is
/// still being written; logs the end as [`write_save`] does.
pub(crate) fn poll_save(host: &mut impl Host) -> bool {
    let progress = host.save_progress();
    log_save(host, progress)
}

fn log_save(host: &mut impl Host, progress: SaveProgress) -> bool {
    match progress {
        SaveProgress::Writing => return true,
        SaveProgress::Written => log(host, format_args!("save written")),
        SaveProgress::Failed => log(host, format_args!("save write failed")),
    }
    false
}
