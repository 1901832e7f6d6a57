//! `n64-harness`: run N64 ROM test scripts in headless mupen64plus.
//!
//! `run` starts one child process per script and CPU mode (mupen64plus-core
//! keeps global state, so each run gets a fresh process), streams their
//! output and ends with the line `N passed, M failed`.

#![deny(clippy::undocumented_unsafe_blocks)]

use anyhow::{bail, Context as _, Result};
use clap::{Args, Parser, Subcommand};
use n64_harness::emu::{find_plugin_dir, Paths};
use n64_harness::run::jobs::{self, Item};
use n64_harness::run::{self, read_rom, RunOptions};
use n64_harness::script::{Action, CpuMode, Event, Script};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    name = "n64-harness",
    version,
    about = "Run N64 ROM test scripts in headless mupen64plus"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run test scripts (each script and CPU mode in its own process).
    Run(RunArgs),
    /// Take one screenshot of a ROM at a frame.
    Shot(ShotArgs),
    /// Run one script in this process (used by `run`).
    #[command(hide = true)]
    RunOne(RunOneArgs),
}

#[derive(Args, Clone)]
struct EmuArgs {
    /// Directory with libm64p_video_plugin.so and libm64p_input_plugin.so
    /// [default: next to this executable].
    #[arg(long, value_name = "DIR")]
    plugin_dir: Option<PathBuf>,
    /// Path of libmupen64plus.so.2 [default: the system's].
    #[arg(long, value_name = "PATH")]
    core: Option<PathBuf>,
    /// Path of the RSP plugin [default: the system's mupen64plus-rsp-hle.so].
    #[arg(long, value_name = "PATH")]
    rsp: Option<PathBuf>,
    /// Print the ROM's IS-Viewer lines as they come.
    #[arg(long)]
    log: bool,
    /// Print every mupen64plus message to stderr.
    #[arg(long, short)]
    verbose: bool,
    /// Stop a run that takes longer than this many seconds (it fails)
    /// [default: 120 plus 1 per 10 frames of the run, so long soaks in the
    /// interpreters get their time].
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<u64>,
    /// Set mupen64plus's Core/CountPerOp (CPU cycles counted per
    /// instruction; the core uses 2). Higher runs busy-waiting ROMs faster
    /// in emulated frames, but each instruction takes more emulated time.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4))]
    count_per_op: Option<u32>,
}

#[derive(Args)]
struct RunArgs {
    /// Script files.
    #[arg(required = true, value_name = "SCRIPT")]
    scripts: Vec<PathBuf>,
    /// ROM to run (overrides the scripts' `rom` lines).
    #[arg(long)]
    rom: Option<PathBuf>,
    /// CPU mode(s): pure, cached, dynarec, a comma list, or all
    /// (overrides the scripts' `cpu` lines) [default: the script's, else dynarec].
    #[arg(long, value_name = "MODE")]
    cpu: Option<String>,
    /// Directory for screenshots (per CPU mode subdirectories when several).
    #[arg(long, value_name = "DIR", default_value = "target/n64-harness")]
    out: PathBuf,
    /// Number of frames to run (overrides the scripts' `run` lines).
    #[arg(long, value_name = "N")]
    frames: Option<u32>,
    /// Runs at once (output is then printed per run, in order, when done).
    #[arg(long, short, value_name = "N", default_value_t = 1)]
    jobs: usize,
    /// Keep save files (EEPROM...) in DIR (DIR/<cpu> when several CPU
    /// modes run), shared by the scripts, which then run in the order given
    /// (per CPU mode) [default: a fresh empty directory per run].
    #[arg(long, value_name = "DIR")]
    save_dir: Option<PathBuf>,
    /// Write each run's IS-Viewer lines (with frames) and input changes to
    /// DIR/<script>.<cpu>.log.
    #[arg(long, value_name = "DIR")]
    trace: Option<PathBuf>,
    #[command(flatten)]
    emu: EmuArgs,
}

#[derive(Args)]
struct ShotArgs {
    #[arg(long)]
    rom: PathBuf,
    /// Frame to take the picture at.
    #[arg(long, default_value_t = 200)]
    frame: u32,
    /// Output PNG.
    #[arg(short, long, default_value = "shot.png")]
    output: PathBuf,
    #[arg(long, default_value = "dynarec")]
    cpu: String,
    #[command(flatten)]
    emu: EmuArgs,
}

#[derive(Args)]
struct RunOneArgs {
    script: PathBuf,
    #[arg(long)]
    rom: PathBuf,
    #[arg(long)]
    cpu: String,
    #[arg(long)]
    out: PathBuf,
    #[arg(long)]
    frames: Option<u32>,
    #[arg(long)]
    save_dir: Option<PathBuf>,
    #[arg(long)]
    trace: Option<PathBuf>,
    #[command(flatten)]
    emu: EmuArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Run(args) => cmd_run(args),
        Cmd::Shot(args) => cmd_shot(args),
        Cmd::RunOne(args) => cmd_run_one(args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("n64-harness: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn parse_cpus(s: &str) -> Result<Vec<CpuMode>> {
    if s.eq_ignore_ascii_case("all") {
        return Ok(CpuMode::ALL.to_vec());
    }
    let mut modes = Vec::new();
    for name in s.split(',') {
        let mode = CpuMode::from_name(name.trim()).with_context(|| {
            format!("unknown CPU mode `{name}` (expected pure, cached, dynarec or all)")
        })?;
        if !modes.contains(&mode) {
            modes.push(mode);
        }
    }
    Ok(modes)
}

fn load_script(path: &Path) -> Result<Script> {
    let src = std::fs::read_to_string(path)
        .with_context(|| format!("reading script {}", path.display()))?;
    Script::parse(&src).map_err(|e| anyhow::anyhow!("{}:{}: {}", path.display(), e.line, e.message))
}

/// Frames to run: `--frames`, else the script's length.
fn run_length(script: &Script, frames: Option<u32>, path: &Path) -> Result<u32> {
    let n = frames.or_else(|| script.length()).with_context(|| {
        format!(
            "{}: the script names no frame; add `run N` or pass --frames",
            path.display()
        )
    })?;
    if n == 0 {
        bail!("--frames must be at least 1");
    }
    script
        .check_length(n)
        .map_err(|e| anyhow::anyhow!("{}:{}: {}", path.display(), e.line, e.message))?;
    Ok(n)
}

fn paths(emu: &EmuArgs) -> Result<Paths> {
    Ok(Paths {
        core: emu.core.clone(),
        plugin_dir: find_plugin_dir(emu.plugin_dir.as_deref())?,
        rsp: emu.rsp.clone(),
    })
}

fn emu_flags(emu: &EmuArgs) -> Vec<String> {
    let mut v = Vec::new();
    let mut push_path = |flag: &str, p: &Option<PathBuf>| {
        if let Some(p) = p {
            v.push(flag.to_string());
            v.push(p.display().to_string());
        }
    };
    push_path("--plugin-dir", &emu.plugin_dir);
    push_path("--core", &emu.core);
    push_path("--rsp", &emu.rsp);
    if emu.log {
        v.push("--log".into());
    }
    if emu.verbose {
        v.push("--verbose".into());
    }
    if let Some(n) = emu.count_per_op {
        v.push("--count-per-op".into());
        v.push(n.to_string());
    }
    v
}

/// `--timeout`, else 120 s plus 1 s per 10 frames.
fn timeout_secs(explicit: Option<u64>, frames: u32) -> u64 {
    explicit.unwrap_or(120 + u64::from(frames) / 10)
}

fn cmd_run(args: RunArgs) -> Result<bool> {
    let exe = std::env::current_exe().context("finding this executable")?;
    let cli_cpus = args.cpu.as_deref().map(parse_cpus).transpose()?;
    // Fail early and clearly when the plugins are missing.
    find_plugin_dir(args.emu.plugin_dir.as_deref())?;
    let started = Instant::now();
    let mut items = Vec::new();
    for script_path in &args.scripts {
        let prepared = load_script(script_path).and_then(|script| {
            let rom = args
                .rom
                .clone()
                .or_else(|| script.rom.clone())
                .with_context(|| {
                    format!(
                        "{}: no ROM: pass --rom or add a `rom` line",
                        script_path.display()
                    )
                })?;
            let frames = run_length(&script, args.frames, script_path)?;
            let cpus = cli_cpus
                .clone()
                .unwrap_or_else(|| vec![script.cpu.unwrap_or(CpuMode::Dynarec)]);
            Ok((rom, cpus, frames))
        });
        let (rom, cpus, frames) = match prepared {
            Ok(p) => p,
            Err(e) => {
                items.push((
                    None,
                    Item::Bad {
                        header: format!("== {} ==", script_path.display()),
                        error: format!("{e:#}"),
                    },
                ));
                continue;
            }
        };
        let several = cpus.len() > 1;
        for cpu in cpus {
            let per_cpu = |dir: &PathBuf| {
                if several {
                    dir.join(cpu.name())
                } else {
                    dir.clone()
                }
            };
            let out = per_cpu(&args.out);
            let mut cmd = Command::new(&exe);
            cmd.arg("run-one")
                .arg(script_path)
                .arg("--rom")
                .arg(&rom)
                .arg("--cpu")
                .arg(cpu.name())
                .arg("--out")
                .arg(&out);
            if let Some(n) = args.frames {
                cmd.arg("--frames").arg(n.to_string());
            }
            if let Some(dir) = &args.save_dir {
                cmd.arg("--save-dir").arg(per_cpu(dir));
            }
            if let Some(dir) = &args.trace {
                let stem = script_path
                    .file_stem()
                    .map_or_else(|| "script".into(), |s| s.to_string_lossy());
                cmd.arg("--trace")
                    .arg(dir.join(format!("{stem}.{}.log", cpu.name())));
            }
            cmd.args(emu_flags(&args.emu));
            let timeout = timeout_secs(args.emu.timeout, frames);
            cmd.arg("--timeout").arg(timeout.to_string());
            let chain = args.save_dir.as_ref().map(|_| cpu);
            items.push((
                chain,
                Item::Child {
                    header: format!("== {} (cpu {cpu}) ==", script_path.display()),
                    cmd,
                    limit: Duration::from_secs(timeout + 30),
                },
            ));
        }
    }
    let runs = items
        .iter()
        .filter(|(_, i)| matches!(i, Item::Child { .. }))
        .count();
    let (passed, failed) = jobs::run_all(items, args.jobs);
    println!(
        "{runs} runs of {} scripts in {:.1} s",
        args.scripts.len(),
        started.elapsed().as_secs_f64()
    );
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

fn cmd_run_one(args: RunOneArgs) -> Result<bool> {
    let cpu = CpuMode::from_name(&args.cpu)
        .with_context(|| format!("unknown CPU mode `{}`", args.cpu))?;
    let outcome = (|| -> Result<run::Report> {
        let script = load_script(&args.script)?;
        let frames = run_length(&script, args.frames, &args.script)?;
        let opts = RunOptions {
            paths: paths(&args.emu)?,
            cpu,
            rom: read_rom(&args.rom)?,
            frames,
            out_dir: args.out.clone(),
            log: args.emu.log,
            verbose: args.emu.verbose,
            timeout: Duration::from_secs(timeout_secs(args.emu.timeout, frames)),
            save_dir: args.save_dir.clone(),
            count_per_op: args.emu.count_per_op,
            trace: args.trace.clone(),
        };
        run::run(&script, &opts)
    })();
    let (passed, failed) = match &outcome {
        Ok(report) => {
            print!("{}", report.format());
            (report.passed(), report.failed())
        }
        Err(e) => {
            println!("FAIL run: {e:#}");
            (0, 1)
        }
    };
    println!("{passed} passed, {failed} failed");
    let _ = std::io::stdout().flush();
    Ok(failed == 0)
}

fn cmd_shot(args: ShotArgs) -> Result<bool> {
    let cpu = CpuMode::from_name(&args.cpu)
        .with_context(|| format!("unknown CPU mode `{}`", args.cpu))?;
    if args.frame == 0 {
        bail!("--frame must be at least 1");
    }
    let script = Script {
        events: vec![Event {
            frame: args.frame,
            line: 0,
            action: Action::Shot {
                path: args.output.clone(),
            },
        }],
        ..Script::default()
    };
    let opts = RunOptions {
        paths: paths(&args.emu)?,
        cpu,
        rom: read_rom(&args.rom)?,
        frames: args.frame,
        out_dir: PathBuf::new(),
        log: args.emu.log,
        verbose: args.emu.verbose,
        timeout: Duration::from_secs(timeout_secs(args.emu.timeout, args.frame)),
        save_dir: None,
        count_per_op: args.emu.count_per_op,
        trace: None,
    };
    let report = run::run(&script, &opts)?;
    print!("{}", report.format());
    Ok(report.failed() == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_timeout_grows_with_the_run() {
        assert_eq!(timeout_secs(None, 600), 180);
        assert_eq!(timeout_secs(None, 20_200), 2140);
        assert_eq!(timeout_secs(Some(5), 20_200), 5);
    }

    #[test]
    fn cpu_lists() {
        assert_eq!(parse_cpus("all").unwrap(), CpuMode::ALL.to_vec());
        assert_eq!(
            parse_cpus("pure,dynarec,pure").unwrap(),
            vec![CpuMode::Pure, CpuMode::Dynarec]
        );
        assert!(parse_cpus("fast").is_err());
    }
}
