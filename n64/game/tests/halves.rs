//! A new screen drawn over two frames ([`ShownFrames::draw_in_halves`], as
//! the ROM does so that no frame costs a whole screen): the first frame
//! draws the top half only and is not shown, the next one the rest into
//! the same buffer. Every frame shown must be exactly the plain
//! embedded-graphics drawing of the game at that frame.
mod common;

use common::*;
use ttt64_game::raster::{HEIGHT, PIXELS, WIDTH};
use ttt64_game::{rgba5551, Buttons, Game, MenuItem, Raster, Redraw, Screen, ShownFrames, Sprites};

fn plain_pixels(game: &Game) -> Vec<u16> {
    let mut fb = Framebuffer::new();
    game.draw(&mut fb);
    fb.pixels.iter().map(|&c| rgba5551(c)).collect()
}

/// Stale data a prepared run may hold (see tests/raster.rs).
fn scribble(run: &mut [u16]) {
    run.fill(0x0F0E);
}

/// The ROM's loop: two buffers, the back one drawn in halves when it must
/// be drawn whole, shown (the buffers swapped) only once complete.
struct Loop {
    shown: Box<ShownFrames>,
    buffers: [Vec<u16>; 2],
    sprites: [Box<Sprites>; 2],
    back: usize,
    /// How each pass drew.
    passes: Vec<Redraw>,
}

impl Loop {
    fn new() -> Loop {
        Loop {
            shown: Box::new(ShownFrames::new()),
            buffers: [vec![0; PIXELS], vec![0; PIXELS]],
            sprites: [Box::new(Sprites::new()), Box::new(Sprites::new())],
            back: 0,
            passes: Vec::new(),
        }
    }

    /// One pass: update, draw, and show if complete (checked against the
    /// plain drawing).
    fn pass(&mut self, d: &mut Driver) {
        d.step();
        let b = self.back;
        let mut r = Raster::from_slice(&mut self.buffers[b], &mut self.sprites[b]).unwrap();
        r.set_prepare(Some(scribble));
        let how = self.shown.draw_in_halves(&d.game, b, &mut r);
        let rows = r.take_dirty_rows();
        if how == Redraw::FirstHalf {
            let rows = rows.expect("the top half is drawn");
            assert!(rows.end <= HEIGHT / 2, "first half drew rows {rows:?}");
        } else {
            let expected = plain_pixels(&d.game);
            if let Some(i) = (0..PIXELS).find(|&i| expected[i] != self.buffers[b][i]) {
                panic!(
                    "pass {} ({how:?}, {:?}): pixel ({}, {}) is {:#06x}, want {:#06x}",
                    self.passes.len(),
                    d.game.screen(),
                    i % WIDTH,
                    i / WIDTH,
                    self.buffers[b][i],
                    expected[i]
                );
            }
            self.back ^= 1;
        }
        self.passes.push(how);
    }

    fn passes(&mut self, d: &mut Driver, n: usize) {
        for _ in 0..n {
            self.pass(d);
        }
    }

    fn press(&mut self, d: &mut Driver, b: Buttons) {
        d.raw[0].buttons = b;
        self.pass(d);
        d.raw[0].buttons = Buttons::NONE;
        self.pass(d);
    }
}

#[test]
fn new_screens_are_drawn_in_two_halves_and_shown_complete() {
    let mut d = Driver::new(FakeHost::new(), 1);
    let mut l = Loop::new();
    l.passes(&mut d, 40);
    l.press(&mut d, Buttons::START);
    assert_eq!(d.game.screen(), Screen::Menu);
    l.passes(&mut d, 10);
    while d.game.menu_selected() != MenuItem::Board {
        l.press(&mut d, Buttons::DDOWN);
    }
    while !d.host.has("menu size=9x9") {
        l.press(&mut d, Buttons::DRIGHT);
        assert!(l.passes.len() < 1_000, "{:#?}", d.host.lines);
    }
    l.passes(&mut d, 10);
    let game_start = l.passes.len();
    l.press(&mut d, Buttons::START);
    assert_eq!(d.game.screen(), Screen::Game);
    l.passes(&mut d, 30);
    // A move, the computer's reply, the pause menu and back.
    l.press(&mut d, Buttons::A);
    l.passes(&mut d, 60);
    l.press(&mut d, Buttons::START);
    assert_eq!(d.game.screen(), Screen::Pause);
    l.passes(&mut d, 10);
    l.press(&mut d, Buttons::START);
    assert_eq!(d.game.screen(), Screen::Game);
    l.passes(&mut d, 10);

    // No pass drew a whole screen in one go.
    assert!(
        !l.passes.contains(&Redraw::Replayed) && !l.passes.contains(&Redraw::Direct),
        "{:?}",
        l.passes
    );
    // Each first half is completed by the next pass.
    for (i, w) in l.passes.windows(2).enumerate() {
        if w[0] == Redraw::FirstHalf {
            assert_eq!(w[1], Redraw::SecondHalf, "pass {}: {:?}", i + 1, l.passes);
        }
    }
    // The game's first frames: both buffers drawn in halves.
    let halves = l.passes[game_start..game_start + 8]
        .iter()
        .filter(|&&w| w == Redraw::FirstHalf)
        .count();
    assert_eq!(halves, 2, "{:?}", &l.passes[game_start..game_start + 8]);
}
