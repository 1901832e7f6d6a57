//! What settles the positions a proof visits, and where its nodes go: the
//! figures behind `ttt solve --census` (which parts of a large proof cost
//! most, and which of the prover's cuts end them).

/// How the positions a prover visited were settled, counted since the
/// prover was made. Each visited position counts once, under the first
/// test that settled it (in the order of the fields), or as `searched`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// A line completed or forced at once: the side to move completes one,
    /// or must answer two threats at once; also a defender's real-game line.
    pub lines: u64,
    /// No live line left (or no empty cell): the attacker has failed.
    pub no_lines: u64,
    /// The Erdos-Selfridge sum below its bound.
    pub potential: u64,
    /// The Erdos-Selfridge sum below its bound even after the attacker's
    /// heaviest move.
    pub potential_ahead: u64,
    /// Answered by the table.
    pub table: u64,
    /// A pairing strategy found for the defender.
    pub pairings: u64,
    /// Searched for moves (their children visited).
    pub searched: u64,
    /// Pairing searches that found none (each also counts as `searched`).
    pub pairing_misses: u64,
    /// Of `pairing_misses`, those that ran out of steps (the others tried
    /// every way: no pairing exists there).
    pub pairing_give_ups: u64,
    /// Shared-pairing search steps spent where a pairing was found.
    pub pairing_steps_found: u64,
    /// Steps spent where none exists (the search tried every way).
    pub pairing_steps_none: u64,
    /// Steps spent where the search ran out of steps.
    pub pairing_steps_given_up: u64,
    /// Positions reduced by twins before they were looked at.
    pub twins: u64,
    /// Moves searched at the searched positions with the attacker to move
    /// (each must fail for the defender to hold), and with the defender to
    /// move (past one a position, a move that failed: wasted work).
    pub attacker_moves: u64,
    /// See `attacker_moves`.
    pub defender_moves: u64,
    /// Of the `searched` positions, those with the defender to move.
    pub defender_searched: u64,
    /// The deepest ply below the question's position reached.
    pub deepest: u32,
}

/// One finished subtree of a proof, at the ply a prover was asked to
/// profile (see [`Prover::set_profile`](super::Prover::set_profile)):
/// the heaviest are kept.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Subtree {
    /// Nodes its search took.
    pub nodes: u64,
    /// The attacker's marks, a row-major bitboard (bit r * columns + c).
    pub attacker: u64,
    /// The defender's marks, the same way.
    pub defender: u64,
    /// Whether the attacker is to move there.
    pub attacker_to_move: bool,
    /// Whether its search ended (else it was stopped: `nodes` is what it
    /// had taken so far).
    pub finished: bool,
    /// Whether the attacker wins there (in the game searched; finished
    /// subtrees only).
    pub attacker_wins: bool,
    /// Whether that was the Maker-Breaker game (else the real one).
    pub maker_breaker: bool,
    /// How the position itself was settled: the census of its own node.
    pub settled_by: Settled,
}

/// How one position was settled (the fields of [`Census`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Settled {
    /// A line completed or forced at once.
    Lines,
    /// No live line left.
    NoLines,
    /// The Erdos-Selfridge sum.
    Potential,
    /// The Erdos-Selfridge sum one attacker move ahead.
    PotentialAhead,
    /// The table.
    Table,
    /// A pairing strategy.
    Pairing,
    /// A search of its moves.
    #[default]
    Searched,
}

impl Settled {
    /// A short name, for tables.
    pub fn name(self) -> &'static str {
        match self {
            Settled::Lines => "lines",
            Settled::NoLines => "no lines",
            Settled::Potential => "potential",
            Settled::PotentialAhead => "potential ahead",
            Settled::Table => "table",
            Settled::Pairing => "pairing",
            Settled::Searched => "searched",
        }
    }
}

impl Census {
    pub(super) fn count(&mut self, how: Settled) {
        let n = match how {
            Settled::Lines => &mut self.lines,
            Settled::NoLines => &mut self.no_lines,
            Settled::Potential => &mut self.potential,
            Settled::PotentialAhead => &mut self.potential_ahead,
            Settled::Table => &mut self.table,
            Settled::Pairing => &mut self.pairings,
            Settled::Searched => &mut self.searched,
        };
        *n += 1;
    }
}

/// Keeps `s` among the heaviest subtrees of `kept` (the first `*len` are in
/// use): fills a free slot, else replaces the lightest if `s` is heavier.
pub(super) fn keep_heaviest(kept: &mut [Subtree], len: &mut usize, s: Subtree) {
    if *len < kept.len() {
        kept[*len] = s;
        *len += 1;
        return;
    }
    if let Some(lightest) = kept.iter_mut().min_by_key(|t| t.nodes) {
        if lightest.nodes < s.nodes {
            *lightest = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heaviest_subtrees_are_kept() {
        let mut kept = [Subtree::default(); 3];
        let mut len = 0;
        for nodes in [5, 1, 9, 3, 7, 2] {
            keep_heaviest(
                &mut kept,
                &mut len,
                Subtree {
                    nodes,
                    ..Subtree::default()
                },
            );
        }
        assert_eq!(len, 3);
        let mut n: [u64; 3] = core::array::from_fn(|i| kept[i].nodes);
        n.sort_unstable();
        assert_eq!(n, [5, 7, 9]);
    }
}
