//! The files `ttt` writes, written the way careful tools write them (issue
//! 51): a regular file replaced whole with its mode kept, a new one made as
//! the umask says, a symbolic link written through, a device or a FIFO
//! written into, a block device or a socket refused; and no temporary file
//! left behind by whatever signal ends the program.
mod common;

use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::ttt_path;

/// `ttt solve` on 3x3 with a certificate to `path` (one thread: the same
/// file every run), run by `sh -c` with `umask`.
fn solve_3x3_into(path: &Path, umask: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
        .arg(ttt_path())
        .args(["solve", "--threads", "1", "--certificate"])
        .arg(path)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The 3x3 certificate, as written to a plain new file.
fn certificate_text() -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plain.cert");
    let out = solve_3x3_into(&path, "022");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("ttt-certificate 3\n"), "{text}");
    text
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// Names of the files left in `dir`.
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_new_file_follows_the_umask_and_a_replaced_one_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    for (umask, expected) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let path = dir.path().join(format!("new-{umask}.cert"));
        let out = solve_3x3_into(&path, umask);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(mode(&path), expected, "umask {umask}");
    }
    // An existing file's mode is kept, whatever the umask.
    let kept = dir.path().join("kept.cert");
    for old_mode in [0o644, 0o640, 0o604] {
        fs::write(&kept, "old").unwrap();
        fs::set_permissions(&kept, fs::Permissions::from_mode(old_mode)).unwrap();
        let out = solve_3x3_into(&kept, "077");
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(mode(&kept), old_mode);
        assert!(fs::read_to_string(&kept)
            .unwrap()
            .starts_with("ttt-certificate"));
    }
    // Nothing else left in the folder.
    assert_eq!(
        files_in(dir.path()),
        ["kept.cert", "new-002.cert", "new-022.cert", "new-077.cert"]
    );
}

#[test]
fn a_symbolic_link_is_written_through_never_replaced() {
    let text = certificate_text();
    let dir = tempfile::tempdir().unwrap();
    let real_dir = dir.path().join("real");
    fs::create_dir(&real_dir).unwrap();
    let real = real_dir.join("target.cert");
    fs::write(&real, "old").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("link.cert");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = solve_3x3_into(&link, "022");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(fs::read_to_string(&real).unwrap(), text);
    assert_eq!(mode(&real), 0o640);
    // A link to a file not there yet: the file is made where it points.
    let dangling = dir.path().join("dangling.cert");
    let later = real_dir.join("later.cert");
    std::os::unix::fs::symlink(&later, &dangling).unwrap();
    let out = solve_3x3_into(&dangling, "022");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::symlink_metadata(&dangling).unwrap().is_symlink());
    assert_eq!(fs::read_to_string(&later).unwrap(), text);
    assert_eq!(files_in(&real_dir), ["later.cert", "target.cert"]);
}

#[test]
fn devices_and_pipes_are_written_into() {
    let text = certificate_text();
    // /dev/null stays the device (run as root, ttt replaced it before).
    let out = solve_3x3_into(Path::new("/dev/null"), "022");
    assert!(out.status.success(), "{}", stderr(&out));
    let null = fs::metadata("/dev/null").unwrap();
    assert!(null.file_type().is_char_device(), "/dev/null replaced");
    // A FIFO: its reader gets the certificate, and it stays a FIFO.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    let out = solve_3x3_into(&fifo, "022");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(reader.join().unwrap(), text);
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(files_in(dir.path()), ["pipe"]);
    // /dev/stdout, a pipe or a file: the certificate, then the result.
    let out = solve_3x3_into(Path::new("/dev/stdout"), "022");
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with(&text), "{stdout}");
    assert!(
        stdout[text.len()..].starts_with("3x3 k=3: draw"),
        "{stdout}"
    );
    let file = dir.path().join("out.txt");
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" solve --threads 1 --certificate /dev/stdout > \"$1\"")
        .arg(ttt_path())
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let written = fs::read_to_string(&file).unwrap();
    assert!(written.starts_with(&text), "{written}");
    assert!(
        written[text.len()..].starts_with("3x3 k=3: draw"),
        "{written}"
    );
}

#[test]
fn block_devices_and_sockets_are_refused_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let mut refused = vec![(socket.clone(), "is a socket")];
    // Any block device there is (a disk: never written over, even as root).
    let block = fs::read_dir("/dev").ok().and_then(|entries| {
        entries
            .flatten()
            .map(|e| e.path())
            .find(|p| fs::metadata(p).is_ok_and(|m| m.file_type().is_block_device()))
    });
    match block {
        Some(device) => refused.push((device, "is a block device")),
        None => eprintln!("no block device in /dev: that case is not checked here"),
    }
    for (path, why) in refused {
        let out = solve_3x3_into(&path, "022");
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let expected = format!("--certificate {}: {why}", path.display());
        assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
        assert!(out.stdout.is_empty(), "refused before solving");
    }
    assert_eq!(files_in(dir.path()), ["socket"]);
}

/// Starts `ttt solve` on a board whose proof takes hours, with a
/// certificate in `dir`, and waits until it is well into the proof.
fn long_solve_into(dir: &Path) -> std::process::Child {
    let child = Command::new(ttt_path())
        .args(["solve", "--size", "8x8", "-k", "5", "--threads", "1"])
        .arg("--certificate")
        .arg(dir.join("proof.cert"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The temporary file beside the certificate is there from the start.
    let start = Instant::now();
    while files_in(dir).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no temporary file"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300));
    child
}

#[test]
fn every_signal_that_ends_a_solve_removes_its_temporary_file() {
    use rustix::process::Signal;
    for signal in [Signal::INT, Signal::TERM, Signal::HUP] {
        let dir = tempfile::tempdir().unwrap();
        let child = long_solve_into(dir.path());
        let pid = rustix::process::Pid::from_child(&child);
        rustix::process::kill_process(pid, signal).unwrap();
        let out = child.wait_with_output().unwrap();
        // Stopped cleanly, as --help says: exit status 2, no result.
        assert_eq!(out.status.code(), Some(2), "{signal:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("no result"), "{}", stderr(&out));
        assert!(
            files_in(dir.path()).is_empty(),
            "{signal:?} left {:?}",
            files_in(dir.path())
        );
    }
    // Two at once: ended at once (128 + the signal), the file removed all
    // the same.
    for (signal, status) in [(Signal::TERM, 143), (Signal::INT, 130)] {
        let dir = tempfile::tempdir().unwrap();
        let child = long_solve_into(dir.path());
        let pid = rustix::process::Pid::from_child(&child);
        rustix::process::kill_process(pid, signal).unwrap();
        rustix::process::kill_process(pid, signal).unwrap();
        let out = child.wait_with_output().unwrap();
        let code = out.status.code();
        // The second may come after the first has ended the solve.
        assert!(
            code == Some(status) || code == Some(2),
            "{signal:?}: {code:?}"
        );
        assert!(
            files_in(dir.path()).is_empty(),
            "{signal:?} left {:?}",
            files_in(dir.path())
        );
    }
}

#[test]
fn ctrl_c_while_the_certificate_is_written_exits_2_as_help_says() {
    // 7x4 k=4: the proof takes a tenth of the certificate's time. Ctrl-C at
    // three times the proof's time falls in the certificate's work; if the
    // machine was slow and it fell in the proof, try again later.
    let proof = {
        let out = Command::new(ttt_path())
            .args([
                "solve",
                "--size",
                "7x4",
                "-k",
                "4",
                "--threads",
                "1",
                "--json",
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        Duration::from_secs_f64(json["proof_seconds"].as_f64().unwrap())
    };
    for attempt in 1..=4 {
        let dir = tempfile::tempdir().unwrap();
        let child = Command::new(ttt_path())
            .args(["solve", "--size", "7x4", "-k", "4", "--threads", "1"])
            .arg("--certificate")
            .arg(dir.path().join("proof.cert"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(proof * 3 * attempt + Duration::from_millis(100));
        let pid = rustix::process::Pid::from_child(&child);
        rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        if !err.contains("the certificate was interrupted") {
            assert!(err.contains("no result"), "{err}");
            continue;
        }
        assert_eq!(out.status.code(), Some(2), "{err}");
        // The value is known and printed; no file written, none left.
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("7x4 k=4: draw"), "{stdout}");
        assert!(err.contains("no file written"), "{err}");
        assert!(
            files_in(dir.path()).is_empty(),
            "{:?}",
            files_in(dir.path())
        );
        return;
    }
    panic!("Ctrl-C never fell in the certificate's work");
}

#[test]
fn a_record_goes_through_links_and_into_devices_and_refuses_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("games.txt");
    fs::write(&real, "").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let arena = |record: &Path| {
        Command::new(ttt_path())
            .args(["arena", "-x", "random", "-o", "random", "--games", "2"])
            .arg("--record")
            .arg(record)
            .output()
            .unwrap()
    };
    let out = arena(&link);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(fs::read_to_string(&real).unwrap().lines().count(), 2);
    assert_eq!(mode(&real), 0o640);
    let out = arena(Path::new("/dev/null"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    let socket = dir.path().join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let out = arena(&socket);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("--record {}: is a socket", socket.display())),
        "{}",
        stderr(&out)
    );
}
