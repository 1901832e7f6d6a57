//! Benchmarks over fixed positions, for `ttt bench`.
//!
//! `no_std` has no clock, so the caller passes one (`fn() -> u64`,
//! nanoseconds) and the table to search with. Each [`BenchLine`] holds the
//! solver's figures beside a plain alpha-beta + TT baseline
//! ([`super::baseline`]) run on the same work in the same run, and a checksum
//! of the results (values and moves, and for the single solves and `strong`
//! the node counts), which must not change between runs, machines or builds
//! unless the engine changes. Node counts (and so those checksums) depend on
//! the table size: compare runs with the same `tt.len()`.
//!
//! The items ([`Item`]), with the targets on a 2-core desktop, release build:
//!
//! * `3x3-best-move`: `perfect`'s best move from each of the 4,520
//!   non-terminal 3x3 positions, each from a cold (cleared, 4,096-entry)
//!   table, the fastest of 3 timings kept; `max_ns` is the slowest position
//!   (target: under 50 us), `ns` the sum.
//! * `3x3-solve-all`: the value of all 4,520 non-terminal 3x3 positions
//!   (target: under 0.2 s in total).
//! * `4,4,4`: solve the empty 4x4 board, k=4: a draw (target: under 0.1 s).
//! * `5,5,4`: solve the empty 5x5 board, k=4: a draw (target: under 10 s);
//!   the baseline gets a node limit of 3 times the solver's nodes and is
//!   reported as not finished when it hits it.
//! * `prove-5,5,4`, `prove-6,5,4`, `prove-6,6,5`, `prove-7,6,5`,
//!   `prove-7,7,5`: the [prover](super::prover) on the empty 5x5 k=4 (a
//!   draw; target under 0.5 s), 6x5 k=4 (a first-player win) and 6x6 k=5
//!   (a draw) boards (targets under 1 s), 7x6 k=5 (a draw; target under
//!   1 s) and 7x7 k=5 (a draw; target under 10 s: the record is 2.5 s);
//!   the checksum covers the verdict and the node count; no baseline.
//! * `strong-9x9k5`, `strong-15x15k5`: one `strong` move on fixed
//!   mid-game positions with a fixed node budget (nodes per second); no
//!   baseline.
//! * `tactics`: `strong` on every position of the [tactics suite](super::tactics)
//!   (15x15 threat wins and defences) with [`BENCH_NODES`] nodes each and
//!   a 2^16-entry table cleared before each; [`BenchLine::solved`] counts
//!   the positions where it played an answer; the checksum covers every
//!   move and node count (target: under 10 s); no baseline.
//! * `patterns-15x15`: the [pattern board](crate::pattern::PatternBoard)
//!   on every tactics position: each empty cell played and taken back, 10
//!   passes; nodes are the stones played (their rate is what a search on
//!   the board would pay per node for its threat knowledge), the checksum
//!   covers the class counts after each stone (target: under 2 s); no
//!   baseline.
use super::baseline;
use super::progress::Progress;
use super::prover::{Prover, Verdict};
use super::solver::Solver;
use super::stats::SearchStats;
use super::strong::{Budget, Engine};
use super::tactics::{self, BENCH_NODES};
use super::tt::{self, TtEntry};
use super::value::Value;
use crate::pattern::{PatternBoard, ThreatClass};
use crate::{Outcome, Position, Rules, Square};

/// The benchmark items.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// Best move from every non-terminal 3x3 position.
    BestMove3x3,
    /// Value of every non-terminal 3x3 position.
    SolveAll3x3,
    /// 4,4,4 from the empty board.
    Solve444,
    /// 5,5,4 from the empty board (seconds).
    Solve554,
    /// The prover on 5,5,4 from the empty board.
    Prove554,
    /// The prover on 6,5,4 from the empty board.
    Prove654,
    /// The prover on 6,6,5 from the empty board.
    Prove665,
    /// The prover on 7,6,5 from the empty board.
    Prove765,
    /// The prover on 7,7,5 from the empty board.
    Prove775,
    /// A `strong` move on 9x9 k=5.
    Strong9x9,
    /// A `strong` move on 15x15 k=5.
    Strong15x15,
    /// `strong` on the tactics suite.
    Tactics,
    /// The pattern board's play and take-back on the tactics positions.
    Patterns15x15,
}

impl Item {
    /// Every item, in the order [`run`] runs them.
    pub const ALL: [Item; 13] = [
        Item::BestMove3x3,
        Item::SolveAll3x3,
        Item::Solve444,
        Item::Solve554,
        Item::Prove554,
        Item::Prove654,
        Item::Prove665,
        Item::Prove765,
        Item::Prove775,
        Item::Strong9x9,
        Item::Strong15x15,
        Item::Tactics,
        Item::Patterns15x15,
    ];

    /// Short name, as printed.
    pub const fn name(self) -> &'static str {
        match self {
            Item::BestMove3x3 => "3x3-best-move",
            Item::SolveAll3x3 => "3x3-solve-all",
            Item::Solve444 => "4,4,4",
            Item::Solve554 => "5,5,4",
            Item::Prove554 => "prove-5,5,4",
            Item::Prove654 => "prove-6,5,4",
            Item::Prove665 => "prove-6,6,5",
            Item::Prove765 => "prove-7,6,5",
            Item::Prove775 => "prove-7,7,5",
            Item::Strong9x9 => "strong-9x9k5",
            Item::Strong15x15 => "strong-15x15k5",
            Item::Tactics => "tactics",
            Item::Patterns15x15 => "patterns-15x15",
        }
    }

    /// The target time in nanoseconds (for `max_ns` on the best-move item,
    /// `ns` otherwise).
    pub const fn target_ns(self) -> u64 {
        match self {
            Item::BestMove3x3 => 50_000,
            Item::SolveAll3x3 => 200_000_000,
            Item::Solve444 => 100_000_000,
            Item::Solve554 => 10_000_000_000,
            Item::Prove554 => 500_000_000,
            Item::Prove654 | Item::Prove665 => 1_000_000_000,
            Item::Prove765 => 1_000_000_000,
            Item::Prove775 => 10_000_000_000,
            Item::Strong9x9 | Item::Strong15x15 => 5_000_000_000,
            Item::Tactics => 10_000_000_000,
            Item::Patterns15x15 => 2_000_000_000,
        }
    }
}

/// One measured item.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// What was measured.
    pub item: Item,
    /// Positions searched by the engine.
    pub nodes: u64,
    /// Transposition-table hits.
    pub tt_hits: u64,
    /// Wall time of the engine, nanoseconds (caller's clock).
    pub ns: u64,
    /// The slowest single call (best-move item), else equal to `ns`.
    pub max_ns: u64,
    /// Baseline nodes (0: no baseline for this item).
    pub baseline_nodes: u64,
    /// Baseline wall time, nanoseconds.
    pub baseline_ns: u64,
    /// Whether the baseline finished (it has a node limit on 5,5,4).
    pub baseline_done: bool,
    /// The value found, for single solves.
    pub value: Option<Value>,
    /// Positions solved and positions tried (the tactics suite).
    pub solved: Option<(u32, u32)>,
    /// Deterministic checksum of the results.
    pub checksum: u64,
}

impl BenchLine {
    /// Baseline time divided by engine time (how many times faster). When
    /// the baseline gave up (`baseline_done` false) this is a lower bound.
    pub fn speedup(&self) -> Option<f64> {
        (self.baseline_ns > 0 && self.ns > 0).then(|| self.baseline_ns as f64 / self.ns as f64)
    }

    /// Whether the item met its target time.
    pub fn on_target(&self) -> bool {
        match self.item {
            Item::BestMove3x3 => self.max_ns <= self.item.target_ns(),
            _ => self.ns <= self.item.target_ns(),
        }
    }
}

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x)
        .wrapping_mul(0x100_0000_01B3)
        .rotate_left(17)
        .wrapping_add(0x9E37_79B9_7F4A_7C15)
}

fn value_code(v: Value) -> u64 {
    match v {
        Value::Win(n) => 0x100 | n as u64,
        Value::Draw => 0x200,
        Value::Loss(n) => 0x300 | n as u64,
    }
}

/// Calls `f` on every non-terminal 3x3 position reachable in play, each once
/// (4,520 of them), in a fixed order.
pub fn for_each_3x3(mut f: impl FnMut(&Position)) -> usize {
    let mut seen = [0u64; 19683 / 64 + 1];
    let mut pos = Position::new(Rules::CLASSIC);
    let mut count = 0;
    walk(&mut pos, &mut seen, &mut |p| {
        count += 1;
        f(p)
    });
    count
}

fn code3(pos: &Position) -> usize {
    let mut c = 0;
    for sq in pos.rules().squares() {
        c = c * 3
            + match pos.get(sq) {
                None => 0,
                Some(crate::Mark::X) => 1,
                Some(crate::Mark::O) => 2,
            };
    }
    c
}

fn walk(pos: &mut Position, seen: &mut [u64], f: &mut dyn FnMut(&Position)) {
    let c = code3(pos);
    if seen[c / 64] >> (c % 64) & 1 != 0 {
        return;
    }
    seen[c / 64] |= 1 << (c % 64);
    if pos.outcome() != Outcome::InProgress {
        return;
    }
    f(pos);
    for sq in pos.legal_moves() {
        if pos.play(sq).is_ok() {
            walk(pos, seen, f);
            pos.undo();
        }
    }
}

fn baseline_best(pos: &Position, tt: &mut [TtEntry], stats: &mut SearchStats) -> Option<Square> {
    let mut best: Option<(Square, Value)> = None;
    let mut child = pos.clone();
    for sq in pos.legal_moves() {
        if child.play(sq).is_err() {
            continue;
        }
        let v = baseline::solve(&child, tt, stats).parent();
        child.undo();
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((sq, v));
        }
    }
    best.map(|(sq, _)| sq)
}

/// Runs every item (see the module docs), calling `report` after each.
/// `tt` should hold at least 2^20 entries for 5,5,4 (2^22 is better);
/// `progress` is called while 5,5,4 runs.
pub fn run(
    clock: fn() -> u64,
    tt: &mut [TtEntry],
    report: &mut dyn FnMut(BenchLine),
    progress: &mut dyn FnMut(Item, Progress),
) {
    for item in Item::ALL {
        let line = run_item(item, clock, tt, progress);
        report(line);
    }
}

/// Runs one item.
pub fn run_item(
    item: Item,
    clock: fn() -> u64,
    tt: &mut [TtEntry],
    progress: &mut dyn FnMut(Item, Progress),
) -> BenchLine {
    let mut line = BenchLine {
        item,
        nodes: 0,
        tt_hits: 0,
        ns: 0,
        max_ns: 0,
        baseline_nodes: 0,
        baseline_ns: 0,
        baseline_done: true,
        value: None,
        solved: None,
        checksum: 0,
    };
    match item {
        Item::BestMove3x3 => {
            // Cold: a small table, cleared before every position; each call
            // timed 3 times, the fastest kept (the machine is shared).
            let small = tt.len().min(1 << 12);
            let table = &mut tt[..small];
            let mut sum = 0u64;
            let mut nodes = 0;
            let mut hits = 0;
            let mut total = 0u64;
            let mut max_ns = 0u64;
            for_each_3x3(|p| {
                let mut fastest = u64::MAX;
                for rep in 0..3 {
                    tt::clear(table);
                    let mut solver = Solver::new(&mut *table);
                    let t = clock();
                    let r = solver.best_move(p, 0);
                    fastest = fastest.min(clock().wrapping_sub(t));
                    if rep == 0 {
                        nodes += solver.stats().nodes;
                        hits += solver.stats().tt_hits;
                        sum = mix(
                            sum,
                            r.map_or(0, |(sq, v)| value_code(v) << 8 | sq.index() as u64),
                        );
                    }
                }
                total += fastest;
                max_ns = max_ns.max(fastest);
            });
            line.ns = total;
            line.max_ns = max_ns;
            line.nodes = nodes;
            line.tt_hits = hits;
            line.checksum = sum;
            let mut bstats = SearchStats::default();
            let mut btotal = 0u64;
            for_each_3x3(|p| {
                tt::clear(table);
                let t = clock();
                let _ = baseline_best(p, table, &mut bstats);
                btotal += clock().wrapping_sub(t);
            });
            line.baseline_ns = btotal;
            line.baseline_nodes = bstats.nodes;
        }
        Item::SolveAll3x3 => {
            tt::clear(tt);
            let mut sum = 0u64;
            let t0 = clock();
            let stats = {
                let mut solver = Solver::new(&mut *tt);
                for_each_3x3(|p| sum = mix(sum, value_code(solver.solve(p))));
                solver.stats()
            };
            line.ns = clock().wrapping_sub(t0);
            line.max_ns = line.ns;
            line.nodes = stats.nodes;
            line.tt_hits = stats.tt_hits;
            line.checksum = sum;
            // Baseline, same work.
            tt::clear(tt);
            let mut bstats = SearchStats::default();
            let t0 = clock();
            for_each_3x3(|p| {
                let _ = baseline::solve(p, tt, &mut bstats);
            });
            line.baseline_ns = clock().wrapping_sub(t0);
            line.baseline_nodes = bstats.nodes;
        }
        Item::Solve444 | Item::Solve554 => {
            let rules = if item == Item::Solve444 {
                Rules::new(4, 4, 4)
            } else {
                Rules::new(5, 5, 4)
            }
            .unwrap_or(Rules::CLASSIC);
            let pos = Position::new(rules);
            tt::clear(tt);
            let t0 = clock();
            let mut cb = |p: Progress| progress(item, p);
            let (v, stats) = {
                let mut solver = Solver::new(&mut *tt);
                solver.set_progress(&mut cb);
                let v = solver.solve(&pos);
                (v, solver.stats())
            };
            line.ns = clock().wrapping_sub(t0);
            line.max_ns = line.ns;
            line.nodes = stats.nodes;
            line.tt_hits = stats.tt_hits;
            line.value = Some(v);
            line.checksum = mix(value_code(v), stats.nodes);
            tt::clear(tt);
            let mut bstats = SearchStats::default();
            let limit = stats.nodes.saturating_mul(3).max(1_000_000);
            let t0 = clock();
            let bv = baseline::solve_limited(&pos, tt, &mut bstats, limit);
            line.baseline_ns = clock().wrapping_sub(t0);
            line.baseline_nodes = bstats.nodes;
            line.baseline_done = bv.is_some();
        }
        Item::Prove554 | Item::Prove654 | Item::Prove665 | Item::Prove765 | Item::Prove775 => {
            let (c, r, k) = match item {
                Item::Prove554 => (5, 5, 4),
                Item::Prove654 => (6, 5, 4),
                Item::Prove665 => (6, 6, 5),
                Item::Prove765 => (7, 6, 5),
                _ => (7, 7, 5),
            };
            let pos = Position::new(Rules::new(c, r, k).unwrap_or(Rules::CLASSIC));
            tt::clear(tt);
            let t0 = clock();
            let mut cb = |p: Progress| progress(item, p);
            let (verdict, stats) = {
                let mut prover = Prover::new(&mut *tt);
                prover.set_progress(&mut cb);
                (prover.verdict(&pos), prover.stats())
            };
            line.ns = clock().wrapping_sub(t0);
            line.max_ns = line.ns;
            line.nodes = stats.nodes;
            line.tt_hits = stats.tt_hits;
            // No distances: only a draw is a full value.
            line.value = (verdict == Some(Verdict::Draw)).then_some(Value::Draw);
            let code = match verdict {
                Some(Verdict::Win) => 1,
                Some(Verdict::Draw) => 2,
                Some(Verdict::Loss) => 3,
                None => 0,
            };
            line.checksum = mix(code, stats.nodes);
        }
        Item::Strong9x9 | Item::Strong15x15 => {
            let (text, k) = if item == Item::Strong9x9 {
                (
                    "........./........./........./...xo..../....xo.../....x..../.......o./........./.........",
                    5,
                )
            } else {
                (
                    ".............../.............../.............../.............../.............../......o......../......xx......./.......xo....../.......o......./.............../.............../.............../.............../.............../...............",
                    5,
                )
            };
            let pos = Position::from_board(text, Some(k)).unwrap_or(Position::new(Rules::CLASSIC));
            let mut engine = Engine::new(Budget::nodes(200_000), 0);
            let t0 = clock();
            let mv = engine.analyse(&pos);
            line.ns = clock().wrapping_sub(t0);
            line.max_ns = line.ns;
            let stats = engine.stats();
            line.nodes = stats.nodes;
            line.checksum = mix(
                stats.nodes,
                mv.map_or(0, |(sq, v)| (v as u64) << 8 | sq.index() as u64),
            );
        }
        Item::Tactics => {
            let (mut solved, mut total) = (0, 0);
            let (mut nodes, mut hits, mut sum) = (0, 0, 0);
            let t0 = clock();
            for (_, puzzle) in tactics::puzzles(tactics::SUITE) {
                total += 1;
                // A line that does not parse (the tests catch it) counts
                // as missed.
                if let Ok(puzzle) = puzzle {
                    let a = tactics::attempt(&puzzle, BENCH_NODES, tt);
                    solved += u32::from(a.solved);
                    nodes += a.stats.nodes;
                    hits += a.stats.tt_hits;
                    sum = mix(
                        sum,
                        a.stats.nodes << 16 | a.choice.map_or(0xffff, |sq| sq.index() as u64),
                    );
                }
                progress(
                    item,
                    Progress {
                        done: solved,
                        total,
                        nodes,
                        tt_hits: hits,
                    },
                );
            }
            line.ns = clock().wrapping_sub(t0);
            line.max_ns = line.ns;
            line.nodes = nodes;
            line.tt_hits = hits;
            line.solved = Some((solved, total));
            line.checksum = mix(sum, u64::from(solved));
        }
        Item::Patterns15x15 => {
            let (mut stones, mut sum) = (0u64, 0u64);
            let t0 = clock();
            for (_, puzzle) in tactics::puzzles(tactics::SUITE) {
                let Ok(puzzle) = puzzle else { continue };
                let Ok(mut board) = PatternBoard::new(&puzzle.pos) else {
                    continue;
                };
                let me = board.side_to_move();
                for _pass in 0..10 {
                    for sq in puzzle.pos.empty_squares() {
                        board.play(sq);
                        stones += 1;
                        // What a search reads after a move: the threats of
                        // the side now to move and of the one that moved.
                        let code = u64::from(board.count(me, ThreatClass::OpenFour))
                            | u64::from(board.count(me, ThreatClass::FourThree)) << 8
                            | u64::from(board.count(me.other(), ThreatClass::Five)) << 16
                            | u64::from(board.count(me.other(), ThreatClass::OpenThree)) << 24;
                        sum = mix(sum, code);
                        board.undo(sq);
                    }
                }
            }
            line.ns = clock().wrapping_sub(t0);
            line.max_ns = line.ns;
            line.nodes = stones;
            line.checksum = sum;
        }
    }
    line
}
