//! The result screen: the finished game's board with the result, held a
//! moment before A (play again) or B (menu) is accepted.

use crate::canvas::Canvas;
use crate::host::{log, sound, Host};
use crate::input::{Buttons, Input};
use crate::play::Match;
use crate::screens::board_view;
use crate::screens::{Next, Screen};
use crate::services::Services;
use crate::sound::Cue;

/// One frame: A or START plays again, B goes to the menu.
pub(crate) fn update(
    sv: &mut Services,
    play: &mut Match,
    input: &Input,
    host: &mut impl Host,
) -> Next {
    play.over_frames = play.over_frames.saturating_add(sv.clock.step());
    if play.over_frames < sv.clock.timings().result_hold {
        return Next::Stay;
    }
    let p = input.merged();
    if p.pressed.intersects(Buttons::A | Buttons::START) {
        sound(host, Cue::Confirm);
        log(host, format_args!("play again"));
        *play = sv.new_match(host);
        Next::To(Screen::Game)
    } else if p.pressed.intersects(Buttons::B) {
        sound(host, Cue::Undo);
        Next::To(Screen::Menu)
    } else {
        Next::Stay
    }
}

/// The board, the result in the status bar, "Play again?" in the panel.
pub(crate) fn draw<C: Canvas>(sv: &Services, play: &Match, t: &mut C) {
    board_view::draw(sv, play, true, t);
}
