//! What the manager's INFO lines set: the time and memory limits and the
//! rule (exactly five, renju), and the time a move may take under them.
use std::time::Duration;

use ttt_core::{Rules, WinCondition};

use ttt_core::ai::time::move_times;

/// Turn time when the manager gives none (ms).
pub const DEFAULT_TURN_MS: u64 = 5_000;

/// The time and memory limits the manager sent with INFO.
#[derive(Copy, Clone, Debug, Default)]
pub struct Info {
    /// `timeout_turn`, ms (0: play fast).
    pub timeout_turn: Option<u64>,
    /// `timeout_match`, ms (0: no limit).
    pub timeout_match: Option<u64>,
    /// `time_left`, ms.
    pub time_left: Option<u64>,
    /// `max_memory`, bytes (0: no limit).
    pub max_memory: u64,
    /// `rule` bits: 1 exactly five, 2 continuous game (nothing to do), 4
    /// renju (on boards of 15x15 and up), 8 caro (not supported: answered
    /// with a MESSAGE).
    pub rule: u32,
}

/// `INFO rule` bit: only exactly five wins.
pub(crate) const RULE_EXACTLY_FIVE: u32 = 1;
/// `INFO rule` bit: renju (forbidden moves for black, who wins with
/// exactly five; white wins with five or more).
pub(crate) const RULE_RENJU: u32 = 4;
/// `INFO rule` bit of a rule set this brain does not play: caro (a five
/// blocked at both ends does not win).
pub(crate) const RULE_CARO: u32 = 8;

impl Info {
    /// The win condition the `rule` bits ask for: renju with bit 4 (it
    /// includes black's exactly five), else exactly five with bit 1.
    pub fn win_condition(&self) -> WinCondition {
        if self.rule & RULE_RENJU != 0 {
            WinCondition::Renju
        } else {
            self.win_condition_without_renju()
        }
    }

    /// What the rule bits ask for apart from renju: for boards renju is not
    /// played on.
    pub(crate) fn win_condition_without_renju(&self) -> WinCondition {
        if self.rule & RULE_EXACTLY_FIVE != 0 {
            WinCondition::ExactlyK
        } else {
            WinCondition::AtLeastK
        }
    }

    /// `rules` under the win condition asked for, and, when renju was asked
    /// for on a board it is not played on, a MESSAGE saying what is played.
    pub(crate) fn apply_to(&self, rules: Rules) -> (Rules, Option<String>) {
        let win = self.win_condition();
        if win == WinCondition::Renju {
            if let Err(e) = rules.with_renju() {
                let fallback = self.win_condition_without_renju();
                return (
                    rules.with_win_condition(fallback),
                    Some(format!(
                        "MESSAGE INFO rule {}: {e}; playing without its restrictions ({})",
                        self.rule,
                        win_text(fallback)
                    )),
                );
            }
        }
        (rules.with_win_condition(win), None)
    }
}

/// How a win condition is said in MESSAGEs.
pub(crate) fn win_text(win: WinCondition) -> &'static str {
    match win {
        WinCondition::ExactlyK => "exactly five wins",
        WinCondition::AtLeastK => "five or more win",
        WinCondition::Renju => "renju",
    }
}

impl Info {
    /// How long the brain may think for one move, and how long it aims
    /// for: the turn time, or under a game clock (`timeout_match` and
    /// `time_left`) a share of what is left ([`move_times`]).
    pub fn move_times(&self) -> (Duration, Option<Duration>) {
        let turn = Duration::from_millis(self.timeout_turn.unwrap_or(DEFAULT_TURN_MS));
        let left = self
            .time_left
            .filter(|_| self.timeout_match != Some(0))
            .map(Duration::from_millis);
        let (most, aim) = move_times(Some(turn), left);
        (with_margin(most.unwrap_or(turn)), aim.map(with_margin))
    }
}

/// Less the safety margin for process scheduling and the answer's trip: a
/// search stops within a few ms of its deadline (its longest overrun in 1 s
/// moves was 50 ms at load 7), so 5% + 30 ms is enough.
fn with_margin(d: Duration) -> Duration {
    let ms = d.as_millis() as u64;
    Duration::from_millis(ms.saturating_sub(ms / 20).saturating_sub(30).max(5))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_times_honour_turn_and_match_limits() {
        let ms = |info: Info| {
            let (most, aim) = info.move_times();
            (most.as_millis(), aim.map(|a| a.as_millis()))
        };
        assert_eq!(ms(Info::default()), (4_720, None));
        let turn = Info {
            timeout_turn: Some(1000),
            ..Info::default()
        };
        assert_eq!(ms(turn), (920, None));
        // 3 s left: at most 428 ms (a seventh), aiming for 200 ms (a
        // 15th), each less the margin.
        let short = Info {
            timeout_turn: Some(30_000),
            timeout_match: Some(60_000),
            time_left: Some(3_000),
            ..Info::default()
        };
        assert_eq!(ms(short), (377, Some(160)));
        // timeout_match 0: no game clock, whatever time_left says.
        let unlimited = Info {
            timeout_match: Some(0),
            ..short
        };
        assert_eq!(ms(unlimited), (28_470, None));
        let fast = Info {
            timeout_turn: Some(0),
            ..Info::default()
        };
        assert_eq!(ms(fast), (5, None));
    }
}
