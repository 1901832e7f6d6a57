//! `ttt solve`: the value of the empty board with perfect play.
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde::Serialize;
use ttt_core::{Position, Rules};

use crate::ai::solver::PROVER_ABOVE;
use crate::ai::{is_solvable, Progress, Prover, SharedTable, Solver, Value, Verdict};
use crate::common::{
    exact_k_refusal, fit_tt, grouped, input_error, parse_rules, parse_tt_mb, per_second,
    tt_entries_useful, with_k, DEFAULT_TT_MB,
};
use crate::engine::analyze::ValueJson;
use crate::engine::certificate::{Certificate, Failure};
use crate::engine::parallel_proof;
use crate::engine::solve_parts::{self, PartArgs};
use crate::interrupt::Interrupt;
use crate::output_file::OutputFile;
use crate::progress::ProgressLine;

const AFTER_HELP: &str = "\
Prints the value of the empty board for X (who moves first), the nodes searched,
the time and nodes per second. Boards of up to 64 cells are proven by the prover
(win, draw or loss). The distance of a win is found by the older solver: on
boards of up to 25 cells always, on larger ones with --distance (it can take far
longer than the proof). The time printed is the wall time of the whole command,
with its parts when there are several. On a terminal a progress line is shown on stderr; through a
pipe only the result is printed. Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) stops
the work cleanly with exit status 2: no result if the proof was not done, no
certificate file if it was not written (a second signal ends ttt at once with
status 128 + the signal, still leaving no temporary file). With --certificate
FILE a proof is written that `ttt verify FILE` checks without trusting the
solver: a regular file is replaced once the proof is complete (keeping its
mode), a symbolic link is written through, a pipe or a device such as
/dev/null or /dev/stdout is written into. The proof and the certificate are
worked out on every core (--threads), the threads sharing one table of --tt-mb
MiB (best about the size of the proof: each page first touched costs a page
fault); the distance on one.

A long proof goes in parts (--list-parts): part 0 asks whether O wins, part i
whether X wins after its i-th first move up to symmetry. --resume FILE proves
as many at once as there are threads (each on its share of them and of the
table), adding each to FILE as soon as it is settled: a signal keeps what is
settled (exit status 2), and the same command goes on from
there (8x8 k=5: `make prove-885`, hours). --part N proves one, a job for GNU
parallel or a Slurm array; `ttt join` makes the certificate of the parts.

Examples:
  ttt solve                       # 3x3 k=3: draw
  ttt solve --size 4x4 -k 3       # X wins
  ttt solve --size 5x4 -k 4 --json
  ttt solve --size 9x3 -k 3 --distance  # X wins in 7 (27 cells)
  ttt solve --size 6x6 -k 5 --certificate 665.cert && ttt verify 665.cert
  ttt solve --size 7x7 -k 5 --tt-mb 64 --threads 1  # the proof on one core
  ttt solve --size 6x6 -k 5 --list-parts --json  # what each part asks
  ttt solve --size 6x6 -k 5 --part 3 --census --certificate 665-3.part
  ttt solve --size 6x6 -k 5 --resume 665.parts --certificate 665.cert
  ttt solve --size 6x6 -k 5 --list-parts | \\
    parallel ttt solve --size 6x6 -k 5 --threads 1 --part {} --certificate 665-{}.part
  ttt join --output 665.cert 665-*.part && ttt verify 665.cert";

/// Arguments of `ttt solve`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct SolveArgs {
    #[arg(long, value_name = crate::common::SIZE_VALUE, default_value = "3", value_parser = parse_rules,
          help = crate::common::SIZE_HELP)]
    pub size: Rules,
    #[arg(short, long = "win-length", value_name = "K", help = crate::common::WIN_LENGTH_HELP)]
    pub k: Option<u8>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write a proof of the result to FILE, checkable with `ttt verify FILE`.
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
    /// Also find the distance of a win on boards of more than 25 cells
    /// (on smaller ones it is always found).
    #[arg(long)]
    pub distance: bool,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_TT_MB, value_parser = parse_tt_mb)]
    pub tt_mb: usize,
    /// Threads for the proof [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Print the numbers of the parts the proof splits into (one per line;
    /// with --json, what each asks): part 0 asks whether O wins, part i
    /// whether X wins after its i-th first move up to symmetry.
    #[arg(long, conflicts_with_all = ["part", "resume", "certificate", "distance"])]
    pub list_parts: bool,
    /// Prove one part (see --list-parts) and write its part of the
    /// certificate to --certificate FILE; `ttt join` joins the parts.
    #[arg(long, value_name = "N", requires = "certificate", conflicts_with_all = ["resume", "distance", "json"])]
    pub part: Option<usize>,
    /// Prove the board part by part, as many parts at once as there are
    /// threads, adding each part to FILE as it is settled: stopped (Ctrl-C)
    /// and run again, the proof goes on from there. With --certificate, the
    /// parts are joined into it at the end.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["distance", "json"])]
    pub resume: Option<PathBuf>,
    /// With --part: how the proof's positions were settled, and its
    /// heaviest subtrees PLY plies below the part's position [PLY: 2].
    #[arg(long, value_name = "PLY", requires = "part", num_args = 0..=1, default_missing_value = "2")]
    pub census: Option<u32>,
    /// With --part: stop once the proof has searched N nodes (a bounded
    /// benchmark: the same work on every run).
    #[arg(long, value_name = "N", requires = "part")]
    pub max_nodes: Option<u64>,
}

#[derive(Serialize)]
struct SolveJson {
    rules: String,
    columns: u8,
    rows: u8,
    k: u8,
    /// `x-wins`, `draw` or `o-wins`.
    result: &'static str,
    /// With the distance, where computed.
    value: Option<ValueJson>,
    /// The prover's nodes.
    nodes: u64,
    tt_hits: u64,
    /// Wall time of the whole command (table, proof, distance, certificate).
    seconds: f64,
    /// The proof's share of it.
    proof_seconds: f64,
    /// The distance search's share, where it ran.
    distance_seconds: Option<f64>,
    /// The distance search's nodes, where it ran.
    distance_nodes: Option<u64>,
    /// The prover's nodes per second of proof (all threads).
    nodes_per_second: u64,
    /// Threads the proof ran on.
    threads: usize,
    tt_mib: usize,
    certificate: Option<CertificateJson>,
}

#[derive(Serialize)]
struct CertificateJson {
    path: String,
    bytes: u64,
    entries: usize,
    seconds: f64,
}

/// Runs `ttt solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<()> {
    let rules = with_k(args.size, args.k)?;
    if let Some(why) = exact_k_refusal(&rules) {
        return Err(input_error(why));
    }
    if !Prover::fits(&rules) {
        return Err(input_error(format!(
            "{rules} is too large to solve exactly with this engine (at most 64 cells)"
        )));
    }
    if args.list_parts {
        return solve_parts::list(rules, args.json);
    }
    let part_args = PartArgs {
        tt_mb: args.tt_mb,
        threads: args.threads,
        certificate: args.certificate.as_deref(),
        census: args.census,
        max_nodes: args.max_nodes,
    };
    if let Some(part) = args.part {
        return solve_parts::run_part(&part_args, rules, part);
    }
    if let Some(journal) = &args.resume {
        return solve_parts::run_resume(&part_args, rules, journal);
    }
    // Before the search: a bad path must not cost minutes of solving.
    let output = match &args.certificate {
        Some(path) => Some(OutputFile::prepare(path, "--certificate")?),
        None => None,
    };
    // The time the user waits: from the process's start (loading the
    // program, parsing the arguments, the table's allocation and all).
    let start = crate::common::started();
    let table_start = Instant::now();
    // Sized to the board: `--tt-mb 4096` on 3x3 takes under a MiB.
    // (A record is 24 bytes here, two 16-byte entries in the solver's.)
    let words =
        parallel_proof::alloc_table(args.tt_mb, tt_entries_useful(&rules).saturating_mul(3))
            .ok_or_else(|| {
                input_error(format!(
                    "cannot allocate a {} MiB table for {rules}: choose a smaller --tt-mb",
                    args.tt_mb
                ))
            })?;
    let table = SharedTable::new(&words);
    let tt_mib = std::mem::size_of_val(words.as_slice()).div_ceil(1 << 20);
    let threads = args
        .threads
        .map_or_else(parallel_proof::default_threads, usize::from);
    let table_secs = table_start.elapsed().as_secs_f64();
    let pos = Position::new(rules);
    // Ctrl-C and the like set the flag; the search sees it within a few
    // thousand nodes.
    let interrupt = Interrupt::default();
    let handlers = interrupt.on_signals()?;
    let stop = interrupt.flag();
    let proof_start = Instant::now();
    let mut progress = ProgressLine::new(
        &format!(
            "solving {rules}: {{human_pos}} nodes, {{elapsed}}, {{rate}}{{msg}} (Ctrl-C stops)"
        ),
        None,
    );
    let proof = parallel_proof::verdict(table, &pos, threads, stop, &mut |p| {
        if p.total > 0 {
            progress.message(format!(", first moves settled {}/{}", p.done, p.total));
        }
        progress.set(p.nodes)
    });
    let (verdict, stats) = (proof.verdict, proof.stats);
    let proof_secs = proof_start.elapsed().as_secs_f64();
    progress.clear();
    let Some(verdict) = verdict else {
        return Err(interrupted(
            stats.nodes,
            proof.settled,
            start.elapsed().as_secs_f64(),
        ));
    };
    // The value is printed even when the certificate fails; its error
    // comes after.
    let (certificate_info, certificate_error) = match output {
        Some(output) => match write_certificate(table, threads, rules, verdict, stop, output) {
            Ok(info) => (Some(info), None),
            Err(e) => (None, Some(e)),
        },
        None => (None, None),
    };
    // The proof's table is given back before the clock stops: freeing the
    // pages it touched is part of the wait (a millisecond on 6x5 k=4).
    drop(words);
    // The exact distance where the solver reaches (the prover finds only
    // who wins): cheap up to PROVER_ABOVE cells, else only when asked. The
    // solver has a table of its own.
    let want_distance = rules.cell_count() <= PROVER_ABOVE || args.distance;
    let distance_start = Instant::now();
    let (value, distance) = match verdict {
        Verdict::Draw => (Some(Value::Draw), None),
        _ if want_distance && is_solvable(&rules) => {
            let mut tt = Vec::new();
            fit_tt(&mut tt, args.tt_mb, &rules)?;
            let mut progress = ProgressLine::new(
                "the distance of the win: {human_pos} nodes, {elapsed}, {rate} (Ctrl-C stops)",
                None,
            );
            let mut on_progress = |p: Progress| progress.set(p.nodes);
            let stopped = || interrupt.is_set();
            let mut solver = Solver::new(&mut tt);
            solver.set_progress(&mut on_progress);
            solver.set_deadline(&stopped);
            let value = solver.try_solve(&pos);
            let nodes = solver.stats().nodes;
            progress.clear();
            let secs = distance_start.elapsed().as_secs_f64();
            (value, Some((nodes, secs)))
        }
        _ => (None, None),
    };
    drop(handlers);
    let secs = start.elapsed().as_secs_f64();
    let result = match verdict {
        Verdict::Win => "x-wins",
        Verdict::Draw => "draw",
        Verdict::Loss => "o-wins",
    };
    let mut out = io::stdout().lock();
    if args.json {
        let json = SolveJson {
            rules: rules.to_string(),
            columns: rules.columns(),
            rows: rules.rows(),
            k: rules.k(),
            result,
            value: value.map(Into::into),
            nodes: stats.nodes,
            tt_hits: stats.tt_hits,
            tt_mib,
            seconds: secs,
            proof_seconds: proof_secs,
            distance_seconds: distance.map(|(_, secs)| secs),
            distance_nodes: distance.map(|(nodes, _)| nodes),
            nodes_per_second: per_second(stats.nodes, proof_secs),
            threads,
            certificate: certificate_info,
        };
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        match value {
            Some(v) => writeln!(out, "{rules}: {v} (for X, moving first)")?,
            None => writeln!(
                out,
                "{rules}: {} (for X, moving first; {})",
                match verdict {
                    Verdict::Win => "win",
                    Verdict::Draw => "draw",
                    Verdict::Loss => "loss",
                },
                if is_solvable(&rules) {
                    "--distance also finds its length"
                } else {
                    "its length is out of reach on boards this size"
                }
            )?,
        }
        // Each search's nodes over its own time (the distance search, where
        // it runs, is most of the wait and has a rate of its own).
        let threads_note = if threads > 1 {
            format!(" ({threads} threads)")
        } else {
            String::new()
        };
        writeln!(
            out,
            "proof    {}{threads_note}",
            search_line(stats.nodes, proof_secs)
        )?;
        if let Some((nodes, secs)) = distance {
            writeln!(out, "distance {}", search_line(nodes, secs))?;
        }
        // The parts, when the proof is not nearly all of the wait.
        let mut parts = vec![
            format!("table {table_secs:.3} s"),
            format!("proof {proof_secs:.3} s"),
        ];
        if let Some(c) = &certificate_info {
            parts.push(format!("certificate {:.3} s", c.seconds));
        }
        if let Some((_, d)) = distance {
            parts.push(format!("distance {d:.3} s"));
        }
        if secs - proof_secs > 0.05 * secs.max(0.1) {
            writeln!(out, "time     {secs:.3} s ({})", parts.join(", "))?;
        } else {
            writeln!(out, "time     {secs:.3} s")?;
        }
        writeln!(out, "table    {tt_mib} MiB")?;
        if let Some(c) = &certificate_info {
            writeln!(
                out,
                "certificate {} ({} entries, {} bytes, written in {:.3} s)",
                c.path,
                grouped(c.entries as u64),
                grouped(c.bytes),
                c.seconds
            )?;
        }
    }
    out.flush()?;
    match (certificate_error, value, distance) {
        (Some(e), _, _) => Err(e),
        // The distance search ran and has no value: stopped by a signal.
        (None, None, Some((_, secs))) => Err(input_error(format!(
            "the search for the distance was interrupted after {secs:.1} s: no distance"
        ))),
        _ => Ok(()),
    }
}

/// `N nodes in T, R nodes/s`: the time to three significant digits, so
/// that the rate is the nodes over the time shown.
fn search_line(nodes: u64, secs: f64) -> String {
    let time = if secs >= 1.0 {
        format!("{secs:.3} s")
    } else {
        let ms = secs * 1000.0;
        let decimals = match ms {
            m if m >= 100.0 => 0,
            m if m >= 10.0 => 1,
            m if m >= 1.0 => 2,
            _ => 3,
        };
        format!("{ms:.decimals$} ms")
    };
    format!(
        "{} nodes in {time}, {} nodes/s",
        grouped(nodes),
        grouped(per_second(nodes, secs))
    )
}

/// Proves `verdict` again, keeping the strategies, and writes the
/// certificate to `output`.
fn write_certificate(
    table: SharedTable<'_>,
    threads: usize,
    rules: Rules,
    verdict: Verdict,
    stop: &AtomicBool,
    output: OutputFile,
) -> anyhow::Result<CertificateJson> {
    let start = Instant::now();
    let mut progress = ProgressLine::new(
        "writing the certificate: {human_pos} positions, {elapsed}, {rate}",
        None,
    );
    let mut on_progress = |walked: u64| progress.set(walked);
    let cert = Certificate::prove(table, threads, rules, verdict, stop, &mut on_progress);
    progress.clear();
    let cert = cert.map_err(|failure| {
        let why = match failure {
            // Stopped as the proof is: the exit status --help gives.
            Failure::Stopped => {
                return input_error(format!(
                    "--certificate {}: the certificate was interrupted after {:.1} s: no file \
                     written",
                    output.path().display(),
                    start.elapsed().as_secs_f64()
                ))
            }
            Failure::Unsupported(why) => why,
            Failure::NoMove(why) => format!("no certificate: {why}"),
        };
        output.error(&format!("{why}: no file written"))
    })?;
    let path = output.path().display().to_string();
    let bytes = cert.write_to(output)?;
    Ok(CertificateJson {
        path,
        bytes,
        entries: cert.entries(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

fn interrupted(nodes: u64, (done, total): (u32, u32), secs: f64) -> anyhow::Error {
    // How far it came: the moves of the position being asked about
    // (the empty board, one question after the other) settled.
    let settled = if total > 0 {
        format!(" ({done} of {total} first moves settled)")
    } else {
        String::new()
    };
    input_error(format!(
        "interrupted after {} nodes and {secs:.1} s{settled}: no result",
        grouped(nodes)
    ))
}
