//! The seeds' players, checked against literal transcriptions of their C code
//! written here, independently of the implementation.
#![allow(clippy::needless_range_loop)] // literal transcriptions of C loops
use ttt_core::ai::{Player, PlayerKind, TtEntry, UnknownPlayer};
use ttt_core::rng::Rng;
use ttt_core::{Mark, Outcome, Position, Rules, Square};

const X: i32 = 88;
const O: i32 = 79;
const SPACE: i32 = 32;

fn chr(m: Mark) -> i32 {
    match m {
        Mark::X => X,
        Mark::O => O,
    }
}

/// The board as the C programs hold it: row-major cells of 'X', 'O', ' '.
fn c_board(pos: &Position) -> Vec<i32> {
    pos.rules()
        .squares()
        .map(|sq| match pos.get(sq) {
            Some(m) => chr(m),
            None => SPACE,
        })
        .collect()
}

fn choose(kind: PlayerKind, pos: &Position) -> Square {
    let mut tt: [TtEntry; 0] = [];
    Player::new(kind, 1, &mut tt).choose_move(pos).unwrap()
}

/// Every non-terminal position reachable on `rules`, each once.
fn all_positions(rules: Rules, f: &mut dyn FnMut(&Position)) {
    fn walk(
        pos: &mut Position,
        seen: &mut std::collections::HashSet<String>,
        f: &mut dyn FnMut(&Position),
    ) {
        if !seen.insert(pos.to_string()) || pos.outcome().is_over() {
            return;
        }
        f(pos);
        for sq in pos.legal_moves() {
            pos.play(sq).unwrap();
            walk(pos, seen, f);
            pos.undo();
        }
    }
    walk(
        &mut Position::new(rules),
        &mut std::collections::HashSet::new(),
        f,
    );
}

// ---------------------------------------------------------------- CS102 (000)

/// `symbol_won`, `find_win`, `middle_open`, `find_corner`, `find_side`,
/// `computer_move` of CS102, on `board[3][3]`.
fn cs102_move(board: &mut [[i32; 3]; 3], computer: i32, user: i32) -> i32 {
    fn symbol_won(board: &[[i32; 3]; 3], symbol: i32) -> bool {
        for row in 0..3 {
            if board[row][0] == symbol && board[row][1] == symbol && board[row][2] == symbol {
                return true;
            }
        }
        for col in 0..3 {
            if board[0][col] == symbol && board[1][col] == symbol && board[2][col] == symbol {
                return true;
            }
        }
        if board[0][0] == symbol && board[1][1] == symbol && board[2][2] == symbol {
            return true;
        }
        if board[0][2] == symbol && board[1][1] == symbol && board[2][0] == symbol {
            return true;
        }
        false
    }
    fn find_win(board: &mut [[i32; 3]; 3], symbol: i32) -> i32 {
        let mut result = 0;
        for square in 1..=9 {
            let row = (square - 1) / 3;
            let col = (square - 1) % 3;
            if board[row][col] == SPACE {
                board[row][col] = symbol;
                if symbol_won(board, symbol) {
                    result = square as i32;
                }
                board[row][col] = SPACE;
            }
        }
        result
    }
    let middle_open = |b: &[[i32; 3]; 3]| if b[1][1] == SPACE { 5 } else { 0 };
    let find_corner = |b: &[[i32; 3]; 3]| {
        if b[0][0] == SPACE {
            return 1;
        }
        if b[0][2] == SPACE {
            return 3;
        }
        if b[2][0] == SPACE {
            return 7;
        }
        if b[2][2] == SPACE {
            return 9;
        }
        0
    };
    let find_side = |b: &[[i32; 3]; 3]| {
        if b[0][1] == SPACE {
            return 2;
        }
        if b[1][0] == SPACE {
            return 4;
        }
        if b[1][2] == SPACE {
            return 6;
        }
        if b[2][1] == SPACE {
            return 8;
        }
        0
    };
    let mut square = find_win(board, computer);
    if square == 0 {
        square = find_win(board, user);
    }
    if square == 0 {
        square = middle_open(board);
    }
    if square == 0 {
        square = find_corner(board);
    }
    if square == 0 {
        square = find_side(board);
    }
    square
}

fn to3(pos: &Position) -> [[i32; 3]; 3] {
    let b = c_board(pos);
    let mut out = [[0; 3]; 3];
    for r in 0..3 {
        for c in 0..3 {
            out[r][c] = b[r * 3 + c];
        }
    }
    out
}

#[test]
fn classic_is_cs102_on_every_position() {
    let mut n = 0;
    all_positions(Rules::CLASSIC, &mut |pos| {
        let me = pos.side_to_move();
        let expected = cs102_move(&mut to3(pos), chr(me), chr(me.other()));
        let got = choose(PlayerKind::Classic, pos);
        assert_eq!(pos.rules().number_of(got) as i32, expected, "{pos}");
        n += 1;
    });
    assert_eq!(n, 4520);
}

#[test]
fn classic_takes_the_highest_numbered_win_and_block() {
    // X to move can win at 3 (row) and at 7 (column): takes 7.
    let pos: Position = "xx./x../oo.".parse().unwrap();
    assert_eq!(pos.side_to_move(), Mark::O);
    // O to move: O wins at 9 (bottom row); X threatens 3 and 7.
    assert_eq!(
        choose(PlayerKind::Classic, &pos),
        Square::new(2, 2).unwrap()
    );
    let pos: Position = "xx./x../o.o".parse().unwrap();
    // O wins at 8 (bottom row), nothing else.
    assert_eq!(pos.rules().number_of(choose(PlayerKind::Classic, &pos)), 8);
    // O with no win must block X at 3 or 7: the highest, 7.
    let pos: Position = "xx./xo./..o".parse().unwrap();
    assert_eq!(pos.rules().number_of(choose(PlayerKind::Classic, &pos)), 7);
}

// ------------------------------------------------------ Major Project (003)

/// `computer_move` of the Major Project, for `me` (the seed plays 'O').
fn major_move(board: &mut [[i32; 3]; 3], me: i32, opp: i32, god: bool) -> (usize, usize) {
    fn check_win(b: &[[i32; 3]; 3], p: i32) -> bool {
        (0..3).any(|i| (0..3).all(|j| b[i][j] == p))
            || (0..3).any(|j| (0..3).all(|i| b[i][j] == p))
            || (0..3).all(|i| b[i][i] == p)
            || (0..3).all(|i| b[i][2 - i] == p)
    }
    for i in 0..3 {
        for j in 0..3 {
            if board[i][j] == SPACE {
                board[i][j] = me;
                if check_win(board, me) {
                    return (i, j);
                }
                board[i][j] = SPACE;
            }
        }
    }
    for i in 0..3 {
        for j in 0..3 {
            if board[i][j] == SPACE {
                board[i][j] = opp;
                if check_win(board, opp) {
                    board[i][j] = me;
                    return (i, j);
                }
                board[i][j] = SPACE;
            }
        }
    }
    if god && board[1][1] == SPACE {
        return (1, 1);
    }
    for (i, j) in [(0, 0), (0, 2), (2, 0), (2, 2)] {
        if board[i][j] == SPACE {
            return (i, j);
        }
    }
    for i in 0..3 {
        for j in 0..3 {
            if board[i][j] == SPACE {
                return (i, j);
            }
        }
    }
    unreachable!()
}

#[test]
fn standard_and_god_are_the_major_project_on_every_position() {
    for (kind, god) in [(PlayerKind::Standard, false), (PlayerKind::God, true)] {
        all_positions(Rules::CLASSIC, &mut |pos| {
            let me = pos.side_to_move();
            let (r, c) = major_move(&mut to3(pos), chr(me), chr(me.other()), god);
            let got = choose(kind, pos);
            assert_eq!(
                (got.row() as usize, got.column() as usize),
                (r, c),
                "{kind} {pos}"
            );
        });
    }
}

// -------------------------------------------------- Tic-Tac-Toe in C (001)

/// `botTurn`, transcribed line by line (the board is `int *p`, size x size).
fn bot_turn(p: &[i32], player: i32, size: i32) -> usize {
    let cell = |idx: i32| p[idx as usize];
    let mut highscore: i32 = 0;
    for i in 0..size {
        for j in 0..size {
            let value = cell(i * size + j);
            if value == SPACE {
                let mut score: i32 = 1 + 1;
                if i == j {
                    score += 1;
                }
                if size - 1 - i == j {
                    score += 1;
                }
                let mut mult: i32 = 1 + (1 << 8) + (1 << 16) + (1 << 24);
                let mut self_score: i32 = 0;
                for c in 0..size {
                    let mut cv: i32 = (cell(i * size + c) << 24) + (cell(c * size + j) << 16);
                    if i == j {
                        cv += cell(c * size + c) << 8;
                    }
                    if size - 1 - i == j {
                        cv += cell((size - 1 - c) * size + c);
                    }
                    for l in 0..4 {
                        if ((cv >> (l * 8)) & 0xFF) != 0x20
                            && ((cv >> (l * 8)) & 0xFF) != player
                            && ((cv >> (l * 8)) & 0xFF) != 0
                        {
                            score += (mult >> (l * 8)) & 0xFF;
                            mult += 2 << (l * 8);
                        }
                        if ((cv >> (l * 8)) & 0xFF) == player {
                            self_score += 1 << (l * 8);
                        }
                        if self_score >> (l * 8) == (size - 1) {
                            score += 5;
                        }
                    }
                }
                if score > (highscore & 0xFF) {
                    highscore = (score & 0xFF) | (i << 16 & 0xFF0000) | (j << 8 & 0xFF00);
                }
            }
        }
    }
    ((highscore >> 16 & 0xFF) * size + (highscore >> 8 & 0xFF)) as usize
}

#[test]
fn squid_is_bot_turn_on_random_positions_of_every_size() {
    let mut rng = Rng::new(0x5151);
    let mut checked = 0;
    for size in 1..=9u8 {
        let rules = Rules::new(size, size, size).unwrap();
        for _game in 0..60 {
            let mut pos = Position::new(rules);
            // Random moves, checking squid at every position on the way.
            while !pos.outcome().is_over() {
                let expected = bot_turn(&c_board(&pos), chr(pos.side_to_move()), size as i32);
                let got = choose(PlayerKind::Squid, &pos);
                let got_idx = got.row() as usize * size as usize + got.column() as usize;
                assert_eq!(got_idx, expected, "size {size} {pos}");
                checked += 1;
                // Mostly random, sometimes squid's own move (richer positions).
                let mv = if rng.chance(1, 3) {
                    got
                } else {
                    let moves = pos.legal_moves();
                    moves
                        .into_iter()
                        .nth(rng.below(moves.len() as u32) as usize)
                        .unwrap()
                };
                pos.play(mv).unwrap();
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn squid_on_every_3x3_position() {
    all_positions(Rules::CLASSIC, &mut |pos| {
        let expected = bot_turn(&c_board(pos), chr(pos.side_to_move()), 3);
        let got = choose(PlayerKind::Squid, pos);
        assert_eq!(
            got.row() as usize * 3 + got.column() as usize,
            expected,
            "{pos}"
        );
    });
}

#[test]
fn squid_quirks() {
    // A known board: the choice must be the C code's own.
    let pos: Position = "x.o/.x./...".parse().unwrap();
    let expected = bot_turn(&c_board(&pos), O, 3);
    let got = choose(PlayerKind::Squid, &pos);
    assert_eq!(got.row() as usize * 3 + got.column() as usize, expected);
    // The 1x1 board: the only cell.
    let pos = Position::new(Rules::new(1, 1, 1).unwrap());
    assert_eq!(choose(PlayerKind::Squid, &pos), Square::new(0, 0).unwrap());
}

#[test]
fn squid_generalisation_plays_legal_moves_everywhere() {
    let mut rng = Rng::new(7);
    for (c, r, k) in [
        (7u8, 7u8, 4u8),
        (9, 9, 5),
        (5, 3, 3),
        (3, 6, 2),
        (15, 15, 5),
        (16, 16, 5),
        (4, 1, 2),
    ] {
        let rules = Rules::new(c, r, k).unwrap();
        let mut pos = Position::new(rules);
        while !pos.outcome().is_over() {
            let mv = if pos.side_to_move() == Mark::X {
                choose(PlayerKind::Squid, &pos)
            } else {
                let moves = pos.legal_moves();
                moves
                    .into_iter()
                    .nth(rng.below(moves.len() as u32) as usize)
                    .unwrap()
            };
            pos.play(mv).unwrap();
        }
    }
}

// ------------------------------------------------------------------- common

#[test]
fn names_round_trip() {
    for kind in PlayerKind::ALL {
        assert_eq!(kind.name().parse::<PlayerKind>(), Ok(kind));
        assert_eq!(kind.to_string(), kind.name());
        assert!(!kind.description().is_empty());
    }
    assert_eq!(" GOD ".parse::<PlayerKind>(), Ok(PlayerKind::God));
    let err = "nobody".parse::<PlayerKind>().unwrap_err();
    assert_eq!(err, UnknownPlayer);
    let msg = err.to_string();
    for kind in PlayerKind::ALL {
        assert!(msg.contains(kind.name()), "{msg}");
    }
}

#[test]
fn random_is_legal_and_seeded() {
    let rules = Rules::new(4, 4, 3).unwrap();
    let game = |seed| {
        let mut tt: [TtEntry; 0] = [];
        let mut p = Player::new(PlayerKind::Random, seed, &mut tt);
        let mut pos = Position::new(rules);
        let mut moves = vec![];
        while let Some(mv) = p.choose_move(&pos) {
            assert!(pos.is_legal(mv));
            pos.play(mv).unwrap();
            moves.push(mv);
        }
        moves
    };
    assert_eq!(game(5), game(5));
    assert_ne!(game(5), game(6));
}

#[test]
fn every_player_plays_legal_deterministic_games_on_many_boards() {
    let boards = [
        (1u8, 1u8, 1u8),
        (2, 2, 2),
        (3, 3, 3),
        (4, 3, 3),
        (4, 4, 4),
        (5, 5, 4),
        (7, 7, 4),
        (3, 1, 1),
    ];
    for (c, r, k) in boards {
        let rules = Rules::new(c, r, k).unwrap();
        for kind in PlayerKind::ALL {
            let game = |seed: u64| {
                let mut tt1 = vec![TtEntry::EMPTY; 1 << 14];
                let mut tt2 = vec![TtEntry::EMPTY; 1 << 14];
                let mut a = Player::new(kind, seed, &mut tt1);
                let mut b = Player::new(PlayerKind::Random, seed, &mut tt2);
                a.set_budget(ttt_core::ai::Budget::nodes(3000));
                let mut pos = Position::new(rules);
                let mut moves = vec![];
                loop {
                    let p = if moves.len() % 2 == 0 { &mut a } else { &mut b };
                    match p.choose_move(&pos) {
                        Some(mv) => {
                            pos.play(mv).unwrap();
                            moves.push(mv);
                        }
                        None => break,
                    }
                }
                assert_ne!(pos.outcome(), Outcome::InProgress);
                moves
            };
            if rules.cell_count() <= 16
                || !matches!(kind, PlayerKind::Perfect | PlayerKind::Impossible)
            {
                assert_eq!(game(3), game(3), "{kind} on {rules}");
            }
        }
    }
}
