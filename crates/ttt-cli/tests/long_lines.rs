//! Every reader of lines bounds them: a line of 150 MB is refused with a
//! short message while the process stays under a 100 MB address-space limit,
//! and the next line is still read.
use std::process::Command;

/// Runs `program args` under `ulimit -v 100000` (KiB) with a 150 MB line
/// of `a` then `after` on stdin; returns stdout, stderr and the exit status.
fn with_huge_line(program: &str, args: &str, after: &str) -> (String, String, i32) {
    let script = format!(
        "ulimit -v 100000; (head -c 150000000 /dev/zero | tr '\\0' a; printf '\\n{after}') | {program} {args}"
    );
    let out = Command::new("sh")
        .args(["-c", &script])
        .env("XDG_DATA_HOME", std::env::temp_dir())
        .env("NO_COLOR", "1")
        .output()
        .expect("run sh");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

const QUOTED: &str = "(150000000 bytes, at most 65536): \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\"";

#[test]
fn plain_game_refuses_a_huge_line_and_reads_the_next() {
    let (out, err, code) = with_huge_line(
        env!("CARGO_BIN_EXE_ttt"),
        "--plain --mode two-player",
        "5\\nq\\n",
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("the line is too long {QUOTED}")),
        "{out}"
    );
    // The next line was played: X in the centre.
    assert!(out.contains(" 2    | X |"), "{out}");
    assert!(out.contains("Thanks for playing!"), "{out}");
}

#[test]
fn move_stdin_refuses_a_huge_line_with_a_short_error() {
    let (out, err, code) = with_huge_line(env!("CARGO_BIN_EXE_ttt"), "move -", "x........\\n");
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(
        err,
        format!("ttt: error: stdin line 1: the line is too long {QUOTED}\n")
    );
}

#[test]
fn pbrain_refuses_a_huge_line_and_goes_on() {
    for (program, args) in [
        (env!("CARGO_BIN_EXE_pbrain-ttt"), ""),
        (env!("CARGO_BIN_EXE_ttt"), "pbrain"),
    ] {
        let (out, err, code) = with_huge_line(program, args, "START 15\\nEND\\n");
        assert_eq!(code, 0, "{out}{err}");
        assert_eq!(out, format!("ERROR the line is too long {QUOTED}\nOK\n"));
    }
}
