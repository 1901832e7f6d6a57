//! Why is the search as deep as it is: `strong` and a peer Gomocup engine
//! side by side on midgame positions from `ttt arena --record` files.
//!
//! ```sh
//! cargo run --release -p ttt-cli --example search_profile -- \
//!     --engine ../shared/tools/peers/pbrain-rapfi --positions 50 RECORD...
//! ```
//!
//! Positions: from each game in turn, the position after ply 20, 26, 32,
//! ... (up to `--max-ply`), skipping those where the side to move must
//! block a four or the game is over, until `--positions` are taken. Each
//! is searched by `strong` in this process (a 64 MiB table, as
//! `pbrain-ttt` has, cleared before each position) for `--time` ms (or
//! `--nodes` nodes: the same figures on every run and machine), and,
//! with `--engine`, by the peer with `INFO timeout_turn` of the same
//! time. Printed: one line a position, then a table of means and medians
//! over all positions and one over the open ones (every search used half
//! its time, or of `--nodes`, or more: where a forced win ends a search at
//! once, depth says nothing):
//! depth reached, nodes, nodes a second, the effective branching factor
//! (nodes of an iteration over the iteration before, geometric mean of
//! the last three), moves searched per interior node, and where the nodes
//! go: the share in threat searches (the root's VCF and VCT, the
//! principal variation's VCFs), at the nominal depth (the leaves) and past
//! it (fours past the horizon), each as a mean of the positions' shares and
//! as a share of all their nodes (ours only: a peer says depth, nodes and
//! speed in its MESSAGE lines; Rapfi says `Depth 16-30`, depth and
//! selective depth).
use std::cell::RefCell;
use std::time::{Duration, Instant};

mod peer;

use ttt_core::ai::strong::{Budget, Engine, Iteration};
use ttt_core::ai::TtEntry;
use ttt_core::pattern::{PatternBoard, ThreatClass};
use ttt_core::{Position, Rules};

struct Args {
    records: Vec<String>,
    engine: Option<String>,
    positions: usize,
    time_ms: u64,
    max_ply: usize,
    /// A node budget instead of the time (0: the time).
    nodes: u64,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        records: Vec::new(),
        engine: None,
        positions: 50,
        time_ms: 1000,
        max_ply: 44,
        nodes: 0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--engine" => args.engine = Some(value()?),
            "--positions" => args.positions = value()?.parse().map_err(|e| format!("{e}"))?,
            "--time" => args.time_ms = value()?.parse().map_err(|e| format!("{e}"))?,
            "--nodes" => args.nodes = value()?.parse().map_err(|e| format!("{e}"))?,
            "--max-ply" => args.max_ply = value()?.parse().map_err(|e| format!("{e}"))?,
            _ if a.starts_with("--") => return Err(format!("unknown option {a}")),
            _ => args.records.push(a),
        }
    }
    if args.records.is_empty() {
        return Err(
            "usage: search_profile [--engine CMD] [--positions N] [--time MS] [--nodes N] RECORD...".into(),
        );
    }
    Ok(args)
}

/// The moves of each game of a record file.
fn games(path: &str) -> Result<Vec<Vec<String>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    Ok(text
        .lines()
        .filter_map(|l| {
            let start = l.find("moves=\"")? + 7;
            let end = start + l[start..].find('"')?;
            Some(l[start..end].split_whitespace().map(String::from).collect())
        })
        .collect())
}

#[derive(Default, Clone)]
struct Ours {
    depth: u32,
    nodes: u64,
    secs: f64,
    ebf: f64,
    moves_per_node: f64,
    /// Nodes in threat searches, at the nominal depth, past it.
    threat_nodes: u64,
    leaf_nodes: u64,
    horizon_nodes: u64,
}

/// Searches `pos` for `ms` milliseconds, or `nodes` nodes if not 0.
fn search_ours(pos: &Position, ms: u64, nodes: u64, tt: &mut [TtEntry]) -> Ours {
    tt.fill(TtEntry::EMPTY);
    let began = Instant::now();
    let deadline = began + Duration::from_millis(ms);
    let past = move || nodes == 0 && Instant::now() >= deadline;
    let iterations = RefCell::new(Vec::new());
    let done = |it: &Iteration| {
        iterations.borrow_mut().push(it.nodes);
        false
    };
    let budget = Budget {
        max_nodes: if nodes == 0 { u64::MAX } else { nodes },
        max_depth: 0,
        deadline_check: Some(&past),
        deadline_every: Budget::DEADLINE_EVERY,
        iteration_done: Some(&done),
    };
    let mut engine = Engine::with_table(budget, 1, tt);
    engine.analyse(pos);
    let secs = began.elapsed().as_secs_f64();
    let stats = engine.stats();
    let cumulative = iterations.borrow();
    let per: Vec<f64> = cumulative
        .windows(2)
        .map(|w| (w[1] - w[0]).max(1) as f64)
        .collect();
    let ratios: Vec<f64> = per.windows(2).map(|w| w[1] / w[0]).collect();
    let last: Vec<f64> = ratios.iter().rev().take(3).copied().collect();
    let ebf = if last.is_empty() {
        0.0
    } else {
        (last.iter().map(|r| r.ln()).sum::<f64>() / last.len() as f64).exp()
    };
    Ours {
        depth: stats.depth,
        nodes: stats.nodes,
        secs,
        ebf,
        moves_per_node: stats.children as f64 / stats.interior.max(1) as f64,
        threat_nodes: stats.threat_nodes,
        leaf_nodes: stats.leaf_nodes,
        horizon_nodes: stats.horizon_nodes,
    }
}

#[derive(Default, Clone)]
struct Peer {
    depth: u32,
    seldepth: u32,
    nodes: u64,
    secs: f64,
}

/// `12K` or `1.5M` or `812` as a number.
fn count(text: &str) -> Option<u64> {
    let (num, scale) = match text.chars().last()? {
        'K' => (&text[..text.len() - 1], 1e3),
        'M' => (&text[..text.len() - 1], 1e6),
        _ => (text, 1.0),
    };
    Some((num.parse::<f64>().ok()? * scale) as u64)
}

fn search_peer(cmd: &str, moves: &[String], ms: u64) -> Result<Peer, String> {
    let mut peer = Peer::default();
    peer.secs = peer::think(cmd, moves, ms, |line| {
        for f in line.split('|').map(str::trim) {
            let f = f.trim_start_matches("MESSAGE ");
            if let Some(d) = f.strip_prefix("Depth ") {
                let (a, b) = d.split_once('-').unwrap_or((d, d));
                peer.depth = a.parse().unwrap_or(0);
                peer.seldepth = b.parse().unwrap_or(0);
            } else if let Some(v) = f.strip_prefix("Node ") {
                peer.nodes = count(v).unwrap_or(0);
            }
        }
    })?;
    Ok(peer)
}

/// Whether the side to move must block a four (its move is forced).
fn must_block(pos: &Position) -> bool {
    PatternBoard::new(pos).is_ok_and(|b| b.count(pos.side_to_move().other(), ThreatClass::Five) > 0)
}

/// A position's figures: ours, and the peer's when one was asked.
type Row = (Ours, Option<Peer>);
/// Reads one figure of a row (`None`: not there).
type Column<'a> = &'a dyn Fn(&Row) -> Option<f64>;

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("search_profile: {e}");
            std::process::exit(2);
        }
    };
    let rules = Rules::new(15, 15, 5).expect("15x15");
    let mut tt = vec![TtEntry::EMPTY; (64 << 20) / std::mem::size_of::<TtEntry>()];
    let mut rows: Vec<Row> = Vec::new();
    'files: for path in &args.records {
        let games = match games(path) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("search_profile: {e}");
                std::process::exit(1);
            }
        };
        for (g, moves) in games.iter().enumerate() {
            for ply in (20..=args.max_ply).step_by(6) {
                if rows.len() >= args.positions {
                    break 'files;
                }
                if ply + 1 >= moves.len() {
                    break;
                }
                let mut pos = Position::new(rules);
                let ok = moves[..ply].iter().all(|m| {
                    rules
                        .parse_square(m)
                        .ok()
                        .is_some_and(|sq| pos.play(sq).is_ok())
                });
                if !ok || pos.outcome().is_over() || must_block(&pos) {
                    continue;
                }
                let ours = search_ours(&pos, args.time_ms, args.nodes, &mut tt);
                let peer = match &args.engine {
                    Some(cmd) => match search_peer(cmd, &moves[..ply], args.time_ms) {
                        Ok(p) => Some(p),
                        Err(e) => {
                            eprintln!("search_profile: {e}");
                            std::process::exit(1);
                        }
                    },
                    None => None,
                };
                let share = |n: u64| 100.0 * n as f64 / ours.nodes.max(1) as f64;
                print!(
                    "{path} game {} ply {ply}: ours depth {} nodes {} ({:.0} K/s) ebf {:.2} moves/node {:.2} threats {:.0}% leaves {:.0}% past {:.0}%",
                    g + 1,
                    ours.depth,
                    ours.nodes,
                    ours.nodes as f64 / ours.secs / 1e3,
                    ours.ebf,
                    ours.moves_per_node,
                    share(ours.threat_nodes),
                    share(ours.leaf_nodes),
                    share(ours.horizon_nodes)
                );
                if let Some(p) = &peer {
                    print!(
                        " | peer depth {}-{} nodes {} ({:.0} K/s)",
                        p.depth,
                        p.seldepth,
                        p.nodes,
                        p.nodes as f64 / p.secs / 1e3
                    );
                }
                println!();
                rows.push((ours, peer));
            }
        }
    }
    let budget = if args.nodes > 0 {
        format!("{} nodes", args.nodes)
    } else {
        format!("{} ms", args.time_ms)
    };
    let half = args.time_ms as f64 / 2000.0;
    let open: Vec<&Row> = rows
        .iter()
        .filter(|r| {
            let ours = if args.nodes > 0 {
                r.0.nodes >= args.nodes / 2
            } else {
                r.0.secs >= half
            };
            ours && r.1.as_ref().is_none_or(|p| p.secs >= half)
        })
        .collect();
    let all: Vec<&Row> = rows.iter().collect();
    let peer = args.engine.is_some();
    table(&all, "positions", &budget, peer);
    table(
        &open,
        "open positions (every search used half its time or more: no forced end found early)",
        &budget,
        peer,
    );
}

/// Means and medians of `rows`' figures, as a Markdown table.
fn table(rows: &[&Row], what: &str, budget: &str, peer: bool) {
    let col = |f: Column| -> (f64, f64) {
        let v: Vec<f64> = rows.iter().filter_map(|r| f(r)).collect();
        let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
        (mean, median(v))
    };
    println!();
    println!("| {} {what}, {budget} | mean | median |", rows.len());
    println!("|---|---|---|");
    let lines: [(&str, Column); 12] = [
        ("ours: depth", &|r| Some(r.0.depth as f64)),
        ("ours: nodes", &|r| Some(r.0.nodes as f64)),
        ("ours: nodes/s", &|r| Some(r.0.nodes as f64 / r.0.secs)),
        ("ours: branching factor (last 3 iterations)", &|r| {
            Some(r.0.ebf)
        }),
        ("ours: moves searched per interior node", &|r| {
            Some(r.0.moves_per_node)
        }),
        ("ours: share of nodes in threat searches", &|r| {
            Some(r.0.threat_nodes as f64 / r.0.nodes.max(1) as f64)
        }),
        ("ours: share of nodes at the nominal depth (leaves)", &|r| {
            Some(r.0.leaf_nodes as f64 / r.0.nodes.max(1) as f64)
        }),
        (
            "ours: share of nodes past it (fours past the horizon)",
            &|r| Some(r.0.horizon_nodes as f64 / r.0.nodes.max(1) as f64),
        ),
        ("peer: depth", &|r| r.1.as_ref().map(|p| p.depth as f64)),
        ("peer: selective depth", &|r| {
            r.1.as_ref().map(|p| p.seldepth as f64)
        }),
        ("peer: nodes", &|r| r.1.as_ref().map(|p| p.nodes as f64)),
        ("peer: nodes/s", &|r| {
            r.1.as_ref().map(|p| p.nodes as f64 / p.secs)
        }),
    ];
    for (name, f) in lines {
        let (mean, med) = col(f);
        if name.starts_with("peer") && !peer {
            continue;
        }
        println!("| {name} | {mean:.2} | {med:.2} |");
    }
    // The means above weigh a position that ends at once (a threat search
    // finds a win in a thousand nodes) as much as one searched for a
    // million nodes; these count every node once.
    let all = |f: fn(&Ours) -> u64| {
        let part: u64 = rows.iter().map(|r| f(&r.0)).sum();
        let nodes: u64 = rows.iter().map(|r| r.0.nodes).sum();
        100.0 * part as f64 / nodes.max(1) as f64
    };
    println!();
    println!(
        "of all {} nodes: {:.1}% in threat searches, {:.1}% at the nominal depth, {:.1}% past it",
        rows.iter().map(|r| r.0.nodes).sum::<u64>(),
        all(|o| o.threat_nodes),
        all(|o| o.leaf_nodes),
        all(|o| o.horizon_nodes)
    );
}
