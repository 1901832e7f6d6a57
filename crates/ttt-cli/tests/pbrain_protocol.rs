//! Gomocup brain protocol sessions, through both `pbrain-ttt` and `ttt pbrain`,
//! and through the library's session with a stand-in brain.
use std::collections::HashSet;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use ttt_cli::common::Limits;
use ttt_cli::pbrain::{run, Brain};
use ttt_core::{Position, Square};

/// Runs a session with `pbrain-ttt` (0.2 s a move unless the input says
/// otherwise); returns its output lines.
fn session(input: &str) -> Vec<String> {
    let input = format!("INFO timeout_turn 200\n{input}");
    session_with(pbrain_ttt(), &input)
}

/// `pbrain-ttt` of this build; another build's brain can be named at run
/// time (`CARGO_BIN_EXE_pbrain-ttt`), to see a test fail there.
fn pbrain_ttt() -> std::process::Command {
    let brain = std::env::var_os("CARGO_BIN_EXE_pbrain-ttt").map_or_else(
        || env!("CARGO_BIN_EXE_pbrain-ttt").into(),
        std::path::PathBuf::from,
    );
    std::process::Command::new(brain)
}

/// Whether the brain answers `line` with one line (`in_board`: between
/// BOARD and DONE). INFO, blank lines, BOARD and its stones, and END get
/// none; everything else one (a move, OK, ERROR or UNKNOWN).
fn expects_answer(line: &str, in_board: &mut bool) -> bool {
    let word = line
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    if *in_board {
        *in_board = word != "DONE" && word != "END";
        return word == "DONE";
    }
    *in_board = word == "BOARD";
    !matches!(word.as_str(), "" | "INFO" | "BOARD" | "END")
}

/// Talks to the brain as a manager does: one line, then its answer (if the
/// line gets one) before the next, since lines sent while it thinks may
/// interrupt it. Closes the input at the end; the program must exit with
/// success, print nothing on stderr, and end every answer in LF alone.
fn session_with(cmd: std::process::Command, input: &str) -> Vec<String> {
    let mut child = Manager::spawn(cmd);
    let mut answers = Vec::new();
    let mut in_board = false;
    let mut exited = false;
    for line in input.split_inclusive('\n') {
        if exited {
            break;
        }
        child.send(line);
        if expects_answer(line, &mut in_board) {
            // MESSAGE and DEBUG lines (an INFO it cannot honour, ...) are
            // kept but are not the answer, as for a manager.
            loop {
                match child.answer(Duration::from_secs(60)) {
                    Some(answer) => {
                        let note = answer.starts_with("MESSAGE") || answer.starts_with("DEBUG");
                        answers.push(answer);
                        if !note {
                            break;
                        }
                    }
                    // It exited (END, or after END): nothing more to read.
                    None => {
                        exited = true;
                        break;
                    }
                }
            }
        }
    }
    child.close_input();
    let (status, rest, stderr) = child.finish(Duration::from_secs(60));
    assert!(status.success(), "{status:?}");
    assert!(stderr.is_empty(), "stderr: {stderr}");
    assert!(
        rest.is_empty(),
        "unexpected output {rest:?} after {answers:?}"
    );
    answers
}

/// A running brain, its output read line by line on a thread.
struct Manager {
    child: std::process::Child,
    input: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
    stderr: std::thread::JoinHandle<String>,
}

impl Manager {
    fn spawn(mut cmd: std::process::Command) -> Manager {
        use std::io::{BufRead, Read};
        use std::process::Stdio;
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut stderr = child.stderr.take().unwrap();
        let (sender, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || loop {
            let mut line = Vec::new();
            match stdout.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    // Replies end in LF, with no CR before it.
                    assert_eq!(line.pop(), Some(b'\n'), "{line:?} has no LF");
                    assert!(!line.contains(&b'\r'), "{line:?} has a CR");
                    let _ = sender.send(String::from_utf8(line).unwrap());
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let input = child.stdin.take();
        Manager {
            child,
            input,
            lines,
            stderr,
        }
    }

    /// Writes `text` (a write after the brain exited is ignored).
    fn send(&mut self, text: &str) {
        use std::io::Write;
        if let Some(input) = self.input.as_mut() {
            let _ = input
                .write_all(text.as_bytes())
                .and_then(|()| input.flush());
        }
    }

    /// The next answer line, `None` once the brain has exited.
    /// Lines that report the search as it goes (`MESSAGE depth ...`) are
    /// skipped: a manager shows them, they answer nothing.
    fn answer(&mut self, wait: Duration) -> Option<String> {
        let until = Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if is_search_report(&line) => continue,
                Ok(line) => return Some(line),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(e) => panic!("no answer within {wait:?}: {e}"),
            }
        }
    }

    fn close_input(&mut self) {
        self.input = None;
    }

    /// How long the brain takes to exit from now (killed after `wait`).
    fn exit_time(&mut self, wait: Duration) -> Duration {
        let start = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            if start.elapsed() > wait {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("still running after {wait:?}");
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        start.elapsed()
    }

    /// Waits for the exit: the status, the lines not read yet, stderr.
    fn finish(mut self, wait: Duration) -> (std::process::ExitStatus, Vec<String>, String) {
        self.close_input();
        self.exit_time(wait);
        let status = self.child.wait().unwrap();
        let rest = self.lines.iter().filter(|l| !is_search_report(l)).collect();
        (status, rest, self.stderr.join().unwrap())
    }
}

/// Whether `line` is one of the brain's reports of its search.
fn is_search_report(line: &str) -> bool {
    line.starts_with("MESSAGE depth ")
}

/// Reads an `x,y` answer.
fn coords(line: &str) -> (u32, u32) {
    let (x, y) = line
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {line:?}"));
    (x.parse().unwrap(), y.parse().unwrap())
}

#[test]
fn a_short_game_on_15x15() {
    let out = session(
        "START 15\nINFO timeout_turn 300\nINFO timeout_match 100000\nINFO time_left 100000\n\
         INFO max_memory 83886080\nINFO game_type 1\nINFO rule 0\nINFO folder /tmp\n\
         BEGIN\nTURN 0,0\nTURN 14,14\nEND\n",
    );
    assert_eq!(out.len(), 4, "{out:?}");
    assert_eq!(out[0], "OK");
    let mut seen = HashSet::from([(0, 0), (14, 14)]);
    for line in &out[1..] {
        let (x, y) = coords(line);
        assert!(x < 15 && y < 15, "{line}");
        assert!(seen.insert((x, y)), "{line} played twice or on a stone");
    }
}

#[test]
fn ttt_pbrain_is_the_same_program() {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ttt"));
    cmd.arg("pbrain");
    let out = session_with(cmd, "START 10\nABOUT\nEND\n");
    assert_eq!(out[0], "OK");
    assert!(out[1].starts_with("name=\"ttt\", version=\""), "{out:?}");
}

#[test]
fn about_names_the_brain() {
    let out = session("ABOUT\n");
    assert_eq!(out.len(), 1);
    for key in ["name=\"ttt\"", "version=", "author=", "country="] {
        assert!(out[0].contains(key), "{}", out[0]);
    }
}

#[test]
fn sizes_it_cannot_play_are_errors() {
    let out = session("START 0\nSTART 99\nSTART 21\nRECTSTART 21,10\nRECTSTART 0,5\nSTART 16\nRECTSTART 12,8\nSTART 1\nEND\n");
    assert_eq!(out[0], "ERROR unsupported size 0 (min 1)");
    assert_eq!(out[1], "ERROR unsupported size 99 (max 20)");
    assert_eq!(out[2], "ERROR unsupported size 21 (max 20)");
    assert!(
        out[3].starts_with("ERROR unsupported size 21,10"),
        "{out:?}"
    );
    assert!(out[4].starts_with("ERROR"), "{out:?}");
    assert_eq!(&out[5..], ["OK", "OK", "OK"]);
}

/// The Gomocup freestyle board, and rectangles with a 20 side: the brain
/// plays inside them, up to the last row and column.
#[test]
fn twenty_by_twenty_and_twenty_by_fifteen_are_played() {
    let out = session("START 20\nBEGIN\nTURN 19,19\nEND\n");
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[0], "OK");
    for line in &out[1..] {
        let (x, y) = coords(line);
        assert!(x < 20 && y < 20 && (x, y) != (19, 19), "{line}");
    }
    let out = session("RECTSTART 20,15\nTURN 19,14\nTURN 0,14\nEND\n");
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[0], "OK");
    let mut seen = HashSet::from([(19, 14), (0, 14)]);
    for line in &out[1..] {
        let (x, y) = coords(line);
        assert!(x < 20 && y < 15, "{line}");
        assert!(seen.insert((x, y)), "{line} played twice");
    }
    // Off the 20x15 board: the 16th row and the 21st column.
    let out = session("RECTSTART 20,15\nTURN 3,15\nTURN 20,3\nEND\n");
    assert!(out[1].starts_with("ERROR TURN 3,15"), "{out:?}");
    assert!(out[2].starts_with("ERROR TURN 20,3"), "{out:?}");
}

/// The case. Our stones 3,4,5,6 and 8 on row 7 (2,7 is theirs):
/// 7,7 makes six. Theirs 0..3 on row 10: 4,10 blocks a five. Under
/// `INFO rule 1` (exactly five) six does not win, so the brain must block.
const SIX_OR_BLOCK: &str = "BOARD\n3,7,1\n2,7,2\n4,7,1\n0,10,2\n5,7,1\n1,10,2\n6,7,1\n2,10,2\n\
                            8,7,1\n3,10,2\nDONE\n";

#[test]
fn exactly_five_blocks_a_four_instead_of_making_six() {
    for start in [
        "START 15\nINFO rule 1\n",
        "INFO rule 1\nSTART 15\n",
        "START 20\nINFO rule 3\n",
    ] {
        let out = session(&format!("{start}{SIX_OR_BLOCK}END\n"));
        assert_eq!(out, ["OK", "4,10"], "{start:?}");
    }
    // Five or more (rule 0, or no rule): the six wins.
    for start in [
        "START 15\n",
        "START 15\nINFO rule 0\n",
        "START 15\nINFO rule 1\nINFO rule 0\n",
    ] {
        let out = session(&format!("{start}{SIX_OR_BLOCK}END\n"));
        assert_eq!(out, ["OK", "7,7"], "{start:?}");
    }
}

/// Black (our stones, as many as theirs) has two threes crossing at 7,7:
/// a double three, the winning move in freestyle, forbidden under renju.
const DOUBLE_THREE: &str = "BOARD\n5,7,1\n0,0,2\n6,7,1\n14,0,2\n7,5,1\n0,14,2\n7,6,1\n\
                            14,14,2\nDONE\n";

#[test]
fn renju_keeps_black_off_its_forbidden_cells() {
    // SIX_OR_BLOCK: 7,7 would be an overline, forbidden to black (us).
    for start in [
        "START 15\nINFO rule 4\n",
        "INFO rule 4\nSTART 15\n",
        "START 15\nINFO rule 6\n",
        "START 20\nINFO rule 5\n",
    ] {
        let out = session(&format!("{start}{SIX_OR_BLOCK}END\n"));
        assert_eq!(out, ["OK", "4,10"], "{start:?}");
    }
    let free = session(&format!("START 15\n{DOUBLE_THREE}END\n"));
    assert_eq!(free, ["OK", "7,7"]);
    for start in ["START 15\nINFO rule 4\n", "INFO rule 4\nSTART 15\n"] {
        let out = session(&format!("{start}{DOUBLE_THREE}END\n"));
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(out[0], "OK");
        assert_ne!(out[1], "7,7", "{start:?}");
    }
    // As white the brain refuses black's forbidden move (the manager
    // judges it). Black's four on row 12 leaves white one move, the block
    // at 14,12: with a free choice white may well take 7,7 itself (white
    // is free to), and the refusal would not be tested.
    let out = session(
        "START 15\nINFO rule 4\nBOARD\n5,7,2\n0,0,1\n6,7,2\n14,0,1\n7,5,2\n0,14,1\n\
         7,6,2\n9,12,1\n10,12,2\n14,14,1\n11,12,2\n0,10,1\n12,12,2\n10,0,1\n13,12,2\n\
         DONE\nTURN 7,7\nEND\n",
    );
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[1], "14,12", "{out:?}");
    assert!(
        out[2].starts_with("ERROR TURN 7,7") && out[2].contains("double three"),
        "{out:?}"
    );
}

#[test]
fn renju_on_a_small_board_and_caro_are_refused_with_a_message() {
    let out = session(&format!("INFO rule 4\nSTART 12\n{SIX_OR_BLOCK}END\n"));
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(
        out[0].starts_with("MESSAGE INFO rule 4: renju is played with k=5 on boards of 15x15"),
        "{out:?}"
    );
    assert!(out[0].contains("five or more"), "{out:?}");
    assert_eq!(out[1], "OK");
    assert_eq!(out[2], "7,7", "renju without bit 1: five or more");
    let out = session(&format!("START 15\nINFO rule 9\n{SIX_OR_BLOCK}END\n"));
    assert!(
        out[1].starts_with("MESSAGE INFO rule 9: caro not supported"),
        "{out:?}"
    );
    assert!(out[1].contains("exactly five"), "{out:?}");
    assert_eq!(out[2], "4,10");
    let out = session(&format!("START 15\nINFO rule 12\n{SIX_OR_BLOCK}END\n"));
    assert!(
        out[1].contains("caro not supported") && out[1].contains("(renju)"),
        "{out:?}"
    );
    assert_eq!(out[2], "4,10");
}

#[test]
fn commands_before_start_are_errors() {
    let out = session("BEGIN\nTURN 1,1\nRESTART\nTAKEBACK 1,1\nBOARD\n1,1,1\nDONE\nEND\n");
    assert_eq!(out.len(), 5, "{out:?}");
    assert!(out.iter().all(|l| l.starts_with("ERROR")), "{out:?}");
}

#[test]
fn garbage_and_malformed_lines() {
    let out = session(
        "START 15\nhello world\n\n   \nSWAP2BOARD\nTURN\nTURN 3\nTURN a,b\nTURN -1,2\nSTART x\n\
         \u{7f}\u{1}garbage\nINFO\nINFO nonsense 5\nINFO timeout_turn abc\nEND\n",
    );
    assert_eq!(out[0], "OK");
    assert_eq!(out[1], "UNKNOWN command hello world");
    assert!(out[2].starts_with("UNKNOWN"), "{out:?}");
    for line in &out[3..8] {
        assert!(line.starts_with("ERROR"), "{out:?}");
    }
    assert!(out[8].starts_with("UNKNOWN"), "{out:?}");
    // Blank lines and INFO (known, unknown or unreadable) get no answer.
    assert_eq!(out.len(), 9, "{out:?}");
}

#[test]
fn invalid_utf8_is_just_garbage() {
    let mut cmd = Command::cargo_bin("pbrain-ttt").unwrap();
    let out = cmd
        .write_stdin(b"START 9\n\xff\xfe\nEND\n".to_vec())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("OK\nUNKNOWN"), "{text}");
}

#[test]
fn turns_off_the_board_or_on_stones_are_errors() {
    let out = session(
        "RECTSTART 10,8\nTURN 10,0\nTURN 0,8\nTURN 99999999999,1\nTURN 9,7\nTURN 9,7\nEND\n",
    );
    assert_eq!(out[0], "OK");
    assert!(
        out[1].starts_with("ERROR TURN 10,0: 10,0 is off the board"),
        "{out:?}"
    );
    assert!(out[2].starts_with("ERROR"), "{out:?}");
    assert!(out[3].starts_with("ERROR"), "{out:?}");
    let (x, y) = coords(&out[4]);
    assert!(x < 10 && y < 8 && (x, y) != (9, 7));
    assert!(out[5].contains("already occupied"), "{out:?}");
    // Our own stone is occupied too (3x3 is played perfectly: deterministic).
    let out = session("START 3\nBEGIN\nEND\n");
    let out = session(&format!("START 3\nBEGIN\nTURN {}\nEND\n", out[1]));
    assert!(out[2].contains("already occupied"), "{out:?}");
}

#[test]
fn board_wins_and_blocks() {
    // We (1) have four in a row with an open end: play the fifth.
    let out = session(
        "START 15\nBOARD\n3,3,1\n10,10,2\n4,3,1\n10,11,2\n5,3,1\n0,14,2\n6,3,1\n14,0,2\nDONE\nEND\n",
    );
    assert_eq!(out[0], "OK");
    let (x, y) = coords(&out[1]);
    assert!((x, y) == (2, 3) || (x, y) == (7, 3), "{out:?}");
    // The opponent (2) has an open four and we are to move (we are O): block
    // one end or lose; with both ends open either block is the best we have.
    let out =
        session("START 15\nBOARD\n3,5,2\n4,5,2\n5,5,2\n6,5,2\n0,0,1\n14,14,1\n0,14,1\nDONE\nEND\n");
    let (x, y) = coords(&out[1]);
    assert!((x, y) == (2, 5) || (x, y) == (7, 5), "{out:?}");
}

#[test]
fn board_with_bad_fields_is_an_error() {
    let cases = [
        "1,1,4\n",        // field neither 1 nor 2
        "1,1\n",          // missing field
        "a,b,c\n",        // not numbers
        "15,1,1\n",       // off the board
        "1,1,1\n1,1,2\n", // the same cell twice
        "1,1,1\n2,2,1\n", // two own stones, no opponent's: not alternating
        // The opponent has won already.
        "1,1,2\n1,2,2\n1,3,2\n1,4,2\n1,5,2\n9,9,1\n11,8,1\n13,7,1\n0,14,1\n",
    ];
    for case in cases {
        let out = session(&format!("START 15\nBOARD\n{case}DONE\nEND\n"));
        assert_eq!(out.len(), 2, "{case:?}: {out:?}");
        assert!(out[1].starts_with("ERROR"), "{case:?}: {out:?}");
    }
    // After a bad board the session goes on.
    let out = session("START 15\nBOARD\nxx\nDONE\nBOARD\n7,7,2\nDONE\nEND\n");
    assert!(out[1].starts_with("ERROR BOARD line 1"), "{out:?}");
    coords(&out[2]);
}

#[test]
fn takeback_and_restart() {
    // 4x4 (four in a row) is played by the exact solver: the same answers
    // every run, so a second session can name our stone. With time enough
    // to solve on a busy machine (out of time it would play the search's
    // move).
    let out = session("INFO timeout_turn 30000\nSTART 4\nTURN 1,1\nEND\n");
    let ours = coords(&out[1]);
    // Taking back an empty cell is an error.
    let empty = if ours == (0, 0) { (3, 3) } else { (0, 0) };
    let out = session(&format!(
        "INFO timeout_turn 30000\nSTART 4\nTURN 1,1\nTAKEBACK {},{}\nEND\n",
        empty.0, empty.1
    ));
    assert_eq!(coords(&out[1]), ours);
    assert!(out[2].starts_with("ERROR"), "{out:?}");
    let input = format!(
        "INFO timeout_turn 30000\nSTART 4\nTURN 1,1\nTAKEBACK {},{}\nTAKEBACK 1,1\nTURN 1,1\nRESTART\nBEGIN\nEND\n",
        ours.0, ours.1
    );
    let out = session(&input);
    assert_eq!(out[2], "OK");
    assert_eq!(out[3], "OK");
    coords(&out[4]);
    assert_eq!(out[5], "OK");
    coords(&out[6]);
    // TAKEBACK of a stone set with BOARD (no history).
    let out = session("INFO timeout_turn 30000\nSTART 4\nBOARD\n1,1,2\nDONE\nEND\n");
    let ours = coords(&out[1]);
    let out = session(&format!(
        "INFO timeout_turn 30000\nSTART 4\nBOARD\n1,1,2\nDONE\nTAKEBACK {},{}\nTAKEBACK 1,1\nBEGIN\nEND\n",
        ours.0, ours.1
    ));
    assert_eq!(&out[2..4], ["OK", "OK"], "{out:?}");
    coords(&out[4]);
}

#[test]
fn play_makes_the_given_move() {
    let out = session("START 15\nPLAY 3,4\nPLAY 3,4\nTURN 5,5\nPLAY 20,1\nEND\n");
    assert_eq!(
        &out[..3],
        ["OK", "3,4", "ERROR PLAY 3,4: 3,4 is already occupied"]
    );
    let (x, y) = coords(&out[3]);
    assert!((x, y) != (3, 4) && (x, y) != (5, 5));
    assert!(out[4].starts_with("ERROR PLAY 20,1"), "{out:?}");
}

#[test]
fn eof_without_end_exits_cleanly() {
    let out = session("START 15\nBEGIN\n");
    assert_eq!(out.len(), 2);
    let out = session("");
    assert!(out.is_empty());
    // Nothing after END is read.
    let out = session("END\nSTART 15\n");
    assert!(out.is_empty());
    // END inside BOARD exits too.
    let out = session("START 15\nBOARD\n1,1,1\nEND\nSTART 15\n");
    assert_eq!(out, ["OK"]);
}

#[test]
fn small_boards_are_played_perfectly_with_full_lines() {
    // START 3: tic-tac-toe (three in a row). X took the centre and a corner
    // threat: O (us) must block at 2,2.
    let out = session("START 3\nBOARD\n1,1,2\n1,0,1\n0,0,2\nDONE\nEND\n");
    assert_eq!(out[1], "2,2");
}

#[test]
fn answers_within_the_turn_time() {
    let start = Instant::now();
    let out = session("START 16\nINFO timeout_turn 500\nBEGIN\nTURN 0,0\nTURN 15,15\nEND\n");
    let elapsed = start.elapsed();
    assert_eq!(out.len(), 4);
    // Three moves of at most 0.5 s each, plus process start-up.
    assert!(elapsed < Duration::from_secs(4), "{elapsed:?}");
    // time_left caps the turn time too.
    let start = Instant::now();
    session("START 16\nINFO timeout_turn 30000\nINFO timeout_match 60000\nINFO time_left 3000\nBEGIN\nEND\n");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
}

/// A stand-in that plays the first legal move, within the limits it is given.
struct FirstMove;

impl Brain for FirstMove {
    fn think(
        &mut self,
        pos: &Position,
        limits: Limits,
        _max_memory: u64,
        _stop: &dyn Fn() -> bool,
        _watch: &dyn Fn(&ttt_core::ai::strong::Iteration, Duration),
    ) -> Option<Square> {
        let left = limits
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        // timeout_turn 1000 ms, less a safety margin.
        assert!(
            left.is_some_and(|t| t > Duration::from_millis(500) && t < Duration::from_millis(1000))
        );
        pos.legal_moves().first()
    }
}

/// A stand-in that writes down the rules and move count of every position
/// it is asked about, and plays the first legal move.
struct RulesSeen(std::rc::Rc<std::cell::RefCell<Vec<String>>>);

impl Brain for RulesSeen {
    fn think(
        &mut self,
        pos: &Position,
        _limits: Limits,
        _max_memory: u64,
        _stop: &dyn Fn() -> bool,
        _watch: &dyn Fn(&ttt_core::ai::strong::Iteration, Duration),
    ) -> Option<Square> {
        let seen = format!("{} after {} moves", pos.rules(), pos.history().len());
        self.0.borrow_mut().push(seen);
        pos.legal_moves().first()
    }
}

/// `INFO rule` mid-game changes the game in progress (its moves kept) and
/// the games STARTed later.
#[test]
fn the_rule_applies_to_the_game_in_progress_and_later_ones() {
    let input = "START 15\nBEGIN\nINFO rule 1\nTURN 5,5\nINFO rule 2\nTURN 6,6\nINFO rule 1\n\
                 RECTSTART 20,15\nBEGIN\nEND\n";
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let mut out = Vec::new();
    run(RulesSeen(seen.clone()), &mut input.as_bytes(), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "OK\n0,0\n1,0\n2,0\nOK\n0,0\n"
    );
    assert_eq!(
        *seen.borrow(),
        [
            "15x15 k=5 after 0 moves",
            "15x15 k=5 exact after 2 moves",
            "15x15 k=5 after 4 moves",
            "20x15 k=5 exact after 0 moves",
        ]
    );
}

#[test]
fn library_session_with_a_stand_in_brain() {
    let input = "START 5\nINFO timeout_turn 1000\nBEGIN\nTURN 4,4\nTAKEBACK 1,0\nTAKEBACK 4,4\n\
                 TAKEBACK 0,0\nBEGIN\nEND\n";
    let mut out = Vec::new();
    run(FirstMove, &mut input.as_bytes(), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "OK\n0,0\n1,0\nOK\nOK\nOK\n0,0\n"
    );
}

#[test]
fn crlf_line_endings() {
    let out =
        session("START 15\r\nINFO timeout_turn 100\r\nBOARD\r\n7,7,2\r\nDONE\r\nABOUT\r\nEND\r\n");
    assert_eq!(out[0], "OK");
    coords(&out[1]);
    assert!(out[2].starts_with("name=\"ttt\""));
}

#[test]
fn pbrain_ttt_help_and_version_print_and_exit() {
    use std::process::{Command, Stdio};
    for (flag, expected) in [
        ("--help", "START 15"),
        (
            "--version",
            concat!("pbrain-ttt ", env!("CARGO_PKG_VERSION")),
        ),
    ] {
        // stdin left open: the program must not wait for protocol input.
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-ttt"))
            .arg(flag)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let end = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while child.try_wait().unwrap().is_none() {
            if std::time::Instant::now() > end {
                let _ = child.kill();
                let _ = child.wait();
                panic!("pbrain-ttt {flag} waits for input");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(expected), "{flag}: {text}");
    }
}

/// A brain thinking for up to a minute on 15x15 (the opponent took the
/// centre), its first answer (OK) read.
fn thinking_brain() -> Manager {
    let mut brain = Manager::spawn(std::process::Command::new(env!("CARGO_BIN_EXE_pbrain-ttt")));
    brain.send("START 15\nINFO timeout_turn 60000\nTURN 7,7\n");
    assert_eq!(brain.answer(Duration::from_secs(60)).as_deref(), Some("OK"));
    // Well into the search: no move yet (what it says of its search
    // meanwhile is no answer).
    let until = Instant::now() + Duration::from_millis(300);
    while let Ok(line) = brain
        .lines
        .recv_timeout(until.saturating_duration_since(Instant::now()))
    {
        assert!(is_search_report(&line), "{line}");
    }
    brain
}

/// The goal is 50 ms (the search stops within a millisecond; the exit
/// itself, freeing the table, takes most of it: 30-40 ms measured with a
/// load of 19 on 2 cores). The real figure is printed (`-- --nocapture`);
/// the bound leaves room for a busier machine, and the old brain took the
/// whole turn (54 s here).
const PROMPT: Duration = Duration::from_millis(500);

#[test]
fn end_while_thinking_exits_at_once_without_a_move() {
    let mut brain = thinking_brain();
    brain.send("END\n");
    let took = brain.exit_time(Duration::from_secs(10));
    println!("END while thinking: exited after {took:?}");
    assert!(took < PROMPT, "END took {took:?}");
    let (status, rest, stderr) = brain.finish(Duration::from_secs(1));
    assert!(status.success() && stderr.is_empty(), "{status:?} {stderr}");
    assert!(rest.is_empty(), "a move after END: {rest:?}");
}

#[test]
fn end_of_input_while_thinking_exits_at_once() {
    let mut brain = thinking_brain();
    brain.close_input();
    let took = brain.exit_time(Duration::from_secs(10));
    println!("end of input while thinking: exited after {took:?}");
    assert!(took < PROMPT, "{took:?}");
    let (status, rest, _) = brain.finish(Duration::from_secs(1));
    assert!(status.success() && rest.is_empty(), "{status:?} {rest:?}");
}

#[test]
fn a_new_game_or_position_while_thinking_drops_the_move() {
    for (command, answer) in [
        ("START 15\n", "OK"),
        ("RECTSTART 12,10\n", "OK"),
        ("RESTART\n", "OK"),
        // A new position, answered with a move: the winning one.
        (
            "BOARD\n1,1,1\n2,1,1\n3,1,1\n4,1,1\n9,9,2\n10,9,2\n11,9,2\n12,12,2\nDONE\n",
            "5,1",
        ),
    ] {
        let mut brain = thinking_brain();
        let sent = Instant::now();
        brain.send(command);
        // The next line answers the new command, not the dropped turn.
        let got = brain.answer(Duration::from_secs(10));
        let took = sent.elapsed();
        println!(
            "{:?} while thinking: answered after {took:?}",
            command.lines().next()
        );
        assert!(
            got.as_deref() == Some(answer) || (answer == "5,1" && got.as_deref() == Some("0,1")),
            "{command:?}: {got:?}"
        );
        assert!(took < PROMPT, "{command:?}: {took:?}");
        // The game goes on: an empty board opens in the centre at once.
        brain.send("RESTART\nBEGIN\n");
        assert_eq!(brain.answer(Duration::from_secs(10)).as_deref(), Some("OK"));
        let centre = brain.answer(Duration::from_secs(10)).unwrap();
        assert!(
            ["7,7", "6,5", "5,4", "5,5", "6,4"].contains(&centre.as_str()),
            "{centre}"
        );
        let (status, rest, _) = brain.finish(Duration::from_secs(10));
        assert!(status.success() && rest.is_empty(), "{rest:?}");
    }
}

#[test]
fn info_and_garbage_while_thinking_wait_for_the_move() {
    let mut brain = Manager::spawn(std::process::Command::new(env!("CARGO_BIN_EXE_pbrain-ttt")));
    brain.send("START 15\nINFO timeout_turn 1500\nTURN 7,7\n");
    assert_eq!(brain.answer(Duration::from_secs(60)).as_deref(), Some("OK"));
    let started = Instant::now();
    std::thread::sleep(Duration::from_millis(100));
    // A shorter turn time for the next moves, and junk of every kind.
    let long = "x".repeat(100_000);
    brain.send(&format!(
        "INFO timeout_turn 100\nhello\n\u{7f}\u{1}\nTURN a,b\nTAKEBACK 99,99\n{long}\nINFO\n\r\n"
    ));
    let first = brain.answer(Duration::from_secs(60)).unwrap();
    let thought = started.elapsed();
    coords(&first);
    // The search was not cut short by the lines sent meanwhile.
    assert!(thought > Duration::from_millis(1000), "{thought:?}");
    let replies: Vec<String> = (0..5)
        .map(|_| brain.answer(Duration::from_secs(10)).unwrap())
        .collect();
    assert!(
        replies[0].starts_with("UNKNOWN command hello"),
        "{replies:?}"
    );
    assert!(replies[1].starts_with("UNKNOWN"), "{replies:?}");
    assert!(replies[2].starts_with("ERROR"), "{replies:?}");
    assert!(replies[3].starts_with("ERROR TAKEBACK"), "{replies:?}");
    assert!(
        replies[4].starts_with("ERROR") && replies[4].len() < 200,
        "{replies:?}"
    );
    // The INFO sent during the search applies to the next move.
    let sent = Instant::now();
    brain.send("TURN 0,0\n");
    coords(&brain.answer(Duration::from_secs(60)).unwrap());
    assert!(
        sent.elapsed() < Duration::from_millis(900),
        "{:?}",
        sent.elapsed()
    );
    brain.send("END\n");
    let (status, rest, stderr) = brain.finish(Duration::from_secs(10));
    assert!(
        status.success() && stderr.is_empty() && rest.is_empty(),
        "{rest:?} {stderr}"
    );
}

impl Manager {
    /// A `pbrain-ttt` at 0.1 s a move, `START size` answered.
    fn started(size: u32) -> Manager {
        let mut brain =
            Manager::spawn(std::process::Command::new(env!("CARGO_BIN_EXE_pbrain-ttt")));
        brain.send("INFO timeout_turn 100\n");
        assert_eq!(brain.ask(&format!("START {size}")), "OK");
        brain
    }

    /// Sends one line, returns its answer.
    fn ask(&mut self, line: &str) -> String {
        self.send(&format!("{line}\n"));
        self.answer(Duration::from_secs(60))
            .unwrap_or_else(|| panic!("exited after {line:?}"))
    }
}

#[test]
fn takeback_undoes_the_last_move_only() {
    let mut brain = Manager::started(15);
    let ours = brain.ask("TURN 7,7");
    let second = brain.ask("TURN 0,0");
    // Our first stone and the opponent's first are not the last move; a
    // refused take-back changes nothing (the stone is still there).
    let refused = brain.ask(&format!("TAKEBACK {ours}"));
    assert!(refused.starts_with("ERROR TAKEBACK"), "{refused}");
    assert!(
        refused.contains(&format!("only the last move ({second})")),
        "{refused}"
    );
    assert!(brain.ask("TAKEBACK 7,7").starts_with("ERROR TAKEBACK"));
    assert!(brain
        .ask(&format!("PLAY {ours}"))
        .contains("already occupied"));
    // Back move by move to the empty board, and no further.
    for cell in [second.as_str(), "0,0", &ours, "7,7"] {
        assert_eq!(brain.ask(&format!("TAKEBACK {cell}")), "OK", "{cell}");
    }
    let none = brain.ask("TAKEBACK 7,7");
    assert!(none.starts_with("ERROR TAKEBACK 7,7: no move"), "{none}");
    assert_eq!(brain.ask("BEGIN"), "7,7");
    // After BOARD, its last stone is the last move (once our answer is
    // taken back); the earlier ones are not.
    assert_eq!(brain.ask("RESTART"), "OK");
    let answer = brain.ask("BOARD\n7,7,2\n8,8,1\n9,9,2\nDONE");
    assert!(brain.ask("TAKEBACK 9,9").starts_with("ERROR"));
    assert_eq!(brain.ask(&format!("TAKEBACK {answer}")), "OK");
    assert!(brain.ask("TAKEBACK 8,8").starts_with("ERROR"));
    assert!(brain.ask("TAKEBACK 7,7").starts_with("ERROR"));
    for cell in ["9,9", "8,8", "7,7"] {
        assert_eq!(brain.ask(&format!("TAKEBACK {cell}")), "OK", "{cell}");
    }
    assert!(brain.ask("TAKEBACK 7,7").starts_with("ERROR"));
    brain.send("END\n");
    let (status, rest, stderr) = brain.finish(Duration::from_secs(10));
    assert!(
        status.success() && stderr.is_empty() && rest.is_empty(),
        "{rest:?} {stderr}"
    );
}

#[test]
fn empty_boards_open_in_the_centre() {
    let mut brain = Manager::started(15);
    // Time enough for a search to drift off the centre (7,4 at 5 s on an
    // idle machine before this rule); the answer needs none.
    brain.send("INFO timeout_turn 5000\n");
    let asked = Instant::now();
    assert_eq!(brain.ask("BEGIN"), "7,7");
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    for (start, central) in [
        ("START 16", &["7,7", "8,7", "7,8", "8,8"][..]),
        ("RECTSTART 20,15", &["9,7", "10,7"]),
        ("START 9", &["4,4"]),
    ] {
        if brain.ask(start) != "OK" {
            // Boards over 16 are refused until ttt-core grows.
            continue;
        }
        let mv = brain.ask("BEGIN");
        assert!(central.contains(&mv.as_str()), "{start}: {mv}");
    }
    brain.send("END\n");
    brain.finish(Duration::from_secs(10));
    // The same engine for `ttt move` (cells numbered row-major from 1).
    let empty = |c: usize, r: usize| vec![".".repeat(c); r].join("/");
    for ai in ["strong", "hard", "impossible"] {
        for (board, central) in [
            (empty(15, 15), &[113][..]),
            (empty(16, 16), &[120, 121, 136, 137]),
        ] {
            for seed in ["1", "2", "3"] {
                let out = Command::cargo_bin("ttt")
                    .unwrap()
                    .args(["move", "--ai", ai, "--seed", seed, &board])
                    .assert()
                    .success()
                    .get_output()
                    .stdout
                    .clone();
                let cell: usize = String::from_utf8(out).unwrap().trim().parse().unwrap();
                assert!(central.contains(&cell), "{ai} seed {seed}: {cell}");
            }
        }
    }
}

#[test]
fn board_field_3_cells_are_nobodys() {
    // A continuous game: 2,10 belongs to a line already won (field 3), as
    // do 10,1..10,4. The opponent's four 3,10..6,10 is closed there, so the
    // one block is 7,10; a field-3 cell is never played.
    let board = "BOARD\n2,10,3\n10,1,3\n10,2,3\n10,3,3\n10,4,3\n\
                 3,10,2\n4,10,2\n5,10,2\n6,10,2\n0,0,1\n14,0,1\n0,14,1\n14,14,1\nDONE\n";
    let out = session(&format!("START 15\n{board}END\n"));
    assert_eq!(out, ["OK", "7,10"]);
    // Field 3 on a small board: the only cells left are played, never a wall.
    let out = session("START 3\nBOARD\n0,0,3\n1,0,3\n2,0,3\n0,1,2\nDONE\nEND\n");
    let (x, y) = coords(&out[1]);
    assert!(y > 0 && (x, y) != (0, 1), "{out:?}");
}

#[test]
fn a_size_too_large_to_read_is_quoted_as_sent() {
    let out = session("START 4294967296\nRECTSTART 20,99999999999\nEND\n");
    assert_eq!(out[0], "ERROR unsupported size 4294967296 (max 20)");
    assert_eq!(out[1], "ERROR unsupported size 20,99999999999 (max 20)");
    // However many digits (41 said "cannot read arguments" before issue 51).
    for digits in [40, 41, 200] {
        let out = session(&format!("START {}\nEND\n", "9".repeat(digits)));
        assert!(
            out[0].starts_with("ERROR unsupported size 9999") && out[0].ends_with("(max 20)"),
            "{digits} digits: {out:?}"
        );
    }
}

#[test]
fn a_won_board_names_the_real_win_length() {
    // 3x3: the first player (the manager's, field 2) has three in a row.
    let out = session("START 3\nBOARD\n0,0,2\n0,1,1\n1,0,2\n1,1,1\n2,0,2\nDONE\nEND\n");
    assert_eq!(
        out[1], "ERROR the game is over: the first player has 3 in a row",
        "{out:?}"
    );
    let out = session("START 15\nBOARD\n0,0,2\n0,1,1\n1,0,2\n1,1,1\n2,0,2\n2,1,1\n3,0,2\n3,1,1\n4,0,2\nDONE\nEND\n");
    assert_eq!(
        out[1], "ERROR the game is over: the first player has 5 in a row",
        "{out:?}"
    );
}

/// Issue 51: on 5x5 (five in a row) the exact solver took 4.3-6.7 s over a
/// move with 150 ms to play, and heard END only when done. The bounds leave
/// room for a busy machine; the real figures are printed
/// (`-- --nocapture`).
#[test]
fn boards_the_solver_takes_keep_the_turn_time() {
    let mut brain = Manager::spawn(pbrain_ttt());
    brain.send("INFO timeout_turn 150\nSTART 5\n");
    assert_eq!(brain.answer(Duration::from_secs(10)).as_deref(), Some("OK"));
    let mut stones = HashSet::new();
    for turn in ["BEGIN", "TURN 0,0", "TURN 4,4"] {
        let asked = Instant::now();
        brain.send(&format!("{turn}\n"));
        let answer = brain.answer(Duration::from_secs(10)).unwrap();
        let took = asked.elapsed();
        println!("5x5, 150 ms a move: {turn} answered in {took:?}");
        assert!(took < Duration::from_millis(1_000), "{turn}: {took:?}");
        let (x, y) = coords(&answer);
        assert!(x < 5 && y < 5 && stones.insert((x, y)), "{answer}");
        if let Some(theirs) = turn.strip_prefix("TURN ") {
            assert!(stones.insert(coords(theirs)), "{turn}");
        }
    }
    let (status, rest, stderr) = brain.finish(Duration::from_secs(10));
    assert!(status.success() && rest.is_empty(), "{rest:?} {stderr}");
    // END 0.3 s into a turn of 5 s (the default): acted on at once.
    let mut brain = Manager::spawn(pbrain_ttt());
    brain.send("START 5\nBEGIN\n");
    assert_eq!(brain.answer(Duration::from_secs(10)).as_deref(), Some("OK"));
    std::thread::sleep(Duration::from_millis(300));
    brain.send("END\n");
    let took = brain.exit_time(Duration::from_secs(10));
    println!("5x5: END 0.3 s into the turn, exited after {took:?}");
    assert!(took < PROMPT, "END took {took:?}");
    let (status, rest, _) = brain.finish(Duration::from_secs(1));
    assert!(status.success() && rest.is_empty(), "{status:?} {rest:?}");
}

#[test]
fn begin_on_a_board_with_stones_is_an_error_that_changes_nothing() {
    let out = session("START 15\nTURN 7,7\nBEGIN\nTURN 0,0\nEND\n");
    assert_eq!(out.len(), 4, "{out:?}");
    assert!(
        out[2].starts_with("ERROR BEGIN: the board is not empty"),
        "{out:?}"
    );
    // The game goes on from the same position: 0,0 is still free.
    assert!(!out[3].starts_with("ERROR"), "{out:?}");
    let reply = out[3].clone();
    assert_ne!(reply, "0,0");
    assert_ne!(reply, "7,7");
    assert_ne!(reply, out[1]);
}

/// On a board past the exact solver, the brain reports its search in
/// MESSAGE lines before its move, as strong Gomocup engines do: depth,
/// value, nodes, speed, time and the line it expects (empty cells, the
/// first of them a legal move); a few lines a second at most, never one
/// an iteration.
#[test]
fn the_search_is_reported_in_message_lines() {
    let mut brain = Manager::spawn(pbrain_ttt());
    brain.send("START 15\nINFO timeout_turn 1000\nTURN 7,7\n");
    let mut said = Vec::new();
    let mv = loop {
        let line = brain.lines.recv_timeout(Duration::from_secs(10)).unwrap();
        if line == "OK" {
            continue;
        }
        if is_search_report(&line) {
            said.push(line);
            continue;
        }
        break line;
    };
    let (x, y) = coords(&mv);
    assert!(!said.is_empty(), "no report before {mv}");
    // 1 s of thinking: a line per 200 ms at most, and the last one.
    assert!(said.len() <= 7, "{} lines: {said:?}", said.len());
    let rules = ttt_core::Rules::new(15, 15, 5).unwrap();
    for line in &said {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 6, "{line}");
        assert!(fields[0].starts_with("MESSAGE depth "), "{line}");
        assert!(
            fields[1].starts_with("eval ") && fields[1].contains('%'),
            "{line}"
        );
        assert!(
            fields[2].starts_with("nodes ") && fields[3].starts_with("speed "),
            "{line}"
        );
        assert!(
            fields[4].starts_with("time ") && fields[4].ends_with(" ms"),
            "{line}"
        );
        let pv: Vec<_> = fields[5]
            .strip_prefix("pv ")
            .unwrap()
            .split(' ')
            .map(|m| rules.parse_square(m).unwrap())
            .collect();
        assert!(!pv.is_empty(), "{line}");
        let mut seen = HashSet::new();
        for sq in &pv {
            assert!(seen.insert(*sq), "{line}");
            assert_ne!(
                (sq.column(), sq.row()),
                (7, 7),
                "the stone's cell in {line}"
            );
        }
    }
    // The move is on the board and empty (the last report's first move is
    // the last completed iteration's; a later one cut short by the clock
    // may have found a better move, which is then played).
    assert!(x < 15 && y < 15 && (x, y) != (7, 7), "{mv}");
    brain.send("END\n");
    let (status, _, stderr) = brain.finish(Duration::from_secs(5));
    assert!(status.success() && stderr.is_empty());
}
