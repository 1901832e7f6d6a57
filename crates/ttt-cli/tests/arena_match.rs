//! `ttt arena` with external engines: pbrain-ttt against itself, and a
//! scripted fake engine whose bad moves, timeouts and crashes must be scored
//! as forfeits with a message while the match goes on.
mod common;

use std::fs;
use std::path::PathBuf;
use std::process::Output;
use std::time::{Duration, Instant};

use common::ttt;
use serde_json::Value as Json;

/// The fake engine (an example of this crate, built by `cargo test`).
fn fake_engine() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/deps/arena_match-<hash> -> target/<profile>/examples/
    let dir = exe.parent().unwrap().parent().unwrap();
    let path = dir.join("examples").join("fake-engine");
    assert!(
        path.exists(),
        "{} is missing: `cargo test` builds it, or `cargo build --example fake-engine`",
        path.display()
    );
    path
}

fn fake(args: &str) -> String {
    format!("'{}' {args}", fake_engine().display())
}

fn pbrain() -> String {
    format!("'{}'", env!("CARGO_BIN_EXE_pbrain-ttt"))
}

fn arena(args: &[&str]) -> Output {
    ttt()
        .arg("arena")
        .args(args)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap()
}

fn json_of(out: &Output) -> Json {
    assert!(
        out.status.success(),
        "status {:?}\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn n(json: &Json, key: &str) -> u64 {
    json[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} in {json}"))
}

/// A field of a record line: `key="..."` (unescaped) or `key=token`.
fn field(line: &str, key: &str) -> String {
    let start = line
        .find(&format!(" {key}="))
        .map(|i| i + key.len() + 2)
        .or_else(|| {
            line.starts_with(&format!("{key}="))
                .then_some(key.len() + 1)
        })
        .unwrap_or_else(|| panic!("{key} in {line}"));
    let rest = &line[start..];
    if let Some(quoted) = rest.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = quoted.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => out.extend(chars.next()),
                '"' => break,
                c => out.push(c),
            }
        }
        out
    } else {
        rest.split(' ').next().unwrap_or("").to_string()
    }
}

#[test]
fn games_zero_is_refused_like_play_games_zero() {
    // Issue 11 item 11: `arena --games 0` was accepted (exit 0, "0 games").
    let out = arena(&["-x", "random", "-o", "random", "--games", "0"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error") && err.contains("--games"), "{err}");
    assert!(out.stdout.is_empty());
    let play = ttt().args(["play", "--games", "0"]).output().unwrap();
    assert_eq!(play.status.code(), out.status.code());
}

#[test]
fn built_in_players_share_out_a_game_clock() {
    // 2 s a game each and no turn limit: a move may take a seventh of what
    // is left (under 286 ms), not the whole clock (the first move used to
    // take all 2 s and leave nothing for the rest).
    let out = arena(&[
        "-x",
        "strong",
        "-o",
        "strong",
        "--size",
        "15",
        "--openings",
        "--games",
        "2",
        "--game-time",
        "2000",
        "--seed",
        "4",
        "--json",
    ]);
    let j = json_of(&out);
    assert_eq!(n(&j, "games"), 2, "{j}");
    assert_eq!(n(&j, "first_player_forfeits"), 0, "{j}");
    assert_eq!(n(&j, "second_player_forfeits"), 0, "{j}");
    for side in ["first_player_max_ms", "second_player_max_ms"] {
        let ms = j[side].as_f64().unwrap();
        // The deadline is checked every 1,024 nodes: a few ms late at most,
        // more on a loaded machine.
        assert!(ms < 500.0, "{side} {ms}: {j}");
    }
}

#[test]
fn pbrain_ttt_plays_itself_from_balanced_openings() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("games.txt");
    let engine = pbrain();
    let out = arena(&[
        "--engine-x",
        &engine,
        "--engine-o",
        &engine,
        "--size",
        "15",
        "--openings",
        "--games",
        "2",
        "--time",
        "60",
        "--grace",
        "2000",
        "--seed",
        "3",
        "--record",
        record.to_str().unwrap(),
        "--json",
    ]);
    let j = json_of(&out);
    assert_eq!(n(&j, "games"), 2);
    assert_eq!(n(&j, "first_player_forfeits"), 0, "{j}");
    assert_eq!(n(&j, "second_player_forfeits"), 0, "{j}");
    assert_eq!(j["rules"], "15x15 k=5");
    let pairs = &j["pairs"];
    let pair_total: u64 = ["two", "one_and_half", "one", "half", "zero"]
        .iter()
        .map(|k| n(pairs, k))
        .sum();
    assert_eq!(pair_total, 1, "{j}");
    assert!(j["elo"]["score"].is_number(), "{j}");
    let text = fs::read_to_string(&record).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    // The same opening twice, colours swapped; a real game each time.
    let opening = field(lines[0], "opening");
    let stones = opening.split(' ').count();
    assert!((2..=4).contains(&stones), "{opening}");
    assert_eq!(field(lines[1], "opening"), opening);
    for line in &lines {
        let moves = field(line, "moves");
        assert!(moves.starts_with(&opening), "{line}");
        // A line of five takes at least nine moves.
        assert!(moves.split(' ').count() >= 9, "{line}");
        let result = field(line, "result");
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()),
            "{line}"
        );
        let reason = field(line, "reason");
        assert!(!reason.contains("forfeit"), "{line}");
        assert_eq!(field(line, "rules"), "15x15 k=5");
    }
}

/// A 15x15 match of the built-in random players from the openings of
/// `file`.
fn random_from_openings(file: &str, games: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "-x",
        "random",
        "-o",
        "random",
        "--size",
        "15",
        "--openings-file",
        file,
        "--games",
        games,
    ];
    args.extend_from_slice(extra);
    arena(&args)
}

/// The openings file shipped with the program: each opening is played
/// twice, colours swapped, in the file's order.
#[test]
fn an_openings_file_is_played_in_order_with_colours_swapped() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/freestyle-15x15.txt");
    let listed: Vec<String> = fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    assert!(listed.len() >= 20, "{} openings", listed.len());
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("games.txt");
    let out = random_from_openings(file, "4", &["--record", record.to_str().unwrap(), "--json"]);
    let j = json_of(&out);
    assert_eq!(j["openings_file"], file, "{j}");
    assert!(j["swap"].as_bool().unwrap(), "{j}");
    let text = fs::read_to_string(&record).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for (i, line) in lines.iter().enumerate() {
        let opening = field(line, "opening");
        let wanted: Vec<&str> = listed[i / 2].split_whitespace().collect();
        assert_eq!(opening.split(' ').collect::<Vec<_>>(), wanted, "{line}");
        assert!(field(line, "moves").starts_with(&opening), "{line}");
    }
    // Colours swapped within a pair.
    assert_eq!(field(lines[0], "x"), field(lines[1], "o"));
}

/// --openings-skip: a second sample of the same file.
#[test]
fn openings_skip_starts_further_down_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("three.txt");
    fs::write(&file, "# three openings\nh8 i9 g7\nh8 h9\nh8 g9 i7 j9\n").unwrap();
    let file = file.to_str().unwrap();
    let record = dir.path().join("games.txt");
    let out = random_from_openings(
        file,
        "2",
        &["--openings-skip", "2", "--record", record.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("from opening 3"), "{stdout}");
    let text = fs::read_to_string(&record).unwrap();
    for line in text.lines() {
        assert_eq!(field(line, "opening"), "h8 g9 i7 j9", "{line}");
    }
    // Past what is left: refused before a game, saying why.
    let out = random_from_openings(file, "4", &["--openings-skip", "2"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("has 3 openings (1 after --openings-skip 2), enough for 2 games, not 4"),
        "{stderr}"
    );
    // Without a file it means nothing: clap says so.
    let out = arena(&["-x", "random", "-o", "random", "--openings-skip", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--openings-file"));
}

#[test]
fn bad_openings_files_are_refused_before_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let one = write("one.txt", "h8 i9 g7\n");
    let bad_square = write("bad.txt", "h8 i9\nh8 q9\n");
    let taken = write("taken.txt", "h8 h8\n");
    let empty = write("empty.txt", "# nothing yet\n");
    let missing = dir.path().join("missing.txt");
    let missing = missing.to_str().unwrap();
    for (file, games, message) in [
        (
            one.as_str(),
            "4",
            "has 1 opening, enough for 2 games, not 4",
        ),
        (one.as_str(), "3", "--games must be even"),
        (bad_square.as_str(), "2", "line 2: \"q9\" is not a square"),
        (taken.as_str(), "2", "line 1: h8 cannot be played"),
        (empty.as_str(), "2", "no openings"),
        (missing, "2", "missing.txt"),
    ] {
        let out = random_from_openings(file, games, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{file}: {err}");
        assert!(err.contains(message), "{file}: {err}");
        assert!(out.stdout.is_empty(), "{file}");
    }
}

/// One match of the fake engine (as -x) against the built-in random player.
fn fake_match(fault_args: &str, games: &str, extra: &[&str]) -> (Json, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("games.txt");
    let engine = fake(fault_args);
    let mut args = vec![
        "--engine-x",
        engine.as_str(),
        "-o",
        "random",
        "--size",
        "15",
        "--swap",
        "--games",
        games,
        "--record",
        record.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    let out = arena(&args);
    let j = json_of(&out);
    let records = fs::read_to_string(&record).unwrap();
    (
        j,
        records,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_message_over_the_line_limit_is_dropped_not_taken_for_the_move() {
    // Issue 51: a MESSAGE line of 65,600 bytes (over the 64 KiB limit)
    // was judged as the engine's move, a forfeit ("unreadable move").
    let (j, records, stderr) = fake_match("--fault long-message --at 2", "2", &[]);
    assert_eq!(n(&j, "first_player_forfeits"), 0, "{records}\n{stderr}");
    assert_eq!(n(&j, "second_player_forfeits"), 0, "{records}\n{stderr}");
    assert_eq!(records.lines().count(), 2, "{records}");
}

#[test]
fn impossible_keeps_the_move_time_on_boards_it_solves() {
    // Issue 51: on 5x5 the exact solver thought for over 5 s a move with
    // 150 ms to play, a forfeit; out of time it plays the search's move.
    let out = arena(&[
        "-x",
        "impossible",
        "-o",
        "random",
        "--size",
        "5x5",
        "--games",
        "2",
        "--time",
        "150",
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let j = json_of(&out);
    assert_eq!(n(&j, "first_player_forfeits"), 0, "{j}\n{stderr}");
    assert_eq!(n(&j, "second_player_forfeits"), 0, "{j}\n{stderr}");
    assert_eq!(n(&j, "games"), 2, "{j}");
}

#[test]
fn bad_moves_crashes_and_timeouts_are_forfeits_with_a_message() {
    let cases: [(&str, &str); 6] = [
        ("--fault illegal --at 2", "illegal move"),
        (
            "--fault offboard --at 1",
            "illegal move 99,99: off the 15x15 board",
        ),
        ("--fault garbage --at 2", "unreadable move \"banana\""),
        ("--fault error --at 1", "answered \"ERROR out of cheese\""),
        ("--fault crash --at 2", "fake-engine: crashing on purpose"),
        ("--fault timeout --at 2", "timeout: no move"),
    ];
    for (fault, message) in cases {
        let (j, records, stderr) = fake_match(fault, "2", &["--time", "300", "--grace", "300"]);
        // The fake loses both games (one with each colour) by forfeit: the
        // engine was restarted or reset for the second game.
        assert_eq!(n(&j, "first_player_forfeits"), 2, "{fault}: {j}\n{stderr}");
        assert_eq!(n(&j, "second_player_wins"), 2, "{fault}: {j}");
        assert_eq!(n(&j, "second_player_forfeits"), 0, "{fault}: {j}");
        let lines: Vec<&str> = records.lines().collect();
        assert_eq!(lines.len(), 2, "{records}");
        for (i, line) in lines.iter().enumerate() {
            let loser = if i == 0 { "X" } else { "O" };
            let reason = field(line, "reason");
            assert!(
                reason.starts_with(&format!("{loser} forfeits: ")) && reason.contains(message),
                "{fault}: {line}"
            );
            let result = if i == 0 { "0-1" } else { "1-0" };
            assert_eq!(field(line, "result"), result, "{line}");
        }
        assert!(
            stderr.contains("game 1: X (") && stderr.contains(message),
            "{fault}: {stderr}"
        );
    }
    // A crash also says how the engine exited.
    let (_, records, _) = fake_match("--fault crash --at 1", "2", &[]);
    assert!(records.contains("exit status: 3"), "{records}");
}

#[test]
fn under_renju_a_forbidden_move_of_black_loses() {
    // The fake (X, black) makes two threes crossing at the centre, then
    // plays the double three; `standard` (O) takes corners meanwhile.
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("games.txt");
    let log = dir.path().join("log.txt");
    let engine = fake(&format!("--fault forbidden --log '{}'", log.display()));
    let args = [
        "--engine-x",
        engine.as_str(),
        "-o",
        "standard",
        "--size",
        "15",
        "--renju",
        "--games",
        "1",
        "--record",
        record.to_str().unwrap(),
        "--json",
    ];
    let out = arena(&args);
    let j = json_of(&out);
    assert_eq!(n(&j, "first_player_forfeits"), 1, "{j}");
    let records = fs::read_to_string(&record).unwrap();
    let line = records.lines().next().unwrap();
    assert_eq!(
        field(line, "reason"),
        "X forfeits: forbidden move 7,7 (renju): a double three",
        "{line}"
    );
    assert!(fs::read_to_string(&log).unwrap().contains("INFO rule 4"));
    // Without --renju the same move is a double three that wins later.
    let out = arena(&args.map(|a| if a == "--renju" { "--swap" } else { a }));
    assert_eq!(n(&json_of(&out), "first_player_forfeits"), 0);
    // Renju is refused where it is not played.
    let out = arena(&["-x", "random", "-o", "random", "--size", "9", "--renju"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--renju: renju is played with k=5"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_late_move_within_the_grace_margin_counts() {
    let (j, records, stderr) = fake_match(
        "--fault late --at 1 --delay-ms 150",
        "2",
        &["--time", "100", "--grace", "1500"],
    );
    assert_eq!(n(&j, "first_player_forfeits"), 0, "{records}\n{stderr}");
    assert!(j["first_player_max_ms"].as_f64().unwrap() >= 140.0, "{j}");
    // Beyond the margin it is a timeout, measured and reported.
    let (j, records, _) = fake_match(
        "--fault late --at 1 --delay-ms 700",
        "2",
        &["--time", "100", "--grace", "100"],
    );
    assert_eq!(n(&j, "first_player_forfeits"), 2, "{records}");
    assert!(records.contains("timeout: no move"), "{records}");
}

#[test]
fn the_protocol_flow_and_restarts_show_in_the_engine_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.txt");
    let log_arg = format!("--log '{}'", log.display());
    // A well-behaved fake: one process for the whole match.
    let (j, records, _) = fake_match(
        &log_arg,
        "2",
        &["--openings", "3", "--time", "2000", "--game-time", "60000"],
    );
    assert_eq!(n(&j, "games"), 2, "{records}");
    let text = fs::read_to_string(&log).unwrap();
    let pids: std::collections::BTreeSet<&str> =
        text.lines().filter_map(|l| l.split(' ').next()).collect();
    assert_eq!(pids.len(), 1, "{text}");
    let commands: Vec<&str> = text.lines().map(|l| l.split_once(' ').unwrap().1).collect();
    assert_eq!(commands[0], "START 15", "{text}");
    for expected in [
        "INFO timeout_turn 2000",
        "INFO timeout_match 60000",
        "INFO rule 0",
        "RESTART",
        "BOARD",
        "DONE",
        "END",
    ] {
        assert!(commands.contains(&expected), "{expected}: {text}");
    }
    assert!(
        commands.iter().any(|c| c.starts_with("INFO time_left ")),
        "{text}"
    );
    assert!(commands.iter().any(|c| c.starts_with("TURN ")), "{text}");
    assert_eq!(commands.last(), Some(&"END"), "{text}");
    // The opening (3 stones: X O X, O to move) reaches the fake as O in game
    // 2: its BOARD has its own stone (field 1) and two of the opponent's.
    let opening = field(records.lines().next().unwrap(), "opening");
    assert_eq!(opening.split(' ').count(), 3);

    // A crashing fake is started afresh for the next game.
    fs::remove_file(&log).unwrap();
    let (j, _, _) = fake_match(&format!("{log_arg} --fault crash --at 2"), "2", &[]);
    assert_eq!(n(&j, "first_player_forfeits"), 2);
    let text = fs::read_to_string(&log).unwrap();
    let pids: std::collections::BTreeSet<&str> =
        text.lines().filter_map(|l| l.split(' ').next()).collect();
    assert_eq!(pids.len(), 2, "{text}");
    // Without --game-time: timeout_match 0 and no time_left lines (an INFO
    // between moves is one more line an engine can misread).
    assert!(text.contains("INFO timeout_match 0"), "{text}");
    assert!(!text.contains("time_left"), "{text}");
}

#[test]
fn an_engine_that_ignores_end_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.txt");
    let started = Instant::now();
    let (j, _, _) = fake_match(
        &format!("--log '{}' --fault ignore-end", log.display()),
        "1",
        &[],
    );
    assert_eq!(n(&j, "games"), 1);
    assert!(started.elapsed() < Duration::from_secs(20));
    let text = fs::read_to_string(&log).unwrap();
    assert!(text.lines().any(|l| l.ends_with(" END")), "{text}");
    let pid = text.lines().next().unwrap().split(' ').next().unwrap();
    // Gone (or at most a zombie waiting for its new parent to reap it).
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat.rsplit(')').next().unwrap_or("").trim_start();
    assert!(stat.is_empty() || state.starts_with('Z'), "{stat}");
}

#[test]
fn matches_that_cannot_be_played_are_refused() {
    let engine = fake("");
    for (args, message) in [
        (
            vec!["--engine-x", engine.as_str(), "-o", "random"],
            "five in a row",
        ),
        (
            vec![
                "-x",
                "random",
                "-o",
                "random",
                "--size",
                "15",
                "--openings",
                "--games",
                "3",
            ],
            "must be even",
        ),
        (
            vec!["-x", "random", "--engine-o", "", "--size", "15"],
            "the command is empty",
        ),
        (vec!["-x", "random", "--size", "15"], "-o"),
        (
            vec![
                "-x",
                "random",
                "--engine-x",
                engine.as_str(),
                "-o",
                "random",
            ],
            "cannot be used with",
        ),
        (
            vec!["-x", "random", "-o", "random", "--openings", "4-2"],
            "empty",
        ),
    ] {
        let out = arena(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // An engine that does not start is an error, not a match of forfeits.
    let out = arena(&[
        "--engine-x",
        "/nonexistent/engine",
        "-o",
        "random",
        "--size",
        "15",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--engine-x: the engine could not start"),
        "{err}"
    );
    assert!(err.contains("not found"), "{err}");
}

#[test]
fn the_protocol_client_adds_little_time_per_move() {
    // The fake answers at once: what the clock measures is the client's
    // own overhead (a pipe trip each way and a thread hop).
    let (j, _, _) = fake_match("", "4", &[]);
    let mean = j["first_player_ms_per_move"].as_f64().unwrap();
    assert!(mean > 0.0 && mean < 50.0, "{j}");
}
