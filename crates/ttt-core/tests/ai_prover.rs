//! The prover (boolean win/draw/loss proofs): checked against the exact
//! solver on every position of small boards, and `perfect` on boards past
//! 25 cells, where the prover now makes it exact.
use std::collections::HashSet;

use ttt_core::ai::{
    is_solvable, Budget, Player, PlayerKind, Prover, Solver, TtEntry, Value, Verdict,
};
use ttt_core::{Mark, Outcome, Position, Rules};

fn tt(bits: u32) -> Vec<TtEntry> {
    vec![TtEntry::EMPTY; 1 << bits]
}

/// Every reachable position of `rules`, one per symmetry class.
fn all_positions(rules: Rules) -> Vec<Position> {
    fn walk(pos: &mut Position, seen: &mut HashSet<u64>, out: &mut Vec<Position>) {
        if !seen.insert(pos.canonical_hash()) {
            return;
        }
        out.push(pos.clone());
        for sq in pos.legal_moves() {
            pos.play(sq).unwrap();
            walk(pos, seen, out);
            pos.undo();
        }
    }
    let mut out = Vec::new();
    walk(&mut Position::new(rules), &mut HashSet::new(), &mut out);
    out
}

fn kind(v: Value) -> Verdict {
    match v {
        Value::Win(_) => Verdict::Win,
        Value::Draw => Verdict::Draw,
        Value::Loss(_) => Verdict::Loss,
    }
}

fn agrees_on_every_position(c: u8, r: u8, k: u8) -> usize {
    let rules = Rules::new(c, r, k).unwrap();
    let positions = all_positions(rules);
    let mut t1 = tt(20);
    let mut t2 = tt(20);
    let mut solver = Solver::new(&mut t1);
    let mut prover = Prover::new(&mut t2);
    for pos in &positions {
        let expected = kind(solver.solve(pos));
        assert_eq!(prover.verdict(pos), Some(expected), "{rules} {pos}");
    }
    positions.len()
}

#[test]
fn agrees_with_the_solver_on_every_4x4_k3_position() {
    assert!(agrees_on_every_position(4, 4, 3) > 100_000);
}

#[test]
fn agrees_with_the_solver_on_every_4x4_k4_position() {
    assert!(agrees_on_every_position(4, 4, 4) > 100_000);
}

#[test]
fn agrees_with_the_solver_on_every_5x3_position() {
    // A rectangle (4 symmetries), k = 3 and 4.
    assert!(agrees_on_every_position(5, 3, 3) > 1_000);
    assert!(agrees_on_every_position(5, 3, 4) > 1_000);
}

#[test]
fn the_prunes_are_exercised_by_the_agreement_checks() {
    // The 4x4 k=4 agreement run above must go through every prune the
    // prover has, or it guards nothing: relevance zones, dominance,
    // pairing strategies and the defender's moves picked by the static
    // tests all fire there.
    let rules = Rules::new(4, 4, 4).unwrap();
    let mut table = tt(20);
    let mut prover = Prover::new(&mut table);
    for pos in all_positions(rules) {
        prover.verdict(&pos);
    }
    assert!(prover.zone_cuts() > 0, "no zone cut");
    assert!(prover.dominance_cuts() > 0, "no dominance cut");
    assert!(prover.pairings() > 0, "no pairing found");
    assert!(
        prover.probe_picks() > 0,
        "no defender move picked by a probe"
    );
}

#[test]
fn the_census_accounts_for_every_node_and_the_profile_keeps_the_heaviest() {
    // 5x5 k=4 from the empty board: every position the prover visits is
    // settled one way, so the census adds up to the nodes; the subtrees one
    // ply down (X's first moves) kept by the profile are the heaviest.
    use ttt_core::ai::Subtree;
    let rules = Rules::new(5, 5, 4).unwrap();
    let mut table = tt(20);
    let mut slots = [Subtree::default(); 3];
    let mut prover = Prover::new(&mut table);
    prover.set_profile(1, &mut slots);
    assert_eq!(prover.verdict(&Position::new(rules)), Some(Verdict::Draw));
    let c = prover.census();
    let settled =
        c.lines + c.no_lines + c.potential + c.potential_ahead + c.table + c.pairings + c.searched;
    assert_eq!(settled, prover.stats().nodes);
    assert!(c.pairings > 0 && c.searched > 0 && c.potential > 0 && c.table > 0);
    assert!(c.pairing_misses > 0 && c.pairing_misses <= c.searched);
    assert!(c.deepest > 4);
    let kept = prover.profile();
    assert_eq!(kept.len(), 3);
    assert!(kept.iter().all(|s| s.finished && s.nodes > 0));
    assert!(kept.iter().map(|s| s.nodes).sum::<u64>() < prover.stats().nodes);
    // X's first move is one mark, its subtrees (the defender to move) are
    // at one ply: one attacker mark each (X attacks first, then O).
    assert!(kept
        .iter()
        .all(|s| s.attacker.count_ones() + s.defender.count_ones() == 1));
    let mut kept: Vec<u64> = kept.iter().map(|s| s.nodes).collect();
    kept.sort_unstable();
    // The same proof keeping every subtree: the three above are its
    // heaviest.
    let mut table = tt(20);
    let mut all = [Subtree::default(); 256];
    let mut prover = Prover::new(&mut table);
    prover.set_profile(1, &mut all);
    prover.verdict(&Position::new(rules));
    let mut every: Vec<u64> = prover.profile().iter().map(|s| s.nodes).collect();
    assert!(every.len() > 3 && every.len() < 256);
    every.sort_unstable();
    assert_eq!(kept, every[every.len() - 3..]);
}

/// Random positions of `rules` with `min..=max` marks and the game still
/// on, one per seed.
fn random_positions(rules: Rules, count: u64, min: u32, max: u32) -> Vec<Position> {
    use ttt_core::rng::Rng;
    let mut out = Vec::new();
    for seed in 0..count {
        let mut rng = Rng::new(seed);
        let marks = min + rng.below(max - min + 1);
        let mut pos = Position::new(rules);
        for _ in 0..marks {
            let moves: Vec<_> = pos.legal_moves().into_iter().collect();
            let sq = moves[rng.below(moves.len() as u32) as usize];
            pos.play(sq).unwrap();
            if pos.outcome().is_over() {
                pos.undo();
                break;
            }
        }
        out.push(pos);
    }
    out
}

#[test]
fn agrees_with_the_solver_on_random_5x5_k4_and_6x4_k4_positions() {
    // Bigger boards than the exhaustive checks, where the zones, the
    // dominance prune and the pairings cut deeper trees.
    for (c, r, k, min, count) in [(5, 5, 4, 5, 60), (6, 4, 4, 5, 60)] {
        let rules = Rules::new(c, r, k).unwrap();
        let mut t1 = tt(20);
        let mut t2 = tt(20);
        let mut solver = Solver::new(&mut t1);
        let mut prover = Prover::new(&mut t2);
        let mut seen = [0usize; 3];
        for pos in random_positions(rules, count, min, 10) {
            let expected = kind(solver.solve(&pos));
            seen[expected as usize] += 1;
            assert_eq!(prover.verdict(&pos), Some(expected), "{rules} {pos}");
        }
        // Not all of one kind: both searches' answers get checked.
        assert!(
            seen.iter().filter(|&&n| n > 0).count() >= 2,
            "{rules} {seen:?}"
        );
    }
}

/// `threads` provers on one shared table of `words` words, each asked the
/// value of every position in turn: all must give `expected`'s answers.
fn shared_provers_agree(positions: &[(Position, Verdict)], threads: usize, words: usize) {
    use std::sync::atomic::AtomicU64;
    use ttt_core::ai::SharedTable;
    let words: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
    let table = SharedTable::new(&words);
    std::thread::scope(|scope| {
        for thread in 0..threads {
            scope.spawn(move || {
                let mut prover = Prover::with_table(table);
                // Each thread starts at a different position, so some of
                // them meet the others' records half written.
                let n = positions.len();
                for i in 0..n {
                    let (pos, expected) = &positions[(i + thread * n / threads) % n];
                    assert_eq!(prover.verdict(pos), Some(*expected), "{pos}");
                }
            });
        }
    });
}

#[test]
fn provers_on_threads_sharing_a_table_agree_with_the_solver() {
    let mut positions = Vec::new();
    for (c, r, k, min) in [(5, 5, 4, 5), (6, 4, 4, 5)] {
        let rules = Rules::new(c, r, k).unwrap();
        let mut t = tt(20);
        let mut solver = Solver::new(&mut t);
        for pos in random_positions(rules, 40, min, 10) {
            let v = kind(solver.solve(&pos));
            positions.push((pos, v));
        }
    }
    // Empty boards big enough for the threads to split the work: 6x5 k=4
    // is a first-player win, 7x6 k=5 a draw.
    positions.push((Position::new(Rules::new(6, 5, 4).unwrap()), Verdict::Win));
    positions.push((Position::new(Rules::new(7, 6, 5).unwrap()), Verdict::Draw));
    shared_provers_agree(&positions, 2, 1 << 21);
    shared_provers_agree(&positions, 3, 1 << 21);
    // A table far too small: records overwrite each other all the time.
    shared_provers_agree(&positions[..40], 2, 256);
}

/// A table on which every third position seems to be searched by another
/// prover: the moves into them are put off and tried last.
struct SeeminglyBusy<'a>(&'a mut [TtEntry]);

impl ttt_core::ai::ProofTable for SeeminglyBusy<'_> {
    const PARALLEL: bool = true;

    fn probe(&self, key: u64) -> Option<(TtEntry, Option<u64>)> {
        let inner: &&mut [TtEntry] = &self.0;
        ttt_core::ai::ProofTable::probe(inner, key)
    }

    fn store(&mut self, entry: TtEntry, zone: u64) {
        ttt_core::ai::ProofTable::store(&mut self.0, entry, zone)
    }

    fn is_busy(&self, key: u64) -> bool {
        key % 3 == 0
    }
}

#[test]
fn moves_put_off_for_another_prover_are_still_searched() {
    for (c, r, k, min) in [(5, 5, 4, 5), (6, 4, 4, 5)] {
        let rules = Rules::new(c, r, k).unwrap();
        let mut t1 = tt(20);
        let mut t2 = tt(20);
        let mut solver = Solver::new(&mut t1);
        let mut prover = Prover::with_table(SeeminglyBusy(&mut t2));
        for pos in random_positions(rules, 40, min, 10) {
            let expected = kind(solver.solve(&pos));
            assert_eq!(prover.verdict(&pos), Some(expected), "{rules} {pos}");
        }
        assert!(prover.deferrals() > 100, "{}", prover.deferrals());
    }
}

#[test]
fn empty_boards_past_25_cells() {
    let mut table = tt(20);
    let mut prover = Prover::new(&mut table);
    // 6x6 k=5 is a draw (7x7 k=5 is, and a draw stays one on a smaller
    // board); k=3 on a big board is a quick first-player win.
    for (c, r, k, v) in [(6, 6, 5, Verdict::Draw), (7, 5, 3, Verdict::Win)] {
        let rules = Rules::new(c, r, k).unwrap();
        assert_eq!(prover.verdict(&Position::new(rules)), Some(v), "{rules}");
    }
}

#[test]
fn a_set_stop_flag_stops_the_search() {
    use std::sync::atomic::AtomicBool;
    let stop = AtomicBool::new(true);
    let mut table = tt(16);
    let mut prover = Prover::new(&mut table);
    prover.set_stop(&stop);
    // 8x8 k=5 takes hours; stopped, it answers nothing.
    let pos = Position::new(Rules::new(8, 8, 5).unwrap());
    assert_eq!(prover.verdict(&pos), None);
    assert!(prover.stats().nodes < 1 << 15, "{:?}", prover.stats());
}

/// Plays `perfect` as `seat` against every `every`-th opponent move (in
/// row-major order) while fewer than `branch_plies` marks are down, then
/// against `strong`: returns the outcomes.
fn games_against_branching(
    rules: Rules,
    seat: Mark,
    branch_plies: usize,
    every: usize,
) -> Vec<Outcome> {
    let mut table = tt(20);
    let mut outcomes = Vec::new();
    let mut stack = vec![Position::new(rules)];
    while let Some(mut pos) = stack.pop() {
        while !pos.outcome().is_over() {
            if pos.side_to_move() == seat {
                let mut p = Player::new(PlayerKind::Perfect, 7, &mut table);
                let mv = p.choose_move(&pos).unwrap();
                pos.play(mv).unwrap();
            } else if pos.mark_count() < branch_plies {
                for sq in pos.legal_moves().into_iter().step_by(every) {
                    let mut child = pos.clone();
                    child.play(sq).unwrap();
                    stack.push(child);
                }
                break;
            } else {
                let mut opp = Player::new(PlayerKind::Strong, pos.mark_count() as u64, &mut []);
                opp.set_budget(Budget::nodes(3_000));
                let mv = opp.choose_move(&pos).unwrap();
                pos.play(mv).unwrap();
            }
        }
        if pos.outcome().is_over() {
            outcomes.push(pos.outcome());
        }
    }
    outcomes
}

#[test]
fn perfect_is_exact_past_25_cells() {
    // 6x5 k=4 (30 cells) is a first-player win: `perfect` as X wins
    // against every 4th first reply of O (then O plays `strong`).
    let r654 = Rules::new(6, 5, 4).unwrap();
    assert!(is_solvable(&r654));
    let outcomes = games_against_branching(r654, Mark::X, 2, 4);
    assert_eq!(outcomes.len(), 8);
    assert!(
        outcomes.iter().all(|&o| o == Outcome::Win(Mark::X)),
        "{outcomes:?}"
    );
    // 6x6 k=5 (36 cells) is a draw: `perfect` as O never loses against
    // every 4th first move of X (then X plays `strong`).
    let r665 = Rules::new(6, 6, 5).unwrap();
    assert!(is_solvable(&r665));
    let outcomes = games_against_branching(r665, Mark::O, 1, 4);
    assert_eq!(outcomes.len(), 9);
    assert!(
        outcomes.iter().all(|&o| o != Outcome::Win(Mark::X)),
        "{outcomes:?}"
    );
}

#[test]
fn the_solvable_rule_reaches_past_25_cells() {
    for (c, r, k, yes) in [
        (6u8, 5u8, 4u8, true),
        (6, 6, 4, true),
        (6, 6, 5, true),
        (7, 5, 5, true),
        (8, 8, 3, true),
        (8, 8, 7, true),
        (7, 6, 5, true),
        (8, 5, 5, true),
        (12, 4, 5, true),
        (9, 3, 4, true),
        (8, 8, 6, true),
        (7, 4, 4, false),
        (7, 5, 4, false),
        (9, 5, 5, false),
        (7, 7, 5, false),
        (8, 8, 5, false),
        (9, 9, 5, false),
    ] {
        let rules = Rules::new(c, r, k).unwrap();
        assert_eq!(is_solvable(&rules), yes, "{rules}");
    }
}

#[test]
fn prover_bench_items_are_deterministic() {
    use ttt_core::ai::bench::{self, Item};
    use ttt_core::ai::Progress;
    fn clock() -> u64 {
        0
    }
    let mut table = tt(20);
    let mut none = |_: Item, _: Progress| {};
    for item in [Item::Prove654, Item::Prove665] {
        let a = bench::run_item(item, clock, &mut table, &mut none);
        let b = bench::run_item(item, clock, &mut table, &mut none);
        assert_eq!(a.checksum, b.checksum, "{item:?}");
        assert_eq!(a.nodes, b.nodes, "{item:?}");
        assert!(a.nodes > 0);
    }
    let draw = bench::run_item(Item::Prove665, clock, &mut table, &mut none);
    assert_eq!(draw.value, Some(Value::Draw));
    let win = bench::run_item(Item::Prove654, clock, &mut table, &mut none);
    assert_eq!(win.value, None, "a win has no distance here");
}

/// Six positions of 8x8 k=5 (X attacking, to move) that the prover settles
/// in seconds: X's centre opening d4 and a few replies. Their nodes measure
/// the prover's work where 8,8,5 spends it (docs/solver.md, "Cutting the
/// prover's work"); run with `cargo test --release -p ttt-core --test
/// ai_prover -- --ignored --nocapture work_on_8x8`.
const WORK_8X8_K5: [&str; 6] = [
    "......../......../......../...xo.../...xx.../...o.o../......../........",
    "......../.o....../..x...../...xo.../...x..../...o..../......../........",
    "......../......../......../..oxo.../...xx.../...o..../......../........",
    "......../......../....o.../...xo.../...xx.../...o..../......../........",
    "......../......../......../...xo.../...xx.../...o..../......../........",
    "......../......../..x...../...o..../...x..../....o.../......../........",
];

/// The first subtree of part 10 of 8x8 k=5 (X on d4): d4 e4 d5 d6, X to
/// move; the first five positions above are below it (the fifth a child,
/// the others grandchildren).
const FIRST_SUBTREE_8X8_K5: &str =
    "......../......../......../...xo.../...x..../...o..../......../........";

#[test]
#[ignore = "a minute or more in a release build: a measurement"]
fn work_on_the_first_subtree_of_8x8_k5() {
    let mut table = tt(25);
    let pos = Position::from_board(FIRST_SUBTREE_8X8_K5, Some(5)).unwrap();
    let mut prover = Prover::new(&mut table);
    let start = std::time::Instant::now();
    assert_eq!(prover.maker_wins(&pos, Mark::X), Some(false));
    let c = prover.census();
    println!(
        "subtree {} nodes {:.2} s; pairings found {} ({} steps), none exist {} ({}), given up {} ({})",
        prover.stats().nodes,
        start.elapsed().as_secs_f64(),
        c.pairings,
        c.pairing_steps_found,
        c.pairing_misses - c.pairing_give_ups,
        c.pairing_steps_none,
        c.pairing_give_ups,
        c.pairing_steps_given_up,
    );
}

#[test]
#[ignore = "about a minute in a release build: a measurement"]
fn work_on_8x8_k5_positions() {
    let mut table = tt(24);
    let mut total = 0;
    // Where the pairing searches go: found, none exists (searched every
    // way), given up (out of steps); the steps spent in each.
    println!("nodes, s, pairings found (steps), none exist (steps), given up (steps), board");
    for board in WORK_8X8_K5 {
        let pos = Position::from_board(board, Some(5)).unwrap();
        table.fill(TtEntry::EMPTY);
        let mut prover = Prover::new(&mut table);
        let start = std::time::Instant::now();
        // X cannot force five here even as Maker (O only blocking).
        assert_eq!(prover.maker_wins(&pos, Mark::X), Some(false), "{board}");
        let nodes = prover.stats().nodes;
        total += nodes;
        let c = prover.census();
        println!(
            "{nodes} {:.2} {} ({}) {} ({}) {} ({}) {board}",
            start.elapsed().as_secs_f64(),
            c.pairings,
            c.pairing_steps_found,
            c.pairing_misses - c.pairing_give_ups,
            c.pairing_steps_none,
            c.pairing_give_ups,
            c.pairing_steps_given_up,
        );
    }
    println!("total {total} nodes");
}
