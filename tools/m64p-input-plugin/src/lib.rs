//! Scripted input plugin for mupen64plus, used by `n64-harness`.
//!
//! `GetKeys` asks the callback the frontend registered through
//! `harness_input_set_callback` for the port's `BUTTONS` value;
//! `harness_input_set_present` plugs and unplugs controllers at any time
//! (the core reads `CONTROL.Present` on every joybus poll), and
//! `harness_input_set_pak` puts a Rumble Pak in or takes it out
//! (`CONTROL.Plugin`, which the core also watches on every poll). No raw
//! joybus handling: the core answers the PIF commands itself, paks
//! included. The core reports the Rumble Pak's motor through
//! `ControllerCommand`, which passes it on to the callback registered with
//! `harness_input_set_rumble_callback`.
//!
//! All exports follow `m64p_plugin.h` / `m64p_common.h`.

#![deny(clippy::undocumented_unsafe_blocks)]

use m64p_abi::m64p::{self, Control, ControlInfo};
use m64p_abi::side::{self, KeysCallback, RumbleCallback};
use std::ffi::{c_int, c_uchar, c_void};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, Ordering};
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
/// Wanted `Plugin` (accessory pak) per port; no pak until the frontend
/// says otherwise.
static PAK: [AtomicI32; 4] = [
    AtomicI32::new(m64p::CONTROLLER_PAK_NONE),
    AtomicI32::new(m64p::CONTROLLER_PAK_NONE),
    AtomicI32::new(m64p::CONTROLLER_PAK_NONE),
    AtomicI32::new(m64p::CONTROLLER_PAK_NONE),
];
/// The frontend's callback and its context pointer (stored as an address).
static CALLBACK: Mutex<Option<(KeysCallback, usize)>> = Mutex::new(None);
/// The frontend's rumble callback and its context pointer.
static RUMBLE_CALLBACK: Mutex<Option<(RumbleCallback, usize)>> = Mutex::new(None);

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

/// Copy the wanted presence and pak of `port` into the core's
/// `Controls[port]`.
fn write_control(port: usize) {
    let controls = CONTROLS.load(Ordering::SeqCst);
    if controls.is_null() || port >= 4 {
        return;
    }
    let present = PRESENT[port].load(Ordering::SeqCst);
    let pak = PAK[port].load(Ordering::SeqCst);
    // SAFETY: `controls` is the core's `CONTROL Controls[4]` array (static
    // in the core, so valid until PluginShutdown clears our copy) and
    // port < 4. The core reads it on the emulation thread; the frontend only
    // calls harness_input_set_present/_pak from that thread or before
    // Execute.
    unsafe {
        *controls.add(port) = Control {
            present: c_int::from(present),
            raw_data: 0,
            plugin: pak,
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

/// Bytes of the rumble command the core builds (`23 01 03 c0 1b`, 32
/// data bytes, a data CRC byte): all this function reads.
const RUMBLE_COMMAND_LEN: usize = 0x26;

/// With `RawData` 0 the core calls this only to report a Rumble Pak's
/// motor (a joybus pak write to 0xC000, [`m64p::rumble_command`]); the
/// motor state goes to the frontend's rumble callback. Anything else is
/// ignored.
///
/// # Safety
/// Called by the core with a null pointer or one to its command buffer of
/// at least 0x26 bytes (`uint8_t cmd[0x26]` in `input_plugin_rumble_exec`;
/// a PIF RAM command in raw mode, which this plugin does not ask for).
#[no_mangle]
pub unsafe extern "C" fn ControllerCommand(control: c_int, command: *mut c_uchar) {
    if command.is_null() {
        return;
    }
    // SAFETY: non-null `command` points at the core's command buffer of
    // RUMBLE_COMMAND_LEN bytes (see above), valid for this call.
    let bytes = unsafe { std::slice::from_raw_parts(command.cast_const(), RUMBLE_COMMAND_LEN) };
    let Some(on) = m64p::rumble_command(bytes) else {
        return;
    };
    let callback = *lock(&RUMBLE_CALLBACK);
    if let Some((cb, ctx)) = callback {
        // SAFETY: the frontend registered `cb` with `ctx` and keeps both
        // valid until it unregisters.
        unsafe { cb(ctx as *mut c_void, control, c_int::from(on)) };
    }
}

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

/// Side channel: put an accessory pak (`m64p::CONTROLLER_PAK_NONE` or
/// `m64p::CONTROLLER_PAK_RUMBLE`) in the controller on `port` (0..=3).
/// Returns 0, or -1 for a bad port or pak.
#[no_mangle]
pub extern "C" fn harness_input_set_pak(port: c_int, pak: c_int) -> c_int {
    let Ok(port) = usize::try_from(port) else {
        return -1;
    };
    if port >= 4 || ![m64p::CONTROLLER_PAK_NONE, m64p::CONTROLLER_PAK_RUMBLE].contains(&pak) {
        return -1;
    }
    PAK[port].store(pak, Ordering::SeqCst);
    write_control(port);
    0
}

/// Side channel: register (or, with `None`, remove) the frontend's
/// rumble callback.
#[no_mangle]
pub extern "C" fn harness_input_set_rumble_callback(cb: Option<RumbleCallback>, ctx: *mut c_void) {
    *lock(&RUMBLE_CALLBACK) = cb.map(|cb| (cb, ctx as usize));
}

/// Lock a mutex, ignoring poisoning (nothing here can leave state torn).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command mupen64plus-core 2.5.9 builds for a motor write
    /// (`input_plugin_rumble_exec`): `23 01 03 c0 1b`, 32 data bytes of
    /// 0x01 (start) or 0x00 (stop), a dummy data CRC.
    fn core_rumble_command(on: bool) -> [u8; RUMBLE_COMMAND_LEN] {
        let mut cmd = [u8::from(on); RUMBLE_COMMAND_LEN];
        cmd[..5].copy_from_slice(&[0x23, 0x01, m64p::JCMD_PAK_WRITE, 0xc0, 0x1b]);
        cmd[0x25] = 0;
        cmd
    }

    unsafe extern "C" fn record(ctx: *mut c_void, port: c_int, on: c_int) {
        // SAFETY: the test registers a pointer to its Mutex<Vec> as `ctx`.
        let seen = unsafe { &*(ctx as *const Mutex<Vec<(c_int, c_int)>>) };
        lock(seen).push((port, on));
    }

    #[test]
    fn the_cores_rumble_commands_reach_the_callback() {
        let seen: Mutex<Vec<(c_int, c_int)>> = Mutex::new(Vec::new());
        let ctx = &seen as *const _ as *mut c_void;
        harness_input_set_rumble_callback(Some(record), ctx);
        let mut start = core_rumble_command(true);
        let mut stop = core_rumble_command(false);
        // Not the motor: the probe write of libdragon's accessory detection
        // (0x8000), a pak read, and a controller read command.
        let mut probe = core_rumble_command(true);
        probe[3..5].copy_from_slice(&[0x80, 0x01]);
        probe[5..37].fill(0x80);
        let mut read = core_rumble_command(false);
        read[..5].copy_from_slice(&[0x03, 0x21, 0x02, 0xc0, 0x1b]);
        let mut buttons = [0u8; RUMBLE_COMMAND_LEN];
        buttons[..3].copy_from_slice(&[0x01, 0x04, 0x01]);
        // SAFETY: every buffer is RUMBLE_COMMAND_LEN bytes; null is allowed.
        unsafe {
            ControllerCommand(0, start.as_mut_ptr());
            ControllerCommand(0, probe.as_mut_ptr());
            ControllerCommand(0, read.as_mut_ptr());
            ControllerCommand(0, buttons.as_mut_ptr());
            ControllerCommand(0, std::ptr::null_mut());
            ControllerCommand(0, stop.as_mut_ptr());
            ControllerCommand(3, start.as_mut_ptr());
            ControllerCommand(3, stop.as_mut_ptr());
        }
        harness_input_set_rumble_callback(None, std::ptr::null_mut());
        // SAFETY: as above; no callback is registered any more.
        unsafe { ControllerCommand(2, start.as_mut_ptr()) };
        assert_eq!(*lock(&seen), [(0, 1), (0, 0), (3, 1), (3, 0)]);
    }

    #[test]
    fn rumble_commands_decode_like_the_cores_pak() {
        let start = core_rumble_command(true);
        assert_eq!(m64p::rumble_command(&start), Some(true));
        assert_eq!(
            m64p::rumble_command(&core_rumble_command(false)),
            Some(false)
        );
        // The address checksum bits do not matter; the last data byte does.
        let mut other_crc = start;
        other_crc[4] = 0x05;
        assert_eq!(m64p::rumble_command(&other_crc), Some(true));
        let mut last_zero = start;
        last_zero[36] = 0;
        assert_eq!(m64p::rumble_command(&last_zero), Some(false));
        let mut other_address = start;
        other_address[3] = 0xb0;
        assert_eq!(m64p::rumble_command(&other_address), None);
        assert_eq!(m64p::rumble_command(&start[..36]), None);
    }

    #[test]
    fn paks_and_presence_reach_the_cores_controls() {
        let mut controls = [Control::default(); 4];
        InitiateControllers(ControlInfo {
            controls: controls.as_mut_ptr(),
        });
        assert_eq!(harness_input_set_pak(1, m64p::CONTROLLER_PAK_RUMBLE), 0);
        assert_eq!(harness_input_set_present(1, 0), 0);
        assert_eq!(harness_input_set_pak(4, m64p::CONTROLLER_PAK_RUMBLE), -1);
        assert_eq!(harness_input_set_pak(-1, m64p::CONTROLLER_PAK_NONE), -1);
        assert_eq!(harness_input_set_pak(0, 2), -1);
        PluginShutdown();
        let plugins: Vec<c_int> = controls.iter().map(|c| c.plugin).collect();
        let present: Vec<c_int> = controls.iter().map(|c| c.present).collect();
        assert_eq!(plugins, [1, 3, 1, 1]);
        assert_eq!(present, [1, 0, 1, 1]);
        assert!(controls.iter().all(|c| c.raw_data == 0));
        // Written again (pak kept, presence restored) when the core calls
        // InitiateControllers for the next ROM.
        assert_eq!(harness_input_set_present(1, 1), 0);
        let mut again = [Control::default(); 4];
        InitiateControllers(ControlInfo {
            controls: again.as_mut_ptr(),
        });
        assert_eq!((again[1].plugin, again[1].present), (3, 1));
        assert_eq!(harness_input_set_pak(1, m64p::CONTROLLER_PAK_NONE), 0);
        PluginShutdown();
        assert_eq!((again[1].plugin, again[1].present), (1, 1));
    }
}
