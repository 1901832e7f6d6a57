//! The parallel proof search: one prover a thread over one shared table
//! (`ttt_core::ai::SharedTable`). The provers share their answers through
//! the table and keep off each other's subtrees by its busy marks; the
//! first to answer the question stops the others. One thread is the plain
//! prover on the same table.
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use ttt_core::ai::{Progress, Prover, SearchStats, SharedTable, Verdict};
use ttt_core::Position;

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
pub struct ParallelProof {
    /// The value for the side to move; `None` if stopped.
    pub verdict: Option<Verdict>,
    /// Every thread's nodes and table hits together.
    pub stats: SearchStats,
    /// Moves put off because another thread was searching them.
    pub deferrals: u64,
    /// The first thread's last report: the moves of the question's position
    /// settled, of how many (how far a stopped proof had come).
    pub settled: (u32, u32),
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
            let mut prover = Prover::with_table(table);
            prover.set_stop(&halt);
            prover.set_progress(&mut count);
            let verdict = prover.verdict(pos);
            if verdict.is_some() {
                halt.store(true, Ordering::Relaxed);
            }
            (verdict, prover.stats(), prover.deferrals())
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
        deferrals: 0,
        settled: {
            let moves = root.load(Ordering::Relaxed);
            ((moves >> 32) as u32, moves as u32)
        },
    };
    for (verdict, stats, deferrals) in results.into_iter().flatten() {
        proof.verdict = proof.verdict.or(verdict);
        proof.stats.nodes += stats.nodes;
        proof.stats.tt_hits += stats.tt_hits;
        proof.deferrals += deferrals;
    }
    proof
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
