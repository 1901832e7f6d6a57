//! What picks the brain's moves: the [`Brain`] trait, and the engine
//! behind it with its table sized to the manager's memory limit.
use ttt_core::{Position, Square};

use crate::ai::{Iteration, PlayerKind, TtEntry};
use crate::common::{alloc_tt_bytes, think_watched, Limits};
use std::time::Duration;

/// Largest transposition table the brain allocates (bytes).
pub const MAX_TT_BYTES: u64 = 64 << 20;

/// What picks the brain's moves: the engine, or a stand-in in tests.
pub trait Brain {
    /// A legal move for the side to move in `pos` (not finished), within
    /// `limits`; `max_memory` is the manager's memory limit in bytes (0: none).
    /// When `stop` returns `true` the manager has moved on: return soon (the
    /// move is not used). `watch` hears each completed iteration of the
    /// search and when it came (what the brain reports in MESSAGE lines).
    fn think(
        &mut self,
        pos: &Position,
        limits: Limits,
        max_memory: u64,
        stop: &dyn Fn() -> bool,
        watch: &dyn Fn(&Iteration, Duration),
    ) -> Option<Square>;
}

/// The engine: `perfect` on boards it can solve, `strong` on the others.
#[derive(Default)]
pub struct EngineBrain {
    tt: Vec<TtEntry>,
    tt_bytes: u64,
    seed: u64,
}

impl EngineBrain {
    /// A brain whose random choices follow `seed`.
    pub fn new(seed: u64) -> EngineBrain {
        EngineBrain {
            tt: Vec::new(),
            tt_bytes: 0,
            seed,
        }
    }
}

impl EngineBrain {
    /// Bytes of transposition table in use (0 before the first move).
    pub fn table_bytes(&self) -> usize {
        std::mem::size_of_val(self.tt.as_slice())
    }
}

impl Brain for EngineBrain {
    fn think(
        &mut self,
        pos: &Position,
        limits: Limits,
        max_memory: u64,
        stop: &dyn Fn() -> bool,
        watch: &dyn Fn(&Iteration, Duration),
    ) -> Option<Square> {
        // Half the memory limit for the table, leaving room for the rest.
        let bytes = if max_memory == 0 {
            MAX_TT_BYTES
        } else {
            (max_memory / 2).min(MAX_TT_BYTES)
        };
        if bytes != self.tt_bytes {
            self.tt = Vec::new();
            // Halve the request until the memory is there (empty works too, slowly).
            let mut want = bytes as usize;
            while want >= 1 << 16 {
                if let Some(tt) = alloc_tt_bytes(want) {
                    self.tt = tt;
                    break;
                }
                want /= 2;
            }
            self.tt_bytes = bytes;
        }
        // Perfect where the board can be solved, strong within the limits elsewhere.
        let kind = PlayerKind::Impossible;
        self.seed = self.seed.wrapping_add(1);
        think_watched(kind, self.seed, &mut self.tt, pos, limits, stop, watch).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ttt_core::Rules;

    #[test]
    fn max_memory_bounds_the_table() {
        let pos = Position::new(Rules::CLASSIC);
        let mut brain = EngineBrain::new(1);
        let limits = Limits::default();
        assert!(brain
            .think(&pos, limits, 0, &|| false, &|_, _| {})
            .is_some());
        assert_eq!(brain.table_bytes(), MAX_TT_BYTES as usize);
        assert!(brain
            .think(&pos, limits, 1 << 20, &|| false, &|_, _| {})
            .is_some());
        assert!(brain.table_bytes() <= 1 << 19 && brain.table_bytes() > 0);
        assert!(brain
            .think(&pos, limits, 100 << 30, &|| false, &|_, _| {})
            .is_some());
        assert_eq!(brain.table_bytes(), MAX_TT_BYTES as usize);
    }
}
