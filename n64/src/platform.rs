//! The interface the game is written against: display, input, time, log
//! and save. [`N64`] implements it with this crate's bare-metal drivers; a
//! libdragon (or host/test) backend can implement the same trait.

use core::convert::Infallible;
use core::fmt;

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::{DrawTarget, OriginDimensions};
use ttt64_game::Canvas;

use crate::bootinfo::{self, TvType};
use crate::fb::{Display, Framebuffer};
use crate::input::Pads;
use crate::si::{self, EepromError};
use crate::timer::{self, Timer};

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
    /// Reads all controllers (once per frame) and returns their state.
    fn poll_input(&mut self) -> &Pads;
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

/// The cartridge EEPROM on joybus channel 4.
pub struct Eeprom;

impl Save for Eeprom {
    fn block_count(&self) -> u8 {
        si::EEPROM_4K_BLOCKS
    }
    fn read_block(&mut self, index: u8) -> Result<[u8; 8], EepromError> {
        si::eeprom_read(index)
    }
    fn write_block(&mut self, index: u8, data: &[u8; 8]) -> Result<(), EepromError> {
        si::eeprom_write(index, data)
    }
}

/// The Nintendo 64 backend.
pub struct N64 {
    display: Display,
    pads: Pads,
    timer: Timer,
    tv: TvType,
    eeprom: Eeprom,
}

impl N64 {
    /// Takes the hardware (once; `None` afterwards).
    pub fn take() -> Option<Self> {
        let tv = bootinfo::tv_type();
        Some(Self {
            display: Display::take(tv)?,
            pads: Pads::default(),
            timer: Timer::new(),
            tv,
            eeprom: Eeprom,
        })
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
        self.pads.update(si::read_controllers());
        &self.pads
    }
    fn ticks(&self) -> u64 {
        self.timer.ticks()
    }
    fn ticks_per_second(&self) -> u64 {
        timer::TICKS_PER_SECOND
    }
    fn tv_type(&self) -> TvType {
        self.tv
    }
    fn vsyncs(&self) -> u32 {
        crate::vi::frames()
    }
    fn log(&mut self, args: fmt::Arguments) {
        crate::isviewer::write_line(args);
    }
    fn save(&mut self) -> &mut Eeprom {
        &mut self.eeprom
    }
}
