//! TEMPORARY stand-in for `ttt_core::ai` (branch `ai`), with the agreed
//! contract's names, so the commands and their tests run before the real
//! players land. Replaced by `use ttt_core::ai` once merged.
#![allow(dead_code)]

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use ttt_core::rng::Rng;
use ttt_core::{Outcome, Position, Rules, Square};

#[derive(Copy, Clone, Debug, Default)]
pub struct TtEntry {
    _key: u64,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    Random,
    Perfect,
    Strong,
    Impossible,
}

impl PlayerKind {
    pub const ALL: [PlayerKind; 4] = [
        PlayerKind::Random,
        PlayerKind::Perfect,
        PlayerKind::Strong,
        PlayerKind::Impossible,
    ];
    pub fn description(self) -> &'static str {
        match self {
            PlayerKind::Random => "plays any legal move",
            PlayerKind::Perfect => "never loses",
            PlayerKind::Strong => "searches within a time budget",
            PlayerKind::Impossible => "perfect where solvable, strong elsewhere",
        }
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayerKind::Random => "random",
            PlayerKind::Perfect => "perfect",
            PlayerKind::Strong => "strong",
            PlayerKind::Impossible => "impossible",
        })
    }
}

impl FromStr for PlayerKind {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        PlayerKind::ALL
            .into_iter()
            .find(|k| k.to_string() == s)
            .ok_or(())
    }
}

#[derive(Copy, Clone)]
pub struct Budget<'a> {
    pub max_nodes: u64,
    pub max_depth: u32,
    pub deadline_check: Option<&'a dyn Fn() -> bool>,
}

impl Budget<'_> {
    pub const DEFAULT_NODES: u64 = 60_000;
}

impl Default for Budget<'_> {
    fn default() -> Self {
        Budget {
            max_nodes: Self::DEFAULT_NODES,
            max_depth: 0,
            deadline_check: None,
        }
    }
}

#[derive(Copy, Clone, Debug, Default)]
pub struct SearchStats {
    pub nodes: u64,
    pub tt_hits: u64,
    pub depth: u32,
}

pub struct Player<'a> {
    kind: PlayerKind,
    rng: Rng,
    _tt: &'a mut [TtEntry],
    stats: SearchStats,
}

impl<'a> Player<'a> {
    pub fn new(kind: PlayerKind, seed: u64, tt: &'a mut [TtEntry]) -> Player<'a> {
        Player {
            kind,
            rng: Rng::new(seed),
            _tt: tt,
            stats: SearchStats::default(),
        }
    }
    pub fn set_budget(&mut self, _budget: Budget<'a>) {}
    pub fn stats(&self) -> SearchStats {
        self.stats
    }
    pub fn choose_move(&mut self, pos: &Position) -> Option<Square> {
        let moves: Vec<Square> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            return None;
        }
        let exact = self.kind == PlayerKind::Perfect
            || (self.kind == PlayerKind::Impossible && is_solvable(pos.rules()));
        if exact {
            let mut s = Solver::new(self._tt);
            return s.best_move(pos, self.rng.next_u64()).map(|m| m.0);
        }
        if self.kind != PlayerKind::Random {
            let mut p = pos.clone();
            let me = p.side_to_move();
            for &m in &moves {
                if p.completes_line(m, me) {
                    return Some(m);
                }
            }
            for &m in &moves {
                if p.completes_line(m, me.other()) {
                    return Some(m);
                }
            }
            p.undo();
        }
        Some(moves[self.rng.below(moves.len() as u32) as usize])
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Win(u8),
    Draw,
    Loss(u8),
}

impl Value {
    fn score(self) -> i64 {
        match self {
            Value::Win(n) => 1000 - n as i64,
            Value::Draw => 0,
            Value::Loss(n) => -1000 + n as i64,
        }
    }
    fn parent(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Draw => Value::Draw,
            Value::Loss(n) => Value::Win(n + 1),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}

#[derive(Copy, Clone, Debug)]
pub struct Progress {
    pub nodes: u64,
    pub done: u32,
    pub total: u32,
}

pub fn is_solvable(rules: &Rules) -> bool {
    let cells = rules.cell_count();
    cells <= 64 && (cells <= 16 || (cells <= 25 && rules.k() >= 4) || rules.k() <= 2)
}

pub struct Solver<'a> {
    memo: HashMap<u64, Value>,
    stats: SearchStats,
    progress: Option<&'a mut dyn FnMut(Progress)>,
}

impl<'a> Solver<'a> {
    pub fn new(_tt: &'a mut [TtEntry]) -> Solver<'a> {
        Solver {
            memo: HashMap::new(),
            stats: SearchStats::default(),
            progress: None,
        }
    }
    pub fn set_progress(&mut self, f: &'a mut dyn FnMut(Progress)) {
        self.progress = Some(f);
    }
    pub fn stats(&self) -> SearchStats {
        self.stats
    }
    pub fn solve(&mut self, pos: &Position) -> Value {
        let mut p = pos.clone();
        self.negamax(&mut p)
    }
    fn negamax(&mut self, p: &mut Position) -> Value {
        self.stats.nodes += 1;
        match p.outcome() {
            Outcome::Win(_) => return Value::Loss(0),
            Outcome::Draw => return Value::Draw,
            Outcome::InProgress => {}
        }
        if let Some(&v) = self.memo.get(&p.hash()) {
            self.stats.tt_hits += 1;
            return v;
        }
        let mut best: Option<Value> = None;
        for m in p.legal_moves() {
            let _ = p.play(m);
            let v = self.negamax(p).parent();
            p.undo();
            if best.is_none_or(|b| v.score() > b.score()) {
                best = Some(v);
            }
        }
        let v = best.unwrap_or(Value::Draw);
        self.memo.insert(p.hash(), v);
        v
    }
    pub fn analyze(&mut self, pos: &Position, out: &mut [(Square, Value)]) -> usize {
        let mut p = pos.clone();
        let mut n = 0;
        for m in pos.legal_moves() {
            if n == out.len() {
                break;
            }
            let _ = p.play(m);
            out[n] = (m, self.negamax(&mut p).parent());
            p.undo();
            n += 1;
            if let Some(f) = self.progress.as_mut() {
                f(Progress {
                    nodes: self.stats.nodes,
                    done: n as u32,
                    total: pos.legal_moves().len() as u32,
                });
            }
        }
        out[..n].sort_by_key(|(_, v)| -v.score());
        n
    }
    pub fn best_move(&mut self, pos: &Position, seed: u64) -> Option<(Square, Value)> {
        let mut out = [(Square::from_index(0), Value::Draw); 256];
        let n = self.analyze(pos, &mut out);
        if n == 0 {
            return None;
        }
        let best = out[0].1;
        let ties = out[..n].iter().filter(|(_, v)| *v == best).count();
        Some(out[(seed % ties as u64) as usize])
    }
}

pub mod bench {
    use super::{Progress, TtEntry, Value};

    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    pub enum Item {
        Solve333,
    }

    impl Item {
        pub const ALL: [Item; 1] = [Item::Solve333];
        pub const fn name(self) -> &'static str {
            "3,3,3"
        }
        pub const fn target_ns(self) -> u64 {
            1_000_000
        }
    }

    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    pub struct BenchLine {
        pub item: Item,
        pub nodes: u64,
        pub tt_hits: u64,
        pub ns: u64,
        pub max_ns: u64,
        pub baseline_nodes: u64,
        pub baseline_ns: u64,
        pub baseline_done: bool,
        pub value: Option<Value>,
        pub checksum: u64,
    }

    impl BenchLine {
        pub fn speedup(&self) -> Option<f64> {
            (self.baseline_ns > 0 && self.ns > 0).then(|| self.baseline_ns as f64 / self.ns as f64)
        }
        pub fn on_target(&self) -> bool {
            self.ns <= self.item.target_ns()
        }
    }

    pub fn run(
        clock: fn() -> u64,
        _tt: &mut [TtEntry],
        report: &mut dyn FnMut(BenchLine),
        _progress: &mut dyn FnMut(Item, Progress),
    ) {
        let t0 = clock();
        let pos = ttt_core::Position::new(ttt_core::Rules::CLASSIC);
        let mut tt = [];
        let mut s = super::Solver::new(&mut tt);
        let v = s.solve(&pos);
        let ns = clock().saturating_sub(t0);
        report(BenchLine {
            item: Item::Solve333,
            nodes: s.stats().nodes,
            tt_hits: s.stats().tt_hits,
            ns,
            max_ns: ns,
            baseline_nodes: s.stats().nodes * 3,
            baseline_ns: ns * 3,
            baseline_done: true,
            value: Some(v),
            checksum: 0x1234 ^ s.stats().nodes,
        });
    }
}
