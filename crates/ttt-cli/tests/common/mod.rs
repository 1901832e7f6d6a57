//! Helpers shared by the tests that run the real `ttt` binary.
#![allow(dead_code)] // each test file uses its own subset

use assert_cmd::Command;

/// The `ttt` binary of this build.
pub fn ttt() -> Command {
    Command::cargo_bin("ttt").unwrap()
}

/// What `ttt args...` prints when it succeeds (fails the test otherwise).
pub fn stdout_of(args: &[&str]) -> String {
    let out = ttt()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}
