//! Scripted input plugin for mupen64plus, used by `n64-harness`.
//!
//! `GetKeys` asks the callback the frontend registered through
//! `harness_input_set_callback` for the port's `BUTTONS` value;
//! `harness_input_set_present` plugs and unplugs controllers at any time
//! (the core reads `CONTROL.Present` on every joybus poll). No raw joybus
//! handling: the core answers the PIF commands itself.
//!
//! All exports follow `m64p_plugin.h` / `m64p_common.h`.

#![deny(clippy::undocumented_unsafe_blocks)]

use m64p_abi::m64p::{self, Control, ControlInfo};
use m64p_abi::side::{self, KeysCallback};
use std::ffi::{c_int, c_uchar, c_void};
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::Mutex;

/// The core's `CONTROL Controls[4]`, from `InitiateControllers`.
static CONTROLS: AtomicPtr<Control> = AtomicPtr::new(std::ptr::null_mut());
/// Wanted `Present` per port; all connected until the frontend says otherwise.
static PRESENT: [AtomicBool; 4] = [
    AtomicBool::new(true),
    AtomicBool::new(true),
    AtomicBool::new(true),
    AtomicBool::new(true),
];
/// The frontend's callback and its context pointer (stored as an address).
static CALLBACK: Mutex<Option<(KeysCallback, usize)>> = Mutex::new(None);

m64p_abi::plugin_common_exports!(
    m64p::PLUGIN_INPUT,
    m64p::INPUT_API_VERSION,
    b"n64-harness input\0"
);

#[no_mangle]
pub extern "C" fn PluginShutdown() -> m64p::Error {
    CONTROLS.store(std::ptr::null_mut(), Ordering::SeqCst);
    m64p::ERR_SUCCESS
}

#[no_mangle]
pub extern "C" fn InitiateControllers(info: ControlInfo) {
    CONTROLS.store(info.controls, Ordering::SeqCst);
    for port in 0..4 {
        write_control(port);
    }
}

/// Copy the wanted presence of `port` into the core's `Controls[port]`.
fn write_control(port: usize) {
    let controls = CONTROLS.load(Ordering::SeqCst);
    if controls.is_null() || port >= 4 {
        return;
    }
    let present = PRESENT[port].load(Ordering::SeqCst);
    // SAFETY: `controls` is the core's `CONTROL Controls[4]` array (static
    // in the core, so valid until PluginShutdown clears our copy) and
    // port < 4. The core reads it on the emulation thread; the frontend only
    // calls harness_input_set_present from that thread or before Execute.
    unsafe {
        *controls.add(port) = Control {
            present: c_int::from(present),
            raw_data: 0,
            plugin: m64p::CONTROLLER_PAK_NONE,
            kind: 0,
        };
    }
}

/// # Safety
/// Called by the core with a valid `keys` pointer.
#[no_mangle]
pub unsafe extern "C" fn GetKeys(control: c_int, keys: *mut m64p::Buttons) {
    if keys.is_null() {
        return;
    }
    let callback = *lock(&CALLBACK);
    let value = match callback {
        // SAFETY: the frontend registered `cb` with `ctx` and keeps both
        // valid until it unregisters.
        Some((cb, ctx)) => unsafe { cb(ctx as *mut c_void, control) },
        None => 0,
    };
    // SAFETY: non-null `keys` points at the core's BUTTONS for this poll.
    unsafe { *keys = value };
}

#[no_mangle]
pub extern "C" fn ControllerCommand(_control: c_int, _command: *mut c_uchar) {}

#[no_mangle]
pub extern "C" fn ReadController(_control: c_int, _command: *mut c_uchar) {}

#[no_mangle]
pub extern "C" fn RomOpen() -> c_int {
    1
}

#[no_mangle]
pub extern "C" fn RomClosed() {}

#[no_mangle]
pub extern "C" fn SDL_KeyDown(_keymod: c_int, _keysym: c_int) {}

#[no_mangle]
pub extern "C" fn SDL_KeyUp(_keymod: c_int, _keysym: c_int) {}

/// Side channel: the ABI version this plugin was built with.
#[no_mangle]
pub extern "C" fn harness_input_abi_version() -> u32 {
    side::ABI_VERSION
}

/// Side channel: register (or, with `None`, remove) the frontend's
/// buttons callback.
#[no_mangle]
pub extern "C" fn harness_input_set_callback(cb: Option<KeysCallback>, ctx: *mut c_void) {
    *lock(&CALLBACK) = cb.map(|cb| (cb, ctx as usize));
}

/// Side channel: plug (`present != 0`) or unplug a controller on `port`
/// (0..=3). Returns 0, or -1 for a bad port.
#[no_mangle]
pub extern "C" fn harness_input_set_present(port: c_int, present: c_int) -> c_int {
    let Ok(port) = usize::try_from(port) else {
        return -1;
    };
    if port >= 4 {
        return -1;
    }
    PRESENT[port].store(present != 0, Ordering::SeqCst);
    write_control(port);
    0
}

/// Lock a mutex, ignoring poisoning (nothing here can leave state torn).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
