//! How a game on the board looks, for every screen that shows one (game,
//! pause, result, unplugged, attract): the status bar, the board, the side
//! panel with the players, scores and controls.

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use ttt_core::series::Seat;
use ttt_core::{Mark, Outcome, Rules};

use crate::canvas::{Canvas, Font, Panel};
use crate::layout;
use crate::palette;
use crate::play::Match;
use crate::services::Services;
use crate::settings::{friendly_name, Mode};
use crate::text::StrBuf;
use crate::widgets::{cursor_frame, mark_color, panel, wave, ICON};

/// The status bar, the board and the side panel; the panel asks "Play
/// again?" with `play_again` (the result screen), else shows the controls.
pub(crate) fn draw<C: Canvas>(sv: &Services<'_>, play: &Match, play_again: bool, t: &mut C) {
    draw_status(play, t);
    draw_board(sv, play, t);
    draw_panel(sv, play, play_again, t);
}

/// The name of whoever plays `mark`.
fn player_name(m: &Match, mark: Mark) -> &'static str {
    match m.lineup.seat(mark) {
        Seat::Human => m.mode.sides()[m.lineup.side(mark).index()],
        Seat::Computer(kind) => friendly_name(kind),
    }
}

fn result_text(m: &Match) -> StrBuf<40> {
    let outcome = m.pos.outcome();
    let Outcome::Win(w) = outcome else {
        return StrBuf::format(format_args!("The game is a draw."));
    };
    match (m.mode, m.lineup.seat(w)) {
        (Mode::OnePlayer, Seat::Computer(_)) => StrBuf::format(format_args!("I WIN!!!")),
        (Mode::OnePlayer, Seat::Human) => StrBuf::format(format_args!("Congratulations, you win!")),
        (Mode::TwoPads | Mode::SharedPad, Seat::Human) => StrBuf::format(format_args!(
            "Congratulations, player {}!",
            m.lineup.side(w).number()
        )),
        _ => StrBuf::format(format_args!("{}: I WIN!!!", w)),
    }
}

fn draw_status<C: Canvas>(m: &Match, t: &mut C) {
    panel(t, layout::STATUS, palette::PANEL, palette::PANEL_EDGE);
    let c = layout::STATUS.center();
    if m.pos.outcome().is_over() {
        let s = result_text(m);
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
    } else if let Seat::Computer(_) = seat {
        if m.mode == Mode::OnePlayer {
            StrBuf::format(format_args!("Computer is thinking..."))
        } else {
            StrBuf::format(format_args!(
                "{} ({}) is thinking...",
                to_move,
                player_name(m, to_move)
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
                player_name(m, to_move),
                to_move
            )),
        }
    };
    let color = if m.said.is_some() && seat.is_human() && !m.hint_pending {
        palette::SPEECH
    } else {
        palette::TEXT
    };
    t.text(line.as_str(), c, Font::Medium, color, Alignment::Center);
}

fn draw_board<C: Canvas>(sv: &Services<'_>, m: &Match, t: &mut C) {
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
    let human_turn = m.seat_to_move().is_human();
    if human_turn && !m.pos.outcome().is_over() && rules.contains(m.cursor) && !m.attract {
        let r = layout::cell_rect(&rules, m.cursor);
        let pulse = wave(sv.clock.anim_frame(), 40, 8) as u8;
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

fn draw_panel<C: Canvas>(sv: &Services<'_>, m: &Match, play_again: bool, t: &mut C) {
    let p = layout::PANEL;
    panel(t, p, palette::PANEL, palette::PANEL_EDGE);
    let x = p.top_left.x + 6;
    let cx = p.center().x;
    let mut y = p.top_left.y + 13;
    let to_move = m.pos.side_to_move();
    let over = m.pos.outcome().is_over();
    // Who plays which mark; the side to move is boxed in its colour.
    for mark in Mark::ALL {
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
        let name = player_name(m, mark);
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
        if (sv.clock.anim_frame() / 30).is_multiple_of(2) {
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
    let (now, all) = (sv.series[idx].score(), sv.save.scores[idx]);
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
    if play_again {
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
