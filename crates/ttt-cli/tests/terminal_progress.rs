//! Long commands show progress on a terminal (stderr a tty), inside a private
//! tmux server. Skipped (with a note) when tmux is missing.
mod common;

use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(socket: &str, args: &[&str]) -> String {
    let out = Command::new("tmux")
        .args(["-L", socket])
        .args(args)
        .output()
        .expect("run tmux");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn analyze_of_an_empty_5x5_board_shows_progress() {
    let socket = format!("ttt-test-progress-{}", std::process::id());
    let started = Command::new("tmux")
        .args(["-L", &socket, "-f", "/dev/null", "new-session", "-d"])
        .args(["-x", "100", "-y", "10", "sh"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !started {
        eprintln!("tmux is not available: skipping the progress test");
        return;
    }
    let board = ["....."; 5].join("/");
    let line = format!("{} analyze {board}", env!("CARGO_BIN_EXE_ttt"));
    tmux(&socket, &["send-keys", "-t", "0", "-l", &line]);
    tmux(&socket, &["send-keys", "-t", "0", "Enter"]);
    // The search takes most of a minute; the progress line appears at once.
    let end = Instant::now() + Duration::from_secs(15);
    let mut screen = String::new();
    while Instant::now() < end {
        screen = tmux(&socket, &["capture-pane", "-p", "-t", "0"]);
        if screen.contains("analysing 5x5 k=5:") && screen.contains("positions") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = Command::new("tmux")
        .args(["-L", &socket, "kill-server"])
        .status();
    assert!(
        screen.contains("analysing 5x5 k=5:") && screen.contains("positions"),
        "no progress on the terminal:\n{screen}"
    );
}

/// Runs `command` in a fresh tmux pane and watches the screen until it
/// prints `done`: returns whether any screen showed `needle`, and the last
/// screen. `None` when tmux is missing.
fn watch(command: &str, needle: &str) -> Option<(bool, String)> {
    let socket = format!("ttt-test-quiet-{}-{}", std::process::id(), needle.len());
    let started = Command::new("tmux")
        .args(["-L", &socket, "-f", "/dev/null", "new-session", "-d"])
        .args(["-x", "100", "-y", "10", "sh"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !started {
        return None;
    }
    tmux(
        &socket,
        &[
            "send-keys",
            "-t",
            "0",
            "-l",
            &format!("{command}; echo do''ne"),
        ],
    );
    tmux(&socket, &["send-keys", "-t", "0", "Enter"]);
    let end = Instant::now() + Duration::from_secs(30);
    let mut seen = false;
    let mut screen = String::new();
    while Instant::now() < end {
        screen = tmux(&socket, &["capture-pane", "-p", "-t", "0"]);
        seen |= screen.contains(needle);
        if screen.lines().any(|l| l == "done") {
            break;
        }
        std::thread::sleep(Duration::from_millis(30));
    }
    let _ = Command::new("tmux")
        .args(["-L", &socket, "kill-server"])
        .status();
    Some((seen, screen))
}

#[test]
fn progress_is_quiet_under_no_color_and_term_dumb_and_cleared_before_results() {
    // About a second of solving: long enough for the line to show.
    let solve = format!("{} solve --size 7x4 -k 4", common::ttt_path().display());
    for env in ["NO_COLOR=1", "TERM=dumb"] {
        let Some((seen, screen)) = watch(&format!("{env} {solve}"), "solving 7x4") else {
            eprintln!("tmux is not available: skipping the progress test");
            return;
        };
        assert!(screen.contains("nodes/s"), "{env}: no result:\n{screen}");
        assert!(!seen, "{env}: a progress line was drawn");
    }
    let Some((_, screen)) = watch(&solve, "solving 7x4") else {
        return;
    };
    assert!(screen.contains("nodes/s"), "no result:\n{screen}");
    assert!(
        !screen.contains("solving 7x4"),
        "the line was not cleared:\n{screen}"
    );
}
