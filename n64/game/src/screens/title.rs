//! The title screen with its animation, and the attract mode: after some
//! idle time two computer players play a game, until a button is pressed.

use core::fmt::Write as _;

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use ttt_core::ai::PlayerKind;
use ttt_core::series::{Lineup, Players, Side};
use ttt_core::{Mark, Rules};

use crate::canvas::{Canvas, Font};
use crate::host::{sound, Host};
use crate::input::{Buttons, Input};
use crate::palette;
use crate::play::Match;
use crate::screens::board_view;
use crate::screens::{Next, Screen};
use crate::services::Services;
use crate::settings::Mode;
use crate::sound::Cue;
use crate::text::StrBuf;
use crate::widgets::{panel, wave, TITLE_CELL};

/// 3x5 block digits for the big "64".
const DIGITS: [(char, [u8; 5]); 2] = [
    ('6', [0b111, 0b100, 0b111, 0b101, 0b111]),
    ('4', [0b101, 0b101, 0b111, 0b001, 0b001]),
];

fn big_digit<C: Canvas>(t: &mut C, c: char, at: Point, px: u32, color: Rgb555) {
    let Some((_, rows)) = DIGITS.iter().find(|(d, _)| *d == c) else {
        return;
    };
    for (y, bits) in rows.iter().enumerate() {
        for x in 0..3 {
            if bits & (0b100 >> x) != 0 {
                let p = at + Point::new(x * px as i32, y as i32 * px as i32);
                t.fill(Rectangle::new(p, Size::new(px - 1, px - 1)), color);
            }
        }
    }
}

/// The squares of the title's demo game, in order (a CS102-style game).
const TITLE_GAME: [(u8, u8); 7] = [(1, 1), (0, 0), (2, 0), (0, 2), (0, 1), (2, 1), (1, 0)];

/// The title's idle time (frames without a button) towards the attract mode.
pub(crate) struct Title {
    idle: u32,
}

impl Title {
    /// Nothing idle yet.
    pub(crate) const fn new() -> Title {
        Title { idle: 0 }
    }

    /// Shown afresh: the idle time starts again.
    pub(crate) fn enter(&mut self) {
        self.idle = 0;
    }

    /// One frame: START or A opens the menu; long idle starts the attract
    /// mode.
    pub(crate) fn update(
        &mut self,
        sv: &mut Services<'_>,
        play: &mut Match,
        input: &Input,
        host: &mut impl Host,
    ) -> Next {
        let p = input.merged();
        if p.pressed.intersects(Buttons::START | Buttons::A) {
            sound(host, Cue::Confirm);
            return Next::To(Screen::Menu);
        }
        let active = !p.pressed.is_empty() || !p.repeated.is_empty();
        if active {
            self.idle = 0;
        } else {
            self.idle = self.idle.saturating_add(sv.clock.step());
        }
        if self.idle < sv.clock.timings().attract_after {
            return Next::Stay;
        }
        self.idle = 0;
        *play = attract_match(sv, host);
        Next::To(Screen::Attract)
    }

    /// One frame of the attract mode: any button returns to the title, as
    /// does the end of the game after its result was shown a while.
    pub(crate) fn update_attract(
        &mut self,
        sv: &mut Services<'_>,
        play: &mut Match,
        input: &Input,
        host: &mut impl Host,
    ) -> Next {
        let p = input.merged();
        if !p.pressed.is_empty() {
            return Next::To(Screen::Title);
        }
        if play.pos.outcome().is_over() {
            play.over_frames = play.over_frames.saturating_add(sv.clock.step());
            if play.over_frames >= sv.clock.timings().attract_result {
                return Next::To(Screen::Title);
            }
            return Next::Stay;
        }
        play.computer_turn(&mut sv.search, &sv.clock, host);
        Next::Stay
    }

    /// The bouncing title, the little board playing itself, PRESS START,
    /// the all-time score against the computer.
    pub(crate) fn draw<C: Canvas>(&self, sv: &Services<'_>, t: &mut C) {
        let f = sv.clock.anim_frame();
        // Title letters bounce one after another.
        let title = "TIC-TAC-TOE";
        let x0 = 160 - (title.len() as i32 * 10) / 2 - 44;
        for (i, c) in title.chars().enumerate() {
            let dy = wave(f + i as u64 * 5, 60, 6);
            let mut s = StrBuf::<4>::new();
            let _ = s.write_char(c);
            let color = match c {
                'X' | 'T' => palette::X,
                'O' => palette::O,
                _ => palette::TEXT,
            };
            t.text(
                s.as_str(),
                Point::new(x0 + i as i32 * 10 + 5, 38 - dy),
                Font::Large,
                color,
                Alignment::Center,
            );
        }
        big_digit(t, '6', Point::new(x0 + 118, 20), 7, palette::FRAME);
        big_digit(t, '4', Point::new(x0 + 146, 20), 7, palette::FRAME);

        // A little board where a game plays itself.
        let board = Rectangle::new(Point::new(115, 70), Size::new(90, 90));
        panel(t, board.offset(6), palette::BOARD, palette::FRAME);
        let step = (f / 30) % (TITLE_GAME.len() as u64 + 4);
        let cell = TITLE_CELL as i32;
        for i in 1..3 {
            let x = board.top_left.x + i * cell;
            let y = board.top_left.y + i * cell;
            t.line(
                Point::new(x, board.top_left.y),
                Point::new(x, board.top_left.y + 89),
                2,
                palette::GRID,
            );
            t.line(
                Point::new(board.top_left.x, y),
                Point::new(board.top_left.x + 89, y),
                2,
                palette::GRID,
            );
        }
        for (i, &(c, r)) in TITLE_GAME.iter().enumerate().take(step as usize) {
            let mark = if i % 2 == 0 { Mark::X } else { Mark::O };
            let rect = Rectangle::new(
                board.top_left + Point::new(c as i32 * cell, r as i32 * cell),
                Size::new(cell as u32, cell as u32),
            );
            t.mark(rect, mark);
        }
        if step as usize >= TITLE_GAME.len() {
            // X completed the middle column: strike it through.
            let x = board.top_left.x + 45;
            t.line(
                Point::new(x, board.top_left.y + 6),
                Point::new(x, board.top_left.y + 84),
                3,
                palette::WIN_LINE,
            );
        }

        if (f / 30).is_multiple_of(2) {
            t.text(
                "PRESS START",
                Point::new(160, 186),
                Font::Large,
                palette::CURSOR,
                Alignment::Center,
            );
        }
        let s = sv.save.scores[Mode::OnePlayer.index()];
        let line = StrBuf::<64>::format(format_args!(
            "You vs computer, all time: won {}  lost {}  drawn {}",
            s.wins, s.losses, s.draws
        ));
        t.text(
            line.as_str(),
            Point::new(160, 212),
            Font::Small,
            palette::DIM,
            Alignment::Center,
        );
        t.text(
            "Tic-Tac-Toe 64  -  m,n,k-games up to 9x9",
            Point::new(160, 226),
            Font::Small,
            palette::DIM,
            Alignment::Center,
        );
    }

    /// The attract game: the board as in a game, "DEMO" in the panel.
    pub(crate) fn draw_attract<C: Canvas>(sv: &Services<'_>, play: &Match, t: &mut C) {
        board_view::draw(sv, play, false, t);
    }
}

/// The attract mode's game: players and board picked by the clock.
fn attract_match(sv: &Services<'_>, host: &mut impl Host) -> Match {
    const PAIRS: [(PlayerKind, PlayerKind, u8); 6] = [
        (PlayerKind::Classic, PlayerKind::Squid, 3),
        (PlayerKind::Medium, PlayerKind::God, 3),
        (PlayerKind::Random, PlayerKind::Classic, 3),
        (PlayerKind::Hard, PlayerKind::Medium, 5),
        (PlayerKind::Squid, PlayerKind::Standard, 4),
        (PlayerKind::Easy, PlayerKind::Random, 3),
    ];
    let seed = sv.clock.frame();
    let (x, o, size) = PAIRS[(seed % PAIRS.len() as u64) as usize];
    let k = if size == 5 { 4 } else { size };
    let rules = Rules::new(size, size, k).unwrap_or(Rules::CLASSIC);
    let lineup = Lineup::new(Players::ComputerVsComputer(x, o), Side::One);
    Match::begin(Mode::ComputerVsComputer, true, seed, rules, lineup, host)
}
