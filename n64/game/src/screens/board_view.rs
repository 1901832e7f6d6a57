//! How a game on the board looks, for every screen that shows one (game,
//! pause, result, unplugged, attract): the board, the status (what is
//! happening: whose move, the computer thinking, the result) and the side
//! panel with the players, scores and controls. The seeds' boards have the
//! status in a bar above the board; the gomoku boards (10x10 to 15x15) fill
//! the height, with their coordinates on two edges and the status in the
//! panel (see [`layout`]).

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use ttt_core::series::Seat;
use ttt_core::{Forbidden, Mark, Outcome, Rules, Square, WinCondition};

use crate::canvas::{Canvas, Font, Panel};
use crate::layout;
use crate::palette;
use crate::play::{coord, Match};
use crate::search::Purpose;
use crate::services::Services;
use crate::settings::{friendly_name, short_name, Mode};
use crate::text::StrBuf;
use crate::widgets::{cursor_frame, last_move_frame, mark_color, panel, wave, ICON};

/// The board, the status and the side panel; the panel asks "Play
/// again?" with `play_again` (the result screen), else shows the controls.
pub(crate) fn draw<C: Canvas>(sv: &Services, play: &Match, play_again: bool, t: &mut C) {
    let rules = *play.rules();
    if layout::is_big(&rules) {
        draw_board(sv, play, t);
        draw_big_panel(sv, play, play_again, t);
    } else {
        draw_status(sv, play, t);
        draw_board(sv, play, t);
        draw_panel(sv, play, play_again, t);
    }
}

/// The name of whoever plays `mark`.
fn player_name(m: &Match, mark: Mark) -> &'static str {
    match m.lineup.seat(mark) {
        Seat::Human => m.mode.sides()[m.lineup.side(mark).index()],
        Seat::Computer(kind) => friendly_name(kind),
    }
}

/// The same, at most 6 characters (the gomoku boards' panel).
fn player_short_name(m: &Match, mark: Mark) -> &'static str {
    match m.lineup.seat(mark) {
        Seat::Human => m.mode.short_sides()[m.lineup.side(mark).index()],
        Seat::Computer(kind) => short_name(kind),
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

/// The dots after "thinking", one more every quarter second: the picture
/// moves while the computer searches.
fn thinking_dots(sv: &Services) -> &'static str {
    match (sv.clock.anim_frame() / 15) % 4 {
        0 => "",
        1 => ".",
        2 => "..",
        _ => "...",
    }
}

/// Whether the match waits for a hint's search.
fn hint_searching(m: &Match) -> bool {
    m.hint_pending
        || m.pending
            .is_some_and(|p| matches!(p.purpose, Purpose::Hint))
}

/// What a forbidden move is, in a few words.
fn forbidden_words(why: Forbidden) -> &'static str {
    match why {
        Forbidden::Overline => "an overline",
        Forbidden::DoubleFour => "a double four",
        Forbidden::DoubleThree => "a double three",
    }
}

fn draw_status<C: Canvas>(sv: &Services, m: &Match, t: &mut C) {
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
    let rules = *m.rules();
    let line: StrBuf<48> = if hint_searching(m) {
        StrBuf::format(format_args!("Looking for a hint{}", thinking_dots(sv)))
    } else if let Some((sq, why)) = m.refused {
        StrBuf::format(format_args!(
            "{} is {}: not for X",
            coord(&rules, sq),
            forbidden_words(why)
        ))
    } else if let Seat::Computer(_) = seat {
        if m.mode == Mode::OnePlayer {
            StrBuf::format(format_args!("Computer is thinking{}", thinking_dots(sv)))
        } else {
            StrBuf::format(format_args!(
                "{} ({}) is thinking{}",
                to_move,
                player_name(m, to_move),
                thinking_dots(sv)
            ))
        }
    } else if let Some((_, sq)) = m.said {
        let n = rules.number_of(sq);
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
    let color = if m.refused.is_some() && !hint_searching(m) {
        palette::X
    } else if m.said.is_some() && seat.is_human() && !hint_searching(m) {
        palette::SPEECH
    } else {
        palette::TEXT
    };
    t.text(line.as_str(), c, Font::Medium, color, Alignment::Center);
}

fn draw_board<C: Canvas>(sv: &Services, m: &Match, t: &mut C) {
    let rules: Rules = *m.pos.rules();
    let big = layout::is_big(&rules);
    let (origin, cell) = layout::board_geometry(&rules);
    let board = layout::board_rect(&rules);
    let (w, h) = (board.size.width, board.size.height);
    // The board inside its frame.
    if big {
        // A thin frame: four lines and the board's own fill, so that no
        // pixel is filled twice (a panel's 2-pixel edge leaves no room for
        // the board inside it, and the plain panel that then draws it fills
        // the board's area four times: the console's dearest frame).
        let outer = board.offset(layout::BIG_FRAME as i32);
        let (x0, y0) = (outer.top_left.x, outer.top_left.y);
        let (x1, y1) = (x0 + outer.size.width as i32, y0 + outer.size.height as i32);
        let edge = layout::BIG_FRAME;
        let (w, h) = (outer.size.width - 2 * edge, outer.size.height - 2 * edge);
        let e = edge as i32;
        for r in [
            Rectangle::new(Point::new(x0 + e, y0), Size::new(w, edge)),
            Rectangle::new(Point::new(x0 + e, y1 - e), Size::new(w, edge)),
            Rectangle::new(Point::new(x0, y0 + e), Size::new(edge, h)),
            Rectangle::new(Point::new(x1 - e, y0 + e), Size::new(edge, h)),
        ] {
            t.fill(r, palette::FRAME);
        }
        t.fill(board, palette::BOARD);
        draw_coordinates(&rules, board, cell, t);
    } else {
        t.panel(Panel {
            area: board.offset(layout::BOARD_FRAME as i32),
            fill: palette::PANEL,
            edge: palette::FRAME,
            inner: Some((board, palette::BOARD)),
        });
    }
    // The cells' rectangles, worked out here once: this runs every frame,
    // for up to 225 cells (`layout::cell_rect` gives the same).
    let cell_at = |sq: Square| {
        Rectangle::new(
            origin
                + Point::new(
                    sq.column() as i32 * cell as i32,
                    sq.row() as i32 * cell as i32,
                ),
            Size::new(cell, cell),
        )
    };
    // The winning line's cells, else the hint's, else the last move's.
    let win = m.pos.winning_line();
    let last = m.pos.last_move();
    let in_win = |sq: Square| win.is_some_and(|l| l.contains(sq));
    for sq in win.iter().flat_map(|l| l.squares()) {
        t.fill(cell_at(sq).offset(-1), palette::WIN_CELL);
    }
    if let Some(sq) = m.hint.filter(|&sq| !in_win(sq)) {
        t.fill(cell_at(sq).offset(-1), palette::HINT);
    }
    if let Some(sq) = last.filter(|&sq| !in_win(sq) && m.hint != Some(sq)) {
        t.fill(cell_at(sq).offset(-1), palette::LAST);
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
    // The marks, then X's forbidden points (renju: a small red square):
    // only the cells that hold something are visited.
    for mark in Mark::ALL {
        for sq in m.pos.marks(mark) {
            t.mark(cell_at(sq), mark);
        }
    }
    if !m.pos.outcome().is_over() {
        let size = (cell / 4).max(3);
        for sq in m.forbidden {
            t.fill(
                Rectangle::with_center(cell_at(sq).center(), Size::new(size, size)),
                palette::FORBIDDEN,
            );
        }
    }
    // The last move, outlined on the gomoku boards, where a filled cell
    // alone is hard to find among many marks.
    if let (true, Some(sq), None) = (big, last, win) {
        let (area, radius, width) = last_move_frame(layout::cell_rect(&rules, sq));
        t.rounded_frame(area, radius, width, palette::LAST_EDGE);
    }
    if let Some(line) = win {
        let first = line.start;
        let last_sq = line.squares().last().unwrap_or(first);
        let a = layout::cell_rect(&rules, first).center();
        let b = layout::cell_rect(&rules, last_sq).center();
        t.line(a, b, (cell / 10).max(2), palette::WIN_LINE);
    }
    // Cursor: while a person is to move, and on the gomoku boards also
    // while the computer thinks against one (their cursor moves freely).
    let human_turn = m.seat_to_move().is_human();
    let human_waits = m.port(m.pos.side_to_move().other()).is_some();
    let shown = human_turn || (big && human_waits);
    if shown && !m.pos.outcome().is_over() && rules.contains(m.cursor) && !m.attract {
        let r = layout::cell_rect(&rules, m.cursor);
        let pulse = wave(sv.clock.anim_frame(), 40, 8) as u8;
        let color = if human_turn {
            Rgb555::new(31, 31, 6 + pulse)
        } else {
            palette::DIM
        };
        let (area, radius, width) = cursor_frame(r, cell);
        t.rounded_frame(area, radius, width, color);
        // A ghost of the mark to place on an empty cell.
        if human_turn && m.pos.get(m.cursor).is_none() && cell >= 16 {
            let dot = Rectangle::with_center(r.center(), Size::new(4, 4));
            t.fill(dot, mark_color(m.pos.side_to_move()));
        }
    }
}

/// The column letters above a gomoku board and the row numbers on its
/// left, as the desktop writes squares (`a1` top left).
fn draw_coordinates<C: Canvas>(rules: &Rules, board: Rectangle, cell: u32, t: &mut C) {
    let half = cell as i32 / 2;
    let top = board.top_left.y - layout::BIG_FRAME as i32 - layout::COLUMN_LABELS as i32 / 2;
    for c in 0..rules.columns() {
        let x = board.top_left.x + c as i32 * cell as i32 + half;
        let letter = [b'a' + c];
        let s = core::str::from_utf8(&letter).unwrap_or("?");
        t.text(
            s,
            Point::new(x, top),
            Font::Small,
            palette::DIM,
            Alignment::Center,
        );
    }
    let right = board.top_left.x - layout::BIG_FRAME as i32 - 2;
    for r in 0..rules.rows() {
        let y = board.top_left.y + r as i32 * cell as i32 + half;
        // The digits by hand rather than through `core::fmt` (up to 15
        // labels, every frame).
        let n = u16::from(r) + 1;
        let digits = [n / 100 % 10, n / 10 % 10, n % 10].map(|d| b'0' + d as u8);
        let skip = match n {
            0..=9 => 2,
            10..=99 => 1,
            _ => 0,
        };
        t.text(
            core::str::from_utf8(&digits[skip..]).unwrap_or("?"),
            Point::new(right, y),
            Font::Small,
            palette::DIM,
            Alignment::Right,
        );
    }
}

fn draw_panel<C: Canvas>(sv: &Services, m: &Match, play_again: bool, t: &mut C) {
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
        let name = match player_name(m, mark) {
            name if name.len() <= 10 => name,
            _ => player_short_name(m, mark),
        };
        let color = if active { palette::TEXT } else { palette::DIM };
        t.text(
            name,
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
        draw_demo(sv, cx, y, t);
        return;
    }
    // Scores: this session and all time (the save).
    let idx = m.mode.index();
    let (now, all) = (sv.series[idx].score(), sv.save.scores[idx]);
    let labels = m.mode.short_sides();
    let header = StrBuf::<24>::format(format_args!("{:<4}{:>4}{:>5}", "", "NOW", "ALL"));
    t.text(
        header.as_str(),
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
            "{:<4}{:>4}{:>5}",
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
        draw_play_again("Play again?", cx, bottom, t);
    } else {
        let lines: [&str; 4] = match m.mode {
            Mode::ComputerVsComputer => ["", "", "", "START: pause"],
            _ => ["A: place", "B: undo", "Z: hint", "START: pause"],
        };
        for (i, l) in lines.iter().enumerate() {
            let ly = bottom - 47 + i as i32 * 11;
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

/// "DEMO" and a blinking "Press any button" (the attract mode).
fn draw_demo<C: Canvas>(sv: &Services, cx: i32, y: i32, t: &mut C) {
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
}

/// The question after a game ("Play again?") with its answers, ending at
/// `bottom`.
fn draw_play_again<C: Canvas>(question: &str, cx: i32, bottom: i32, t: &mut C) {
    t.text(
        question,
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
}

/// The status of a gomoku board's game in at most three short lines
/// (9 characters each) and their colour.
fn big_status(sv: &Services, m: &Match) -> ([StrBuf<16>; 3], Rgb555) {
    let line = |args: core::fmt::Arguments<'_>| StrBuf::<16>::format(args);
    let empty = StrBuf::<16>::new();
    if let Outcome::Win(w) = m.pos.outcome() {
        let first = match (m.mode, m.lineup.seat(w)) {
            (Mode::OnePlayer, Seat::Computer(_)) => line(format_args!("I WIN!!!")),
            (Mode::OnePlayer, Seat::Human) => line(format_args!("You win!")),
            (Mode::TwoPads | Mode::SharedPad, _) => {
                line(format_args!("P{} wins!", m.lineup.side(w).number()))
            }
            _ => line(format_args!("{} wins!", w)),
        };
        return ([first, empty, empty], palette::RESULT);
    }
    if m.pos.outcome().is_over() {
        return (
            [line(format_args!("A draw.")), empty, empty],
            palette::RESULT,
        );
    }
    let to_move = m.pos.side_to_move();
    if hint_searching(m) {
        let lines = [
            line(format_args!("Looking")),
            line(format_args!("for a")),
            line(format_args!("hint{}", thinking_dots(sv))),
        ];
        return (lines, palette::TEXT);
    }
    if let Some((sq, why)) = m.refused {
        let what = match why {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double 4",
            Forbidden::DoubleThree => "double 3",
        };
        let lines = [
            line(format_args!("No: {}", coord(m.rules(), sq))),
            line(format_args!("{what}")),
            line(format_args!("forbidden")),
        ];
        return (lines, palette::X);
    }
    if let Seat::Computer(_) = m.seat_to_move() {
        let who = match m.mode {
            Mode::OnePlayer => line(format_args!("Computer")),
            // "X Strong": "X (Strong)" is a character more than the
            // panel holds.
            _ => line(format_args!(
                "{} {}",
                to_move,
                player_short_name(m, to_move)
            )),
        };
        let lines = [
            who,
            line(format_args!("thinking")),
            line(format_args!("{}", thinking_dots(sv))),
        ];
        return (lines, palette::TEXT);
    }
    // "I play" and the square on lines of their own: "I play o15" is a
    // character more than the panel holds.
    let said = m.said.map(|(_, sq)| coord(m.rules(), sq));
    let turn = match m.mode {
        Mode::OnePlayer => line(format_args!("Your move")),
        _ => line(format_args!("{} to move", to_move)),
    };
    match said {
        Some(sq) => (
            [
                line(format_args!("I play")),
                line(format_args!("{sq}")),
                turn,
            ],
            palette::SPEECH,
        ),
        None => ([turn, empty, empty], palette::TEXT),
    }
}

/// The rules in one short line.
fn rules_words(rules: &Rules) -> StrBuf<16> {
    match rules.win_condition() {
        WinCondition::AtLeastK => StrBuf::format(format_args!("{} in row", rules.k())),
        WinCondition::ExactlyK => StrBuf::format(format_args!("Exactly {}", rules.k())),
        WinCondition::Renju => StrBuf::format(format_args!("Renju")),
    }
}

/// The side panel of a gomoku board: players, board, status, the cursor's
/// square, scores, controls; lines of at most 9 characters.
fn draw_big_panel<C: Canvas>(sv: &Services, m: &Match, play_again: bool, t: &mut C) {
    let rules = *m.rules();
    let p = layout::panel(&rules);
    panel(t, p, palette::PANEL, palette::PANEL_EDGE);
    let x = p.top_left.x + 4;
    let cx = p.center().x;
    let mut y = p.top_left.y + 12;
    let to_move = m.pos.side_to_move();
    let over = m.pos.outcome().is_over();
    for mark in Mark::ALL {
        let active = !over && mark == to_move;
        if active {
            let r = Rectangle::new(
                Point::new(p.top_left.x + 2, y - 9),
                Size::new(p.size.width - 4, 19),
            );
            panel(t, r, palette::SELECT, mark_color(mark));
        }
        t.mark(
            Rectangle::new(Point::new(x - 1, y - 8), Size::new(ICON, ICON)),
            mark,
        );
        let color = if active { palette::TEXT } else { palette::DIM };
        t.text(
            player_short_name(m, mark),
            Point::new(x + 16, y),
            Font::Small,
            color,
            Alignment::Left,
        );
        y += 19;
    }
    let size = StrBuf::<16>::format(format_args!("{}x{}", rules.columns(), rules.rows()));
    for s in [size, rules_words(&rules)] {
        t.text(
            s.as_str(),
            Point::new(cx, y),
            Font::Small,
            palette::DIM,
            Alignment::Center,
        );
        y += 11;
    }
    y += 5;
    let (lines, color) = big_status(sv, m);
    for l in &lines {
        t.text(
            l.as_str(),
            Point::new(cx, y),
            Font::Small,
            color,
            Alignment::Center,
        );
        y += 11;
    }
    if m.attract {
        draw_demo(sv, cx, y, t);
        return;
    }
    // The cursor's square, in the notation of the coordinates.
    let cursor_shown = !over && (m.seat_to_move().is_human() || m.port(to_move.other()).is_some());
    if cursor_shown && rules.contains(m.cursor) {
        t.text(
            coord(&rules, m.cursor).as_str(),
            Point::new(cx, y + 3),
            Font::Medium,
            palette::CURSOR,
            Alignment::Center,
        );
    }
    y += 19;
    let bottom = p.top_left.y + p.size.height as i32;
    if play_again {
        // The panel holds 7 characters of the medium font.
        draw_play_again("Again?", cx, bottom, t);
        return;
    }
    // Scores: this session / all time.
    let idx = m.mode.index();
    let (now, all) = (sv.series[idx].score(), sv.save.scores[idx]);
    let labels = match m.mode {
        Mode::OnePlayer => ["You", "CPU"],
        Mode::TwoPads | Mode::SharedPad => ["P1", "P2"],
        Mode::ComputerVsComputer => ["C1", "C2"],
    };
    t.text(
        "now/all",
        Point::new(cx, y),
        Font::Small,
        palette::FRAME,
        Alignment::Center,
    );
    y += 11;
    for (label, a, b) in [
        (labels[0], now.wins, all.wins),
        (labels[1], now.losses, all.losses),
        ("Drw", now.draws, all.draws),
    ] {
        let line = StrBuf::<24>::format(format_args!("{:<4}{}/{}", label, a.min(99), b.min(99)));
        t.text(
            line.as_str(),
            Point::new(x, y),
            Font::Small,
            palette::TEXT,
            Alignment::Left,
        );
        y += 11;
    }
    let lines: [&str; 3] = match m.mode {
        Mode::ComputerVsComputer => ["", "START:", "pause"],
        _ => ["A: place", "B: undo", "Z: hint"],
    };
    let controls_top = bottom - 28;
    for (i, l) in lines.iter().enumerate() {
        t.text(
            l,
            Point::new(x, controls_top + i as i32 * 10),
            Font::Small,
            palette::DIM,
            Alignment::Left,
        );
    }
}
