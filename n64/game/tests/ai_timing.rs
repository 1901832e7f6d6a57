//! How long each computer player takes per move on the host, with the
//! transposition table the console would lend (16K entries = 256 KiB).
//! `cargo test --release --manifest-path n64/game/Cargo.toml --test ai_timing -- --ignored --nocapture`
//! The N64 is roughly 30-60x slower than this machine.
use std::time::Instant;

use ttt64_game::settings::effective_kind;
use ttt_core::ai::{PlayerKind, TtEntry, TAKE_BACKS};
use ttt_core::pattern::PatternUndo;
use ttt_core::rng::Rng;
use ttt_core::{Position, Rules};

#[test]
#[ignore]
fn ai_time_per_move() {
    // BOARDS="5x5k4,9x9k9", SKIP="perfect,impossible", TT=65536 narrow the run.
    let boards: Vec<(u8, u8)> = match std::env::var("BOARDS") {
        Ok(list) => list
            .split(',')
            .filter_map(|b| {
                let (n, k) = b.split_once('k')?;
                let n = n.split_once('x')?.0.parse().ok()?;
                Some((n, k.parse().ok()?))
            })
            .collect(),
        Err(_) => vec![
            (3, 3),
            (4, 4),
            (5, 5),
            (5, 4),
            (7, 4),
            (9, 9),
            (9, 5),
            (9, 4),
        ],
    };
    let skip = std::env::var("SKIP").unwrap_or_default();
    let tt_len: usize = std::env::var("TT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1 << 14);
    let mut tt = vec![TtEntry::EMPTY; tt_len];
    let mut take_backs: Vec<PatternUndo> = (0..TAKE_BACKS).map(|_| PatternUndo::EMPTY).collect();
    println!("board    player      moves  mean_us    max_us  N64@30x_max_s N64@60x_max_s");
    for (n, k) in boards {
        let rules = Rules::new(n, n, k).unwrap();
        for kind in PlayerKind::ALL {
            if skip.split(',').any(|s| s == kind.name()) {
                continue;
            }
            let played = effective_kind(kind, &rules);
            let (mut total, mut max, mut moves) = (0u128, 0u128, 0u32);
            for game in 0..3u64 {
                for tt_e in tt.iter_mut() {
                    *tt_e = TtEntry::EMPTY;
                }
                // The player against a random opponent, on both sides.
                let mut pos = Position::new(rules);
                let mut rng = Rng::new(game);
                let me_first = game % 2 == 0;
                while !pos.outcome().is_over() {
                    let mine = pos.mark_count().is_multiple_of(2) == me_first;
                    let sq = if mine {
                        let seed = ttt64_game::move_seed(game, pos.mark_count());
                        let t0 = Instant::now();
                        let sq = ttt64_game::new_player(played, seed, &mut tt, &rules, None)
                            .choose_move(&pos);
                        let dt = t0.elapsed().as_micros();
                        total += dt;
                        max = max.max(dt);
                        moves += 1;
                        sq.unwrap()
                    } else {
                        let m: Vec<_> = pos.legal_moves().into_iter().collect();
                        m[rng.below(m.len() as u32) as usize]
                    };
                    pos.play(sq).unwrap();
                }
            }
            let name = if played == kind {
                kind.name().to_string()
            } else {
                format!("{}>{}", kind.name(), played.name())
            };
            println!(
                "{n}x{n} k{k}  {:<20} {:>4} {:>8} {:>9} {:>10.2} {:>10.2}",
                name,
                moves,
                total / moves.max(1) as u128,
                max,
                max as f64 * 30.0 / 1e6,
                max as f64 * 60.0 / 1e6
            );
        }
        // The hint (Z), on the empty board, cold table.
        for e in tt.iter_mut() {
            *e = TtEntry::EMPTY;
        }
        let pos = Position::new(rules);
        let t0 = Instant::now();
        ttt64_game::hint_move(&pos, 1, &mut tt, &mut take_backs, None);
        let dt = t0.elapsed().as_micros();
        println!(
            "{n}x{n} k{k}  hint(empty board)       1 {dt:>8} {dt:>9} {:>10.2} {:>10.2}",
            dt as f64 * 30.0 / 1e6,
            dt as f64 * 60.0 / 1e6
        );
    }
}

/// Every board the menu offers (1x1 to 9x9, every win length; the gomoku
/// boards with win lengths 4 to 6, every rule): each player the console
/// can pick, and the hint, answer the empty board and the board after one
/// move quickly on the host. The console is 30-60x slower than the host,
/// so a second here would already be a frozen screen there (the empty 9x9
/// k=2 board once took the hint 8 s on the host). The gomoku boards'
/// searches run for a time: here the console's shortest think time, 100
/// times shorter (the search stops within a second past it).
#[test]
fn every_menu_board_answers_its_first_moves_quickly() {
    use std::time::Duration;
    use ttt64_game::settings::{is_timed, MAX_SIDE, MIN_SIDE, THINK_TIMES_MS, WIN_CONDITIONS};
    const LIMIT_MS: u128 = 1_000;
    let mut tt = vec![TtEntry::EMPTY; 1 << 14];
    let mut take_backs: Vec<PatternUndo> = (0..TAKE_BACKS).map(|_| PatternUndo::EMPTY).collect();
    let mut boards = Vec::new();
    for n in MIN_SIDE..=MAX_SIDE {
        let ks: Vec<u8> = if n > 9 {
            (4..=6).collect()
        } else {
            (1..=n).collect()
        };
        for k in ks {
            let rules = Rules::new(n, n, k).unwrap();
            for win in WIN_CONDITIONS {
                let with = rules.with_win_condition(win);
                if with.win_condition() == win && (n > 9 || win == WIN_CONDITIONS[0]) {
                    boards.push(with);
                }
            }
        }
    }
    let limit = Duration::from_micros(u64::from(THINK_TIMES_MS[0]) * 10);
    for rules in boards {
        let mut positions = vec![Position::new(rules)];
        let mut after_one = Position::new(rules);
        let first = after_one.legal_moves().into_iter().next().unwrap();
        after_one.play(first).unwrap();
        if !after_one.outcome().is_over() {
            positions.push(after_one);
        }
        for pos in &positions {
            for kind in PlayerKind::ALL {
                tt.fill(TtEntry::EMPTY);
                let played = effective_kind(kind, &rules);
                let t0 = Instant::now();
                let stop = || is_timed(&rules) && t0.elapsed() >= limit;
                let sq = ttt64_game::new_player(played, 1, &mut tt, &rules, Some(&stop))
                    .choose_move(pos);
                let ms = t0.elapsed().as_millis();
                assert!(sq.is_some(), "{rules} {}: no move", kind.name());
                assert!(ms < LIMIT_MS, "{rules} {}: {ms} ms", kind.name());
            }
            // The hint, as the game computes it.
            tt.fill(TtEntry::EMPTY);
            let t0 = Instant::now();
            let stop = || is_timed(&rules) && t0.elapsed() >= limit;
            let (sq, _) = ttt64_game::hint_move(pos, 1, &mut tt, &mut take_backs, Some(&stop));
            let ms = t0.elapsed().as_millis();
            assert!(sq.is_some(), "{rules} hint: no move");
            assert!(ms < LIMIT_MS, "{rules} hint: {ms} ms");
        }
    }
}
