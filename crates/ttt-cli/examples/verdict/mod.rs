//! What a Gomocup engine's MESSAGE lines say of a position, and its move
//! there: the examples that ask engines for verdicts (`decisive_moments`,
//! `false_wins`, `blunders`) share this reading.
use crate::peer;

/// A verdict from the side to move's view: a forced win in so many plies
/// (positive: the side to move wins), or a plain value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    Mate(i32),
    Value(i32),
}

impl std::fmt::Display for Verdict {
    /// `+M21`, `-M8` or a signed value, as the engines print them.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match *self {
            Verdict::Mate(n) if n > 0 => write!(f, "+M{n}"),
            Verdict::Mate(n) => write!(f, "-M{}", -n),
            Verdict::Value(n) => write!(f, "{n:+}"),
        }
    }
}

/// The last verdict a MESSAGE line of the engine says (`Eval 176`, `eval
/// +M21`, `Eval -M8`; any case), if any.
pub fn verdict_in(line: &str) -> Option<Verdict> {
    let lower = line.to_ascii_lowercase();
    let at = lower.rfind("eval ")?;
    let word = lower[at + 5..].split_whitespace().next()?;
    let negative = word.starts_with('-');
    let body = word.trim_start_matches(['+', '-']);
    let (mate, digits) = match body.strip_prefix('m') {
        Some(d) => (true, d),
        None => (false, body),
    };
    let n: i32 = digits.parse().ok()?;
    let n = if negative { -n } else { n };
    Some(if mate {
        Verdict::Mate(n)
    } else {
        Verdict::Value(n)
    })
}

/// An engine's move (a square name such as `h8`) and its last verdict on
/// the position after `moves`, given `ms`. An engine that cannot be run
/// ends the program with a message naming `tool`.
pub fn ask(tool: &str, cmd: &str, moves: &[String], ms: u64) -> (Option<String>, Option<Verdict>) {
    let (mut mv, mut last) = (None, None);
    let asked = peer::think(cmd, moves, ms, |line| {
        if line.starts_with("MESSAGE") {
            if let Some(v) = verdict_in(line) {
                last = Some(v);
            }
        } else if let Some((x, y)) = line.trim().split_once(',') {
            if let (Ok(x), Ok(y)) = (x.parse::<u8>(), y.parse::<u32>()) {
                if x < 15 {
                    mv = Some(format!("{}{}", char::from(b'a' + x), y + 1));
                }
            }
        }
    });
    if let Err(e) = asked {
        eprintln!("{tool}: {e}");
        std::process::exit(1);
    }
    (mv, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_in_both_engines_forms() {
        assert_eq!(
            verdict_in("MESSAGE Depth 18-27 | Eval +M23 | Speed 909K"),
            Some(Verdict::Mate(23))
        );
        assert_eq!(
            verdict_in("MESSAGE depth 15-28 | eval -M12 | nodes 1K"),
            Some(Verdict::Mate(-12))
        );
        assert_eq!(
            verdict_in("MESSAGE depth 3 | eval +456 (54.5%)"),
            Some(Verdict::Value(456))
        );
        assert_eq!(verdict_in("MESSAGE Eval VAL_NONE"), None);
        assert_eq!(verdict_in("MESSAGE Bestline M6 M9 N10"), None);
        assert_eq!(verdict_in("MESSAGE nothing here"), None);
    }
}
