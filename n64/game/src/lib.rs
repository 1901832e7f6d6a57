//! Tic-Tac-Toe 64: the console game, independent of the hardware.
//!
//! The ROM feeds [`Game::update`] one [`Input`] per frame (see
//! [`InputTracker`] for auto-repeat and the stick), calls [`Game::draw`] on a
//! 320x240 [`Rgb555`] framebuffer, and implements [`Host`] (clock, log line
//! output, EEPROM). Everything else (screens, menu, game flow, computer
//! players, scores, save format) lives here and runs on the host in tests.
//!
//! Where things are: [`Game`] (`game.rs`) is a small state machine over the
//! screens (`screens/`: title and attract mode, menu, game, pause, result,
//! unplugged), each holding its state, update and drawing. They share the
//! match on the board (`play.rs`), the services (`services.rs`: clock,
//! settings, save, each mode's series of games (`ttt_core::series`: who
//! opens, the scores), the computer's searches in `search.rs`) and
//! the drawing pieces: [`palette`], [`layout`], [`canvas`] (what screens
//! draw with), `widgets.rs`; the canvases are [`Plain`], [`Raster`] (with
//! its sprite cache, `sprites.rs`) and [`DisplayList`] (for [`ShownFrames`]).
//!
//! `#![no_std]`, no allocator, no `unsafe`, no panics on any input.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod books;
pub mod canvas;
pub mod display_list;
mod game;
pub mod geometry;
mod host;
pub mod input;
pub mod layout;
pub mod palette;
mod pixels;
mod play;
pub mod raster;
pub mod refresh;
pub mod save;
mod screens;
mod search;
mod services;
pub mod settings;
pub mod shown;
pub mod sound;
mod sprites;
pub mod text;
mod timing;
mod widgets;

pub use canvas::{Canvas, Font, Plain};
pub use display_list::DisplayList;
pub use embedded_graphics::pixelcolor::Rgb555;
pub use game::Game;
pub use host::{Host, RumbleCause};
pub use input::{Buttons, Input, InputTracker, PortInput, RawPort};
pub use raster::{rgba5551, Raster};
pub use refresh::Refresh;
pub use save::{SaveBlocks, SaveData, SaveError, SaveProgress, SaveWriter, SAVE_SIZE};
pub use screens::pause::PAUSE_ITEMS;
pub use screens::Screen;
pub use search::{hint_move, move_seed, new_player, Purpose, SearchJob, SearchReply};
pub use settings::{MenuItem, Mode, Settings};
pub use shown::{Damage, Frame, Redraw, ShownFrames};
pub use sound::{Cue, Synth};
pub use sprites::Sprites;
pub use timing::{
    FrameTimings, ATTRACT_AFTER_MS, ATTRACT_RESULT_MS, RESULT_HOLD_MS, THINK_CVC_MS, THINK_MS,
};
pub use ttt_core::ai::{TtEntry, TAKE_BACKS};
pub use ttt_core::pattern::PatternUndo;
pub use ttt_core::series::{First, Score};
