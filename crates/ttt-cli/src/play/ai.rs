//! Stand-in for `ttt_core::ai` until branch `ai` is merged: the same names and
//! signatures (the agreed contract), with simple heuristic players. Replaced by
//! `pub use ttt_core::ai::*;` after the merge.
use std::fmt;
use std::str::FromStr;

use ttt_core::rng::Rng;
use ttt_core::{Mark, Position, Rules, Square};

/// A computer player's name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// Any empty square.
    Random,
    /// The CS102 strategy.
    Classic,
    /// "Major Project" standard.
    Standard,
    /// "Major Project" god.
    God,
    /// Squid.
    Squid,
    /// Perfect.
    Perfect,
    /// Strong.
    Strong,
    /// Easy.
    Easy,
    /// Medium.
    Medium,
    /// Hard.
    Hard,
    /// Impossible.
    Impossible,
}

impl PlayerKind {
    /// Every player.
    pub const ALL: [PlayerKind; 11] = [
        PlayerKind::Random,
        PlayerKind::Classic,
        PlayerKind::Standard,
        PlayerKind::God,
        PlayerKind::Squid,
        PlayerKind::Perfect,
        PlayerKind::Strong,
        PlayerKind::Easy,
        PlayerKind::Medium,
        PlayerKind::Hard,
        PlayerKind::Impossible,
    ];

    fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Classic => "classic",
            PlayerKind::Standard => "standard",
            PlayerKind::God => "god",
            PlayerKind::Squid => "squid",
            PlayerKind::Perfect => "perfect",
            PlayerKind::Strong => "strong",
            PlayerKind::Easy => "easy",
            PlayerKind::Medium => "medium",
            PlayerKind::Hard => "hard",
            PlayerKind::Impossible => "impossible",
        }
    }

    /// One line about the player.
    pub fn description(self) -> &'static str {
        "a computer player"
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PlayerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<PlayerKind, String> {
        let lower = s.trim().to_ascii_lowercase();
        PlayerKind::ALL
            .into_iter()
            .find(|k| k.name() == lower)
            .ok_or_else(|| format!("unknown player {s:?}"))
    }
}

/// Transposition table entry.
#[derive(Copy, Clone, Debug)]
pub struct TtEntry(u64);

impl TtEntry {
    /// Unused entry.
    pub const EMPTY: TtEntry = TtEntry(0);
}

/// A game value.
#[derive(Copy, Clone, Debug)]
pub struct Value;

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown")
    }
}

/// A computer player.
pub struct Player<'a> {
    kind: PlayerKind,
    rng: Rng,
    _tt: &'a mut [TtEntry],
}

impl<'a> Player<'a> {
    /// A player of `kind`.
    pub fn new(kind: PlayerKind, seed: u64, tt: &'a mut [TtEntry]) -> Player<'a> {
        Player {
            kind,
            rng: Rng::new(seed),
            _tt: tt,
        }
    }

    /// Its move.
    pub fn choose_move(&mut self, pos: &Position) -> Option<Square> {
        let moves: Vec<Square> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            return None;
        }
        if self.kind == PlayerKind::Random {
            return Some(moves[self.rng.below(moves.len() as u32) as usize]);
        }
        Some(heuristic(pos, &moves))
    }
}

fn heuristic(pos: &Position, moves: &[Square]) -> Square {
    // CS102: win (the last such square), block (the last), centre, corners
    // in order, then any square.
    let me = pos.side_to_move();
    let rules = pos.rules();
    let wins = |m: Mark| {
        moves
            .iter()
            .rev()
            .find(|&&s| pos.completes_line(s, m))
            .copied()
    };
    let (c, r) = (rules.columns() - 1, rules.rows() - 1);
    let centre = Square::new(c / 2, r / 2).filter(|s| moves.contains(s));
    let corner = [(0, 0), (c, 0), (0, r), (c, r)]
        .into_iter()
        .filter_map(|(x, y)| Square::new(x, y))
        .find(|s| moves.contains(s));
    wins(me)
        .or_else(|| wins(me.other()))
        .or(centre)
        .or(corner)
        .unwrap_or(moves[0])
}

/// Whether the exact solver is practical.
pub fn is_solvable(rules: &Rules) -> bool {
    rules.cell_count() <= 9
}

/// Exact solver.
pub struct Solver<'a> {
    _tt: &'a mut [TtEntry],
}

impl<'a> Solver<'a> {
    /// A solver using `tt`.
    pub fn new(tt: &'a mut [TtEntry]) -> Solver<'a> {
        Solver { _tt: tt }
    }

    /// The best move and its value.
    pub fn best_move(&mut self, pos: &Position, _seed: u64) -> Option<(Square, Value)> {
        let moves: Vec<Square> = pos.legal_moves().into_iter().collect();
        (!moves.is_empty()).then(|| (heuristic(pos, &moves), Value))
    }
}
