//! `strong`: a search engine for boards too large to solve (9x9 k=5,
//! 15x15 k=5, ...), usable on any board.
//!
//! One file per concern; this one holds the [`Engine`], its public API and
//! what happens at the root before the search.
//!
//! * Search (`search.rs`): iterative deepening negamax alpha-beta, stopped
//!   by a [`Budget`] (`budget.rs`: nodes, optional depth cap, optional
//!   deadline callback: no clock in `no_std`). The move of the last
//!   completed iteration is played. Where the pattern board is the only
//!   board, iterations from the fifth ply search the root within an
//!   aspiration window around the value before (a third of a win-rate
//!   logit either side, opened where a value falls out of it).
//! * Evaluation (`eval.rs`) over every k-cell line window, kept up to date
//!   move by move (`board.rs`): a window holding only one side's marks is
//!   worth `8^(4 - need)` to that side (need = marks still missing: a
//!   window missing 1 is worth 4096, missing 2: 512, 3: 64, 4 or more: 8);
//!   windows holding both marks are dead. Overlapping windows make open
//!   runs worth more than closed ones. The side to move gets a bonus per
//!   three-window of its own (k-2 marks, none of the other's; up to four
//!   count): it makes a four from one before the opponent can, so equal
//!   shapes are not worth the same to both sides (won 13 pairs, lost 4 of
//!   40 against the symmetric version, 200 ms/move on 15x15).
//! * Shape terms of the evaluation (`shape_eval.rs`; five in a row, not
//!   renju, boards larger than 9x9): a pattern board kept move by move says
//!   what a stone on each empty cell would make for each side (open two,
//!   blocked three, open three, four-three...), and each such cell adds a
//!   weight fitted to Rapfi's verdicts. A node costs about 1.6 times as
//!   much; against Rapfi (100 ms a move, `strong` 1 s) 130 of 240 games
//!   won where the windows alone won 98.
//! * Tactics at every node (`threats.rs`, used by `search.rs`): a win in
//!   one is taken; two opponent winning cells (a double threat) is a loss;
//!   a single one must be blocked, and that forced reply does not use up
//!   depth. Against an open three (a cell that gives the opponent two
//!   winning cells at once) only its blocks and our fours are searched;
//!   our own such cell against an opponent with no three-window at all is
//!   a win. Past the horizon, the two best moves that make a four are
//!   still searched (up to 4 in a row), so short continuous-four wins are
//!   seen beyond the depth.
//! * Threats by shape (`shapes.rs`, five in a row, not renju, boards larger
//!   than 9x9): the pattern tables judge the cells the windows point at.
//!   Against an open three only the cells that really stop it (and our
//!   fours) are searched, a false fork (`x.xx.x`) asks for no answer, an
//!   open three nothing stops is a loss, and our four-three cell wins when
//!   the opponent cannot make a four. Where shapes are kept, against the
//!   opponent's four-three cell only the cells that defuse it and our
//!   fours are searched: its threat sequence is stopped a move before it
//!   becomes an open three.
//! * Reverse futility (`search.rs`, where shapes are kept): a null-window
//!   node up to 8 plies deep whose static evaluation beats beta by 500 a
//!   ply, the opponent having no open three or four-three cell, is not
//!   searched.
//! * Threat search at the root (`vcf.rs`, `vct.rs`): a win by continuous
//!   fours (VCF) or by fours and threes (VCT) is played at once; against
//!   an opponent's VCF only the moves that stop it are searched.
//! * A transposition table lent by the caller (`table.rs`; empty works:
//!   the console may lend none) gives each node its best move of earlier
//!   searches, across moves too; then two killer moves per ply
//!   (`ordering.rs`). Principal-variation search (null windows after the
//!   first move) and late quiet moves searched shallower first: one ply,
//!   or where shapes are kept `ln(depth) * ln(move number)` plies, one
//!   more at null-window nodes.
//! * The same threat searches judge the tactics suite (`proof.rs`): which
//!   moves they prove to win, which stop the opponent's VCF.
//! * An empty board is answered without a search: the centre, or on even
//!   sides one of the cells next to it, picked by the seed.
//! * Candidate moves (`ordering.rs`): empty cells within two steps of a
//!   mark, ordered by how much they gain for the side to move plus how
//!   much they would gain for the opponent (where shapes are kept, plus a
//!   weight for the threat class the cell makes for each side, fitted to
//!   Rapfi's choices); inside the tree only the best 12 are searched. At the root the seed perturbs the order slightly, so
//!   equal moves differ between seeds (same seed, same move).
//! * Cost per node (`board.rs`): nothing is rescored. A move updates only
//!   the windows through its cell, each with one lookup in a step table,
//!   and adds the key changes to the cells of each line as a running sum;
//!   candidates come from per-row occupancy bitmasks. Where the pattern
//!   board is kept and five or more wins (`one_board`), the search keeps
//!   the pattern board alone: its classes give the five cells, fours and
//!   forks, and its patterns the move order and the evaluation.
use super::tt::{TtEntry, NO_MOVE};
use super::SearchStats;
use crate::rng::Rng;
use crate::{Mark, Position, Rules, Square, MAX_CELLS, MAX_SIDE};
use board::{WindowStep, MAX_COUNT, WINDOW_IDS, WINDOW_WORDS};
use vcf::{RootVcf, Vcf};

mod board;
mod budget;
mod eval;
mod ordering;
mod proof;
mod search;
mod shape_eval;
mod shapes;
mod table;
mod threats;
mod vcf;
mod vct;

pub use budget::{Budget, Iteration};
pub use proof::{Threat, ThreatProbe, DELAYS};

/// Search values of decided games: a win whose last move is the n-th ply
/// from the root is worth `WIN - n`, a loss `-(WIN - n)`.
const WIN: i32 = 1 << 29;
/// Values at least this large in magnitude are such wins or losses.
const MATE_BOUND: i32 = WIN - 1024;
/// Deepest ply of the search (and of its killer table).
const MAX_PLY: u32 = 64;

/// The search engine. Made per move by [`Player`](super::Player); usable
/// directly for analysis.
///
/// The fields stay in the order written (`repr(C)`), the board's counts,
/// keys and step table together, the pattern board near the end: 3%
/// faster per node than the compiler's own order (measured on 9x9 and
/// 15x15).
#[repr(C)]
pub struct Engine<'a> {
    budget: Budget<'a>,
    /// The transposition table lent by the caller (may be empty): best
    /// moves and bounds of positions already searched, also across moves.
    tt: &'a mut [TtEntry],
    /// Zobrist hash of the marks (salted by the rules), kept move by move.
    hash: u64,
    salt: u64,
    /// Two quiet moves per ply that caused a cut-off, tried early at other
    /// nodes of the same ply.
    killers: [[u16; 2]; MAX_PLY as usize + 2],
    rng: Rng,
    stats: SearchStats,
    aborted: bool,
    rules: Rules,
    k: u32,
    cells: [u8; MAX_CELLS],
    /// Marks of each side in each window (id = start square * 4 +
    /// direction), coded `x * MAX_COUNT + o`: one number indexes `steps`.
    counts: [u16; WINDOW_IDS],
    /// Windows with k-1 marks of a side and none of the other: a count and
    /// a bitset of window ids per side.
    fours: [u32; 2],
    four_set: [[u64; WINDOW_WORDS]; 2],
    /// Windows with k-2 marks of a side and none of the other (k >= 3): a
    /// mark on an empty cell shared by two of them makes two winning cells.
    three_set: [[u64; WINDOW_WORDS]; 2],
    threes: [u32; 2],
    /// Per row, a bit per column: the occupied cells (the candidates are
    /// the empty cells within two steps of these).
    occupied: [u32; MAX_SIDE as usize],
    /// Each cell's move-ordering key for each side to move (2 x its gain for
    /// that side + its gain for the other), summed over the windows through
    /// it and kept up to date as windows change, so ordering the candidates
    /// reads one number per cell instead of rescoring 4k windows.
    cell_key: [[i32; 2]; MAX_CELLS],
    /// What one more mark changes in a window, by side and the window's
    /// counts before it (coded as in `counts`); a take-back undoes the entry
    /// of the counts after it.
    steps: [[WindowStep; MAX_COUNT * MAX_COUNT]; 2],
    /// The key change (by side to move) of each window along the line being
    /// updated (scratch space, so the hot path clears nothing).
    line_deltas: [[i32; 2]; MAX_SIDE as usize],
    /// Evaluation from X's point of view.
    eval_x: i32,
    /// The evaluation's threat-class terms (`shape_eval.rs`).
    shapes: Option<shape_eval::ShapeEval>,
    /// Whether the pattern board is the only board kept in the search
    /// (`shapes` with five or more in a row winning): then the line
    /// windows stay as loaded, and every reader of threats, of the move
    /// order and of the evaluation reads the pattern board instead.
    one_board: bool,
    turn: Mark,
    marks: u32,
}

impl<'a> Engine<'a> {
    /// An engine with this budget; `seed` perturbs the order of equal moves.
    pub fn new(budget: Budget<'a>, seed: u64) -> Engine<'a> {
        Engine::with_table(budget, seed, &mut [])
    }

    /// An engine that keeps what it learns in `tt` (entries of other
    /// engines, other rules or earlier moves may be there: keys tell them
    /// apart). The table makes the search deeper, not different in kind:
    /// an empty one works.
    pub fn with_table(budget: Budget<'a>, seed: u64, tt: &'a mut [TtEntry]) -> Engine<'a> {
        Engine {
            budget,
            tt,
            hash: 0,
            salt: 0,
            killers: [[NO_MOVE; 2]; MAX_PLY as usize + 2],
            rng: Rng::new(seed),
            stats: SearchStats::default(),
            aborted: false,
            rules: Rules::CLASSIC,
            k: 3,
            cells: [0; MAX_CELLS],
            counts: [0; WINDOW_IDS],
            fours: [0; 2],
            four_set: [[0; WINDOW_WORDS]; 2],
            three_set: [[0; WINDOW_WORDS]; 2],
            threes: [0; 2],
            occupied: [0; MAX_SIDE as usize],
            cell_key: [[0; 2]; MAX_CELLS],
            steps: [[WindowStep::NONE; MAX_COUNT * MAX_COUNT]; 2],
            line_deltas: [[0; 2]; MAX_SIDE as usize],
            eval_x: 0,
            shapes: None,
            one_board: false,
            turn: Mark::X,
            marks: 0,
        }
    }

    /// Counters of the last search.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The move to play in `pos` (`None` when the game is over), and its
    /// score (positive: good for the side to move).
    pub fn analyse(&mut self, pos: &Position) -> Option<(Square, i32)> {
        self.stats = SearchStats::default();
        self.aborted = false;
        if pos.outcome().is_over() {
            return None;
        }
        if pos.mark_count() == 0 {
            return Some((self.central_cell(pos.rules()), 0));
        }
        self.load(pos);
        let me = self.turn;
        // Tactics first, whatever the budget.
        if let (Some(sq), _) = self.winning_cells(me) {
            return Some((sq, WIN - 1));
        }
        if let (Some(sq), n) = self.winning_cells(me.other()) {
            // (A block black may not play is no move: lost, any legal
            // move will do, the search below picks one.)
            if !self.is_forbidden(sq, me) {
                return Some((sq, if n >= 2 { -(WIN - 2) } else { 0 }));
            }
        }
        let mut root = [(0, Square::from_index(0)); MAX_CELLS];
        let mut n = self.candidates(&mut root, true);
        if n == 0 {
            // Lost to an open three nothing stops: the search still picks
            // the longest resistance among the usual candidates.
            n = self.candidates_among(&mut root, true, self.frontier());
        }
        if self.forbids(me) {
            let mut kept = 0;
            for i in 0..n {
                if !self.is_forbidden(root[i].1, me) {
                    root[kept] = root[i];
                    kept += 1;
                }
            }
            n = kept;
        }
        if n == 0 {
            return pos.legal_moves().first().map(|sq| (sq, 0));
        }
        let mut vcf = Vcf::new();
        match self.root_vcf(&mut root[..n], &mut vcf) {
            RootVcf::Win(sq, plies) => return Some((sq, WIN - plies as i32)),
            RootVcf::Keep(kept) => n = kept,
        }
        if n == 1 {
            return Some((root[0].1, 0));
        }
        Some(self.deepen(&mut root[..n], pos.empty_squares().len()))
    }

    /// The opening move on an empty board: the centre, or on even sides one
    /// of the cells next to it, picked by the seed. Every gomoku engine opens
    /// there; a search of the empty board only drifts off it (edge effects of
    /// a shallow evaluation: h5 on 15x15 before this rule).
    fn central_cell(&mut self, rules: &Rules) -> Square {
        let nearest = rules
            .squares()
            .map(|sq| rules.distance_from_centre(sq))
            .min()
            .unwrap_or(0);
        let central = || {
            rules
                .squares()
                .filter(move |&sq| rules.distance_from_centre(sq) == nearest)
        };
        let pick = self.rng.below(central().count().max(1) as u32) as usize;
        central().nth(pick).unwrap_or_else(|| Square::from_index(0))
    }

    /// The move to play (`None` when the game is over).
    pub fn best_move(&mut self, pos: &Position) -> Option<Square> {
        self.analyse(pos).map(|(sq, _)| sq)
    }
}

/// Boards and engines for the tests of the engine's parts.
#[cfg(test)]
pub(super) mod test_boards {
    use super::{Budget, Engine};
    use crate::Position;

    /// A 15x15 k=5 board from rows of `(row, text)` (column a first),
    /// the rest empty.
    pub(in crate::ai::strong) fn board(rows: &[(usize, &str)]) -> Position {
        let mut text = [b'.'; 15 * 16 - 1];
        for r in 0..14 {
            text[r * 16 + 15] = b'/';
        }
        for &(r, row) in rows {
            text[r * 16..r * 16 + row.len()].copy_from_slice(row.as_bytes());
        }
        Position::from_board(core::str::from_utf8(&text).unwrap(), Some(5)).unwrap()
    }

    /// An engine with no budget limit, loaded with `pos`.
    pub(in crate::ai::strong) fn engine(pos: &Position) -> Engine<'static> {
        let mut e = Engine::new(Budget::nodes(u64::MAX), 0);
        e.load(pos);
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty board opens in the centre (odd sides) or on one of the cells
    /// next to it (even sides), whichever seed, however large the budget.
    #[test]
    fn empty_boards_open_in_the_centre() {
        for (c, r, centre) in [
            (15u8, 15u8, &[(7u8, 7u8)][..]),
            (9, 9, &[(4, 4)]),
            (3, 3, &[(1, 1)]),
            (16, 16, &[(7, 7), (8, 7), (7, 8), (8, 8)]),
            (10, 7, &[(4, 3), (5, 3)]),
        ] {
            let rules = Rules::new(c, r, 5.min(c.max(r))).unwrap();
            let mut seen = [false; 4];
            for seed in 0..32 {
                let mut engine = Engine::new(Budget::nodes(1 << 20), seed);
                let (sq, _) = engine.analyse(&Position::new(rules)).unwrap();
                let at = centre
                    .iter()
                    .position(|&(x, y)| (sq.column(), sq.row()) == (x, y));
                let Some(i) = at else {
                    panic!("{c}x{r} seed {seed}: {sq:?} is not central");
                };
                seen[i] = true;
            }
            // The seed chooses among the central cells.
            assert!(seen[..centre.len()].iter().all(|&s| s), "{c}x{r}");
        }
    }
}
