//! Opening books: the book's answer is the search's answer, seed for seed.
use std::collections::{HashMap, HashSet};
use std::time::Instant;

use ttt_core::ai::book::{self, Book, BookEntry};
use ttt_core::ai::{Player, PlayerKind, Solver, TtEntry};
use ttt_core::{Position, Rules};

/// The console's table: 16K entries.
const CONSOLE_TT: usize = 1 << 14;

fn build(rules: Rules, plies: u8) -> Book {
    let mut tt = vec![TtEntry::EMPTY; 1 << 16];
    let mut seen = HashSet::new();
    let mut entries: Vec<BookEntry> = Vec::new();
    book::generate(rules, plies, &mut tt, &mut |k| !seen.insert(k), &mut |e| {
        entries.push(e)
    });
    entries.sort();
    entries.dedup();
    Book {
        columns: rules.columns(),
        rows: rules.rows(),
        k: rules.k(),
        plies,
        entries: Vec::leak(entries),
    }
}

/// One position per canonical class at each ply below `plies` (games not
/// over), by ply.
fn positions(rules: Rules, plies: usize) -> Vec<Vec<Position>> {
    fn walk(
        pos: &mut Position,
        plies: usize,
        seen: &mut HashSet<u64>,
        out: &mut Vec<Vec<Position>>,
    ) {
        if pos.mark_count() >= plies
            || pos.outcome().is_over()
            || !seen.insert(pos.canonical_hash())
        {
            return;
        }
        out[pos.mark_count()].push(pos.clone());
        for sq in pos.legal_moves() {
            pos.play(sq).unwrap();
            walk(pos, plies, seen, out);
            pos.undo();
        }
    }
    let mut out = vec![Vec::new(); plies];
    walk(
        &mut Position::new(rules),
        plies,
        &mut HashSet::new(),
        &mut out,
    );
    out
}

/// `perfect` with and without the book, on `pos` and on its 8 symmetric
/// images, with several seeds.
fn check_same(book: &Book, pos: &Position, seeds: &[u64], tt: &mut [TtEntry]) -> usize {
    let mut checked = 0;
    for &sym in ttt_core::Symmetry::of(pos.rules()) {
        let p = pos.transformed(sym);
        assert!(book.probe(&p).is_some(), "{p} not in the book");
        for &seed in seeds {
            let with = {
                let mut player = Player::new(PlayerKind::Perfect, seed, tt);
                player.set_book(book);
                let mv = player.choose_move(&p);
                assert_eq!(player.stats().nodes, 0, "{p}: the book was not used");
                mv
            };
            let without = Player::new(PlayerKind::Perfect, seed, tt).choose_move(&p);
            assert_eq!(with, without, "{p} seed {seed}");
            let mut s = Solver::new(tt);
            s.set_book(book);
            let a = s.best_move(&p, seed);
            let b = Solver::new(tt).best_move(&p, seed);
            assert_eq!(a, b, "{p} seed {seed} (solver)");
            checked += 1;
        }
    }
    checked
}

#[test]
fn book_moves_equal_search_moves_on_3x3_everywhere() {
    let rules = Rules::CLASSIC;
    let book = build(rules, 9);
    let mut tt = vec![TtEntry::EMPTY; 1 << 12];
    let mut n = 0;
    for ply in positions(rules, 9) {
        for pos in ply {
            n += check_same(&book, &pos, &[0, 1, 2, 3, 42, u64::MAX], &mut tt);
        }
    }
    assert!(n > 1000);
    assert_eq!(
        book.len(),
        765 - 138,
        "non-final 3x3 positions up to symmetry"
    );
}

#[test]
fn book_moves_equal_search_moves_on_4x4() {
    // Every position of the first 4 plies, a sample of plies 4 and 5.
    let rules = Rules::new(4, 4, 4).unwrap();
    let book = build(rules, 6);
    let mut tt = vec![TtEntry::EMPTY; CONSOLE_TT];
    let by_ply = positions(rules, 6);
    let mut n = 0;
    for (ply, list) in by_ply.iter().enumerate() {
        let step = if ply < 4 { 1 } else { list.len() / 60 + 1 };
        for pos in list.iter().step_by(step) {
            n += check_same(&book, pos, &[0, 7, 1234567], &mut tt);
        }
    }
    assert!(n > 1000, "{n}");
}

#[test]
fn book_misses_fall_back_to_the_search() {
    let rules = Rules::new(4, 4, 4).unwrap();
    let book = build(rules, 2);
    let mut pos = Position::new(rules);
    for n in [6, 11, 1] {
        pos.play(rules.parse_square(&n.to_string()).unwrap())
            .unwrap();
    }
    assert!(book.probe(&pos).is_none(), "past the book's plies");
    assert!(
        book.probe(&Position::new(Rules::CLASSIC)).is_none(),
        "other rules"
    );
    let mut tt = vec![TtEntry::EMPTY; CONSOLE_TT];
    let mut p = Player::new(PlayerKind::Perfect, 5, &mut tt);
    p.set_book(&book);
    let a = p.choose_move(&pos);
    assert!(p.stats().nodes > 0);
    assert_eq!(
        a,
        Player::new(PlayerKind::Perfect, 5, &mut tt).choose_move(&pos)
    );
}

#[test]
fn values_round_trip() {
    use ttt_core::ai::Value;
    for v in [
        Value::Draw,
        Value::Win(1),
        Value::Win(15),
        Value::Loss(2),
        Value::Loss(16),
    ] {
        assert_eq!(book::decode_value(book::encode_value(v)), v);
    }
}

/// Per-ply cost of `perfect` with the console's 16K-entry table, cold (a new
/// game) and warm (the table left by the game so far is not modelled: cold
/// is the worst case). `RULES=4x4k4,3x3k3 PLIES=8 cargo test --release -p
/// ttt-core --test ai_book -- --ignored --nocapture`
#[test]
#[ignore]
fn nodes_per_ply() {
    let list = std::env::var("RULES").unwrap_or_else(|_| "4x4k4,4x4k3,3x3k3".into());
    let plies: usize = std::env::var("PLIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let sample: usize = std::env::var("SAMPLE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    let mut tt = vec![TtEntry::EMPTY; CONSOLE_TT];
    println!("board   ply classes sampled  mean_nodes  max_nodes  mean_us  max_us  ns/node  N64@50x_max_s");
    for r in list.split(',') {
        let rules: Rules = {
            let (n, k) = r.split_once('k').unwrap();
            let (c, rr) = n.split_once('x').unwrap();
            Rules::new(c.parse().unwrap(), rr.parse().unwrap(), k.parse().unwrap()).unwrap()
        };
        let by_ply = positions(rules, plies.min(rules.cell_count()));
        let mut cache: HashMap<u64, ()> = HashMap::new();
        for (ply, list) in by_ply.iter().enumerate() {
            let step = list.len() / sample + 1;
            let (mut sum_n, mut max_n, mut sum_t, mut max_t, mut cnt) =
                (0u64, 0u64, 0u128, 0u128, 0u64);
            for pos in list.iter().step_by(step) {
                cache.insert(pos.hash(), ());
                for e in tt.iter_mut() {
                    *e = TtEntry::EMPTY;
                }
                let mut p = Player::new(PlayerKind::Perfect, 99, &mut tt);
                let t0 = Instant::now();
                p.choose_move(pos);
                let dt = t0.elapsed().as_micros();
                let nodes = p.stats().nodes;
                sum_n += nodes;
                max_n = max_n.max(nodes);
                sum_t += dt;
                max_t = max_t.max(dt);
                cnt += 1;
            }
            let ns = if sum_n > 0 {
                sum_t as f64 * 1000.0 / sum_n as f64
            } else {
                0.0
            };
            println!(
                "{r:7} {ply:3} {:7} {cnt:7} {:11} {max_n:10} {:8} {max_t:7} {ns:8.1} {:8.2}",
                list.len(),
                sum_n / cnt.max(1),
                sum_t / cnt.max(1) as u128,
                max_t as f64 * 50.0 / 1e6
            );
        }
    }
}

/// Cost per node of `strong`/`hard` on the bigger boards (host), to choose
/// node budgets for the console: `BOARDS=9x9k5 cargo test --release -p
/// ttt-core --test ai_book strong_cost -- --ignored --nocapture`.
#[test]
#[ignore]
fn strong_cost_per_node() {
    use ttt_core::ai::Budget;
    use ttt_core::rng::Rng;
    let list = std::env::var("BOARDS")
        .unwrap_or_else(|_| "5x5k4,5x5k5,6x6k4,6x6k5,7x7k4,7x7k5,8x8k5,9x9k4,9x9k5,9x9k9".into());
    println!("board   player        moves  mean_nodes max_nodes  mean_us   max_us  ns/node");
    for r in list.split(',') {
        let (n, k) = r.split_once('k').unwrap();
        let n: u8 = n.split_once('x').unwrap().0.parse().unwrap();
        let rules = Rules::new(n, n, k.parse().unwrap()).unwrap();
        let budget: u64 = std::env::var("NODES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(6_000);
        for (kind, nodes) in [
            (PlayerKind::Hard, Some(budget)),
            (PlayerKind::Strong, Some(budget)),
        ] {
            let (mut sum_n, mut max_n, mut sum_t, mut max_t, mut moves) =
                (0u64, 0u64, 0u128, 0u128, 0u64);
            for game in 0..2u64 {
                let mut pos = Position::new(rules);
                let mut rng = Rng::new(game);
                while !pos.outcome().is_over() && pos.mark_count() < 30 {
                    let sq = if pos.mark_count() % 2 == (game % 2) as usize {
                        let mut p =
                            Player::new(kind, game * 1000 + pos.mark_count() as u64, &mut []);
                        if let Some(b) = nodes {
                            p.set_budget(Budget::nodes(b));
                        }
                        let t0 = Instant::now();
                        let sq = p.choose_move(&pos).unwrap();
                        let dt = t0.elapsed().as_micros();
                        let nn = p.stats().nodes;
                        sum_n += nn;
                        max_n = max_n.max(nn);
                        sum_t += dt;
                        max_t = max_t.max(dt);
                        moves += 1;
                        sq
                    } else {
                        let m: Vec<_> = pos.legal_moves().into_iter().collect();
                        m[rng.below(m.len() as u32) as usize]
                    };
                    pos.play(sq).unwrap();
                }
            }
            let name = format!(
                "{}{}",
                kind.name(),
                nodes.map_or(String::new(), |b| format!("@{b}"))
            );
            println!(
                "{r:7} {name:13} {moves:5} {:10} {max_n:9} {:8} {max_t:8} {:8.0}",
                sum_n / moves,
                sum_t / moves as u128,
                sum_t as f64 * 1000.0 / sum_n as f64
            );
        }
    }
}

/// Which is stronger within a console node budget: `strong` or `hard`
/// limited to N nodes, against `hard` (default budget): `NODES=8000
/// cargo test --release -p ttt-core --test ai_book budget_arena -- --ignored --nocapture`.
#[test]
#[ignore]
fn budget_arena() {
    use ttt_core::ai::Budget;
    use ttt_core::Outcome;
    let nodes: u64 = std::env::var("NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8000);
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    for r in ["5x5k4", "7x7k4", "7x7k5", "9x9k5"] {
        let (n, k) = r.split_once('k').unwrap();
        let n: u8 = n.split_once('x').unwrap().0.parse().unwrap();
        let rules = Rules::new(n, n, k.parse().unwrap()).unwrap();
        for cand in [PlayerKind::Strong, PlayerKind::Hard] {
            let (mut w, mut l, mut d, mut max_nodes) = (0, 0, 0, 0u64);
            for g in 0..games {
                let cand_x = g % 2 == 0;
                let mut pos = Position::new(rules);
                while !pos.outcome().is_over() {
                    let x_to_move = pos.mark_count() % 2 == 0;
                    let seed = g * 7919 + pos.mark_count() as u64;
                    let sq = if x_to_move == cand_x {
                        let mut p = Player::new(cand, seed, &mut []);
                        p.set_budget(Budget::nodes(nodes));
                        let sq = p.choose_move(&pos);
                        max_nodes = max_nodes.max(p.stats().nodes);
                        sq
                    } else {
                        Player::new(PlayerKind::Hard, seed, &mut []).choose_move(&pos)
                    };
                    pos.play(sq.unwrap()).unwrap();
                }
                match pos.outcome() {
                    Outcome::Win(m) if (m == ttt_core::Mark::X) == cand_x => w += 1,
                    Outcome::Win(_) => l += 1,
                    _ => d += 1,
                }
            }
            println!(
                "{r} {}@{nodes} vs hard: +{w} -{l} ={d} (max nodes {max_nodes})",
                cand.name()
            );
        }
    }
}
