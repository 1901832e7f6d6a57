//! The line view, driven through pipes: the real `ttt` binary, scripted input,
//! exact output and exit codes.
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

/// Runs `ttt args` with `input` on stdin, the record redirected to `data`.
fn ttt_in(data: &Path, args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
        .args(args)
        .env("XDG_DATA_HOME", data)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ttt");
    // The program may stop reading early (q, an error); ignore a broken pipe.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    let out = child.wait_with_output().expect("wait for ttt");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn ttt(args: &[&str], input: &str) -> Run {
    let data = tempfile::tempdir().expect("temp dir");
    ttt_in(data.path(), args, input)
}

/// The computer's announced moves, in order.
fn computer_moves(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("I am choosing square "))
        .map(|l| l.trim_end_matches('!').to_string())
        .collect()
}

#[test]
fn classic_you_first_follows_cs102_and_draws() {
    // You 1 -> centre 5; you 2 -> it blocks 3; you 7 (block) -> it blocks 4;
    // you 6 (block) -> first free corner 9; you 8 fills the board: a draw.
    let r = ttt(
        &["--plain", "--ai", "classic", "--seed", "1"],
        "y\n1\n2\n7\n6\n8\nn\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r
        .stdout
        .contains("Do you want to go first? (y/n) [r = random]"));
    assert_eq!(
        computer_moves(&r.stdout),
        ["5", "3", "4", "9"],
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("The game is a draw."));
    assert!(r
        .stdout
        .contains("Score - You: 0 | Computer (classic): 0 | Draws: 1"));
    assert!(r.stdout.contains("Do you want to play again? (y/n)"));
    assert!(r.stdout.trim_end().ends_with("Thanks for playing!"));
}

#[test]
fn classic_computer_first_wins() {
    // It takes 5; you 1 -> corner 3; you 7 (block) -> it blocks 4; you 2 -> it wins at 6.
    let r = ttt(
        &["--plain", "--ai", "classic", "--seed", "2"],
        "n\n1\n7\n2\nn\n",
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("You are O; I am X."));
    assert_eq!(
        computer_moves(&r.stdout),
        ["5", "3", "4", "6"],
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("I WIN!!!"));
    // The winning line 4-5-6 is highlighted.
    assert!(r.stdout.contains(" 2 [X]|[X]|[X]"), "{}", r.stdout);
    assert!(r
        .stdout
        .contains("Score - You: 0 | Computer (classic): 1 | Draws: 0"));
}

#[test]
fn you_can_beat_classic_and_play_again() {
    // You 1 -> 5; you 9 -> corner 3; you 7 (block): two threats (4 and 8),
    // it blocks the last one found, 8; you 4 wins.
    let r = ttt(
        &[
            "--plain", "--ai", "classic", "--first", "you", "--seed", "3",
        ],
        "1\n9\n7\n4\ny\nq\n",
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert_eq!(computer_moves(&r.stdout), ["5", "3", "8"], "{}", r.stdout);
    assert!(r.stdout.contains("Congratulations, you win!"));
    assert!(r
        .stdout
        .contains("Score - You: 1 | Computer (classic): 0 | Draws: 0"));
    assert!(r.stdout.contains("Exiting the game..."));
}

#[test]
fn two_players_and_every_square_notation() {
    // X: 1, b1 (= 2), "1 3" (row 1, column 3) wins the top row.
    let r = ttt(
        &["--plain", "--mode", "two-player"],
        "1\n4\nb1\n2,2\n1 3\nn\n",
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("Player X, enter a square: "));
    assert!(r.stdout.contains("Player O, enter a square: "));
    assert!(r.stdout.contains("Player X wins!"));
    assert!(r.stdout.contains(" 1 [X]|[X]|[X]"), "{}", r.stdout);
    assert!(r
        .stdout
        .contains("Score - Player X: 1 | Player O: 0 | Draws: 0"));
    assert!(computer_moves(&r.stdout).is_empty());
}

#[test]
fn four_by_four_with_coordinates() {
    let r = ttt(
        &["--plain", "--mode", "2", "--size", "4"],
        "a1\na2\nb1\nb2\nc1\nc2\nd1\nn\n",
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("4x4 board, 4 in a row"));
    assert!(r.stdout.contains("    A   B   C   D\n"), "{}", r.stdout);
    assert!(r.stdout.contains(" 1 [X]|[X]|[X]|[X]"), "{}", r.stdout);
    assert!(r.stdout.contains("Player X wins!"));

    // Against the computer the coordinate is announced too.
    let r = ttt(
        &["--plain", "--size", "4", "--first", "you", "--seed", "4"],
        "b3\nq\n",
    );
    assert_eq!(r.code, 0);
    let moves = computer_moves(&r.stdout);
    assert_eq!(moves.len(), 1, "{}", r.stdout);
    assert!(moves[0].contains(" ("), "{}", moves[0]);
    assert!(r.stdout.contains(" 3    | X |"), "{}", r.stdout);
}

#[test]
fn bad_input_never_changes_the_board() {
    let r = ttt(
        &["--plain", "--first", "you", "--seed", "5"],
        "\ngarbage\n0\n10\n4 1\nd1\n1 2 3\n\u{e9}\n1\n1\n5\n",
    );
    // EOF in the middle of the game: a message and exit 1.
    assert_eq!(r.code, 1, "{}", r.stdout);
    let out = &r.stdout;
    assert!(out.contains("Please type a square"), "{out}");
    assert!(out.contains("Invalid move: not a square"), "{out}");
    assert!(
        out.contains("square 0 is not on the board: choose 1 to 9"),
        "{out}"
    );
    assert!(
        out.contains("square 10 is not on the board: choose 1 to 9"),
        "{out}"
    );
    assert!(
        out.contains("row 4 is not on the board: choose 1 to 3"),
        "{out}"
    );
    assert!(
        out.contains("column d is not on the board: choose a to c"),
        "{out}"
    );
    assert!(
        out.contains("Invalid move. That cell is already taken"),
        "{out}"
    );
    assert!(out.contains("Input ended in the middle of a game"), "{out}");
    // Only the two legal moves were played: 1 (X), its reply 5 (O); then "1"
    // and "5" were refused as taken.
    assert_eq!(computer_moves(out), ["5"]);
    assert_eq!(out.matches("already taken").count(), 2, "{out}");
    assert_eq!(out.matches("Enter a square: ").count(), 12, "{out}");
}

#[test]
fn end_of_input_outside_a_game_is_a_clean_exit() {
    // At the first question.
    let r = ttt(&["--plain"], "");
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("Thanks for playing!"));
    // At the play-again prompt.
    let r = ttt(&["--plain", "--mode", "two-player"], "1\n4\n2\n5\n3\n");
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("Player X wins!"));
    // Garbage answers are asked again.
    let r = ttt(&["--plain"], "maybe\nq\n");
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("Please answer y, n or r"));
}

#[test]
fn undo_takes_back_your_move_and_the_reply() {
    let r = ttt(
        &["--plain", "--first", "you", "--seed", "6"],
        "u\n1\nu\n9\nq\n",
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("There is no move of yours to undo."));
    assert!(r.stdout.contains("Took back your last move and my reply."));
    // After the undo, 9 is answered again with the centre.
    assert_eq!(computer_moves(&r.stdout), ["5", "5"]);
    // Two players: one move at a time.
    let r = ttt(&["--plain", "--mode", "two-player"], "5\nu\n1\nq\n");
    assert!(
        r.stdout.contains("Took back the last move."),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(" 1  X |"), "{}", r.stdout);
}

#[test]
fn hint_and_help() {
    let r = ttt(&["--plain", "--first", "you", "--seed", "7"], "h\n?\nq\n");
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("Hint: square "), "{}", r.stdout);
    assert!(r.stdout.contains("Commands: u undoes"));
}

#[test]
fn random_first_is_one_keystroke_and_seeded() {
    let a = ttt(&["--plain", "--seed", "11"], "r\nq\n");
    let b = ttt(&["--plain", "--seed", "11"], "r\nq\n");
    assert_eq!(a.stdout, b.stdout);
    assert!(a.stdout.contains("You go first.") || a.stdout.contains("I go first."));
    let c = ttt(&["--plain", "--first", "random", "--seed", "11"], "q\n");
    assert!(c.stdout.contains("You are "), "{}", c.stdout);
}

#[test]
fn alternate_first_swaps_every_game() {
    let r = ttt(
        &[
            "--plain",
            "--mode",
            "human-vs-ai",
            "--first",
            "alternate",
            "--seed",
            "8",
        ],
        "q\n",
    );
    assert!(r.stdout.contains("You are X"));
    let r = ttt(
        &["--plain", "--first", "alternate", "--seed", "8"],
        "1\n2\n7\n6\n8\ny\nq\n",
    );
    let xs: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("You are ") && l.contains(';'))
        .collect();
    assert_eq!(
        xs,
        ["You are X; I am O.", "You are O; I am X."],
        "{}",
        r.stdout
    );
}

#[test]
fn ai_vs_ai_is_deterministic_and_tallies() {
    let args = [
        "--mode", "ai-vs-ai", "--ai-x", "random", "--ai-o", "random", "--seed", "42",
    ];
    let a = ttt(&args, "");
    let b = ttt(&args, "");
    assert_eq!(a.code, 0);
    assert_eq!(a.stdout, b.stdout);
    assert!(
        a.stdout.contains("X (random) chooses square "),
        "{}",
        a.stdout
    );

    let r = ttt(
        &[
            "--mode", "ai-vs-ai", "--ai", "classic", "--games", "20", "--seed", "1",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r
        .stdout
        .starts_with("X (classic) against O (classic): 20 games."));
    assert_eq!(r.stdout.matches("Game ").count(), 20, "{}", r.stdout);
    let score = r.stdout.lines().last().unwrap_or_default();
    let nums: u32 = score
        .split(['|', ':'])
        .filter_map(|p| p.trim().parse::<u32>().ok())
        .sum();
    assert!(score.starts_with("Score - X (classic): "), "{score}");
    assert_eq!(nums, 20, "{score}");
}

#[test]
fn persistent_record_survives_sessions_and_refuses_corruption() {
    let data = tempfile::tempdir().unwrap();
    let game = "y\n1\n2\n7\n6\n8\nn\n"; // a draw against classic
    let r = ttt_in(data.path(), &["--plain", "--stats", "--seed", "1"], game);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r
        .stdout
        .contains("Your record against classic on 3x3 k=3: 0 wins, 0 losses, 1 draw."));
    let file = data.path().join("ttt").join("record.txt");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text, "# ttt record v1\n0 0 1 human-vs-ai 3x3 k=3 classic\n");
    // The next session starts from it.
    let r = ttt_in(data.path(), &["--plain", "--stats", "--seed", "1"], game);
    assert!(
        r.stdout.contains("0 wins, 0 losses, 1 draw."),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("0 wins, 0 losses, 2 draws."),
        "{}",
        r.stdout
    );
    // No stray temporary files.
    let names: Vec<_> = std::fs::read_dir(data.path().join("ttt"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    // Without --stats nothing is read or written.
    let r = ttt_in(data.path(), &["--plain", "--seed", "1"], game);
    assert!(!r.stdout.contains("record"), "{}", r.stdout);
    // A corrupt record is reported, not trusted, and not overwritten.
    std::fs::write(&file, "# ttt record v1\nthree 0 1 key\n").unwrap();
    let r = ttt_in(data.path(), &["--plain", "--stats", "--seed", "1"], game);
    assert_eq!(r.code, 0);
    assert!(r.stderr.contains("is corrupt"), "{}", r.stderr);
    assert!(!r.stdout.contains("Your record"), "{}", r.stdout);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "# ttt record v1\nthree 0 1 key\n"
    );
}

#[test]
fn flags_at_top_level_and_under_play() {
    let top = ttt(&["--plain", "--mode", "two-player", "--size", "2"], "q\n");
    let sub = ttt(
        &["play", "--plain", "--mode", "two-player", "--size", "2"],
        "q\n",
    );
    assert_eq!(top.code, 0);
    assert_eq!(top.stdout, sub.stdout);
    assert!(top.stdout.contains("2x2 board, 2 in a row"));
    let r = ttt(
        &["--plain", "--size", "7x6", "-k", "4", "--mode", "2"],
        "q\n",
    );
    assert!(r.stdout.contains("7x6 board, 4 in a row"), "{}", r.stdout);
}

#[test]
fn bad_flags_are_errors_not_panics() {
    for args in [
        &["--size", "0"][..],
        &["--size", "21"],
        &["--size", "3", "-k", "4"],
        &["--size", "banana"],
        &["--ai", "nobody"],
        &["--games", "0"],
        &["--mode", "three"],
    ] {
        let r = ttt(args, "");
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("error"), "{args:?}: {}", r.stderr);
    }
    let help = ttt(&["play", "--help"], "");
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("Examples:"), "{}", help.stdout);
    assert!(help.stdout.contains("--first"));
    // The play flags are documented at the top level too.
    let top = ttt(&["--help"], "");
    assert_eq!(top.code, 0);
    assert!(top.stdout.contains("--first"), "{}", top.stdout);
}

#[test]
fn sixteen_by_sixteen_and_one_by_one() {
    let r = ttt(
        &["--plain", "--mode", "2", "--size", "16", "-k", "5"],
        "p16\nq\n",
    );
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("16 "), "{}", r.stdout);
    assert!(r.stdout.contains("| X\n"), "{}", r.stdout);
    let r = ttt(&["--plain", "--size", "1", "--first", "you"], "1\nn\n");
    assert!(
        r.stdout.contains("Congratulations, you win!"),
        "{}",
        r.stdout
    );
}

/// 20x20, the largest board: columns A to T, every line within 80
/// characters, moves at the far corner, and the exactly-five rule.
#[test]
fn twenty_by_twenty_fits_80_columns() {
    let r = ttt(&["--plain", "--mode", "2", "--size", "20"], "t20\na1\nq\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("20x20 board, 5 in a row"), "{}", r.stdout);
    assert!(r.stdout.contains("    A  B  C "), "{}", r.stdout);
    assert!(r.stdout.contains(" S  T\n"), "{}", r.stdout);
    assert!(r.stdout.contains(" 1  O  .  ."), "{}", r.stdout);
    assert!(r.stdout.contains("\n20  .  . "), "{}", r.stdout);
    assert!(r.stdout.contains(" .  X\n"), "{}", r.stdout);
    let board_lines = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("    A") || l.contains(" . "));
    assert!(board_lines.clone().count() >= 42, "{}", r.stdout);
    for line in board_lines {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    let r = ttt(
        &["--plain", "--mode", "2", "--size", "20", "--exact-k"],
        "u1\nq\n",
    );
    assert!(
        r.stdout.contains("20x20 board, exactly 5 in a row"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("column u is not on the board: choose a to t"),
        "{}",
        r.stdout
    );
}

/// Renju through the size text: X's double three is refused with the
/// reason, and the game goes on.
#[test]
fn renju_refuses_a_forbidden_move_of_x() {
    let moves = "f8\na1\ng8\nc1\nh6\ne1\nh7\no15\nh8\ni9\nq\n";
    let r = ttt(&["--plain", "--mode", "2", "--size", "15 renju"], moves);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("15x15 board, 5 in a row to win (renju: X wins with exactly five"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("forbidden to X under renju: a double three"),
        "{}",
        r.stdout
    );
    let r = ttt(&["--plain", "--mode", "2", "--size", "9 renju"], "q\n");
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("renju is played with k=5"),
        "{}",
        r.stderr
    );
}

#[test]
fn random_input_never_panics() {
    // A fixed pseudo-random stream of lines: digits, letters, commands,
    // separators, control bytes, very long lines, non-UTF-8.
    let mut state: u64 = 0x1234_5678;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let pieces: [&[u8]; 16] = [
        b"1",
        b"5",
        b"9",
        b"b2",
        b"2 2",
        b"u",
        b"h",
        b"?",
        b"y",
        b"n",
        b" ",
        b",",
        b"\xff\xfe",
        b"99999999999999999999",
        b"z",
        b"\t",
    ];
    for size in ["1", "2", "3", "4x2", "16"] {
        for mode in ["human-vs-ai", "two-player"] {
            let mut input = Vec::new();
            for _ in 0..300 {
                for _ in 0..(next() % 4) {
                    input.extend_from_slice(pieces[(next() % 16) as usize]);
                }
                input.push(b'\n');
            }
            let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
                .args(["--plain", "--seed", "9", "--size", size, "--mode", mode])
                .env("XDG_DATA_HOME", std::env::temp_dir())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("run ttt");
            let _ = child.stdin.take().expect("stdin").write_all(&input);
            let out = child.wait_with_output().expect("wait");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!stderr.contains("panicked"), "{size} {mode}: {stderr}");
            assert!(
                matches!(out.status.code(), Some(0) | Some(1)),
                "{size} {mode}: {:?} {stderr}",
                out.status
            );
        }
    }
}

/// `--max-nodes` bounds every search, and a game is then exactly what the
/// engine gives with that budget and the shared per-move seed (how the N64
/// console plays: `--max-nodes 5000 --seed S` replays a console game).
#[test]
fn max_nodes_replays_the_engine_move_for_move() {
    use ttt_core::ai::{self, Budget, Player, PlayerKind, TtEntry};
    use ttt_core::{Position, Rules};

    let args = [
        "--mode",
        "ai-vs-ai",
        "--ai-x",
        "strong",
        "--ai-o",
        "hard",
        "--size",
        "5",
        "-k",
        "4",
        "--max-nodes",
        "400",
        "--seed",
        "11",
        "--plain",
    ];
    let run = ttt(&args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let shown: Vec<u16> = run
        .stdout
        .lines()
        .filter_map(|l| l.split("chooses square ").nth(1))
        .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
        .collect();

    let rules = Rules::new(5, 5, 4).unwrap();
    let mut pos = Position::new(rules);
    let mut tt = vec![TtEntry::EMPTY; 1 << 16];
    let mut expected = Vec::new();
    while !pos.outcome().is_over() {
        let kind = [PlayerKind::Strong, PlayerKind::Hard][pos.mark_count() % 2];
        let mut player = Player::new(kind, ai::move_seed(11, 1, pos.mark_count()), &mut tt);
        player.set_budget(Budget::nodes(400));
        let sq = player.choose_move(&pos).unwrap();
        expected.push(rules.number_of(sq));
        pos.play(sq).unwrap();
    }
    assert_eq!(shown, expected, "{}", run.stdout);
    assert_eq!(ttt(&["--max-nodes", "0"], "").code, 2);
}

/// A winning game against the default computer player (classic) with seed 1.
const WINNING_GAME: &str = "y\n1\n9\n7\n4\nn\n";

#[test]
fn record_counts_every_game_of_overlapping_sessions() {
    use std::io::Read;
    let data = tempfile::tempdir().unwrap();
    let args = ["--plain", "--stats", "--seed", "1"];
    let file = data.path().join("ttt").join("record.txt");
    // A session left open across another session's game: it must not write
    // back the record as it read it at its start.
    let mut open = Command::new(env!("CARGO_BIN_EXE_ttt"))
        .args(args)
        .env("XDG_DATA_HOME", data.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run ttt");
    let mut stdout = open.stdout.take().unwrap();
    let mut seen = Vec::new();
    while !String::from_utf8_lossy(&seen).contains("go first?") {
        let mut chunk = [0u8; 256];
        let n = stdout.read(&mut chunk).unwrap();
        assert!(n > 0, "ttt ended early: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&chunk[..n]);
    }
    let other = ttt_in(data.path(), &args, WINNING_GAME);
    assert_eq!(other.code, 0, "{}", other.stderr);
    let mut stdin = open.stdin.take().unwrap();
    stdin.write_all(WINNING_GAME.as_bytes()).unwrap();
    drop(stdin);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert!(open.wait().unwrap().success());
    assert!(rest.contains("2 wins, 0 losses, 0 draws"), "{rest}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "# ttt record v1\n2 0 0 human-vs-ai 3x3 k=3 classic\n"
    );

    // Many sessions at once (the issue's reproduction, smaller).
    let sessions = 16;
    let children: Vec<_> = (0..sessions)
        .map(|_| {
            let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
                .args(args)
                .env("XDG_DATA_HOME", data.path())
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("run ttt");
            child
                .stdin
                .take()
                .unwrap()
                .write_all(WINNING_GAME.as_bytes())
                .unwrap();
            child
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        format!(
            "# ttt record v1\n{} 0 0 human-vs-ai 3x3 k=3 classic\n",
            sessions + 2
        )
    );
    let names: Vec<_> = std::fs::read_dir(data.path().join("ttt"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "no temporary files left: {names:?}");
}
