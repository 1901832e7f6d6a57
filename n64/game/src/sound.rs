//! Sound effects: a tiny synthesizer for the game's cues.
//!
//! Each [`Cue`] is a short sequence of notes (square or triangle waves, or
//! rests). [`Synth`] plays up to [`VOICES`] cues at once and mixes them into
//! mono 16-bit samples at any sample rate. Integer math only, no tables and
//! no randomness: the same cues at the same sample positions always give the
//! same samples. Every note fades in over [`ATTACK_MS`] and out over
//! [`RELEASE_MS`] (a cue that takes over a voice fades the old one out the
//! same way), so no cue starts or stops with a click.

/// The sample rate the console asks the audio DAC for (the real rate is the
/// nearest the DAC's clock divider gives, see the ROM's `audio.rs`). 16 kHz:
/// the highest note is 2.6 kHz, and mixing costs ~2.5 us a sample in the
/// emulator, so 32 kHz took up to 2.6 ms of a 16.7 ms frame.
pub const SAMPLE_RATE: u32 = 16_000;
/// Cues that can sound at once; a further cue takes over the oldest voice
/// (after fading it out).
pub const VOICES: usize = 4;
/// Fade-in of every note, in milliseconds.
pub const ATTACK_MS: u32 = 2;
/// Fade-out of every note (and of a replaced cue), in milliseconds.
pub const RELEASE_MS: u32 = 5;

/// The sounds the game makes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cue {
    /// The cursor moved (board, menu, pause menu) or a menu value changed.
    Cursor,
    /// A choice was confirmed (title, start, pause menu, play again).
    Confirm,
    /// An X was placed.
    PlaceX,
    /// An O was placed (lower than X).
    PlaceO,
    /// A move on a taken square: a low buzz.
    Illegal,
    /// Moves were taken back.
    Undo,
    /// A hint is shown.
    Hint,
    /// The game was paused or resumed.
    Pause,
    /// A player won: a rising jingle.
    Win,
    /// The computer beat the player: a falling jingle.
    Loss,
    /// A draw: two equal notes.
    Draw,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Wave {
    Square,
    Triangle,
}

/// One note of a cue; `hz == 0` is a rest.
#[derive(Copy, Clone, Debug)]
struct Note {
    hz: u32,
    ms: u32,
    wave: Wave,
}

const fn sq(hz: u32, ms: u32) -> Note {
    Note {
        hz,
        ms,
        wave: Wave::Square,
    }
}

const fn tri(hz: u32, ms: u32) -> Note {
    Note {
        hz,
        ms,
        wave: Wave::Triangle,
    }
}

const fn rest(ms: u32) -> Note {
    Note {
        hz: 0,
        ms,
        wave: Wave::Square,
    }
}

/// Peak amplitudes: four voices at full level stay inside i16.
const SQUARE_LEVEL: i32 = 5_000;
const TRIANGLE_LEVEL: i32 = 7_000;

impl Cue {
    /// Every cue.
    pub const ALL: [Cue; 11] = [
        Cue::Cursor,
        Cue::Confirm,
        Cue::PlaceX,
        Cue::PlaceO,
        Cue::Illegal,
        Cue::Undo,
        Cue::Hint,
        Cue::Pause,
        Cue::Win,
        Cue::Loss,
        Cue::Draw,
    ];

    /// Name in the log (`sound <name>`).
    pub const fn name(self) -> &'static str {
        match self {
            Cue::Cursor => "cursor",
            Cue::Confirm => "confirm",
            Cue::PlaceX => "place-x",
            Cue::PlaceO => "place-o",
            Cue::Illegal => "illegal",
            Cue::Undo => "undo",
            Cue::Hint => "hint",
            Cue::Pause => "pause",
            Cue::Win => "win",
            Cue::Loss => "loss",
            Cue::Draw => "draw",
        }
    }

    fn notes(self) -> &'static [Note] {
        match self {
            Cue::Cursor => const { &[tri(1568, 30)] },
            Cue::Confirm => const { &[sq(1047, 45), sq(1568, 75)] },
            // X an octave above O.
            Cue::PlaceX => const { &[sq(1319, 100)] },
            Cue::PlaceO => const { &[sq(659, 100)] },
            Cue::Illegal => const { &[sq(98, 110), rest(30), sq(98, 140)] },
            Cue::Undo => const { &[tri(784, 60), tri(523, 90)] },
            Cue::Hint => const { &[tri(1760, 45), tri(2217, 45), tri(2637, 90)] },
            Cue::Pause => const { &[tri(880, 60), rest(30), tri(880, 90)] },
            // C5 E5 G5 C6.
            Cue::Win => const { &[sq(523, 120), sq(659, 120), sq(784, 120), sq(1047, 320)] },
            // G4 E4 C4 G3.
            Cue::Loss => const { &[tri(392, 160), tri(330, 160), tri(262, 160), tri(196, 380)] },
            Cue::Draw => const { &[tri(440, 170), tri(440, 260)] },
        }
    }

    /// Length of the cue in samples at `rate`.
    pub fn samples(self, rate: u32) -> u32 {
        self.notes().iter().map(|n| note_samples(n, rate)).sum()
    }
}

fn note_samples(note: &Note, rate: u32) -> u32 {
    note.ms.saturating_mul(rate) / 1000
}

fn ms_samples(ms: u32, rate: u32) -> u32 {
    (ms.saturating_mul(rate) / 1000).max(1)
}

/// One voice: a cue being played, note by note.
#[derive(Copy, Clone, Debug)]
struct Voice {
    cue: Option<Cue>,
    note: usize,
    /// Sample position inside the note.
    pos: u32,
    phase: u32,
    /// Fading out: samples left of the fade (of `release`).
    fade: Option<u32>,
    /// Started when the fade ends (a cue that took this voice over).
    next: Option<Cue>,
    /// When the cue started, in [`Synth`] cue order (oldest is stolen).
    started: u32,
    /// The current note's length in samples and phase step per sample, set
    /// at its first sample (`pos == 0`): divisions once a note, not once a
    /// sample (a 64-bit division is a library call on the console's MIPS II).
    len: u32,
    step: u32,
}

impl Voice {
    const IDLE: Voice = Voice {
        cue: None,
        note: 0,
        pos: 0,
        phase: 0,
        fade: None,
        next: None,
        started: 0,
        len: 0,
        step: 0,
    };

    fn start(&mut self, cue: Cue, started: u32) {
        *self = Voice {
            cue: Some(cue),
            started,
            ..Voice::IDLE
        };
    }
}

/// The mixer and its voices.
#[derive(Clone, Debug)]
pub struct Synth {
    rate: u32,
    attack: u32,
    release: u32,
    voices: [Voice; VOICES],
    cues_started: u32,
}

impl Synth {
    /// A silent synth producing `rate` samples per second (at least 1000).
    pub fn new(rate: u32) -> Synth {
        let rate = rate.max(1000);
        Synth {
            rate,
            attack: ms_samples(ATTACK_MS, rate),
            release: ms_samples(RELEASE_MS, rate),
            voices: [Voice::IDLE; VOICES],
            cues_started: 0,
        }
    }

    /// Samples per second.
    pub fn rate(&self) -> u32 {
        self.rate
    }

    /// Starts `cue` on a free voice, or fades out the oldest cue and starts
    /// it there right after.
    pub fn play(&mut self, cue: Cue) {
        self.cues_started = self.cues_started.wrapping_add(1);
        let started = self.cues_started;
        if let Some(v) = self.voices.iter_mut().find(|v| v.cue.is_none()) {
            v.start(cue, started);
            return;
        }
        // All busy: take over the oldest cue not already being replaced.
        let release = self.release;
        let Some(victim) = self
            .voices
            .iter_mut()
            .max_by_key(|v| (v.next.is_none(), started.wrapping_sub(v.started)))
        else {
            return;
        };
        victim.fade = Some(victim.fade.unwrap_or(release));
        victim.next = Some(cue);
        victim.started = started;
    }

    /// Whether anything is sounding (or about to).
    pub fn is_active(&self) -> bool {
        self.voices.iter().any(|v| v.cue.is_some())
    }

    /// The next mixed sample.
    pub fn next_sample(&mut self) -> i16 {
        let (rate, attack, release) = (self.rate, self.attack, self.release);
        let mut mix: i32 = 0;
        for v in &mut self.voices {
            mix += voice_sample(v, rate, attack, release);
        }
        mix.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
    }

    /// Fills `out` with the next samples: the same samples as calling
    /// [`Synth::next_sample`] for each, but voice by voice in runs, so the
    /// steady middle of a note costs a few instructions a sample (the
    /// console mixes a frame's worth inside its 16 ms frame).
    pub fn fill(&mut self, out: &mut [i16]) {
        let (rate, attack, release) = (self.rate, self.attack, self.release);
        let mut mix = [0i32; MIX_CHUNK];
        for chunk in out.chunks_mut(MIX_CHUNK) {
            let mix = &mut mix[..chunk.len()];
            mix.fill(0);
            for v in &mut self.voices {
                mix_voice(v, mix, rate, attack, release);
            }
            for (o, m) in chunk.iter_mut().zip(mix.iter()) {
                *o = (*m).clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
            }
        }
    }
}

/// Samples mixed at a time by [`Synth::fill`].
const MIX_CHUNK: usize = 256;

/// Adds the next `out.len()` samples of `v` to `out`: inside a note (not its
/// first or last sample, no fade) in a tight loop, every other sample
/// through [`voice_sample`].
fn mix_voice(v: &mut Voice, out: &mut [i32], rate: u32, attack: u32, release: u32) {
    let mut i = 0;
    while i < out.len() {
        let Some(cue) = v.cue else {
            return;
        };
        let inside = match cue.notes().get(v.note) {
            // pos + 1 < len: the voice stays on this note for the run.
            Some(note) if v.pos > 0 && v.fade.is_none() && v.pos + 1 < v.len => {
                Some((note, ((v.len - 1 - v.pos) as usize).min(out.len() - i)))
            }
            _ => None,
        };
        let Some((note, n)) = inside else {
            out[i] += voice_sample(v, rate, attack, release);
            i += 1;
            continue;
        };
        let (mut phase, step, mut pos, len) = (v.phase, v.step, v.pos, v.len);
        // Full gain from sample attack - 1 to sample len - release: a run
        // either lies inside that stretch (no envelope to compute) or stops
        // at its start.
        let (full_from, full_to) = (attack.saturating_sub(1), len.saturating_sub(release));
        let full = pos >= full_from && pos <= full_to;
        let n = if full {
            n.min((full_to - pos + 1) as usize)
        } else if pos < full_from {
            n.min((full_from - pos) as usize)
        } else {
            n
        };
        let run = &mut out[i..i + n];
        if note.hz != 0 && full {
            match note.wave {
                Wave::Square => {
                    for o in run {
                        let wave = if phase < 0x8000_0000 { 32_767 } else { -32_768 };
                        *o += (wave * SQUARE_LEVEL) >> 15;
                        phase = phase.wrapping_add(step);
                    }
                }
                Wave::Triangle => {
                    for o in run {
                        *o += (triangle(phase) * TRIANGLE_LEVEL) >> 15;
                        phase = phase.wrapping_add(step);
                    }
                }
            }
            pos += n as u32;
        } else if note.hz != 0 {
            match note.wave {
                Wave::Square => {
                    for o in run {
                        let wave = if phase < 0x8000_0000 { 32_767 } else { -32_768 };
                        let gain = envelope(pos, len, attack, release);
                        *o += (((wave * SQUARE_LEVEL) >> 15) * gain) >> 15;
                        phase = phase.wrapping_add(step);
                        pos += 1;
                    }
                }
                Wave::Triangle => {
                    for o in run {
                        let gain = envelope(pos, len, attack, release);
                        *o += (((triangle(phase) * TRIANGLE_LEVEL) >> 15) * gain) >> 15;
                        phase = phase.wrapping_add(step);
                        pos += 1;
                    }
                }
            }
        } else {
            phase = phase.wrapping_add(step.wrapping_mul(n as u32));
            pos += n as u32;
        }
        v.phase = phase;
        v.pos = pos;
        i += n;
    }
}

/// A note's gain (Q15) at sample `pos` of `len`: ramps up over `attack`
/// samples and down over the last `release`, full in between (no division
/// there: that is most samples).
#[inline(always)]
fn envelope(pos: u32, len: u32, attack: u32, release: u32) -> i32 {
    let up = if pos.saturating_add(1) >= attack {
        32_768
    } else {
        (pos + 1) * 32_768 / attack
    };
    let left = len.saturating_sub(pos);
    let down = if left >= release {
        32_768
    } else {
        left * 32_768 / release
    };
    up.min(down) as i32
}

/// The triangle wave at `phase`: starts at 0 and rising (a quarter period
/// into the ramp), -32768..=32766.
fn triangle(phase: u32) -> i32 {
    let t = (phase.wrapping_add(0x4000_0000) >> 16) as i32; // 0..65535
    if t < 32_768 {
        t * 2 - 32_768
    } else {
        (65_535 - t) * 2 - 32_768
    }
}

/// One sample of one voice, advancing it.
fn voice_sample(v: &mut Voice, rate: u32, attack: u32, release: u32) -> i32 {
    let Some(cue) = v.cue else {
        return 0;
    };
    let notes = cue.notes();
    let Some(note) = notes.get(v.note) else {
        *v = Voice::IDLE;
        return 0;
    };
    if v.pos == 0 {
        v.len = note_samples(note, rate);
        v.step = ((u64::from(note.hz) << 32) / u64::from(rate)) as u32;
    }
    let len = v.len;
    let mut gain = envelope(v.pos, len, attack, release);
    if let Some(left) = v.fade {
        gain = gain * (left as i32) / (release.max(1) as i32);
    }
    let value = if note.hz == 0 {
        0
    } else {
        let (wave, level) = match note.wave {
            Wave::Square => (
                if v.phase < 0x8000_0000 {
                    32_767
                } else {
                    -32_768
                },
                SQUARE_LEVEL,
            ),
            Wave::Triangle => (triangle(v.phase), TRIANGLE_LEVEL),
        };
        let scaled = (wave * level) >> 15;
        (scaled * gain) >> 15
    };
    v.phase = v.phase.wrapping_add(v.step);
    v.pos += 1;
    if v.pos >= len {
        v.note += 1;
        v.pos = 0;
        v.phase = 0;
        if v.note >= notes.len() && v.fade.is_none() {
            *v = Voice::IDLE;
            return value;
        }
    }
    if let Some(left) = v.fade {
        let left = left.saturating_sub(1);
        if left == 0 || v.note >= notes.len() {
            match v.next {
                Some(next) => {
                    let started = v.started;
                    v.start(next, started);
                }
                None => *v = Voice::IDLE,
            }
        } else {
            v.fade = Some(left);
        }
    }
    value
}
