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
}

impl PlayerKind {
    pub const ALL: [PlayerKind; 3] = [PlayerKind::Random, PlayerKind::Perfect, PlayerKind::Strong];
    pub fn description(self) -> &'static str {
        match self {
            PlayerKind::Random => "plays any legal move",
            PlayerKind::Perfect => "never loses",
            PlayerKind::Strong => "searches within a time budget",
        }
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayerKind::Random => "random",
            PlayerKind::Perfect => "perfect",
            PlayerKind::Strong => "strong",
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

#[derive(Default)]
pub struct Budget<'a> {
    pub max_nodes: Option<u64>,
    pub deadline: Option<&'a mut dyn FnMut() -> bool>,
}

#[derive(Copy, Clone, Debug, Default)]
pub struct SearchStats {
    pub nodes: u64,
    pub tt_hits: u64,
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
    pub fn set_budget(&mut self, _budget: Budget<'_>) {}
    pub fn stats(&self) -> SearchStats {
        self.stats
    }
    pub fn choose_move(&mut self, pos: &Position) -> Option<Square> {
        let moves: Vec<Square> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            return None;
        }
        if self.kind != PlayerKind::Random && is_solvable(pos.rules()) {
            let mut s = Solver::new(self._tt);
            return s.best_move(pos, self.rng.next_u64());
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
    Win(u32),
    Draw,
    Loss(u32),
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
    rules.cell_count() <= 16
}

pub struct Solver<'a> {
    memo: HashMap<u64, Value>,
    stats: SearchStats,
    progress: Option<&'a mut dyn FnMut(Progress)>,
}

impl<'a> Solver<'a> {
    pub fn new(_tt: &mut [TtEntry]) -> Solver<'a> {
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
    pub fn best_move(&mut self, pos: &Position, seed: u64) -> Option<Square> {
        let mut out = [(Square::from_index(0), Value::Draw); 256];
        let n = self.analyze(pos, &mut out);
        if n == 0 {
            return None;
        }
        let best = out[0].1;
        let ties = out[..n].iter().filter(|(_, v)| *v == best).count();
        Some(out[(seed % ties as u64) as usize].0)
    }
}

pub mod bench {
    pub struct BenchLine {
        pub name: &'static str,
        pub nodes: u64,
        pub nanos: u64,
        pub checksum: u64,
        pub baseline_ratio: f64,
    }
}
