//! Files given to `ttt verify` are read as a stream of bounded lines: a
//! huge or endless file is refused with the real reason in flat memory
//! (issue 23, defect 6), and the rules line says what is wrong with it
//! (defect 8).
mod common;

use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{stdout_of, ttt, ttt_path, with_memory_limit};

/// Runs `ttt verify FILE` in 100 MB of address space; its exit status and stderr.
fn verify_in_bounded_memory(file: &str) -> (Option<i32>, String) {
    let mut child = with_memory_limit(100_000, &ttt_path())
        .args(["verify", file])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ttt verify {file} still runs after 10 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn endless_and_binary_files_are_refused_for_the_real_reason() {
    let (code, stderr) = verify_in_bounded_memory("/dev/zero");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("line 1: the line is too long"), "{stderr}");
    let (code, stderr) = verify_in_bounded_memory("/dev/urandom");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains(": not UTF-8 text"), "{stderr}");
}

#[test]
fn a_certificate_with_a_byte_order_mark_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.cert");
    stdout_of(&["solve", "--certificate", plain.to_str().unwrap()]);
    let mut text = b"\xEF\xBB\xBF".to_vec();
    text.extend(std::fs::read(&plain).unwrap());
    let marked = dir.path().join("bom.cert");
    std::fs::write(&marked, text).unwrap();
    let out = stdout_of(&["verify", marked.to_str().unwrap()]);
    assert!(out.contains("valid proof: 3x3 k=3 draw"), "{out}");
}

#[test]
fn an_impossible_rules_line_says_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    for (rules, why) in [
        (
            "1x64 k=64",
            "a 1x64 board is not possible: each side must be 1 to 20",
        ),
        ("3x3 k=0", "win length 0 is not possible on this board"),
        ("3x3 k=3 x", "expected a board size like 3, 4x3 or 7x7 k=4"),
    ] {
        let path = dir.path().join("rules.cert");
        std::fs::write(
            &path,
            format!("ttt-certificate 2\nrules {rules}\nclaim draw\n"),
        )
        .unwrap();
        let out = ttt().arg("verify").arg(&path).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("line 2: {why}")),
            "{rules}: {stderr}"
        );
    }
}
