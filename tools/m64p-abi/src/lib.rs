//! The C ABI shared by `n64-harness` and its mupen64plus plugins (video,
//! input, audio).
//!
//! Two halves:
//!
//! * [`m64p`]: the few structs, constants and function types of the
//!   mupen64plus plugin API (`/usr/include/mupen64plus/m64p_plugin.h`,
//!   `m64p_types.h`, `m64p_common.h`) that the plugins and the frontend use.
//! * [`side`]: the harness side channel. Each plugin exports a few extra
//!   `harness_*` functions. The frontend `dlopen`s the plugin itself, calls
//!   them to register its callbacks, and hands the same library handle to
//!   `CoreAttachPlugin`, so frontend and core share one copy of the plugin's
//!   state. The plugins keep no test logic: they only forward.
//!
//! Everything here is plain data and function-pointer types, plus the
//! [`plugin_common_exports!`] macro that writes the `PluginGetVersion` and
//! `PluginStartup` exports both plugins need (its `unsafe` expands in the
//! plugin crate, with its SAFETY comment).
#![no_std]

/// Types and constants from the mupen64plus headers.
pub mod m64p {
    use core::ffi::{c_char, c_int, c_uint, c_void};

    /// `m64p_error`.
    pub type Error = c_int;
    pub const ERR_SUCCESS: Error = 0;
    pub const ERR_NOT_INIT: Error = 1;
    pub const ERR_INCOMPATIBLE: Error = 3;
    pub const ERR_INPUT_ASSERT: Error = 4;

    /// `m64p_plugin_type`.
    pub type PluginType = c_int;
    pub const PLUGIN_RSP: PluginType = 1;
    pub const PLUGIN_GFX: PluginType = 2;
    pub const PLUGIN_AUDIO: PluginType = 3;
    pub const PLUGIN_INPUT: PluginType = 4;

    /// API versions this crate's plugins implement (the core checks the major
    /// number, the high 16 bits).
    pub const GFX_API_VERSION: c_int = 0x02_0200;
    pub const INPUT_API_VERSION: c_int = 0x02_0100;
    pub const AUDIO_API_VERSION: c_int = 0x02_0000;

    /// `m64p_system_type` (the ROM's TV standard, from its header).
    pub const SYSTEM_NTSC: c_int = 0;
    pub const SYSTEM_PAL: c_int = 1;
    pub const SYSTEM_MPAL: c_int = 2;

    /// `m64p_msg_level`.
    pub const MSG_ERROR: c_int = 1;
    pub const MSG_WARNING: c_int = 2;
    pub const MSG_INFO: c_int = 3;
    pub const MSG_STATUS: c_int = 4;
    pub const MSG_VERBOSE: c_int = 5;

    /// `CONTROL.Plugin` (`PLUGIN_NONE`): no accessory pak.
    pub const CONTROLLER_PAK_NONE: c_int = 1;
    /// `CONTROL.Plugin` (`PLUGIN_RUMBLE_PAK`): a Rumble Pak. With
    /// `RawData` 0 the core emulates the pak's joybus side itself (probe at
    /// 0x8000 reads 0x80, motor at 0xC000) and reports each motor write
    /// to the plugin's `ControllerCommand` (see [`rumble_command`]).
    pub const CONTROLLER_PAK_RUMBLE: c_int = 3;

    /// Joybus command byte of a controller-pak write (`JCMD_PAK_WRITE`).
    pub const JCMD_PAK_WRITE: u8 = 0x03;
    /// Pak address of the Rumble Pak's motor register.
    pub const RUMBLE_MOTOR_ADDRESS: u16 = 0xC000;

    /// Decode a command the core passes to the input plugin's
    /// `ControllerCommand`: `Some(true)` for a Rumble Pak motor start,
    /// `Some(false)` for a stop, `None` for anything else.
    ///
    /// `command` is the joybus command as the core lays it out: byte 0 the
    /// number of bytes sent (35 for a pak write: command, 2 address bytes,
    /// 32 data bytes), byte 1 the number received, byte 2 the command,
    /// bytes 3-4 the address (its low 5 bits are a checksum), then the
    /// data. mupen64plus-core 2.5.9 (`input_plugin_rumble_exec`,
    /// src/backends/plugins_compat/input_plugin_compat.c) sends
    /// `23 01 03 c0 1b` and 32 bytes of 0x01 (start) or 0x00 (stop) for
    /// every write the ROM makes to 0xC000, and a stop whenever the pak is
    /// plugged, pulled out or powered on; like the core's rumble pak
    /// (`write_rumblepak`), the last data byte decides.
    pub fn rumble_command(command: &[u8]) -> Option<bool> {
        let [tx, _rx, cmd, addr_hi, addr_lo, data @ ..] = command else {
            return None;
        };
        let address = (u16::from(*addr_hi) << 8) | u16::from(*addr_lo & 0xE0);
        if *tx != 35 || *cmd != JCMD_PAK_WRITE || address != RUMBLE_MOTOR_ADDRESS {
            return None;
        }
        data.get(31).map(|last| *last != 0)
    }

    /// `ptr_DebugCallback`.
    pub type DebugCallback =
        Option<unsafe extern "C" fn(context: *mut c_void, level: c_int, message: *const c_char)>;

    /// `GFX_INFO` (with the `version`, `SP_STATUS_REG` and `RDRAM_SIZE` fields
    /// of core 2.5.1+; read them only when `version >= 2`).
    #[repr(C)]
    #[derive(Clone, Copy)]
    pub struct GfxInfo {
        pub header: *mut u8,
        pub rdram: *mut u8,
        pub dmem: *mut u8,
        pub imem: *mut u8,
        pub mi_intr_reg: *mut c_uint,
        pub dpc_start_reg: *mut c_uint,
        pub dpc_end_reg: *mut c_uint,
        pub dpc_current_reg: *mut c_uint,
        pub dpc_status_reg: *mut c_uint,
        pub dpc_clock_reg: *mut c_uint,
        pub dpc_bufbusy_reg: *mut c_uint,
        pub dpc_pipebusy_reg: *mut c_uint,
        pub dpc_tmem_reg: *mut c_uint,
        pub vi_status_reg: *mut c_uint,
        pub vi_origin_reg: *mut c_uint,
        pub vi_width_reg: *mut c_uint,
        pub vi_intr_reg: *mut c_uint,
        pub vi_v_current_line_reg: *mut c_uint,
        pub vi_timing_reg: *mut c_uint,
        pub vi_v_sync_reg: *mut c_uint,
        pub vi_h_sync_reg: *mut c_uint,
        pub vi_leap_reg: *mut c_uint,
        pub vi_h_start_reg: *mut c_uint,
        pub vi_v_start_reg: *mut c_uint,
        pub vi_v_burst_reg: *mut c_uint,
        pub vi_x_scale_reg: *mut c_uint,
        pub vi_y_scale_reg: *mut c_uint,
        pub check_interrupts: Option<unsafe extern "C" fn()>,
        pub version: c_uint,
        pub sp_status_reg: *mut c_uint,
        pub rdram_size: *const c_uint,
    }

    /// `AUDIO_INFO`.
    #[repr(C)]
    #[derive(Clone, Copy)]
    pub struct AudioInfo {
        pub rdram: *mut u8,
        pub dmem: *mut u8,
        pub imem: *mut u8,
        pub mi_intr_reg: *mut c_uint,
        pub ai_dram_addr_reg: *mut c_uint,
        pub ai_len_reg: *mut c_uint,
        pub ai_control_reg: *mut c_uint,
        pub ai_status_reg: *mut c_uint,
        pub ai_dacrate_reg: *mut c_uint,
        pub ai_bitrate_reg: *mut c_uint,
        pub check_interrupts: Option<unsafe extern "C" fn()>,
    }

    /// `CONTROL`.
    #[repr(C)]
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Control {
        pub present: c_int,
        pub raw_data: c_int,
        pub plugin: c_int,
        pub kind: c_int,
    }

    /// `CONTROL_INFO`: points at the core's `CONTROL Controls[4]`.
    #[repr(C)]
    #[derive(Clone, Copy)]
    pub struct ControlInfo {
        pub controls: *mut Control,
    }

    /// `BUTTONS` is a union over `unsigned int Value`; this is the value.
    pub type Buttons = c_uint;
}

/// The harness side channel: extra exports of the two plugins.
pub mod side {
    use core::ffi::{c_int, c_void};

    /// Bumped whenever anything in this module changes; the frontend refuses
    /// plugins built from a different version.
    pub const ABI_VERSION: u32 = 3;

    /// What the video plugin passes on every `UpdateScreen` (vertical
    /// interrupt). `rdram` is the core's RDRAM (host-endian 32-bit words, so
    /// byte address `A` is at `rdram[A ^ 3]`), valid for the duration of the
    /// callback; the VI registers are copies.
    #[repr(C)]
    #[derive(Clone, Copy, Debug)]
    pub struct ViFrame {
        pub rdram: *const u8,
        pub rdram_size: u32,
        pub vi_status: u32,
        pub vi_origin: u32,
        pub vi_width: u32,
        pub vi_h_start: u32,
        pub vi_v_start: u32,
        pub vi_x_scale: u32,
        pub vi_y_scale: u32,
    }

    /// Called by the video plugin on every vertical interrupt.
    pub type ViCallback = unsafe extern "C" fn(ctx: *mut c_void, frame: *const ViFrame);

    /// Called by the input plugin from `GetKeys`: returns the `BUTTONS`
    /// value for `port` (0..=3).
    pub type KeysCallback = unsafe extern "C" fn(ctx: *mut c_void, port: c_int) -> u32;

    /// Called by the input plugin from `ControllerCommand` when the core
    /// starts (`on` 1) or stops (`on` 0) the motor of the Rumble Pak on
    /// `port` (0..=3). The core calls it for every motor write, so the
    /// same state can come several times in a row.
    pub type RumbleCallback = unsafe extern "C" fn(ctx: *mut c_void, port: c_int, on: c_int);

    /// Called by the audio plugin from `AiLenChanged` with the samples the
    /// core just played: `frames` stereo frames, interleaved left, right
    /// (`2 * frames` values), copied out of RDRAM, valid for the call.
    pub type AudioSamplesCallback =
        unsafe extern "C" fn(ctx: *mut c_void, samples: *const i16, frames: u32);
    /// Called by the audio plugin from `AiDacrateChanged`: the ROM's TV
    /// standard (`m64p::SYSTEM_*`) and the AI_DACRATE register.
    pub type AudioRateCallback =
        unsafe extern "C" fn(ctx: *mut c_void, system_type: c_int, dacrate: u32);

    /// `harness_video_abi_version() -> u32`
    pub const VIDEO_ABI_VERSION: &[u8] = b"harness_video_abi_version\0";
    /// `harness_video_set_callback(Option<ViCallback>, ctx)`
    pub const VIDEO_SET_CALLBACK: &[u8] = b"harness_video_set_callback\0";
    /// `harness_input_abi_version() -> u32`
    pub const INPUT_ABI_VERSION: &[u8] = b"harness_input_abi_version\0";
    /// `harness_input_set_callback(Option<KeysCallback>, ctx)`
    pub const INPUT_SET_CALLBACK: &[u8] = b"harness_input_set_callback\0";
    /// `harness_input_set_present(port: c_int, present: c_int) -> c_int`:
    /// 0 on success, -1 for a port outside 0..=3. Takes effect immediately
    /// if the core already called `InitiateControllers`, else when it does.
    pub const INPUT_SET_PRESENT: &[u8] = b"harness_input_set_present\0";
    /// `harness_input_set_pak(port: c_int, pak: c_int) -> c_int`: put an
    /// accessory in the controller on `port` (0..=3): `pak` is
    /// `m64p::CONTROLLER_PAK_NONE` or `m64p::CONTROLLER_PAK_RUMBLE` (the
    /// value of `CONTROL.Plugin`). 0 on success, -1 for a bad port or
    /// pak. Like `harness_input_set_present`, it takes effect at once if
    /// the core already called `InitiateControllers`, else when it does.
    pub const INPUT_SET_PAK: &[u8] = b"harness_input_set_pak\0";
    /// `harness_input_set_rumble_callback(Option<RumbleCallback>, ctx)`
    pub const INPUT_SET_RUMBLE_CALLBACK: &[u8] = b"harness_input_set_rumble_callback\0";

    /// `harness_audio_abi_version() -> u32`
    pub const AUDIO_ABI_VERSION: &[u8] = b"harness_audio_abi_version\0";
    /// `harness_audio_set_callbacks(Option<AudioSamplesCallback>,
    /// Option<AudioRateCallback>, ctx)`
    pub const AUDIO_SET_CALLBACKS: &[u8] = b"harness_audio_set_callbacks\0";

    pub type AbiVersionFn = unsafe extern "C" fn() -> u32;
    pub type VideoSetCallbackFn = unsafe extern "C" fn(cb: Option<ViCallback>, ctx: *mut c_void);
    pub type InputSetCallbackFn = unsafe extern "C" fn(cb: Option<KeysCallback>, ctx: *mut c_void);
    pub type InputSetPresentFn = unsafe extern "C" fn(port: c_int, present: c_int) -> c_int;
    pub type InputSetPakFn = unsafe extern "C" fn(port: c_int, pak: c_int) -> c_int;
    pub type InputSetRumbleCallbackFn =
        unsafe extern "C" fn(cb: Option<RumbleCallback>, ctx: *mut c_void);
    pub type AudioSetCallbacksFn = unsafe extern "C" fn(
        samples: Option<AudioSamplesCallback>,
        rate: Option<AudioRateCallback>,
        ctx: *mut c_void,
    );

    /// The video clock the DAC divides for a TV standard (Hz), as the core
    /// and the audio plugins use it: sample rate = clock / (DACRATE + 1).
    pub fn dac_clock(system_type: c_int) -> u32 {
        match system_type {
            super::m64p::SYSTEM_PAL => 49_656_530,
            super::m64p::SYSTEM_MPAL => 48_628_316,
            _ => 48_681_812,
        }
    }
}

/// Defines the plugin exports that differ only by type and API version:
/// `PluginGetVersion` (fills each non-null out-pointer) and `PluginStartup`
/// (nothing to start). Use once at a plugin crate's root:
/// `m64p_abi::plugin_common_exports!(m64p::PLUGIN_GFX, m64p::GFX_API_VERSION, b"name\0");`
#[macro_export]
macro_rules! plugin_common_exports {
    ($plugin_type:expr, $api_version:expr, $name:expr) => {
        /// # Safety
        /// Called by the core with valid (or null) out-pointers.
        #[no_mangle]
        pub unsafe extern "C" fn PluginGetVersion(
            plugin_type: *mut ::core::ffi::c_int,
            plugin_version: *mut ::core::ffi::c_int,
            api_version: *mut ::core::ffi::c_int,
            plugin_name: *mut *const ::core::ffi::c_char,
            capabilities: *mut ::core::ffi::c_int,
        ) -> $crate::m64p::Error {
            const NAME: &[u8] = $name;
            // SAFETY: each pointer is either null (skipped) or points at a
            // writable value of the declared type, per m64p_common.h.
            unsafe {
                if !plugin_type.is_null() {
                    *plugin_type = $plugin_type;
                }
                if !plugin_version.is_null() {
                    *plugin_version = 0x00_0100;
                }
                if !api_version.is_null() {
                    *api_version = $api_version;
                }
                if !plugin_name.is_null() {
                    *plugin_name = NAME.as_ptr().cast();
                }
                if !capabilities.is_null() {
                    *capabilities = 0;
                }
            }
            $crate::m64p::ERR_SUCCESS
        }

        #[no_mangle]
        pub extern "C" fn PluginStartup(
            _core: *mut ::core::ffi::c_void,
            _context: *mut ::core::ffi::c_void,
            _debug: $crate::m64p::DebugCallback,
        ) -> $crate::m64p::Error {
            $crate::m64p::ERR_SUCCESS
        }
    };
}
