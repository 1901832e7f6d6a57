//! Line patterns: what one more stone on an empty cell makes along one line.
//!
//! A cell's pattern in a direction depends only on the five cells on each
//! side of it, each empty, the side's own stone, or blocked (the other
//! side's stone, or off the board): 3^10 neighbourhoods. All of them are
//! classified once, by the build script (`classify.rs`), into a table per
//! five rule (five or more wins; exactly five wins), so the board reads a
//! pattern with one lookup. Five cells a side, not four: under the exactly-five rule a stone
//! next to a five-cell run would make six, which is no five.
use core::fmt;

/// What placing a stone of one side on an empty cell makes along one line,
/// weakest first. "Open" shapes can still become a five in two ways (an
/// open four has two cells that make five), "blocked" ones in one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum LinePattern {
    /// No five can be made through this cell along the line (too little
    /// room), or under the exactly-five rule the stone makes six or more.
    Dead = 0,
    /// A lone stone with room for only one kind of five.
    BlockedOne = 1,
    /// A lone stone with room to grow into an open two.
    OpenOne = 2,
    /// Two stones that can become a blocked three but no open one.
    BlockedTwo = 3,
    /// Two stones that can become an open three.
    OpenTwo = 4,
    /// Three stones that can become a four, but no open four.
    BlockedThree = 5,
    /// Three stones that one more stone turns into an open four: the
    /// opponent must answer.
    OpenThree = 6,
    /// Four stones with exactly one cell that makes five: the opponent must
    /// block it.
    Four = 7,
    /// Four stones with two cells that make five (an open four, or two
    /// fours on one line such as `x.xxx.x`): a win next move.
    OpenFour = 8,
    /// Five in a row (five or more where overlines win).
    Five = 9,
}

impl LinePattern {
    /// All patterns, weakest first (index = the value as `u8`).
    pub const ALL: [LinePattern; 10] = [
        LinePattern::Dead,
        LinePattern::BlockedOne,
        LinePattern::OpenOne,
        LinePattern::BlockedTwo,
        LinePattern::OpenTwo,
        LinePattern::BlockedThree,
        LinePattern::OpenThree,
        LinePattern::Four,
        LinePattern::OpenFour,
        LinePattern::Five,
    ];

    /// The pattern with this number (`None` past 9).
    pub const fn from_index(i: u8) -> Option<LinePattern> {
        if (i as usize) < LinePattern::ALL.len() {
            Some(LinePattern::ALL[i as usize])
        } else {
            None
        }
    }

    /// Its name, as written by [`Display`](fmt::Display).
    pub const fn name(self) -> &'static str {
        match self {
            LinePattern::Dead => "dead",
            LinePattern::BlockedOne => "blocked one",
            LinePattern::OpenOne => "open one",
            LinePattern::BlockedTwo => "blocked two",
            LinePattern::OpenTwo => "open two",
            LinePattern::BlockedThree => "blocked three",
            LinePattern::OpenThree => "open three",
            LinePattern::Four => "four",
            LinePattern::OpenFour => "open four",
            LinePattern::Five => "five",
        }
    }
}

impl fmt::Display for LinePattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Cells on each side of the centre that a pattern depends on.
pub(super) const REACH: usize = 5;
pub(super) use super::classify::NEIGHBOURHOODS;
const POW3: [usize; 11] = super::classify::POW3;

// The tables are made by the build script (`build.rs`, from `classify.rs`):
// made at compile time instead, they cost 5 s of every build of the crate.

/// Patterns where five or more in a row wins.
static FIVE_OR_MORE: &[u8; NEIGHBOURHOODS] =
    include_bytes!(concat!(env!("OUT_DIR"), "/five_or_more.bin"));
/// Patterns where exactly five wins.
static EXACTLY_FIVE: &[u8; NEIGHBOURHOODS] =
    include_bytes!(concat!(env!("OUT_DIR"), "/exactly_five.bin"));

/// The table for a five rule.
pub(super) fn table(exactly_five: bool) -> &'static [u8; NEIGHBOURHOODS] {
    if exactly_five {
        EXACTLY_FIVE
    } else {
        FIVE_OR_MORE
    }
}

/// Cell codes in a line word: 2 bits a cell.
pub(super) const CODE_EMPTY: u64 = 0;
/// Off the board (a wall).
pub(super) const CODE_WALL: u64 = 3;

/// For the 5 cells on one side of a neighbourhood as 2-bit codes (empty 0,
/// X 1, O 2, wall 3; bits 2i-2i+1 hold digit i of that half), their digits'
/// worth for X (low 16 bits) and for O (high 16 bits), times `scale` (1
/// for the low half, 3^5 for the high one): adding the two halves' entries
/// gives both sides' neighbourhood indices at once (each stays below
/// 2^16, so nothing carries).
const fn half_digits(scale: usize) -> [u32; 1024] {
    let mut out = [0u32; 1024];
    let mut code = 0;
    while code < 1024 {
        let mut value = [0usize; 2];
        let mut i = 0;
        while i < 5 {
            let cell = (code >> (2 * i)) & 3;
            let mut side = 0;
            while side < 2 {
                let d = if cell == 0 {
                    0
                } else if cell == side + 1 {
                    1
                } else {
                    2
                };
                value[side] += d * POW3[i] * scale;
                side += 1;
            }
            i += 1;
        }
        out[code] = (value[0] | value[1] << 16) as u32;
        code += 1;
    }
    out
}

static LOW_HALF: [u32; 1024] = half_digits(1);
static HIGH_HALF: [u32; 1024] = half_digits(POW3[REACH]);

/// The neighbourhood indices for X and for O of a cell whose 11-cell
/// window (2 bits a cell, the cell itself in bits 10-11) is `window`.
#[inline]
pub(super) fn neighbourhoods(window: u64) -> (usize, usize) {
    let low = (window & 0x3FF) as usize;
    let high = ((window >> 12) & 0x3FF) as usize;
    let both = LOW_HALF[low] + HIGH_HALF[high];
    ((both & 0xFFFF) as usize, (both >> 16) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where six in a row also wins, the cells five away do not change a
    /// pattern (a five through the centre spans offsets -4..4, and a longer
    /// run wins all the same): the pattern board reads only four a side.
    #[test]
    fn five_or_more_patterns_ignore_the_cells_five_away() {
        let free = table(false);
        for index in 0..NEIGHBOURHOODS {
            let outer = index % 3 + index / POW3[9] * POW3[9];
            assert_eq!(free[index], free[index - outer], "{index}");
        }
        // Under exactly five they do: x.xxx with an own stone beyond.
        let exact = table(true);
        assert!((0..NEIGHBOURHOODS).any(|i| {
            let outer = i % 3 + i / POW3[9] * POW3[9];
            exact[i] != exact[i - outer]
        }));
    }

    /// A line written as a string around the centre `*` (the stone being
    /// placed): `x` own, `o` blocked, `.` empty, `|` the board's edge; five
    /// cells a side are read, missing ones are empty.
    fn pattern(line: &str, exactly_five: bool) -> LinePattern {
        let centre = line.find('*').unwrap();
        let bytes = line.as_bytes();
        let mut index = 0;
        for (i, weight) in POW3.iter().enumerate().take(10) {
            let offset = if i < 5 {
                i as isize - 5
            } else {
                i as isize - 4
            };
            let at = centre as isize + offset;
            let c = if at < 0 || at >= bytes.len() as isize {
                b'.'
            } else {
                bytes[at as usize]
            };
            let d = match c {
                b'.' => 0,
                b'x' => 1,
                _ => 2,
            };
            index += d * weight;
        }
        LinePattern::from_index(table(exactly_five)[index]).unwrap()
    }

    #[test]
    fn shapes_people_know() {
        use LinePattern::*;
        for (line, want) in [
            ("..xx*xx..", Five),
            ("o.xx*xx.o", Five),
            ("..xx*x...", OpenFour),
            ("..x*xx...", OpenFour),
            ("x.x*x.x", OpenFour),
            ("xx.*x.xx", OpenFour),
            ("oxx*x..", Four),
            ("ox*xx.o", Four),
            ("..x.*xx..", Four),
            ("...x*x...", OpenThree),
            ("..x.*x...", OpenThree),
            ("o.x*x...", OpenThree),
            ("o.x*x.o", BlockedThree),
            ("ox*x...", BlockedThree),
            ("..x*....", OpenTwo),
            ("..x.*....", OpenTwo),
            ("o.*x..o", BlockedTwo),
            ("o.x*..o", BlockedTwo),
            ("o*....o", BlockedOne),
            ("...*...", OpenOne),
            ("o.*x.o", Dead),
            ("o*...o", Dead),
            ("|xxxx*..", Five),
        ] {
            assert_eq!(pattern(line, false), want, "{line}");
        }
    }

    /// The tables the build script wrote are the classification's.
    #[test]
    fn tables_are_the_classification() {
        assert_eq!(*FIVE_OR_MORE, super::super::classify::classify_all(false));
        assert_eq!(*EXACTLY_FIVE, super::super::classify::classify_all(true));
        // Its pattern numbers are the enum's.
        use super::super::classify as c;
        let numbers = [
            c::DEAD,
            c::BLOCKED_ONE,
            c::OPEN_ONE,
            c::BLOCKED_TWO,
            c::OPEN_TWO,
            c::BLOCKED_THREE,
            c::OPEN_THREE,
            c::FOUR,
            c::OPEN_FOUR,
            c::FIVE,
        ];
        for (p, n) in LinePattern::ALL.into_iter().zip(numbers) {
            assert_eq!(p as u8, n, "{p}");
        }
    }

    #[test]
    fn exactly_five_does_not_count_six() {
        use LinePattern::*;
        assert_eq!(pattern("xx*xxx", false), Five);
        assert_eq!(pattern("xx*xxx", true), Dead);
        assert_eq!(pattern("o.xx*xx.o", true), Five);
        // x.xxxx with the gap filled is six: no four there under the rule.
        assert_eq!(pattern("ox.*xxx.o", true), Four);
        assert_eq!(pattern("ox.*xxx.o", false), OpenFour);
    }

    #[test]
    fn half_digits_agree_with_a_direct_reading() {
        // X at offset -1 (high bits of the low half), O at +1 (low bits of
        // the high half), a wall at +5.
        let window = (1u64 << 8) | (2 << 12) | (3 << 20);
        assert_eq!(
            neighbourhoods(window),
            (
                POW3[4] + 2 * POW3[5] + 2 * POW3[9],
                2 * POW3[4] + POW3[5] + 2 * POW3[9]
            )
        );
        // Walls all round: the largest index for both, no carry.
        let walls = (1u64 << 22) - 1 - (3 << 10);
        assert_eq!(
            neighbourhoods(walls),
            (NEIGHBOURHOODS - 1, NEIGHBOURHOODS - 1)
        );
    }
}
