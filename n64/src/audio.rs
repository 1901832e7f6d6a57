//! Audio Interface (n64brew "Audio Interface"): 16-bit stereo samples
//! DMAed from RDRAM to the DAC through a two-entry FIFO.
//!
//! [`Audio`] owns the game's synthesizer ([`ttt64_game::Synth`]) and keeps
//! the FIFO fed from the main loop: [`Audio::feed`] tops the queue up to
//! [`QUEUE_VIDEO_FRAMES`] video frames of samples, or twice the longest
//! recent main-loop pass (screen changes redraw more), and never waits.
//! Before the game blocks for long (the computer's search), [`Audio::hush`]
//! makes what is queued end in silence: when the AI then runs dry it stops
//! on a zero sample instead of a cut-off tone.
//!
//! What the console requires, and how this module meets it: the AI DMAs
//! samples from RDRAM behind the data cache, 8-byte aligned, at most
//! 256 KiB a buffer. Samples are mixed through the cache and written back
//! (`cache::writeback`) before the DMA is queued; the shared zeros are
//! written back once, in [`Audio::take`] (the .bss clear left them in the
//! cache), and never written again. The buffer blocks are 64-byte aligned;
//! each buffer is 8-byte aligned (4098 samples), so neighbouring buffers
//! share a cache line at their seam: harmless, because audio memory is only
//! ever written back, never invalidated (a write-back of a shared line
//! writes the current CPU data of both). A buffer is refilled only when
//! neither playing nor queued. A DMA ending on an 8 KiB boundary
//! starts 8 bytes later (the AI's address-counter carry bug).

use ttt64_game::sound::SAMPLE_RATE;
use ttt64_game::{Cue, Synth};

use crate::bootinfo::TvType;
use crate::cache;
use crate::global::Global;
use crate::regs::{physical, Reg};
use crate::timer;

const fn reg(offset: usize) -> Reg<u32> {
    // SAFETY: AI registers are 32-bit words at 0xA4500000..0xA4500018.
    unsafe { Reg::at(0xA450_0000 + offset) }
}
/// Physical RDRAM address of the next DMA (8-byte aligned).
const DRAM_ADDR: Reg<u32> = reg(0x00);
/// Write: length in bytes (multiple of 8), queues the DMA. Read: bytes
/// left in the DMA playing now.
const LEN: Reg<u32> = reg(0x04);
const CONTROL: Reg<u32> = reg(0x08);
const STATUS: Reg<u32> = reg(0x0C);
const DACRATE: Reg<u32> = reg(0x10);
const BITRATE: Reg<u32> = reg(0x14);

const CONTROL_DMA_ENABLE: u32 = 1;
/// Both FIFO entries are taken.
const STATUS_FULL: u32 = 1 << 31;
/// A DMA is playing.
const STATUS_BUSY: u32 = 1 << 30;

/// Samples queued ahead, in video frames: the main loop tops the queue up
/// once per frame, so this is the slack for a late frame.
pub const QUEUE_VIDEO_FRAMES: u32 = 2;
/// Stereo samples per DMA buffer at most (256 ms at 16 kHz).
const MAX_SAMPLES: usize = 4096;
/// A main-loop pass longer than this (ms) is a search or a save, announced
/// by a hush: it does not raise the queue target.
const LONG_PASS_MS: u64 = 250;
/// Shortest DMA worth queueing.
const MIN_SAMPLES: usize = 64;
/// Silence queued after a hush's fade-out, in samples.
const HUSH_PAD: usize = 64;
/// Buffers in rotation: one playing, one queued, one being filled.
const BUFFERS: usize = 3;
/// Samples mixed at a time (a stack buffer).
const FILL_CHUNK: usize = 256;
/// Bytes per stereo sample (two big-endian i16).
const SAMPLE_BYTES: usize = 4;

/// The DAC's clock: the video clock of the TV standard (Hz).
pub fn dac_clock(tv: TvType) -> u32 {
    match tv {
        TvType::Ntsc => 48_681_812,
        TvType::Pal => 49_656_530,
        TvType::Mpal => 48_628_316,
    }
}

/// AI_DACRATE for `rate` Hz: the clock divider (rounded) minus one.
pub fn dac_rate(clock: u32, rate: u32) -> u32 {
    let divider = (u64::from(clock) * 2 / u64::from(rate.max(1)) + 1) / 2;
    (divider as u32).saturating_sub(1)
}

/// AI_BITRATE for a DACRATE: the bit clock divider, at most 16, minus one
/// (libultra's `osAiSetFrequency` rule).
pub fn bit_rate(dacrate: u32) -> u32 {
    (dacrate / 66).clamp(1, 16) - 1
}

/// The sample rate a DACRATE gives.
pub fn real_rate(clock: u32, dacrate: u32) -> u32 {
    clock / (dacrate + 1)
}

/// DMA buffers: 8-byte aligned as the AI needs, whole cache lines so the
/// write-back touches nothing else. Each has two spare samples so a DMA can
/// start 8 bytes later (see [`Audio::queue`]).
#[repr(C, align(64))]
struct Buffers([[u32; MAX_SAMPLES + 2]; BUFFERS]);

static BUFFERS_MEM: Global<Buffers> = Global::new(Buffers([[0; MAX_SAMPLES + 2]; BUFFERS]));

/// Zeros the AI plays while the synth is quiet (most of the time): queued
/// as they are, without writing a sample (on the console that writing cost
/// ~2 ms a frame). Written back once by [`Audio::take`], never written again.
#[repr(C, align(64))]
struct Silence([u32; MAX_SAMPLES + 2]);

static SILENCE: Global<Silence> = Global::new(Silence([0; MAX_SAMPLES + 2]));
static TAKEN: Global<bool> = Global::new(false);

/// The audio output and the synthesizer feeding it.
pub struct Audio {
    synth: Synth,
    rate: u32,
    dacrate: u32,
    /// Stereo samples to keep queued at least (two video frames).
    base_target: usize,
    /// Recent main-loop pass length in samples (a maximum that decays by
    /// 1/64 per pass, so the occasional slow pass is remembered).
    pass: usize,
    /// COP0 Count at the last feed.
    last_feed: u32,
    /// The buffer to fill next.
    next: usize,
    /// The last queued buffer ended with the synth idle (in silence).
    tail_silent: bool,
}

impl Audio {
    /// Programs the AI for [`SAMPLE_RATE`] on this TV standard (once;
    /// `None` afterwards).
    pub fn take(tv: TvType) -> Option<Audio> {
        // SAFETY: single thread, and no interrupt handler touches a Global
        // (see `global`); a short-lived access to the flag.
        let taken = unsafe { &mut *TAKEN.get() };
        if *taken {
            return None;
        }
        *taken = true;
        // The zeros may still sit in the data cache (the .bss clear).
        cache::writeback(SILENCE.get() as usize, core::mem::size_of::<Silence>());
        let clock = dac_clock(tv);
        let dacrate = dac_rate(clock, SAMPLE_RATE);
        DACRATE.write(dacrate);
        BITRATE.write(bit_rate(dacrate));
        CONTROL.write(CONTROL_DMA_ENABLE);
        let rate = real_rate(clock, dacrate);
        let millihz = crate::vi::refresh(tv).as_millihz().max(1);
        let target =
            (u64::from(rate) * u64::from(QUEUE_VIDEO_FRAMES) * 1000 / u64::from(millihz)) as usize;
        Some(Audio {
            synth: Synth::new(rate),
            rate,
            dacrate,
            base_target: target.clamp(MIN_SAMPLES, MAX_SAMPLES) & !1,
            pass: 0,
            last_feed: timer::count(),
            next: 0,
            tail_silent: true,
        })
    }

    /// Samples per second the DAC plays.
    pub fn rate(&self) -> u32 {
        self.rate
    }

    /// The AI_DACRATE value in use.
    pub fn dacrate(&self) -> u32 {
        self.dacrate
    }

    /// Starts a cue (heard with the next buffer queued).
    pub fn play(&mut self, cue: Cue) {
        self.synth.play(cue);
    }

    /// Tops the AI's queue up to the target. Never waits: with both FIFO
    /// entries taken there is enough queued.
    pub fn feed(&mut self) {
        // The queue must outlast the next main-loop pass, which may be
        // slower than the last: track the longest recent one, keep twice it.
        let now = timer::count();
        let ticks = u64::from(now.wrapping_sub(self.last_feed));
        self.last_feed = now;
        if ticks < timer::TICKS_PER_SECOND * LONG_PASS_MS / 1000 {
            let samples = (ticks * u64::from(self.rate) / timer::TICKS_PER_SECOND) as usize;
            self.pass = samples.max(self.pass - self.pass / 64);
        }
        let target = (self.pass * 2).max(self.base_target).min(MAX_SAMPLES);
        let status = STATUS.read();
        if status & STATUS_FULL != 0 {
            return;
        }
        let queued = if status & STATUS_BUSY != 0 {
            LEN.read() as usize / SAMPLE_BYTES
        } else {
            0
        };
        if queued + MIN_SAMPLES > target {
            return;
        }
        self.queue(target - queued);
    }

    /// Called before a long frame: fades out whatever plays and queues
    /// silence after it, so the AI runs dry on zeros. Waits (until the
    /// playing buffer ends, at most 150 ms) only if sound is still queued
    /// or playing; otherwise what is queued already ends in silence.
    pub fn hush(&mut self) {
        let sounding = self.synth.is_active() || !self.tail_silent;
        self.synth.hush();
        if !sounding {
            return;
        }
        let start = timer::count();
        // The playing buffer lasts at most MAX_SAMPLES (128 ms).
        let limit = (timer::TICKS_PER_SECOND * 3 / 20) as u32;
        while STATUS.read() & STATUS_FULL != 0 {
            if timer::count().wrapping_sub(start) > limit {
                return; // the AI is stuck; nothing to wait for
            }
        }
        let fade = (self.rate as usize * ttt64_game::sound::RELEASE_MS as usize) / 1000;
        self.queue(fade + HUSH_PAD);
    }

    /// Fills the next buffer with `samples` stereo samples from the synth
    /// and queues it.
    fn queue(&mut self, samples: usize) {
        let samples = samples.clamp(MIN_SAMPLES, MAX_SAMPLES) & !1;
        let bytes = samples * SAMPLE_BYTES;
        if !self.synth.is_active() {
            // Nothing to mix: the shared zeros (the rotation below is only
            // for buffers that get written).
            let zeros = SILENCE.get() as *mut u32;
            self.tail_silent = true;
            Self::start_dma(zeros, bytes);
            return;
        }
        let index = self.next;
        self.next = (self.next + 1) % BUFFERS;
        // SAFETY: `index < BUFFERS`; this buffer is neither playing nor
        // queued (the FIFO holds at most the two filled before it), and only
        // this function touches the buffers.
        let slot = unsafe { (*BUFFERS_MEM.get()).0.as_mut_ptr().add(index) } as *mut u32;
        let start = Self::dma_start(slot, bytes);
        // Mixed in chunks by `Synth::fill` (runs of steady samples are
        // cheap), then duplicated to both channels.
        let mut chunk = [0i16; FILL_CHUNK];
        let mut i = 0;
        while i < samples {
            let n = FILL_CHUNK.min(samples - i);
            self.synth.fill(&mut chunk[..n]);
            for (j, &s) in chunk[..n].iter().enumerate() {
                let s = s as u16 as u32;
                // SAFETY: i + j < samples <= MAX_SAMPLES, inside this buffer
                // (with the spare samples when `start` moved).
                unsafe { start.add(i + j).write((s << 16) | s) };
            }
            i += n;
        }
        self.tail_silent = !self.synth.is_active();
        cache::writeback(start as usize, bytes);
        Self::start_dma(slot, bytes);
    }

    /// Where a DMA of `bytes` from the buffer at `slot` starts: the AI's
    /// address counter carries wrongly past a DMA that ends on an 8 KiB
    /// boundary (libultra's osAiSetNextBuffer works around it), so such a
    /// DMA starts 8 bytes later (every buffer has two spare samples).
    fn dma_start(slot: *mut u32, bytes: usize) -> *mut u32 {
        if (physical(slot) as usize + bytes) & 0x1FFF == 0 {
            // SAFETY: two spare samples at the end of every buffer.
            unsafe { slot.add(2) }
        } else {
            slot
        }
    }

    /// Queues `bytes` from the buffer at `slot` (already in RDRAM).
    fn start_dma(slot: *mut u32, bytes: usize) {
        DRAM_ADDR.write(physical(Self::dma_start(slot, bytes)));
        LEN.write(bytes as u32);
    }
}
