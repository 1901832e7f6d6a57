//! Sound: the game's synthesizer ([`Synth`]) feeding libdragon's audio
//! module.
//!
//! libdragon sets the Audio Interface's DAC from the console's video clock
//! (16 kHz asked, 15,998 Hz on NTSC), keeps a ring of [`BUFFERS`] stereo
//! buffers of 1/25 s (632 samples at 16 kHz), queues them to the AI from
//! its interrupt, and works around the AI's 8 KiB-boundary DMA bug. The
//! main loop tops the ring up once a pass ([`Audio::feed`]): each free
//! buffer is filled from the synthesizer (zeros while it is quiet, most of
//! the time). Three buffers hold 119 ms: a cue is heard one to three
//! buffers after it starts, and a main-loop pass may take up to two
//! buffers' time before the AI runs dry.
//!
//! The main loop's frames go on while the computer searches (`think.rs`
//! runs them from inside the search), so the ring is fed every frame,
//! thinking or not.

use ttt64_game::sound::SAMPLE_RATE;
use ttt64_game::{Cue, Synth};

use libdragon_sys as sys;

/// Buffers in libdragon's ring.
pub const BUFFERS: i32 = 3;

/// Samples synthesized per call (a stack buffer).
const FILL_CHUNK: usize = 256;

pub struct Audio {
    synth: Synth,
    rate: u32,
    /// Samples (stereo frames) per libdragon buffer.
    buffer_samples: usize,
}

impl Audio {
    /// Starts the AI at [`SAMPLE_RATE`] through libdragon (once, at boot).
    pub fn init() -> Audio {
        // SAFETY: once, at boot, after the constructors set up interrupts:
        // audio_init programs the AI, allocates its ring and takes the AI
        // interrupt.
        let (rate, buffer_samples) = unsafe {
            sys::audio_init(SAMPLE_RATE as i32, BUFFERS);
            (sys::audio_get_frequency(), sys::audio_get_buffer_length())
        };
        let rate = rate.max(1) as u32;
        Audio {
            synth: Synth::new(rate),
            rate,
            buffer_samples: buffer_samples.max(0) as usize,
        }
    }

    /// The DAC's real sample rate (Hz).
    pub fn rate(&self) -> u32 {
        self.rate
    }

    /// Samples per buffer of libdragon's ring.
    pub fn buffer_samples(&self) -> usize {
        self.buffer_samples
    }

    pub fn play(&mut self, cue: Cue) {
        self.synth.play(cue);
    }

    /// Fills every free buffer of the ring (never waits).
    pub fn feed(&mut self) {
        // SAFETY: audio_can_write only reads the ring's state.
        while unsafe { sys::audio_can_write() } != 0 {
            self.fill_next();
        }
    }

    /// Fills the next buffer of the ring from the synthesizer and queues it
    /// (audio_write_begin waits for a free one).
    fn fill_next(&mut self) {
        // SAFETY: audio_write_begin returns libdragon's next free buffer of
        // `buffer_samples` interleaved stereo i16 frames, ours until
        // audio_write_end.
        let buffer = unsafe { sys::audio_write_begin() };
        if buffer.is_null() {
            return;
        }
        // SAFETY: see above: 2 * buffer_samples i16s, exclusively ours.
        let out = unsafe { core::slice::from_raw_parts_mut(buffer, 2 * self.buffer_samples) };
        if self.synth.is_active() {
            let mut chunk = [0i16; FILL_CHUNK];
            for frames in out.chunks_mut(2 * FILL_CHUNK) {
                let mono = &mut chunk[..frames.len() / 2];
                self.synth.fill(mono);
                for (frame, &s) in frames.chunks_exact_mut(2).zip(mono.iter()) {
                    frame[0] = s;
                    frame[1] = s;
                }
            }
        } else {
            out.fill(0);
        }
        // SAFETY: hands the buffer filled above back to libdragon's ring.
        unsafe { sys::audio_write_end() };
    }
}
