//! Boards up to 20x20 (the Gomocup freestyle board) and rectangles with a
//! 20 side: sizes, notation at the corners, and exact counts that a square
//! index wrapping from one row into the next would break.
use ttt_core::perft::perft;
use ttt_core::{
    Mark, Outcome, ParseSquareError, Position, Rules, Square, SquareFormat, SquareSet, MAX_SIDE,
};

fn sq(c: u8, r: u8) -> Square {
    Square::new(c, r).unwrap()
}

#[test]
fn twenty_is_the_largest_side() {
    assert_eq!(MAX_SIDE, 20);
    for text in ["20", "20x20", "20x15", "15x20", "20x1", "1x20"] {
        let rules: Rules = text.parse().unwrap();
        assert_eq!(rules.k(), 5, "{text}: big boards default to five in a row");
    }
    assert_eq!("20x15".parse::<Rules>().unwrap().cell_count(), 300);
    for text in ["21", "21x20", "20x21", "0x20"] {
        let err = text.parse::<Rules>().unwrap_err().to_string();
        assert!(err.contains("each side must be 1 to 20"), "{text}: {err}");
    }
    assert!(Square::new(19, 19).is_some());
    assert!(Square::new(20, 0).is_none());
    assert!(Square::new(0, 20).is_none());
}

#[test]
fn corners_of_20x20_and_20x15_round_trip_in_every_notation() {
    let cases = [
        ("20x20", (19, 19), "400", "t20", "20 20"),
        ("20x15", (19, 14), "300", "t15", "15 20"),
        ("15x20", (14, 19), "300", "o20", "20 15"),
    ];
    for (size, (c, r), number, coord, rowcol) in cases {
        let rules: Rules = size.parse().unwrap();
        let corner = sq(c, r);
        let show = |f| rules.display_square(corner, f).to_string();
        assert_eq!(show(SquareFormat::Number), number, "{size}");
        assert_eq!(show(SquareFormat::Coord), coord, "{size}");
        assert_eq!(show(SquareFormat::RowCol), rowcol, "{size}");
        for text in [number, coord, rowcol] {
            assert_eq!(rules.parse_square(text), Ok(corner), "{size} {text}");
        }
        assert_eq!(rules.parse_square("a1"), Ok(sq(0, 0)));
        assert_eq!(rules.parse_square("1"), Ok(sq(0, 0)));
        // The other two corners, by number: the end of the first row and
        // the start of the last.
        assert_eq!(rules.square_from_number(c as u16 + 1), Some(sq(c, 0)));
        let last_row_start = r as u16 * rules.columns() as u16 + 1;
        assert_eq!(rules.square_from_number(last_row_start), Some(sq(0, r)));
    }
    let big: Rules = "20".parse().unwrap();
    assert_eq!(
        big.parse_square("u1"),
        Err(ParseSquareError::ColumnLetterOutOfRange {
            letter: 'u',
            last: 't'
        })
    );
    assert_eq!(
        big.parse_square("t21"),
        Err(ParseSquareError::RowOutOfRange { row: 21, rows: 20 })
    );
    assert_eq!(
        big.parse_square("401"),
        Err(ParseSquareError::NumberOutOfRange {
            number: 401,
            last: 400
        })
    );
    assert_eq!(
        big.parse_square("1 21"),
        Err(ParseSquareError::ColumnOutOfRange {
            column: 21,
            columns: 20
        })
    );
}

#[test]
fn perft_counts_on_20x20_and_20x15() {
    // No line of five in three plies: every sequence counts.
    let mut pos = Position::new("20".parse().unwrap());
    assert_eq!(perft(&mut pos, 1), 400);
    assert_eq!(perft(&mut pos, 2), 400 * 399);
    let mut pos = Position::new("20x15".parse().unwrap());
    assert_eq!(perft(&mut pos, 2), 300 * 299);
    // k = 2 on 20x15: X's move next to its corner mark (3 neighbours) ends
    // the game, so those sequences do not reach 2 plies. O's mark is on the
    // next square index, but not next to X on the board.
    let mut pos = Position::new("20x15 k=2".parse().unwrap());
    pos.play(sq(19, 0)).unwrap(); // top-right corner: 3 neighbours
    pos.play(sq(0, 1)).unwrap(); // the next index, on the next row
    assert_eq!(perft(&mut pos, 1), 298);
    assert_eq!(perft(&mut pos, 2), (298 - 3) * 297);
}

/// X on the four corners (O far away): the cells that complete a line of
/// two for X are the corners' neighbours, 3 each, and nothing that only
/// looks adjacent by index (the end of one row and the start of the next).
#[test]
fn winning_cells_at_the_edges_are_exact() {
    // On 20x3 the top and bottom corners share two neighbours a side.
    for (size, expected) in [
        ("20x20 k=2", 12),
        ("20x15 k=2", 12),
        ("15x20 k=2", 12),
        ("20x3 k=2", 8),
    ] {
        let rules: Rules = size.parse().unwrap();
        let (w, h) = (rules.columns() - 1, rules.rows() - 1);
        let x: SquareSet = [sq(0, 0), sq(w, 0), sq(0, h), sq(w, h)]
            .into_iter()
            .collect();
        let o: SquareSet = [sq(2, 1), sq(4, 1), sq(6, 1), sq(8, 1)]
            .into_iter()
            .collect();
        let pos = Position::from_marks(rules, x, o).unwrap();
        let wins: Vec<Square> = pos
            .legal_moves()
            .into_iter()
            .filter(|&s| pos.completes_line(s, Mark::X))
            .collect();
        assert_eq!(wins.len(), expected, "{size}: {wins:?}");
    }
    // A four against the right edge of 20x20 k=5: one winning cell, on its
    // left; the cell after it by index (a1 of the next row) does nothing.
    let rules: Rules = "20".parse().unwrap();
    let x: SquareSet = (16..20).map(|c| sq(c, 5)).collect();
    let o: SquareSet = [sq(0, 10), sq(2, 10), sq(4, 10), sq(6, 10)]
        .into_iter()
        .collect();
    let mut pos = Position::from_marks(rules, x, o).unwrap();
    let wins: Vec<Square> = pos
        .legal_moves()
        .into_iter()
        .filter(|&s| pos.completes_line(s, Mark::X))
        .collect();
    assert_eq!(wins, [sq(15, 5)]);
    pos.play(sq(0, 6)).unwrap();
    assert_eq!(pos.outcome(), Outcome::InProgress);
    pos.undo();
    pos.play(sq(15, 5)).unwrap();
    assert_eq!(pos.outcome(), Outcome::Win(Mark::X));
    let line = pos.winning_line().unwrap();
    assert_eq!((line.start, line.len), (sq(15, 5), 5));
}

#[test]
fn a_full_20x20_game_plays_out_and_undoes_to_the_empty_board() {
    let rules: Rules = "20x20 k=20".parse().unwrap();
    // X on the even columns, except on the top row where it is the odd
    // ones: every row, column and long diagonal has both marks, so the
    // game only ends when the board is full.
    let is_x = |c: u8, r: u8| (c % 2 == 0) != (r == 0);
    let cells = || (0..20u8).flat_map(|r| (0..20u8).map(move |c| (c, r)));
    let xs: Vec<Square> = cells()
        .filter(|&(c, r)| is_x(c, r))
        .map(|(c, r)| sq(c, r))
        .collect();
    let os: Vec<Square> = cells()
        .filter(|&(c, r)| !is_x(c, r))
        .map(|(c, r)| sq(c, r))
        .collect();
    assert_eq!((xs.len(), os.len()), (200, 200));
    let mut pos = Position::new(rules);
    for (x, o) in xs.iter().zip(&os) {
        assert_eq!(pos.outcome(), Outcome::InProgress);
        pos.play(*x).unwrap();
        pos.play(*o).unwrap();
    }
    assert_eq!(pos.outcome(), Outcome::Draw);
    assert_eq!(pos.history().len(), 400);
    assert_eq!(pos.to_string().split('/').count(), 20);
    let back = Position::from_board(&pos.to_string(), Some(20)).unwrap();
    assert_eq!(
        (back.outcome(), back.marks(Mark::X)),
        (Outcome::Draw, pos.marks(Mark::X))
    );
    while pos.undo().is_some() {}
    assert_eq!(pos, Position::new(rules));
    assert_eq!(pos.hash(), 0);
}
