//! Headless video plugin for mupen64plus, used by `n64-harness`.
//!
//! It renders nothing. On every vertical interrupt (`UpdateScreen`) it hands
//! RDRAM and a copy of the VI registers to the callback the frontend
//! registered through `harness_video_set_callback`; the frontend decodes the
//! framebuffer at VI ORIGIN itself. Display lists (`ProcessDList`) are
//! ignored: the ROMs this is for draw with the CPU.
//!
//! All exports follow `m64p_plugin.h` / `m64p_common.h`.

#![deny(clippy::undocumented_unsafe_blocks)]

use m64p_abi::m64p::{self, GfxInfo};
use m64p_abi::side::{self, ViCallback, ViFrame};
use std::ffi::{c_int, c_uint, c_void};
use std::sync::Mutex;

/// RDRAM size when the core is too old to tell (GFX_INFO version < 2).
const DEFAULT_RDRAM_SIZE: u32 = 8 << 20;

/// The core's GFX_INFO, kept from `InitiateGFX`.
struct Gfx(GfxInfo);

// SAFETY: the pointers in GFX_INFO point into the core's static emulator
// state, valid from InitiateGFX until the ROM is closed; the core calls every
// plugin function from its emulation thread, and this plugin only reads
// through them (in UpdateScreen), never keeping references across calls.
unsafe impl Send for Gfx {}

static GFX: Mutex<Option<Gfx>> = Mutex::new(None);
/// The frontend's callback and its context pointer (stored as an address).
static CALLBACK: Mutex<Option<(ViCallback, usize)>> = Mutex::new(None);

m64p_abi::plugin_common_exports!(
    m64p::PLUGIN_GFX,
    m64p::GFX_API_VERSION,
    b"n64-harness video\0"
);

#[no_mangle]
pub extern "C" fn PluginShutdown() -> m64p::Error {
    *lock(&GFX) = None;
    m64p::ERR_SUCCESS
}

#[no_mangle]
pub extern "C" fn InitiateGFX(info: GfxInfo) -> c_int {
    *lock(&GFX) = Some(Gfx(info));
    1
}

#[no_mangle]
pub extern "C" fn RomOpen() -> c_int {
    1
}

#[no_mangle]
pub extern "C" fn RomClosed() {}

#[no_mangle]
pub extern "C" fn UpdateScreen() {
    let frame = {
        let gfx = lock(&GFX);
        let Some(Gfx(info)) = gfx.as_ref() else {
            return;
        };
        vi_frame(info)
    };
    let callback = *lock(&CALLBACK);
    if let (Some(frame), Some((cb, ctx))) = (frame, callback) {
        // SAFETY: the frontend registered `cb` with `ctx` and keeps both
        // valid until it unregisters; `frame` lives for the call.
        unsafe { cb(ctx as *mut c_void, &frame) };
    }
}

/// Snapshot of the VI registers plus the RDRAM pointer.
fn vi_frame(info: &GfxInfo) -> Option<ViFrame> {
    let regs = [
        info.vi_status_reg,
        info.vi_origin_reg,
        info.vi_width_reg,
        info.vi_h_start_reg,
        info.vi_v_start_reg,
        info.vi_x_scale_reg,
        info.vi_y_scale_reg,
    ];
    if info.rdram.is_null() || regs.iter().any(|r| r.is_null()) {
        return None;
    }
    // SAFETY: non-null pointers from GFX_INFO point at the core's VI
    // registers (and RDRAM size), valid while the ROM runs; we are on the
    // emulation thread, so nothing writes them concurrently.
    let read = |p: *mut c_uint| unsafe { p.read_volatile() };
    let rdram_size = if info.version >= 2 && !info.rdram_size.is_null() {
        // SAFETY: as above; present since GFX_INFO version 2.
        unsafe { info.rdram_size.read_volatile() }
    } else {
        DEFAULT_RDRAM_SIZE
    };
    Some(ViFrame {
        rdram: info.rdram,
        rdram_size,
        vi_status: read(info.vi_status_reg),
        vi_origin: read(info.vi_origin_reg),
        vi_width: read(info.vi_width_reg),
        vi_h_start: read(info.vi_h_start_reg),
        vi_v_start: read(info.vi_v_start_reg),
        vi_x_scale: read(info.vi_x_scale_reg),
        vi_y_scale: read(info.vi_y_scale_reg),
    })
}

#[no_mangle]
pub extern "C" fn ChangeWindow() {}

#[no_mangle]
pub extern "C" fn MoveScreen(_x: c_int, _y: c_int) {}

#[no_mangle]
pub extern "C" fn ProcessDList() {}

#[no_mangle]
pub extern "C" fn ProcessRDPList() {}

#[no_mangle]
pub extern "C" fn ShowCFB() {}

#[no_mangle]
pub extern "C" fn ViStatusChanged() {}

#[no_mangle]
pub extern "C" fn ViWidthChanged() {}

/// # Safety
/// Called by the core; this plugin has no rendered image, so it reports
/// a 0x0 screen and never writes `dest`.
#[no_mangle]
pub unsafe extern "C" fn ReadScreen2(
    _dest: *mut c_void,
    width: *mut c_int,
    height: *mut c_int,
    _front: c_int,
) {
    // SAFETY: width/height are null or valid out-pointers from the core.
    unsafe {
        if !width.is_null() {
            *width = 0;
        }
        if !height.is_null() {
            *height = 0;
        }
    }
}

#[no_mangle]
pub extern "C" fn SetRenderingCallback(_callback: Option<extern "C" fn(c_int)>) {}

#[no_mangle]
pub extern "C" fn ResizeVideoOutput(_width: c_int, _height: c_int) {}

#[no_mangle]
pub extern "C" fn FBRead(_addr: c_uint) {}

#[no_mangle]
pub extern "C" fn FBWrite(_addr: c_uint, _size: c_uint) {}

#[no_mangle]
pub extern "C" fn FBGetFrameBufferInfo(_p: *mut c_void) {}

/// Side channel: the ABI version this plugin was built with.
#[no_mangle]
pub extern "C" fn harness_video_abi_version() -> u32 {
    side::ABI_VERSION
}

/// Side channel: register (or, with `None`, remove) the frontend's
/// vertical-interrupt callback.
#[no_mangle]
pub extern "C" fn harness_video_set_callback(cb: Option<ViCallback>, ctx: *mut c_void) {
    *lock(&CALLBACK) = cb.map(|cb| (cb, ctx as usize));
}

/// Lock a mutex, ignoring poisoning (nothing here can leave state torn).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
