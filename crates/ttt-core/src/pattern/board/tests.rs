use super::super::threat::COMBINATIONS;
use super::*;
use crate::rng::Rng;
use crate::WinCondition;

/// A board with these stones, every empty cell read from scratch (no
/// incremental update involved).
fn from_scratch(rules: Rules, stones: &[(Square, Mark)], to_move: Mark) -> PatternBoard {
    let mut board = PatternBoard::empty(rules).unwrap();
    for &(sq, mark) in stones {
        board.cells[sq.index()] = mark.index() as u8 + 1;
        for d in 0..4 {
            let (l, at) = line_of(sq.column().into(), sq.row().into(), d);
            board.lines[d][l] |= (mark.index() as u64 + 1) << (2 * (at as usize + REACH));
        }
    }
    board.counts = [[0; 13]; 2];
    board.classes = [[0; 2]; MAX_CELLS];
    board.fours = [SquareSet::EMPTY; 2];
    for sq in rules.squares() {
        if board.cells[sq.index()] == 0 {
            for d in 0..4 {
                board.refresh_pattern(sq, d);
            }
            board.counts[0][0] += 1;
            board.counts[1][0] += 1;
            board.refresh_class(sq);
        }
    }
    board.side_to_move = to_move;
    board.stones = stones.len() as u32;
    board
}

/// Cell weights for the tests: every code its own pair of numbers.
static TEST_WEIGHTS: CellWeights = {
    let mut table = [[0i16; 2]; COMBINATIONS];
    let mut code = 0;
    while code < COMBINATIONS {
        table[code] = [
            (code * 7 % 1001) as i16 - 500,
            (code * 13 % 997) as i16 - 498,
        ];
        code += 1;
    }
    table
};

fn empty_patterns(board: &PatternBoard) -> [[u8; 4]; MAX_CELLS] {
    let mut out = [[0; 4]; MAX_CELLS];
    for sq in board.rules.squares() {
        if board.cells[sq.index()] == 0 {
            out[sq.index()] = board.patterns[sq.index()];
        }
    }
    out
}

/// After every move and take-back of random games, the incremental
/// board equals one read from scratch: patterns, classes, counts and
/// the cell weights' sums.
#[test]
fn incremental_equals_from_scratch() {
    let mut rng = Rng::new(3);
    for (c, r, win) in [
        (15u8, 15u8, 0u8),
        (20, 20, 0),
        (9, 9, 0),
        (15, 15, 1),
        (15, 15, 2),
        (5, 5, 0),
        (20, 7, 0),
    ] {
        let mut rules = Rules::new(c, r, 5).unwrap();
        rules = match win {
            1 => rules.with_win_condition(crate::WinCondition::ExactlyK),
            2 => rules.with_renju().unwrap(),
            _ => rules,
        };
        let mut board = PatternBoard::empty(rules).unwrap();
        board.set_cell_weights(&TEST_WEIGHTS);
        let mut played = [(Square::from_index(0), Mark::X); MAX_CELLS];
        let mut n = 0;
        for _ in 0..(rules.cell_count() * 3 / 4) {
            let empty = rules.squares().filter(|&s| board.get(s).is_none());
            let pick = rng.below(empty.clone().count() as u32) as usize;
            let sq = empty.clone().nth(pick).unwrap();
            let mark = board.side_to_move();
            assert!(board.play(sq));
            assert!(!board.play(sq), "an occupied cell cannot be played");
            played[n] = (sq, mark);
            n += 1;
            if rng.below(5) == 0 {
                n -= 1;
                assert!(board.undo(played[n].0));
                assert!(!board.undo(played[n].0), "an empty cell cannot be undone");
            }
            let mut fresh = from_scratch(rules, &played[..n], board.side_to_move());
            fresh.set_cell_weights(&TEST_WEIGHTS);
            assert_eq!(board.weight_sums, fresh.weight_sums);
            assert_eq!(empty_patterns(&board), empty_patterns(&fresh));
            assert_eq!(board.classes, fresh.classes);
            assert_eq!(board.counts, fresh.counts);
            assert_eq!(board.fours, fresh.fours);
            assert_eq!(board.stones, fresh.stones);
        }
    }
}

fn names(pos: &Position, set: SquareSet) -> [u16; 8] {
    let mut out = [0; 8];
    for (i, sq) in set.into_iter().take(8).enumerate() {
        out[i] = pos.rules().number_of(sq);
    }
    out
}

/// Stones placed with a record and taken back by copying leave the
/// board exactly as the plain take-back (which reads everything again)
/// does, at every depth of a random sequence.
#[test]
fn saved_undo_restores_the_board() {
    let mut rng = Rng::new(5);
    for renju in [false, true] {
        let mut rules = Rules::new(15, 15, 5).unwrap();
        if renju {
            rules = rules.with_renju().unwrap();
        }
        let mut board = PatternBoard::empty(rules).unwrap();
        board.set_cell_weights(&TEST_WEIGHTS);
        let mut undo = [const { PatternUndo::EMPTY }; 200];
        let mut played = [(Square::from_index(0), Mark::X); 200];
        let mut n = 0;
        for _ in 0..2000 {
            if n > 0 && (rng.below(3) == 0 || n == 150) {
                n -= 1;
                let (sq, mark) = played[n];
                let before = board.clone();
                board.remove_restoring(sq, mark, &undo[n]);
                let mut plain = before;
                plain.remove(sq, mark);
                assert_eq!(board.lines, plain.lines);
                assert_eq!(board.cells, plain.cells);
                assert_eq!(board.patterns, plain.patterns);
                assert_eq!(board.codes, plain.codes);
                assert_eq!(board.classes, plain.classes);
                assert_eq!(board.counts, plain.counts);
                assert_eq!(board.fours, plain.fours);
                assert_eq!(board.weight_sums, plain.weight_sums);
            } else {
                let empty = rules.squares().filter(|&s| board.get(s).is_none());
                let pick = rng.below(empty.clone().count() as u32) as usize;
                let sq = empty.clone().nth(pick).unwrap();
                let mark = Mark::ALL[rng.below(2) as usize];
                board.place_saving(sq, mark, &mut undo[n]);
                played[n] = (sq, mark);
                n += 1;
            }
        }
    }
}

/// Against an open three, the answers are the cells that leave no open
/// four; against a four, its five cell; nothing to answer, `None`.
#[test]
fn answers_to_threats() {
    let rules = Rules::new(15, 15, 5).unwrap();
    let play = |moves: &[&str]| {
        let mut pos = Position::new(rules);
        for m in moves {
            pos.play(rules.parse_square(m).unwrap()).unwrap();
        }
        pos
    };
    let sq = |name: &str| rules.number_of(rules.parse_square(name).unwrap());
    // X: g8 h8 i8, open at both ends; O to move.
    let pos = play(&["g8", "a1", "h8", "a3", "i8"]);
    let mut board = PatternBoard::new(&pos).unwrap();
    let (threat, cells) = board.answers(Mark::O).unwrap();
    assert_eq!(threat, ThreatClass::OpenFour);
    assert!(cells.contains(rules.parse_square("f8").unwrap()));
    assert!(cells.contains(rules.parse_square("j8").unwrap()));
    // Far from the three nothing helps.
    assert!(!cells.contains(rules.parse_square("h12").unwrap()));
    // The board is unchanged by the trying.
    let fresh = PatternBoard::new(&pos).unwrap();
    assert_eq!(board.counts, fresh.counts);
    assert_eq!(board.classes, fresh.classes);
    // X: g8 h8 i8 j8 with f8 blocked: the five cell k8 is the answer.
    let pos = play(&["g8", "f8", "h8", "a1", "i8", "a3", "j8"]);
    let mut board = PatternBoard::new(&pos).unwrap();
    let (threat, cells) = board.answers(Mark::O).unwrap();
    assert_eq!(threat, ThreatClass::Five);
    assert_eq!(names(&pos, cells), [sq("k8"), 0, 0, 0, 0, 0, 0, 0]);
    // Nothing to answer on a quiet board.
    let pos = play(&["h8", "a1"]);
    assert!(PatternBoard::new(&pos).unwrap().answers(Mark::X).is_none());
}

/// `defences` (read off the lines) equals trying every cell, for each
/// winning threat class, both sides and every five rule, along random
/// games; `four_cells` holds exactly the cells of class four and up.
#[test]
fn defences_equal_trying_every_cell() {
    let mut rng = Rng::new(11);
    let threats = [
        ThreatClass::Five,
        ThreatClass::OpenFour,
        ThreatClass::FourThree,
    ];
    let mut checked = [0u32; 3];
    for win in 0..3u8 {
        let mut rules = Rules::new(15, 15, 5).unwrap();
        rules = match win {
            1 => rules.with_win_condition(crate::WinCondition::ExactlyK),
            2 => rules.with_renju().unwrap(),
            _ => rules,
        };
        for _game in 0..12 {
            let mut board = PatternBoard::empty(rules).unwrap();
            for _ in 0..70 {
                let empty = rules.squares().filter(|&s| board.get(s).is_none());
                // Stones near the centre, so that threats abound.
                let near: SquareSet = empty
                    .filter(|&s| (3..12).contains(&s.column()) && (3..12).contains(&s.row()))
                    .collect();
                let pick = rng.below(near.len() as u32) as usize;
                board.play(near.into_iter().nth(pick).unwrap());
                for mark in Mark::ALL {
                    let them = mark.other();
                    let four_cells: SquareSet = rules
                        .squares()
                        .filter(|&s| board.class(s, them) >= ThreatClass::Four)
                        .collect();
                    assert_eq!(board.four_cells(them), four_cells);
                    for (t, &threat) in threats.iter().enumerate() {
                        let present = ThreatClass::ALL[threat as usize..]
                            .iter()
                            .any(|&c| board.count(them, c) > 0);
                        let mut tried = SquareSet::EMPTY;
                        for sq in rules.squares() {
                            if board.get(sq).is_some() {
                                continue;
                            }
                            board.place(sq, mark);
                            if ThreatClass::ALL[threat as usize..]
                                .iter()
                                .all(|&c| board.count(them, c) == 0)
                            {
                                tried.insert(sq);
                            }
                            board.remove(sq, mark);
                        }
                        let read = board.defences(mark, threat);
                        assert_eq!(read.is_some(), present);
                        if present {
                            assert_eq!(read.unwrap(), tried, "{threat:?} against {them:?}");
                            checked[t] += 1;
                        }
                    }
                }
                if board.count(Mark::X, ThreatClass::Five) + board.count(Mark::O, ThreatClass::Five)
                    > 0
                    && rng.below(2) == 0
                {
                    break;
                }
            }
        }
    }
    // Each kind of threat came up often enough to mean something.
    assert!(checked.iter().all(|&n| n >= 50), "{checked:?}");
}

/// The counts are the cells: each class's count is the size of its set.
#[test]
fn counts_match_cells() {
    let mut pos = Position::new(Rules::new(15, 15, 5).unwrap());
    for name in ["h8", "h9", "i8", "i9", "j8", "g7", "f6", "k5"] {
        pos.play(pos.rules().parse_square(name).unwrap()).unwrap();
    }
    let board = PatternBoard::new(&pos).unwrap();
    let mut total = 0;
    for mark in Mark::ALL {
        for class in ThreatClass::ALL {
            let n = board.count(mark, class);
            assert_eq!(board.cells_of(mark, class).len() as u32, n);
            total += n;
        }
    }
    assert_eq!(total, 2 * (225 - 8));
    assert!(board.count(Mark::X, ThreatClass::OpenFour) > 0);
}

/// On random positions (every five rule), the probe's class of every
/// empty cell is the pattern board's, and the defusers of all cells of
/// a winning threat class, shared, are the board's defences.
#[test]
fn probe_agrees_with_the_pattern_board() {
    let mut rng = Rng::new(17);
    let mut threats_seen = 0;
    for win in 0..3u8 {
        let mut rules = Rules::new(15, 15, 5).unwrap();
        rules = match win {
            1 => rules.with_win_condition(WinCondition::ExactlyK),
            2 => rules.with_renju().unwrap(),
            _ => rules,
        };
        for _game in 0..8 {
            let mut pos = Position::new(rules);
            let mut cells = [0u8; MAX_CELLS];
            for _ in 0..60 {
                let near: SquareSet = rules
                    .squares()
                    .filter(|&s| cells[s.index()] == 0)
                    .filter(|&s| (3..12).contains(&s.column()) && (3..12).contains(&s.row()))
                    .collect();
                let pick = rng.below(near.len() as u32) as usize;
                let sq = near.into_iter().nth(pick).unwrap();
                cells[sq.index()] = pos.side_to_move().index() as u8 + 1;
                // Position refuses moves after a win: keep the grid
                // and the board in step by building the board from it.
                let _ = pos.play(sq);
                let mut board = PatternBoard::empty(rules).unwrap();
                for s in rules.squares() {
                    match cells[s.index()] {
                        1 => board.place(s, Mark::X),
                        2 => board.place(s, Mark::O),
                        _ => {}
                    }
                }
                let probe = Probe::new(&rules, &cells).unwrap();
                for s in rules.squares().filter(|&s| cells[s.index()] == 0) {
                    for mark in Mark::ALL {
                        assert_eq!(probe.class(s, mark), board.class(s, mark));
                    }
                }
                for mark in Mark::ALL {
                    for threat in [
                        ThreatClass::Five,
                        ThreatClass::OpenFour,
                        ThreatClass::FourThree,
                    ] {
                        let mut shared: Option<SquareSet> = None;
                        for s in rules.squares().filter(|&s| cells[s.index()] == 0) {
                            if probe.class(s, mark) >= threat {
                                let d = probe.defusers(s, mark, threat);
                                shared = Some(shared.map_or(d, |a| a.intersection(&d)));
                            }
                        }
                        assert_eq!(shared, board.defences(mark.other(), threat));
                        threats_seen += usize::from(shared.is_some());
                    }
                }
            }
        }
    }
    assert!(threats_seen > 500, "{threats_seen}");
}
