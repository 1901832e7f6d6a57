//! A game in progress: the players' moves with the cursor, undo, hints,
//! the computer's turn; START pauses, an unplugged controller stops it.

use ttt_core::{Outcome, Square};

use crate::canvas::Canvas;
use crate::host::{log, sound, Host, RumbleCause};
use crate::input::{Buttons, Input, PortInput};
use crate::play::{coord, Match};
use crate::screens::board_view;
use crate::screens::{Next, Screen};
use crate::search::move_seed;
use crate::services::Services;
use crate::settings::Mode;
use crate::sound::Cue;

/// One frame of the game.
pub(crate) fn update(
    sv: &mut Services<'_>,
    play: &mut Match,
    input: &Input,
    host: &mut impl Host,
) -> Next {
    if let Some(port) = unplugged_port(play, input) {
        log(host, format_args!("controller {} unplugged", port + 1));
        return Next::Unplugged { port };
    }
    // Start pauses, from any player's controller (any controller in cvc).
    let start = match play.mode {
        Mode::ComputerVsComputer => input.merged().pressed.intersects(Buttons::START),
        _ => play.human_ports().any(|port| {
            input
                .ports
                .get(port as usize)
                .is_some_and(|p| p.pressed.intersects(Buttons::START))
        }),
    };
    if start {
        sound(host, Cue::Pause);
        return Next::To(Screen::Pause);
    }
    if play.pos.outcome().is_over() {
        return Next::To(Screen::Result);
    }
    if play.hint_pending {
        play.hint_pending = false;
        host.hush();
        compute_hint(sv, play, host);
        return Next::Stay;
    }
    let ended = match play.port(play.pos.side_to_move()) {
        None => play.computer_turn(&mut sv.search, &sv.clock, host),
        Some(port) => {
            let p = input.ports.get(port as usize).copied().unwrap_or_default();
            human_turn(sv, play, &p, input, host)
        }
    };
    match ended {
        Some(outcome) => {
            sv.record_result(play, outcome, host);
            Next::To(Screen::Result)
        }
        None => Next::Stay,
    }
}

/// The board as the game shows it.
pub(crate) fn draw<C: Canvas>(sv: &Services<'_>, play: &Match, t: &mut C) {
    board_view::draw(sv, play, false, t);
}

/// The first port a player needs that has no controller.
fn unplugged_port(play: &Match, input: &Input) -> Option<u8> {
    if play.attract {
        return None;
    }
    play.needed_ports()
        .into_iter()
        .flatten()
        .find(|&port| !input.ports.get(port as usize).is_some_and(|p| p.connected))
}

/// A person's turn: the D-pad moves the cursor, A places, B undoes, Z asks
/// for a hint (searched next frame, after "Looking for a hint..." shows).
/// The outcome if the move ended the game.
fn human_turn(
    sv: &Services<'_>,
    play: &mut Match,
    p: &PortInput,
    input: &Input,
    host: &mut impl Host,
) -> Option<Outcome> {
    let rules = *play.rules();
    let (cols, rows) = (rules.columns(), rules.rows());
    let mut c = play.cursor.column().min(cols - 1);
    let mut r = play.cursor.row().min(rows - 1);
    if p.repeated.intersects(Buttons::DLEFT) {
        c = if c == 0 { cols - 1 } else { c - 1 };
    }
    if p.repeated.intersects(Buttons::DRIGHT) {
        c = if c + 1 >= cols { 0 } else { c + 1 };
    }
    if p.repeated.intersects(Buttons::DUP) {
        r = if r == 0 { rows - 1 } else { r - 1 };
    }
    if p.repeated.intersects(Buttons::DDOWN) {
        r = if r + 1 >= rows { 0 } else { r + 1 };
    }
    if let Some(sq) = Square::new(c, r) {
        if sq != play.cursor {
            sound(host, Cue::Cursor);
        }
        play.cursor = sq;
    }
    if p.pressed.intersects(Buttons::A) {
        let sq = play.cursor;
        if play.pos.is_legal(sq) {
            return play.play_move(sq, host);
        }
        log(host, format_args!("illegal {}", coord(&rules, sq)));
        sound(host, Cue::Illegal);
        if let Some(port) = play.port(play.pos.side_to_move()) {
            sv.rumble(port, RumbleCause::Illegal, host);
        }
        return None;
    }
    // Undo: the player to move, or in the two-controller mode either player.
    let undo_pressed = p.pressed.intersects(Buttons::B)
        || (play.mode == Mode::TwoPads
            && play.human_ports().any(|port| {
                input
                    .ports
                    .get(port as usize)
                    .is_some_and(|q| q.pressed.intersects(Buttons::B))
            }));
    if undo_pressed {
        undo(play, host);
        return None;
    }
    if p.pressed.intersects(Buttons::Z) {
        play.hint_pending = true;
    }
    None
}

/// Takes back the last move (one player: back to that player's last turn).
fn undo(play: &mut Match, host: &mut impl Host) {
    let n = play.lineup.take_back(&mut play.pos);
    if n > 0 {
        play.hint = None;
        play.said = None;
        play.think = 0;
        // `undo`, then how many moves went: `undone 2`.
        log(host, format_args!("undo"));
        log(host, format_args!("undone {n}"));
        sound(host, Cue::Undo);
    }
}

/// Searches the best move for the side to move and puts the cursor on it.
fn compute_hint(sv: &mut Services<'_>, play: &mut Match, host: &mut impl Host) {
    let pos = &play.pos;
    if pos.outcome().is_over() {
        return;
    }
    let seed = move_seed(play.seed, pos.mark_count());
    let (sq, us) = sv.search.hint(pos, seed, host);
    if let Some(sq) = sq.filter(|&s| pos.is_legal(s)) {
        let rules = *pos.rules();
        play.hint = Some(sq);
        play.cursor = sq;
        log(host, format_args!("hint {}", coord(&rules, sq)));
        log(host, format_args!("hint-time {us}"));
        sound(host, Cue::Hint);
    }
}
