//! The computer's searches (its moves and the hints), with the console's
//! limits: what the game asks the console to search ([`SearchJob`]), how a
//! search is run ([`SearchJob::run`]), and what comes back
//! ([`SearchReply`]).
//!
//! The game never searches itself: it hands a job to the [`Host`]
//! ([`Host::search_start`]) and asks for the reply each frame
//! ([`Host::search_poll`]), so the picture stays alive while the computer
//! thinks. The ROM runs the job between two frames and runs the frames
//! that come due from inside it (the engine's stop rule); a host may also
//! run it at once.

use ttt_core::ai::{Budget, Player, PlayerKind, SearchStats, Solver, TtEntry};
use ttt_core::pattern::PatternUndo;
use ttt_core::{Position, Rules, Square};

use crate::books;
use crate::host::Host;
use crate::settings;

/// The seed of the computer's move: the desktop's formula (`ttt play`), with
/// the game's seed and game number 1, so `ttt --seed <n>` replays the game.
pub fn move_seed(game_seed: u64, mark_count: usize) -> u64 {
    ttt_core::ai::move_seed(game_seed, 1, mark_count)
}

/// The computer player the console uses for `kind` (already passed through
/// [`settings::effective_kind`]) on `rules`: searches are limited to
/// [`settings::console_nodes`] and by `stop`, asked at every node (the
/// console runs its frames from there, and tells the search to stop when
/// its time is up or the game gave it up), and the exact solver gets the
/// console's [opening book](books) for the board, if there is one (the
/// moves are the same as without it, only faster).
pub fn new_player<'a>(
    kind: PlayerKind,
    seed: u64,
    tt: &'a mut [TtEntry],
    rules: &Rules,
    stop: Option<&'a dyn Fn() -> bool>,
) -> Player<'a> {
    let mut player = Player::new(kind, seed, tt);
    player.set_budget(Budget {
        deadline_check: stop,
        deadline_every: 1,
        ..Budget::nodes(settings::console_nodes(rules))
    });
    if let Some(book) = books::for_rules(rules) {
        player.set_book(book);
    }
    player
}

/// The hint (Z) for the side to move in `pos`: the exact solver where it is
/// quick on the console ([`settings::console_solvable`]), else the strongest
/// player that is (see [`settings::effective_kind`]), with the take-back
/// records `take_backs` ([`Player::set_take_backs`]); `stop` is asked as in
/// [`new_player`] (the solver asks it every 1,024 nodes, a few milliseconds
/// on the console), and a solve it stops gives no move.
pub fn hint_move<'a>(
    pos: &Position,
    seed: u64,
    tt: &'a mut [TtEntry],
    take_backs: &'a mut [PatternUndo],
    stop: Option<&'a dyn Fn() -> bool>,
) -> (Option<Square>, SearchStats) {
    if settings::console_solvable(pos.rules()) {
        let mut solver = Solver::new(tt);
        if let Some(book) = books::for_rules(pos.rules()) {
            solver.set_book(book);
        }
        if let Some(stop) = stop {
            solver.set_deadline(stop);
        }
        let sq = solver.best_move(pos, seed).map(|(sq, _)| sq);
        (sq, solver.stats())
    } else {
        let kind = settings::effective_kind(PlayerKind::Strong, pos.rules());
        let mut player = new_player(kind, seed, tt, pos.rules(), stop);
        player.set_take_backs(take_backs);
        let sq = player.choose_move(pos);
        (sq, player.stats())
    }
}

/// What a search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The computer's move, by this player.
    Move(PlayerKind),
    /// A hint for the person to move (Z).
    Hint,
}

/// A search the game asks the console to run.
#[derive(Clone)]
pub struct SearchJob {
    /// Tells this job's reply from an earlier one's.
    pub id: u32,
    /// The position to search (the side to move is the one searched for).
    pub pos: Position,
    /// The computer's move or a hint.
    pub purpose: Purpose,
    /// The search's seed ([`move_seed`]).
    pub seed: u64,
    /// How long the search may take on the console's clock, in
    /// milliseconds, counted from its start (`None`: its node budget
    /// alone limits it, [`settings::console_nodes`]).
    pub time_ms: Option<u32>,
}

/// What a search found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchReply {
    /// The [`SearchJob::id`] it answers.
    pub id: u32,
    /// The move found (`None`: none, the game is over).
    pub square: Option<Square>,
    /// Positions visited.
    pub nodes: u64,
    /// Depth of the last completed iteration (0 for an exact solve or a
    /// player that does not search).
    pub depth: u32,
    /// Microseconds it took, start to end, on the host's clock (while the
    /// ROM's main loop ran beside it: the time a player waits).
    pub us: u64,
}

impl SearchJob {
    /// Runs the search on `tt` (the transposition table, any length; only
    /// one search uses it at a time) and `take_backs` (the pattern board's
    /// take-back records, [`ttt_core::ai::TAKE_BACKS`] of them; any number
    /// plays the same moves), both the host's and kept from search to
    /// search, so that no search makes tens of KB before its first node;
    /// stopping when `stop` returns `true` (asked every 1,024 nodes or so:
    /// the host's clock against [`SearchJob::time_ms`], or a search the
    /// game no longer wants). The reply's `us` is left 0 for the host to
    /// fill in.
    pub fn run(
        &self,
        tt: &mut [TtEntry],
        take_backs: &mut [PatternUndo],
        stop: &dyn Fn() -> bool,
    ) -> SearchReply {
        let (square, stats) = match self.purpose {
            Purpose::Move(kind) => {
                let mut player = new_player(kind, self.seed, tt, self.pos.rules(), Some(stop));
                player.set_take_backs(take_backs);
                let sq = player.choose_move(&self.pos);
                (sq, player.stats())
            }
            Purpose::Hint => hint_move(&self.pos, self.seed, tt, take_backs, Some(stop)),
        };
        SearchReply {
            id: self.id,
            square,
            nodes: stats.nodes,
            depth: stats.depth,
            us: 0,
        }
    }
}

/// The game's side of the searches: the job it waits for, and the ids.
#[derive(Clone, Copy, Default)]
pub(crate) struct Searches {
    next_id: u32,
}

impl Searches {
    /// Hands a job for `pos` to the host; its id.
    pub(crate) fn start(
        &mut self,
        pos: &Position,
        purpose: Purpose,
        seed: u64,
        think_ms: u32,
        host: &mut impl Host,
    ) -> u32 {
        self.next_id = self.next_id.wrapping_add(1);
        let time_ms = settings::is_timed(pos.rules()).then_some(think_ms);
        host.search_start(SearchJob {
            id: self.next_id,
            pos: pos.clone(),
            purpose,
            seed,
            time_ms,
        });
        self.next_id
    }
}
