//! What `strong` says of its search as it thinks: one line per completed
//! iteration (depth, value, nodes, speed, time, the line it expects), as
//! strong Gomocup engines report in MESSAGE lines and `ttt move --verbose`
//! prints on stderr.
//!
//! ```text
//! depth 11-24 | eval +143 (55.7%) | nodes 812K | speed 903K/s | time 899 ms | pv h8 i9 g7 j10
//! ```
//!
//! Depth is the last completed iteration's, then the deepest ply a node
//! was visited at. The value is for the side to move: a win or loss the
//! search has proved is written `+M9` (the side to move completes five
//! with its move 9 plies from now, this move being the first) or `-M8`;
//! else the evaluation, and in brackets the win rate it stands for where
//! the evaluation was fitted to win rates (the pattern board's). A
//! [`Reporter`] keeps it to a line every [`Reporter::GAP`] at most (the
//! first iterations take microseconds: no flood), and the last iteration
//! is always said. Only completed iterations are said: the move played can
//! be a later iteration's that the clock cut short after it had found a
//! better move than the last line's first.
use std::time::Duration;

use ttt_core::ai::strong::Iteration;
use ttt_core::{Rules, SquareFormat};

/// `n` as a short count: 812, 12.3K, 4.56M.
fn short_count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{:.1}K", n as f64 / 1e3),
        _ => format!("{:.2}M", n as f64 / 1e6),
    }
}

/// The value of an iteration as a manager shows it: `+M9`, `-M8`, or the
/// evaluation with its win rate where it has one.
pub fn value_text(it: &Iteration) -> String {
    match it.mate() {
        Some(plies) if plies > 0 => format!("+M{plies}"),
        Some(plies) => format!("-M{}", -plies),
        None => match it.logit {
            Some(logit) => {
                let rate = 1.0 / (1.0 + (-f64::from(it.value) / f64::from(logit)).exp());
                format!("{:+} ({:.1}%)", it.value, 100.0 * rate)
            }
            None => format!("{:+}", it.value),
        },
    }
}

/// One line for the iteration `it`, reached `elapsed` after the search
/// began, squares named as on `rules`' board (`h8`).
pub fn describe(it: &Iteration, elapsed: Duration, rules: &Rules) -> String {
    let secs = elapsed.as_secs_f64();
    let speed = if secs > 0.0 {
        (it.nodes as f64 / secs) as u64
    } else {
        0
    };
    let pv: Vec<String> = it
        .pv
        .moves()
        .iter()
        .map(|&sq| rules.display_square(sq, SquareFormat::Coord).to_string())
        .collect();
    format!(
        "depth {}-{} | eval {} | nodes {} | speed {}/s | time {} ms | pv {}",
        it.depth,
        it.seldepth.max(it.depth),
        value_text(it),
        short_count(it.nodes),
        short_count(speed),
        elapsed.as_millis(),
        pv.join(" ")
    )
}

/// Decides which iterations are said: one whose line comes at least
/// [`GAP`](Self::GAP) after the last line said (or after the start), and
/// the last one of the search ([`finish`](Self::finish)).
pub struct Reporter {
    rules: Rules,
    /// When the last line was said (from the search's start).
    said_at: Duration,
    /// The last iteration heard and not said yet.
    unsaid: Option<(Iteration, Duration)>,
}

impl Reporter {
    /// The least time between two lines.
    pub const GAP: Duration = Duration::from_millis(200);

    /// A reporter for a search of a position on `rules`' board.
    pub fn new(rules: Rules) -> Reporter {
        Reporter {
            rules,
            said_at: Duration::ZERO,
            unsaid: None,
        }
    }

    /// Hears the iteration `it`, completed `elapsed` after the search
    /// began: the line to say now, if it is time for one.
    pub fn iteration(&mut self, it: &Iteration, elapsed: Duration) -> Option<String> {
        if elapsed >= self.said_at + Self::GAP {
            self.said_at = elapsed;
            self.unsaid = None;
            Some(describe(it, elapsed, &self.rules))
        } else {
            self.unsaid = Some((*it, elapsed));
            None
        }
    }

    /// At the end of the search: the last iteration's line, if it was not
    /// said yet.
    pub fn finish(&mut self) -> Option<String> {
        self.unsaid
            .take()
            .map(|(it, elapsed)| describe(&it, elapsed, &self.rules))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ttt_core::ai::strong::{Budget, Engine};
    use ttt_core::Position;

    /// The iterations of a real search of a 15x15 position.
    fn iterations() -> (Rules, Vec<Iteration>) {
        let rules = Rules::new(15, 15, 5).unwrap();
        let mut pos = Position::new(rules);
        for m in ["h8", "i9", "g9", "g7", "j8"] {
            pos.play(rules.parse_square(m).unwrap()).unwrap();
        }
        let seen = std::cell::RefCell::new(Vec::new());
        let done = |it: &Iteration| {
            seen.borrow_mut().push(*it);
            false
        };
        let budget = Budget {
            iteration_done: Some(&done),
            ..Budget::nodes(50_000)
        };
        Engine::new(budget, 1).analyse(&pos).unwrap();
        let seen = seen.borrow().clone();
        (rules, seen)
    }

    /// A line says the depth, the value with its win rate, the nodes and
    /// the expected line, which starts with the iteration's best move and
    /// is a sequence of empty cells.
    #[test]
    fn a_line_says_what_the_search_sees() {
        let (rules, its) = iterations();
        assert!(its.len() >= 3, "{}", its.len());
        let last = its.last().unwrap();
        let line = describe(last, Duration::from_millis(500), &rules);
        assert!(
            line.starts_with(&format!("depth {}-", last.depth)),
            "{line}"
        );
        assert!(
            line.contains('%'),
            "the pattern board's value has a win rate: {line}"
        );
        let pv = line.split("| pv ").nth(1).unwrap();
        let moves: Vec<&str> = pv.split(' ').collect();
        assert!(!moves.is_empty() && moves.len() <= ttt_core::ai::strong::Line::MAX);
        let mut seen = std::collections::HashSet::new();
        for m in &moves {
            let sq = rules.parse_square(m).unwrap();
            assert!(seen.insert(sq), "{m} twice in {pv}");
            assert!(!["h8", "i9", "g9", "g7", "j8"].contains(m), "{m} is taken");
        }
        // The speed is nodes over the time.
        let expected = short_count(last.nodes * 2);
        assert!(line.contains(&format!("speed {expected}/s")), "{line}");
    }

    /// Won and lost values read as mates; window boards have no win rate.
    #[test]
    fn values_read_as_mates_or_scores() {
        let (_, its) = iterations();
        let mut it = its[0];
        it.value = (1 << 29) - 9;
        assert_eq!(value_text(&it), "+M9");
        it.value = -((1 << 29) - 8);
        assert_eq!(value_text(&it), "-M8");
        it.value = 0;
        it.logit = Some(2500);
        assert_eq!(value_text(&it), "+0 (50.0%)");
        it.logit = None;
        it.value = -120;
        assert_eq!(value_text(&it), "-120");
    }

    /// Iterations that come quickly are not all said: a line at most every
    /// GAP, and the last one at the end if it was held back.
    #[test]
    fn no_flood_and_the_last_is_said() {
        let (rules, its) = iterations();
        let mut r = Reporter::new(rules);
        let ms = Duration::from_millis;
        let mut said = 0;
        for (i, it) in its.iter().enumerate() {
            said += usize::from(r.iteration(it, ms(i as u64 * 10)).is_some());
        }
        let span = (its.len() as u64 - 1) * 10;
        assert!(said as u64 <= span / 200 + 1, "{said} lines in {span} ms");
        assert!(
            r.finish().is_some(),
            "the last iteration is said at the end"
        );
        assert!(r.finish().is_none(), "once");
        // One that comes after the gap is said at once.
        let mut r = Reporter::new(rules);
        assert!(r.iteration(&its[0], ms(250)).is_some());
        assert!(r.finish().is_none());
    }
}
