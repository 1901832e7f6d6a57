//! `ttt move` through the real binary.
mod common;

use std::collections::HashMap;
use std::time::Instant;

use common::{stdout_of, ttt};
use predicates::prelude::*;
use ttt_core::rng::Rng;
use ttt_core::{Outcome, Position, Rules, Square};

#[test]
fn takes_the_win_in_every_format() {
    // X to move: xx. completes the top row at square 3 = c1 = row 1, column 3.
    assert_eq!(stdout_of(&["move", "xx./oo./..."]), "3\n");
    assert_eq!(
        stdout_of(&["move", "--format", "number", "xx./oo./..."]),
        "3\n"
    );
    assert_eq!(
        stdout_of(&["move", "--format", "coord", "xx./oo./..."]),
        "c1\n"
    );
    assert_eq!(
        stdout_of(&["move", "--format", "rowcol", "xx./oo./..."]),
        "1 3\n"
    );
    // Without '/': nine characters are a 3x3 board.
    assert_eq!(stdout_of(&["move", "xx.oo...."]), "3\n");
}

#[test]
fn blocks_the_forced_square_in_every_format() {
    // O to move; X threatens the diagonal a1-b2-c3: O must take c3 (square 9).
    assert_eq!(stdout_of(&["move", "x.o/.x./..."]), "9\n");
    assert_eq!(
        stdout_of(&["move", "--format", "coord", "x.o/.x./..."]),
        "c3\n"
    );
    assert_eq!(
        stdout_of(&["move", "--format", "rowcol", "x.o/.x./..."]),
        "3 3\n"
    );
    // Rectangular board with explicit k: X to move wins at d1 (4 in a row).
    assert_eq!(
        stdout_of(&[
            "move",
            "-k",
            "4",
            "--format",
            "coord",
            "xxx../oo.../o..../....."
        ]),
        "d1\n"
    );
}

#[test]
fn one_line_per_board_in_order() {
    assert_eq!(
        stdout_of(&["move", "xx./oo./...", "x.o/.x./...", "oo./xx./x.."]),
        "3\n9\n3\n"
    );
}

#[test]
fn finished_and_malformed_boards_fail_with_status_2() {
    ttt()
        .args(["move", "xxx/oo./..."])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("argument 1").and(predicate::str::contains("X has won")));
    ttt()
        .args(["move", "xox/xoo/oxx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("draw"));
    ttt()
        .args(["move", "xx./.../..."])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("X must have as many marks as O"));
    ttt()
        .args(["move", "x.o/.x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("row 2"));
    ttt()
        .args(["move", "hello"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a square board"));
    ttt()
        .args(["move", "xq./.../..."])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unexpected 'q'"));
    ttt()
        .args(["move", "-k", "9", "........."])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("win length 9"));
    // A batch stops at the first bad board; the moves before it are printed.
    ttt()
        .args(["move", "xx./oo./...", "oops", "x.o/.x./..."])
        .assert()
        .code(2)
        .stdout("3\n")
        .stderr(predicate::str::contains("argument 2"));
}

#[test]
fn stdin_batch_reports_the_line_number() {
    ttt()
        .args(["move", "-"])
        .write_stdin("xx./oo./...\n\n# a comment\nxxx/oo./...\nx.o/.x./...\n")
        .assert()
        .code(2)
        .stdout("3\n")
        .stderr(predicate::str::contains("stdin line 4"));
}

#[test]
fn unknown_player_lists_the_names() {
    ttt()
        .args(["move", "--ai", "deep-blue", "........."])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("unknown player").and(predicate::str::contains("perfect")),
        );
}

/// Exact values of every 3x3 position, by plain negamax: +1 win, 0 draw, -1
/// loss for the side to move (speed of the win is not needed here).
fn values(pos: &mut Position, memo: &mut HashMap<String, i8>) -> i8 {
    if let Outcome::Win(_) = pos.outcome() {
        return -1;
    }
    if pos.outcome() == Outcome::Draw {
        return 0;
    }
    let key = pos.to_string();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = -2;
    for m in pos.legal_moves() {
        pos.play(m).unwrap();
        best = best.max(-values(pos, memo));
        pos.undo();
    }
    memo.insert(key, best);
    best
}

/// 10,000 in-progress 3x3 boards from seeded random games.
fn random_boards(n: usize) -> Vec<Position> {
    let mut rng = Rng::new(2024);
    let mut boards = Vec::with_capacity(n);
    while boards.len() < n {
        let mut pos = Position::new(Rules::CLASSIC);
        let plies = rng.below(9);
        for _ in 0..plies {
            let moves: Vec<Square> = pos.legal_moves().into_iter().collect();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len() as u32) as usize])
                .unwrap();
        }
        if !pos.outcome().is_over() {
            let board = Position::from_board(&pos.to_string(), None).unwrap();
            boards.push(board);
        }
    }
    boards
}

#[test]
fn batch_of_10000_boards_with_the_perfect_player() {
    let boards = random_boards(10_000);
    let input: String = boards.iter().map(|b| format!("{b}\n")).collect();
    let start = Instant::now();
    let out = ttt()
        .args(["move", "--ai", "perfect", "-"])
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let elapsed = start.elapsed();
    eprintln!("ttt move --ai perfect - : 10,000 boards in {elapsed:?}");
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), boards.len());
    let mut memo = HashMap::new();
    for (board, line) in boards.iter().zip(&lines) {
        let square = Rules::CLASSIC.parse_square(line).unwrap();
        assert!(board.is_legal(square), "{board}: {line} is not legal");
        // The move keeps the position's exact value: perfect play.
        let mut pos = board.clone();
        let best = values(&mut pos, &mut memo);
        pos.play(square).unwrap();
        assert_eq!(
            -values(&mut pos, &mut memo),
            best,
            "{board}: {line} is not best"
        );
    }
    // Under a second (release build; measured about 0.14 s on 2 busy cores).
    // TTT_BATCH_LIMIT_MS raises the limit for slow or debug builds.
    let limit = std::env::var("TTT_BATCH_LIMIT_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    assert!(
        elapsed.as_millis() < limit,
        "10,000 boards took {elapsed:?} (limit {limit} ms)"
    );
}

#[test]
fn same_seed_same_random_moves() {
    let a = stdout_of(&[
        "move",
        "--ai",
        "random",
        "--seed",
        "7",
        ".........",
        "x........",
    ]);
    let b = stdout_of(&[
        "move",
        "--ai",
        "random",
        "--seed",
        "7",
        ".........",
        "x........",
    ]);
    assert_eq!(a, b);
}

#[test]
fn large_boards_use_the_search_within_the_time_given() {
    let board = ["..............."; 15].join("/");
    let start = Instant::now();
    let out = stdout_of(&[
        "move", "-k", "5", "--time", "300", "--format", "coord", &board,
    ]);
    assert!(start.elapsed().as_secs_f64() < 5.0);
    let square = Rules::new(15, 15, 5)
        .unwrap()
        .parse_square(out.trim())
        .unwrap();
    assert!(square.column() < 15 && square.row() < 15, "{out}");
    // Four in a row with an open end: the search finds the fifth.
    let mut rows = vec!["..............."; 15];
    rows[7] = "....xxxx.......";
    rows[9] = "ooo............";
    rows[0] = "..............o";
    let board = rows.join("/");
    let out = stdout_of(&[
        "move", "-k", "5", "--time", "300", "--format", "coord", &board,
    ]);
    assert!(out == "d8\n" || out == "i8\n", "{out}");
    // The exact solver refuses boards it cannot finish.
    ttt()
        .args(["move", "--ai", "perfect", "-k", "5", &board])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot solve"));
}

/// Waits for `child` (a process group leader) up to `secs` seconds; kills
/// its group and fails if it runs on.
fn wait_within(child: &mut std::process::Child, secs: u64) -> std::process::ExitStatus {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if std::time::Instant::now() > end {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            panic!("still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn move_stdin_answers_each_line_at_once() {
    use std::io::{BufRead, BufReader, Write};
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
        .args(["move", "-"])
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // One board at a time, stdin kept open: each answer comes before the next.
    for (board, answer) in [("x.o/.x./...", "9"), ("xx./oo./...", "3")] {
        writeln!(stdin, "{board}").unwrap();
        stdin.flush().unwrap();
        let got = rx.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(got.as_deref(), Ok(answer), "no answer while stdin is open");
    }
    drop(stdin);
    assert!(wait_within(&mut child, 10).success());
}

#[test]
fn move_stdin_stops_when_its_reader_is_gone() {
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    // An endless stream of boards into `move -`, read by `head -1`; each
    // takes 50 ms, so going on to fill an output buffer would take minutes.
    let board = vec![".".repeat(9); 9].join("/");
    let script = format!(
        "yes {board} | {} move -k 5 --ai strong --time 50 - | head -1",
        env!("CARGO_BIN_EXE_ttt")
    );
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_within(&mut child, 20);
    let out = child.wait_with_output().unwrap();
    assert!(status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "quiet on EPIPE");
}

#[test]
fn move_stdin_invalid_utf8_is_bad_input_on_its_line() {
    ttt()
        .args(["move", "-"])
        .write_stdin(b"x........\n\xff\xfe.......\nxx./oo./...\n".to_vec())
        .assert()
        .code(2)
        .stdout("5\n")
        .stderr(predicates::str::contains(
            "ttt: error: stdin line 2: the line is not valid UTF-8 text",
        ));
}

/// An empty 15x15 board but for an open four of X on row 8 (e8-h8) and four
/// scattered O marks: X to move.
fn open_four_15x15() -> String {
    let mut rows = vec!["...............".to_string(); 15];
    rows[7] = "....xxxx.......".to_string();
    rows[0] = "o.............o".to_string();
    rows[14] = "o.............o".to_string();
    rows.join("/")
}

#[test]
fn big_boards_default_to_five_in_a_row_and_say_so() {
    // With the old default (k = 15) the open four was no threat at all.
    let assert = ttt()
        .args(["move", "--format", "coord", &open_four_15x15()])
        .assert()
        .success();
    let out = assert.get_output();
    let square = String::from_utf8_lossy(&out.stdout);
    assert!(
        square == "d8\n" || square == "i8\n",
        "X should complete five in a row, played {square:?}"
    );
    let note = String::from_utf8_lossy(&out.stderr);
    assert!(
        note.contains("k=5"),
        "stderr should name the k used: {note:?}"
    );
    // An explicit -k needs no note, and is obeyed.
    ttt()
        .args(["move", "-k", "5", "--format", "coord", &open_four_15x15()])
        .assert()
        .success()
        .stderr("");
    // Up to 9x9 the default stays a full row (the seeds' N by N games),
    // which needs no note (issue 23: it was noise on 3x3).
    ttt()
        .args(["move", "xx./oo./..."])
        .assert()
        .success()
        .stdout("3\n")
        .stderr("");
}

#[test]
fn the_default_win_length_is_noted_only_where_it_is_not_a_whole_row() {
    let classic = ttt().args(["move", "x.o/.x./..o"]).output().unwrap();
    assert!(classic.status.success());
    assert_eq!(
        String::from_utf8_lossy(&classic.stderr),
        "",
        "3x3 k=3 needs no note"
    );
    let gomoku = [".........."; 10].join("/");
    let big = ttt().args(["move", &gomoku]).output().unwrap();
    assert!(big.status.success());
    assert!(
        String::from_utf8_lossy(&big.stderr)
            .contains("10x10 k=5 (the default win length; -k to change)"),
        "{}",
        String::from_utf8_lossy(&big.stderr)
    );
}
