//! Drawing every screen (320x240, Rgb555) on a [`Canvas`]: embedded-graphics
//! on any `DrawTarget` ([`Game::draw`]), or the fast [`Raster`](crate::Raster)
//! and the display lists ([`Game::draw_on`]), pixel for pixel the same.

use core::fmt::Write as _;

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use ttt_core::{Mark, Outcome, Rules};

use crate::canvas::{Canvas, Font, Panel, Plain};
use crate::settings::{self, friendly_name, MenuItem, Mode};
use crate::text::StrBuf;
use crate::{Game, Match, Screen, Seat, PAUSE_ITEMS};

/// The colours (5 bits per channel).
pub mod palette {
    use embedded_graphics::pixelcolor::Rgb555;

    /// Screen background.
    pub const BG: Rgb555 = Rgb555::new(2, 3, 8);
    /// Panels and bars.
    pub const PANEL: Rgb555 = Rgb555::new(4, 6, 14);
    /// Panel borders.
    pub const PANEL_EDGE: Rgb555 = Rgb555::new(9, 12, 24);
    /// The board's cells.
    pub const BOARD: Rgb555 = Rgb555::new(5, 7, 15);
    /// Grid lines.
    pub const GRID: Rgb555 = Rgb555::new(12, 15, 26);
    /// The frame around the board.
    pub const FRAME: Rgb555 = Rgb555::new(28, 21, 5);
    /// X marks (a cross).
    pub const X: Rgb555 = Rgb555::new(31, 9, 7);
    /// O marks (a ring).
    pub const O: Rgb555 = Rgb555::new(7, 22, 31);
    /// The cursor.
    pub const CURSOR: Rgb555 = Rgb555::new(31, 31, 6);
    /// The hint's cell.
    pub const HINT: Rgb555 = Rgb555::new(4, 20, 8);
    /// Cells of the winning line.
    pub const WIN_CELL: Rgb555 = Rgb555::new(20, 16, 2);
    /// The stroke through the winning line.
    pub const WIN_LINE: Rgb555 = Rgb555::new(31, 30, 20);
    /// The last move's cell.
    pub const LAST: Rgb555 = Rgb555::new(8, 10, 20);
    /// Ordinary text.
    pub const TEXT: Rgb555 = Rgb555::new(28, 28, 30);
    /// Secondary text.
    pub const DIM: Rgb555 = Rgb555::new(15, 16, 21);
    /// The result message (used for nothing else).
    pub const RESULT: Rgb555 = Rgb555::new(31, 29, 0);
    /// The computer's speech ("I am choosing square N!").
    pub const SPEECH: Rgb555 = Rgb555::new(20, 31, 20);
    /// Highlighted menu line.
    pub const SELECT: Rgb555 = Rgb555::new(10, 8, 24);
}

/// Where things are on the screen.
pub mod layout {
    use embedded_graphics::prelude::*;
    use embedded_graphics::primitives::Rectangle;
    use ttt_core::{Rules, Square};

    /// Screen width.
    pub const WIDTH: u32 = 320;
    /// Screen height.
    pub const HEIGHT: u32 = 240;
    /// The status bar at the top (messages, the result).
    pub const STATUS: Rectangle = Rectangle::new(Point::new(8, 6), Size::new(304, 26));
    /// The square the board is fitted into (inside its frame).
    pub const BOARD_AREA: Rectangle = Rectangle::new(Point::new(14, 40), Size::new(186, 186));
    /// The side panel (players, scores, controls).
    pub const PANEL: Rectangle = Rectangle::new(Point::new(210, 38), Size::new(104, 190));

    /// Cell size in pixels and the board's top-left corner.
    pub fn board_geometry(rules: &Rules) -> (Point, u32) {
        let n = rules.columns().max(rules.rows()).max(1) as u32;
        let cell = (BOARD_AREA.size.width / n).min(62);
        let w = cell * rules.columns() as u32;
        let h = cell * rules.rows() as u32;
        let x = BOARD_AREA.top_left.x + (BOARD_AREA.size.width as i32 - w as i32) / 2;
        let y = BOARD_AREA.top_left.y + (BOARD_AREA.size.height as i32 - h as i32) / 2;
        (Point::new(x, y), cell)
    }

    /// The pixels of one cell.
    pub fn cell_rect(rules: &Rules, sq: Square) -> Rectangle {
        let (origin, cell) = board_geometry(rules);
        Rectangle::new(
            origin
                + Point::new(
                    sq.column() as i32 * cell as i32,
                    sq.row() as i32 * cell as i32,
                ),
            Size::new(cell, cell),
        )
    }
}

/// A box with a 2-pixel edge and chamfered corners (see [`Panel`]).
fn panel<C: Canvas>(t: &mut C, area: Rectangle, fill: Rgb555, edge: Rgb555) {
    t.panel(Panel {
        area,
        fill,
        edge,
        inner: None,
    });
}

/// Word-wraps `s` into lines of at most `width` characters, drawn from `at`
/// down, `line_h` apart; at most `max_lines`.
#[allow(clippy::too_many_arguments)]
fn wrapped<C: Canvas>(
    t: &mut C,
    s: &str,
    at: Point,
    width: usize,
    line_h: i32,
    max_lines: usize,
    font: Font,
    color: Rgb555,
) {
    let mut line = StrBuf::<64>::new();
    let mut len = 0usize;
    let mut y = at.y;
    let mut lines = 0;
    for word in s.split(' ').filter(|w| !w.is_empty()) {
        let wl = word.chars().count();
        if len > 0 && len + 1 + wl > width {
            if lines >= max_lines {
                return;
            }
            t.text(
                line.as_str(),
                Point::new(at.x, y),
                font,
                color,
                Alignment::Left,
            );
            lines += 1;
            y += line_h;
            line.clear();
            len = 0;
        }
        if len > 0 {
            let _ = line.write_char(' ');
            len += 1;
        }
        let _ = line.write_str(word);
        len += wl;
    }
    if len > 0 && lines < max_lines {
        t.text(
            line.as_str(),
            Point::new(at.x, y),
            font,
            color,
            Alignment::Left,
        );
    }
}

/// The side panel's mark icons, pixels square.
const ICON: u32 = 16;
/// The title's little board's cells, pixels square.
const TITLE_CELL: u32 = 30;

/// The cursor's frame on cell `r` of a board with `cell`-pixel cells:
/// its area, corner radius and width.
fn cursor_frame(r: Rectangle, cell: u32) -> (Rectangle, u32, u32) {
    (r.offset(-1), 4, if cell >= 30 { 3 } else { 2 })
}

/// Draws every mark and rounded frame the screens draw, one of each shape
/// and size, somewhere: every board size's marks and cursor, the side
/// panel's icons, the title's marks. A raster given spare time renders
/// their sprites ahead of need (`Canvas::warm_up`), so that the first frame
/// of a new screen only copies them.
pub fn every_sprite<C: Canvas>(t: &mut C) {
    let cell_at = |size: u32| Rectangle::new(Point::zero(), Size::new(size, size));
    for mark in Mark::ALL {
        t.mark(cell_at(ICON), mark);
        t.mark(cell_at(TITLE_CELL), mark);
    }
    let mut last = 0;
    for side in settings::MIN_SIDE..=settings::MAX_SIDE {
        let Ok(rules) = Rules::new(side, side, side) else {
            continue;
        };
        let (_, cell) = layout::board_geometry(&rules);
        if cell == last {
            continue;
        }
        last = cell;
        for mark in Mark::ALL {
            t.mark(cell_at(cell), mark);
        }
        let (area, radius, width) = cursor_frame(cell_at(cell), cell);
        t.rounded_frame(area, radius, width, palette::CURSOR);
    }
}

fn mark_color(mark: Mark) -> Rgb555 {
    match mark {
        Mark::X => palette::X,
        Mark::O => palette::O,
    }
}

/// Triangle wave 0..=amp..0 with the given period.
fn wave(frame: u64, period: u64, amp: i32) -> i32 {
    let period = period.max(2);
    let p = (frame % period) as i32;
    let half = (period / 2) as i32;
    let v = if p < half { p } else { period as i32 - p };
    v * amp / half.max(1)
}

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

impl Game<'_> {
    /// Draws the whole frame (320x240) with embedded-graphics.
    pub fn draw<D: DrawTarget<Color = Rgb555>>(&self, target: &mut D) {
        self.draw_on(&mut Plain(target));
    }

    /// Draws the whole frame (320x240) on a canvas.
    pub fn draw_on<C: Canvas>(&self, target: &mut C) {
        target.fill_screen(palette::BG);
        match self.screen {
            Screen::Title => self.draw_title(target),
            Screen::Menu => self.draw_menu(target),
            Screen::Attract | Screen::Game | Screen::Pause | Screen::Result | Screen::Unplugged => {
                self.draw_game(target);
                match self.screen {
                    Screen::Pause => self.draw_pause(target),
                    Screen::Unplugged => self.draw_unplugged(target),
                    _ => {}
                }
            }
        }
    }

    fn draw_title<C: Canvas>(&self, t: &mut C) {
        let f = self.anim_frame();
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
        let s = self.save.scores[Mode::OnePlayer.index()];
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

    fn draw_menu<C: Canvas>(&self, t: &mut C) {
        t.text(
            "GAME SETUP",
            Point::new(160, 20),
            Font::Large,
            palette::FRAME,
            Alignment::Center,
        );
        let selected = self.menu_selected();
        let mode = self.settings.mode;
        let mut y = 50;
        for item in self.menu_items() {
            let is_sel = item == selected;
            let row = Rectangle::new(Point::new(12, y - 10), Size::new(296, 20));
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
                    Point::new(22, y),
                    Font::Medium,
                    color,
                    Alignment::Left,
                );
                let mut v = StrBuf::<40>::new();
                let _ = self.settings.show_value(item, &mut v);
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
                    Point::new(300, y),
                    Font::Small,
                    vc,
                    Alignment::Right,
                );
            }
            y += 22;
        }
        // Help for the selected line.
        let help = Rectangle::new(Point::new(12, 188), Size::new(296, 32));
        panel(t, help, palette::PANEL, palette::PANEL_EDGE);
        let rules = self.settings.rules();
        let mut desc = StrBuf::<128>::new();
        let _ = match selected {
            MenuItem::Computer | MenuItem::Computer2 => {
                let kind = if selected == MenuItem::Computer {
                    self.settings.computer_kind()
                } else {
                    self.settings.computer2_kind()
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
            MenuItem::Board => desc.write_str("Boards from 1x1 to 9x9, as in 'Tic-Tac-Toe in C'."),
            MenuItem::WinLength => {
                desc.write_str("Marks in a row needed to win (default: a full row).")
            }
            MenuItem::First => {
                desc.write_str("Who plays X and moves first. Alternate swaps every game.")
            }
            MenuItem::Start => desc.write_str("Press A or START to play."),
        };
        wrapped(
            t,
            desc.as_str(),
            Point::new(20, 198),
            48,
            11,
            2,
            Font::Small,
            palette::TEXT,
        );
        t.text(
            "D-pad: move  A: choose  B: back  START: play",
            Point::new(160, 231),
            Font::Small,
            palette::DIM,
            Alignment::Center,
        );
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        let mode = self.play.mode;
        match seat {
            Seat::Human { side, .. } => mode.sides()[side as usize & 1],
            Seat::Computer { kind, .. } => friendly_name(kind),
        }
    }

    fn result_text(&self, m: &Match) -> StrBuf<40> {
        let outcome = m.pos.outcome();
        let Outcome::Win(w) = outcome else {
            return StrBuf::format(format_args!("The game is a draw."));
        };
        let seat = m.seats[w.index()];
        match (m.mode, seat) {
            (Mode::OnePlayer, Seat::Computer { .. }) => StrBuf::format(format_args!("I WIN!!!")),
            (Mode::OnePlayer, Seat::Human { .. }) => {
                StrBuf::format(format_args!("Congratulations, you win!"))
            }
            (Mode::TwoPads | Mode::SharedPad, Seat::Human { side, .. }) => {
                StrBuf::format(format_args!("Congratulations, player {}!", side + 1))
            }
            _ => StrBuf::format(format_args!("{}: I WIN!!!", w)),
        }
    }

    fn draw_status<C: Canvas>(&self, t: &mut C) {
        let m = &self.play;
        panel(t, layout::STATUS, palette::PANEL, palette::PANEL_EDGE);
        let c = layout::STATUS.center();
        if m.pos.outcome().is_over() {
            let s = self.result_text(m);
            t.text(
                s.as_str(),
                c,
                Font::Large,
                palette::RESULT,
                Alignment::Center,
            );
            return;
        }
        let to_move = m.pos.side_to_move();
        let seat = m.seat_to_move();
        let line: StrBuf<48> = if m.hint_pending {
            StrBuf::format(format_args!("Looking for a hint..."))
        } else if let Seat::Computer { .. } = seat {
            if m.mode == Mode::OnePlayer {
                StrBuf::format(format_args!("Computer is thinking..."))
            } else {
                StrBuf::format(format_args!(
                    "{} ({}) is thinking...",
                    to_move,
                    self.seat_name(seat)
                ))
            }
        } else if let Some((_, n)) = m.said {
            if m.mode == Mode::OnePlayer {
                StrBuf::format(format_args!("I am choosing square {}! Your move", n))
            } else {
                StrBuf::format(format_args!("I am choosing square {}!", n))
            }
        } else {
            match m.mode {
                Mode::OnePlayer => StrBuf::format(format_args!("Your move, {}", to_move)),
                _ => StrBuf::format(format_args!(
                    "{}: your move, {}",
                    self.seat_name(seat),
                    to_move
                )),
            }
        };
        let color = if m.said.is_some() && matches!(seat, Seat::Human { .. }) && !m.hint_pending {
            palette::SPEECH
        } else {
            palette::TEXT
        };
        t.text(line.as_str(), c, Font::Medium, color, Alignment::Center);
    }

    fn draw_board<C: Canvas>(&self, t: &mut C) {
        let m = &self.play;
        let rules: Rules = *m.pos.rules();
        let (origin, cell) = layout::board_geometry(&rules);
        let w = cell * rules.columns() as u32;
        let h = cell * rules.rows() as u32;
        let board = Rectangle::new(origin, Size::new(w, h));
        // Frame.
        // The board inside its frame.
        t.panel(Panel {
            area: board.offset(7),
            fill: palette::PANEL,
            edge: palette::FRAME,
            inner: Some((board, palette::BOARD)),
        });
        let win = m.pos.winning_line();
        let last = m.pos.last_move();
        for sq in rules.squares() {
            let r = layout::cell_rect(&rules, sq);
            let inner = r.offset(-1);
            if win.is_some_and(|l| l.contains(sq)) {
                t.fill(inner, palette::WIN_CELL);
            } else if m.hint == Some(sq) {
                t.fill(inner, palette::HINT);
            } else if last == Some(sq) {
                t.fill(inner, palette::LAST);
            }
        }
        // Grid.
        let grid = if cell >= 30 { 2 } else { 1 };
        for i in 1..rules.columns() as i32 {
            let x = origin.x + i * cell as i32;
            t.line(
                Point::new(x, origin.y),
                Point::new(x, origin.y + h as i32 - 1),
                grid,
                palette::GRID,
            );
        }
        for i in 1..rules.rows() as i32 {
            let y = origin.y + i * cell as i32;
            t.line(
                Point::new(origin.x, y),
                Point::new(origin.x + w as i32 - 1, y),
                grid,
                palette::GRID,
            );
        }
        for sq in rules.squares() {
            if let Some(mark) = m.pos.get(sq) {
                t.mark(layout::cell_rect(&rules, sq), mark);
            }
        }
        if let Some(line) = win {
            let first = line.start;
            let last_sq = line.squares().last().unwrap_or(first);
            let a = layout::cell_rect(&rules, first).center();
            let b = layout::cell_rect(&rules, last_sq).center();
            t.line(a, b, (cell / 10).max(2), palette::WIN_LINE);
        }
        // Cursor: only while a person is to move.
        let human_turn = matches!(m.seat_to_move(), Seat::Human { .. });
        if human_turn && !m.pos.outcome().is_over() && rules.contains(m.cursor) && !m.attract {
            let r = layout::cell_rect(&rules, m.cursor);
            let pulse = wave(self.anim_frame(), 40, 8) as u8;
            let color = Rgb555::new(31, 31, 6 + pulse);
            let (area, radius, width) = cursor_frame(r, cell);
            t.rounded_frame(area, radius, width, color);
            // A ghost of the mark to place on an empty cell.
            if m.pos.get(m.cursor).is_none() && cell >= 16 {
                let dot = Rectangle::with_center(r.center(), Size::new(4, 4));
                t.fill(dot, mark_color(m.pos.side_to_move()));
            }
        }
    }

    fn draw_panel<C: Canvas>(&self, t: &mut C) {
        let m = &self.play;
        let p = layout::PANEL;
        panel(t, p, palette::PANEL, palette::PANEL_EDGE);
        let x = p.top_left.x + 6;
        let cx = p.center().x;
        let mut y = p.top_left.y + 13;
        let to_move = m.pos.side_to_move();
        let over = m.pos.outcome().is_over();
        // Who plays which mark; the side to move is boxed in its colour.
        for mark in Mark::ALL {
            let seat = m.seats[mark.index()];
            let active = !over && mark == to_move;
            if active {
                let r = Rectangle::new(
                    Point::new(p.top_left.x + 3, y - 9),
                    Size::new(p.size.width - 6, 19),
                );
                panel(t, r, palette::SELECT, mark_color(mark));
            }
            t.mark(
                Rectangle::new(Point::new(x - 1, y - 8), Size::new(ICON, ICON)),
                mark,
            );
            let name = self.seat_name(seat);
            let short = name.get(..13).unwrap_or(name);
            let color = if active { palette::TEXT } else { palette::DIM };
            t.text(
                short,
                Point::new(x + 17, y),
                Font::Small,
                color,
                Alignment::Left,
            );
            y += 21;
        }
        let rules = m.pos.rules();
        let info = StrBuf::<24>::format(format_args!(
            "{}x{}, {} to win",
            rules.columns(),
            rules.rows(),
            rules.k()
        ));
        t.text(
            info.as_str(),
            Point::new(cx, y),
            Font::Small,
            palette::DIM,
            Alignment::Center,
        );
        y += 16;
        if m.attract {
            t.text(
                "DEMO",
                Point::new(cx, y + 10),
                Font::Large,
                palette::FRAME,
                Alignment::Center,
            );
            if (self.anim_frame() / 30).is_multiple_of(2) {
                t.text(
                    "Press any",
                    Point::new(cx, y + 40),
                    Font::Small,
                    palette::CURSOR,
                    Alignment::Center,
                );
                t.text(
                    "button",
                    Point::new(cx, y + 52),
                    Font::Small,
                    palette::CURSOR,
                    Alignment::Center,
                );
            }
            return;
        }
        // Scores: this session and all time (the save).
        let idx = m.mode.index();
        let (now, all) = (self.session[idx], self.save.scores[idx]);
        let labels = m.mode.short_sides();
        t.text(
            "SCORE NOW  ALL",
            Point::new(x, y),
            Font::Small,
            palette::FRAME,
            Alignment::Left,
        );
        y += 12;
        for (label, a, b) in [
            (labels[0], now.wins, all.wins),
            (labels[1], now.losses, all.losses),
            ("Draw", now.draws, all.draws),
        ] {
            let line = StrBuf::<24>::format(format_args!(
                "{:<5}{:>4} {:>4}",
                label,
                a.min(9999),
                b.min(9999)
            ));
            t.text(
                line.as_str(),
                Point::new(x, y),
                Font::Small,
                palette::TEXT,
                Alignment::Left,
            );
            y += 11;
        }
        // Controls, or the question after a game.
        let bottom = p.top_left.y + p.size.height as i32;
        if self.screen == Screen::Result {
            t.text(
                "Play again?",
                Point::new(cx, bottom - 40),
                Font::Medium,
                palette::CURSOR,
                Alignment::Center,
            );
            t.text(
                "A: yes",
                Point::new(cx, bottom - 24),
                Font::Small,
                palette::TEXT,
                Alignment::Center,
            );
            t.text(
                "B: menu",
                Point::new(cx, bottom - 12),
                Font::Small,
                palette::TEXT,
                Alignment::Center,
            );
        } else {
            let lines: [&str; 3] = match m.mode {
                Mode::ComputerVsComputer => ["", "", "START: pause"],
                _ => ["A: place", "B: undo Z: hint", "START: pause"],
            };
            for (i, l) in lines.iter().enumerate() {
                let ly = bottom - 36 + i as i32 * 11;
                t.text(
                    l,
                    Point::new(x, ly),
                    Font::Small,
                    palette::DIM,
                    Alignment::Left,
                );
            }
        }
    }

    fn draw_game<C: Canvas>(&self, t: &mut C) {
        self.draw_status(t);
        self.draw_board(t);
        self.draw_panel(t);
    }

    fn draw_pause<C: Canvas>(&self, t: &mut C) {
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
            let sel = i == self.pause_cursor as usize;
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

    fn draw_unplugged<C: Canvas>(&self, t: &mut C) {
        let r = Rectangle::new(Point::new(40, 80), Size::new(240, 80));
        panel(t, r, palette::PANEL, palette::X);
        let line = StrBuf::<40>::format(format_args!(
            "Controller {} unplugged",
            self.unplugged_port + 1
        ));
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
