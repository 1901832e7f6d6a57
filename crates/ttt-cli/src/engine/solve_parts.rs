//! `ttt solve --list-parts`, `--part N` and `--resume FILE`: a proof in
//! parts (see [`super::parts`]), one part per job or one after the other
//! across sittings.
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use serde::Serialize;
use ttt_core::ai::SharedTable;
use ttt_core::{Mark, Rules};

use crate::common::{grouped, input_error, tt_entries_useful};
use crate::engine::certificate::Goal;
use crate::engine::parallel_proof::{self, Profile};
use crate::engine::parts::{self, Openings, PartFailure, PartProof};
use crate::engine::reduced::Geometry;
use crate::engine::verify;
use crate::interrupt::Interrupt;
use crate::output_file::OutputFile;
use crate::output_file::{self, Kind};
use crate::progress::ProgressLine;

/// What the proof in parts takes from `ttt solve`'s flags.
pub struct PartArgs<'a> {
    /// `--tt-mb`.
    pub tt_mb: usize,
    /// `--threads`.
    pub threads: Option<u16>,
    /// `--certificate`.
    pub certificate: Option<&'a Path>,
    /// `--census`.
    pub census: Option<u32>,
    /// `--max-nodes`.
    pub max_nodes: Option<u64>,
}

/// Subtrees kept per thread for `--census`.
const PROFILE_KEEP: usize = 12;

#[derive(Serialize)]
struct PartJson {
    part: usize,
    /// X's first move (1-based cell number), none for part 0.
    first_move: Option<usize>,
    /// First moves alike by symmetry.
    cells: Option<usize>,
    question: String,
}

/// `--list-parts`: the parts' numbers, one a line (with `--json`, what each
/// asks).
pub fn list(rules: Rules, json: bool) -> anyhow::Result<()> {
    let geometry = Geometry::new(rules).map_err(input_error)?;
    let openings = Openings::of(&geometry);
    let mut out = io::stdout().lock();
    if json {
        let parts: Vec<PartJson> = (0..openings.parts())
            .map(|part| {
                let opening = openings.opening(part);
                PartJson {
                    part,
                    first_move: opening.map(|(cell, _)| cell + 1),
                    cells: opening.map(|(_, cells)| cells),
                    question: parts::describe_part(&geometry, &openings, part),
                }
            })
            .collect();
        serde_json::to_writer_pretty(&mut out, &parts)?;
        writeln!(out)?;
    } else {
        for part in 0..openings.parts() {
            writeln!(out, "{part}")?;
        }
    }
    Ok(())
}

/// The proof's table and threads, and the signals that stop it.
struct Setup {
    words: Vec<std::sync::atomic::AtomicU64>,
    threads: usize,
    /// Set by SIGINT, SIGTERM, SIGHUP or SIGQUIT (while they are noted:
    /// see [`crate::interrupt`]), or by `--max-nodes`.
    interrupt: Interrupt,
}

fn setup(args: &PartArgs<'_>, rules: &Rules) -> anyhow::Result<Setup> {
    let words = parallel_proof::alloc_table(args.tt_mb, tt_entries_useful(rules).saturating_mul(3))
        .ok_or_else(|| {
            input_error(format!(
                "cannot allocate a {} MiB table for {rules}: choose a smaller --tt-mb",
                args.tt_mb
            ))
        })?;
    let threads = args
        .threads
        .map_or_else(parallel_proof::default_threads, usize::from);
    Ok(Setup {
        words,
        threads,
        interrupt: Interrupt::default(),
    })
}

/// Proves `part` with a progress line; a signal (Ctrl-C) stops it.
fn prove(
    setup: &Setup,
    geometry: &Geometry,
    openings: &Openings,
    part: usize,
    profile: Option<Profile>,
    max_nodes: Option<u64>,
) -> PartProof {
    let table = SharedTable::new(&setup.words);
    let mut progress = ProgressLine::new(
        &format!("part {part}: {{human_pos}} nodes, {{elapsed}}, {{rate}}{{msg}} (Ctrl-C stops)"),
        None,
    );
    let mut walk_line = ProgressLine::new(
        &format!("part {part}, its section: {{human_pos}} positions, {{elapsed}}, {{rate}}"),
        None,
    );
    let stop = setup.interrupt.flag();
    let run = parts::prove_part(
        table,
        setup.threads,
        geometry,
        openings,
        part,
        stop,
        profile,
        &mut |p| {
            if max_nodes.is_some_and(|m| p.nodes >= m) {
                stop.store(true, Ordering::Relaxed);
            }
            progress.set(p.nodes)
        },
        &mut |w| walk_line.set(w),
    );
    progress.clear();
    walk_line.clear();
    run
}

/// `--part N --certificate FILE`: one part, its section written as a part
/// file.
pub fn run_part(args: &PartArgs<'_>, rules: Rules, part: usize) -> anyhow::Result<()> {
    let geometry = Geometry::new(rules).map_err(input_error)?;
    let openings = Openings::of(&geometry);
    if part >= openings.parts() {
        return Err(input_error(format!(
            "--part {part}: {rules} has parts 0 to {} (`ttt solve --size {}x{} -k {} --list-parts`)",
            openings.parts() - 1,
            rules.columns(),
            rules.rows(),
            rules.k()
        )));
    }
    let Some(path) = args.certificate else {
        return Err(input_error("--part needs --certificate FILE for its part"));
    };
    let output = OutputFile::prepare(path, "--certificate")?;
    let setup = setup(args, &rules)?;
    let handlers = setup.interrupt.on_signals()?;
    let profile = args.census.map(|ply| Profile {
        ply,
        keep: PROFILE_KEEP,
    });
    let start = Instant::now();
    let run = prove(&setup, &geometry, &openings, part, profile, args.max_nodes);
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{rules}, {}",
        parts::describe_part(&geometry, &openings, part)
    )?;
    let written = match &run.result {
        Ok((answer, strategy, section_secs)) => {
            writeln!(out, "answer   {answer}")?;
            let bytes = parts::write_part_file(output, &geometry, strategy)?;
            Some((strategy.entries(), bytes, *section_secs))
        }
        Err(_) => None,
    };
    drop(handlers);
    print_run(
        &mut out,
        &geometry,
        &run,
        setup.threads,
        args.census.is_some(),
    )?;
    if let Some((entries, bytes, secs)) = written {
        writeln!(
            out,
            "part     {} ({} entries, {} bytes, written in {secs:.3} s); `ttt join` joins the parts",
            path.display(),
            grouped(entries as u64),
            grouped(bytes)
        )?;
    }
    writeln!(out, "time     {:.3} s", start.elapsed().as_secs_f64())?;
    out.flush()?;
    match run.result {
        Ok(_) => Ok(()),
        Err(PartFailure::Stopped) => Err(input_error(format!(
            "part {part} {} after {} nodes and {:.1} s: no part written",
            if setup.interrupt.is_set() {
                "interrupted"
            } else {
                "stopped at --max-nodes"
            },
            grouped(run.nodes),
            start.elapsed().as_secs_f64()
        ))),
        Err(PartFailure::Failed(why)) => Err(input_error(format!("part {part}: {why}"))),
    }
}

/// The figures of a part's proof; with `census`, how its positions were
/// settled and its heaviest subtrees.
fn print_run(
    out: &mut impl Write,
    geometry: &Geometry,
    run: &PartProof,
    threads: usize,
    census: bool,
) -> io::Result<()> {
    let rate = run.nodes as f64 / run.proof_seconds.max(1e-9);
    writeln!(
        out,
        "nodes    {} ({threads} thread{}; {} nodes/s; proof {:.3} s)",
        grouped(run.nodes),
        if threads == 1 { "" } else { "s" },
        grouped(rate as u64),
        run.proof_seconds
    )?;
    if census {
        writeln!(out, "positions settled by")?;
        for line in parts::census_lines(&run.census) {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "heaviest subtrees")?;
        for s in &run.profile {
            writeln!(out, "{}", parts::subtree_line(geometry, s))?;
        }
    }
    Ok(())
}

/// `--resume FILE`: the parts not yet in FILE proved one after the other,
/// each appended to FILE once settled; then, with `--certificate`, the
/// certificate joined from FILE. A signal keeps what is settled.
pub fn run_resume(args: &PartArgs<'_>, rules: Rules, journal_path: &Path) -> anyhow::Result<()> {
    let geometry = Geometry::new(rules).map_err(input_error)?;
    let openings = Openings::of(&geometry);
    // Before the search: a bad certificate path must not cost hours.
    let output = match args.certificate {
        Some(path) if output_file::same_file(path, journal_path) => {
            return Err(input_error(format!(
                "--certificate {}: the same file as --resume: the certificate would replace \
                 the parts it is joined from",
                path.display()
            )))
        }
        Some(path) => Some(OutputFile::prepare(path, "--certificate")?),
        None => None,
    };
    let (done, journal) = open_journal(journal_path, &geometry)?;
    let start = Instant::now();
    let mut out = io::stdout().lock();
    let x_wins = done
        .iter()
        .any(|s| s.player == Mark::X && s.goal == verify::Goal::Wins);
    let settled: Vec<usize> = done
        .iter()
        .filter_map(|s| parts::part_of(&geometry, &openings, s))
        .collect();
    // The openings first: one that X wins settles the board.
    let todo: Vec<usize> = (1..openings.parts())
        .chain([0])
        .filter(|p| !settled.contains(p))
        .collect();
    writeln!(
        out,
        "{rules}: {} parts, {} settled in {}{}",
        openings.parts(),
        openings.parts() - todo.len(),
        journal_path.display(),
        if x_wins {
            " (X wins one: the board is settled)"
        } else {
            ""
        }
    )?;
    out.flush()?;
    // What a stop keeps, for its message.
    let kept = |settled: usize| {
        format!(
            "the {settled} part{} settled so far {} kept in {}; run the same command to go on",
            if settled == 1 { "" } else { "s" },
            if settled == 1 { "is" } else { "are" },
            journal_path.display()
        )
    };
    let interrupt = Interrupt::default();
    // Noted from here to the end: a signal stops the proof or the join
    // cleanly (a section being appended is finished first).
    let handlers = interrupt.on_signals()?;
    let mut settled_now = openings.parts() - todo.len();
    if !x_wins && !todo.is_empty() {
        let sitting = prove_at_once(
            args,
            &geometry,
            &openings,
            &todo,
            &journal,
            journal_path,
            &interrupt,
        )?;
        settled_now += sitting.settled;
        match sitting.failure {
            None => {}
            Some(ResumeFailure::Stopped(parts)) => {
                return Err(input_error(format!(
                    "interrupted in part{} {} after {} nodes and {:.1} s: {}",
                    if parts.len() == 1 { "" } else { "s" },
                    list_parts(&parts),
                    grouped(sitting.nodes),
                    start.elapsed().as_secs_f64(),
                    kept(settled_now)
                )));
            }
            Some(ResumeFailure::Failed(why)) => return Err(why),
        }
    }
    drop(journal);
    writeln!(
        out,
        "time     {:.3} s this sitting",
        start.elapsed().as_secs_f64()
    )?;
    let Some(output) = output else {
        writeln!(
            out,
            "the parts are in {0}: `ttt join --output FILE {0}` makes the certificate once \
             every part is settled",
            journal_path.display()
        )?;
        return Ok(());
    };
    let path = output.path().display().to_string();
    let joined = parts::join(&[journal_path], output, interrupt.flag());
    drop(handlers);
    let joined = joined.map_err(|e| {
        if interrupt.is_set() {
            input_error(format!(
                "--certificate {path}: interrupted while joining: no file written; {}",
                kept(settled_now)
            ))
        } else {
            input_error(format!("{e:#}"))
        }
    })?;
    writeln!(
        out,
        "{rules}: {} (for X, moving first)\ncertificate {path} ({} section{}, {} entries, {} \
         bytes, written and checked in {:.3} s)",
        joined.claim,
        joined.sections,
        if joined.sections == 1 { "" } else { "s" },
        grouped(joined.checked.entries as u64),
        grouped(joined.bytes),
        joined.seconds
    )?;
    Ok(())
}

/// Why a sitting of `--resume` ended before every part was settled.
enum ResumeFailure {
    /// Stopped by a signal, in these parts.
    Stopped(Vec<usize>),
    /// A part could not be proved or kept.
    Failed(anyhow::Error),
}

/// What a sitting of `--resume` did.
struct Sitting {
    /// Every part's nodes.
    nodes: u64,
    /// Parts settled and kept.
    settled: usize,
    failure: Option<ResumeFailure>,
}

/// "7", "7 and 0", "7, 9 and 0".
fn list_parts(parts: &[usize]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!(
            "{} and {last}",
            rest.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// How `threads` threads are shared among `jobs` parts proved at once:
/// as evenly as they go, the first parts taking the odd ones.
fn threads_of_job(threads: usize, jobs: usize, job: usize) -> usize {
    threads / jobs + usize::from(job < threads % jobs)
}

/// One part being proved, as the progress line shows it.
#[derive(Default)]
struct JobState {
    /// The part, plus one (0: none yet or done).
    part: AtomicUsize,
    /// Its proof's nodes.
    nodes: AtomicU64,
    /// Positions of its section walked (0: still in the proof).
    walked: AtomicU64,
}

/// The parts of `todo`, in that order, proved as many at once as there are
/// threads (`--threads`; each part on its share of them and of the table):
/// one thread on each of two parts settles them in half the time two
/// threads on one part do (measured on part 5 of 8x8 k=5: two threads
/// searched 1.85 times the nodes of one). Each settled part is appended to
/// `journal` at once; one that X wins settles the board and stops the
/// others; a signal stops them all, what is settled kept.
fn prove_at_once(
    args: &PartArgs<'_>,
    geometry: &Geometry,
    openings: &Openings,
    todo: &[usize],
    journal: &File,
    journal_path: &Path,
    interrupt: &Interrupt,
) -> anyhow::Result<Sitting> {
    let rules = *geometry.rules();
    let threads = args
        .threads
        .map_or_else(parallel_proof::default_threads, usize::from);
    let jobs = threads.min(todo.len()).max(1);
    let tables = (0..jobs)
        .map(|_| {
            parallel_proof::alloc_table(
                (args.tt_mb / jobs).max(1),
                tt_entries_useful(&rules).saturating_mul(3),
            )
            .ok_or_else(|| {
                input_error(format!(
                    "cannot allocate {jobs} tables of {} MiB for {rules}: choose a smaller --tt-mb",
                    args.tt_mb / jobs
                ))
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    // Set by a signal, a part that X wins or a failure: every job stops.
    let halt = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let states: Vec<JobState> = (0..jobs).map(|_| JobState::default()).collect();
    // The nodes of the parts this sitting has finished, for the progress
    // line.
    let finished_nodes = AtomicU64::new(0);
    let sitting = Mutex::new(Sitting {
        nodes: 0,
        settled: 0,
        failure: None,
    });
    let board_settled = AtomicBool::new(false);
    let mut progress = ProgressLine::new(
        "{human_pos} nodes, {elapsed}, {rate}{msg} (Ctrl-C stops)",
        None,
    );
    // Lines for stdout, printed by the calling thread above the progress
    // line.
    let said = Mutex::new(Vec::<String>::new());
    let todo_len = todo.len();
    let done_count = AtomicUsize::new(0);
    parallel_proof::on_threads(
        jobs,
        |job| {
            let table = SharedTable::new(&tables[job]);
            let state = &states[job];
            loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= todo.len() || halt.load(Ordering::SeqCst) {
                    break;
                }
                let part = todo[i];
                state.walked.store(0, Ordering::Relaxed);
                state.part.store(part + 1, Ordering::Relaxed);
                let run = parts::prove_part(
                    table,
                    threads_of_job(threads, jobs, job),
                    geometry,
                    openings,
                    part,
                    &halt,
                    None,
                    &mut |p| state.nodes.store(p.nodes, Ordering::Relaxed),
                    &mut |w| state.walked.store(w.max(1), Ordering::Relaxed),
                );
                state.part.store(0, Ordering::Relaxed);
                finished_nodes.fetch_add(run.nodes, Ordering::Relaxed);
                state.nodes.store(0, Ordering::Relaxed);
                let mut sitting = sitting.lock().unwrap_or_else(PoisonError::into_inner);
                sitting.nodes += run.nodes;
                match run.result {
                    Ok((answer, strategy, section_secs)) => {
                        let bytes = match parts::append_section(journal, geometry, &strategy) {
                            Ok(bytes) => bytes,
                            Err(e) => {
                                sitting.failure = Some(ResumeFailure::Failed(input_error(
                                    format!("--resume {}: {e}", journal_path.display()),
                                )));
                                halt.store(true, Ordering::SeqCst);
                                break;
                            }
                        };
                        sitting.settled += 1;
                        let n = done_count.fetch_add(1, Ordering::SeqCst) + 1;
                        said.lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .push(format!(
                                "part {part} ({n} of {todo_len} to do): {answer}; {} nodes, proof \
                                 {:.1} s, section {} entries ({} bytes) in {section_secs:.1} s",
                                grouped(run.nodes),
                                run.proof_seconds,
                                grouped(strategy.entries() as u64),
                                grouped(bytes)
                            ));
                        if strategy.player == Mark::X && strategy.goal == Goal::Wins {
                            board_settled.store(true, Ordering::SeqCst);
                            halt.store(true, Ordering::SeqCst);
                            break;
                        }
                    }
                    Err(PartFailure::Stopped) => {
                        // Halted: by a signal (reported below), or because
                        // another part settled the board or failed.
                        if interrupt.is_set() {
                            match &mut sitting.failure {
                                Some(ResumeFailure::Stopped(parts)) => parts.push(part),
                                None => sitting.failure = Some(ResumeFailure::Stopped(vec![part])),
                                Some(ResumeFailure::Failed(_)) => {}
                            }
                        }
                        break;
                    }
                    Err(PartFailure::Failed(why)) => {
                        sitting.failure = Some(ResumeFailure::Failed(input_error(format!(
                            "part {part}: {why}"
                        ))));
                        halt.store(true, Ordering::SeqCst);
                        break;
                    }
                }
            }
        },
        || {
            if interrupt.is_set() {
                halt.store(true, Ordering::SeqCst);
            }
            let lines = std::mem::take(&mut *said.lock().unwrap_or_else(PoisonError::into_inner));
            if !lines.is_empty() {
                progress.suspend(|| {
                    let mut out = io::stdout().lock();
                    for line in &lines {
                        let _ = writeln!(out, "{line}");
                    }
                    let _ = out.flush();
                });
            }
            let mut total = finished_nodes.load(Ordering::Relaxed);
            let mut running = Vec::new();
            for s in &states {
                let part = s.part.load(Ordering::Relaxed);
                let nodes = s.nodes.load(Ordering::Relaxed);
                total += nodes;
                if part > 0 {
                    let walked = s.walked.load(Ordering::Relaxed);
                    running.push(if walked == 0 {
                        format!("part {}: proof", part - 1)
                    } else {
                        format!("part {}: section, {} positions", part - 1, grouped(walked))
                    });
                }
            }
            progress.message(if running.is_empty() {
                String::new()
            } else {
                format!(" ({})", running.join("; "))
            });
            progress.set(total);
        },
    );
    progress.clear();
    let mut sitting = sitting.into_inner().unwrap_or_else(PoisonError::into_inner);
    if board_settled.load(Ordering::SeqCst)
        && matches!(sitting.failure, Some(ResumeFailure::Stopped(_)))
    {
        // X wins a part: the parts cut short are not needed.
        sitting.failure = None;
    }
    if let Some(ResumeFailure::Stopped(parts)) = &mut sitting.failure {
        parts.sort_by_key(|&p| todo.iter().position(|&t| t == p));
    }
    Ok(sitting)
}

/// Opens the journal at `path` to append to it, made with its header if
/// new (whole or not at all, as an [`OutputFile`]); its whole sections (a
/// section cut off by a kill is dropped, the file cut back). A journal is
/// read again by the next run: a regular file (or a link to one), never a
/// pipe or a device.
fn open_journal(path: &Path, geometry: &Geometry) -> anyhow::Result<(Vec<parts::Section>, File)> {
    let shown = path.display();
    let fresh = match output_file::check_writable(path, "--resume")? {
        Kind::Missing => true,
        Kind::Special => {
            return Err(input_error(format!(
                "--resume {shown}: not a regular file (the parts kept in it are read again \
                 by the next run)"
            )))
        }
        Kind::Regular => std::fs::metadata(path).is_ok_and(|m| m.len() == 0),
    };
    let append = || {
        OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| input_error(format!("--resume {shown}: cannot write: {e}")))
    };
    if fresh {
        OutputFile::prepare(path, "--resume")?
            .write(|out| parts::write_part_header(out, geometry.rules()))?;
        return Ok((Vec::new(), append()?));
    }
    let file = parts::scan(path).map_err(|e| input_error(format!("--resume {shown}: {e}")))?;
    if file.geometry.rules() != geometry.rules() {
        return Err(input_error(format!(
            "--resume {shown}: it holds parts of a proof of {}, not of {}",
            file.geometry.rules(),
            geometry.rules()
        )));
    }
    let journal = append()?;
    if file.cut_off {
        // Killed while appending: the whole sections stay.
        journal
            .set_len(file.whole)
            .and_then(|()| journal.sync_data())
            .map_err(|e| input_error(format!("--resume {shown}: {e}")))?;
        eprintln!("--resume {shown}: a section cut off at its end was dropped");
    }
    Ok((file.sections, journal))
}
