//! Cost of one `draw` on the host, per screen, and pixels written: the
//! plain embedded-graphics path and the console's `Raster` (the console's
//! own figures come from the ROM's `perf` lines, `e2e/perf.script`).
//! `cargo test --release --manifest-path n64/game/Cargo.toml --test draw_timing -- --ignored --nocapture`
mod common;

use std::time::Instant;

use common::*;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use ttt64_game::canvas::Panel;
use ttt64_game::raster::PIXELS;
use ttt64_game::{geometry, Buttons, Canvas, Font, MenuItem, Raster, Rgb555, Sprites};
use ttt_core::Mark;

struct Counter {
    fb: Framebuffer,
    pixels: u64,
    filled: u64,
}

impl OriginDimensions for Counter {
    fn size(&self) -> Size {
        Size::new(320, 240)
    }
}

impl DrawTarget for Counter {
    type Color = Rgb555;
    type Error = core::convert::Infallible;
    fn draw_iter<I: IntoIterator<Item = Pixel<Rgb555>>>(
        &mut self,
        it: I,
    ) -> Result<(), Self::Error> {
        for Pixel(p, c) in it {
            self.pixels += 1;
            if p.x >= 0 && p.y >= 0 && p.x < 320 && p.y < 240 {
                self.fb.pixels[p.y as usize * 320 + p.x as usize] = c;
            }
        }
        Ok(())
    }

    // Like the ROM's framebuffer: solid fills are row fills.
    fn fill_solid(
        &mut self,
        area: &embedded_graphics::primitives::Rectangle,
        color: Rgb555,
    ) -> Result<(), Self::Error> {
        let area = area.intersection(&self.bounding_box());
        if let Some(br) = area.bottom_right() {
            for y in area.top_left.y..=br.y {
                let row = y as usize * 320;
                self.fb.pixels[row + area.top_left.x as usize..=row + br.x as usize].fill(color);
            }
            self.filled += area.size.width as u64 * area.size.height as u64;
        }
        Ok(())
    }
}

fn measure(d: &Driver, name: &str) {
    let mut c = Counter {
        fb: Framebuffer::new(),
        pixels: 0,
        filled: 0,
    };
    d.game.draw(&mut c);
    let (pixels, filled) = (c.pixels, c.filled);
    let n = 200;
    let t0 = Instant::now();
    for _ in 0..n {
        d.game.draw(&mut c);
    }
    let us = t0.elapsed().as_secs_f64() * 1e6 / n as f64;
    let mut pixels_raster = vec![0u16; PIXELS];
    let mut sprites = Sprites::new();
    let mut raster = Raster::from_slice(&mut pixels_raster, &mut sprites).unwrap();
    let t0 = Instant::now();
    for _ in 0..n {
        d.game.draw_on(&mut raster);
    }
    let raster_us = t0.elapsed().as_secs_f64() * 1e6 / n as f64;
    println!(
        "{name:<10} {pixels:>7} pixels one by one + {filled:>6} by fills/frame: {us:>8.1} us/frame plain, {raster_us:>6.1} us raster (host)"
    );
}

#[test]
#[ignore]
fn draw_cost_per_screen() {
    let mut d = Driver::new(FakeHost::new(), 1);
    d.idle(100);
    measure(&d, "title");
    d.open_menu();
    measure(&d, "menu");
    d.set(MenuItem::Computer, "classic");
    d.start();
    d.place(0, sq("a1"));
    d.idle(30);
    measure(&d, "game 3x3");
    d.press(0, Buttons::START);
    measure(&d, "pause");
    d.press(0, Buttons::DDOWN);
    d.press(0, Buttons::DDOWN);
    d.press(0, Buttons::A);
    d.set(MenuItem::Board, "9x9");
    d.start();
    d.place(0, sq("e5"));
    d.idle(30);
    measure(&d, "game 9x9");
}

/// A 15x15 game's frames while the computer thinks: what recording the
/// display list, diffing it and redrawing cost on the host.
#[test]
#[ignore]
fn gomoku_frame_costs() {
    use ttt64_game::ShownFrames;
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Players, "cvc");
    d.set(MenuItem::Board, "15x15");
    d.set(MenuItem::Computer, "strong");
    d.set(MenuItem::Computer2, "strong");
    d.start();
    for _ in 0..1200 {
        d.step();
        if d.game.position().mark_count() >= 30 {
            break;
        }
    }
    let mut pixels = vec![0u16; PIXELS];
    let mut sprites = Sprites::new();
    let mut shown = ShownFrames::new();
    let n = 300;
    let mut total = [0f64; 2];
    let mut kinds = std::collections::BTreeMap::new();
    for i in 0..n {
        d.step();
        let mut raster = Raster::from_slice(&mut pixels, &mut sprites).unwrap();
        let t0 = Instant::now();
        let how = shown.draw(&d.game, i % 2, &mut raster);
        let us = t0.elapsed().as_secs_f64() * 1e6;
        total[i % 2] += us;
        let e = kinds.entry(format!("{how:?}")).or_insert((0, 0f64));
        e.0 += 1;
        e.1 = e.1.max(us);
    }
    let mut list = ttt64_game::DisplayList::new();
    let t0 = Instant::now();
    for _ in 0..n {
        list.reset();
        d.game.draw_on(&mut list);
    }
    let record_us = t0.elapsed().as_secs_f64() * 1e6 / n as f64;
    println!(
        "15x15, {} marks: {:.1} us a frame (both buffers), {kinds:?}; recording {record_us:.1} us, {} calls",
        d.game.position().mark_count(),
        (total[0] + total[1]) / n as f64,
        list.len()
    );
}

/// What a computer move on 15x15 damages (rectangles redrawn).
#[test]
#[ignore]
fn gomoku_move_damage() {
    use ttt64_game::{Damage, DisplayList};
    let mut d = Driver::new(FakeHost::new(), 1);
    d.open_menu();
    d.set(MenuItem::Players, "cvc");
    d.set(MenuItem::Board, "15x15");
    d.set(MenuItem::Computer, "strong");
    d.set(MenuItem::Computer2, "strong");
    d.start();
    let mut before = DisplayList::new();
    let mut after = DisplayList::new();
    let mut marks = 0;
    for _ in 0..1500 {
        before.reset();
        d.game.draw_on(&mut before);
        d.step();
        let now = d.game.position().mark_count();
        if now != marks && now > 20 {
            after.reset();
            d.game.draw_on(&mut after);
            let n = 200;
            let t0 = Instant::now();
            for _ in 0..n {
                std::hint::black_box(Damage::between(&before, &after));
            }
            let diff_us = t0.elapsed().as_secs_f64() * 1e6 / n as f64;
            let damage = Damage::between(&before, &after);
            let rects: Vec<_> = damage.rects().collect();
            let mut pixels = vec![0u16; PIXELS];
            let mut sprites = Sprites::new();
            let mut raster = Raster::from_slice(&mut pixels, &mut sprites).unwrap();
            after.replay(&mut raster);
            let t0 = Instant::now();
            for _ in 0..n {
                for r in &rects {
                    raster.set_clip(Some(*r));
                    after.replay_within(&mut raster, r);
                }
                raster.set_clip(None);
            }
            let replay_us = t0.elapsed().as_secs_f64() * 1e6 / n as f64;
            let t0 = Instant::now();
            let mut list = DisplayList::new();
            for _ in 0..n {
                list.reset();
                d.game.draw_on(&mut list);
            }
            let record_us = t0.elapsed().as_secs_f64() * 1e6 / n as f64;
            println!(
                "{now} marks: area {} in {} rects; record {record_us:.1} us, diff {diff_us:.1} us, replay {replay_us:.1} us",
                damage.area(),
                rects.len()
            );
            if now > 26 {
                break;
            }
        }
        marks = now;
    }
}

/// Pixels written, per kind of call, by the calls a redraw makes on a
/// raster (each call's pixels counted inside the clip: drawn twice over
/// two marker colours, a pixel written by either counts), and the clip
/// rectangles (a partial redraw's damage).
struct Census<'a> {
    raster: Raster<'a>,
    clip: Option<Rectangle>,
    clips: Vec<Rectangle>,
    /// Per kind: calls, pixels written.
    kinds: [(u64, u64); 7],
}

const KINDS: [&str; 7] = ["clear", "fill", "panel", "text", "line", "frame", "mark"];

impl Census<'_> {
    /// Runs `draw` (one call on the raster) and counts the pixels it writes
    /// inside `bounds` and the clip.
    fn count(&mut self, kind: usize, bounds: Rectangle, draw: impl Fn(&mut Raster<'_>)) {
        let screen = Rectangle::new(Point::zero(), Size::new(320, 240));
        let area = self
            .clip
            .unwrap_or(screen)
            .intersection(&bounds)
            .intersection(&screen);
        let points: Vec<usize> = area
            .points()
            .map(|p| p.y as usize * 320 + p.x as usize)
            .collect();
        let mut written = vec![false; points.len()];
        for marker in [0x0002u16, 0x0004] {
            let mut pixels = self.raster.pixels().to_vec();
            for &i in &points {
                pixels[i] = marker;
            }
            let mut sprites = Sprites::new();
            let mut r = Raster::from_slice(&mut pixels, &mut sprites).unwrap();
            r.set_clip(self.clip);
            draw(&mut r);
            for (k, &i) in points.iter().enumerate() {
                written[k] |= pixels[i] != marker;
            }
        }
        draw(&mut self.raster);
        self.kinds[kind].0 += 1;
        self.kinds[kind].1 += written.iter().filter(|&&w| w).count() as u64;
    }
}

impl Canvas for Census<'_> {
    fn fill_screen(&mut self, color: Rgb555) {
        let screen = Rectangle::new(Point::zero(), Size::new(320, 240));
        self.count(0, screen, |r| r.fill_screen(color));
    }
    fn fill(&mut self, area: Rectangle, color: Rgb555) {
        self.count(1, area, |r| r.fill(area, color));
    }
    fn panel(&mut self, panel: Panel) {
        let b = match panel.inner {
            Some((r, _)) => geometry::union(panel.area, r),
            None => panel.area,
        };
        self.count(2, b, |r| r.panel(panel));
    }
    fn text(&mut self, s: &str, at: Point, font: Font, color: Rgb555, align: Alignment) {
        let b = geometry::text_bounds(s, at, font, align);
        self.count(3, b, |r| r.text(s, at, font, color, align));
    }
    fn line(&mut self, from: Point, to: Point, width: u32, color: Rgb555) {
        let b = geometry::line_bounds(from, to, width);
        self.count(4, b, |r| r.line(from, to, width, color));
    }
    fn rounded_frame(&mut self, area: Rectangle, radius: u32, width: u32, color: Rgb555) {
        let b = area.offset(width as i32);
        self.count(5, b, |r| r.rounded_frame(area, radius, width, color));
    }
    fn mark(&mut self, cell: Rectangle, mark: Mark) {
        let b = geometry::mark_bounds(cell);
        self.count(6, b, |r| r.mark(cell, mark));
    }
    fn set_clip(&mut self, area: Option<Rectangle>) -> bool {
        self.clip = area;
        if let Some(a) = area {
            self.clips.push(a);
        }
        self.raster.set_clip(area);
        true
    }
}

/// A 15x15 game as the e2e script plays it (Strong against Random, the
/// computer's replies a second of frames apart, the "thinking" dots
/// moving meanwhile) to its result, drawn as the ROM draws it (two
/// buffers, `ShownFrames::draw_in_halves`): for every frame drawn in
/// part, the damage rectangles, their area and the pixels the calls wrote
/// (overdraw included), per kind of call.
/// `cargo test --release -p ttt64-game --test draw_timing gomoku_partial_redraws -- --ignored --nocapture`
#[test]
#[ignore]
fn gomoku_partial_redraws() {
    use ttt64_game::{Redraw, Screen, ShownFrames};
    let mut d = Driver::computers_on_15x15(58, "strong", "random");
    d.set(MenuItem::ThinkTime, "1000ms");
    d.start();
    let mut buffers = [vec![0u16; PIXELS], vec![0u16; PIXELS]];
    let mut sprites = Sprites::new();
    let mut shown = Box::new(ShownFrames::new());
    let mut back = 0;
    let mut last_move = 0;
    let mut thinking_shown = 0;
    let mut totals: std::collections::BTreeMap<&str, (u64, u64, u64, u64)> = Default::default();
    for frame in 0..3000 {
        let marks_before = d.game.position().mark_count();
        let screen_before = d.game.screen();
        d.step();
        if d.game.position().mark_count() != marks_before {
            last_move = frame;
        }
        let mut census = Census {
            raster: Raster::from_slice(&mut buffers[back], &mut sprites).unwrap(),
            clip: None,
            clips: Vec::new(),
            kinds: [(0, 0); 7],
        };
        let how = shown.draw_in_halves(&d.game, back, &mut census);
        if how != Redraw::FirstHalf {
            back ^= 1;
        }
        if how != Redraw::Partial {
            continue;
        }
        let kind = if d.game.screen() != screen_before || d.game.screen() == Screen::Result {
            "result"
        } else if frame - last_move < 2 {
            "move"
        } else {
            "thinking"
        };
        let area: u64 = census
            .clips
            .iter()
            .map(|r| u64::from(r.size.width * r.size.height))
            .sum();
        let written: u64 = census.kinds.iter().map(|k| k.1).sum();
        let calls: u64 = census.kinds.iter().map(|k| k.0).sum();
        let t = totals.entry(kind).or_default();
        *t = (t.0 + 1, t.1 + area, t.2 + written, t.3 + calls);
        if kind == "thinking" {
            thinking_shown += 1;
        }
        if kind != "thinking" || thinking_shown <= 4 {
            let rects: Vec<String> = census
                .clips
                .iter()
                .map(|r| {
                    format!(
                        "{},{}+{}x{}",
                        r.top_left.x, r.top_left.y, r.size.width, r.size.height
                    )
                })
                .collect();
            let per_kind: Vec<String> = census
                .kinds
                .iter()
                .zip(KINDS)
                .filter(|(k, _)| k.0 > 0)
                .map(|(k, name)| format!("{name} {}/{}", k.0, k.1))
                .collect();
            println!(
                "frame {frame} {kind} ({} marks): {} rects, area {area}, written {written} ({:.1}x), calls {calls} [{}] rects {}",
                d.game.position().mark_count(),
                census.clips.len(),
                written as f64 / area.max(1) as f64,
                per_kind.join(", "),
                rects.join(" ")
            );
        }
        if d.game.screen() == Screen::Result && kind == "result" && screen_before == Screen::Result
        {
            break;
        }
    }
    for (kind, (n, area, written, calls)) in totals {
        println!(
            "{kind}: {n} partial redraws, mean area {}, mean pixels written {}, mean calls drawn {}",
            area / n,
            written / n,
            calls / n
        );
    }
}
