//! Exact counts, the m,n,k version of chess perft: if the move generator or the
//! win check were wrong, these numbers would be.
use std::collections::{HashMap, HashSet};

use ttt_core::perft::{count_games, perft, GameCounts};
use ttt_core::{Mark, Outcome, Position, Rules, Square, Symmetry};

/// Every position reachable from the empty board (empty board included).
fn reachable(rules: Rules) -> Vec<Position> {
    fn walk(pos: &mut Position, seen: &mut HashSet<String>, out: &mut Vec<Position>) {
        if !seen.insert(pos.to_string()) {
            return;
        }
        out.push(pos.clone());
        for sq in pos.legal_moves() {
            pos.play(sq).unwrap();
            walk(pos, seen, out);
            pos.undo();
        }
    }
    let mut out = Vec::new();
    walk(&mut Position::new(rules), &mut HashSet::new(), &mut out);
    out
}

/// The smallest board text over the board's symmetries.
fn canonical_text(pos: &Position) -> String {
    Symmetry::of(pos.rules())
        .iter()
        .map(|&s| pos.transformed(s).to_string())
        .min()
        .unwrap()
}

#[test]
fn classic_has_5478_positions_765_up_to_symmetry() {
    let all = reachable(Rules::CLASSIC);
    assert_eq!(all.len(), 5478);
    let canonical: HashSet<String> = all.iter().map(canonical_text).collect();
    assert_eq!(canonical.len(), 765);
    // The incrementally kept canonical hash agrees with the canonical text.
    let hashes: HashSet<u64> = all.iter().map(Position::canonical_hash).collect();
    assert_eq!(hashes.len(), 765);
    let plain: HashSet<u64> = all.iter().map(Position::hash).collect();
    assert_eq!(plain.len(), 5478);
}

#[test]
fn classic_has_255168_games() {
    let counts = count_games(&mut Position::new(Rules::CLASSIC));
    assert_eq!(
        counts,
        GameCounts {
            x_wins: 131_184,
            o_wins: 77_904,
            draws: 46_080
        }
    );
    assert_eq!(counts.total(), 255_168);
}

#[test]
fn classic_perft() {
    let mut pos = Position::new(Rules::CLASSIC);
    // No game can end before ply 5, so the first plies are 9!/(9-d)!.
    assert_eq!(perft(&mut pos, 1), 9);
    assert_eq!(perft(&mut pos, 2), 72);
    assert_eq!(perft(&mut pos, 4), 3024);
    assert_eq!(perft(&mut pos, 5), 15120);
    // 1440 games end at ply 5 (X wins), so fewer sequences continue.
    assert_eq!(perft(&mut pos, 6), (15120 - 1440) * 4);
}

/// An independent brute force on a plain array, with a full-board win scan:
/// nothing shared with the engine but the rules of the game.
struct Naive {
    w: usize,
    h: usize,
    k: usize,
    cells: Vec<u8>,
}

impl Naive {
    fn winner(&self) -> u8 {
        let dirs = [(1i32, 0i32), (0, 1), (1, 1), (1, -1)];
        for y in 0..self.h as i32 {
            for x in 0..self.w as i32 {
                let v = self.cells[y as usize * self.w + x as usize];
                if v == 0 {
                    continue;
                }
                for (dx, dy) in dirs {
                    let ok = (0..self.k as i32).all(|i| {
                        let (cx, cy) = (x + dx * i, y + dy * i);
                        cx >= 0
                            && cy >= 0
                            && (cx as usize) < self.w
                            && (cy as usize) < self.h
                            && self.cells[cy as usize * self.w + cx as usize] == v
                    });
                    if ok {
                        return v;
                    }
                }
            }
        }
        0
    }

    /// Games from this state by outcome, memoised on the cells (the number
    /// of games from a state depends only on the state).
    fn count(&mut self, turn: u8, memo: &mut HashMap<Vec<u8>, GameCounts>) -> GameCounts {
        if let Some(&c) = memo.get(&self.cells) {
            return c;
        }
        let mut counts = GameCounts::default();
        match self.winner() {
            1 => counts.x_wins = 1,
            2 => counts.o_wins = 1,
            _ if self.cells.iter().all(|&c| c != 0) => counts.draws = 1,
            _ => {
                for i in 0..self.cells.len() {
                    if self.cells[i] == 0 {
                        self.cells[i] = turn;
                        let sub = self.count(3 - turn, memo);
                        self.cells[i] = 0;
                        counts.x_wins += sub.x_wins;
                        counts.o_wins += sub.o_wins;
                        counts.draws += sub.draws;
                    }
                }
            }
        }
        memo.insert(self.cells.clone(), counts);
        counts
    }
}

/// The engine's count, memoised on its Zobrist hash so 12-cell boards take
/// milliseconds: it still exercises play, undo, legal moves and the win check.
fn count_games_memo(pos: &mut Position, memo: &mut HashMap<u64, GameCounts>) -> GameCounts {
    if let Some(&c) = memo.get(&pos.hash()) {
        return c;
    }
    let mut counts = GameCounts::default();
    match pos.outcome() {
        Outcome::Win(Mark::X) => counts.x_wins = 1,
        Outcome::Win(Mark::O) => counts.o_wins = 1,
        Outcome::Draw => counts.draws = 1,
        Outcome::InProgress => {
            for sq in pos.legal_moves() {
                pos.play(sq).unwrap();
                let sub = count_games_memo(pos, memo);
                pos.undo();
                counts.x_wins += sub.x_wins;
                counts.o_wins += sub.o_wins;
                counts.draws += sub.draws;
            }
        }
    }
    memo.insert(pos.hash(), counts);
    counts
}

fn check_against_naive(columns: u8, rows: u8, k: u8) -> GameCounts {
    let rules = Rules::new(columns, rows, k).unwrap();
    let mut naive = Naive {
        w: columns as usize,
        h: rows as usize,
        k: k as usize,
        cells: vec![0; rules.cell_count()],
    };
    let mut memo = HashMap::new();
    let expected = naive.count(1, &mut memo);
    let got = count_games_memo(&mut Position::new(rules), &mut HashMap::new());
    assert_eq!(got, expected, "{rules}");
    // Every state the brute force visited is a reachable position.
    assert_eq!(reachable(rules).len(), memo.len(), "{rules}");
    expected
}

const PINNED_4X3: GameCounts = GameCounts {
    x_wins: 79_797_600,
    o_wins: 56_875_968,
    draws: 14_515_200,
};

#[test]
fn four_by_three_k3_matches_brute_force() {
    let counts = check_against_naive(4, 3, 3);
    // Pinned too, so a change on either side is noticed.
    println!("4x3 k=3: {counts:?}");
    assert_eq!(counts, PINNED_4X3);
}

#[test]
fn small_boards_match_brute_force() {
    for (c, r, k) in [
        (1, 1, 1),
        (2, 2, 2),
        (3, 2, 2),
        (2, 3, 2),
        (3, 2, 3),
        (3, 3, 2),
        (4, 2, 2),
        (4, 2, 3),
        (3, 3, 1),
    ] {
        check_against_naive(c, r, k);
    }
}

#[test]
fn trivial_boards_behave_as_the_seed_says() {
    // "In the 1x1, the first player wins on the first turn."
    let mut pos = Position::new(Rules::new(1, 1, 1).unwrap());
    pos.play(Square::new(0, 0).unwrap()).unwrap();
    assert_eq!(pos.outcome(), Outcome::Win(Mark::X));
    // "In a 2x2, the first player wins on their second turn, no matter what."
    let counts = count_games(&mut Position::new(Rules::new(2, 2, 2).unwrap()));
    assert_eq!(
        counts,
        GameCounts {
            x_wins: 24,
            o_wins: 0,
            draws: 0
        }
    );
}
