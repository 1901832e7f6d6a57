//! The three square notations of the seeds, board text, and their errors.
use ttt_core::{
    Mark, Outcome, ParseBoardError, ParseSquareError, PlayError, Position, Rules, RulesError,
    Square, SquareFormat,
};

fn sq(c: u8, r: u8) -> Square {
    Square::new(c, r).unwrap()
}

#[test]
fn square_numbers_follow_cs102() {
    let rules = Rules::CLASSIC;
    // 1 2 3 / 4 5 6 / 7 8 9
    assert_eq!(rules.parse_square("1"), Ok(sq(0, 0)));
    assert_eq!(rules.parse_square("5"), Ok(sq(1, 1)));
    assert_eq!(rules.parse_square(" 6 "), Ok(sq(2, 1)));
    assert_eq!(rules.parse_square("9"), Ok(sq(2, 2)));
    assert_eq!(rules.number_of(sq(0, 2)), 7);
    assert_eq!(
        rules.parse_square("10"),
        Err(ParseSquareError::NumberOutOfRange {
            number: 10,
            last: 9
        })
    );
    assert_eq!(
        rules.parse_square("0"),
        Err(ParseSquareError::NumberOutOfRange { number: 0, last: 9 })
    );
}

#[test]
fn coordinates_follow_the_c_seed() {
    let rules = Rules::with_default_k(4, 4).unwrap();
    // a1 is top-left; b3 is column b, row 3.
    assert_eq!(rules.parse_square("a1"), Ok(sq(0, 0)));
    assert_eq!(rules.parse_square("b3"), Ok(sq(1, 2)));
    assert_eq!(rules.parse_square("D4"), Ok(sq(3, 3)));
    assert_eq!(
        rules.parse_square("e1"),
        Err(ParseSquareError::ColumnLetterOutOfRange {
            letter: 'e',
            last: 'd'
        })
    );
    assert_eq!(
        rules.parse_square("a5"),
        Err(ParseSquareError::RowOutOfRange { row: 5, rows: 4 })
    );
    assert_eq!(
        rules.parse_square("a0"),
        Err(ParseSquareError::RowOutOfRange { row: 0, rows: 4 })
    );
    let big = Rules::with_default_k(16, 16).unwrap();
    assert_eq!(big.parse_square("p16"), Ok(sq(15, 15)));
}

#[test]
fn row_and_column_follow_the_other_seeds() {
    let rules = Rules::CLASSIC;
    assert_eq!(rules.parse_square("2 3"), Ok(sq(2, 1)));
    assert_eq!(rules.parse_square("2,3"), Ok(sq(2, 1)));
    assert_eq!(rules.parse_square("2, 3"), Ok(sq(2, 1)));
    assert_eq!(
        rules.parse_square("4 1"),
        Err(ParseSquareError::RowOutOfRange { row: 4, rows: 3 })
    );
    assert_eq!(
        rules.parse_square("1 4"),
        Err(ParseSquareError::ColumnOutOfRange {
            column: 4,
            columns: 3
        })
    );
}

#[test]
fn garbage_is_a_clear_error() {
    let rules = Rules::CLASSIC;
    assert_eq!(rules.parse_square(""), Err(ParseSquareError::Empty));
    assert_eq!(rules.parse_square("   "), Err(ParseSquareError::Empty));
    for bad in [
        "x",
        "5a",
        "-1",
        "1 2 3",
        "?",
        "a",
        "é1",
        "99999999999999999999 1",
        "1.5",
    ] {
        let err = rules.parse_square(bad);
        assert!(err.is_err(), "{bad:?} parsed as {err:?}");
    }
    let msg = rules.parse_square("hello").unwrap_err().to_string();
    assert!(msg.contains("square number"), "{msg}");
}

#[test]
fn squares_display_in_each_format() {
    let rules = Rules::with_default_k(4, 4).unwrap();
    let s = sq(1, 2);
    assert_eq!(
        rules.display_square(s, SquareFormat::Number).to_string(),
        "10"
    );
    assert_eq!(
        rules.display_square(s, SquareFormat::Coord).to_string(),
        "b3"
    );
    assert_eq!(
        rules.display_square(s, SquareFormat::RowCol).to_string(),
        "3 2"
    );
    for square in rules.squares() {
        for format in [
            SquareFormat::Number,
            SquareFormat::Coord,
            SquareFormat::RowCol,
        ] {
            let text = rules.display_square(square, format).to_string();
            assert_eq!(rules.parse_square(&text), Ok(square), "{text}");
        }
    }
}

#[test]
fn board_text_round_trips_and_knows_the_side_to_move() {
    let pos: Position = "x.o/.x./..o".parse().unwrap();
    assert_eq!(pos.to_string(), "x.o/.x./..o");
    assert_eq!(pos.side_to_move(), Mark::X);
    assert_eq!(pos.rules(), &Rules::CLASSIC);
    let pos: Position = "X-O_X____".parse().unwrap();
    assert_eq!(pos.to_string(), "x.o/.x./...");
    assert_eq!(pos.side_to_move(), Mark::O);
    let rect = Position::from_board("x..o/..../....", Some(2)).unwrap();
    assert_eq!(rect.rules(), &Rules::new(4, 3, 2).unwrap());
    assert_eq!(rect.to_string(), "x..o/..../....");
}

#[test]
fn finished_boards_are_recognised() {
    let won: Position = "xxx/oo./...".parse().unwrap();
    assert_eq!(won.outcome(), Outcome::Win(Mark::X));
    let line: Vec<_> = won.winning_line().unwrap().squares().collect();
    assert_eq!(line, vec![sq(0, 0), sq(1, 0), sq(2, 0)]);
    let drawn: Position = "xox/xoo/oxx".parse().unwrap();
    assert_eq!(drawn.outcome(), Outcome::Draw);
    assert!(drawn.legal_moves().is_empty());
}

#[test]
fn impossible_boards_are_rejected() {
    use ParseBoardError::*;
    assert_eq!("".parse::<Position>(), Err(Empty));
    assert_eq!(
        "xx./.../...".parse::<Position>(),
        Err(BadCounts { x: 2, o: 0 })
    );
    assert_eq!(
        "o../.../...".parse::<Position>(),
        Err(BadCounts { x: 0, o: 1 })
    );
    assert_eq!("xxx/ooo/x..".parse::<Position>(), Err(BothWin));
    // O has a line but X has moved since.
    assert_eq!(
        "ooo/xx./xx.".parse::<Position>(),
        Err(UnreachableWin(Mark::O))
    );
    // X has two separate lines: no single last move made both.
    assert_eq!(
        Position::from_board("xxx.o./.o...o/xxx..o/o.....", Some(3)),
        Err(UnreachableWin(Mark::X))
    );
    assert_eq!(
        "x.o/.x".parse::<Position>(),
        Err(RaggedRows {
            row: 2,
            expected: 3,
            found: 2
        })
    );
    assert_eq!(
        "x.o/.y./...".parse::<Position>(),
        Err(BadCharacter { found: 'y', row: 2 })
    );
    assert_eq!("x.o.x".parse::<Position>(), Err(NotSquare { len: 5 }));
    let wide = "x".repeat(0) + &".".repeat(17);
    assert_eq!(wide.parse::<Position>(), Err(NotSquare { len: 17 }));
    let too_wide = format!("{}/{}", ".".repeat(21), ".".repeat(21));
    assert_eq!(
        too_wide.parse::<Position>(),
        Err(BadShape(RulesError::BadSize {
            columns: 21,
            rows: 2
        }))
    );
    assert_eq!(
        Position::from_board("x.o/.x./..o", Some(4)),
        Err(BadShape(RulesError::BadWinLength { k: 4, max: 3 }))
    );
    // Every error explains itself.
    assert!(BadCounts { x: 2, o: 0 }
        .to_string()
        .contains("X moves first"));
}

#[test]
fn illegal_moves_change_nothing() {
    let mut pos: Position = "x../.o./...".parse().unwrap();
    let before = pos.clone();
    assert_eq!(
        pos.play(sq(0, 0)),
        Err(PlayError::Occupied(sq(0, 0), Mark::X))
    );
    assert_eq!(pos.play(sq(3, 0)), Err(PlayError::OffBoard(sq(3, 0))));
    assert_eq!(pos, before);
    assert_eq!(pos.hash(), before.hash());
    let mut won: Position = "xxx/oo./...".parse().unwrap();
    assert_eq!(won.play(sq(2, 1)), Err(PlayError::GameOver));
    assert_eq!(won.undo(), None, "a set-up position has no history to undo");
}

#[test]
fn rules_parse_and_validate() {
    assert_eq!("3".parse::<Rules>(), Ok(Rules::CLASSIC));
    assert_eq!("4x3".parse::<Rules>(), Ok(Rules::new(4, 3, 3).unwrap()));
    assert_eq!("7x7 k=4".parse::<Rules>(), Ok(Rules::new(7, 7, 4).unwrap()));
    assert_eq!(
        "15x15k5".parse::<Rules>(),
        Ok(Rules::new(15, 15, 5).unwrap())
    );
    assert_eq!(
        Rules::new(7, 7, 4).unwrap().to_string().parse::<Rules>(),
        Ok(Rules::new(7, 7, 4).unwrap())
    );
    assert!("21".parse::<Rules>().is_err());
    assert!("0x3".parse::<Rules>().is_err());
    assert!("3x3 k=4".parse::<Rules>().is_err());
    assert!("banana".parse::<Rules>().is_err());
    assert_eq!(
        Rules::new(4, 2, 4).map(|r| r.k()),
        Ok(4),
        "k may be the longer side"
    );
}

#[test]
fn default_win_length_is_a_full_row_up_to_9x9_then_five() {
    // The seeds' N by N games: a full row of the shorter side.
    for (c, r, k) in [(3, 3, 3), (4, 3, 3), (7, 7, 7), (9, 9, 9), (9, 4, 4)] {
        assert_eq!(Rules::with_default_k(c, r).unwrap().k(), k, "{c}x{r}");
    }
    // Larger boards: five in a row (gomoku), not 15 in a row on 15x15.
    for (c, r) in [(10, 10), (15, 15), (16, 16), (10, 9), (12, 3)] {
        assert_eq!(Rules::with_default_k(c, r).unwrap().k(), 5, "{c}x{r}");
    }
    assert_eq!("15".parse::<Rules>().unwrap().k(), 5);
    assert_eq!("15x15 k=15".parse::<Rules>().unwrap().k(), 15);
    let empty15 = ["..............."; 15].join("/");
    assert_eq!(Position::from_board(&empty15, None).unwrap().rules().k(), 5);
    let empty9 = ["........."; 9].join("/");
    assert_eq!(Position::from_board(&empty9, None).unwrap().rules().k(), 9);
}
