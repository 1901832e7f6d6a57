//! Capturing audio plugin for mupen64plus, used by `n64-harness`.
//!
//! It plays nothing. The core calls `AiLenChanged` whenever the emulated
//! Audio Interface has played samples, with AI_DRAM_ADDR/AI_LEN pointing at
//! them; the plugin copies them out of RDRAM (16-bit big-endian stereo, so
//! one host-endian RDRAM word is one `left << 16 | right` frame) and hands
//! them to the callback the frontend registered through
//! `harness_audio_set_callbacks`. `AiDacrateChanged` passes on the TV
//! standard and AI_DACRATE (the sample rate the ROM set).
//!
//! All exports follow `m64p_plugin.h` / `m64p_common.h`.

#![deny(clippy::undocumented_unsafe_blocks)]

use m64p_abi::m64p::{self, AudioInfo};
use m64p_abi::side::{self, AudioRateCallback, AudioSamplesCallback};
use std::ffi::{c_char, c_int, c_void};
use std::sync::Mutex;

/// The largest RDRAM the core emulates (with the Expansion Pak); AUDIO_INFO
/// does not say, so reads are kept inside this.
const RDRAM_MAX: usize = 8 << 20;
/// The largest DMA the AI takes (18-bit length register).
const DMA_MAX: usize = 1 << 18;

/// The core's AUDIO_INFO, kept from `InitiateAudio`.
struct Audio(AudioInfo);

// SAFETY: the pointers in AUDIO_INFO point into the core's static emulator
// state, valid from InitiateAudio until the ROM is closed; the core calls
// every plugin function from its emulation thread, and this plugin only
// reads through them, never keeping references across calls.
unsafe impl Send for Audio {}

static AUDIO: Mutex<Option<Audio>> = Mutex::new(None);

/// The frontend's callbacks and their context pointer (as an address).
#[derive(Clone, Copy)]
struct Callbacks {
    samples: Option<AudioSamplesCallback>,
    rate: Option<AudioRateCallback>,
    ctx: usize,
}

static CALLBACKS: Mutex<Option<Callbacks>> = Mutex::new(None);

m64p_abi::plugin_common_exports!(
    m64p::PLUGIN_AUDIO,
    m64p::AUDIO_API_VERSION,
    b"n64-harness audio\0"
);

#[no_mangle]
pub extern "C" fn PluginShutdown() -> m64p::Error {
    *lock(&AUDIO) = None;
    m64p::ERR_SUCCESS
}

#[no_mangle]
pub extern "C" fn InitiateAudio(info: AudioInfo) -> c_int {
    *lock(&AUDIO) = Some(Audio(info));
    1
}

#[no_mangle]
pub extern "C" fn RomOpen() -> c_int {
    1
}

#[no_mangle]
pub extern "C" fn RomClosed() {}

#[no_mangle]
pub extern "C" fn AiDacrateChanged(system_type: c_int) {
    let dacrate = {
        let audio = lock(&AUDIO);
        let Some(Audio(info)) = audio.as_ref() else {
            return;
        };
        if info.ai_dacrate_reg.is_null() {
            return;
        }
        // SAFETY: non-null register pointer from AUDIO_INFO, valid while the
        // ROM runs; read on the emulation thread.
        unsafe { info.ai_dacrate_reg.read_volatile() }
    };
    if let Some(Callbacks {
        rate: Some(cb),
        ctx,
        ..
    }) = *lock(&CALLBACKS)
    {
        // SAFETY: the frontend registered `cb` with `ctx` and keeps both
        // valid until it unregisters.
        unsafe { cb(ctx as *mut c_void, system_type, dacrate) };
    }
}

#[no_mangle]
pub extern "C" fn AiLenChanged() {
    let samples = {
        let audio = lock(&AUDIO);
        let Some(Audio(info)) = audio.as_ref() else {
            return;
        };
        played_samples(info)
    };
    let Some(samples) = samples.filter(|s| !s.is_empty()) else {
        return;
    };
    if let Some(Callbacks {
        samples: Some(cb),
        ctx,
        ..
    }) = *lock(&CALLBACKS)
    {
        let frames = (samples.len() / 2) as u32;
        // SAFETY: as in AiDacrateChanged; `samples` lives for the call.
        unsafe { cb(ctx as *mut c_void, samples.as_ptr(), frames) };
    }
}

/// The stereo samples at AI_DRAM_ADDR, AI_LEN bytes, interleaved L, R.
fn played_samples(info: &AudioInfo) -> Option<Vec<i16>> {
    if info.rdram.is_null() || info.ai_dram_addr_reg.is_null() || info.ai_len_reg.is_null() {
        return None;
    }
    // SAFETY: non-null register pointers from AUDIO_INFO, valid while the
    // ROM runs; read on the emulation thread.
    let (addr, len) = unsafe {
        (
            info.ai_dram_addr_reg.read_volatile() as usize & (RDRAM_MAX - 1) & !3,
            (info.ai_len_reg.read_volatile() as usize).min(DMA_MAX) & !3,
        )
    };
    let len = len.min(RDRAM_MAX - addr);
    let mut out = Vec::with_capacity(len / 2);
    for word_addr in (addr..addr + len).step_by(4) {
        // SAFETY: RDRAM is RDRAM_MAX bytes of host-endian u32 words in the
        // core (4-byte aligned), and word_addr + 4 <= RDRAM_MAX.
        let word = unsafe { info.rdram.add(word_addr).cast::<u32>().read_unaligned() };
        out.push((word >> 16) as u16 as i16);
        out.push(word as u16 as i16);
    }
    Some(out)
}

#[no_mangle]
pub extern "C" fn ProcessAList() {}

#[no_mangle]
pub extern "C" fn SetSpeedFactor(_percent: c_int) {}

#[no_mangle]
pub extern "C" fn VolumeUp() {}

#[no_mangle]
pub extern "C" fn VolumeDown() {}

#[no_mangle]
pub extern "C" fn VolumeGetLevel() -> c_int {
    100
}

#[no_mangle]
pub extern "C" fn VolumeSetLevel(_level: c_int) {}

#[no_mangle]
pub extern "C" fn VolumeMute() {}

#[no_mangle]
pub extern "C" fn VolumeGetString() -> *const c_char {
    c"100%".as_ptr()
}

/// Side channel: the ABI version this plugin was built with.
#[no_mangle]
pub extern "C" fn harness_audio_abi_version() -> u32 {
    side::ABI_VERSION
}

/// Side channel: register (or, with `None`s, remove) the frontend's
/// callbacks.
#[no_mangle]
pub extern "C" fn harness_audio_set_callbacks(
    samples: Option<AudioSamplesCallback>,
    rate: Option<AudioRateCallback>,
    ctx: *mut c_void,
) {
    *lock(&CALLBACKS) = if samples.is_none() && rate.is_none() {
        None
    } else {
        Some(Callbacks {
            samples,
            rate,
            ctx: ctx as usize,
        })
    };
}

/// Lock a mutex, ignoring poisoning (nothing here can leave state torn).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::c_uint;

    #[test]
    fn samples_are_read_as_left_right_words() {
        // Two frames at byte address 8: (1000, -1000), (-32768, 32767).
        let mut ram = vec![0u32; 8];
        ram[2] = (1000u32 << 16) | (-1000i16 as u16 as u32);
        ram[3] = (0x8000u32 << 16) | 0x7FFF;
        let mut addr: c_uint = 8;
        let mut len: c_uint = 8;
        let info = AudioInfo {
            rdram: ram.as_mut_ptr().cast(),
            dmem: std::ptr::null_mut(),
            imem: std::ptr::null_mut(),
            mi_intr_reg: std::ptr::null_mut(),
            ai_dram_addr_reg: &mut addr,
            ai_len_reg: &mut len,
            ai_control_reg: std::ptr::null_mut(),
            ai_status_reg: std::ptr::null_mut(),
            ai_dacrate_reg: std::ptr::null_mut(),
            ai_bitrate_reg: std::ptr::null_mut(),
            check_interrupts: None,
        };
        assert_eq!(
            played_samples(&info),
            Some(vec![1000, -1000, -32768, 32767])
        );
    }
}
