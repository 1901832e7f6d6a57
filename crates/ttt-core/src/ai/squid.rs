//! `squid`: the `botTurn` scoring bot of "Tic-Tac-Toe in C" (seed 001),
//! simulated with the C code's own integer arithmetic.
//!
//! # What the C code does (N x N, k = N)
//!
//! For every empty cell (row `i`, column `j`, row-major) it starts with
//! `score = 2` (row and column), +1 if on the main diagonal (`i == j`), +1 if
//! on the anti-diagonal (`N-1-i == j`). Then for `c` in `0..N` it packs the
//! c-th cell of the row (byte 3), of the column (byte 2), of the main
//! diagonal (byte 1, only if the cell is on it, else 0) and of the
//! anti-diagonal read from the bottom-left (byte 0, likewise) into one int
//! `cv`, the cells being the ASCII codes `'X'` 88, `'O'` 79, `' '` 32. For
//! each byte `l` in 0..4 it then:
//!
//! 1. if the byte is an opponent mark (not 32, not the bot's, not 0), adds
//!    byte `l` of `mult` (which starts at `0x01010101`) to the score and adds
//!    `2 << 8l` to `mult`: the n-th opponent mark on a line weighs 2n-1;
//! 2. if the byte is the bot's mark, adds `1 << 8l` to `selfScore`;
//! 3. if `selfScore >> 8l == N - 1` (the shifted **whole** int, so for
//!    `l < 3` the higher bytes count too), adds 5. This runs for every `c`
//!    and every `l`, so the bonus can fire many times.
//!
//! A cell replaces the best so far if `score > (highscore & 0xFF)`, and
//! `highscore` keeps only `score & 0xFF`: scores of 256 and more wrap. Ties
//! keep the first cell.
//!
//! # Generalisation (k < size, rectangular boards)
//!
//! The four lines through a cell become the four *segments* through it: the
//! cells within k-1 steps along each direction (horizontal from the left,
//! vertical from the top, diagonal from the top-left, anti-diagonal from the
//! bottom-left), clipped to the board. A segment counts only if it holds at
//! least k cells (it can hold a win): it adds 1 to the base score and its
//! cells feed its byte; otherwise its byte is 0, as for an off-diagonal cell
//! in C. `c` runs up to the longest segment (bytes past a shorter segment's
//! end are 0), and the +5 test compares with `k - 1`. On an N x N board with
//! k = N every segment is the full row, column or main diagonal, and this is
//! exactly the C code.
use crate::{Direction, Mark, Position, Square};

const SPACE: i32 = 32;

fn code(mark: Option<Mark>) -> i32 {
    match mark {
        Some(Mark::X) => 88,
        Some(Mark::O) => 79,
        None => SPACE,
    }
}

/// A segment through a cell: its first square and length (0: not counted).
#[derive(Copy, Clone)]
struct Segment {
    start: Square,
    dir: Direction,
    len: u8,
}

fn segment(pos: &Position, sq: Square, dir: Direction) -> Segment {
    let rules = pos.rules();
    let k = rules.k() as i8;
    let on = |s: Option<Square>| s.filter(|&s| rules.contains(s));
    // The direction's "start" end: horizontal/vertical/diagonal go back with
    // -1; the anti-diagonal (bottom-left to top-right) also steps -1 back.
    let mut back = 0;
    while back < k - 1 && on(sq.step(dir, -(back + 1))).is_some() {
        back += 1;
    }
    let mut fwd = 0;
    while fwd < k - 1 && on(sq.step(dir, fwd + 1)).is_some() {
        fwd += 1;
    }
    let len = (back + fwd + 1) as u8;
    Segment {
        start: sq.step(dir, -back).unwrap_or(sq),
        dir,
        len: if len >= rules.k() { len } else { 0 },
    }
}

/// The score `botTurn` gives the empty cell `sq` for the side to move.
pub fn score(pos: &Position, sq: Square) -> i32 {
    let player = code(Some(pos.side_to_move()));
    let target = pos.rules().k() as i32 - 1;
    // Byte 3: horizontal, 2: vertical, 1: diagonal, 0: anti-diagonal.
    let segs = [
        segment(pos, sq, Direction::AntiDiagonal),
        segment(pos, sq, Direction::Diagonal),
        segment(pos, sq, Direction::Vertical),
        segment(pos, sq, Direction::Horizontal),
    ];
    let mut score: i32 = segs.iter().filter(|s| s.len > 0).count() as i32;
    let mut mult: i32 = 1 + (1 << 8) + (1 << 16) + (1 << 24);
    let mut self_score: i32 = 0;
    let max_len = segs.iter().map(|s| s.len).max().unwrap_or(0);
    for c in 0..max_len {
        let mut cv: i32 = 0;
        for (l, seg) in segs.iter().enumerate() {
            if c < seg.len {
                let cell = seg.start.step(seg.dir, c as i8).map(|s| pos.get(s));
                let v = code(cell.flatten());
                cv = cv.wrapping_add(v << (l * 8));
            }
        }
        for l in 0..4 {
            let b = (cv >> (l * 8)) & 0xFF;
            if b != 0x20 && b != player && b != 0 {
                score = score.wrapping_add((mult >> (l * 8)) & 0xFF);
                mult = mult.wrapping_add(2 << (l * 8));
            }
            if b == player {
                self_score = self_score.wrapping_add(1 << (l * 8));
            }
            if self_score >> (l * 8) == target {
                score = score.wrapping_add(5);
            }
        }
    }
    score
}

/// The move `botTurn` makes (`None` when the game is over).
pub fn squid(pos: &Position) -> Option<Square> {
    if pos.outcome().is_over() {
        return None;
    }
    let mut highscore: i32 = 0;
    for sq in pos.rules().squares() {
        if pos.get(sq).is_some() {
            continue;
        }
        let score = score(pos, sq);
        if score > (highscore & 0xFF) {
            let (i, j) = (sq.row() as i32, sq.column() as i32);
            highscore = (score & 0xFF) | (i << 16 & 0xFF0000) | (j << 8 & 0xFF00);
        }
    }
    let row = (highscore >> 16 & 0xFF) as u8;
    let col = (highscore >> 8 & 0xFF) as u8;
    Square::new(col, row).filter(|&sq| pos.is_legal(sq))
}
