//! A plain exact search: negamax alpha-beta with a transposition table keyed
//! by [`Position::hash`], nothing else (no symmetry, no move ordering, no
//! threat shortcuts). It is the yardstick the benchmarks compare the real
//! [`Solver`](super::Solver) with, and the solver's fallback on boards of
//! more than 64 cells.
use super::stats::SearchStats;
use super::tt::{self, TtEntry, DIST, EXACT, LOWER, NO_MOVE, UPPER};
use super::value::Value;
use crate::{Outcome, Position};

pub(crate) const WIN: i16 = 1000;
pub(crate) const WIN_THRESHOLD: i16 = 700;

/// Score (root-relative, for the side to move at the root) to [`Value`].
pub(crate) fn to_value(score: i16) -> Value {
    if score > 0 {
        Value::Win((WIN - score).clamp(0, 255) as u8)
    } else if score < 0 {
        Value::Loss((WIN + score).clamp(0, 255) as u8)
    } else {
        Value::Draw
    }
}

/// Root-relative score at `ply` to the node-relative score stored in the TT.
#[inline]
pub(crate) fn to_tt(score: i16, ply: i16) -> i16 {
    if score > WIN_THRESHOLD {
        score + ply
    } else if score < -WIN_THRESHOLD {
        score - ply
    } else {
        score
    }
}

/// Node-relative TT score to the root-relative score at `ply`.
#[inline]
pub(crate) fn from_tt(score: i16, ply: i16) -> i16 {
    if score > WIN_THRESHOLD {
        score - ply
    } else if score < -WIN_THRESHOLD {
        score + ply
    } else {
        score
    }
}

/// The exact value of `pos` by plain alpha-beta + TT. Slow on anything but
/// small boards.
pub fn solve(pos: &Position, table: &mut [TtEntry], stats: &mut SearchStats) -> Value {
    solve_limited(pos, table, stats, u64::MAX).unwrap_or(Value::Draw)
}

/// As [`solve`], giving up (`None`) once `stats.nodes` passes `limit`.
pub fn solve_limited(
    pos: &Position,
    table: &mut [TtEntry],
    stats: &mut SearchStats,
    limit: u64,
) -> Option<Value> {
    Plain::run(pos, table, stats, limit, None)
}

/// As [`solve`], giving up (`None`) once `deadline` returns `true` (asked
/// every 1,024 nodes).
pub(crate) fn solve_until(
    pos: &Position,
    table: &mut [TtEntry],
    stats: &mut SearchStats,
    deadline: Option<&dyn Fn() -> bool>,
) -> Option<Value> {
    Plain::run(pos, table, stats, u64::MAX, deadline)
}

struct Plain<'t> {
    table: &'t mut [TtEntry],
    stats: &'t mut SearchStats,
    limit: u64,
    deadline: Option<&'t dyn Fn() -> bool>,
    aborted: bool,
}

impl<'t> Plain<'t> {
    fn run(
        pos: &Position,
        table: &'t mut [TtEntry],
        stats: &'t mut SearchStats,
        limit: u64,
        deadline: Option<&'t dyn Fn() -> bool>,
    ) -> Option<Value> {
        let mut pos = pos.clone();
        let mut s = Plain {
            table,
            stats,
            limit,
            deadline,
            aborted: false,
        };
        let v = s.search(&mut pos, 0, -WIN, WIN);
        (!s.aborted).then(|| to_value(v))
    }

    fn search(&mut self, pos: &mut Position, ply: i16, mut alpha: i16, mut beta: i16) -> i16 {
        self.stats.nodes += 1;
        if self.stats.nodes > self.limit
            || (self.stats.nodes % 1024 == 0 && self.deadline.is_some_and(|f| f()))
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        match pos.outcome() {
            Outcome::Win(_) => return -(WIN - ply),
            Outcome::Draw => return 0,
            Outcome::InProgress => {}
        }
        // Nothing beats winning with this move: mate-distance bound.
        beta = beta.min(WIN - (ply + 1));
        if alpha >= beta {
            return beta;
        }
        let alpha_orig = alpha;
        let key = pos.hash() ^ tt::salt(pos.rules());
        if let Some(e) = tt::probe(self.table, key) {
            if e.flags & DIST != 0 {
                self.stats.tt_hits += 1;
                let v = from_tt(e.value, ply);
                match e.flags & 3 {
                    EXACT => return v,
                    LOWER => alpha = alpha.max(v),
                    UPPER => beta = beta.min(v),
                    _ => {}
                }
                if alpha >= beta {
                    return v;
                }
            }
        }
        let mut best = -WIN - 1;
        for sq in pos.legal_moves() {
            if pos.play(sq).is_err() {
                continue;
            }
            let v = -self.search(pos, ply + 1, -beta, -alpha);
            pos.undo();
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let flag = if best <= alpha_orig {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        tt::store(
            self.table,
            TtEntry {
                key,
                value: to_tt(best, ply),
                flags: flag | DIST,
                depth: pos.empty_squares().len().min(255) as u8,
                mv: NO_MOVE,
            },
        );
        best
    }
}
