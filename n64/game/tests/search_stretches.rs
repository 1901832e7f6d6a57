//! The console runs the computer's search between two frames and runs each
//! frame due from inside it, from the search's stop rule (`n64/src/think.rs`):
//! the search's work between two calls of the rule holds a frame up. A node
//! of the 15x15 pattern board costs the console a fraction of a millisecond;
//! reading the position into the board before the first node cost it 14-17
//! ms at once (mupen64plus), a whole frame. Here on the host: the longest
//! stretch between two calls (the search's start and end included), against
//! the median one, on positions of a console game (`game_15x15.script`).
use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

use ttt64_game::{PatternUndo, Purpose, SearchJob, TAKE_BACKS};
use ttt_core::ai::{PlayerKind, TtEntry};
use ttt_core::{Position, Rules};

/// Calls of the stop rule a search gets (it stops at the last).
const CALLS: usize = 400;
/// Runs of each search: each stretch's shortest time over them is kept,
/// so the host's other work does not count.
const RUNS: usize = 7;
/// The longest stretch may take this many times the median one of all
/// the searches (a node's): a few milliseconds on the console. (Before the
/// board was read with pauses: 26.9; since: 5.0-8.7, and 10.8 once on a
/// core loaded by other builds, where even the shortest of the runs is
/// slowed.)
const MOST: u32 = 15;

/// The stretches of the console's search of `pos` (Strong, its move), in
/// order, each the shortest over [`RUNS`] runs.
fn stretches(pos: &Position) -> Vec<Duration> {
    let mut shortest: Vec<Duration> = Vec::new();
    for _ in 0..RUNS {
        let mut tt = vec![TtEntry::EMPTY; 1 << 14];
        let mut take_backs: Vec<PatternUndo> =
            (0..TAKE_BACKS).map(|_| PatternUndo::EMPTY).collect();
        let job = SearchJob {
            id: 1,
            pos: pos.clone(),
            purpose: Purpose::Move(PlayerKind::Strong),
            seed: ttt64_game::move_seed(337, pos.mark_count()),
            time_ms: Some(1_000),
        };
        let times = RefCell::new(Vec::with_capacity(CALLS + 1));
        let last = Cell::new(Instant::now());
        let stop = || {
            let now = Instant::now();
            times.borrow_mut().push(now - last.get());
            last.set(Instant::now());
            times.borrow().len() >= CALLS
        };
        last.set(Instant::now());
        job.run(&mut tt, &mut take_backs, &stop);
        let mut times = times.into_inner();
        times.push(last.get().elapsed());
        if shortest.is_empty() {
            shortest = times;
        } else {
            assert_eq!(shortest.len(), times.len(), "the same search each run");
            for (s, t) in shortest.iter_mut().zip(times) {
                *s = (*s).min(t);
            }
        }
    }
    shortest
}

fn after(moves: &str) -> Position {
    let rules = Rules::new(15, 15, 5).unwrap();
    let mut pos = Position::new(rules);
    for m in moves.split_whitespace() {
        pos.play(rules.parse_square(m).unwrap()).unwrap();
    }
    pos
}

#[test]
fn no_stretch_of_the_search_between_two_checks_is_long() {
    // Strong (X) against Random, seed 337, the moves of a console game:
    // Strong's positions. The last is answered without a node (a block),
    // the one before by a threat search of one node.
    let game = "h8 d2 h10 c10 i9 d5 j8 g3 k7 a15";
    let names: Vec<&str> = game.split_whitespace().collect();
    let searches: Vec<(String, Vec<Duration>)> = [2, 4, 6, 8, 10]
        .into_iter()
        .map(|plies| {
            let moves = names[..plies].join(" ");
            let times = stretches(&after(&moves));
            (moves, times)
        })
        .collect();
    // A node's time: the median stretch of them all.
    let mut all: Vec<Duration> = searches.iter().flat_map(|(_, t)| t.clone()).collect();
    all.sort();
    let node = all[all.len() / 2];
    for (moves, times) in &searches {
        let (at, longest) = times
            .iter()
            .enumerate()
            .max_by_key(|(_, t)| **t)
            .map(|(i, t)| (i, *t))
            .unwrap();
        let ratio = longest.as_secs_f64() / node.as_secs_f64().max(1e-9);
        println!(
            "after {moves}: {} stretches, longest {longest:?} (stretch {at}), {ratio:.1} nodes ({node:?})",
            times.len()
        );
        assert!(
            ratio <= f64::from(MOST),
            "after {moves}: stretch {at} of the search took {longest:?}, {ratio:.1} times a node's {node:?}"
        );
    }
}
