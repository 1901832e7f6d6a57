//! Panic handler: logs `panic: <message> (<file>:<line>)` to the IS-Viewer
//! and shows the same text on a red screen, then halts.

use core::fmt::Write;
use core::panic::PanicInfo;

use embedded_graphics::mono_font::{ascii::FONT_10X20, ascii::FONT_6X10, MonoTextStyle};
use embedded_graphics::pixelcolor::{Rgb555, Rgb888};
use embedded_graphics::prelude::*;
use embedded_graphics::text::Text;

use crate::global::Global;
use crate::isviewer::Line;
use crate::{bootinfo, fb, vi};

static PANICKING: Global<bool> = Global::new(false);

/// Characters per line of the message on screen (6-pixel font, 8 px margin).
const COLUMNS: usize = 50;

#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    // SAFETY: single thread; a panic inside the panic handler stops here.
    unsafe {
        if *PANICKING.get() {
            loop {}
        }
        *PANICKING.get() = true;
    }
    let mut line = Line::new();
    let _ = write!(line, "{}", info.message());
    if let Some(loc) = info.location() {
        let _ = write!(line, " ({}:{})", loc.file(), loc.line());
    }
    crate::log!("panic: {}", line.as_str());

    // SAFETY: this function never returns, so nothing else draws again.
    let mut fb = unsafe { fb::panic_framebuffer() };
    let _ = fb.clear(Rgb555::from(Rgb888::new(120, 0, 0)));
    let white = Rgb555::from(Rgb888::WHITE);
    let _ = Text::new(
        "PANIC",
        Point::new(8, 24),
        MonoTextStyle::new(&FONT_10X20, white),
    )
    .draw(&mut fb);
    let small = MonoTextStyle::new(&FONT_6X10, white);
    let text = line.as_str();
    let mut y = 48;
    let mut rest = text;
    while !rest.is_empty() && y < 232 {
        let cut = rest
            .char_indices()
            .nth(COLUMNS)
            .map_or(rest.len(), |(i, _)| i);
        let _ = Text::new(&rest[..cut], Point::new(8, y), small).draw(&mut fb);
        rest = &rest[cut..];
        y += 12;
    }
    fb.flush();
    vi::init(bootinfo::tv_type(), fb.physical());
    loop {}
}
