//! Loading mupen64plus-core and the plugins, and driving the core through
//! its frontend API (`m64p_frontend.h`, `m64p_config.h`).
//!
//! The core keeps global state and is only reliably started once per
//! process: use one [`Emulator`] per process (the CLI runs each script in a
//! child process).

use crate::script::CpuMode;
use anyhow::{bail, Context as _, Result};
use libloading::os::unix::{Library, Symbol, RTLD_LOCAL, RTLD_NOW};
use m64p_abi::m64p;
use m64p_abi::side;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::{Path, PathBuf};

/// File names cargo gives the plugin crates' shared libraries.
pub const VIDEO_PLUGIN_FILE: &str = "libm64p_video_plugin.so";
pub const INPUT_PLUGIN_FILE: &str = "libm64p_input_plugin.so";
pub const AUDIO_PLUGIN_FILE: &str = "libm64p_audio_plugin.so";
const PLUGIN_FILES: [&str; 3] = [VIDEO_PLUGIN_FILE, INPUT_PLUGIN_FILE, AUDIO_PLUGIN_FILE];

const CORE_CANDIDATES: &[&str] = &[
    "libmupen64plus.so.2",
    "/usr/lib/x86_64-linux-gnu/libmupen64plus.so.2",
    "/usr/lib/aarch64-linux-gnu/libmupen64plus.so.2",
    "/usr/local/lib/libmupen64plus.so.2",
    "/usr/lib/libmupen64plus.so.2",
];

const RSP_CANDIDATES: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu/mupen64plus/mupen64plus-rsp-hle.so",
    "/usr/lib/aarch64-linux-gnu/mupen64plus/mupen64plus-rsp-hle.so",
    "/usr/local/lib/mupen64plus/mupen64plus-rsp-hle.so",
    "/usr/lib/mupen64plus/mupen64plus-rsp-hle.so",
];

/// `FRONTEND_API_VERSION` this frontend is written against (core 2.5.x).
const FRONTEND_API_VERSION: c_int = 0x02_0102;

const M64CMD_ROM_OPEN: c_int = 1;
const M64CMD_ROM_CLOSE: c_int = 2;
const M64CMD_EXECUTE: c_int = 5;
const M64CMD_STOP: c_int = 6;
const M64CMD_CORE_STATE_SET: c_int = 17;
const M64CMD_RESET: c_int = 19;
const M64CORE_SPEED_LIMITER: c_int = 5;

const M64TYPE_INT: c_int = 1;
const M64TYPE_BOOL: c_int = 3;
const M64TYPE_STRING: c_int = 4;

type CoreStartupFn = unsafe extern "C" fn(
    c_int,
    *const c_char,
    *const c_char,
    *mut c_void,
    m64p::DebugCallback,
    *mut c_void,
    Option<unsafe extern "C" fn(*mut c_void, c_int, c_int)>,
) -> m64p::Error;
type CoreShutdownFn = unsafe extern "C" fn() -> m64p::Error;
type CoreAttachPluginFn = unsafe extern "C" fn(c_int, *mut c_void) -> m64p::Error;
type CoreDetachPluginFn = unsafe extern "C" fn(c_int) -> m64p::Error;
/// `CoreDoCommand`, also used by callbacks to stop the emulation.
pub type CoreDoCommandFn = unsafe extern "C" fn(c_int, c_int, *mut c_void) -> m64p::Error;
type CoreErrorMessageFn = unsafe extern "C" fn(m64p::Error) -> *const c_char;
type ConfigOpenSectionFn = unsafe extern "C" fn(*const c_char, *mut *mut c_void) -> m64p::Error;
type ConfigSetParameterFn =
    unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_void) -> m64p::Error;
type PluginStartupFn =
    unsafe extern "C" fn(*mut c_void, *mut c_void, m64p::DebugCallback) -> m64p::Error;
type PluginShutdownFn = unsafe extern "C" fn() -> m64p::Error;

/// Where to find the libraries.
#[derive(Clone, Debug)]
pub struct Paths {
    /// `libmupen64plus.so.2` (None: search the usual places).
    pub core: Option<PathBuf>,
    /// Directory holding the harness plugins.
    pub plugin_dir: PathBuf,
    /// The RSP plugin (None: search the usual places).
    pub rsp: Option<PathBuf>,
}

/// Find the directory with the harness plugins: `explicit`, else
/// `$N64_HARNESS_PLUGIN_DIR`, else next to this executable (or one level up,
/// for test binaries in `target/<profile>/deps`).
pub fn find_plugin_dir(explicit: Option<&Path>) -> Result<PathBuf> {
    let has_plugins = |d: &Path| PLUGIN_FILES.iter().all(|f| d.join(f).is_file());
    if let Some(dir) = explicit {
        if has_plugins(dir) {
            return Ok(dir.to_path_buf());
        }
        bail!(
            "{} not all found in --plugin-dir {}",
            PLUGIN_FILES.join(", "),
            dir.display()
        );
    }
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("N64_HARNESS_PLUGIN_DIR") {
        candidates.push(PathBuf::from(dir));
    }
    if let Ok(exe) = std::env::current_exe() {
        if let Some(dir) = exe.parent() {
            candidates.push(dir.to_path_buf());
            if let Some(up) = dir.parent() {
                candidates.push(up.to_path_buf());
            }
        }
    }
    for dir in &candidates {
        if has_plugins(dir) {
            return Ok(dir.clone());
        }
    }
    bail!(
        "the harness plugins ({}) are not next to this \
         executable; build them with the same profile, e.g. \
         `cargo build --release -p n64-harness -p m64p-video-plugin -p m64p-input-plugin \
         -p m64p-audio-plugin`, or pass --plugin-dir (searched: {})",
        PLUGIN_FILES.join(", "),
        candidates
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn open_library(path: &Path) -> Result<Library> {
    // SAFETY: loading a shared library runs its initialisers; the libraries
    // opened here are mupen64plus and its plugins, which are meant to be
    // loaded this way by a frontend.
    unsafe { Library::open(Some(path), RTLD_NOW | RTLD_LOCAL) }
        .with_context(|| format!("loading {}", path.display()))
}

fn open_first(explicit: Option<&Path>, candidates: &[&str], what: &str) -> Result<Library> {
    if let Some(path) = explicit {
        return open_library(path);
    }
    let mut errors = Vec::new();
    for c in candidates {
        match open_library(Path::new(c)) {
            Ok(lib) => return Ok(lib),
            Err(e) => errors.push(format!("{e:#}")),
        }
    }
    bail!(
        "{what} not found (install it, or pass its path): {}",
        errors.join("; ")
    )
}

/// Look up a symbol and copy out the function pointer.
fn sym<T: Copy>(lib: &Library, name: &str) -> Result<T> {
    let cname = CString::new(name)?;
    // SAFETY: `T` is the function-pointer type of `name` as declared in the
    // mupen64plus headers (or m64p_abi::side); the library stays loaded for
    // as long as the pointer is used (the Emulator owns it).
    let s: Symbol<T> = unsafe { lib.get(cname.as_bytes_with_nul()) }
        .with_context(|| format!("symbol {name} missing"))?;
    Ok(*s)
}

/// Everything the run loop needs from the core and plugins, as plain
/// function pointers.
#[derive(Clone, Copy)]
pub struct Hooks {
    pub do_command: CoreDoCommandFn,
    pub video_set_callback: side::VideoSetCallbackFn,
    pub input_set_callback: side::InputSetCallbackFn,
    pub input_set_present: side::InputSetPresentFn,
    pub input_set_pak: side::InputSetPakFn,
    pub input_set_rumble_callback: side::InputSetRumbleCallbackFn,
    pub audio_set_callbacks: side::AudioSetCallbacksFn,
}

impl Hooks {
    /// Turn the speed limiter off. The core refuses this before the
    /// emulation runs (M64ERR_INVALID_STATE), so call it from the first
    /// vertical interrupt. Returns the m64p_error code.
    pub fn unlimit_speed(&self) -> c_int {
        let mut limiter: c_int = 0;
        // SAFETY: CORE_STATE_SET reads one int from the pointer, during
        // the call.
        unsafe {
            (self.do_command)(
                M64CMD_CORE_STATE_SET,
                M64CORE_SPEED_LIMITER,
                (&mut limiter as *mut c_int).cast(),
            )
        }
    }

    /// Reset the console: `hard` false is the reset button (the ROM gets
    /// the pre-NMI interrupt, then restarts about half a second later),
    /// `hard` true switches it off and on (restarts at the next interrupt).
    /// mupen64plus keeps the EEPROM (and SRAM/FlashRAM) content across
    /// both. Returns the m64p_error code.
    pub fn reset(&self, hard: bool) -> c_int {
        // SAFETY: CoreDoCommand(M64CMD_RESET) takes no pointer; it only
        // schedules the reset. Called from the emulation thread (the VI
        // callback), like a frontend's key handler would.
        unsafe { (self.do_command)(M64CMD_RESET, c_int::from(hard), std::ptr::null_mut()) }
    }

    /// Ask the core to stop; `M64CMD_EXECUTE` then returns.
    pub fn stop(&self) {
        // SAFETY: CoreDoCommand(M64CMD_STOP) takes no pointer; it only sets
        // the core's stop flag and may be called from a plugin callback or
        // another thread while the emulation runs.
        unsafe { (self.do_command)(M64CMD_STOP, 0, std::ptr::null_mut()) };
    }
}

struct Plugin {
    kind: c_int,
    lib: Library,
    attached: bool,
}

/// A started mupen64plus core with a ROM and the plugins attached.
pub struct Emulator {
    // Fields drop in order: plugins before the core.
    plugins: Vec<Plugin>,
    core: Library,
    hooks: Hooks,
    error_message: CoreErrorMessageFn,
    rom_open: bool,
    config_dir: PathBuf,
}

/// Settings for [`Emulator::start`].
pub struct StartOptions<'a> {
    pub paths: &'a Paths,
    pub cpu: CpuMode,
    pub rom: &'a [u8],
    /// Fresh directory for the core's config (and save files, unless
    /// `save_dir`); removed when the Emulator drops.
    pub config_dir: PathBuf,
    /// Directory for save files (EEPROM, SRAM...) that outlives the run:
    /// the next run with the same directory finds them.
    pub save_dir: Option<PathBuf>,
    /// `Core/CountPerOp` (COP0 Count cycles per instruction; `None`: the
    /// core's choice, 2 for unknown ROMs).
    pub count_per_op: Option<u32>,
    /// Receives every core and plugin message (`IS64: ...` included).
    pub debug_callback: m64p::DebugCallback,
    /// Passed to `debug_callback`; must stay valid until the Emulator drops.
    pub debug_context: *mut c_void,
}

impl Emulator {
    /// Load the core, start it, open the ROM and attach the plugins (video,
    /// audio, input, RSP).
    pub fn start(opts: StartOptions<'_>) -> Result<Emulator> {
        let core = open_first(
            opts.paths.core.as_deref(),
            CORE_CANDIDATES,
            "libmupen64plus.so.2",
        )?;
        let core_handle = raw_handle(core);
        // SAFETY: `core_handle` came from dlopen just above; the Library
        // built from it owns it again (and dlcloses it on drop).
        let core = unsafe { Library::from_raw(core_handle) };
        let startup: CoreStartupFn = sym(&core, "CoreStartup")?;
        let hooks_cmd: CoreDoCommandFn = sym(&core, "CoreDoCommand")?;
        let error_message: CoreErrorMessageFn = sym(&core, "CoreErrorMessage")?;

        let video = open_library(&opts.paths.plugin_dir.join(VIDEO_PLUGIN_FILE))?;
        let input = open_library(&opts.paths.plugin_dir.join(INPUT_PLUGIN_FILE))?;
        let audio = open_library(&opts.paths.plugin_dir.join(AUDIO_PLUGIN_FILE))?;
        let rsp = open_first(
            opts.paths.rsp.as_deref(),
            RSP_CANDIDATES,
            "the RSP plugin mupen64plus-rsp-hle.so",
        )?;
        for (lib, name, file) in [
            (&video, side::VIDEO_ABI_VERSION, VIDEO_PLUGIN_FILE),
            (&input, side::INPUT_ABI_VERSION, INPUT_PLUGIN_FILE),
            (&audio, side::AUDIO_ABI_VERSION, AUDIO_PLUGIN_FILE),
        ] {
            let name = std::str::from_utf8(&name[..name.len() - 1])?;
            let version: side::AbiVersionFn = sym(lib, name)?;
            // SAFETY: the side-channel version function takes no arguments.
            let v = unsafe { version() };
            if v != side::ABI_VERSION {
                bail!(
                    "{file} speaks harness ABI {v}, this harness {}: rebuild both",
                    side::ABI_VERSION
                );
            }
        }
        let hooks = Hooks {
            do_command: hooks_cmd,
            video_set_callback: sym(&video, "harness_video_set_callback")?,
            input_set_callback: sym(&input, "harness_input_set_callback")?,
            input_set_present: sym(&input, "harness_input_set_present")?,
            input_set_pak: sym(&input, "harness_input_set_pak")?,
            input_set_rumble_callback: sym(&input, "harness_input_set_rumble_callback")?,
            audio_set_callbacks: sym(&audio, "harness_audio_set_callbacks")?,
        };

        std::fs::create_dir_all(&opts.config_dir)
            .with_context(|| format!("creating {}", opts.config_dir.display()))?;
        let config_c = path_cstring(&opts.config_dir)?;
        // SAFETY: CoreStartup copies the path strings; the callback and its
        // context stay valid until CoreShutdown (caller's contract).
        let rc = unsafe {
            startup(
                FRONTEND_API_VERSION,
                config_c.as_ptr(),
                config_c.as_ptr(),
                opts.debug_context,
                opts.debug_callback,
                std::ptr::null_mut(),
                None,
            )
        };
        let mut emu = Emulator {
            plugins: Vec::new(),
            core,
            hooks,
            error_message,
            rom_open: false,
            config_dir: opts.config_dir.clone(),
        };
        emu.check(rc, "CoreStartup")?;
        let save_dir = opts.save_dir.as_deref().unwrap_or(&opts.config_dir);
        std::fs::create_dir_all(save_dir)
            .with_context(|| format!("creating {}", save_dir.display()))?;
        emu.configure(opts.cpu, &opts.config_dir, save_dir, opts.count_per_op)?;

        let rom_len = c_int::try_from(opts.rom.len()).context("ROM too large")?;
        // SAFETY: ROM_OPEN copies `rom_len` bytes from the pointer.
        let rc = unsafe {
            (emu.hooks.do_command)(M64CMD_ROM_OPEN, rom_len, opts.rom.as_ptr() as *mut c_void)
        };
        emu.check(rc, "opening the ROM")?;
        emu.rom_open = true;

        for (kind, lib) in [
            (m64p::PLUGIN_GFX, video),
            (m64p::PLUGIN_AUDIO, audio),
            (m64p::PLUGIN_INPUT, input),
            (m64p::PLUGIN_RSP, rsp),
        ] {
            let plugin_startup: PluginStartupFn = sym(&lib, "PluginStartup")?;
            // SAFETY: the core handle is a live dlopen handle; the debug
            // callback/context outlive the plugin (caller's contract).
            let rc =
                unsafe { plugin_startup(core_handle, opts.debug_context, opts.debug_callback) };
            emu.check(rc, "PluginStartup")?;
            let handle = raw_handle(lib);
            // SAFETY: `handle` came from dlopen of this plugin just above and
            // was turned back into an owning Library (so it stays open).
            let lib = unsafe { Library::from_raw(handle) };
            emu.plugins.push(Plugin {
                kind,
                lib,
                attached: false,
            });
            let attach: CoreAttachPluginFn = sym(&emu.core, "CoreAttachPlugin")?;
            // SAFETY: `handle` is the plugin's live dlopen handle.
            let rc = unsafe { attach(kind, handle) };
            emu.check(rc, "CoreAttachPlugin")?;
            if let Some(p) = emu.plugins.last_mut() {
                p.attached = true;
            }
        }

        Ok(emu)
    }

    pub fn hooks(&self) -> Hooks {
        self.hooks
    }

    /// Run until something calls [`Hooks::stop`].
    pub fn execute(&mut self) -> Result<()> {
        // SAFETY: EXECUTE takes no pointer; it blocks until stopped.
        let rc = unsafe { (self.hooks.do_command)(M64CMD_EXECUTE, 0, std::ptr::null_mut()) };
        self.check(rc, "M64CMD_EXECUTE")
    }

    fn configure(
        &self,
        cpu: CpuMode,
        dir: &Path,
        save_dir: &Path,
        count_per_op: Option<u32>,
    ) -> Result<()> {
        let open: ConfigOpenSectionFn = sym(&self.core, "ConfigOpenSection")?;
        let set: ConfigSetParameterFn = sym(&self.core, "ConfigSetParameter")?;
        let section = CString::new("Core")?;
        let mut handle: *mut c_void = std::ptr::null_mut();
        // SAFETY: valid C string and out-pointer.
        let rc = unsafe { open(section.as_ptr(), &mut handle) };
        self.check(rc, "ConfigOpenSection(Core)")?;
        let set_int = |name: &str, kind: c_int, value: c_int| -> Result<()> {
            let cname = CString::new(name)?;
            // SAFETY: INT and BOOL parameters read one int from the pointer.
            let rc = unsafe {
                set(
                    handle,
                    cname.as_ptr(),
                    kind,
                    (&value as *const c_int).cast(),
                )
            };
            self.check(rc, name)
        };
        let set_str = |name: &str, value: &Path| -> Result<()> {
            let cname = CString::new(name)?;
            let cvalue = path_cstring(value)?;
            // SAFETY: STRING parameters read a NUL-terminated string; the
            // core copies it.
            let rc = unsafe {
                set(
                    handle,
                    cname.as_ptr(),
                    M64TYPE_STRING,
                    cvalue.as_ptr().cast(),
                )
            };
            self.check(rc, name)
        };
        let set_string = |name: &str, value: &str| -> Result<()> {
            let cname = CString::new(name)?;
            let cvalue = CString::new(value)?;
            // SAFETY: as for set_str.
            let rc = unsafe {
                set(
                    handle,
                    cname.as_ptr(),
                    M64TYPE_STRING,
                    cvalue.as_ptr().cast(),
                )
            };
            self.check(rc, name)
        };
        set_int("R4300Emulator", M64TYPE_INT, cpu.r4300_emulator())?;
        if let Some(n) = count_per_op {
            set_int("CountPerOp", M64TYPE_INT, c_int::try_from(n)?)?;
        }
        set_int("OnScreenDisplay", M64TYPE_BOOL, 0)?;
        set_int("EnableDebugger", M64TYPE_BOOL, 0)?;
        // Saves (EEPROM, SRAM...) go to the fresh directory, so every run
        // starts from the same state, unless a save directory is given.
        // The core writes the EEPROM file on every EEPROM write.
        // The core glues file names straight onto this path.
        let mut save_path = save_dir.as_os_str().to_owned();
        save_path.push("/");
        set_str("SaveSRAMPath", Path::new(&save_path))?;
        set_str("SaveStatePath", dir)?;
        set_str("ScreenshotPath", dir)?;
        // No webcam for the Game Boy Camera emulation (the default backend,
        // OpenCV, probes /dev/video0 and complains).
        set_string("GbCameraVideoCaptureBackend1", "dummy")?;
        Ok(())
    }

    fn check(&self, rc: m64p::Error, what: &str) -> Result<()> {
        if rc == m64p::ERR_SUCCESS {
            return Ok(());
        }
        // SAFETY: CoreErrorMessage returns a static string for any code.
        let msg = unsafe { (self.error_message)(rc) };
        let text = if msg.is_null() {
            String::from("unknown error")
        } else {
            // SAFETY: non-null static NUL-terminated string.
            unsafe { CStr::from_ptr(msg) }
                .to_string_lossy()
                .into_owned()
        };
        bail!("{what} failed: {text} (m64p_error {rc})")
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        // mupen64plus teardown in the documented order: detach the plugins,
        // close the ROM, shut the plugins down, shut the core down.
        if let Ok(detach) = sym::<CoreDetachPluginFn>(&self.core, "CoreDetachPlugin") {
            for p in self.plugins.iter().filter(|p| p.attached) {
                // SAFETY: takes a plugin type value; the emulation is not
                // running (Execute has returned or never started).
                unsafe { detach(p.kind) };
            }
        }
        if self.rom_open {
            // SAFETY: ROM_CLOSE takes no pointer.
            unsafe { (self.hooks.do_command)(M64CMD_ROM_CLOSE, 0, std::ptr::null_mut()) };
        }
        for p in &self.plugins {
            if let Ok(shutdown) = sym::<PluginShutdownFn>(&p.lib, "PluginShutdown") {
                // SAFETY: no arguments; the plugin library is still loaded.
                unsafe { shutdown() };
            }
        }
        if let Ok(shutdown) = sym::<CoreShutdownFn>(&self.core, "CoreShutdown") {
            // SAFETY: no arguments; called once, after everything above.
            unsafe { shutdown() };
        }
        let _ = std::fs::remove_dir_all(&self.config_dir);
    }
}

fn raw_handle(lib: Library) -> *mut c_void {
    lib.into_raw()
}

fn path_cstring(p: &Path) -> Result<CString> {
    use std::os::unix::ffi::OsStrExt;
    CString::new(p.as_os_str().as_bytes()).context("path contains a NUL byte")
}
