//! The screens, one module each: its state, its update (one frame of
//! input) and its drawing. [`Game`](crate::game::Game) owns them and hands
//! control from one to the next as their updates ask ([`Next`]).
//!
//! * [`title`]: the title with its animation, and the attract mode;
//! * [`menu`]: game setup;
//! * [`game`]: a game in progress (moves, undo, hints, the computer's turn);
//! * [`pause`], [`result`], [`unplugged`]: over the game's board;
//! * [`board_view`]: the board, status bar and side panel those share.

pub(crate) mod board_view;
pub(crate) mod game;
pub(crate) mod menu;
pub(crate) mod pause;
pub(crate) mod result;
pub(crate) mod title;
pub(crate) mod unplugged;

use crate::host::{sound, Host};
use crate::input::{Buttons, PortInput};
use crate::sound::Cue;

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

/// What a screen's update asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    /// Stay on this screen.
    Stay,
    /// Go to that screen (entering it afresh: cursors on their first line).
    To(Screen),
    /// The controller on this port (0-based), which a player needs, is
    /// unplugged.
    Unplugged {
        /// The port.
        port: u8,
    },
}

/// Moves a list's cursor (menu, pause) one line on D-pad up or down
/// (auto-repeated), wrapping round its `count` lines, with the cursor
/// sound when it moved.
pub(crate) fn move_cursor(cursor: &mut u8, count: u8, p: &PortInput, host: &mut impl Host) {
    let before = *cursor;
    if p.repeated.intersects(Buttons::DUP) {
        *cursor = (*cursor + count - 1) % count;
    }
    if p.repeated.intersects(Buttons::DDOWN) {
        *cursor = (*cursor + 1) % count;
    }
    if *cursor != before {
        sound(host, Cue::Cursor);
    }
}
