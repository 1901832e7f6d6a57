//! Cost of one `draw` on the host, per screen, and pixels written: the
//! plain embedded-graphics path and the console's `Raster` (the console's
//! own figures come from the ROM's `perf` lines, `e2e/perf.script`).
//! `cargo test --release --manifest-path n64/game/Cargo.toml --test draw_timing -- --ignored --nocapture`
mod common;

use std::time::Instant;

use common::*;
use embedded_graphics::prelude::*;
use ttt64_game::raster::PIXELS;
use ttt64_game::{Buttons, MenuItem, Raster, Rgb555, Sprites};

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
