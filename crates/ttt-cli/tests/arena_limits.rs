//! `ttt arena` against engines that flood it, overrun the game clock, or
//! are still running when the match is stopped by a signal, a record file
//! that cannot be written (issue 23, defects 1, 2, 3 and 7), and time odds
//! (each side its own time per move).
mod common;

use std::fs;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{fake_engine_path, ttt, ttt_path, with_memory_limit};
use serde_json::Value as Json;

/// Twice the address space `ttt arena` needs with its threads and a 16 MiB
/// table (it runs these matches in 100 MB), far too little for a queue of
/// millions of engine lines.
const MEMORY_LIMIT_KIB: u64 = 200_000;

fn fake(args: &str) -> String {
    format!("'{}' {args}", fake_engine_path().display())
}

/// Runs `ttt arena ARGS --json` under the memory limit; fails the test
/// unless it succeeds within `seconds`, and returns its JSON and stderr.
fn arena_in_bounded_memory(args: &[&str], seconds: u64) -> (Json, String) {
    let mut child = with_memory_limit(MEMORY_LIMIT_KIB, &ttt_path())
        .arg("arena")
        .args(args)
        .arg("--json")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ttt arena {args:?} did not finish within {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "ttt arena {args:?}: {:?}\n{stderr}",
        out.status
    );
    (serde_json::from_slice(&out.stdout).unwrap(), stderr)
}

#[test]
fn an_engine_that_never_stops_printing_keeps_memory_flat() {
    // `yes OK` answers every command at once and forever: each game is lost
    // on an unreadable move, and the flood must not pile up meanwhile.
    let (j, _) = arena_in_bounded_memory(
        &[
            "--engine-x",
            "yes OK",
            "-o",
            "random",
            "--size",
            "7",
            "-k",
            "5",
            "--games",
            "2",
        ],
        20,
    );
    assert_eq!(j["games"], 2, "{j}");
    assert_eq!(j["first_player_forfeits"], 2, "{j}");
    // MESSAGE lines sent while the other side thinks, and between answers,
    // are dropped as they come: the games are played out normally. The
    // flood holds the engine's stdout while the pipe is full, so its answer
    // waits for the arena to drain it: on a loaded machine (CI runs the
    // emulator tests beside these) that took over 350 ms, hence the grace.
    let flood = fake("--fault flood");
    let (j, stderr) = arena_in_bounded_memory(
        &[
            "--engine-x",
            &flood,
            "-o",
            "strong",
            "--time",
            "150",
            "--grace",
            "3000",
            "--size",
            "7",
            "-k",
            "5",
            "--games",
            "2",
            "--swap",
        ],
        20,
    );
    assert_eq!(j["games"], 2, "{j}\n{stderr}");
    assert_eq!(j["first_player_forfeits"], 0, "{j}\n{stderr}");
    assert_eq!(j["second_player_forfeits"], 0, "{j}\n{stderr}");
}

#[test]
fn a_side_past_its_game_time_and_grace_loses_on_time() {
    // Every move takes 100 ms, within the 200 ms grace, but the game time is
    // 100 ms: the fourth move takes the engine past 100 + 200 ms in all.
    let slow = fake("--fault slow --delay-ms 100");
    let (j, stderr) = arena_in_bounded_memory(
        &[
            "--engine-x",
            &slow,
            "-o",
            "random",
            "--size",
            "7",
            "-k",
            "5",
            "--games",
            "2",
            "--game-time",
            "100",
            "--grace",
            "200",
        ],
        20,
    );
    assert_eq!(j["first_player_forfeits"], 2, "{j}\n{stderr}");
    assert!(
        stderr.contains("the game time is used up: ")
            && stderr.contains("of 100 ms + 200 ms grace"),
        "{stderr}"
    );
}

/// Whether process `pid` is gone (or a zombie nobody has reaped yet).
fn is_gone(pid: u32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // "PID (name) STATE ...": the name may hold spaces, the state follows ')'.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Starts a long match between two fake engines in a process group of its
/// own (as a shell runs a job), waits for two games to finish, sends
/// `signal` to the group (`times` times, 0.15 s apart), and checks that the
/// engines are gone and the exit status is 128 + `signal`; after one
/// signal, also that the finished games are reported.
fn stop_a_match_with(signal: rustix::process::Signal, status: i32, times: u32) {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("engines.log");
    let record = dir.path().join("games.txt");
    // The engines stay alive after END and at the end of their input, like
    // an engine busy in a search: only a kill of their group ends them.
    let engine = fake(&format!("--fault ignore-end --log '{}'", log.display()));
    let mut child = Command::new(ttt_path())
        .args(["arena", "--engine-x", &engine, "--engine-o", &engine])
        .args(["--size", "7", "-k", "5", "--games", "1000", "--record"])
        .arg(&record)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let group = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
    let started = Instant::now();
    while fs::read_to_string(&record).map_or(0, |r| r.lines().count()) < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no two games within 20 s"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    for i in 0..times {
        if i > 0 {
            std::thread::sleep(Duration::from_millis(150));
        }
        rustix::process::kill_process_group(group, signal).unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(
            Instant::now() < deadline,
            "ttt arena still runs 10 s after the signal"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let mut pids: Vec<u32> = fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .collect();
    pids.sort_unstable();
    pids.dedup();
    assert!(!pids.is_empty());
    // The engines are killed before ttt exits; allow for the kernel to finish.
    let until = Instant::now() + Duration::from_secs(2);
    while pids.iter().any(|&p| !is_gone(p)) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    let left: Vec<u32> = pids.iter().copied().filter(|&p| !is_gone(p)).collect();
    for &pid in &left {
        // Clean up after a failure, so no engine outlives the test.
        if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
        }
    }
    assert!(
        left.is_empty(),
        "engines still running after the match: {left:?}"
    );
    assert_eq!(exit.code(), Some(status), "{exit:?}\n{stderr}");
    if times > 1 {
        // Ended at once: what was printed by then is all there is.
        return;
    }
    let games = fs::read_to_string(&record).unwrap().lines().count();
    assert!(
        stdout.contains(&format!("{games} games of 7x7 k=5")) && stdout.contains("forfeits"),
        "no table of the {games} finished games:\n{stdout}"
    );
    assert!(
        stderr.contains(&format!("interrupted after {games} of 1000 games")),
        "{stderr}"
    );
}

#[test]
fn ctrl_c_stops_the_engines_and_reports_the_finished_games() {
    stop_a_match_with(rustix::process::Signal::INT, 130, 1);
}

#[test]
fn sigterm_stops_the_engines_and_reports_the_finished_games() {
    stop_a_match_with(rustix::process::Signal::TERM, 143, 1);
}

#[test]
fn sighup_stops_the_engines_and_reports_the_finished_games() {
    // The terminal closed: before issue 51 the default action ended ttt
    // and left the engines (in their own process groups) running.
    stop_a_match_with(rustix::process::Signal::HUP, 129, 1);
}

#[test]
fn a_second_ctrl_c_ends_the_match_at_once_and_the_engines_with_it() {
    // Issue 51: two SIGINTs 0.15 s apart left an engine under init.
    stop_a_match_with(rustix::process::Signal::INT, 130, 2);
}

#[test]
fn a_second_sigterm_ends_the_match_at_once_and_the_engines_with_it() {
    stop_a_match_with(rustix::process::Signal::TERM, 143, 2);
}

#[test]
fn a_record_file_that_cannot_be_written_is_named_and_the_summary_kept() {
    let out = ttt()
        .args(["arena", "-x", "random", "-o", "random", "--games", "3"])
        .args(["--record", "/dev/full"])
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stdout.contains("3 games of 3x3 k=3"), "{stdout}");
    assert!(
        stderr.contains("--record /dev/full: cannot write game 1"),
        "{stderr}"
    );
}

#[test]
fn time_odds_give_each_side_its_own_turn_time() {
    // Both engines answer after 150 ms. -x has 1000 ms a move (--time-x),
    // -o the 50 ms of --time: only -o is late (150 > 50 + 20 ms grace).
    let dir = tempfile::tempdir().unwrap();
    let (x_log, o_log) = (dir.path().join("x.log"), dir.path().join("o.log"));
    let engine = |log: &std::path::Path| {
        fake(&format!(
            "--fault slow --delay-ms 150 --log '{}'",
            log.display()
        ))
    };
    let (x, o) = (engine(&x_log), engine(&o_log));
    let args = [
        "--engine-x",
        &x,
        "--engine-o",
        &o,
        "--size",
        "7",
        "-k",
        "5",
        "--games",
        "2",
        "--swap",
        "--time",
        "50",
        "--time-x",
        "1000",
        "--grace",
        "20",
    ];
    let (j, stderr) = arena_in_bounded_memory(&args, 30);
    assert_eq!(j["time_x_ms"], 1000, "{j}");
    assert_eq!(j["time_o_ms"], 50, "{j}");
    assert_eq!(j["time_ms"], Json::Null, "{j}");
    assert_eq!(j["first_player_forfeits"], 0, "{j}\n{stderr}");
    assert_eq!(j["second_player_forfeits"], 2, "{j}\n{stderr}");
    // Each engine was told its own limit, in both colours.
    let told = |log: &std::path::Path, ms: u32| {
        let text = fs::read_to_string(log).unwrap();
        let want = format!("INFO timeout_turn {ms}");
        text.lines().filter(|l| l.ends_with(&want)).count() >= 2
            && !text
                .lines()
                .any(|l| l.contains("timeout_turn") && !l.ends_with(&want))
    };
    assert!(
        told(&x_log, 1000),
        "{}",
        fs::read_to_string(&x_log).unwrap()
    );
    assert!(told(&o_log, 50), "{}", fs::read_to_string(&o_log).unwrap());

    // The text report says who had which time.
    let out = ttt().arg("arena").args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("time: 1000 ms per move for fake-engine --fault slow")
            && text.contains("(-x), 50 ms for fake-engine")
            && text.contains("(-o), 20 ms grace"),
        "{text}"
    );
}
