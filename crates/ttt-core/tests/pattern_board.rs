//! The pattern board's fives and fours against a brute-force count on the
//! plain grid: for every empty cell and side, in random positions under
//! each five rule.
use ttt_core::pattern::{PatternBoard, ThreatClass};
use ttt_core::rng::Rng;
use ttt_core::{Direction, Mark, Position, Rules, Square, SquareSet, WinCondition};

/// Cells of the board as 0 empty, 1 X, 2 O.
fn grid(pos: &Position) -> [[u8; 20]; 20] {
    let mut g = [[0u8; 20]; 20];
    for sq in pos.rules().squares() {
        g[sq.column() as usize][sq.row() as usize] = match pos.get(sq) {
            Some(Mark::X) => 1,
            Some(Mark::O) => 2,
            None => 0,
        };
    }
    g
}

/// The run of `mark`'s stones through (x, y) along (dx, dy).
fn run(g: &[[u8; 20]; 20], rules: &Rules, (x, y): (i32, i32), (dx, dy): (i32, i32), m: u8) -> u32 {
    let on = |x: i32, y: i32| {
        x >= 0
            && y >= 0
            && x < i32::from(rules.columns())
            && y < i32::from(rules.rows())
            && g[x as usize][y as usize] == m
    };
    let mut n = 1;
    for sign in [-1, 1] {
        let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
        while on(cx, cy) {
            n += 1;
            cx += sign * dx;
            cy += sign * dy;
        }
    }
    n
}

/// For a stone of `mark` on the empty `sq`: does it make five, and how many
/// empty cells on each of its lines would then make five through it.
fn brute(g: &mut [[u8; 20]; 20], rules: &Rules, sq: Square, mark: Mark) -> (bool, [u32; 4]) {
    let m = mark.index() as u8 + 1;
    let (x, y) = (i32::from(sq.column()), i32::from(sq.row()));
    g[x as usize][y as usize] = m;
    let mut five = false;
    let mut points = [0; 4];
    for (d, dir) in Direction::ALL.iter().enumerate() {
        let (dx, dy) = dir.delta();
        let (dx, dy) = (i32::from(dx), i32::from(dy));
        if rules.is_winning_length_for(mark, run(g, rules, (x, y), (dx, dy), m)) {
            five = true;
        }
        for step in (-4..=4).filter(|&s| s != 0) {
            let (ex, ey) = (x + step * dx, y + step * dy);
            if ex < 0
                || ey < 0
                || ex >= i32::from(rules.columns())
                || ey >= i32::from(rules.rows())
                || g[ex as usize][ey as usize] != 0
            {
                continue;
            }
            g[ex as usize][ey as usize] = m;
            let len = run(g, rules, (x, y), (dx, dy), m);
            // The five must hold both stones: the run through (x, y) does
            // when it reaches e.
            let reaches = run(g, rules, (ex, ey), (dx, dy), m) == len;
            if reaches && rules.is_winning_length_for(mark, len) {
                points[d] += 1;
            }
            g[ex as usize][ey as usize] = 0;
        }
    }
    g[x as usize][y as usize] = 0;
    (five, points)
}

#[test]
fn fives_and_fours_agree_with_a_brute_force_count() {
    let mut rng = Rng::new(11);
    let base = Rules::new(15, 15, 5).unwrap();
    // Cells seen that make a five, an open four (or two fours), one four.
    let mut seen = [0u32; 3];
    for rules in [
        base,
        base.with_win_condition(WinCondition::ExactlyK),
        base.with_renju().unwrap(),
    ] {
        for _game in 0..40 {
            // A random position of 10 to 80 stones around the centre
            // (dense, so fours and overlines are common), nobody winning.
            let stones = 10 + rng.below(71) as usize;
            let (mut x, mut o) = (SquareSet::EMPTY, SquareSet::EMPTY);
            let mut placed = 0;
            while placed < stones {
                let sq = Square::new(3 + rng.below(9) as u8, 3 + rng.below(9) as u8).unwrap();
                if x.contains(sq) || o.contains(sq) {
                    continue;
                }
                if placed % 2 == 0 {
                    x.insert(sq);
                } else {
                    o.insert(sq);
                }
                placed += 1;
            }
            let Ok(pos) = Position::from_marks(rules, x, o) else {
                continue;
            };
            if pos.outcome().is_over() {
                continue;
            }
            let board = PatternBoard::new(&pos).unwrap();
            let mut g = grid(&pos);
            for sq in pos.empty_squares() {
                for mark in Mark::ALL {
                    let (five, points) = brute(&mut g, &rules, sq, mark);
                    let fours = points.iter().filter(|&&n| n == 1).count();
                    let open = points.iter().any(|&n| n >= 2);
                    let class = board.class(sq, mark);
                    let what = format!("{pos} {sq:?} {mark:?}: {class} {five} {points:?}");
                    assert_eq!(class == ThreatClass::Five, five, "{what}");
                    if five {
                        seen[0] += 1;
                        continue;
                    }
                    assert_eq!(class == ThreatClass::OpenFour, open || fours >= 2, "{what}");
                    let one_four = matches!(
                        class,
                        ThreatClass::Four | ThreatClass::FourPlus | ThreatClass::FourThree
                    );
                    assert_eq!(one_four, !open && fours == 1, "{what}");
                    seen[1] += u32::from(open || fours >= 2);
                    seen[2] += u32::from(one_four);
                }
            }
        }
    }
    // Enough of each kind to mean something.
    eprintln!("fives, open fours, fours seen: {seen:?}");
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
}
