//! The computer's searches (its moves and the hints), with the console's
//! limits, and the time they take.

use ttt_core::ai::{Budget, Player, PlayerKind, Solver, TtEntry};
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
/// [`settings::console_nodes`], and the exact solver gets the console's
/// [opening book](books) for the board, if there is one (the moves are the
/// same as without it, only faster).
pub fn new_player<'a>(
    kind: PlayerKind,
    seed: u64,
    tt: &'a mut [TtEntry],
    rules: &Rules,
) -> Player<'a> {
    let mut player = Player::new(kind, seed, tt);
    player.set_budget(Budget::nodes(settings::console_nodes(rules)));
    if let Some(book) = books::for_rules(rules) {
        player.set_book(book);
    }
    player
}

/// The hint (Z) for the side to move in `pos`: the exact solver where it is
/// quick on the console ([`settings::console_solvable`]), else the strongest
/// player that is (see [`settings::effective_kind`]).
pub fn hint_move(pos: &Position, seed: u64, tt: &mut [TtEntry]) -> Option<Square> {
    if settings::console_solvable(pos.rules()) {
        let mut solver = Solver::new(tt);
        if let Some(book) = books::for_rules(pos.rules()) {
            solver.set_book(book);
        }
        solver.best_move(pos, seed).map(|(sq, _)| sq)
    } else {
        let kind = settings::effective_kind(PlayerKind::Strong, pos.rules());
        new_player(kind, seed, tt, pos.rules()).choose_move(pos)
    }
}

/// The transposition table the searches share, and the time spent in them.
pub(crate) struct Search<'a> {
    tt: &'a mut [TtEntry],
    spent_us: u64,
}

impl<'a> Search<'a> {
    /// Searches on `tt`.
    pub(crate) fn new(tt: &'a mut [TtEntry]) -> Search<'a> {
        Search { tt, spent_us: 0 }
    }

    /// Microseconds spent searching since power on, by [`Host::now_us`].
    pub(crate) fn spent_us(&self) -> u64 {
        self.spent_us
    }

    /// The move `kind` plays in `pos`, and the microseconds it took.
    pub(crate) fn choose(
        &mut self,
        kind: PlayerKind,
        pos: &Position,
        seed: u64,
        host: &impl Host,
    ) -> (Option<Square>, u64) {
        let t0 = host.now_us();
        let chosen = new_player(kind, seed, &mut *self.tt, pos.rules()).choose_move(pos);
        (chosen, self.spent_since(t0, host))
    }

    /// [`hint_move`] for the side to move, and the microseconds it took.
    pub(crate) fn hint(
        &mut self,
        pos: &Position,
        seed: u64,
        host: &impl Host,
    ) -> (Option<Square>, u64) {
        let t0 = host.now_us();
        let sq = hint_move(pos, seed, &mut *self.tt);
        (sq, self.spent_since(t0, host))
    }

    fn spent_since(&mut self, t0: u64, host: &impl Host) -> u64 {
        let us = host.now_us().saturating_sub(t0);
        self.spent_us = self.spent_us.saturating_add(us);
        us
    }
}
