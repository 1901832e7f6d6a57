//! Computer players: the seeds' rule-based bots, an exact solver and a
//! search engine for boards too large to solve.
//!
//! Every player is a [`PlayerKind`], selectable by its [`name`](PlayerKind::name)
//! (`"classic"`, `"perfect"`, ...), and every player takes a seed: the same
//! seed and the same opponent moves give the same game, on every platform.
//! Nothing allocates: the solver's transposition table is a slice of
//! [`TtEntry`] the caller lends (it may be empty for the seed players).
//!
//! # The players
//!
//! Cells are scanned in row-major order (top row first, left to right), and
//! "number" means the 1-based row-major number (`5` is the centre of 3x3).
//! "Wins" means a move that completes k in a row for the player, "blocks" a
//! move on a cell where the opponent would complete k in a row; on boards with
//! k < size that is still "k in a row", nothing else.
//!
//! * `random`: a uniformly random legal move (the seeded [`Rng`]).
//! * `classic` (seed 000, CS102): win, else block, else the centre, else a
//!   corner, else a side. When several cells win (or block) it takes the
//!   **highest-numbered** one (the C loop keeps the last square found).
//!   Corners in the order 1, 3, 7, 9; sides 2, 4, 6, 8. Generalised: the
//!   centre is the cell(s) nearest the middle ([`Rules::distance_from_centre`]
//!   minimal: one cell on odd sides, 2 or 4 on even ones), first empty in
//!   row-major order; corners top-left, top-right, bottom-left, bottom-right;
//!   then the first empty cell in row-major order (on 3x3 that is exactly the
//!   sides 2, 4, 6, 8).
//! * `standard` (seed 003, "Human" mode): win, else block, each the **first**
//!   such cell in row-major order; then the corners in the order (1,1), (1,3),
//!   (3,1), (3,3) (row, column); then the first free cell. Generalised with
//!   the four corners of the board in the same order (top-left, top-right,
//!   bottom-left, bottom-right).
//! * `god` (seed 003, "God" mode): as `standard`, but after win and block it
//!   takes the centre (the centre cell(s) as for `classic`, first empty in
//!   row-major order).
//! * `squid` (seed 001, "Tic-Tac-Toe in C" `botTurn`): every empty cell gets a
//!   score from its row, column and the two main diagonals, computed with the
//!   C code's exact integer arithmetic, quirks included (packed byte-wide
//!   weights, the whole-int compare of the shifted own-mark counter, the +5
//!   bonus firing at every step where its test holds, `highscore & 0xFF`); the first cell
//!   with the highest score wins ties. See [`squid`] for the generalisation to
//!   k < size and to rectangular boards.
//! * `perfect`: the exact [`Solver`]. It plays the fastest win, or a draw, or
//!   the slowest loss; among equally good moves it picks one with its seed
//!   (uniformly). On boards of more than 25 cells that [`is_solvable`]
//!   accepts (6x5 k=4, 6x6 k=5, ...) the [`Prover`] decides win, draw or
//!   loss and `perfect` keeps the best of them (never loses where it can
//!   draw, always wins where it can), but a win is not always the fastest.
//!   On boards [`is_solvable`] rejects (7x7 k=5, 9x9, 15x15, ...)
//!   an exact answer could take years, so there `perfect` plays as `strong`
//!   rather than hang; use [`Solver`] directly to insist.
//!   An [opening book](book) ([`Player::set_book`]) answers the first plies
//!   of a board without searching, with the very same moves.
//!   Under a deadline (the [`Budget`]'s, or an earlier one of its own:
//!   [`Player::set_solver_deadline`]) the solver stops when time is up,
//!   and a position it could not solve in time gets `strong`'s move
//!   within the budget, the best it has; without one it always solves.
//! * `strong`: iterative-deepening alpha-beta with a threat-aware evaluation
//!   ([`strong`]), limited by a [`Budget`] (default 60,000 nodes a move:
//!   about 0.2 s on 9x9 k=5, 0.3 s on 15x15 k=5 on a desktop); for boards
//!   too large to solve. Ties between equal moves are broken by its seed.
//! * `easy`: `standard`, except that 2 moves in 5 (seeded) are random, and it
//!   still always takes a win in one.
//! * `medium`: takes a win, blocks a loss; otherwise 1 move in 4 (seeded) is
//!   the `god` move and the others come from `strong` limited to 2 plies and
//!   2,000 nodes. It sees forks only by accident.
//! * `hard`: `strong` limited to 4 plies (forced replies do not count) and
//!   20,000 nodes: it never misses a win, a block or a double threat in one,
//!   and loses only to a deeper plan (a fork prepared a move earlier).
//! * `impossible`: `perfect` when [`is_solvable_with`] says the board can be
//!   solved in reasonable time with the lent table, `strong` (default budget)
//!   otherwise.
//!
//! # Using it
//!
//! ```
//! use ttt_core::ai::{Player, PlayerKind, Solver, TtEntry, Value};
//! use ttt_core::{Position, Rules};
//!
//! // The table: any length (a power of two is not needed), 16 bytes each.
//! let mut tt = vec![TtEntry::EMPTY; 1 << 16];
//! let mut pos = Position::new(Rules::CLASSIC);
//! let kind: PlayerKind = "perfect".parse().unwrap();
//! let mut player = Player::new(kind, 42, &mut tt);
//! while let Some(mv) = player.choose_move(&pos) {
//!     pos.play(mv).unwrap();
//! }
//! assert!(pos.outcome().winner().is_none()); // perfect against itself: a draw
//!
//! let mut solver = Solver::new(&mut tt);
//! assert_eq!(solver.solve(&Position::new(Rules::CLASSIC)), Value::Draw);
//! ```
//!
//! [`Rng`]: crate::rng::Rng
use core::fmt;
use core::str::FromStr;

use crate::pattern::PatternUndo;
use crate::rng::Rng;
use crate::{Position, Rules, Square};

pub mod baseline;
pub mod bench;
pub mod book;
mod geometry;
mod progress;
pub mod prover;
pub mod seeds;
pub mod solver;
pub mod squid;
mod stats;
pub mod strong;
pub mod tactics;
pub mod time;
mod tt;
mod value;

pub use progress::Progress;
#[cfg(target_has_atomic = "64")]
pub use prover::SharedTable;
pub use prover::{Census, Pairing, ProofTable, Prover, Settled, Subtree, Verdict};
pub use solver::Solver;
pub use stats::SearchStats;
pub use strong::{Budget, Engine, Iteration, TAKE_BACKS};
pub use tt::TtEntry;
pub use value::Value;

/// Every player selectable by name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// A uniformly random legal move.
    Random,
    /// CS102: win, block, centre, corner, side (last win/block found).
    Classic,
    /// Major Project "Human" mode: win, block, corner, first free.
    Standard,
    /// Major Project "God" mode: win, block, centre, corner, first free.
    God,
    /// "Tic-Tac-Toe in C" scoring bot.
    Squid,
    /// Exact solver.
    Perfect,
    /// Alpha-beta search with a threat-aware evaluation.
    Strong,
    /// Difficulty preset: a weak player making mistakes on purpose.
    Easy,
    /// Difficulty preset: win/block plus a shallow search.
    Medium,
    /// Difficulty preset: a depth-limited search.
    Hard,
    /// Difficulty preset: `perfect` where solvable, `strong` elsewhere.
    Impossible,
}

impl PlayerKind {
    /// All players, in menu order.
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

    /// The name used on the command line and in menus.
    pub const fn name(self) -> &'static str {
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

    /// One line for `--help` and menus.
    pub const fn description(self) -> &'static str {
        match self {
            PlayerKind::Random => "plays a random legal move",
            PlayerKind::Classic => "CS102 bot: win, block, centre, corner, side",
            PlayerKind::Standard => "Major Project 'Human' mode: win, block, corner, first free",
            PlayerKind::God => "Major Project 'God' mode: win, block, centre, corner, first free",
            PlayerKind::Squid => "'Tic-Tac-Toe in C' bot: scores rows, columns and diagonals",
            PlayerKind::Perfect => "exact solver: never loses, wins fastest (small boards)",
            PlayerKind::Strong => "alpha-beta search with threat detection (any board)",
            PlayerKind::Easy => "easy: simple rules with deliberate mistakes",
            PlayerKind::Medium => "medium: wins and blocks, shallow search",
            PlayerKind::Hard => "hard: deeper search, beatable only by a real plan",
            PlayerKind::Impossible => "impossible: perfect where solvable, strong elsewhere",
        }
    }

    /// Whether this player uses the transposition table lent to [`Player::new`]
    /// (the others work with an empty slice).
    pub const fn uses_tt(self) -> bool {
        matches!(self, PlayerKind::Perfect | PlayerKind::Impossible)
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A player name that is not one of [`PlayerKind::ALL`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UnknownPlayer;

impl fmt::Display for UnknownPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown player; choose one of: ")?;
        for (i, kind) in PlayerKind::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(kind.name())?;
        }
        Ok(())
    }
}

impl FromStr for PlayerKind {
    type Err = UnknownPlayer;

    /// The name, case-insensitive, surrounding spaces ignored.
    fn from_str(s: &str) -> Result<PlayerKind, UnknownPlayer> {
        let s = s.trim();
        PlayerKind::ALL
            .iter()
            .copied()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or(UnknownPlayer)
    }
}

/// The seed of a computer's move: game number `game` (1-based) of a sitting
/// started with `seed`, with `mark_count` marks on the board. `ttt play` and
/// the console both derive their per-move seeds here, so the same seed
/// replays the same game on either.
pub fn move_seed(seed: u64, game: u64, mark_count: usize) -> u64 {
    Rng::new(seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (mark_count as u64) << 48).next_u64()
}

/// Whether the exact solver can play this board in reasonable time (what
/// `impossible` uses to pick `perfect` or `strong`, together with the table
/// size: see [`is_solvable_with`]).
///
/// The rule: at most 64 cells (the solver's bitboard), and either at most 16
/// cells (any k: 4x4, 3x5, 2x8, ...), or at most 25 cells with k >= 4 (5x5
/// k=4 is solved in seconds; 5x5 k=5 faster), or k <= 2 (a quick first-player
/// win), or past 25 cells one of the kinds of board the [`Prover`] settles
/// from the empty board in well under a second (measured over every board
/// of 26 to 64 cells, 3 s limit each, with shared pairings: 7x6 k=5 in 5.4k
/// nodes, 8x5 k=5 in 642, 8x8 k=6 in 280): k = 3 (quick first-player wins),
/// k = 4 with no side over 6 (6x5, 6x6) or a side of at most 3, k = 5 on at
/// most 42 cells (6x6, 7x6, 8x5, ...) or with a side of at most 4, and
/// k >= 6. Everything else (5x5 k=3, 7x4 k=4, 7x5 k=4, 9x5 k=5, 7x7 k=5:
/// 45 s, 9x9, 15x15, ...) uses `strong`, and so do boards where only
/// exactly k wins and a longer line fits (the exact searches know only "k
/// or more").
pub fn is_solvable(rules: &Rules) -> bool {
    if rules.excludes_overlines() {
        return false;
    }
    let cells = rules.cell_count();
    let k = rules.k();
    let (long, short) = (
        rules.columns().max(rules.rows()),
        rules.columns().min(rules.rows()),
    );
    let old_reach = cells <= 16 || (cells <= 25 && k >= 4) || k <= 2;
    let prover_reach = cells > 25
        && (k == 3
            || (k == 4 && (long <= 6 || short <= 3))
            || (k == 5 && (cells <= 42 || short <= 4))
            || k >= 6);
    cells <= 64 && (old_reach || prover_reach)
}

/// [`is_solvable`], and the lent table is big enough: boards of more than 16
/// cells need at least 2^20 entries (16 MiB); with less, `impossible` plays
/// `strong` there. (5x5 k=4 from the empty board: about 5 s to solve and 8 s
/// for `perfect`'s first move on a 2-core desktop with 2^22 entries.)
pub fn is_solvable_with(rules: &Rules, tt_entries: usize) -> bool {
    is_solvable(rules) && (rules.cell_count() <= 16 || rules.k() <= 2 || tt_entries >= 1 << 20)
}

/// A computer player of any [`PlayerKind`].
pub struct Player<'a> {
    kind: PlayerKind,
    rng: Rng,
    tt: &'a mut [TtEntry],
    /// Lent to `strong`'s engine ([`Engine::set_take_backs`]).
    take_backs: Option<&'a mut [PatternUndo]>,
    budget: Budget<'a>,
    /// When the exact solver gives up (default: the budget's deadline).
    solver_deadline: Option<&'a dyn Fn() -> bool>,
    stats: SearchStats,
    book: Option<&'a book::Book>,
}

impl<'a> Player<'a> {
    /// A player of `kind` whose choices are fixed by `seed`; `tt` is lent to
    /// the exact solver (`perfect`, `impossible`) and may be empty otherwise
    /// (an empty table still works, only slower).
    pub fn new(kind: PlayerKind, seed: u64, tt: &'a mut [TtEntry]) -> Player<'a> {
        Player {
            kind,
            rng: Rng::new(seed),
            tt,
            take_backs: None,
            budget: Budget::default(),
            solver_deadline: None,
            stats: SearchStats::default(),
            book: None,
        }
    }

    /// Gives the exact solver (`perfect`, and `impossible` where it solves)
    /// an [opening book](book): positions it holds are answered without a
    /// search, with the same move the search would choose for the same seed.
    /// A book for other rules is simply never used.
    pub fn set_book(&mut self, book: &'a book::Book) {
        self.book = Some(book);
    }

    /// Lends `strong`'s engine (and the players built on it) the pattern
    /// board's take-back records, kept from move to move
    /// ([`Engine::set_take_backs`]): the same moves, without making the
    /// records each move.
    pub fn set_take_backs(&mut self, records: &'a mut [PatternUndo]) {
        self.take_backs = Some(records);
    }

    /// Which player this is.
    pub fn kind(&self) -> PlayerKind {
        self.kind
    }

    /// Limits `strong` (and the presets built on it). Its
    /// [deadline](Budget::deadline_check) also stops the exact solver
    /// (`perfect`, `impossible` where it solves), unless
    /// [`set_solver_deadline`](Player::set_solver_deadline) gave it
    /// another; its node and depth limits do not (a solve is exact or
    /// nothing).
    pub fn set_budget(&mut self, budget: Budget<'a>) {
        self.budget = budget;
    }

    /// Stops the exact solver once `f` returns `true` (asked every 1,024
    /// nodes or so): a position it has not solved by then gets `strong`'s
    /// move within the [budget](Player::set_budget), the best this player
    /// has. A deadline before the budget's leaves `strong` the time between
    /// the two.
    pub fn set_solver_deadline(&mut self, f: &'a dyn Fn() -> bool) {
        self.solver_deadline = Some(f);
    }

    /// Counters from the last [`choose_move`](Player::choose_move).
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The move to play; `None` iff the game is over.
    pub fn choose_move(&mut self, pos: &Position) -> Option<Square> {
        if pos.outcome().is_over() {
            return None;
        }
        self.stats = SearchStats::default();
        let mv = match self.kind {
            PlayerKind::Random => seeds::random(pos, &mut self.rng),
            PlayerKind::Classic => seeds::classic(pos),
            PlayerKind::Standard => seeds::standard(pos),
            PlayerKind::God => seeds::god(pos),
            PlayerKind::Squid => squid::squid(pos),
            PlayerKind::Perfect => {
                if is_solvable(pos.rules()) {
                    self.perfect(pos)
                } else {
                    self.strong(pos, 0, None)
                }
            }
            PlayerKind::Strong => self.strong(pos, 0, None),
            PlayerKind::Easy => {
                if let Some(win) = seeds::first_completing(pos, pos.side_to_move()) {
                    Some(win)
                } else if self.rng.chance(2, 5) {
                    seeds::random(pos, &mut self.rng)
                } else {
                    seeds::standard(pos)
                }
            }
            PlayerKind::Medium => {
                let me = pos.side_to_move();
                if let Some(sq) = seeds::first_completing(pos, me)
                    .or_else(|| seeds::first_completing(pos, me.other()))
                {
                    Some(sq)
                } else if self.rng.chance(1, 4) {
                    seeds::god(pos)
                } else {
                    self.strong(pos, 2, Some(2_000))
                }
            }
            PlayerKind::Hard => self.strong(pos, 4, Some(20_000)),
            PlayerKind::Impossible => {
                if is_solvable_with(pos.rules(), self.tt.len()) {
                    self.perfect(pos)
                } else {
                    self.strong(pos, 0, None)
                }
            }
        };
        // The simple players know nothing of renju's forbidden moves: a
        // forbidden pick falls back to the first legal move.
        debug_assert!(pos.rules().is_renju() || mv.is_some_and(|m| pos.is_legal(m)));
        mv.filter(|&m| pos.is_legal(m))
            .or_else(|| pos.legal_moves().first())
    }

    fn perfect(&mut self, pos: &Position) -> Option<Square> {
        let seed = self.rng.next_u64();
        let mut solver = Solver::new(&mut *self.tt);
        if let Some(b) = self.book {
            solver.set_book(b);
        }
        if let Some(f) = self.solver_deadline.or(self.budget.deadline_check) {
            solver.set_deadline(f);
        }
        let best = solver.best_move(pos, seed).map(|(sq, _)| sq);
        let stats = solver.stats();
        if !solver.stopped() {
            self.stats = stats;
            return best;
        }
        // Out of time: the search's move within what is left of the budget
        // (past its deadline, the first iteration's).
        let mv = self.strong(pos, 0, None);
        self.stats.nodes += stats.nodes;
        self.stats.tt_hits += stats.tt_hits;
        mv
    }

    fn strong(&mut self, pos: &Position, max_depth: u32, max_nodes: Option<u64>) -> Option<Square> {
        let mut budget = self.budget;
        if max_depth > 0 {
            budget.max_depth = if budget.max_depth == 0 {
                max_depth
            } else {
                budget.max_depth.min(max_depth)
            };
        }
        if let Some(n) = max_nodes {
            budget.max_nodes = budget.max_nodes.min(n);
        }
        let seed = self.rng.next_u64();
        let mut engine = Engine::with_table(budget, seed, &mut *self.tt);
        if let Some(records) = self.take_backs.as_deref_mut() {
            engine.set_take_backs(records);
        }
        let mv = engine.best_move(pos);
        self.stats = engine.stats();
        mv
    }
}
