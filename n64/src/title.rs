//! The title screen. Its looks and log lines are a contract with the
//! emulator test harness (tools/n64-harness): keep them exact.
//!
//! - dark blue background, "TIC-TAC-TOE 64" (10x20 font) centred at the
//!   top, a small 3x3 board, "PRESS START";
//! - port p (1..4) box at x = 32 + (p-1)*72, y = 190, 48x24: dark grey
//!   (64,64,64) = no controller, light grey (160,160,160) = connected and
//!   idle, green (0,200,0) = a button held; labels "P1".."P4" below (y >= 218);
//! - log lines: `screen title` after the first frame is shown,
//!   `heartbeat <frame>` every 60 frames, `pad <p> connected|disconnected`,
//!   `pad <p> press <NAME>`, `start pressed` (START on port 1).

use core::fmt::Write;

use embedded_graphics::mono_font::ascii::{FONT_10X20, FONT_6X10};
use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::pixelcolor::{Rgb555, Rgb888};
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Circle, Line, PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Alignment, Text};

use crate::input::{button, Pads};
use crate::platform::Platform;

fn rgb(r: u8, g: u8, b: u8) -> Rgb555 {
    Rgb555::from(Rgb888::new(r, g, b))
}

pub fn background() -> Rgb555 {
    rgb(0, 0, 96)
}
pub fn port_absent() -> Rgb555 {
    rgb(64, 64, 64)
}
pub fn port_idle() -> Rgb555 {
    rgb(160, 160, 160)
}
pub fn port_held() -> Rgb555 {
    rgb(0, 200, 0)
}

/// Port indicator rectangle (port 1..4).
pub fn port_box(port: usize) -> Rectangle {
    Rectangle::new(
        Point::new(32 + (port as i32 - 1) * 72, 190),
        Size::new(48, 24),
    )
}

/// Frames between heartbeat lines.
pub const HEARTBEAT_FRAMES: u32 = 60;

/// Draws everything that does not change.
fn draw_static<D: DrawTarget<Color = Rgb555>>(d: &mut D) -> Result<(), D::Error> {
    d.clear(background())?;
    let white = Rgb555::from(Rgb888::WHITE);
    let title = MonoTextStyle::new(&FONT_10X20, white);
    Text::with_alignment(
        "TIC-TAC-TOE 64",
        Point::new(160, 40),
        title,
        Alignment::Center,
    )
    .draw(d)?;

    // A 3x3 board, 30-pixel cells, at (115, 62)..(205, 152), with an X and an O.
    let line = PrimitiveStyle::with_stroke(white, 2);
    for i in 1..3 {
        let o = 115 + i * 30;
        Line::new(Point::new(o, 62), Point::new(o, 152))
            .into_styled(line)
            .draw(d)?;
        let o = 62 + i * 30;
        Line::new(Point::new(115, o), Point::new(205, o))
            .into_styled(line)
            .draw(d)?;
    }
    let x_style = PrimitiveStyle::with_stroke(rgb(255, 96, 96), 3);
    Line::new(Point::new(122, 69), Point::new(138, 85))
        .into_styled(x_style)
        .draw(d)?;
    Line::new(Point::new(138, 69), Point::new(122, 85))
        .into_styled(x_style)
        .draw(d)?;
    Circle::new(Point::new(150, 97), 20)
        .into_styled(PrimitiveStyle::with_stroke(rgb(96, 200, 255), 3))
        .draw(d)?;

    let prompt = MonoTextStyle::new(&FONT_10X20, rgb(255, 220, 0));
    Text::with_alignment(
        "PRESS START",
        Point::new(160, 178),
        prompt,
        Alignment::Center,
    )
    .draw(d)?;

    let label = MonoTextStyle::new(&FONT_6X10, white);
    for port in 1..=4 {
        let b = port_box(port);
        let mut text = crate::isviewer::Line::new();
        let _ = write!(text, "P{port}");
        let at = Point::new(b.top_left.x + 24, 228);
        Text::with_alignment(text.as_str(), at, label, Alignment::Center).draw(d)?;
    }
    Ok(())
}

/// Draws the four port boxes for the current input.
fn draw_ports<D: DrawTarget<Color = Rgb555>>(d: &mut D, pads: &Pads) -> Result<(), D::Error> {
    for (i, pad) in pads.ports.iter().enumerate() {
        let colour = match (pad.connected(), pad.any_held()) {
            (false, _) => port_absent(),
            (true, false) => port_idle(),
            (true, true) => port_held(),
        };
        d.fill_solid(&port_box(i + 1), colour)?;
    }
    Ok(())
}

/// Logs connection changes and press edges of this frame.
fn log_input<P: Platform>(p: &mut P, pads: &Pads) {
    for (i, pad) in pads.ports.iter().enumerate() {
        let port = i + 1;
        match pad.connection_changed {
            Some(true) => p.log(format_args!("pad {port} connected")),
            Some(false) => p.log(format_args!("pad {port} disconnected")),
            None => {}
        }
        for (bit, name) in button::NAMES {
            if pad.pressed & bit != 0 {
                p.log(format_args!("pad {port} press {name}"));
            }
        }
    }
    if pads.ports[0].pressed & button::START != 0 {
        p.log(format_args!("start pressed"));
    }
}

/// Runs the title screen forever (the game proper is the next issue).
pub fn run<P: Platform>(p: &mut P) -> ! {
    let mut static_drawn = [false; 2];
    let mut frame: u32 = 0;
    loop {
        let pads = *p.poll_input();
        log_input(p, &pads);
        let index = p.target_index() & 1;
        let target = p.target();
        if !static_drawn[index] {
            let _ = draw_static(target);
            static_drawn[index] = true;
        }
        let _ = draw_ports(target, &pads);
        p.present();
        if frame == 0 {
            p.log(format_args!("screen title"));
        }
        frame += 1;
        if frame % HEARTBEAT_FRAMES == 0 {
            p.log(format_args!("heartbeat {frame}"));
        }
    }
}
