//! The rectangles the partial redraw relies on hold every pixel the
//! drawing calls draw (checked against embedded-graphics' own drawing), and
//! the gaps around panels cover exactly what they must.
mod common;

use common::*;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use ttt64_game::geometry::{for_each_gap, line_bounds, mark_bounds, overlaps, text_bounds};
use ttt64_game::raster::PIXELS;
use ttt64_game::{Canvas, Damage, DisplayList, Font, Plain, Raster, Rgb555, Sprites};
use ttt_core::Mark;

const INK: Rgb555 = Rgb555::new(31, 31, 31);

/// Draws on a black screen and returns the inked points outside `bounds`.
fn outside(bounds: Rectangle, draw: impl FnOnce(&mut Plain<'_, Framebuffer>)) -> Vec<Point> {
    let mut fb = Framebuffer::new();
    draw(&mut Plain(&mut fb));
    let black = Rgb555::new(0, 0, 0);
    (0..240)
        .flat_map(|y| (0..320).map(move |x| Point::new(x, y)))
        .filter(|&p| fb.get(p) != black && !bounds.contains(p))
        .collect()
}

#[test]
fn text_bounds_hold_every_glyph_pixel() {
    let texts = [
        "W",
        "Tic-Tac-Toe 64",
        "I am choosing square 81!",
        "@#%&MW",
        "",
    ];
    for font in [Font::Small, Font::Medium, Font::Large] {
        for align in [Alignment::Left, Alignment::Center, Alignment::Right] {
            for text in texts {
                for at in [Point::new(160, 120), Point::new(161, 7), Point::new(3, 231)] {
                    let b = text_bounds(text, at, font, align);
                    let out = outside(b, |c| c.text(text, at, font, INK, align));
                    assert!(
                        out.is_empty(),
                        "{text:?} {font:?} {align:?} at {at}: {out:?}"
                    );
                }
            }
        }
    }
    // Several lines go through embedded-graphics' own box.
    let at = Point::new(100, 100);
    let b = text_bounds("two\nlines", at, Font::Medium, Alignment::Center);
    let out = outside(b, |c| {
        c.text("two\nlines", at, Font::Medium, INK, Alignment::Center)
    });
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn mark_bounds_hold_every_stroke_pixel() {
    for size in 1..=80 {
        for mark in [Mark::X, Mark::O] {
            let cell = Rectangle::new(Point::new(120, 80), Size::new(size, size));
            let out = outside(mark_bounds(cell), |c| c.mark(cell, mark));
            assert!(out.is_empty(), "{mark:?} size {size}: {out:?}");
        }
    }
}

#[test]
fn line_bounds_hold_every_pixel_of_slanted_and_straight_lines() {
    let from = Point::new(160, 120);
    for width in 1..=9 {
        for to in [
            Point::new(220, 121),
            Point::new(100, 180),
            Point::new(161, 60),
            Point::new(230, 190),
            Point::new(90, 50),
            Point::new(160, 170),
            Point::new(110, 120),
        ] {
            let b = line_bounds(from, to, width);
            let out = outside(b, |c| c.line(from, to, width, INK));
            assert!(out.is_empty(), "{from} -> {to} width {width}: {out:?}");
        }
    }
}

#[test]
fn gaps_cover_the_area_outside_the_holes_exactly_once() {
    let area = Rectangle::new(Point::new(0, 0), Size::new(320, 240));
    let holes = [
        Rectangle::new(Point::new(8, 6), Size::new(304, 26)),
        Rectangle::new(Point::new(10, 4), Size::new(300, 30)),
        Rectangle::new(Point::new(7, 33), Size::new(200, 200)),
        Rectangle::new(Point::new(210, 38), Size::new(104, 190)),
        Rectangle::new(Point::new(300, 200), Size::new(50, 80)),
        Rectangle::new(Point::new(-5, -5), Size::new(10, 10)),
    ];
    for n in 0..=holes.len() {
        for clip in [
            area,
            Rectangle::new(Point::new(50, 20), Size::new(200, 100)),
        ] {
            let mut hits = vec![0u8; 320 * 240];
            for_each_gap(clip, &holes[..n], |r| {
                for p in r.points() {
                    hits[p.y as usize * 320 + p.x as usize] += 1;
                }
            });
            for p in area.points() {
                let want = u8::from(clip.contains(p) && !holes[..n].iter().any(|h| h.contains(p)));
                assert_eq!(
                    hits[p.y as usize * 320 + p.x as usize],
                    want,
                    "{n} holes, {clip:?}, {p}"
                );
            }
        }
    }
}

#[test]
fn overlaps_is_a_non_empty_intersection() {
    let spans = [
        (-5, 0),
        (-5, 3),
        (0, 1),
        (2, 4),
        (5, 0),
        (5, 1),
        (6, 10),
        (9, 3),
    ];
    for (ax, aw) in spans {
        for (ay, ah) in spans {
            for (bx, bw) in spans {
                for (by, bh) in spans {
                    let a = Rectangle::new(Point::new(ax, ay), Size::new(aw, ah));
                    let b = Rectangle::new(Point::new(bx, by), Size::new(bw, bh));
                    assert_eq!(
                        overlaps(&a, &b),
                        !a.intersection(&b).is_zero_sized(),
                        "{a:?} {b:?}"
                    );
                }
            }
        }
    }
    let huge = Rectangle::new(Point::new(i32::MAX - 1, 0), Size::new(u32::MAX, 1));
    let point = Rectangle::new(Point::new(i32::MAX - 1, 0), Size::new(1, 1));
    assert!(overlaps(&huge, &point));
}

/// Texts a frame changes, redrawn only where the display lists say they
/// changed, end as the whole new frame: texts of several characters of
/// more than one byte, and of several lines.
#[test]
fn changed_texts_are_redrawn_whole() {
    let texts = [
        "plain",
        "ééé",
        "a·b·c·d",
        "two\nlines",
        "a\r\nb\r\ncc",
        "\u{20ac}\n\u{20ac}",
    ];
    for align in [Alignment::Left, Alignment::Center, Alignment::Right] {
        for (old, new) in texts.iter().zip(texts.iter().rev()) {
            let record = |text: &str| {
                let mut list = DisplayList::new();
                list.fill_screen(Rgb555::new(0, 0, 8));
                Canvas::text(
                    &mut list,
                    text,
                    Point::new(150, 100),
                    Font::Large,
                    INK,
                    align,
                );
                list
            };
            let (old_list, new_list) = (record(old), record(new));
            let mut sprites = Sprites::new();
            let mut full = vec![0u16; PIXELS];
            new_list.replay(&mut Raster::from_slice(&mut full, &mut sprites).unwrap());
            let mut partial = vec![0u16; PIXELS];
            let mut r = Raster::from_slice(&mut partial, &mut sprites).unwrap();
            old_list.replay(&mut r);
            let damage = Damage::between(&old_list, &new_list);
            let rects: Vec<Rectangle> = damage.rects().collect();
            new_list.replay_clipped(&mut r, &rects);
            assert!(full == partial, "{old:?} -> {new:?}, {align:?}");
        }
    }
}
