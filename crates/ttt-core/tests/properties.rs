//! Property tests: random games on random boards.
use proptest::prelude::*;
use ttt_core::{Mark, Outcome, Position, Rules, SquareFormat, Symmetry, WinCondition, MAX_SIDE};

/// Random rules (1..=20 a side, any legal k, k or more / exactly k) and a
/// sequence of move picks.
fn rules_and_picks() -> impl Strategy<Value = (Rules, Vec<u16>)> {
    (1u8..=MAX_SIDE, 1u8..=MAX_SIDE, any::<bool>())
        .prop_flat_map(|(c, r, exact)| (Just(c), Just(r), 1u8..=c.max(r), Just(exact)))
        .prop_flat_map(|(c, r, k, exact)| {
            let win = if exact {
                WinCondition::ExactlyK
            } else {
                WinCondition::AtLeastK
            };
            let rules = Rules::new(c, r, k).unwrap().with_win_condition(win);
            (
                Just(rules),
                prop::collection::vec(any::<u16>(), 0..=rules.cell_count()),
            )
        })
}

/// Plays the picks (each an index into the legal moves) until the game ends.
fn play_out(rules: Rules, picks: &[u16]) -> Position {
    let mut pos = Position::new(rules);
    for &p in picks {
        let moves: Vec<_> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[p as usize % moves.len()]).unwrap();
    }
    pos
}

/// Whether `mark` has a winning run, by brute force over coordinates (no
/// square indices): every maximal run in every direction, measured cell by
/// cell, against k and the win condition.
fn has_winning_run(pos: &Position, mark: Mark) -> bool {
    let rules = pos.rules();
    let (w, h) = (rules.columns() as i32, rules.rows() as i32);
    let at = |c: i32, r: i32| {
        (0..w).contains(&c)
            && (0..h).contains(&r)
            && pos.get(ttt_core::Square::new(c as u8, r as u8).unwrap()) == Some(mark)
    };
    let k = rules.k() as i32;
    let exact = rules.win_condition() == WinCondition::ExactlyK;
    (0..h).any(|r| {
        (0..w).any(|c| {
            [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
                if !at(c, r) || at(c - dc, r - dr) {
                    return false; // not the start of a run
                }
                let mut len = 0;
                while at(c + dc * len, r + dr * len) {
                    len += 1;
                }
                if exact {
                    len == k
                } else {
                    len >= k
                }
            })
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn undo_restores_cells_and_hash((rules, picks) in rules_and_picks()) {
        let mut pos = play_out(rules, &picks);
        while !pos.history().is_empty() {
            let before_text = pos.to_string();
            let before_hash = pos.hash();
            let sq = pos.undo().unwrap();
            pos.play(sq).unwrap();
            prop_assert_eq!(pos.to_string(), before_text);
            prop_assert_eq!(pos.hash(), before_hash);
            pos.undo();
        }
        prop_assert_eq!(pos.hash(), 0);
        prop_assert_eq!(pos, Position::new(rules));
    }

    #[test]
    fn incremental_win_check_agrees_with_full_scan((rules, picks) in rules_and_picks()) {
        let mut pos = Position::new(rules);
        for &p in &picks {
            let moves: Vec<_> = pos.legal_moves().into_iter().collect();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[p as usize % moves.len()]).unwrap();
            let mover = pos.side_to_move().other();
            let scanned = match (pos.find_line(Mark::X), pos.find_line(Mark::O)) {
                (Some(_), _) if mover == Mark::X => Outcome::Win(Mark::X),
                (_, Some(_)) if mover == Mark::O => Outcome::Win(Mark::O),
                (None, None) if pos.empty_squares().is_empty() => Outcome::Draw,
                (None, None) => Outcome::InProgress,
                other => panic!("the side that did not move has a line: {other:?}"),
            };
            prop_assert_eq!(pos.outcome(), scanned);
            for mark in Mark::ALL {
                prop_assert_eq!(pos.find_line(mark).is_some(), has_winning_run(&pos, mark));
            }
            if let Some(line) = pos.winning_line() {
                prop_assert!(line.len >= rules.k());
                if rules.win_condition() == WinCondition::ExactlyK {
                    prop_assert_eq!(line.len, rules.k());
                }
                prop_assert!(line.squares().all(|s| pos.get(s) == Some(mover)));
                prop_assert!(line.contains(pos.last_move().unwrap()));
            }
        }
    }

    #[test]
    fn board_text_round_trips((rules, picks) in rules_and_picks()) {
        // Board text carries no win condition: it reads back as "k or more".
        let rules = rules.with_win_condition(WinCondition::AtLeastK);
        let pos = play_out(rules, &picks);
        let text = pos.to_string();
        let back = Position::from_board(&text, Some(rules.k())).unwrap();
        prop_assert_eq!(&back, &pos);
        prop_assert_eq!(back.outcome(), pos.outcome());
        prop_assert_eq!(back.side_to_move(), pos.side_to_move());
        prop_assert_eq!(back.hash(), pos.hash());
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn square_notations_round_trip((rules, _picks) in rules_and_picks(), i in any::<u16>()) {
        let squares: Vec<_> = rules.squares().collect();
        let sq = squares[i as usize % squares.len()];
        for format in [SquareFormat::Number, SquareFormat::Coord, SquareFormat::RowCol] {
            let text = rules.display_square(sq, format).to_string();
            prop_assert_eq!(rules.parse_square(&text), Ok(sq));
            prop_assert_eq!(rules.parse_square(&text.to_uppercase()), Ok(sq));
        }
    }

    #[test]
    fn symmetric_positions_share_the_canonical_hash((rules, picks) in rules_and_picks()) {
        let pos = play_out(rules, &picks);
        for &sym in Symmetry::of(&rules) {
            let t = pos.transformed(sym);
            prop_assert_eq!(t.canonical_hash(), pos.canonical_hash());
            prop_assert_eq!(t.hash(), pos.hash_under(sym));
            prop_assert_eq!(t.outcome(), pos.outcome());
            prop_assert_eq!(t.transformed(sym.inverse()).to_string(), pos.to_string());
        }
    }
}

proptest! {
    #[test]
    fn any_text_is_parsed_or_refused_without_panic(text in "\\PC{0,40}", k in 0u8..20) {
        let _ = text.parse::<Position>();
        let _ = Position::from_board(&text, Some(k));
        let _ = text.parse::<Rules>();
        let _ = Rules::CLASSIC.parse_square(&text);
    }

    #[test]
    fn board_like_text_is_parsed_or_refused_without_panic(text in "[xXoO._/-]{0,60}") {
        if let Ok(pos) = text.parse::<Position>() {
            prop_assert_eq!(pos.to_string().parse::<Position>(), Ok(pos.clone()));
        }
    }
}
