//! Renju: the moves black (X, who moves first) may not play.
//!
//! Under [`WinCondition::Renju`](crate::WinCondition::Renju) (k = 5, boards
//! of at least 15x15; Gomocup's `INFO rule 4`) white wins with five or more
//! in a row and black only with exactly five, and black may not play a
//! *forbidden* move:
//!
//! - an **overline**: six or more black stones in a row;
//! - a **double four**: two fours at once, a *four* being a line that one
//!   more black stone turns into exactly five. Two fours on one line count
//!   (`x.xxx.x` with the middle stone just played); an open four
//!   (`.xxxx.`, two ways to five) is one four;
//! - a **double three**: two open threes at once, an *open three* being a
//!   line that one more black stone turns into a straight four (`.xxxx.`
//!   where both ends make exactly five), with that stone itself not
//!   forbidden and not a five (black would have won there, on another
//!   line: no straight four stands). The last clause makes the test
//!   recursive: a "three" whose only four point is a forbidden move is no
//!   three. (The five clause is what Rapfi's `YXSHOWFORBID` does: it and
//!   this test named the same forbidden cells in all of 4050 random
//!   black-to-move positions, 2758 of them with forbidden cells; without
//!   the clause 18 of 1209 differed, each with a five open to black.)
//!
//! A move that makes exactly five is never forbidden, whatever else it
//! makes. Threes and fours are counted per line through the move: a line
//! holding a four is not also counted as a three.
//!
//! The test reads the board through [`Stones`], so it serves both
//! [`Position`](crate::Position) and the engine's own board; it never
//! allocates (the stones it imagines while recursing live on the stack).

use core::fmt;

use crate::{Direction, Mark, Rules, Square};

/// Why a move of black is forbidden.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// Six or more in a row.
    Overline,
    /// Two fours at once (on two lines, or two on one line).
    DoubleFour,
    /// Two open threes at once.
    DoubleThree,
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Forbidden::Overline => "an overline (six or more in a row)",
            Forbidden::DoubleFour => "a double four",
            Forbidden::DoubleThree => "a double three",
        })
    }
}

/// Read access to the stones of a board: the mark on a square of the board,
/// if any.
pub trait Stones {
    /// The mark on `square` (a square of the board), if any.
    fn stone(&self, square: Square) -> Option<Mark>;
}

impl<F: Fn(Square) -> Option<Mark>> Stones for F {
    #[inline]
    fn stone(&self, square: Square) -> Option<Mark> {
        self(square)
    }
}

/// A board with one more black stone, imagined by the recursion.
struct WithBlack<'a> {
    below: &'a dyn Stones,
    black: Square,
}

impl Stones for WithBlack<'_> {
    #[inline]
    fn stone(&self, square: Square) -> Option<Mark> {
        if square == self.black {
            Some(Mark::X)
        } else {
            self.below.stone(square)
        }
    }
}

/// Cells of a line around the move, as the test sees them.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
/// A white stone or a cell off the board: either way black cannot use it.
const BLOCKED: u8 = 2;

/// The move's cell in a [`Segment`]: five cells each way are enough to tell
/// a five from an overline and a straight four from a four.
const CENTRE: usize = 5;
type Segment = [u8; 2 * CENTRE + 1];

/// Why black may not play `square`, or `None` if black may (or the square
/// is taken, or off the board: those are not this test's business).
///
/// `rules` gives the board's shape; the test is the renju one (k = 5)
/// whatever its win condition says.
pub fn forbidden(rules: &Rules, stones: &dyn Stones, square: Square) -> Option<Forbidden> {
    match verdict(rules, stones, square) {
        Verdict::Forbidden(why) => Some(why),
        Verdict::Five | Verdict::Free => None,
    }
}

/// What a black stone on a square makes, as far as the rule cares.
enum Verdict {
    /// Exactly five: a win, never forbidden.
    Five,
    /// A forbidden move.
    Forbidden(Forbidden),
    /// Anything else (and taken or off-board squares).
    Free,
}

fn verdict(rules: &Rules, stones: &dyn Stones, square: Square) -> Verdict {
    if !rules.contains(square) || stones.stone(square).is_some() {
        return Verdict::Free;
    }
    let mut segments = [[EMPTY; 2 * CENTRE + 1]; 4];
    for (seg, &dir) in segments.iter_mut().zip(&Direction::ALL) {
        *seg = segment(rules, stones, square, dir);
    }
    // Quick exit for most cells: a five, an overline or a four-four on one
    // line needs 4 other black stones on a line, and two threes or fours
    // need 2 on each of two lines.
    let black_around = |seg: &Segment| seg.iter().filter(|&&c| c == BLACK).count() - 1;
    let busy = segments.iter().filter(|s| black_around(s) >= 2).count();
    if busy < 2 && segments.iter().all(|s| black_around(s) < 4) {
        return Verdict::Free;
    }
    let mut overline = false;
    for seg in &segments {
        match run_through_centre(seg) {
            5 => return Verdict::Five,
            n if n > 5 => overline = true,
            _ => {}
        }
    }
    if overline {
        return Verdict::Forbidden(Forbidden::Overline);
    }
    let mut fours = 0;
    let mut has_four = [false; 4];
    for (seg, has) in segments.iter().zip(&mut has_four) {
        let n = fours_on(seg);
        *has = n > 0;
        fours += n;
    }
    if fours >= 2 {
        return Verdict::Forbidden(Forbidden::DoubleFour);
    }
    // Lines that look like open threes, before the costly (recursive) test
    // of their four points: fewer than two and there is no double three.
    let mut points = [[None; 2 * CENTRE + 1]; 4];
    let mut candidates = 0;
    for (i, seg) in segments.iter().enumerate() {
        if has_four[i] {
            continue;
        }
        let mut any = false;
        for (j, p) in points[i].iter_mut().enumerate() {
            if seg[j] == EMPTY && makes_straight_four(seg, j) {
                *p = square.step(Direction::ALL[i], j as i8 - CENTRE as i8);
                any = true;
            }
        }
        candidates += any as u32;
    }
    if candidates < 2 {
        return Verdict::Free;
    }
    let placed = WithBlack {
        below: stones,
        black: square,
    };
    let mut threes = 0;
    for line_points in &points {
        let mut line = line_points.iter().flatten().peekable();
        if line.peek().is_none() {
            continue;
        }
        candidates -= 1;
        // A four point that is itself a five (on another line) does not
        // count: there black has won, no straight four stands.
        if line.any(|&p| matches!(verdict(rules, &placed, p), Verdict::Free)) {
            threes += 1;
            if threes >= 2 {
                return Verdict::Forbidden(Forbidden::DoubleThree);
            }
        }
        if threes + candidates < 2 {
            break;
        }
    }
    Verdict::Free
}

/// The cells from five before `square` to five after it along `dir`, with
/// a black stone on `square` itself.
fn segment(rules: &Rules, stones: &dyn Stones, square: Square, dir: Direction) -> Segment {
    let mut seg = [BLOCKED; 2 * CENTRE + 1];
    for (i, cell) in seg.iter_mut().enumerate() {
        let offset = i as i8 - CENTRE as i8;
        *cell = match square.step(dir, offset) {
            _ if offset == 0 => BLACK,
            Some(sq) if rules.contains(sq) => match stones.stone(sq) {
                None => EMPTY,
                Some(Mark::X) => BLACK,
                Some(Mark::O) => BLOCKED,
            },
            _ => BLOCKED,
        };
    }
    seg
}

/// Length of the black run through the centre (more than 5 means 6 or more).
fn run_through_centre(seg: &Segment) -> usize {
    let (start, end) = run_bounds(seg);
    end - start + 1
}

/// First and last index of the black run through the centre.
fn run_bounds(seg: &Segment) -> (usize, usize) {
    let mut start = CENTRE;
    while start > 0 && seg[start - 1] == BLACK {
        start -= 1;
    }
    let mut end = CENTRE;
    while end < seg.len() - 1 && seg[end + 1] == BLACK {
        end += 1;
    }
    (start, end)
}

/// Whether a black stone on the empty cell `j` makes exactly five through
/// the centre.
fn is_five_point(seg: &Segment, j: usize) -> bool {
    let mut with = *seg;
    with[j] = BLACK;
    run_through_centre(&with) == 5
}

/// Fours through the centre on this line: its five points, an open four's
/// two counting as one.
fn fours_on(seg: &Segment) -> u32 {
    let mut first = None;
    let mut count = 0;
    for j in 0..seg.len() {
        if seg[j] == EMPTY && is_five_point(seg, j) {
            if count == 1 {
                // `.xxxx.`: both points finish the same four stones.
                if let Some(f) = first {
                    if j == f + 5 && seg[f + 1..j].iter().all(|&c| c == BLACK) {
                        continue;
                    }
                }
            }
            first.get_or_insert(j);
            count += 1;
        }
    }
    count
}

/// Whether a black stone on the empty cell `j` makes a straight four
/// through the centre: exactly four in a row, both ends empty, and each end
/// making exactly five (no black stone just beyond it).
fn makes_straight_four(seg: &Segment, j: usize) -> bool {
    let mut with = *seg;
    with[j] = BLACK;
    let (start, end) = run_bounds(&with);
    if end - start + 1 != 4 || start < 2 || end + 2 >= with.len() {
        return false;
    }
    with[start - 1] == EMPTY
        && with[end + 1] == EMPTY
        && with[start - 2] != BLACK
        && with[end + 2] != BLACK
}
