//! The C callbacks the plugins and the core call during a run, all on the
//! emulation thread: a vertical interrupt (the script's clock), the input
//! plugin asking for buttons and reporting the Rumble Pak motor, the audio
//! plugin's samples and rate, and the core's messages (IS-Viewer lines
//! among them).

use super::state::{say, step, Port, Screen, State};
use crate::emu::Hooks;
use crate::framebuffer::ViRegs;
use m64p_abi::m64p;
use m64p_abi::side::ViFrame;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::io::Write as _;
use std::sync::{Mutex, MutexGuard};

/// Shared between the callbacks (all on the emulation thread) and the
/// watchdog; `ctx` of every callback points at this.
pub(super) struct Shared {
    pub(super) state: Mutex<State>,
    pub(super) hooks: Mutex<Option<Hooks>>,
    pub(super) log: bool,
    pub(super) verbose: bool,
}

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Video plugin callback: one vertical interrupt.
pub(super) unsafe extern "C" fn vi_callback(ctx: *mut c_void, frame: *const ViFrame) {
    // SAFETY: `ctx` is the `Shared` registered in `run`, alive while the
    // callback is registered; `frame` is valid for this call.
    let (shared, vi) = unsafe { (&*(ctx as *const Shared), &*frame) };
    // SAFETY: the plugin passes the core's RDRAM and its size; it stays
    // valid (and unchanged: the emulation is paused in this callback) for
    // the duration of the call.
    let ram = unsafe { std::slice::from_raw_parts(vi.rdram, vi.rdram_size as usize) };
    let screen = Screen {
        ram,
        vi: ViRegs {
            ctrl: vi.vi_status,
            origin: vi.vi_origin,
            width: vi.vi_width,
            h_video: vi.vi_h_start,
            v_video: vi.vi_v_start,
            x_scale: vi.vi_x_scale,
            y_scale: vi.vi_y_scale,
        },
    };
    let Some(hooks) = *lock(&shared.hooks) else {
        return;
    };
    let stop = {
        let mut st = lock(&shared.state);
        if st.stopping {
            return;
        }
        st.frame += 1;
        if st.frame == 1 && st.limiter_on {
            st.limiter_on = false;
            let rc = hooks.unlimit_speed();
            if rc != m64p::ERR_SUCCESS {
                st.errors.push(format!(
                    "turning the speed limiter off failed (m64p_error {rc})"
                ));
            }
        }
        step(&mut st, Some(&screen), &hooks);
        st.track_screen(&screen);
        st.stopping = st.frame >= st.end;
        st.stopping
    };
    if stop {
        hooks.stop();
    }
}

/// Audio plugin callback: `frames` stereo samples just played.
pub(super) unsafe extern "C" fn samples_callback(
    ctx: *mut c_void,
    samples: *const i16,
    frames: u32,
) {
    if samples.is_null() {
        return;
    }
    // SAFETY: `ctx` is the `Shared` registered in `run`; the plugin passes
    // `2 * frames` interleaved samples, valid for this call.
    let (shared, samples) = unsafe {
        (
            &*(ctx as *const Shared),
            std::slice::from_raw_parts(samples, frames as usize * 2),
        )
    };
    let mut st = lock(&shared.state);
    let frame = st.frame;
    st.audio.push(frame, samples);
}

/// Audio plugin callback: the ROM set AI_DACRATE.
pub(super) unsafe extern "C" fn rate_callback(ctx: *mut c_void, system_type: c_int, dacrate: u32) {
    // SAFETY: `ctx` is the `Shared` registered in `run`.
    let shared = unsafe { &*(ctx as *const Shared) };
    let mut st = lock(&shared.state);
    let frame = st.frame;
    st.audio.rates.push((frame, system_type, dacrate));
}

/// Input plugin callback: the buttons of `port` (0..=3).
pub(super) unsafe extern "C" fn keys_callback(ctx: *mut c_void, port: c_int) -> u32 {
    // SAFETY: `ctx` is the `Shared` registered in `run`.
    let shared = unsafe { &*(ctx as *const Shared) };
    let st = lock(&shared.state);
    usize::try_from(port)
        .ok()
        .and_then(|p| st.ports.get(p))
        .map_or(0, Port::value)
}

/// Input plugin callback: the core started (`on` != 0) or stopped the
/// Rumble Pak motor of `port` (0..=3).
pub(super) unsafe extern "C" fn rumble_callback(ctx: *mut c_void, port: c_int, on: c_int) {
    // SAFETY: `ctx` is the `Shared` registered in `run`.
    let shared = unsafe { &*(ctx as *const Shared) };
    let Ok(port) = usize::try_from(port) else {
        return;
    };
    lock(&shared.state).rumble(port, on != 0);
}

/// Core and plugin messages; `IS64: ` lines are the ROM's IS-Viewer output.
pub(super) unsafe extern "C" fn debug_callback(
    ctx: *mut c_void,
    level: c_int,
    message: *const c_char,
) {
    if ctx.is_null() || message.is_null() {
        return;
    }
    // SAFETY: `ctx` is the `Shared` passed to CoreStartup/PluginStartup,
    // alive until after CoreShutdown; `message` is a NUL-terminated string
    // valid for this call.
    let (shared, message) = unsafe { (&*(ctx as *const Shared), CStr::from_ptr(message)) };
    let message = message.to_string_lossy();
    if let Some(text) = message.strip_prefix("IS64: ") {
        let mut st = lock(&shared.state);
        let frame = st.frame;
        if let Some(trace) = st.trace.as_mut() {
            let _ = writeln!(trace, "[{frame:>6}] {text}");
        }
        st.is_lines.push((frame, text.to_string()));
        drop(st);
        if shared.log {
            say(&format!("[{frame:>6}] {text}"));
        }
        return;
    }
    if shared.verbose || level == m64p::MSG_ERROR {
        let tag = match level {
            m64p::MSG_ERROR => "error",
            m64p::MSG_WARNING => "warning",
            m64p::MSG_INFO => "info",
            m64p::MSG_STATUS => "status",
            _ => "verbose",
        };
        // Never panic here (e.g. on a closed stderr): this is a C callback.
        let _ = writeln!(std::io::stderr(), "mupen64plus {tag}: {message}");
    }
}
