//! Running one script against one ROM in one CPU mode, in this process,
//! and running many such runs as child processes ([`jobs`]).
//!
//! The video plugin's vertical-interrupt callback is the clock: on the F-th
//! call, everything the script schedules `at F` happens (input changes,
//! screenshots, pixel and memory checks), and after the last frame the
//! callback stops the core. The input plugin asks the runner for each
//! port's buttons and reports the Rumble Pak motor; the core's debug
//! callback feeds IS-Viewer lines in.
//!
//! * `state`: what happens at each frame.
//! * `callbacks`: the C callbacks that drive it.
//! * `report`: what a run produced.
//! * [`jobs`]: child processes, one per script and CPU mode, in parallel.

mod callbacks;
pub mod jobs;
mod report;
mod state;

pub use report::{Report, FAILURE_TAIL_LINES};

use crate::audio::Capture;
use crate::emu::{Emulator, Paths, StartOptions};
use crate::expect::{self, CheckResult};
use crate::random::Generator;
use crate::script::{CpuMode, Event, Script};
use anyhow::{Context as _, Result};
use callbacks::{
    debug_callback, keys_callback, lock, rate_callback, rumble_callback, samples_callback,
    vi_callback, Shared,
};
use m64p_abi::m64p;
use state::{describe, step, Port, State};
use std::ffi::c_void;
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::PathBuf;
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// How to run a script.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub paths: Paths,
    pub cpu: CpuMode,
    pub rom: Vec<u8>,
    /// Number of frames to run.
    pub frames: u32,
    /// Screenshots are written relative to this directory.
    pub out_dir: PathBuf,
    /// Print IS-Viewer lines as they arrive.
    pub log: bool,
    /// Print every core message to stderr (errors are always printed).
    pub verbose: bool,
    /// Wall-clock limit; the run is stopped (and fails) when it is reached.
    pub timeout: Duration,
    /// Keep save files (EEPROM...) here, across runs; `None`: a fresh
    /// temporary directory, removed afterwards.
    pub save_dir: Option<PathBuf>,
    /// `Core/CountPerOp` (`None`: the core's default).
    pub count_per_op: Option<u32>,
    /// Write the trace (IS-Viewer lines with frames, input changes) here;
    /// overrides the script's `trace` line (which is relative to `out_dir`).
    pub trace: Option<PathBuf>,
}
/// Run `script` with `opts` in this process. Only call this once per
/// process (mupen64plus-core keeps global state).
pub fn run(script: &Script, opts: &RunOptions) -> Result<Report> {
    let mut events = script.events.clone();
    events.sort_by_key(|e| e.frame);
    let trace = match opts
        .trace
        .clone()
        .or_else(|| script.trace.as_ref().map(|t| opts.out_dir.join(t)))
    {
        Some(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            let file =
                File::create(&path).with_context(|| format!("creating {}", path.display()))?;
            Some(BufWriter::new(file))
        }
        None => None,
    };
    let screen_windows = script
        .screen
        .iter()
        .map(|c| (c.from, c.to.unwrap_or(opts.frames)))
        .collect();
    let shared = Box::new(Shared {
        state: Mutex::new(State {
            frame: 0,
            end: opts.frames,
            events,
            next: 0,
            ports: [Port::default(); 4],
            present: [true; 4],
            rumble: [false; 4],
            is_lines: Vec::new(),
            checks: Vec::new(),
            errors: Vec::new(),
            out_dir: opts.out_dir.clone(),
            generators: script.randoms.iter().map(Generator::new).collect(),
            screen_windows,
            last_hash: None,
            screen_changes: Vec::new(),
            audio: Capture {
                keep: !script.audio.is_empty(),
                ..Capture::default()
            },
            trace,
            log: opts.log,
            stopping: false,
            limiter_on: true,
        }),
        hooks: Mutex::new(None),
        log: opts.log,
        verbose: opts.verbose,
    });
    let ctx = &*shared as *const Shared as *mut c_void;
    let config_dir =
        std::env::temp_dir().join(format!("n64-harness-{}-{}", std::process::id(), opts.cpu));
    let mut emu = Emulator::start(StartOptions {
        paths: &opts.paths,
        cpu: opts.cpu,
        rom: &opts.rom,
        config_dir,
        save_dir: opts.save_dir.clone(),
        count_per_op: opts.count_per_op,
        debug_callback: Some(debug_callback),
        debug_context: ctx,
    })?;
    let hooks = emu.hooks();
    *lock(&shared.hooks) = Some(hooks);

    if hooks.unlimit_speed() == m64p::ERR_SUCCESS {
        lock(&shared.state).limiter_on = false;
    } else if opts.verbose {
        let _ = writeln!(
            std::io::stderr(),
            "n64-harness: speed limiter: retrying at the first frame"
        );
    }
    // Frame 0: the power-on state (e.g. `unplug 3` without `at`).
    {
        let mut st = lock(&shared.state);
        step(&mut st, None, &hooks);
    }
    // SAFETY: `ctx` points at `shared`, which outlives the emulator run:
    // the callbacks are removed below before `shared` can drop.
    unsafe {
        (hooks.video_set_callback)(Some(vi_callback), ctx);
        (hooks.input_set_callback)(Some(keys_callback), ctx);
        (hooks.input_set_rumble_callback)(Some(rumble_callback), ctx);
        (hooks.audio_set_callbacks)(Some(samples_callback), Some(rate_callback), ctx);
    }

    let (done_tx, done_rx) = mpsc::channel::<()>();
    let timeout = opts.timeout;
    let watchdog = std::thread::spawn(move || {
        if let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(timeout) {
            hooks.stop();
            true
        } else {
            false
        }
    });
    let started = Instant::now();
    let cpu_before = process_cpu_time();
    let result = emu.execute();
    let elapsed = started.elapsed();
    let cpu_time = process_cpu_time()
        .zip(cpu_before)
        .map(|(after, before)| after.saturating_sub(before));
    let _ = done_tx.send(());
    let timed_out = watchdog.join().unwrap_or(false);
    // SAFETY: unregistering takes no pointers the plugins keep.
    unsafe {
        (hooks.video_set_callback)(None, std::ptr::null_mut());
        (hooks.input_set_callback)(None, std::ptr::null_mut());
        (hooks.input_set_rumble_callback)(None, std::ptr::null_mut());
        (hooks.audio_set_callbacks)(None, None, std::ptr::null_mut());
    }
    result?;

    let mut st = lock(&shared.state);
    if timed_out {
        let (frame, end) = (st.frame, st.end);
        st.errors.push(format!(
            "timed out after {} s at frame {frame} of {end}",
            timeout.as_secs()
        ));
    }
    finish(&mut st);
    if let Some(mut trace) = st.trace.take() {
        let _ = writeln!(trace, "[{:>6}] > end of run", st.frame);
        if let Err(e) = trace.flush() {
            st.errors.push(format!("writing the trace: {e}"));
        }
    }
    let mut report = Report {
        cpu: opts.cpu,
        frames: st.frame,
        elapsed,
        cpu_time,
        checks: std::mem::take(&mut st.checks),
        is_lines: std::mem::take(&mut st.is_lines),
        screen_changes: std::mem::take(&mut st.screen_changes),
        audio: std::mem::take(&mut st.audio),
        errors: std::mem::take(&mut st.errors),
    };
    drop(st);
    let texts = expect::text::check(&script.texts, &report.is_lines, report.frames);
    report.checks.extend(texts);
    for a in &script.audio {
        let (passed, detail) = expect::audio::check(&a.check, &report.audio, &report.is_lines);
        report.checks.push(CheckResult {
            line: a.line,
            passed,
            what: expect::audio::describe(&a.check),
            detail,
        });
    }
    for c in &script.screen {
        let result = expect::screen::check(c, &report.screen_changes, report.frames);
        report.checks.push(result);
    }
    report.checks.sort_by_key(|c| c.line);
    // Tear the core down before `shared`, which its callbacks point at.
    drop(emu);
    drop(shared);
    Ok(report)
}

/// User + system CPU time of this process so far (Linux `/proc`; clock
/// ticks of 1/100 s).
fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses): state is
    // field 3, utime 14, stime 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
}

/// Fail the frame-bound checks the run never reached.
fn finish(st: &mut State) {
    let reached = st.frame;
    let pending: Vec<Event> = st.events[st.next..].to_vec();
    for e in pending.iter().filter(|e| e.action.is_expectation()) {
        st.checks.push(CheckResult {
            line: e.line,
            passed: false,
            what: describe(&e.action, e.frame),
            detail: format!("the run ended at frame {reached}, before frame {}", e.frame),
        });
    }
}
/// Read a ROM file, with a readable error.
pub fn read_rom(path: &std::path::Path) -> Result<Vec<u8>> {
    let rom = std::fs::read(path).with_context(|| format!("reading ROM {}", path.display()))?;
    if rom.len() < 0x1000 {
        anyhow::bail!(
            "{} is {} bytes: too small for an N64 ROM",
            path.display(),
            rom.len()
        );
    }
    Ok(rom)
}
