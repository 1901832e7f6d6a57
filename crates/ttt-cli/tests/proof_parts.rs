//! Proofs in parts: `ttt solve --part N` jobs joined by `ttt join`, and
//! `ttt solve --resume FILE` proofs stopped and taken up again; the joined
//! certificates checked, missing, cut off and corrupted parts refused.
mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{stdout_of, ttt, ttt_path};
use predicates::prelude::*;
use ttt_cli::engine::verify::check_text;

/// The part numbers `ttt solve --list-parts` prints for a board.
fn parts_of(size: &str, k: &str) -> Vec<String> {
    stdout_of(&["solve", "--size", size, "-k", k, "--list-parts"])
        .lines()
        .map(str::to_string)
        .collect()
}

/// Proves every part of `size`/`k` into `dir`; returns the part files.
fn prove_parts(dir: &Path, size: &str, k: &str) -> Vec<PathBuf> {
    parts_of(size, k)
        .iter()
        .map(|part| {
            let path = dir.join(format!("{part}.part"));
            let out = stdout_of(&[
                "solve",
                "--size",
                size,
                "-k",
                k,
                "--threads",
                "1",
                "--part",
                part,
                "--certificate",
                path.to_str().unwrap(),
            ]);
            assert!(out.contains("answer "), "{out}");
            path
        })
        .collect()
}

fn join(output: &Path, parts: &[PathBuf]) -> assert_cmd::assert::Assert {
    let mut cmd = ttt();
    cmd.args(["join", "--output", output.to_str().unwrap()]);
    cmd.args(parts);
    cmd.assert()
}

#[test]
fn the_parts_are_the_first_moves_up_to_symmetry_and_part_0() {
    // 3x3: corner, edge, centre; 4x3: 4 classes of 12 cells (2 symmetries
    // besides the identity and the half turn).
    assert_eq!(parts_of("3x3", "3"), ["0", "1", "2", "3"]);
    assert_eq!(parts_of("4x3", "3").len(), 5);
    assert_eq!(parts_of("8x8", "5").len(), 11);
    let json = stdout_of(&["solve", "--size", "3x3", "--list-parts", "--json"]);
    assert!(json.contains("\"first_move\": 5"), "{json}");
    assert!(json.contains("does O win?"), "{json}");
    ttt()
        .args([
            "solve",
            "--size",
            "3x3",
            "--part",
            "4",
            "--certificate",
            "x",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("parts 0 to 3"));
}

#[test]
fn parts_proved_apart_join_into_a_certificate_that_verifies() {
    let dir = tempfile::tempdir().unwrap();
    // A draw: every first move's part and part 0 needed.
    let parts = prove_parts(dir.path(), "5x5", "4");
    let cert = dir.path().join("554.cert");
    join(&cert, &parts)
        .success()
        .stdout(predicate::str::contains("valid proof: 5x5 k=4 draw"));
    let text = std::fs::read_to_string(&cert).unwrap();
    assert!(text.starts_with("ttt-certificate 4\nrules 5x5 k=4\nclaim draw\n"));
    assert_eq!(text.matches("strategy o blocks x after ").count(), 6);
    assert_eq!(text.matches("strategy x blocks o after ").count(), 1);
    let checked = check_text(&text).unwrap();
    assert_eq!(checked.claim, "draw");
    stdout_of(&["verify", cert.to_str().unwrap()]);

    // A win (4x4 k=3): the part that says so is enough.
    let win_dir = tempfile::tempdir().unwrap();
    let parts = prove_parts(win_dir.path(), "4x4", "3");
    let cert = win_dir.path().join("443.cert");
    join(&cert, &parts)
        .success()
        .stdout(predicate::str::contains("4x4 k=3 x wins"));
    let text = std::fs::read_to_string(&cert).unwrap();
    assert_eq!(text.matches("strategy ").count(), 1, "{text}");
    let winning: Vec<PathBuf> = parts
        .into_iter()
        .filter(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .contains("strategy x wins after")
        })
        .collect();
    assert!(!winning.is_empty());
    join(&cert, &winning[..1])
        .success()
        .stdout(predicate::str::contains("4x4 k=3 x wins"));
    assert!(check_text(&std::fs::read_to_string(&cert).unwrap()).is_ok());
}

#[test]
fn missing_cut_off_foreign_and_corrupted_parts_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let parts = prove_parts(dir.path(), "5x5", "4");
    let cert = dir.path().join("out.cert");
    // A part missing: named, and nothing written.
    join(&cert, &parts[..3])
        .code(2)
        .stderr(predicate::str::contains("parts are missing"))
        .stderr(predicate::str::contains(
            "part 3: does X win after opening on",
        ));
    join(&cert, &parts[1..])
        .code(2)
        .stderr(predicate::str::contains("part 0: does O win?"));
    assert!(!cert.exists());

    // A part cut off (a job killed while writing it).
    let text = std::fs::read_to_string(&parts[2]).unwrap();
    let cut = dir.path().join("cut.part");
    std::fs::write(&cut, &text[..text.len() - 10]).unwrap();
    let mut with_cut = parts.clone();
    with_cut[2] = cut;
    join(&cert, &with_cut)
        .code(2)
        .stderr(predicate::str::contains("cut off"));

    // A part of another board.
    let other = tempfile::tempdir().unwrap();
    let foreign = prove_parts(other.path(), "4x4", "4");
    let mut mixed = parts.clone();
    mixed[2] = foreign[2].clone();
    join(&cert, &mixed)
        .code(2)
        .stderr(predicate::str::contains("a part of a proof of 4x4 k=4"));

    // A part whose strategy is wrong: every reply of O moved to the first
    // empty cell of its board.
    let corrupt = dir.path().join("corrupt.part");
    let bad: Vec<String> = std::fs::read_to_string(&parts[1])
        .unwrap()
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            match fields[..] {
                [board, spare, _] if board.contains('/') => {
                    let first = board.replace('/', "").find('.').unwrap() + 1;
                    format!("{board} {spare} {first}")
                }
                _ => line.to_string(),
            }
        })
        .collect();
    std::fs::write(&corrupt, bad.join("\n") + "\n").unwrap();
    let mut with_bad = parts.clone();
    with_bad[1] = corrupt;
    join(&cert, &with_bad)
        .code(2)
        .stderr(predicate::str::contains(
            "the joined certificate is rejected",
        ))
        .stderr(predicate::str::contains("strategy o blocks x after"));
    assert!(!cert.exists());

    // A part is not a certificate, nor a certificate a part.
    ttt()
        .args(["verify", parts[0].to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("join the parts with `ttt join`"));
}

#[test]
fn a_certificate_must_answer_every_first_move() {
    // A draw certificate joined from parts, with one first move's section
    // taken out: O's strategy no longer answers that move.
    let dir = tempfile::tempdir().unwrap();
    let parts = prove_parts(dir.path(), "4x4", "4");
    let cert = dir.path().join("444.cert");
    join(&cert, &parts).success();
    let text = std::fs::read_to_string(&cert).unwrap();
    let start = text.find("strategy o blocks x after ").unwrap();
    let end = start + text[start..].find("end\n").unwrap() + 4;
    let head = text[start..].lines().next().unwrap().to_string();
    let without = format!("{}{}", &text[..start], &text[end..]);
    let err = check_text(&without).unwrap_err();
    assert!(err.contains("after every first move of x"), "{err}");
    // Sections after a first move need version 4.
    let err = check_text(&text.replace("ttt-certificate 4", "ttt-certificate 3")).unwrap_err();
    assert!(err.contains("needs version 4"), "{err}");
    // The same first move twice.
    let twice = text.replacen(
        &format!("{head}\n"),
        &format!("{}{head}\n", &text[start..end]),
        1,
    );
    assert!(check_text(&twice).unwrap_err().contains("given twice"));
}

/// The sections in a journal.
fn sections(journal: &Path) -> usize {
    std::fs::read_to_string(journal)
        .map(|t| t.lines().filter(|l| l.starts_with("strategy ")).count())
        .unwrap_or(0)
}

#[test]
fn a_proof_stopped_and_resumed_gives_the_same_value_and_a_certificate_that_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("775.parts");
    let cert = dir.path().join("775.cert");
    let args = |journal: &Path, cert: &Path| {
        [
            "solve".to_string(),
            "--size".into(),
            "7x7".into(),
            "-k".into(),
            "5".into(),
            "--threads".into(),
            "1".into(),
            "--tt-mb".into(),
            "64".into(),
            "--resume".into(),
            journal.display().to_string(),
            "--certificate".into(),
            cert.display().to_string(),
        ]
    };
    // Stopped (SIGINT, as Ctrl-C) once its first part is kept.
    let child = std::process::Command::new(ttt_path())
        .args(args(&journal, &cert))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while sections(&journal) == 0 {
        assert!(start.elapsed() < Duration::from_secs(300), "no part kept");
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = child.id().to_string();
    std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("run the same command to go on"), "{stderr}");
    assert!(!cert.exists());
    let kept = sections(&journal);
    assert!((1..11).contains(&kept), "{kept} sections");

    // A section cut off by a kill while it was being appended is dropped.
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str("strategy o blocks x after 2\n.......");
    std::fs::write(&journal, &text).unwrap();

    // Taken up again: only the parts not yet settled are proved.
    let out = stdout_of(&args(&journal, &cert).each_ref().map(String::as_str));
    assert!(out.contains(&format!("11 parts, {kept} settled")), "{out}");
    assert!(out.contains("7x7 k=5: draw"), "{out}");
    assert_eq!(sections(&journal), 11);
    let verified = stdout_of(&["verify", cert.to_str().unwrap()]);
    assert!(verified.contains("valid proof: 7x7 k=5 draw"), "{verified}");

    // Run once more: nothing left to prove, the same certificate.
    let again = dir.path().join("again.cert");
    let out = stdout_of(&args(&journal, &again).each_ref().map(String::as_str));
    assert!(out.contains("11 parts, 11 settled"), "{out}");
    assert_eq!(
        std::fs::read(&cert).unwrap(),
        std::fs::read(&again).unwrap()
    );

    // A journal of another board is refused.
    ttt()
        .args(["solve", "--size", "6x6", "-k", "5", "--resume"])
        .arg(&journal)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not of 6x6 k=5"));
}

/// The names of the files in `dir`, sorted.
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn every_signal_that_stops_a_resumed_proof_keeps_what_is_settled_and_no_temporary_file() {
    use rustix::process::{kill_process, Pid, Signal};
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("775.parts");
    let cert = dir.path().join("775.cert");
    for signal in [Signal::TERM, Signal::HUP, Signal::QUIT, Signal::INT] {
        let before = sections(&journal);
        let child = std::process::Command::new(ttt_path())
            .args(["solve", "--size", "7x7", "-k", "5", "--threads", "1"])
            .args(["--tt-mb", "64", "--resume"])
            .arg(&journal)
            .arg("--certificate")
            .arg(&cert)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Stopped once this sitting has kept a part of its own.
        let start = Instant::now();
        while sections(&journal) == before {
            assert!(start.elapsed() < Duration::from_secs(300), "no part kept");
            std::thread::sleep(Duration::from_millis(5));
        }
        kill_process(Pid::from_child(&child), signal).unwrap();
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        // Stopped cleanly, as --help says: exit status 2, the parts kept.
        assert_eq!(out.status.code(), Some(2), "{signal:?}: {stderr}");
        assert!(stderr.contains("run the same command to go on"), "{stderr}");
        let kept = sections(&journal);
        assert!(kept > before, "{signal:?}: {kept} sections");
        let kept_text = match kept {
            1 => "the 1 part settled so far is kept".to_string(),
            n => format!("the {n} parts settled so far are kept"),
        };
        assert!(stderr.contains(&kept_text), "{stderr}");
        // No certificate, no temporary file: the journal alone.
        assert_eq!(files_in(dir.path()), ["775.parts"], "{signal:?}");
        // Whole sections only: the journal ends with one.
        let text = std::fs::read_to_string(&journal).unwrap();
        assert!(text.ends_with("end\n"), "{signal:?}");
    }
}

#[test]
fn a_join_stopped_puts_nothing_in_place() {
    use std::sync::atomic::AtomicBool;
    use ttt_cli::engine::parts;
    use ttt_cli::output_file::OutputFile;
    let dir = tempfile::tempdir().unwrap();
    let parts = prove_parts(dir.path(), "4x4", "4");
    let cert = dir.path().join("444.cert");
    let inputs: Vec<&Path> = parts.iter().map(PathBuf::as_path).collect();
    let output = OutputFile::prepare(&cert, "--output").unwrap();
    let stopped = parts::join(&inputs, output, &AtomicBool::new(true));
    let err = stopped.err().expect("a join stopped fails").to_string();
    assert!(err.contains("interrupted: no file written"), "{err}");
    assert!(!cert.exists());
    assert!(
        files_in(dir.path()).iter().all(|f| f.ends_with(".part")),
        "{:?}",
        files_in(dir.path())
    );
    // Not stopped: the certificate holds.
    let output = OutputFile::prepare(&cert, "--output").unwrap();
    let joined = parts::join(&inputs, output, &AtomicBool::new(false)).unwrap();
    assert_eq!(joined.claim, "draw");
    assert_eq!(
        joined.bytes,
        std::fs::metadata(&cert).unwrap().len(),
        "the bytes reported are the file's"
    );
}

#[test]
fn a_journal_is_a_regular_file_and_outputs_are_written_as_certificates_are() {
    let dir = tempfile::tempdir().unwrap();
    let resume = |journal: &Path| {
        let mut cmd = ttt();
        cmd.args(["solve", "--size", "4x4", "-k", "4", "--resume"])
            .arg(journal);
        cmd
    };
    // A directory, a device: refused before any work, nothing made.
    resume(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a directory"));
    resume(Path::new("/dev/null"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a regular file"));
    assert!(files_in(dir.path()).is_empty());

    // Through a symbolic link: the file it names holds the parts, the link
    // stays a link.
    let journal = dir.path().join("444.parts");
    let link = dir.path().join("link.parts");
    std::os::unix::fs::symlink(&journal, &link).unwrap();
    let out =
        String::from_utf8(resume(&link).assert().success().get_output().stdout.clone()).unwrap();
    assert!(out.contains("4 parts, 0 settled"), "{out}");
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(sections(&journal), 4);

    // The certificate to standard output, before what the command prints.
    let out = stdout_of(&[
        "solve",
        "--size",
        "4x4",
        "-k",
        "4",
        "--resume",
        journal.to_str().unwrap(),
        "--certificate",
        "/dev/stdout",
    ]);
    // The journal's summary first, then the certificate, then its figures.
    assert!(out.starts_with("4x4 k=4: 4 parts, 4 settled"), "{out}");
    let cert_start = out.find("ttt-certificate 4\n").expect("the certificate");
    let cert_end = out.rfind("end\n").unwrap() + 4;
    let checked = check_text(&out[cert_start..cert_end]).unwrap();
    assert_eq!(checked.claim, "draw");
    assert!(out[cert_end..].contains("certificate /dev/stdout (4 sections"));

    // An output that is an input is refused: it would replace it.
    let before = std::fs::read(&journal).unwrap();
    ttt()
        .args(["solve", "--size", "4x4", "-k", "4", "--resume"])
        .arg(&journal)
        .arg("--certificate")
        .arg(&link)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the same file as --resume"));
    ttt()
        .args(["join", "--output"])
        .arg(&link)
        .arg(&journal)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the same file as the part"));
    assert_eq!(std::fs::read(&journal).unwrap(), before);
    assert_eq!(files_in(dir.path()), ["444.parts", "link.parts"]);
}

#[test]
fn numbers_after_a_first_move_are_read_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let parts = prove_parts(dir.path(), "4x4", "4");
    let cert = dir.path().join("444.cert");
    join(&cert, &parts).success();
    let text = std::fs::read_to_string(&cert).unwrap();
    let head = text
        .lines()
        .find(|l| l.starts_with("strategy o blocks x after "))
        .unwrap();
    let cell = head.rsplit(' ').next().unwrap();
    for bad in [format!("0{cell}"), format!("+{cell}")] {
        let changed = text.replacen(head, &head.replace(cell, &bad), 1);
        let err = check_text(&changed).unwrap_err();
        assert!(err.contains(&format!("`after {bad}`")), "{err}");
    }
}

#[test]
fn json_into_a_closed_pipe_ends_quietly() {
    // `ttt solve --list-parts --json | head -1`, with the reader gone before
    // the first write: JSON output meets the closed pipe inside serde_json.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ttt"))
        .args([
            "solve",
            "--size",
            "8x8",
            "-k",
            "5",
            "--list-parts",
            "--json",
        ])
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "quiet on EPIPE");
    assert!(out.status.success());
}

#[test]
fn a_resumed_proof_proves_as_many_parts_at_once_as_it_has_threads() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("775.parts");
    let cert = dir.path().join("775.cert");
    let out = stdout_of(&[
        "solve",
        "--size",
        "7x7",
        "-k",
        "5",
        "--threads",
        "2",
        "--tt-mb",
        "64",
        "--resume",
        journal.to_str().unwrap(),
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    // Every part once, counted in the order they were settled.
    for n in 1..=11 {
        assert_eq!(
            out.matches(&format!("({n} of 11 to do)")).count(),
            1,
            "{out}"
        );
    }
    assert!(out.contains("7x7 k=5: draw"), "{out}");
    assert_eq!(sections(&journal), 11);
    let verified = stdout_of(&["verify", cert.to_str().unwrap()]);
    assert!(verified.contains("valid proof: 7x7 k=5 draw"), "{verified}");

    // 8x8 k=5 on two threads: parts 1 and 2 are proved side by side, so a
    // stop a moment in names both, and keeps no part.
    let journal = dir.path().join("885.parts");
    let child = std::process::Command::new(ttt_path())
        .args(["solve", "--size", "8x8", "-k", "5", "--threads", "2"])
        .args(["--tt-mb", "64", "--resume"])
        .arg(&journal)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("interrupted in parts 1 and 2 after"),
        "{stderr}"
    );
    assert!(
        stderr.contains("the 0 parts settled so far are kept"),
        "{stderr}"
    );
    assert_eq!(sections(&journal), 0);
}
