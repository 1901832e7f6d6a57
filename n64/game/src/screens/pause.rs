//! The pause menu, over the game's board: resume, restart, main menu.

use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;

use crate::canvas::{Canvas, Font};
use crate::host::{log, sound, Host};
use crate::input::{Buttons, Input};
use crate::palette;
use crate::play::Match;
use crate::screens::board_view;
use crate::screens::{move_cursor, Next, Screen};
use crate::services::Services;
use crate::sound::Cue;
use crate::widgets::panel;

/// Pause menu entries.
pub const PAUSE_ITEMS: [&str; 3] = ["Resume", "Restart", "Main menu"];

/// The pause menu's cursor.
pub(crate) struct Pause {
    cursor: u8,
}

impl Pause {
    /// The cursor on "Resume".
    pub(crate) const fn new() -> Pause {
        Pause { cursor: 0 }
    }

    /// Shown afresh: the cursor on "Resume".
    pub(crate) fn enter(&mut self) {
        self.cursor = 0;
    }

    /// One frame: the D-pad moves, B or START resumes, A chooses.
    pub(crate) fn update(
        &mut self,
        sv: &mut Services,
        play: &mut Match,
        input: &Input,
        host: &mut impl Host,
    ) -> Next {
        let p = input.merged();
        let n = PAUSE_ITEMS.len() as u8;
        move_cursor(&mut self.cursor, n, &p, host);
        if p.pressed.intersects(Buttons::B | Buttons::START) {
            sound(host, Cue::Pause);
            return Next::To(Screen::Game);
        }
        if !p.pressed.intersects(Buttons::A) {
            return Next::Stay;
        }
        sound(host, Cue::Confirm);
        match self.cursor {
            0 => Next::To(Screen::Game),
            1 => {
                log(host, format_args!("restart"));
                play.abandon_search(host);
                *play = sv.new_match(host);
                Next::To(Screen::Game)
            }
            _ => Next::To(Screen::Menu),
        }
    }

    /// The board with the menu over it.
    pub(crate) fn draw<C: Canvas>(&self, sv: &Services, play: &Match, t: &mut C) {
        board_view::draw(sv, play, false, t);
        let r = Rectangle::new(Point::new(80, 70), Size::new(160, 110));
        panel(t, r, palette::PANEL, palette::FRAME);
        t.text(
            "PAUSED",
            Point::new(160, 88),
            Font::Large,
            palette::FRAME,
            Alignment::Center,
        );
        for (i, item) in PAUSE_ITEMS.iter().enumerate() {
            let y = 116 + i as i32 * 20;
            let sel = i == self.cursor as usize;
            if sel {
                panel(
                    t,
                    Rectangle::new(Point::new(96, y - 9), Size::new(128, 18)),
                    palette::SELECT,
                    palette::CURSOR,
                );
            }
            t.text(
                item,
                Point::new(160, y),
                Font::Medium,
                if sel { palette::CURSOR } else { palette::TEXT },
                Alignment::Center,
            );
        }
    }
}
