//! The opening book built into the game gives the moves the search gives.
use std::collections::HashSet;

use ttt64_game::{books, new_player};
use ttt_core::ai::{Player, PlayerKind, TtEntry};
use ttt_core::{Position, Rules, Symmetry};

#[test]
fn the_4x4_book_plays_what_perfect_searches() {
    let rules = Rules::new(4, 4, 4).unwrap();
    let book = books::for_rules(&rules).expect("a 4x4 k=4 book");
    assert_eq!(book.plies, 4);
    // Every position with fewer than 4 marks (every symmetric image), a
    // few seeds each, with the console's 16K-entry table.
    let mut tt = vec![TtEntry::EMPTY; 1 << 14];
    let mut seen = HashSet::new();
    let mut stack = vec![Position::new(rules)];
    let mut checked = 0;
    while let Some(pos) = stack.pop() {
        if pos.mark_count() >= 4 || pos.outcome().is_over() || !seen.insert(pos.canonical_hash()) {
            continue;
        }
        for &sym in Symmetry::of(&rules) {
            let p = pos.transformed(sym);
            for seed in [0, 1, 0xDEAD_BEEF, ttt64_game::move_seed(9, p.mark_count())] {
                for kind in [PlayerKind::Perfect, PlayerKind::Impossible] {
                    let mut with = new_player(kind, seed, &mut tt, &rules, None);
                    let a = with.choose_move(&p);
                    assert_eq!(with.stats().nodes, 0, "{p}: not answered by the book");
                    let b = Player::new(kind, seed, &mut tt).choose_move(&p);
                    assert_eq!(a, b, "{p} {kind} seed {seed}");
                    checked += 1;
                }
            }
        }
        for sq in pos.legal_moves() {
            let mut c = pos.clone();
            c.play(sq).unwrap();
            stack.push(c);
        }
    }
    assert_eq!(seen.len(), book.len());
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn other_boards_have_no_book() {
    for (n, k) in [(3, 3), (4, 3), (5, 4), (9, 5)] {
        assert!(books::for_rules(&Rules::new(n, n, k).unwrap()).is_none());
    }
}
