//! `strong` and threat sequences on 15x15 k=5: it wins by continuous fours
//! (VCF) that are too long for its main search, it stops the opponent's,
//! and it claims no win where there is no VCF. The positions come from
//! games between `strong` and itself; the answers are checked here by an
//! independent brute-force VCF search over the public `Position` API.
use ttt_core::ai::{Player, PlayerKind, TtEntry};
use ttt_core::{Direction, Mark, Position, Square};

/// The empty cells where `mark` completes a line.
fn winning_cells(pos: &Position, mark: Mark) -> Vec<Square> {
    near_stones(pos)
        .into_iter()
        .filter(|&sq| pos.completes_line(sq, mark))
        .collect()
}

/// The empty cells where `mark` completes a line through `sq` (the new
/// winning cells after a move on `sq`).
fn winning_cells_through(pos: &Position, mark: Mark, sq: Square) -> Vec<Square> {
    let mut out = Vec::new();
    for dir in Direction::ALL {
        for steps in (-4..=4).filter(|&s| s != 0) {
            if let Some(cell) = sq.step(dir, steps) {
                if pos.is_legal(cell) && pos.completes_line(cell, mark) && !out.contains(&cell) {
                    out.push(cell);
                }
            }
        }
    }
    out
}

/// The empty cells within two steps of a stone (where fours are made).
fn near_stones(pos: &Position) -> Vec<Square> {
    let stones: Vec<Square> = pos
        .marks(Mark::X)
        .into_iter()
        .chain(pos.marks(Mark::O))
        .collect();
    pos.legal_moves()
        .into_iter()
        .filter(|sq| {
            stones.iter().any(|m| {
                (m.column() as i32 - sq.column() as i32).abs() <= 2
                    && (m.row() as i32 - sq.row() as i32).abs() <= 2
            })
        })
        .collect()
}

/// Whether the side to move wins by continuous fours within `fours` fours
/// (every attacking move leaves exactly one winning cell, which the
/// defender must take, until one leaves two).
fn has_vcf(pos: &mut Position, fours: u32) -> bool {
    let me = pos.side_to_move();
    if !winning_cells(pos, me).is_empty() {
        return true;
    }
    let theirs = winning_cells(pos, me.other());
    if theirs.len() >= 2 || fours == 0 {
        return false;
    }
    let moves = if theirs.len() == 1 {
        theirs
    } else {
        near_stones(pos)
    };
    for sq in moves {
        pos.play(sq).unwrap();
        let threats = winning_cells_through(pos, me, sq);
        let won = match threats.len() {
            0 => false,
            1 => {
                pos.play(threats[0]).unwrap();
                let won = has_vcf(pos, fours - 1);
                pos.undo();
                won
            }
            _ => true,
        };
        pos.undo();
        if won {
            return true;
        }
    }
    false
}

fn strong_move(pos: &Position, seed: u64) -> Square {
    let mut none: [TtEntry; 0] = [];
    let mut p = Player::new(PlayerKind::Strong, seed, &mut none);
    p.choose_move(pos).unwrap()
}

#[test]
fn plays_out_a_long_vcf_against_every_block() {
    for (board, fours) in VCF_WINS {
        let start = Position::from_board(board, Some(5)).unwrap();
        let me = start.side_to_move();
        // The checker agrees this is a VCF, and not a short one.
        assert!(has_vcf(&mut start.clone(), *fours), "{board}");
        assert!(!has_vcf(&mut start.clone(), fours - 1), "{board}");
        for seed in 0..2 {
            let mut pos = start.clone();
            // strong attacks with fours; the defender takes each forced block.
            for ply in 0.. {
                assert!(ply <= 2 * fours, "no win after {ply} plies from {board}");
                let mv = strong_move(&pos, seed);
                pos.play(mv).unwrap();
                if pos.outcome().winner() == Some(me) {
                    break;
                }
                let threats = winning_cells(&pos, me);
                assert!(!threats.is_empty(), "{mv:?} is not a four at {pos}");
                pos.play(threats[0]).unwrap();
            }
        }
    }
}

#[test]
fn stops_the_opponents_vcf() {
    for board in VCF_DEFENCES {
        let pos = Position::from_board(board, Some(5)).unwrap();
        let me = pos.side_to_move();
        assert!(!has_vcf(&mut pos.clone(), 12), "{board}: we have a VCF");
        for seed in 0..2 {
            let mv = strong_move(&pos, seed);
            let mut after = pos.clone();
            after.play(mv).unwrap();
            assert_eq!(after.side_to_move(), me.other());
            assert!(
                !has_vcf(&mut after, 12),
                "after {mv:?} the opponent wins by fours at {after}"
            );
        }
    }
}

/// Positions (side to move: the attacker) with a VCF of exactly the given
/// number of fours.
const VCF_WINS: &[(&str, u32)] = &[
    (
        ".............../.............../.............../.............../.............../........o.o..../.......xxxo..../.......xxo...../.......xxo...../.......o.o...../.........o...../.........x...../.............../.............../...............",
        6,
    ),
    (
        ".............../........o....../.....o..xo...../......xoxoo..../.....ooxxxox.../.o..ooxxxxo..../..x..xxxoxxo.../...xooxoxoox.../....xoox.xoxo../.....xxxo.ox.../.....oo...oo.../..........xx.../.............../.............../...............",
        7,
    ),
    (
        ".............../.............../......oxoo...../......oxxxo..../......xxoxx..../.....oxoooox.../.x.xoxxox....../.x.ooxoxxo...../.oooxxxox....../.x.ooxoxoxx..../..xooox.oxo..../..oxxoxoxxxox../.oxoo.xooo.x.../x.....x.....x../.....ooo.....o.",
        6,
    ),
];

/// Positions where the side to move has no VCF but the opponent has one.
const VCF_DEFENCES: &[&str] = &[
    ".............../.............../.............../.............../.............../........o.o..../.......xxx...../.......xxo...../.......xxo...../.......o.o...../.........o...../.........x...../.............../.............../...............",
    ".............../.............../.............../.............../.............../........o.o..../.......xxxo..../.......xx....../.......xxo...../.......o.o...../.........o...../.........x...../.............../.............../...............",
    ".............../........o....../.....o..xo...../......xoxoo..../.....ooxxxox.../.o..ooxxxxo..../..x..x.xoxxo.../...xooxoxoox.../....xoox.xoxo../.....xxxo.ox.../.....oo...oo.../..........xx.../.............../.............../...............",
    ".............../.............../......oxoo...../......oxxxo..../......xxoxx..../.....oxoooox.../.x.xoxxox....../.x.ooxoxxo...../.oooxxxox....../.x.ooxoxoxx..../..xooox.oxo..../..oxxoxoxxxox../.oxoo.xooo.x.../x.....x.....x../.....oo......o.",
];
