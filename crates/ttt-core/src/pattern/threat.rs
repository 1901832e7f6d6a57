//! Threat classes: what one more stone on an empty cell makes, over all
//! four lines through it.
use core::fmt;

use super::line::LinePattern;

/// What placing a stone of one side on an empty cell makes, judged from its
/// four line patterns; weakest first. The forcing ones (from
/// [`Four`](ThreatClass::Four) up) leave the opponent a single reply or
/// none; an [`OpenThree`](ThreatClass::OpenThree) and better must be
/// answered.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum ThreatClass {
    /// None of the below.
    None = 0,
    /// An open two (one more stone makes an open three).
    OpenTwo = 1,
    /// A blocked three (one more stone makes a four).
    BlockedThree = 2,
    /// Two open twos on different lines.
    DoubleTwo = 3,
    /// A blocked three and another blocked three or open two.
    BlockedThreePlus = 4,
    /// An open three: a four next move, open at both ends.
    OpenThree = 5,
    /// An open three and a blocked three or open two.
    OpenThreePlus = 6,
    /// Two open threes (a 3-3): wins unless the opponent has a four to
    /// play first.
    DoubleThree = 7,
    /// A four: the opponent must block its one five cell.
    Four = 8,
    /// A four and a blocked three or open two.
    FourPlus = 9,
    /// A four and an open three (a 4-3): the forced block leaves the open
    /// three, which becomes an open four.
    FourThree = 10,
    /// An open four, or two fours: two five cells, so the opponent cannot
    /// block both.
    OpenFour = 11,
    /// Five in a row: the game is won.
    Five = 12,
}

impl ThreatClass {
    /// All classes, weakest first (index = the value as `u8`).
    pub const ALL: [ThreatClass; 13] = [
        ThreatClass::None,
        ThreatClass::OpenTwo,
        ThreatClass::BlockedThree,
        ThreatClass::DoubleTwo,
        ThreatClass::BlockedThreePlus,
        ThreatClass::OpenThree,
        ThreatClass::OpenThreePlus,
        ThreatClass::DoubleThree,
        ThreatClass::Four,
        ThreatClass::FourPlus,
        ThreatClass::FourThree,
        ThreatClass::OpenFour,
        ThreatClass::Five,
    ];

    /// The class of a cell whose four line patterns are these.
    pub const fn of(patterns: [LinePattern; 4]) -> ThreatClass {
        let mut n = [0u8; 10];
        let mut i = 0;
        while i < 4 {
            n[patterns[i] as usize] += 1;
            i += 1;
        }
        let fives = n[LinePattern::Five as usize];
        let open_fours = n[LinePattern::OpenFour as usize];
        let fours = n[LinePattern::Four as usize];
        let open_threes = n[LinePattern::OpenThree as usize];
        let blocked_threes = n[LinePattern::BlockedThree as usize];
        let open_twos = n[LinePattern::OpenTwo as usize];
        if fives > 0 {
            ThreatClass::Five
        } else if open_fours > 0 || fours >= 2 {
            ThreatClass::OpenFour
        } else if fours == 1 && open_threes > 0 {
            ThreatClass::FourThree
        } else if fours == 1 && blocked_threes + open_twos > 0 {
            ThreatClass::FourPlus
        } else if fours == 1 {
            ThreatClass::Four
        } else if open_threes >= 2 {
            ThreatClass::DoubleThree
        } else if open_threes == 1 && blocked_threes + open_twos > 0 {
            ThreatClass::OpenThreePlus
        } else if open_threes == 1 {
            ThreatClass::OpenThree
        } else if blocked_threes > 0 && blocked_threes + open_twos >= 2 {
            ThreatClass::BlockedThreePlus
        } else if open_twos >= 2 {
            ThreatClass::DoubleTwo
        } else if blocked_threes > 0 {
            ThreatClass::BlockedThree
        } else if open_twos > 0 {
            ThreatClass::OpenTwo
        } else {
            ThreatClass::None
        }
    }

    /// Its name, as written by [`Display`](fmt::Display).
    pub const fn name(self) -> &'static str {
        match self {
            ThreatClass::None => "none",
            ThreatClass::OpenTwo => "open two",
            ThreatClass::BlockedThree => "blocked three",
            ThreatClass::DoubleTwo => "double two",
            ThreatClass::BlockedThreePlus => "blocked three plus",
            ThreatClass::OpenThree => "open three",
            ThreatClass::OpenThreePlus => "open three plus",
            ThreatClass::DoubleThree => "double three",
            ThreatClass::Four => "four",
            ThreatClass::FourPlus => "four plus",
            ThreatClass::FourThree => "four-three",
            ThreatClass::OpenFour => "open four",
            ThreatClass::Five => "five",
        }
    }

    /// Whether the opponent must answer it at once (an open three or
    /// better): left alone, it wins.
    pub const fn is_forcing(self) -> bool {
        self as u8 >= ThreatClass::OpenThree as u8
    }
}

impl fmt::Display for ThreatClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Patterns of the four lines coded `p0 + 10 p1 + 100 p2 + 1000 p3`.
pub(crate) const COMBINATIONS: usize = 10_000;
/// A direction's weight in a combination's code: direction d's pattern
/// times 10^d.
pub(super) const POW10: [u16; 4] = [1, 10, 100, 1000];

const fn classify_combinations() -> [u8; COMBINATIONS] {
    let mut table = [0u8; COMBINATIONS];
    let mut code = 0;
    while code < COMBINATIONS {
        let lines = [
            LinePattern::ALL[code % 10],
            LinePattern::ALL[code / 10 % 10],
            LinePattern::ALL[code / 100 % 10],
            LinePattern::ALL[code / 1000],
        ];
        table[code] = ThreatClass::of(lines) as u8;
        code += 1;
    }
    table
}

/// The class of every combination of four line patterns.
pub(super) static CLASS_OF: [u8; COMBINATIONS] = classify_combinations();

#[cfg(test)]
mod tests {
    use super::*;
    use LinePattern as L;

    #[test]
    fn combinations() {
        let of = |p: [LinePattern; 4]| ThreatClass::of(p);
        assert_eq!(
            of([L::Four, L::OpenThree, L::Dead, L::Dead]),
            ThreatClass::FourThree
        );
        assert_eq!(
            of([L::Four, L::Four, L::Dead, L::Dead]),
            ThreatClass::OpenFour
        );
        assert_eq!(
            of([L::OpenThree, L::Dead, L::OpenThree, L::OpenOne]),
            ThreatClass::DoubleThree
        );
        assert_eq!(
            of([L::Four, L::OpenTwo, L::Dead, L::Dead]),
            ThreatClass::FourPlus
        );
        assert_eq!(
            of([L::BlockedTwo, L::OpenOne, L::Dead, L::Dead]),
            ThreatClass::None
        );
        assert!(ThreatClass::OpenThree.is_forcing() && !ThreatClass::DoubleTwo.is_forcing());
        // The table is the function, in any order of the lines.
        let code = L::OpenThree as usize + 10 * L::Four as usize;
        assert_eq!(CLASS_OF[code], ThreatClass::FourThree as u8);
        assert_eq!(CLASS_OF[1000 * L::Five as usize], ThreatClass::Five as u8);
    }
}
