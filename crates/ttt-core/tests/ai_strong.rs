//! `strong`: tactics (never misses a win in one or a forced block) and
//! matches against the seed bots on boards too large to solve.
use ttt_core::ai::{Budget, Iteration, Player, PlayerKind, SearchStats, TtEntry};
use ttt_core::rng::Rng;
use ttt_core::{Mark, Outcome, Position, Rules, Square};

/// Plays one game; returns the outcome.
fn play(rules: Rules, x: (PlayerKind, u64), o: (PlayerKind, u64), nodes: u64) -> Outcome {
    play_seats(rules, (x.0, x.1, nodes), (o.0, o.1, nodes))
}

/// Plays one game between X = (kind, seed, node budget) and O = (...).
fn play_seats(rules: Rules, x: (PlayerKind, u64, u64), o: (PlayerKind, u64, u64)) -> Outcome {
    let (mut t1, mut t2): ([TtEntry; 0], [TtEntry; 0]) = ([], []);
    let mut px = Player::new(x.0, x.1, &mut t1);
    let mut po = Player::new(o.0, o.1, &mut t2);
    px.set_budget(Budget::nodes(x.2));
    po.set_budget(Budget::nodes(o.2));
    let mut pos = Position::new(rules);
    while !pos.outcome().is_over() {
        let p = if pos.side_to_move() == Mark::X {
            &mut px
        } else {
            &mut po
        };
        let mv = p.choose_move(&pos).unwrap();
        pos.play(mv).unwrap();
    }
    pos.outcome()
}

/// `games` games of strong against `opponent`, alternating colours, seed =
/// game number; returns (strong wins, draws, losses).
fn match_up(rules: Rules, opponent: PlayerKind, games: u64, nodes: u64) -> (u32, u32, u32) {
    let (mut w, mut d, mut l) = (0, 0, 0);
    for g in 0..games {
        let strong_x = g % 2 == 0;
        let out = if strong_x {
            play(rules, (PlayerKind::Strong, g), (opponent, g), nodes)
        } else {
            play(rules, (opponent, g), (PlayerKind::Strong, g), nodes)
        };
        let strong = if strong_x { Mark::X } else { Mark::O };
        match out.winner() {
            Some(m) if m == strong => w += 1,
            Some(_) => l += 1,
            None => d += 1,
        }
    }
    println!("strong vs {opponent} on {rules}: {w} wins, {d} draws, {l} losses");
    (w, d, l)
}

#[test]
fn strong_beats_squid_and_classic_on_7x7_k4_and_9x9_k5() {
    for (c, k) in [(7u8, 4u8), (9, 5)] {
        let rules = Rules::new(c, c, k).unwrap();
        for opp in [PlayerKind::Squid, PlayerKind::Classic] {
            let (w, _d, l) = match_up(rules, opp, 20, 4_000);
            assert!(
                w >= 15 && l <= 2,
                "strong vs {opp} on {rules}: {w} wins, {l} losses"
            );
        }
    }
}

#[test]
fn strong_beats_god_and_random_on_15x15_k5() {
    let rules = Rules::new(15, 15, 5).unwrap();
    for opp in [PlayerKind::God, PlayerKind::Random] {
        let (w, _d, _l) = match_up(rules, opp, 4, 3_000);
        assert!(w >= 3, "strong vs {opp} on {rules}: {w} wins");
    }
}

fn winning_cells(pos: &Position, mark: Mark) -> Vec<ttt_core::Square> {
    pos.legal_moves()
        .into_iter()
        .filter(|&sq| pos.completes_line(sq, mark))
        .collect()
}

#[test]
fn never_misses_a_win_in_one_or_a_forced_block() {
    let mut rng = Rng::new(99);
    let (mut wins, mut blocks) = (0, 0);
    for (c, r, k) in [
        (3u8, 3u8, 3u8),
        (7, 7, 4),
        (9, 9, 5),
        (15, 15, 5),
        (6, 4, 3),
        (16, 16, 5),
    ] {
        let rules = Rules::new(c, r, k).unwrap();
        for game in 0..40 {
            let mut pos = Position::new(rules);
            while !pos.outcome().is_over() {
                let me = pos.side_to_move();
                let mine = winning_cells(&pos, me);
                let theirs = winning_cells(&pos, me.other());
                if !mine.is_empty() || theirs.len() == 1 {
                    // Any budget, even a single node, must see it.
                    for nodes in [1, 2_000] {
                        let mut none: [TtEntry; 0] = [];
                        let mut p = Player::new(PlayerKind::Strong, game, &mut none);
                        p.set_budget(Budget::nodes(nodes));
                        let mv = p.choose_move(&pos).unwrap();
                        if !mine.is_empty() {
                            assert!(mine.contains(&mv), "missed a win at {pos} ({rules})");
                        } else {
                            assert_eq!(mv, theirs[0], "missed a block at {pos} ({rules})");
                        }
                    }
                    if mine.is_empty() {
                        blocks += 1;
                    } else {
                        wins += 1;
                    }
                }
                let moves = pos.legal_moves();
                let mv = moves
                    .into_iter()
                    .nth(rng.below(moves.len() as u32) as usize)
                    .unwrap();
                pos.play(mv).unwrap();
            }
        }
    }
    println!("checked {wins} wins in one, {blocks} forced blocks");
    assert!(wins > 100 && blocks > 50, "{wins} {blocks}");
}

#[test]
fn makes_a_double_threat_when_it_can() {
    // 7x7 k=4: X has c4 d4 with open ends; b4 or e4 makes an open three,
    // two winning cells, which O cannot both block.
    let pos = Position::from_board(
        "o....../......./......./..xx.../......./......./......o",
        Some(4),
    )
    .unwrap();
    let mut none: [TtEntry; 0] = [];
    let mut p = Player::new(PlayerKind::Strong, 0, &mut none);
    p.set_budget(Budget::nodes(2_000));
    let mv = p.choose_move(&pos).unwrap();
    let mut after = pos.clone();
    after.play(mv).unwrap();
    assert!(winning_cells(&after, Mark::X).len() >= 2, "played {mv:?}");
}

/// A 15x15 midgame position (X to move) the search limits are tried on.
const MIDGAME: &str = ".............../.............../.............../.............../.............../......o......../......xx......./.......xo....../.......o......./.............../.............../.............../.............../.............../...............";

/// `strong`'s move in `pos` under `budget` (seed `seed`, no table), and
/// what its search reports.
fn strong_under(pos: &Position, seed: u64, budget: Budget<'_>) -> (Option<Square>, SearchStats) {
    let mut none: [TtEntry; 0] = [];
    let mut p = Player::new(PlayerKind::Strong, seed, &mut none);
    p.set_budget(budget);
    let mv = p.choose_move(pos);
    (mv, p.stats())
}

/// The time management's view of the search: after each completed
/// iteration the caller hears its depth, value and how long its move has
/// held, and can play that move at once.
#[test]
fn the_caller_hears_each_iteration_and_can_stop_after_it() {
    let pos = Position::from_board(MIDGAME, Some(5)).unwrap();
    let seen = std::cell::RefCell::new(Vec::<Iteration>::new());
    let record = |it: &Iteration| {
        seen.borrow_mut().push(*it);
        false
    };
    let budget = Budget {
        max_depth: 5,
        iteration_done: Some(&record),
        ..Budget::nodes(u64::MAX)
    };
    let (free, _) = strong_under(&pos, 3, budget);
    let seen = seen.into_inner();
    // Depths 1 to 5 in order (the last one too: a decided value or a full
    // board end the deepening before the call, neither happens here).
    let depths: Vec<u32> = seen.iter().map(|it| it.depth).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert_eq!(seen[0].stable, 1);
    assert_eq!(seen[0].drop, 0);
    for pair in seen.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        // A move that held counts on; a changed one starts again at 1.
        assert!(b.stable == a.stable + 1 || b.stable == 1, "{seen:?}");
        assert_eq!(b.drop, (a.value - b.value).max(0), "{seen:?}");
    }
    // Stopping after the second iteration plays its move: the one a search
    // capped at depth 2 plays (same seed).
    let stop_at_2 = |it: &Iteration| it.depth >= 2;
    let stopped = Budget {
        iteration_done: Some(&stop_at_2),
        ..Budget::nodes(u64::MAX)
    };
    let (early, stats) = strong_under(&pos, 3, stopped);
    assert_eq!(stats.depth, 2);
    let capped = Budget {
        max_depth: 2,
        ..Budget::nodes(u64::MAX)
    };
    assert_eq!(early, strong_under(&pos, 3, capped).0);
    assert!(pos.is_legal(free.unwrap()));
}

#[test]
fn deadline_and_depth_limits_stop_the_search() {
    let rules = Rules::new(15, 15, 5).unwrap();
    let pos = Position::from_board(MIDGAME, Some(5)).unwrap();
    assert_eq!(*pos.rules(), rules);
    let stop = || true;
    let stopped = Budget {
        deadline_check: Some(&stop),
        ..Budget::nodes(u64::MAX)
    };
    let (mv, stats) = strong_under(&pos, 0, stopped);
    assert!(pos.is_legal(mv.unwrap()));
    assert!(stats.nodes <= 1024, "{stats:?}");
    let capped = Budget {
        max_depth: 2,
        ..Budget::nodes(u64::MAX)
    };
    let (_, stats) = strong_under(&pos, 0, capped);
    assert!(stats.depth <= 2);
    // Same seed, same move; the stats report the depth reached.
    let mut none: [TtEntry; 0] = [];
    let mut a = Player::new(PlayerKind::Strong, 5, &mut none);
    let m1 = a.choose_move(&pos);
    let d = a.stats().depth;
    let mut b = Player::new(PlayerKind::Strong, 5, &mut []);
    assert_eq!(m1, b.choose_move(&pos));
    assert!(d >= 1);
}

/// The deadline is asked as often as the budget says: every 1,024 nodes
/// by default, every node when asked to (the console draws a frame there),
/// and the answers do not change the search while they say "go on". On
/// top of that it is asked between the stretches of reading the position
/// into the pattern board (after each row of cells), before the first
/// node: as often whatever the budget.
#[test]
fn the_deadline_is_asked_every_deadline_every_nodes() {
    let pos = Position::from_board(MIDGAME, Some(5)).unwrap();
    let asked_under = |every: u32| {
        let asked = std::cell::Cell::new(0u64);
        let go_on = || {
            asked.set(asked.get() + 1);
            false
        };
        let budget = Budget {
            deadline_check: Some(&go_on),
            deadline_every: every,
            ..Budget::nodes(20_000)
        };
        let (mv, stats) = strong_under(&pos, 3, budget);
        assert_eq!(mv, strong_under(&pos, 3, Budget::nodes(20_000)).0);
        (asked.get(), stats.nodes)
    };
    let (before_nodes, _) = asked_under(u32::MAX);
    assert!(
        before_nodes > u64::from(pos.rules().rows()),
        "asked {before_nodes} times before the first node"
    );
    for every in [Budget::DEADLINE_EVERY, 16, 1] {
        let (asked, nodes) = asked_under(every);
        let want = before_nodes + nodes / u64::from(every);
        assert!(
            asked.abs_diff(want) <= 1,
            "every {every}: asked {asked} times in {nodes} nodes"
        );
    }
    // Asked every node, a deadline stops the search at once.
    let stop = || true;
    let stopped = Budget {
        deadline_check: Some(&stop),
        deadline_every: 1,
        ..Budget::nodes(u64::MAX)
    };
    let (mv, stats) = strong_under(&pos, 0, stopped);
    assert!(pos.is_legal(mv.unwrap()));
    assert!(stats.nodes <= 2, "{stats:?}");
}

#[test]
fn presets_scale_with_difficulty_on_3x3() {
    // Against `perfect` nobody wins; against `random`, harder presets score
    // better. Tallies printed; assertions are loose on purpose.
    let rules = Rules::CLASSIC;
    let mut scores = vec![];
    for kind in [
        PlayerKind::Easy,
        PlayerKind::Medium,
        PlayerKind::Hard,
        PlayerKind::Impossible,
    ] {
        let mut score = 0i32;
        let mut tt = vec![TtEntry::EMPTY; 1 << 12];
        for g in 0..40u64 {
            let mut me = Player::new(kind, g, &mut tt);
            let mut none: [TtEntry; 0] = [];
            let mut opp = Player::new(PlayerKind::Random, g + 1000, &mut none);
            let my_mark = if g % 2 == 0 { Mark::X } else { Mark::O };
            let mut pos = Position::new(rules);
            while !pos.outcome().is_over() {
                let mv = if pos.side_to_move() == my_mark {
                    me.choose_move(&pos)
                } else {
                    opp.choose_move(&pos)
                };
                pos.play(mv.unwrap()).unwrap();
            }
            score += match pos.outcome().winner() {
                Some(m) if m == my_mark => 1,
                Some(_) => -2,
                None => 0,
            };
        }
        println!("{kind} vs random on 3x3: score {score} (+1 win, -2 loss)");
        scores.push(score);
    }
    assert!(scores[3] >= scores[0], "{scores:?}");
    assert!(scores[2] > 0 && scores[3] > 0, "{scores:?}");
}

/// Plays one game of `strong` with `x_nodes` against `strong` with
/// `o_nodes`, seed `seed` for both; returns the outcome.
fn play_budgets(rules: Rules, seed: u64, x_nodes: u64, o_nodes: u64) -> Outcome {
    let strong = PlayerKind::Strong;
    play_seats(rules, (strong, seed, x_nodes), (strong, seed + 1, o_nodes))
}

#[test]
fn the_console_budget_never_loses_to_the_old_console_budget() {
    // The console's budget for these boards went from 1,000 nodes to 3,000
    // when a node got cheaper (n64/game settings::CONSOLE_NODES_SHORT_K):
    // the bigger budget must not play worse on either board (7x7 k=4 is a
    // first-player win both budgets find: the colours decide it). Since
    // strong answers an open three only with its blocks or a four, 1,000
    // nodes hold 9x9 k=5 to a draw (0-12-0; before: 6-6-0), so "wins more"
    // is no longer asked, only "never loses more".
    const OLD: u64 = 1_000;
    const NEW: u64 = 3_000;
    let (mut total_w, mut total_l) = (0, 0);
    for (c, k) in [(9u8, 5u8), (7, 4)] {
        let rules = Rules::new(c, c, k).unwrap();
        let (mut w, mut d, mut l) = (0, 0, 0);
        for g in 0..12u64 {
            let new_is_x = g % 2 == 0;
            let out = if new_is_x {
                play_budgets(rules, g, NEW, OLD)
            } else {
                play_budgets(rules, g, OLD, NEW)
            };
            let new_mark = if new_is_x { Mark::X } else { Mark::O };
            match out.winner() {
                Some(m) if m == new_mark => w += 1,
                Some(_) => l += 1,
                None => d += 1,
            }
        }
        println!("strong {NEW} nodes vs {OLD} on {rules}: {w} wins, {d} draws, {l} losses");
        assert!(
            w >= l,
            "{NEW} vs {OLD} nodes on {rules}: {w} wins, {l} losses"
        );
        total_w += w;
        total_l += l;
    }
    assert!(total_w >= total_l, "{total_w} wins, {total_l} losses");
}
