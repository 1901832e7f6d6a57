// The classification of line neighbourhoods into patterns, shared by the
// build script (`build.rs` includes this file and writes the tables the
// crate embeds) and the crate's tests (which check the embedded tables
// against it). Plain Rust without the crate: `include!`d, it must stand
// alone, so its comments are not doc comments.
//
// A neighbourhood is the 10 cells around an empty cell along one line, five
// on each side, each a base-3 digit: 0 empty, 1 the side's own stone, 2
// blocked (the other side's stone, or off the board). Digit `i` is the cell
// at offset `i - 5` for `i < 5` and `i - 4` beyond (offsets -5..-1, then
// 1..5). The pattern numbers are `LinePattern`'s.

/// Neighbourhoods: 3 states for each of the 10 cells.
pub const NEIGHBOURHOODS: usize = 59_049;
/// Powers of 3: the weight of each digit.
pub const POW3: [usize; 11] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19_683, 59_049];
const EMPTY: usize = 0;
const OWN: usize = 1;

/// The pattern numbers, as `LinePattern` numbers them.
pub const DEAD: u8 = 0;
pub const BLOCKED_ONE: u8 = 1;
pub const OPEN_ONE: u8 = 2;
pub const BLOCKED_TWO: u8 = 3;
pub const OPEN_TWO: u8 = 4;
pub const BLOCKED_THREE: u8 = 5;
pub const OPEN_THREE: u8 = 6;
pub const FOUR: u8 = 7;
pub const OPEN_FOUR: u8 = 8;
pub const FIVE: u8 = 9;

// Every neighbourhood's pattern for one five rule. A neighbourhood's
// pattern follows from the patterns of the neighbourhoods with one more own
// stone on one of its empty cells within four of the centre (a five
// through the centre cannot reach further): two cells that make five are
// an open four, one a four; a cell that makes an open four makes an open
// three, one that makes a four a blocked three; and so on down. One more
// own stone raises the index, so filling the table from the top needs no
// recursion.
#[allow(dead_code)]
pub fn classify_all(exactly_five: bool) -> [u8; NEIGHBOURHOODS] {
    let mut table = [0u8; NEIGHBOURHOODS];
    // The digits of `index`, counted down alongside it.
    let mut digits = [2usize; 10];
    let mut index = NEIGHBOURHOODS;
    while index > 0 {
        index -= 1;
        if index != NEIGHBOURHOODS - 1 {
            let mut i = 0;
            while digits[i] == 0 {
                digits[i] = 2;
                i += 1;
            }
            digits[i] -= 1;
        }
        // The run of own stones through the centre (the stone placed).
        let mut run = 1;
        let mut i = 5;
        while i > 0 && digits[i - 1] == OWN {
            run += 1;
            i -= 1;
        }
        let mut i = 5;
        while i < 10 && digits[i] == OWN {
            run += 1;
            i += 1;
        }
        table[index] = if run == 5 || (run > 5 && !exactly_five) {
            FIVE
        } else if run > 5 {
            DEAD
        } else {
            // How many empty cells within reach lead to each pattern.
            let mut leads = [0u8; 10];
            let mut i = 1;
            while i < 9 {
                if digits[i] == EMPTY {
                    let next = table[index + POW3[i] * OWN];
                    leads[next as usize] += 1;
                }
                i += 1;
            }
            if leads[FIVE as usize] >= 2 {
                OPEN_FOUR
            } else if leads[FIVE as usize] == 1 {
                FOUR
            } else if leads[OPEN_FOUR as usize] > 0 {
                OPEN_THREE
            } else if leads[FOUR as usize] > 0 {
                BLOCKED_THREE
            } else if leads[OPEN_THREE as usize] > 0 {
                OPEN_TWO
            } else if leads[BLOCKED_THREE as usize] > 0 {
                BLOCKED_TWO
            } else if leads[OPEN_TWO as usize] > 0 {
                OPEN_ONE
            } else if leads[BLOCKED_TWO as usize] > 0 {
                BLOCKED_ONE
            } else {
                DEAD
            }
        };
    }
    table
}
