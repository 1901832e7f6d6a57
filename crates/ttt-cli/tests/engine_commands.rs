//! `ttt analyze`, `solve`, `arena`, `bench`, `completions` and the help
//! texts, through the real binary.
mod common;

use common::{stdout_of, ttt};
use predicates::prelude::*;
use serde_json::Value as Json;

fn json_of(args: &[&str]) -> Json {
    serde_json::from_str(&stdout_of(args)).expect("valid JSON")
}

#[test]
fn analyze_table() {
    let text = stdout_of(&["analyze", "xx./oo./..."]);
    assert!(text.contains("to move  X"), "{text}");
    assert!(text.contains("value    win in 1"), "{text}");
    // One row per empty cell, best (the win at 3) first.
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("move"))
        .skip(1)
        .collect();
    assert_eq!(rows.len(), 5, "{text}");
    assert!(rows[0].starts_with("3 "), "{text}");
    assert!(rows[0].ends_with("win in 1"), "{text}");
    // Plain text through a pipe: no colour codes.
    assert!(!text.contains('\x1b'), "{text}");
    // The empty board is a draw.
    assert!(stdout_of(&["analyze", "........."]).contains("value    draw"));
    // Squares in another notation.
    assert!(stdout_of(&["analyze", "--format", "coord", "xx./oo./..."]).contains("\nc1 "));
}

#[test]
fn analyze_json_parses_back() {
    let json = json_of(&["analyze", "--json", "x.o/.x./..."]);
    assert_eq!(json["board"], "x.o/.x./...");
    assert_eq!(json["to_move"], "O");
    assert_eq!(json["columns"], 3);
    assert_eq!(json["k"], 3);
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    // O must block at 9; every other move loses.
    assert_eq!(moves[0]["number"], 9);
    assert_eq!(moves[0]["value"], json["value"]);
    for m in &moves[1..] {
        assert_eq!(m["value"]["result"], "loss", "{m}");
        assert!(m["value"]["plies"].as_u64().unwrap() >= 1);
    }
    assert_eq!(json["value"]["result"], "draw");
    assert!(json["value"].get("plies").is_none());
}

#[test]
fn analyze_refuses_bad_boards() {
    ttt()
        .args(["analyze", "xxx/oo./..."])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("over"));
    ttt()
        .args(["analyze", "nonsense"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("board"));
    let big = ["................"; 16].join("/");
    ttt()
        .args(["analyze", "-k", "5", &big])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("too large"));
}

#[test]
fn solve_3x3_is_a_draw() {
    let text = stdout_of(&["solve"]);
    assert!(text.starts_with("3x3 k=3: draw"), "{text}");
    assert!(text.contains("\nproof "), "{text}");
    assert!(text.contains(" nodes/s"), "{text}");
    let json = json_of(&["solve", "--size", "3x3", "-k", "3", "--json"]);
    assert_eq!(json["value"]["result"], "draw");
    assert!(json["nodes"].as_u64().unwrap() > 0);
    // No progress display through a pipe.
    ttt().args(["solve"]).assert().success().stderr("");
}

/// The nodes, seconds and rate of a `solve` line `N nodes in T s|ms, R nodes/s`.
fn search_figures(line: &str) -> (f64, f64, f64) {
    let number = |w: &str| w.replace(',', "").parse::<f64>().unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes").unwrap();
    let nodes = number(words[at - 1]);
    let unit = if words[at + 3].starts_with("ms") {
        1e-3
    } else {
        1.0
    };
    let secs = number(words[at + 2]) * unit;
    let rate = number(words[at + 4]);
    (nodes, secs, rate)
}

#[test]
fn solve_prints_each_searchs_rate_over_its_own_time() {
    // 27 cells: the proof, then the distance (a search of its own).
    let text = stdout_of(&["solve", "--size", "9x3", "-k", "3", "--distance"]);
    assert!(text.starts_with("9x3 k=3: win in 7"), "{text}");
    for name in ["proof ", "distance "] {
        let line = text
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name}line:\n{text}"));
        let (nodes, secs, rate) = search_figures(line);
        assert!(nodes > 0.0 && secs > 0.0, "{line}");
        // The time shows three significant digits.
        let expected = nodes / secs;
        assert!(
            (rate - expected).abs() <= expected * 0.006 + 1.0,
            "{line}: {nodes} / {secs} s is {expected:.0}"
        );
    }
}

#[test]
fn solve_small_wins() {
    // k = 2 on 3x3: X wins on the third ply.
    let json = json_of(&["solve", "--size", "3", "-k", "2", "--json"]);
    assert_eq!(json["value"]["result"], "win");
    assert_eq!(json["value"]["plies"], 3);
    ttt()
        .args(["solve", "--size", "3", "-k", "4"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("win length 4"));
    ttt()
        .args(["solve", "--size", "21x3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("1 to 20"));
}

#[test]
fn solve_gives_the_same_value_on_one_thread_and_on_several() {
    // 6x5 k=4 (a win for X) and 7x6 k=5 (a draw): boards where the
    // threads split the proof; the count of threads is reported.
    for (size, k, result) in [("6x5", "4", "x-wins"), ("7x6", "5", "draw")] {
        let mut seen = Vec::new();
        for threads in ["1", "2", "3"] {
            let json = json_of(&[
                "solve",
                "--size",
                size,
                "-k",
                k,
                "--json",
                "--threads",
                threads,
            ]);
            assert_eq!(json["result"], result, "{size} {threads}: {json}");
            assert_eq!(json["threads"].as_u64().unwrap().to_string(), threads);
            seen.push(json["result"].clone());
        }
        assert!(seen.windows(2).all(|w| w[0] == w[1]), "{seen:?}");
    }
    let text = stdout_of(&["solve", "--size", "6x5", "-k", "4", "--threads", "2"]);
    assert!(text.contains("(2 threads)"), "{text}");
    for bad in ["0", "-1", "many", "257"] {
        ttt()
            .args(["solve", &format!("--threads={bad}")])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--threads"));
    }
}

#[test]
fn ctrl_c_stops_a_proof_and_says_how_far_it_came() {
    // 8x8 k=5 takes hours: after a moment, SIGINT (what Ctrl-C sends).
    let child = std::process::Command::new(common::ttt_path())
        .args([
            "solve",
            "--size",
            "8x8",
            "-k",
            "5",
            "--tt-mb",
            "64",
            "--threads",
            "2",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // (Long enough for the first progress report on a loaded machine.)
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let pid = rustix::process::Pid::from_child(&child);
    rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty(), "no result: {:?}", out.stdout);
    assert!(stderr.contains("interrupted after "), "{stderr}");
    assert!(stderr.contains("first moves settled"), "{stderr}");
    assert!(stderr.contains("no result"), "{stderr}");
}

fn arena(args: &[&str]) -> Json {
    let mut all = vec!["arena", "--json"];
    all.extend_from_slice(args);
    json_of(&all)
}

fn n(json: &Json, key: &str) -> u64 {
    json[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} in {json}"))
}

#[test]
fn arena_tallies_add_up_and_repeat_with_the_seed() {
    let args = [
        "-x", "random", "-o", "random", "--games", "200", "--seed", "5",
    ];
    let a = arena(&args);
    assert_eq!(n(&a, "games"), 200);
    assert_eq!(n(&a, "x_wins") + n(&a, "o_wins") + n(&a, "draws"), 200);
    assert_eq!(a, arena(&args), "same seed, same games");
    let text1 = stdout_of(&[
        "arena", "-x", "random", "-o", "random", "--games", "50", "--seed", "9",
    ]);
    let text2 = stdout_of(&[
        "arena", "-x", "random", "-o", "random", "--games", "50", "--seed", "9",
    ]);
    assert_eq!(text1, text2);
    assert!(text1.contains("X wins") && text1.contains("O wins") && text1.contains("draws"));

    let swapped = arena(&["-x", "random", "-o", "perfect", "--games", "60", "--swap"]);
    assert_eq!(
        n(&swapped, "x_wins") + n(&swapped, "o_wins") + n(&swapped, "draws"),
        60
    );
    assert_eq!(
        n(&swapped, "first_player_wins") + n(&swapped, "second_player_wins") + n(&swapped, "draws"),
        60
    );
    // The perfect player never loses, with either colour.
    assert_eq!(n(&swapped, "first_player_wins"), 0, "{swapped}");
    let text = stdout_of(&[
        "arena", "-x", "random", "-o", "perfect", "--games", "10", "--swap",
    ]);
    assert!(text.contains("by player:"), "{text}");
}

#[test]
fn perfect_against_perfect_always_draws() {
    let j = arena(&["-x", "perfect", "-o", "perfect", "--games", "20"]);
    assert_eq!(n(&j, "draws"), 20);
}

#[test]
fn completions_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let text = stdout_of(&["completions", shell]);
        assert!(text.len() > 200, "{shell}: {text}");
        assert!(text.contains("ttt"));
        assert!(text.contains("analyze"));
    }
    ttt().args(["completions", "tcsh-9000"]).assert().code(2);
}

#[test]
fn help_lists_play_and_every_engine_command() {
    // Each command's examples: tests/documented_commands.rs runs them.
    assert!(stdout_of(&["move", "--help"]).contains("exit status 2"));
    let assert = ttt().arg("--help").assert().success();
    let out = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    for command in [
        "play",
        "move",
        "analyze",
        "threats",
        "solve",
        "arena",
        "bench",
        "pbrain",
        "completions",
    ] {
        assert!(
            out.contains(command),
            "{command} missing from --help:\n{out}"
        );
    }
}

#[test]
fn no_subcommand_plays() {
    // Bare `ttt` is `ttt play`: through a pipe it is the line view.
    ttt()
        .args(["--mode", "two-player", "--size", "3"])
        .write_stdin("5\nq\n")
        .assert()
        .stdout(predicate::str::contains("Player O"));
}

#[test]
fn bench_prints_every_item_and_a_checksum() {
    // The quick items (the full suite takes about 10 s on an idle machine).
    let args = [
        "bench",
        "--json",
        "--only",
        "3x3-solve-all",
        "--only",
        "4,4,4",
    ];
    let json = json_of(&args);
    let items = json["items"].as_array().unwrap();
    assert_eq!(items.len(), 2, "{json}");
    for item in items {
        assert!(item["name"].as_str().is_some_and(|s| !s.is_empty()));
        assert!(item["nodes"].as_u64().unwrap() > 0, "{item}");
        assert_eq!(item["checksum"].as_str().unwrap().len(), 16);
    }
    let names: Vec<&str> = items.iter().filter_map(|i| i["name"].as_str()).collect();
    assert!(names.contains(&"4,4,4"), "{names:?}");
    let total = json["checksum"].as_str().unwrap();
    assert_eq!(total.len(), 16);
    assert!(u64::from_str_radix(total, 16).is_ok());
    assert_eq!(items[1]["value"]["result"], "draw");
    // Deterministic: the same checksums on a second run.
    let again = json_of(&args);
    assert_eq!(again["checksum"], json["checksum"]);
    // The text form ends with the total checksum.
    let text = stdout_of(&["bench", "--only", "4,4,4"]);
    assert!(
        text.lines().last().unwrap().starts_with("checksum "),
        "{text}"
    );
    let refused = ttt().args(["bench", "--only", "nope"]).assert().code(2);
    // The error names every item, and so does the help of --only.
    let error = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    let listed = error.split("choose one of ").nth(1).expect(&error);
    let help = stdout_of(&["bench", "--help"]).replace(['\n', ' '], "");
    let items: Vec<&str> = listed.lines().next().unwrap().split(", ").collect();
    assert!(items.len() >= 13, "{items:?}");
    for item in items {
        assert!(help.contains(item.trim()), "--help lacks {item}");
    }
}

#[test]
fn analyze_dash_reads_boards_from_stdin() {
    let out = ttt()
        .args(["analyze", "--json", "-"])
        .write_stdin("x........\n# a comment\n\nxx./oo./...\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<Json> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0]["board"], "x../.../...");
    assert_eq!(lines[0]["value"]["text"], "draw");
    assert_eq!(lines[1]["board"], "xx./oo./...");
    assert_eq!(lines[1]["value"]["text"], "win in 1");
    // The table form, and a bad line named by its number (exit 2).
    let table = ttt()
        .args(["analyze", "-"])
        .write_stdin("x........\nxx./oo./...\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let table = String::from_utf8(table).unwrap();
    assert!(
        table.starts_with("board    x../.../...  (3x3 k=3)\n"),
        "{table}"
    );
    assert!(
        table.contains("\n\nboard    xx./oo./...  (3x3 k=3)\n"),
        "{table}"
    );
    ttt()
        .args(["analyze", "-"])
        .write_stdin("x........\nxxx/oo./...\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "stdin line 2: board \"xxx/oo./...\"",
        ));
}

/// `ttt args...` with its address space limited to 1 GiB, as on a small
/// machine or under a container's memory limit.
fn ttt_in_1gib(args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_ttt"))
        .args(args)
        .output()
        .expect("run sh")
}

#[test]
fn a_huge_table_is_not_allocated_for_a_small_board() {
    // --tt-mb 4096 used to reserve (and zero) 4 GiB before a 3x3 search:
    // under a 1 GiB limit that failed, and elsewhere it took seconds.
    let out = ttt_in_1gib(&["move", "--tt-mb", "4096", "x........"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "5\n");
    let out = ttt_in_1gib(&["analyze", "--tt-mb", "4096", "x.o/.x./..."]);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("value    draw"));
    let out = ttt_in_1gib(&["arena", "--tt-mb", "4096", "-x", "perfect", "-o", "perfect"]);
    assert!(out.status.success(), "{out:?}");
    let out = ttt_in_1gib(&["solve", "--tt-mb", "4096"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("draw") && text.contains("table    1 MiB"),
        "{text}"
    );
    // A board that can use the whole table still asks for all of it, and a
    // refusal is a clear input error.
    let out = ttt_in_1gib(&[
        "move",
        "--tt-mb",
        "4096",
        "--ai",
        "strong",
        &["......"; 6].join("/"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("choose a smaller --tt-mb"));
}

#[test]
fn tactics_runs_and_checks_a_suite_file() {
    // The first position of each kind of the compiled-in suite.
    let mut lines: Vec<&str> = Vec::new();
    for kind in ["vcf ", "vct ", "defend "] {
        let line = ttt_core::ai::tactics::SUITE
            .lines()
            .find(|l| l.starts_with(kind))
            .expect("a position of every kind");
        lines.push(line);
    }
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.txt");
    std::fs::write(&suite, lines.join("\n")).unwrap();
    let path = suite.to_str().unwrap();
    let text = stdout_of(&["tactics", "run", "--suite", path, "--nodes", "2000"]);
    assert!(text.contains("/3 at 2,000 nodes"), "{text}");
    assert!(text.contains("defend "), "{text}");
    let text = stdout_of(&["tactics", "check", "--suite", path]);
    assert!(text.contains("3 positions, 0 bad"), "{text}");
    // A vcf position claimed to be a vct one fails the check.
    let wrong = lines[0].replacen("vcf ", "vct ", 1);
    std::fs::write(&suite, wrong).unwrap();
    ttt()
        .args(["tactics", "check", "--suite", path])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "line 1: the position is not of its kind",
        ));
    // The command is for developers: not in the help.
    let help = stdout_of(&["--help"]);
    assert!(!help.contains("tactics"), "{help}");
}

#[test]
fn a_table_of_0_mib_is_an_error_not_1_mib() {
    // Issue 51: `--tt-mb 0` silently meant 1 MiB.
    for command in [
        &["solve"][..],
        &["move", "x........"],
        &["analyze", "x........"],
        &["arena", "--games", "1"],
        &["bench", "--only", "4,4,4"],
    ] {
        ttt()
            .args(command)
            .args(["--tt-mb", "0"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(
                "invalid value '0' for '--tt-mb <MIB>': the table needs at least 1 MiB",
            ));
    }
    ttt()
        .args(["solve", "--tt-mb", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("3x3 k=3: draw"));
}
