//! The parallel proof search: one prover a thread over one shared table
//! (`ttt_core::ai::SharedTable`). The provers share their answers through
//! the table and keep off each other's subtrees by its busy marks; the
//! first to answer the question stops the others. One thread is the plain
//! prover on the same table.
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use ttt_core::ai::{Census, Progress, Prover, SearchStats, SharedTable, Subtree, Verdict};
use ttt_core::{Mark, Position};

/// The threads a proof uses unless told otherwise: one per core.
pub fn default_threads() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// Words (8 bytes each) of a shared table of at most `mib` MiB, allocated
/// zeroed (untouched pages cost nothing), or `None` if the memory cannot
/// be had. Never more than `useful` words.
pub fn alloc_table(mib: usize, useful: usize) -> Option<Vec<AtomicU64>> {
    let words = (mib.saturating_mul(1 << 20) / 8).clamp(64, useful.max(64));
    bytemuck::allocation::try_zeroed_vec(words).ok()
}

/// What a parallel proof found.
pub struct ParallelProof<R = Verdict> {
    /// The answer; `None` if stopped.
    pub verdict: Option<R>,
    /// Every thread's nodes and table hits together.
    pub stats: SearchStats,
    /// Every thread's census together (`deepest`: the deepest of them).
    pub census: Census,
    /// The heaviest subtrees every thread kept (see [`Profile`]), heaviest
    /// first.
    pub profile: Vec<Subtree>,
    /// Moves put off because another thread was searching them.
    pub deferrals: u64,
    /// The first thread's last report: the moves of the question's position
    /// settled, of how many (how far a stopped proof had come).
    pub settled: (u32, u32),
}

/// Which subtrees a proof keeps for its profile: the `keep` heaviest that
/// start `ply` plies below the question's position, per thread.
#[derive(Copy, Clone, Debug)]
pub struct Profile {
    /// Plies below the question's position.
    pub ply: u32,
    /// How many per thread.
    pub keep: usize,
}

/// The value of `pos` for the side to move, proved by `threads` provers
/// (at least one) over `table`. Stops (verdict `None`) once `stop` is set;
/// calls `progress` several times a second with the nodes searched so far
/// (every thread's) and, from the first thread, the moves of the question's
/// position settled (`done` of `total`).
pub fn verdict(
    table: SharedTable<'_>,
    pos: &Position,
    threads: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> ParallelProof {
    ask(table, threads, stop, None, progress, |p| p.verdict(pos))
}

/// Whether `attacker` can force a win from `pos` (see [`Prover::wins`]),
/// proved as [`verdict`] proves, keeping `profile` where given.
pub fn wins(
    table: SharedTable<'_>,
    pos: &Position,
    attacker: Mark,
    threads: usize,
    stop: &AtomicBool,
    profile: Option<Profile>,
    progress: &mut dyn FnMut(Progress),
) -> ParallelProof<bool> {
    ask(table, threads, stop, profile, progress, |p| {
        p.wins(pos, attacker)
    })
}

/// `question` asked by `threads` provers over `table`, the first answer
/// kept (see [`verdict`]).
fn ask<R: Copy + Send>(
    table: SharedTable<'_>,
    threads: usize,
    stop: &AtomicBool,
    profile: Option<Profile>,
    progress: &mut dyn FnMut(Progress),
    question: impl Fn(&mut Prover<'_, SharedTable<'_>>) -> Option<R> + Sync,
) -> ParallelProof<R> {
    let threads = threads.max(1);
    // Set by the first thread to answer, or when `stop` is seen: the
    // others then stop within a few thousand nodes.
    let halt = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    // The first thread's `done` and `total`, packed.
    let root = AtomicU64::new(0);
    let results = on_threads(
        threads,
        |thread| {
            let mut counted = 0;
            let mut count = |p: Progress| {
                nodes.fetch_add(p.nodes - counted, Ordering::Relaxed);
                counted = p.nodes;
                if thread == 0 {
                    root.store(
                        u64::from(p.done) << 32 | u64::from(p.total),
                        Ordering::Relaxed,
                    );
                }
            };
            let mut slots = vec![Subtree::default(); profile.map_or(0, |p| p.keep)];
            let mut prover = Prover::with_table(table);
            prover.set_stop(&halt);
            prover.set_progress(&mut count);
            if let Some(p) = profile {
                prover.set_profile(p.ply, &mut slots);
            }
            let answer = question(&mut prover);
            if answer.is_some() {
                halt.store(true, Ordering::Relaxed);
            }
            let kept = prover.profile().to_vec();
            (
                answer,
                prover.stats(),
                prover.census(),
                kept,
                prover.deferrals(),
            )
        },
        || {
            // Ctrl-C passed on, and the progress.
            if stop.load(Ordering::Relaxed) {
                halt.store(true, Ordering::Relaxed);
            }
            let moves = root.load(Ordering::Relaxed);
            progress(Progress {
                done: (moves >> 32) as u32,
                total: moves as u32,
                nodes: nodes.load(Ordering::Relaxed),
                tt_hits: 0,
            });
        },
    );
    let mut proof = ParallelProof {
        verdict: None,
        stats: SearchStats::default(),
        census: Census::default(),
        profile: Vec::new(),
        deferrals: 0,
        settled: {
            let moves = root.load(Ordering::Relaxed);
            ((moves >> 32) as u32, moves as u32)
        },
    };
    for (answer, stats, census, kept, deferrals) in results.into_iter().flatten() {
        proof.verdict = proof.verdict.or(answer);
        proof.stats.nodes += stats.nodes;
        proof.stats.tt_hits += stats.tt_hits;
        add_census(&mut proof.census, &census);
        proof.profile.extend(kept);
        proof.deferrals += deferrals;
    }
    proof.profile.sort_by_key(|s| std::cmp::Reverse(s.nodes));
    proof
}

/// Adds `c` to `sum` (the deepest ply: the larger).
fn add_census(sum: &mut Census, c: &Census) {
    sum.lines += c.lines;
    sum.no_lines += c.no_lines;
    sum.potential += c.potential;
    sum.potential_ahead += c.potential_ahead;
    sum.table += c.table;
    sum.pairings += c.pairings;
    sum.searched += c.searched;
    sum.pairing_misses += c.pairing_misses;
    sum.pairing_give_ups += c.pairing_give_ups;
    sum.pairing_steps_found += c.pairing_steps_found;
    sum.pairing_steps_none += c.pairing_steps_none;
    sum.pairing_steps_given_up += c.pairing_steps_given_up;
    sum.twins += c.twins;
    sum.attacker_moves += c.attacker_moves;
    sum.defender_moves += c.defender_moves;
    sum.defender_searched += c.defender_searched;
    sum.deepest = sum.deepest.max(c.deepest);
}

/// Runs `work(0)` .. `work(threads - 1)` on as many threads and returns
/// their results in that order (`Err` for a thread that panicked). The
/// calling thread meanwhile calls `tick` every 50 ms and at each thread's
/// end (progress lines, passing on Ctrl-C).
pub fn on_threads<R: Send>(
    threads: usize,
    work: impl Fn(usize) -> R + Sync,
    mut tick: impl FnMut(),
) -> Vec<thread::Result<R>> {
    let (done_tx, done) = mpsc::channel::<()>();
    thread::scope(|scope| {
        let work = &work;
        let workers: Vec<_> = (0..threads)
            .map(|i| {
                let done_tx = done_tx.clone();
                scope.spawn(move || {
                    let r = work(i);
                    let _ = done_tx.send(());
                    r
                })
            })
            .collect();
        drop(done_tx);
        let mut finished = 0;
        while finished < threads {
            match done.recv_timeout(Duration::from_millis(50)) {
                Ok(()) => finished += 1,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                // Every sender gone: every thread has ended.
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            tick();
        }
        workers.into_iter().map(|w| w.join()).collect()
    })
}
