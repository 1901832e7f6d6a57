//! The interface the game is written against: display, input, time, log
//! and save. [`N64`] implements it on libdragon (this crate's modules wrap
//! it, one per hardware block); a host or test backend can implement the
//! same trait.

use core::convert::Infallible;
use core::fmt;

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::{DrawTarget, OriginDimensions};
use ttt64_game::Canvas;

use crate::display::{self, Display, Framebuffer};
use crate::input::{self, Pads};
use crate::save::{Eeprom, EepromError};
use crate::time;
use crate::tv::TvType;

/// Save storage: 8-byte blocks (EEPROM 4K: 64 of them).
pub trait Save {
    fn block_count(&self) -> u8;
    fn read_block(&mut self, index: u8) -> Result<[u8; 8], EepromError>;
    fn write_block(&mut self, index: u8, data: &[u8; 8]) -> Result<(), EepromError>;
}

/// Everything a game frame needs.
pub trait Platform {
    type Target: DrawTarget<Color = Rgb555, Error = Infallible> + OriginDimensions + Canvas;
    type Save: Save;

    /// The framebuffer to draw this frame into.
    fn target(&mut self) -> &mut Self::Target;
    /// Which of the (two) buffers `target` is: it still holds what was drawn
    /// into it two frames ago, so static parts need drawing once per buffer.
    fn target_index(&self) -> usize;
    /// Shows the frame and waits for the next vertical blank.
    fn present(&mut self);
    /// Waits for the next vertical blank without showing the frame: it is
    /// not complete; the next one is drawn into the same buffer.
    fn hold(&mut self);
    /// Reads all controllers (once per frame) and returns their state
    /// (with whether each has a Rumble Pak).
    fn poll_input(&mut self) -> &Pads;
    /// Starts or stops the Rumble Pak motor of the controller on `port`
    /// (0..4); nothing without a pak. Must not wait for the controller.
    fn set_rumble(&mut self, port: usize, on: bool);
    /// Monotonic time in ticks of `ticks_per_second`.
    fn ticks(&self) -> u64;
    fn ticks_per_second(&self) -> u64;
    /// Video standard (for frame-rate dependent timing).
    fn tv_type(&self) -> TvType;
    /// Vertical interrupts (frames shown) since boot, wrapping.
    fn vsyncs(&self) -> u32;
    /// One debug line (no "\n" needed).
    fn log(&mut self, args: fmt::Arguments);
    fn save(&mut self) -> &mut Self::Save;
}

/// The Nintendo 64 backend.
pub struct N64 {
    display: Display,
    pads: Pads,
    tv: TvType,
    eeprom: Eeprom,
}

impl N64 {
    /// Starts libdragon's display and joypads (once, at boot: `main`
    /// holds the only value).
    pub fn init(tv: TvType) -> Self {
        let display = Display::init(tv);
        input::init();
        Self {
            display,
            pads: Pads::default(),
            tv,
            eeprom: Eeprom::detect(),
        }
    }

    /// The display's refresh rate, for the game's timings.
    pub fn refresh(&self) -> ttt64_game::Refresh {
        self.display.refresh()
    }
}

impl Platform for N64 {
    type Target = Framebuffer;
    type Save = Eeprom;

    fn target(&mut self) -> &mut Framebuffer {
        self.display.back()
    }
    fn target_index(&self) -> usize {
        self.display.back_index()
    }
    fn present(&mut self) {
        self.display.present();
    }
    fn hold(&mut self) {
        self.display.hold();
    }
    fn poll_input(&mut self) -> &Pads {
        self.pads.update(input::read_controllers());
        &self.pads
    }
    fn set_rumble(&mut self, port: usize, on: bool) {
        // libdragon queues the pak write on the joybus and returns.
        input::set_rumble(port, on);
    }
    fn ticks(&self) -> u64 {
        time::ticks()
    }
    fn ticks_per_second(&self) -> u64 {
        time::TICKS_PER_SECOND
    }
    fn tv_type(&self) -> TvType {
        self.tv
    }
    fn vsyncs(&self) -> u32 {
        display::frames()
    }
    fn log(&mut self, args: fmt::Arguments) {
        crate::log::write_line(args);
    }
    fn save(&mut self) -> &mut Eeprom {
        &mut self.eeprom
    }
}
