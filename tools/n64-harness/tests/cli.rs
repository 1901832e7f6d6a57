//! Command-line behaviour without an emulator: a bad script and missing
//! plugins. The ROM's e2e scripts run from `make -C n64 e2e`.

use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_n64-harness");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("n64-harness-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn malformed_script_fails_with_line_number() {
    let dir = temp_dir("bad");
    // Stand-in plugin files: the script is rejected before anything loads.
    std::fs::write(dir.join("libm64p_video_plugin.so"), b"").unwrap();
    std::fs::write(dir.join("libm64p_input_plugin.so"), b"").unwrap();
    std::fs::write(dir.join("libm64p_audio_plugin.so"), b"").unwrap();
    let script = dir.join("bad.script");
    std::fs::write(&script, "run 10\n# fine\nat 5 press X on 1\n").unwrap();
    let out = Command::new(BIN)
        .arg("run")
        .arg(&script)
        .args(["--rom", "nonexistent.z64", "--plugin-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("bad.script:3: unknown button `X`"),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().last(),
        Some("0 passed, 1 failed"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_plugins_are_explained() {
    let dir = temp_dir("noplugins");
    let script = dir.join("ok.script");
    std::fs::write(&script, "run 10\n").unwrap();
    let out = Command::new(BIN)
        .arg("run")
        .arg(&script)
        .arg("--plugin-dir")
        .arg(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("libm64p_video_plugin.so"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
