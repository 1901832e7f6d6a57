//! Openings of a match: random balanced ones (a few stones near the centre,
//! seeded, kept only when the built-in engine finds neither side better
//! off), or a fixed list read from a file.
//!
//! An opening of n stones (n drawn from the range, 2-4 by default; another
//! count of the range when no opening of n stones is balanced in 2,000
//! tries) puts X, O, X, ... on random empty cells of the 7x7 square around
//! the centre. It
//! is balanced when the strong engine, searching it for
//! [`BALANCE_NODES`] nodes (a node count, not a time, so the same seed gives
//! the same openings on any machine), scores it within
//! ±[`BALANCE_LIMIT`] for the side to move. On the engine's scale one
//! window of five with three stones of a side and none of the other is worth
//! 512 and an open three a little over 1000, so the limit leaves out every
//! opening where a side already has a three or a clear initiative, and
//! keeps openings where the stones are still loosely placed.
use std::fmt;
use std::str::FromStr;

use ttt_core::ai::{Budget, Engine};
use ttt_core::rng::Rng;
use ttt_core::{Position, Rules, Square};

/// Nodes of the balance search.
pub const BALANCE_NODES: u64 = 4_000;

/// The largest score (either sign) an opening may have.
pub const BALANCE_LIMIT: i32 = 300;

/// Distance from the centre (in rows and in columns) of the opening's cells.
pub const OPENING_RADIUS: u8 = 3;

/// Random openings tried before giving up.
const MAX_TRIES: u32 = 2_000;

/// How many stones an opening has: `3`, `2-4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoneRange {
    /// Fewest stones.
    pub min: u8,
    /// Most stones.
    pub max: u8,
}

impl fmt::Display for StoneRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{}-{}", self.min, self.max)
        }
    }
}

impl FromStr for StoneRange {
    type Err = String;

    fn from_str(text: &str) -> Result<StoneRange, String> {
        let bad = || format!("{text:?} is not a number of stones (like 3) or a range (like 2-4)");
        let (a, b) = text.split_once('-').unwrap_or((text, text));
        let min: u8 = a.trim().parse().map_err(|_| bad())?;
        let max: u8 = b.trim().parse().map_err(|_| bad())?;
        if min > max {
            return Err(format!("{text:?}: the range is empty ({min} > {max})"));
        }
        if min == 0 || max > 10 {
            return Err(format!("{text:?}: an opening has 1 to 10 stones"));
        }
        Ok(StoneRange { min, max })
    }
}

/// The cells an opening may use on `rules`' board.
fn opening_cells(rules: &Rules) -> Vec<Square> {
    let (cc, cr) = (
        (rules.columns() as i32 - 1) / 2,
        (rules.rows() as i32 - 1) / 2,
    );
    let r = OPENING_RADIUS as i32;
    rules
        .squares()
        .filter(|sq| (sq.column() as i32 - cc).abs() <= r && (sq.row() as i32 - cr).abs() <= r)
        .collect()
}

/// The engine's score of `pos` for the side to move (`None` if over).
pub fn balance_score(pos: &Position) -> Option<i32> {
    let mut engine = Engine::new(Budget::nodes(BALANCE_NODES), 0);
    engine.analyse(pos).map(|(_, score)| score)
}

/// A balanced opening for `rules` with a stone count in `stones`, drawn
/// with `rng`: its moves, X first.
pub fn balanced_opening(
    rules: &Rules,
    stones: StoneRange,
    rng: &mut Rng,
) -> Result<Vec<Square>, String> {
    let cells = opening_cells(rules);
    if cells.len() <= stones.max as usize {
        return Err(format!(
            "{rules} is too small for openings of {stones} stones"
        ));
    }
    // The count is drawn once: redrawn with every try, the counts that are
    // balanced less often (an even count leaves X, the first player, to
    // move) would come up less often than the range says. Only when no
    // opening of that count is balanced in MAX_TRIES tries (two stones
    // with X to move seldom are: the engine scores 3 in 2,000 as even)
    // are the range's other counts tried, nearest first.
    let drawn = stones.min + rng.below(u32::from(stones.max - stones.min) + 1) as u8;
    let mut counts: Vec<u8> = (stones.min..=stones.max).collect();
    counts.sort_by_key(|&c| (c.abs_diff(drawn), c));
    for n in counts {
        for _ in 0..MAX_TRIES {
            let mut pos = Position::new(*rules);
            let mut moves = Vec::with_capacity(n as usize);
            while moves.len() < n as usize {
                let sq = cells[rng.below(cells.len() as u32) as usize];
                if pos.is_legal(sq) {
                    // Cannot fail: the square is legal and the game not over.
                    if pos.play(sq).is_err() {
                        break;
                    }
                    moves.push(sq);
                }
                if pos.outcome().is_over() {
                    break;
                }
            }
            if moves.len() != n as usize || pos.outcome().is_over() {
                continue;
            }
            if balance_score(&pos).is_some_and(|s| s.abs() <= BALANCE_LIMIT) {
                return Ok(moves);
            }
        }
    }
    Err(format!(
        "no balanced opening of {stones} stones found on {rules} in {MAX_TRIES} tries a count: \
         try other --openings or another --seed"
    ))
}

/// The openings of an openings file (`--openings-file`): one a line, its
/// moves X first as square names separated by spaces ("h8 i9 g7"); blank
/// lines and everything after a `#` are ignored. Errors name the line.
pub fn parse_openings(text: &str, rules: &Rules) -> Result<Vec<Vec<Square>>, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let moves_text = line.split('#').next().unwrap_or("").trim();
        if moves_text.is_empty() {
            continue;
        }
        let mut pos = Position::new(*rules);
        let mut moves = Vec::new();
        for word in moves_text.split_whitespace() {
            let sq = rules
                .parse_square(word)
                .map_err(|e| format!("line {line_no}: {word:?} is not a square of {rules}: {e}"))?;
            if pos.outcome().is_over() {
                return Err(format!("line {line_no}: the game is over before {word}"));
            }
            pos.play(sq)
                .map_err(|e| format!("line {line_no}: {word} cannot be played: {e}"))?;
            moves.push(sq);
        }
        if pos.outcome().is_over() {
            return Err(format!(
                "line {line_no}: the game is over after the opening"
            ));
        }
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err("no openings in it (one a line, like \"h8 i9 g7\")".to_string());
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_files_are_read_line_by_line_and_checked() {
        let rules = Rules::new(15, 15, 5).unwrap();
        let text = "# balanced\nh8 i9 g7\n\n  g9 g5  # two stones\n";
        let openings = parse_openings(text, &rules).unwrap();
        let names: Vec<Vec<String>> = openings
            .iter()
            .map(|o| {
                o.iter()
                    .map(|&sq| {
                        rules
                            .display_square(sq, ttt_core::SquareFormat::Coord)
                            .to_string()
                    })
                    .collect()
            })
            .collect();
        assert_eq!(names, [vec!["h8", "i9", "g7"], vec!["g9", "g5"]]);
        for (bad, says) in [
            ("h8 z9\n", "line 1: \"z9\" is not a square"),
            ("h8\nh8 h8\n", "line 2: h8 cannot be played"),
            (
                "a1 b1 a2 b2 a3 b3 a4 b4 a5\n",
                "line 1: the game is over after the opening",
            ),
            (
                "a1 b1 a2 b2 a3 b3 a4 b4 a5 c1\n",
                "line 1: the game is over before c1",
            ),
            ("# nothing\n\n", "no openings"),
        ] {
            let e = parse_openings(bad, &rules).unwrap_err();
            assert!(e.starts_with(says), "{bad:?}: {e}");
        }
    }

    #[test]
    fn stone_ranges() {
        assert_eq!("2-4".parse(), Ok(StoneRange { min: 2, max: 4 }));
        assert_eq!("3".parse(), Ok(StoneRange { min: 3, max: 3 }));
        assert!("4-2".parse::<StoneRange>().is_err());
        assert!("0".parse::<StoneRange>().is_err());
        assert!("x".parse::<StoneRange>().is_err());
        assert_eq!(StoneRange { min: 2, max: 4 }.to_string(), "2-4");
    }

    #[test]
    fn openings_are_seeded_central_balanced_and_varied() {
        let rules = Rules::new(15, 15, 5).unwrap();
        let range = StoneRange { min: 2, max: 4 };
        let draw = |seed| {
            let mut rng = Rng::new(seed);
            (0..8)
                .map(|_| balanced_opening(&rules, range, &mut rng).unwrap())
                .collect::<Vec<_>>()
        };
        let openings = draw(7);
        assert_eq!(openings, draw(7), "same seed, same openings");
        assert_ne!(openings, draw(8));
        let mut counts = [0; 5];
        for moves in &openings {
            counts[moves.len()] += 1;
            let mut pos = Position::new(rules);
            for &sq in moves {
                assert!(sq.column().abs_diff(7) <= 3 && sq.row().abs_diff(7) <= 3);
                pos.play(sq).unwrap();
            }
            let score = balance_score(&pos).unwrap();
            assert!(score.abs() <= BALANCE_LIMIT, "{moves:?}: {score}");
        }
        assert!(
            counts[2..].iter().filter(|&&c| c > 0).count() >= 2,
            "{counts:?}"
        );
    }

    #[test]
    fn a_lopsided_opening_is_not_balanced() {
        // X has an open three in the middle, O two stones far from it.
        let rules = Rules::new(15, 15, 5).unwrap();
        let mut pos = Position::new(rules);
        let sq = |c, r| Square::new(c, r).unwrap();
        for s in [sq(6, 7), sq(0, 0), sq(7, 7), sq(14, 14), sq(8, 7)] {
            pos.play(s).unwrap();
        }
        assert!(balance_score(&pos).unwrap().abs() > BALANCE_LIMIT);
    }
}
