//! Runs the benchmark suite and prints the figures:
//! `cargo test --release -p ttt-core --test ai_bench -- --ignored --nocapture`
use std::sync::OnceLock;
use std::time::Instant;
use ttt_core::ai::bench::{self, BenchLine, Item};
use ttt_core::ai::{Progress, TtEntry};

fn clock() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

fn print(l: &BenchLine) {
    println!(
        "{:<15} nodes {:>10} time {:>10.3} ms (max call {:>8.1} us) | baseline nodes {:>11} time {:>10.3} ms{} | speedup {}x{:.1} | {} | checksum {:016x}{}",
        l.item.name(),
        l.nodes,
        l.ns as f64 / 1e6,
        l.max_ns as f64 / 1e3,
        l.baseline_nodes,
        l.baseline_ns as f64 / 1e6,
        if l.baseline_done { "" } else { " (gave up)" },
        if l.baseline_done { "" } else { ">=" },
        l.speedup().unwrap_or(0.0),
        if l.on_target() { "on target" } else { "OVER TARGET" },
        l.checksum,
        l.value.map(|v| format!(" value {v}")).unwrap_or_default(),
    );
}

#[test]
#[ignore]
fn bench_all() {
    let mut tt = vec![TtEntry::EMPTY; 1 << 22];
    bench::run(
        clock,
        &mut tt,
        &mut |l| print(&l),
        &mut |item, p: Progress| {
            if item == Item::Solve554 {
                eprintln!(
                    "  {}: {}/{} root moves, {} nodes",
                    item.name(),
                    p.done,
                    p.total,
                    p.nodes
                );
            }
        },
    );
}

#[test]
fn bench_quick_items_are_deterministic() {
    let mut tt = vec![TtEntry::EMPTY; 1 << 16];
    let mut none = |_: Item, _: Progress| {};
    let a = bench::run_item(Item::Solve444, clock, &mut tt, &mut none);
    let b = bench::run_item(Item::Solve444, clock, &mut tt, &mut none);
    assert_eq!(a.checksum, b.checksum);
    assert_eq!(a.value, Some(ttt_core::ai::Value::Draw));
}

#[test]
#[ignore]
fn bench_quick() {
    let mut tt = vec![TtEntry::EMPTY; 1 << 20];
    for item in [Item::BestMove3x3, Item::SolveAll3x3, Item::Solve444] {
        print(&bench::run_item(item, clock, &mut tt, &mut |_, _| {}));
    }
}
