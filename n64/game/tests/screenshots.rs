//! Writes every screen as a raw RGB888 file for looking at (not a check):
//! `SHOTS=/tmp/shots cargo test --test screenshots -- --ignored`
mod common;

use common::*;
use ttt64_game::{Buttons, MenuItem, Screen};
use ttt_core::Mark;

fn save(d: &Driver, dir: &str, name: &str) {
    let mut out = Vec::with_capacity(320 * 240 * 3);
    for c in &d.fb.pixels {
        use embedded_graphics::pixelcolor::RgbColor;
        for v in [c.r(), c.g(), c.b()] {
            out.push((v << 3) | (v >> 2));
        }
    }
    std::fs::write(format!("{dir}/{name}.rgb"), out).unwrap();
}

#[test]
#[ignore]
fn screenshots() {
    let dir = std::env::var("SHOTS").unwrap_or_else(|_| "/tmp/shots".into());
    std::fs::create_dir_all(&dir).unwrap();
    let mut d = Driver::new(FakeHost::new(), 2);
    d.idle(200);
    d.render();
    save(&d, &dir, "title");
    d.open_menu();
    d.set(MenuItem::Computer, "god");
    d.render();
    save(&d, &dir, "menu");
    d.set(MenuItem::Computer, "classic");
    d.start();
    d.wait_turn(Mark::X);
    d.place(0, sq("a1"));
    d.idle(3);
    d.render();
    save(&d, &dir, "thinking");
    d.wait_turn(Mark::X);
    d.cursor_to(0, sq("c3"));
    d.render();
    save(&d, &dir, "game");
    d.press(0, Buttons::A);
    for m in ["a3", "a2"] {
        d.wait_turn(Mark::X);
        d.place(0, sq(m));
    }
    d.render();
    save(&d, &dir, "result");
    d.idle(40);
    d.press(0, Buttons::B);
    d.set(MenuItem::Board, "9x9");
    d.set(MenuItem::WinLength, "5");
    d.set(MenuItem::Players, "2p");
    d.start();
    for (p, m) in [(0, "e5"), (1, "d4"), (0, "f5"), (1, "d5"), (0, "g5")] {
        d.place(p, sq(m));
    }
    d.press(1, Buttons::Z);
    d.idle(2);
    d.render();
    save(&d, &dir, "nine");
    d.press(0, Buttons::START);
    d.render();
    save(&d, &dir, "pause");
    d.press(0, Buttons::START);
    d.raw[1].connected = false;
    d.step();
    assert_eq!(d.game.screen(), Screen::Unplugged);
    d.render();
    save(&d, &dir, "unplugged");
}
