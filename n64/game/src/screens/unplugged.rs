//! The controller-unplugged screen: over the game's board until every
//! controller the players need is back, then the pause menu.

use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;

use crate::canvas::{Canvas, Font};
use crate::host::{log, Host};
use crate::input::Input;
use crate::palette;
use crate::play::Match;
use crate::screens::board_view;
use crate::screens::{Next, Screen};
use crate::services::Services;
use crate::text::StrBuf;
use crate::widgets::panel;

/// The port that was unplugged.
pub(crate) struct Unplugged {
    port: u8,
}

impl Unplugged {
    /// Controller `port` (0-based) was unplugged.
    pub(crate) const fn new(port: u8) -> Unplugged {
        Unplugged { port }
    }

    /// Waits for the players' controllers.
    pub(crate) fn update(&mut self, play: &Match, input: &Input, host: &mut impl Host) -> Next {
        let all = play
            .needed_ports()
            .into_iter()
            .flatten()
            .all(|port| input.ports.get(port as usize).is_some_and(|p| p.connected));
        if !all {
            return Next::Stay;
        }
        log(
            host,
            format_args!("controller {} reconnected", self.port + 1),
        );
        Next::To(Screen::Pause)
    }

    /// The board with the message over it.
    pub(crate) fn draw<C: Canvas>(&self, sv: &Services, play: &Match, t: &mut C) {
        board_view::draw(sv, play, false, t);
        let r = Rectangle::new(Point::new(40, 80), Size::new(240, 80));
        panel(t, r, palette::PANEL, palette::X);
        let line = StrBuf::<40>::format(format_args!("Controller {} unplugged", self.port + 1));
        t.text(
            line.as_str(),
            Point::new(160, 104),
            Font::Medium,
            palette::TEXT,
            Alignment::Center,
        );
        t.text(
            "Plug it back in to continue.",
            Point::new(160, 124),
            Font::Small,
            palette::DIM,
            Alignment::Center,
        );
        t.text(
            "The game is paused.",
            Point::new(160, 140),
            Font::Small,
            palette::DIM,
            Alignment::Center,
        );
    }
}
