//! The menu (game setup): players, computer strength, board, win length,
//! who starts; START plays.

use core::fmt::Write as _;

use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use ttt_core::WinCondition;

use crate::canvas::{Canvas, Font};
use crate::host::{log, sound, Host};
use crate::input::{Buttons, Input};
use crate::layout;
use crate::palette;
use crate::play::Match;
use crate::screens::{move_cursor, Next, Screen};
use crate::services::Services;
use crate::settings::{self, friendly_name, MenuItem, Mode};
use crate::sound::Cue;
use crate::text::StrBuf;
use crate::widgets::{panel, wrapped};

/// The menu's cursor: which visible line is selected.
pub(crate) struct Menu {
    cursor: u8,
}

impl Menu {
    /// The cursor on the first line.
    pub(crate) const fn new() -> Menu {
        Menu { cursor: 0 }
    }

    /// Shown afresh: the cursor on the first line.
    pub(crate) fn enter(&mut self) {
        self.cursor = 0;
    }

    /// Visible menu items for the settings' mode and the controllers
    /// connected (the Rumble line needs a Rumble Pak).
    pub(crate) fn items(sv: &Services) -> impl Iterator<Item = MenuItem> {
        let (settings, rumble_pak) = (sv.settings, sv.any_rumble_pak());
        MenuItem::ALL
            .into_iter()
            .filter(move |i| i.visible(&settings, rumble_pak))
    }

    /// The menu item under the cursor.
    pub(crate) fn selected(&self, sv: &Services) -> MenuItem {
        Menu::items(sv)
            .nth(self.cursor as usize)
            .unwrap_or(MenuItem::Start)
    }

    /// One frame: B back to the title, the D-pad moves and changes values,
    /// A changes a value or starts, START starts.
    pub(crate) fn update(
        &mut self,
        sv: &mut Services,
        play: &mut Match,
        input: &Input,
        host: &mut impl Host,
    ) -> Next {
        let p = input.merged();
        let count = Menu::items(sv).count().max(1) as u8;
        if self.cursor >= count {
            self.cursor = count - 1;
        }
        if p.pressed.intersects(Buttons::B) {
            sound(host, Cue::Undo);
            return Next::To(Screen::Title);
        }
        move_cursor(&mut self.cursor, count, &p, host);
        let item = self.selected(sv);
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
            let before = sv.settings;
            sv.settings.change(item, delta);
            if sv.settings != before {
                sound(host, Cue::Cursor);
                let mut value = StrBuf::<32>::new();
                let _ = sv.settings.log_value(item, &mut value);
                log(host, format_args!("menu {}={}", item.name(), value));
                if item == MenuItem::Board && sv.settings.k != before.k {
                    log(host, format_args!("menu k={}", sv.settings.k));
                }
            }
        }
        let start = p.pressed.intersects(Buttons::START)
            || (p.pressed.intersects(Buttons::A) && item == MenuItem::Start);
        if !start {
            return Next::Stay;
        }
        sound(host, Cue::Confirm);
        *play = sv.new_match(host);
        Next::To(Screen::Game)
    }

    /// The menu's lines, the selected one's help, the controls, all inside
    /// the title-safe area: the lines share the room between the title and
    /// the help box, so any number of them fits.
    pub(crate) fn draw<C: Canvas>(&self, sv: &Services, t: &mut C) {
        let safe = layout::SAFE;
        let (left, width) = (safe.top_left.x, safe.size.width);
        let right = left + width as i32;
        t.text(
            "GAME SETUP",
            Point::new(160, ROWS_TOP - 14),
            Font::Large,
            palette::FRAME,
            Alignment::Center,
        );
        let selected = self.selected(sv);
        let mode = sv.settings.mode;
        let count = Menu::items(sv).count().max(1) as i32;
        let pitch = ((HELP_TOP - 4 - ROWS_TOP) / count).min(ROW_PITCH_MAX);
        let mut y = ROWS_TOP + pitch / 2;
        for item in Menu::items(sv) {
            let is_sel = item == selected;
            let row = Rectangle::new(
                Point::new(left, y - (pitch - 1) / 2),
                Size::new(width, pitch as u32 - 1),
            );
            if is_sel {
                panel(t, row, palette::SELECT, palette::CURSOR);
            }
            let color = if is_sel { palette::TEXT } else { palette::DIM };
            if item == MenuItem::Start {
                let c = if is_sel {
                    palette::CURSOR
                } else {
                    palette::TEXT
                };
                t.text(
                    item.label(mode),
                    Point::new(160, y),
                    Font::Medium,
                    c,
                    Alignment::Center,
                );
            } else {
                t.text(
                    item.label(mode),
                    Point::new(left + 8, y),
                    Font::Medium,
                    color,
                    Alignment::Left,
                );
                let mut v = StrBuf::<40>::new();
                let _ = sv.settings.show_value(item, &mut v);
                let shown = if is_sel {
                    StrBuf::<48>::format(format_args!("< {} >", v))
                } else {
                    StrBuf::<48>::format(format_args!("{}", v))
                };
                let vc = if is_sel {
                    palette::CURSOR
                } else {
                    palette::TEXT
                };
                t.text(
                    shown.as_str(),
                    Point::new(right - 8, y),
                    Font::Small,
                    vc,
                    Alignment::Right,
                );
            }
            y += pitch;
        }
        // Help for the selected line.
        let help = Rectangle::new(Point::new(left, HELP_TOP), Size::new(width, 30));
        panel(t, help, palette::PANEL, palette::PANEL_EDGE);
        let rules = sv.settings.rules();
        let mut desc = StrBuf::<128>::new();
        let _ = match selected {
            MenuItem::Computer | MenuItem::Computer2 => {
                let kind = if selected == MenuItem::Computer {
                    sv.settings.computer_kind()
                } else {
                    sv.settings.computer2_kind()
                };
                let played = settings::effective_kind(kind, &rules);
                if played != kind {
                    write!(
                        desc,
                        "{} thinks too long on this board for the N64: it plays as {} here.",
                        friendly_name(kind),
                        friendly_name(played)
                    )
                } else {
                    desc.write_str(kind.description())
                }
            }
            MenuItem::Players => desc.write_str(match mode {
                Mode::OnePlayer => "You on controller 1 against the computer.",
                Mode::TwoPads => "Player 1 on controller 1, player 2 on controller 2.",
                Mode::SharedPad => "Two players take turns with controller 1.",
                Mode::ComputerVsComputer => "Sit back and watch. START pauses.",
            }),
            MenuItem::Board => desc.write_str(
                "1x1 to 9x9 as in 'Tic-Tac-Toe in C'; 10x10 to 15x15: gomoku, five in a row.",
            ),
            MenuItem::WinLength => {
                desc.write_str("Marks in a row needed to win (default: a full row, five past 9x9).")
            }
            MenuItem::Rules => desc.write_str(match sv.settings.win {
                WinCondition::AtLeastK => "Freestyle: a line of k or more wins.",
                WinCondition::ExactlyK => "Only exactly k wins: a longer line does not.",
                WinCondition::Renju => {
                    "Renju: X wins with exactly five, may not make a double three, double four or overline."
                }
            }),
            MenuItem::ThinkTime => {
                desc.write_str("How long the computer searches each move (and your hint).")
            }
            MenuItem::First => {
                desc.write_str("Who plays X and moves first. Alternate swaps every game.")
            }
            MenuItem::Rumble => desc
                .write_str("A short rumble when your move wins, loses or is refused (Rumble Pak)."),
            MenuItem::Start => desc.write_str("Press A or START to play."),
        };
        wrapped(
            t,
            desc.as_str(),
            Point::new(left + 6, HELP_TOP + 9),
            HELP_CHARS,
            11,
            2,
            Font::Small,
            palette::TEXT,
        );
        t.text(
            "D-pad: move  A: choose  B: back  START: play",
            Point::new(160, CONTROLS_Y),
            Font::Small,
            palette::DIM,
            Alignment::Center,
        );
    }
}

/// Where the menu's lines start (below the title).
const ROWS_TOP: i32 = layout::SAFE.top_left.y + 26;
/// The most room a line gets (when there are few).
const ROW_PITCH_MAX: i32 = 20;
/// The help box's top: it and the controls line end the safe area.
const HELP_TOP: i32 = CONTROLS_Y - 5 - 4 - 30;
/// The controls line (its middle): its glyphs end on the safe area's last
/// line.
const CONTROLS_Y: i32 = layout::SAFE.top_left.y + layout::SAFE.size.height as i32 - 6;
/// Characters per line of help (the box, less its margins, in 6-pixel
/// characters).
const HELP_CHARS: usize = 44;
