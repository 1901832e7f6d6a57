//! Helpers shared by the tests that run the real `ttt` binary.
#![allow(dead_code)] // each test file uses its own subset

use assert_cmd::Command;

/// The `ttt` binary of this build.
pub fn ttt() -> Command {
    Command::new(ttt_path())
}

/// The path of the `ttt` binary under test: this build's, unless
/// `CARGO_BIN_EXE_ttt` names another at run time (to run a test against an
/// older build and see it fail there).
pub fn ttt_path() -> std::path::PathBuf {
    std::env::var_os("CARGO_BIN_EXE_ttt")
        .map_or_else(|| env!("CARGO_BIN_EXE_ttt").into(), Into::into)
}

/// A command that runs `program` with its address space limited to
/// `kib` KiB (`ulimit -v`): a program whose memory grows without bound
/// fails there instead of taking the machine's memory.
pub fn with_memory_limit(kib: u64, program: &std::path::Path) -> std::process::Command {
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(program);
    command
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

/// The fake Gomocup engine (an example of this crate, built by `cargo test`).
pub fn fake_engine_path() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/deps/<test>-<hash> -> target/<profile>/examples/
    let dir = exe.parent().unwrap().parent().unwrap();
    let path = dir.join("examples").join("fake-engine");
    assert!(
        path.exists(),
        "{} is missing: `cargo test` builds it, or `cargo build --example fake-engine`",
        path.display()
    );
    path
}
