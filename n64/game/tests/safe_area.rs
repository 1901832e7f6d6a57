//! What a television shows: every screen inside the title-safe area
//! (`layout::SAFE`), the menu's START GAME clear of the help box however
//! many lines the menu has (a Rumble Pak adds one), the gomoku panel's
//! text inside the panel.
mod common;

use common::*;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use ttt64_game::{layout, palette, Buttons, MenuItem, Screen};

/// Pixels drawn outside the title-safe area (anything but the background).
fn outside_safe(fb: &Framebuffer) -> Vec<Point> {
    Rectangle::new(Point::zero(), Size::new(layout::WIDTH, layout::HEIGHT))
        .points()
        .filter(|&p| !layout::SAFE.contains(p) && fb.get(p) != palette::BG)
        .collect()
}

/// Renders and checks the title-safe area, `what` naming the screen.
fn check_safe(d: &mut Driver, what: &str) {
    d.render();
    let outside = outside_safe(&d.fb);
    assert!(
        outside.is_empty(),
        "{what}: {} pixels outside the title-safe area, first {:?}",
        outside.len(),
        outside.first()
    );
}

/// The menu's modes, as the log names them.
const MODES: [&str; 4] = ["1p", "2p", "2p-shared", "cvc"];

/// A driver on the menu with `mode` and `size`x`size`, controller 1 with a
/// Rumble Pak or not.
fn menu(mode: &str, size: u8, rumble_pak: bool) -> Driver {
    let mut d = Driver::new(FakeHost::new(), 2);
    d.raw[0].rumble_pak = rumble_pak;
    d.step();
    d.open_menu();
    d.set(MenuItem::Players, mode);
    d.set(MenuItem::Board, &format!("{size}x{size}"));
    // Back to the first line.
    while d.game.menu_selected() != MenuItem::Players {
        d.press(0, Buttons::DUP);
    }
    d
}

#[test]
fn every_screen_stays_inside_the_title_safe_area() {
    let mut d = Driver::new(FakeHost::new(), 1);
    check_safe(&mut d, "title");
    for mode in MODES {
        for size in [3, 9, 15] {
            for pak in [false, true] {
                let mut d = menu(mode, size, pak);
                for _ in 0..d.game.menu_items().count() {
                    let what = format!(
                        "menu {mode} {size}x{size} pak={pak} on {:?}",
                        d.game.menu_selected()
                    );
                    check_safe(&mut d, &what);
                    d.press(0, Buttons::DDOWN);
                }
            }
        }
    }
    for size in [3, 9, 15] {
        let mut d = menu("cvc", size, false);
        d.set(MenuItem::Computer, "strong");
        d.set(MenuItem::Computer2, "random");
        d.start();
        d.idle(3);
        check_safe(&mut d, &format!("game {size}x{size}"));
        d.wait_screen(Screen::Result, 20_000);
        d.idle(3);
        check_safe(&mut d, &format!("result {size}x{size}"));
    }
    let mut d = menu("1p", 15, false);
    d.start();
    d.idle(3);
    check_safe(&mut d, "game 15x15, one player");
    d.press(0, Buttons::START);
    assert_eq!(d.game.screen(), Screen::Pause);
    check_safe(&mut d, "pause 15x15");
}

/// The first and last lines of the selection bar.
fn selection(fb: &Framebuffer) -> (i32, i32) {
    let screen = Rectangle::new(Point::zero(), Size::new(layout::WIDTH, layout::HEIGHT));
    let bar = fb.points_of(screen, palette::SELECT);
    let ys = bar.iter().map(|p| p.y);
    (ys.clone().min().unwrap_or(-1), ys.max().unwrap_or(-1))
}

/// The help box's first line (its fill, in the menu's bottom half).
fn help_top(fb: &Framebuffer) -> i32 {
    let bottom = Rectangle::new(Point::new(0, 120), Size::new(layout::WIDTH, 120));
    fb.points_of(bottom, palette::PANEL)
        .iter()
        .map(|p| p.y)
        .min()
        .expect("the help box")
}

#[test]
fn start_game_stays_clear_of_the_help_box_with_every_menu() {
    for mode in MODES {
        for size in [3, 15] {
            for pak in [false, true] {
                let what = format!("{mode} {size}x{size} pak={pak}");
                let mut d = menu(mode, size, pak);
                d.render();
                let (top, bottom) = selection(&d.fb);
                while d.game.menu_selected() != MenuItem::Start {
                    d.press(0, Buttons::DDOWN);
                }
                d.render();
                let (bar_top, bar_bottom) = selection(&d.fb);
                let help = help_top(&d.fb);
                assert!(
                    bar_bottom < help,
                    "{what}: START GAME's bar ends on line {bar_bottom}, the help box starts on {help}"
                );
                // The whole bar is seen: as tall as on the first line.
                assert_eq!(bar_bottom - bar_top, bottom - top, "{what}");
            }
        }
    }
}

#[test]
fn the_question_after_a_gomoku_game_fits_its_panel() {
    let mut d = menu("cvc", 15, false);
    d.set(MenuItem::Computer, "strong");
    d.set(MenuItem::Computer2, "random");
    d.start();
    d.wait_screen(Screen::Result, 20_000);
    d.idle(3);
    d.render();
    let rules = *d.game.position().rules();
    let panel = layout::panel(&rules);
    let screen = Rectangle::new(Point::zero(), Size::new(layout::WIDTH, layout::HEIGHT));
    // The question is in the cursor's colour (no cursor after the game).
    let question = d.fb.points_of(screen, palette::CURSOR);
    assert!(!question.is_empty());
    let strays: Vec<_> = question.iter().filter(|&&p| !panel.contains(p)).collect();
    assert!(
        strays.is_empty(),
        "{} pixels of the question outside the panel {panel:?}, first {:?}",
        strays.len(),
        strays.first()
    );
}
