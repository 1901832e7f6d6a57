//! The fast drawing path ([`Raster`], display lists and [`ShownFrames`]) draws
//! exactly the pixels embedded-graphics draws ([`Game::draw`] on a plain
//! `DrawTarget`): every frame of the title, the attract mode, the menu, and
//! games on 3x3, 5x5 and 9x9 boards (marks, cursor, hint, winning line,
//! pause, result, unplugged), 15x15 games while the computer thinks, and
//! the primitives one by one.
mod common;

use std::collections::HashSet;

use common::*;
use embedded_graphics::image::{Image, ImageRaw};
use embedded_graphics::pixelcolor::raw::BigEndian;
use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Line, PrimitiveStyle, Rectangle};
use embedded_graphics::text::Alignment;
use ttt64_game::canvas::Panel;
use ttt64_game::raster::{axis_line_area, HEIGHT, PIXELS, WIDTH};
use ttt64_game::{
    palette, rgba5551, Buttons, Canvas, Damage, DisplayList, Font, Game, MenuItem, Plain, Raster,
    Redraw, Screen, ShownFrames, Sprites,
};
use ttt_core::{Mark, Square};

/// What the plain embedded-graphics path draws, as RGBA5551.
fn plain_pixels(game: &Game) -> Vec<u16> {
    let mut fb = Framebuffer::new();
    game.draw(&mut fb);
    fb.pixels.iter().map(|&c| rgba5551(c)).collect()
}

fn assert_same(expected: &[u16], got: &[u16], what: &str) {
    let diff: Vec<usize> = (0..PIXELS).filter(|&i| expected[i] != got[i]).collect();
    if let Some(&i) = diff.first() {
        panic!(
            "{what}: {} pixels differ, first at ({}, {}): expected {:#06x}, got {:#06x}",
            diff.len(),
            i % WIDTH,
            i / WIDTH,
            expected[i],
            got[i]
        );
    }
}

/// Stands in for the ROM's cache-line allocation before a run is
/// overwritten (`Raster::set_prepare`), which leaves stale data in the
/// run: a colour no screen uses (alpha bit clear), so a pixel the raster
/// prepares but then does not write shows up.
fn scribble(run: &mut [u16]) {
    run.fill(0x0F0E);
}

/// Draws each frame three ways and compares: plain embedded-graphics, a
/// raster, and [`ShownFrames`] into two buffers used in turn (as the ROM
/// does, with runs prepared before they are filled), whose contents must
/// always be the frame just drawn.
struct Checker {
    sprites: Sprites,
    shown: Box<ShownFrames>,
    buffers: [Vec<u16>; 2],
    back: usize,
    counts: [usize; 4],
}

impl Checker {
    fn new() -> Checker {
        Checker {
            sprites: Sprites::new(),
            shown: Box::new(ShownFrames::new()),
            // Not the background: a pixel the frame forgets shows up.
            buffers: [vec![0xAAAA; PIXELS], vec![0x5555; PIXELS]],
            back: 0,
            counts: [0; 4],
        }
    }

    fn check(&mut self, game: &Game, what: &str) {
        let renders_before = self.sprites.rendered();
        let warm_before = self.sprites.is_warm();
        let expected = plain_pixels(game);
        let mut fresh = vec![0x1234u16; PIXELS];
        let mut raster = Raster::from_slice(&mut fresh, &mut self.sprites).unwrap();
        game.draw_on(&mut raster);
        assert_same(&expected, &fresh, &format!("{what} (raster)"));

        let mut raster =
            Raster::from_slice(&mut self.buffers[self.back], &mut self.sprites).unwrap();
        raster.set_prepare(Some(scribble));
        let how = self.shown.draw(game, self.back, &mut raster);
        self.counts[how as usize] += 1;
        assert_same(
            &expected,
            &self.buffers[self.back],
            &format!("{what} (buffer {}, {how:?})", self.back),
        );
        // Once warmed up (spare frames do it), no screen needs a sprite
        // the cache lacks.
        if warm_before {
            assert_eq!(
                self.sprites.rendered(),
                renders_before,
                "{what}: a sprite rendered after the warm-up (draw::every_sprite misses it)"
            );
        }
        self.back ^= 1;
    }

    /// Warms the sprite cache up as spare frames do (one sprite per call),
    /// drawing no pixel.
    fn warm_up(&mut self) {
        let mut pixels = vec![0u16; PIXELS];
        let mut raster = Raster::from_slice(&mut pixels, &mut self.sprites).unwrap();
        for _ in 0..64 {
            Canvas::warm_up(&mut raster);
        }
        assert!(
            self.sprites.is_warm(),
            "64 warm-up calls left sprites missing"
        );
        assert!(pixels.iter().all(|&p| p == 0), "warming up drew pixels");
    }

    /// Every frame fit a display list, some were skipped and some only
    /// partly redrawn.
    fn assert_lists_used(&self) {
        let [skipped, replayed, direct, partial] = self.counts;
        assert_eq!(direct, 0, "frames too big for a display list");
        assert!(
            replayed > 0 && skipped > 0 && partial > 0,
            "{:?}",
            self.counts
        );
    }
}

fn steps(d: &mut Driver, c: &mut Checker, frames: usize, what: &str) {
    for _ in 0..frames {
        d.step();
        c.check(&d.game, what);
    }
}

/// Press and release, checking both frames.
fn press(d: &mut Driver, c: &mut Checker, port: usize, b: Buttons, what: &str) {
    d.raw[port].buttons = b;
    steps(d, c, 1, what);
    d.raw[port].buttons = Buttons::NONE;
    steps(d, c, 1, what);
}

fn until(d: &mut Driver, c: &mut Checker, max: usize, what: &str, done: impl Fn(&Game) -> bool) {
    for _ in 0..max {
        if done(&d.game) {
            return;
        }
        steps(d, c, 1, what);
    }
    assert!(
        done(&d.game),
        "{what}: never reached; log {:#?}",
        d.host.lines
    );
}

fn place(d: &mut Driver, c: &mut Checker, port: usize, to: Square, what: &str) {
    for _ in 0..40 {
        let at = d.game.cursor();
        if at == to {
            break;
        }
        let b = if at.column() < to.column() {
            Buttons::DRIGHT
        } else if at.column() > to.column() {
            Buttons::DLEFT
        } else if at.row() < to.row() {
            Buttons::DDOWN
        } else {
            Buttons::DUP
        };
        press(d, c, port, b, what);
    }
    assert_eq!(d.game.cursor(), to, "{what}");
    press(d, c, port, Buttons::A, what);
}

#[test]
fn title_and_attract_mode_every_frame() {
    let mut d = Driver::new(FakeHost::new(), 1);
    let mut c = Checker::new();
    c.check(&d.game, "title, frame 0");
    // The title's demo game (11 steps of 30 frames) and PRESS START blinking.
    steps(&mut d, &mut c, 400, "title");
    until(&mut d, &mut c, 20_000, "title idle", |g| {
        g.screen() == Screen::Attract
    });
    until(&mut d, &mut c, 20_000, "attract", |g| {
        g.screen() != Screen::Attract
    });
    assert_eq!(d.game.screen(), Screen::Title);
    assert!(d.host.count_prefix("attract result ") >= 1);
    c.assert_lists_used();
}

#[test]
fn menu_rows_and_values_in_every_mode() {
    let mut d = Driver::new(FakeHost::new(), 2);
    let mut c = Checker::new();
    d.open_menu();
    for mode in ["1p", "2p", "2p-shared", "cvc"] {
        d.set(MenuItem::Players, mode);
        steps(&mut d, &mut c, 2, mode);
        let rows = d.game.menu_items().count();
        for _ in 0..rows {
            press(&mut d, &mut c, 0, Buttons::DDOWN, mode);
        }
    }
    for n in 1..=9 {
        d.set(MenuItem::Board, &format!("{n}x{n}"));
        steps(&mut d, &mut c, 1, "board size");
    }
    d.set(MenuItem::WinLength, "5");
    steps(&mut d, &mut c, 1, "k");
    for kind in ttt_core::ai::PlayerKind::ALL {
        d.set(MenuItem::Computer, kind.name());
        steps(&mut d, &mut c, 1, kind.name());
        d.set(MenuItem::Computer2, kind.name());
        steps(&mut d, &mut c, 1, kind.name());
    }
    for first in ["computer", "random", "alternate", "you"] {
        d.set(MenuItem::First, first);
        steps(&mut d, &mut c, 1, first);
    }
    // Nothing moves on the menu: the buffers are not drawn again.
    steps(&mut d, &mut c, 4, "still");
    c.assert_lists_used();
}

#[test]
fn menu_with_the_rumble_line_coming_and_going() {
    let mut d = Driver::new(FakeHost::new(), 2);
    let mut c = Checker::new();
    d.open_menu();
    steps(&mut d, &mut c, 2, "no pak");
    // A Rumble Pak in controller 2: the Rumble line appears above START.
    d.raw[1].rumble_pak = true;
    steps(&mut d, &mut c, 2, "pak in");
    for _ in 0..5 {
        press(&mut d, &mut c, 0, Buttons::DDOWN, "down to rumble");
    }
    assert_eq!(d.game.menu_selected(), MenuItem::Rumble);
    for what in ["off", "on"] {
        press(&mut d, &mut c, 0, Buttons::DRIGHT, what);
    }
    press(&mut d, &mut c, 0, Buttons::DDOWN, "start");
    press(&mut d, &mut c, 0, Buttons::DUP, "back on rumble");
    // Taken out while selected: the line goes.
    d.raw[1].rumble_pak = false;
    steps(&mut d, &mut c, 2, "pak out");
    steps(&mut d, &mut c, 4, "still");
    c.assert_lists_used();
}

#[test]
fn classic_game_with_pause_result_and_unplugged() {
    let mut d = Driver::new(FakeHost::new(), 2);
    let mut c = Checker::new();
    d.open_menu();
    d.set(MenuItem::Computer, "classic");
    d.start();
    for m in ["a1", "c3", "a3", "a2"] {
        until(&mut d, &mut c, 2000, "computer's turn", |g| {
            g.position().side_to_move() == Mark::X || g.position().outcome().is_over()
        });
        place(&mut d, &mut c, 0, sq(m), m);
    }
    until(&mut d, &mut c, 200, "result", |g| {
        g.screen() == Screen::Result
    });
    steps(&mut d, &mut c, 40, "result");
    // Play again, then pause and walk the pause menu.
    press(&mut d, &mut c, 0, Buttons::A, "play again");
    until(&mut d, &mut c, 2000, "x to move", |g| {
        g.position().side_to_move() == Mark::X
    });
    place(&mut d, &mut c, 0, sq("b2"), "b2");
    press(&mut d, &mut c, 0, Buttons::START, "pause");
    for _ in 0..3 {
        press(&mut d, &mut c, 0, Buttons::DDOWN, "pause menu");
    }
    press(&mut d, &mut c, 0, Buttons::START, "resume");
    // Controller 1 out: the unplugged box, then back in: the pause menu.
    d.raw[0].connected = false;
    steps(&mut d, &mut c, 3, "unplugged");
    assert_eq!(d.game.screen(), Screen::Unplugged);
    d.raw[0].connected = true;
    steps(&mut d, &mut c, 3, "plugged in again");
    assert_eq!(d.game.screen(), Screen::Pause);
    c.assert_lists_used();
}

#[test]
fn after_the_warm_up_no_board_size_renders_a_sprite() {
    for n in 1..=9u8 {
        let mut d = Driver::new(FakeHost::new(), 1);
        let mut c = Checker::new();
        c.warm_up();
        let rendered = c.sprites.rendered();
        d.open_menu();
        d.set(MenuItem::Board, &format!("{n}x{n}"));
        d.set(MenuItem::Players, "2p-shared");
        d.start();
        steps(&mut d, &mut c, 2, "start");
        // X and O on the first row (the cursor's frame over them and
        // over empty cells).
        for col in 0..n.min(2) {
            if d.game.screen() == Screen::Game {
                place(&mut d, &mut c, 0, Square::new(col, 0).unwrap(), "mark");
            }
        }
        steps(&mut d, &mut c, 2, "after the marks");
        assert_eq!(c.sprites.rendered(), rendered, "{n}x{n}");
    }
}

#[test]
fn five_by_five_computer_against_computer_every_frame() {
    let mut d = Driver::new(FakeHost::new(), 1);
    let mut c = Checker::new();
    d.open_menu();
    d.set(MenuItem::Players, "cvc");
    d.set(MenuItem::Board, "5x5");
    d.set(MenuItem::WinLength, "4");
    d.set(MenuItem::Computer, "hard");
    d.start();
    until(&mut d, &mut c, 5000, "5x5 result", |g| {
        g.screen() == Screen::Result
    });
    steps(&mut d, &mut c, 10, "5x5 result");
    c.assert_lists_used();
}

#[test]
fn nine_by_nine_board_filled_with_hint_and_winning_diagonal() {
    let mut d = Driver::new(FakeHost::new(), 1);
    let mut c = Checker::new();
    d.open_menu();
    d.set(MenuItem::Board, "9x9");
    d.set(MenuItem::Players, "2p-shared");
    d.start();
    // Row by row: X on every square whose column + row is even, so X's
    // main diagonal completes with the last row.
    let mut moves = 0;
    for row in 0..9u8 {
        for col in 0..9u8 {
            if d.game.screen() != Screen::Game {
                break;
            }
            let to = Square::new(col, row).unwrap();
            if moves == 30 {
                press(&mut d, &mut c, 0, Buttons::Z, "hint");
                steps(&mut d, &mut c, 3, "hint shown");
            }
            place(&mut d, &mut c, 0, to, "9x9");
            moves += 1;
        }
    }
    until(&mut d, &mut c, 100, "9x9 result", |g| {
        g.screen() == Screen::Result
    });
    assert!(d.host.has("result x-wins"), "{:#?}", d.host.lines);
    assert!(moves > 70, "{moves} moves");
    steps(&mut d, &mut c, 40, "9x9 result");
    c.assert_lists_used();
}

/// A 15x15 game as `game_15x15.script` plays it: Strong against Random,
/// each reply coming a second of frames after its search started, so that
/// the "thinking" dots move meanwhile, to the result. Every frame, the
/// double buffer drawn in part equals the whole frame drawn plainly.
#[test]
fn fifteen_by_fifteen_computers_thinking_every_frame() {
    let mut d = Driver::computers_on_15x15(58, "strong", "random");
    let mut c = Checker::new();
    d.set(MenuItem::ThinkTime, "1000ms");
    d.start();
    until(&mut d, &mut c, 5000, "15x15 result", |g| {
        g.screen() == Screen::Result
    });
    steps(&mut d, &mut c, 10, "15x15 result");
    assert!(d.game.position().mark_count() >= 9);
    c.assert_lists_used();
    let partial = c.counts[Redraw::Partial as usize];
    assert!(partial > 50, "{:?}", c.counts);
}

/// A person against Strong on 15x15: while the computer thinks, the
/// person's cursor moves over empty cells and marks, and the cursor's
/// square in the panel follows it; then the person plays. Every frame as
/// above.
#[test]
fn fifteen_by_fifteen_cursor_moving_while_the_computer_thinks() {
    let mut host = FakeHost::new();
    host.search_polls = 40;
    let mut d = Driver::new(host, 1);
    let mut c = Checker::new();
    d.open_menu();
    d.set(MenuItem::Board, "15x15");
    d.set(MenuItem::Computer, "strong");
    d.start();
    // The person's moves: each turn the first of these cells still empty
    // (the computer's replies depend on its time, so it may take one).
    let cells = ["h8", "j9", "g6", "c3", "m13", "c13", "m3"];
    for _ in 0..3 {
        until(&mut d, &mut c, 2000, "your turn", |g| {
            g.position().side_to_move() == Mark::X || g.position().outcome().is_over()
        });
        let to = cells
            .into_iter()
            .find(|&n| d.game.position().get(sq(n)).is_none())
            .unwrap();
        place(&mut d, &mut c, 0, sq(to), to);
        assert!(d.game.is_thinking(), "{to}");
        for b in [
            Buttons::DRIGHT,
            Buttons::DDOWN,
            Buttons::DLEFT,
            Buttons::DUP,
        ] {
            press(&mut d, &mut c, 0, b, "cursor while thinking");
        }
    }
    c.assert_lists_used();
}

/// A plain framebuffer and a raster side by side, both cleared.
struct Pair {
    plain: Framebuffer,
    raster: Vec<u16>,
    sprites: Sprites,
}

impl Pair {
    fn new() -> Pair {
        Pair {
            plain: Framebuffer::new(),
            raster: vec![0; PIXELS],
            sprites: Sprites::new(),
        }
    }

    fn draw(&mut self, f: impl Fn(&mut dyn CanvasDyn)) {
        Plain(&mut self.plain).fill_screen(palette::BG);
        f(&mut Plain(&mut self.plain));
        let mut r = Raster::from_slice(&mut self.raster, &mut self.sprites).unwrap();
        r.set_prepare(Some(scribble));
        Canvas::fill_screen(&mut r, palette::BG);
        f(&mut r);
    }

    fn assert_same(&self, what: &str) {
        let expected: Vec<u16> = self.plain.pixels.iter().map(|&c| rgba5551(c)).collect();
        assert_same(&expected, &self.raster, what);
    }
}

/// [`Canvas`] as an object, so one closure draws on both targets.
trait CanvasDyn {
    fn panel(&mut self, panel: Panel);
    fn rounded_frame(&mut self, area: Rectangle, radius: u32, width: u32);
    fn text(&mut self, s: &str, at: Point, font: Font, align: Alignment);
    fn mark(&mut self, cell: Rectangle, mark: Mark);
    fn line(&mut self, a: Point, b: Point, width: u32);
}

impl<C: Canvas> CanvasDyn for C {
    fn rounded_frame(&mut self, area: Rectangle, radius: u32, width: u32) {
        Canvas::rounded_frame(self, area, radius, width, palette::CURSOR);
    }
    fn panel(&mut self, panel: Panel) {
        Canvas::panel(self, panel);
    }
    fn text(&mut self, s: &str, at: Point, font: Font, align: Alignment) {
        Canvas::text(self, s, at, font, palette::TEXT, align);
    }
    fn mark(&mut self, cell: Rectangle, mark: Mark) {
        Canvas::mark(self, cell, mark);
    }
    fn line(&mut self, a: Point, b: Point, width: u32) {
        Canvas::line(self, a, b, width, palette::WIN_LINE);
    }
}

#[test]
fn text_in_every_font_alignment_and_position() {
    let ascii: String = (32u8..127).map(char::from).collect();
    let mut pair = Pair::new();
    for font in [Font::Small, Font::Medium, Font::Large] {
        for align in [Alignment::Left, Alignment::Center, Alignment::Right] {
            // Inside, off each edge (clipped: the embedded-graphics path),
            // and characters outside ASCII (drawn as '?').
            for (s, at) in [
                (&ascii[..30], Point::new(160, 120)),
                (&ascii[30..60], Point::new(160, 40)),
                (&ascii[60..], Point::new(160, 200)),
                ("déjà vu €", Point::new(100, 100)),
                ("", Point::new(5, 5)),
                ("edge left", Point::new(-3, 30)),
                ("edge right", Point::new(318, 60)),
                ("edge top", Point::new(160, 2)),
                ("edge bottom", Point::new(160, 238)),
                ("two\nlines", Point::new(160, 120)),
            ] {
                pair.draw(|t| t.text(s, at, font, align));
                pair.assert_same(&format!("{font:?} {align:?} {s:?} at {at}"));
            }
        }
    }
}

#[test]
fn panels_of_every_shape_with_and_without_an_inner_box() {
    let mut pair = Pair::new();
    for (w, h) in [
        (1, 1),
        (5, 40),
        (40, 5),
        (6, 6),
        (7, 9),
        (104, 190),
        (304, 26),
    ] {
        for at in [
            Point::new(10, 12),
            Point::new(11, 13),
            Point::new(-3, 200),
            Point::new(300, -2),
        ] {
            let area = Rectangle::new(at, Size::new(w, h));
            let inners = [
                None,
                Some((area.offset(-5), palette::BOARD)),
                Some((area.offset(-2), palette::BOARD)),
                // Over the edge: not what the fast path draws in one pass.
                Some((area.offset(-1), palette::BOARD)),
                Some((Rectangle::new(at, Size::zero()), palette::BOARD)),
            ];
            for inner in inners {
                let panel = Panel {
                    area,
                    fill: palette::PANEL,
                    edge: palette::FRAME,
                    inner,
                };
                pair.draw(|t| t.panel(panel));
                pair.assert_same(&format!("{panel:?}"));
            }
        }
    }
}

#[test]
fn rounded_frames_of_many_sizes_inside_and_clipped() {
    let mut pair = Pair::new();
    for size in [1, 2, 3, 5, 8, 16, 18, 20, 35, 44, 60, 64, 70, 75] {
        for width in 1..=4 {
            for radius in [0, 4, 12] {
                for at in [
                    Point::new(20, 30),
                    Point::new(157, 101),
                    Point::new(318 - size as i32, 238 - size as i32),
                    Point::new(-2, 100),
                ] {
                    let area = Rectangle::new(at, Size::new(size, size + 3));
                    pair.draw(|t| t.rounded_frame(area, radius, width));
                    pair.assert_same(&format!("frame {area:?} radius {radius} width {width}"));
                }
            }
        }
    }
}

#[test]
fn marks_of_every_size_inside_and_clipped() {
    let mut pair = Pair::new();
    for size in 1..=76u32 {
        for mark in [Mark::X, Mark::O] {
            for at in [
                Point::new(3, 5),
                Point::new(131, 77),
                Point::new(320 - size as i32 / 2, 100),
                Point::new(-7, 240 - size as i32 + 3),
            ] {
                let cell = Rectangle::new(at, Size::new(size, size));
                pair.draw(|t| t.mark(cell, mark));
                pair.assert_same(&format!("{mark} size {size} at {at}"));
            }
        }
    }
    // Not square: the mark fits the smaller side.
    let cell = Rectangle::new(Point::new(40, 40), Size::new(30, 18));
    pair.draw(|t| t.mark(cell, Mark::X));
    pair.assert_same("X in 30x18");
}

#[test]
fn axis_parallel_thick_lines_are_the_rectangles_the_raster_fills() {
    struct Points(HashSet<Point>);
    impl OriginDimensions for Points {
        fn size(&self) -> Size {
            Size::new(1000, 1000)
        }
    }
    impl DrawTarget for Points {
        type Color = Rgb555;
        type Error = core::convert::Infallible;
        fn draw_iter<I: IntoIterator<Item = Pixel<Rgb555>>>(
            &mut self,
            it: I,
        ) -> Result<(), Self::Error> {
            self.0.extend(it.into_iter().map(|Pixel(p, _)| p));
            Ok(())
        }
    }
    let origin = Point::new(500, 500);
    for width in 1..=8u32 {
        for len in 0..=60i32 {
            for dir in [
                Point::new(1, 0),
                Point::new(-1, 0),
                Point::new(0, 1),
                Point::new(0, -1),
            ] {
                let to = origin + dir * len;
                let mut drawn = Points(HashSet::new());
                Line::new(origin, to)
                    .into_styled(PrimitiveStyle::with_stroke(palette::GRID, width))
                    .draw(&mut drawn)
                    .unwrap();
                let area = axis_line_area(origin, to, width).unwrap();
                let filled: HashSet<Point> = area.points().collect();
                assert_eq!(
                    drawn.0, filled,
                    "width {width}, length {len}, direction {dir}"
                );
            }
        }
    }
    assert_eq!(axis_line_area(origin, Point::new(510, 501), 2), None);
    assert_eq!(axis_line_area(origin, Point::new(510, 500), 0), None);
    // And on the screen, clipped at its edges, and slanted.
    let mut pair = Pair::new();
    for (a, b, w) in [
        (Point::new(-5, 10), Point::new(40, 10), 3),
        (Point::new(319, -4), Point::new(319, 250), 4),
        (Point::new(10, 10), Point::new(200, 150), 5),
        (Point::new(300, 20), Point::new(20, 230), 2),
    ] {
        pair.draw(|t| t.line(a, b, w));
        pair.assert_same(&format!("line {a} {b} width {w}"));
    }
}

#[test]
fn images_go_through_fill_contiguous_clipped() {
    // Not used by the game, but the raster is a DrawTarget for anyone.
    let data: Vec<u8> = (0..24 * 10 * 2).map(|i| (i * 37 % 251) as u8).collect();
    let image = ImageRaw::<Rgb555, BigEndian>::new(&data, 24);
    let mut plain = Framebuffer::new();
    // The plain framebuffer starts black.
    let mut pixels = vec![rgba5551(Rgb555::BLACK); PIXELS];
    let mut sprites = Sprites::new();
    let mut raster = Raster::from_slice(&mut pixels, &mut sprites).unwrap();
    for at in [Point::new(10, 10), Point::new(-5, 235), Point::new(310, -3)] {
        Image::new(&image, at).draw(&mut plain).unwrap();
        Image::new(&image, at).draw(&mut raster).unwrap();
    }
    let rows = raster.take_dirty_rows().unwrap();
    assert_eq!(rows, 0..HEIGHT, "drawn at the top and the bottom");
    assert_eq!(raster.take_dirty_rows(), None);
    let expected: Vec<u16> = plain.pixels.iter().map(|&c| rgba5551(c)).collect();
    assert_same(&expected, &pixels, "images");
}

#[test]
fn a_frame_already_in_a_buffer_is_not_drawn_again() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    let mut shown = Box::new(ShownFrames::new());
    let mut sprites = Sprites::new();
    let mut buffers = [vec![0u16; PIXELS], vec![0u16; PIXELS]];
    let mut draw = |shown: &mut ShownFrames, game: &Game, b: usize| {
        let mut r = Raster::from_slice(&mut buffers[b], &mut sprites).unwrap();
        let how = shown.draw(game, b, &mut r);
        (how, r.take_dirty_rows())
    };
    // The menu does not move: each buffer is drawn once.
    assert_eq!(
        draw(&mut shown, &d.game, 0),
        (Redraw::Replayed, Some(0..HEIGHT))
    );
    assert_eq!(
        draw(&mut shown, &d.game, 1),
        (Redraw::Replayed, Some(0..HEIGHT))
    );
    d.step();
    assert_eq!(draw(&mut shown, &d.game, 0), (Redraw::Skipped, None));
    assert_eq!(draw(&mut shown, &d.game, 1), (Redraw::Skipped, None));
    // The cursor moves: both buffers need the new frame, once, and only
    // what changed (the two menu lines, the item's help) is drawn.
    let mut before = Box::new(DisplayList::new());
    d.game.draw_on(&mut *before);
    d.press(0, Buttons::DDOWN);
    let mut after = Box::new(DisplayList::new());
    d.game.draw_on(&mut *after);
    let damage = Damage::between(&before, &after);
    assert!(
        damage.area() > 0 && (damage.area() as usize) < PIXELS / 4,
        "{damage:?}"
    );
    for b in [0, 1] {
        assert_eq!(draw(&mut shown, &d.game, b).0, Redraw::Partial);
        assert_eq!(draw(&mut shown, &d.game, b).0, Redraw::Skipped);
    }
}

#[test]
fn a_change_in_the_last_calls_is_a_partial_redraw() {
    // Like the pause menu's selection moving to its last row: after the
    // first difference no pair follows, but both lists end right there.
    let record = |last: &str, selected: i32| {
        let mut list = DisplayList::new();
        list.fill_screen(palette::BG);
        Canvas::panel(
            &mut list,
            Panel {
                area: Rectangle::new(Point::new(80, 70), Size::new(160, 110)),
                fill: palette::PANEL,
                edge: palette::FRAME,
                inner: None,
            },
        );
        Canvas::text(
            &mut list,
            "Resume",
            Point::new(160, 116),
            Font::Medium,
            palette::TEXT,
            Alignment::Center,
        );
        list.fill(
            Rectangle::new(Point::new(96, selected), Size::new(128, 18)),
            palette::SELECT,
        );
        Canvas::text(
            &mut list,
            last,
            Point::new(160, 136),
            Font::Medium,
            palette::CURSOR,
            Alignment::Center,
        );
        list
    };
    let old = record("Restart", 127);
    let new = record("Main menu", 147);
    let damage = Damage::at_most(&old, &new, u32::MAX).expect("a partial redraw");
    // The two selection bars and the two texts, not the screen.
    assert!(
        damage.area() <= 2 * 128 * 18 + 2 * 9 * 8 * 13,
        "{}",
        damage.area()
    );
    let mut sprites = Sprites::new();
    let mut full = vec![0u16; PIXELS];
    new.replay(&mut Raster::from_slice(&mut full, &mut sprites).unwrap());
    let mut partial = vec![0u16; PIXELS];
    let mut r = Raster::from_slice(&mut partial, &mut sprites).unwrap();
    old.replay(&mut r);
    for rect in damage.rects() {
        Canvas::set_clip(&mut r, Some(rect));
        new.replay_within(&mut r, &rect);
    }
    assert_same(&full, &partial, "partial redraw of the last calls");
}

#[test]
fn a_display_list_that_overflows_is_never_the_same() {
    let mut list = DisplayList::new();
    let mut other = DisplayList::new();
    for l in [&mut list, &mut other] {
        l.fill(Rectangle::new(Point::zero(), Size::new(4, 4)), palette::BG);
        Canvas::text(
            l,
            "hello",
            Point::new(9, 9),
            Font::Small,
            palette::TEXT,
            Alignment::Left,
        );
    }
    assert!(list.same_as(&other));
    Canvas::text(
        &mut other,
        "!",
        Point::new(9, 9),
        Font::Small,
        palette::TEXT,
        Alignment::Left,
    );
    assert!(!list.same_as(&other), "one more call");
    list.reset();
    for i in 0..10_000 {
        list.fill(
            Rectangle::new(Point::new(i, 0), Size::new(1, 1)),
            palette::BG,
        );
    }
    assert!(!list.is_complete());
    assert!(
        !list.same_as(&list.clone()),
        "an incomplete list proves nothing"
    );
    let long = "x".repeat(5000);
    other.reset();
    Canvas::text(
        &mut other,
        &long,
        Point::zero(),
        Font::Small,
        palette::TEXT,
        Alignment::Left,
    );
    assert!(!other.is_complete(), "text beyond the list's room");
}

/// A small deterministic generator for the random sequences below.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Random presses and holds of every button on two controllers, and
/// controller 2 pulled out and plugged in now and then, over thousands of
/// frames: every screen (title, attract, menu with any settings, games,
/// hints, undo, pause, result, unplugged) in random order. Each frame, the
/// double buffer, mostly redrawn only where it changed, equals the plain
/// embedded-graphics drawing pixel for pixel.
#[test]
fn random_play_partial_redraws_equal_full_drawing_every_frame() {
    const BUTTONS: [Buttons; 9] = [
        Buttons::A,
        Buttons::B,
        Buttons::START,
        Buttons::Z,
        Buttons::DUP,
        Buttons::DDOWN,
        Buttons::DLEFT,
        Buttons::DRIGHT,
        Buttons::NONE,
    ];
    for seed in [0x9E37_79B9_7F4A_7C15u64, 0x0123_4567_89AB_CDEF] {
        let mut d = Driver::new(FakeHost::new(), 2);
        let mut c = Checker::new();
        let mut rng = XorShift(seed);
        let mut screens = HashSet::new();
        for frame in 0..2500 {
            if frame % 6 == 0 {
                let port = usize::from(rng.below(4) == 0);
                d.raw[port].buttons = BUTTONS[rng.below(BUTTONS.len())];
                if rng.below(150) == 0 {
                    d.raw[1].connected = !d.raw[1].connected;
                }
            }
            d.step();
            screens.insert(format!("{:?}", d.game.screen()));
            c.check(&d.game, &format!("seed {seed:#x}, frame {frame}"));
        }
        assert!(screens.len() >= 4, "screens seen: {screens:?}");
        c.assert_lists_used();
    }
}

/// Frames of every screen recorded as display lists, then drawn in a
/// random order (with repeats) into two buffers chosen at random: after
/// each one, the buffer equals that frame drawn whole.
#[test]
fn random_sequences_of_screens_partial_redraws_equal_full_ones() {
    let mut d = Driver::new(FakeHost::new(), 2);
    let mut frames: Vec<Box<DisplayList>> = Vec::new();
    let mut record = |game: &Game| {
        let mut list = Box::new(DisplayList::new());
        game.draw_on(&mut *list);
        assert!(list.is_complete());
        frames.push(list);
    };
    for _ in 0..4 {
        d.idle(37);
        record(&d.game);
    }
    d.open_menu();
    record(&d.game);
    d.press(0, Buttons::DDOWN);
    d.press(0, Buttons::DRIGHT);
    record(&d.game);
    d.set(MenuItem::Players, "2p");
    for size in ["3x3", "5x5", "9x9"] {
        d.set(MenuItem::Board, size);
        record(&d.game);
        d.start();
        record(&d.game);
        for sq_name in ["a1", "b2", "c3", "a3"] {
            let mark = d.game.position().side_to_move();
            d.wait_turn(mark);
            d.place(if mark == Mark::X { 0 } else { 1 }, sq(sq_name));
            record(&d.game);
            d.step();
            record(&d.game);
        }
        d.press(0, Buttons::Z);
        d.idle(2);
        record(&d.game);
        d.press(0, Buttons::START);
        record(&d.game);
        d.press(0, Buttons::DDOWN);
        record(&d.game);
        d.raw[1].connected = false;
        d.idle(3);
        record(&d.game);
        d.raw[1].connected = true;
        d.idle(3);
        record(&d.game);
        // Back to the menu through the pause menu.
        d.press(0, Buttons::B);
        d.idle(2);
        d.press(0, Buttons::START);
        d.press(0, Buttons::DDOWN);
        d.press(0, Buttons::DDOWN);
        d.press(0, Buttons::A);
        d.wait_screen(Screen::Menu, 100);
        record(&d.game);
    }
    assert!(frames.len() > 40);

    let mut shown = Box::new(ShownFrames::new());
    let mut sprites = Sprites::new();
    let mut buffers = [vec![0xAAAAu16; PIXELS], vec![0x5555u16; PIXELS]];
    let mut rng = XorShift(0xD1B5_4A32_D192_ED03);
    let mut counts = [0usize; 4];
    for step in 0..3000 {
        let frame = &frames[rng.below(frames.len())];
        let b = rng.below(2);
        let mut raster = Raster::from_slice(&mut buffers[b], &mut sprites).unwrap();
        let how = shown.draw_frame(&**frame, b, &mut raster);
        counts[how as usize] += 1;
        let mut whole = Framebuffer::new();
        frame.replay(&mut Plain(&mut whole));
        let expected: Vec<u16> = whole.pixels.iter().map(|&c| rgba5551(c)).collect();
        assert_same(&expected, &buffers[b], &format!("step {step} ({how:?})"));
    }
    let [skipped, replayed, direct, partial] = counts;
    assert_eq!(direct, 0);
    assert!(skipped > 0 && replayed > 0 && partial > 0, "{counts:?}");
}
