//! What one run produced, and its human-readable result lines.

use crate::audio::Capture;
use crate::expect::CheckResult;
use crate::script::CpuMode;
use std::fmt::Write as _;
use std::time::Duration;

/// IS-Viewer lines shown after a failed check.
pub const FAILURE_TAIL_LINES: usize = 20;

/// What a run produced.
#[derive(Clone, Debug)]
pub struct Report {
    pub cpu: CpuMode,
    /// Vertical interrupts seen.
    pub frames: u32,
    pub elapsed: Duration,
    /// CPU time (user + system) this process used during the run, when
    /// known: on a busy machine, frames per CPU second is the fairer speed.
    pub cpu_time: Option<Duration>,
    /// Sorted by script line.
    pub checks: Vec<CheckResult>,
    /// IS-Viewer lines, and the harness's own lines (`> rumble 1 on`),
    /// with the frame each arrived in.
    pub is_lines: Vec<(u32, String)>,
    /// Frames at which the framebuffer's content differed from the frame
    /// before (only tracked within `expect screen changes` windows).
    pub screen_changes: Vec<u32>,
    /// What the audio plugin reported (the samples only when the script
    /// checks audio).
    pub audio: Capture,
    /// Problems outside the checks (timeout, core errors): each one fails
    /// the run.
    pub errors: Vec<String>,
}

impl Report {
    pub fn passed(&self) -> usize {
        self.checks.iter().filter(|c| c.passed).count()
    }

    /// Failed checks plus run errors.
    pub fn failed(&self) -> usize {
        self.checks.iter().filter(|c| !c.passed).count() + self.errors.len()
    }

    pub fn frames_per_second(&self) -> f64 {
        self.frames as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The human-readable result lines (no closing count line).
    pub fn format(&self) -> String {
        let mut s = String::new();
        for c in &self.checks {
            let status = if c.passed { "PASS" } else { "FAIL" };
            let _ = writeln!(s, "{status} line {}: {} -- {}", c.line, c.what, c.detail);
        }
        for e in &self.errors {
            let _ = writeln!(s, "FAIL run: {e}");
        }
        if self.failed() > 0 {
            let n = self.is_lines.len();
            let tail = &self.is_lines[n.saturating_sub(FAILURE_TAIL_LINES)..];
            if tail.is_empty() {
                let _ = writeln!(s, "  (the ROM wrote no IS-Viewer line)");
            } else {
                let _ = writeln!(s, "  last {} of {n} IS-Viewer lines:", tail.len());
                for (f, l) in tail {
                    let _ = writeln!(s, "  [{f:>6}] {l}");
                }
            }
        }
        let _ = write!(
            s,
            "ran {} frames in {:.2} s ({:.0} frames/s, cpu {}",
            self.frames,
            self.elapsed.as_secs_f64(),
            self.frames_per_second(),
            self.cpu
        );
        match self.cpu_time {
            Some(t) if t.as_secs_f64() > 0.0 => {
                let _ = writeln!(
                    s,
                    "; {:.2} s CPU time, {:.0} frames per CPU second)",
                    t.as_secs_f64(),
                    f64::from(self.frames) / t.as_secs_f64()
                );
            }
            _ => s.push_str(")\n"),
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(frames: u32) -> Report {
        Report {
            cpu: CpuMode::Dynarec,
            frames,
            elapsed: Duration::from_secs(1),
            cpu_time: None,
            checks: Vec::new(),
            is_lines: Vec::new(),
            screen_changes: Vec::new(),
            audio: Capture::default(),
            errors: Vec::new(),
        }
    }

    #[test]
    fn failure_shows_the_last_log_lines() {
        let lines: Vec<(u32, String)> = (0..30).map(|i| (i * 10, format!("line {i}"))).collect();
        let mut r = report(300);
        r.is_lines = lines;
        assert!(!r.format().contains("IS-Viewer lines"));
        r.checks.push(CheckResult {
            line: 1,
            passed: false,
            what: "x".into(),
            detail: "y".into(),
        });
        let text = r.format();
        assert!(text.contains("last 20 of 30 IS-Viewer lines:"), "{text}");
        assert!(
            text.contains("[   100] line 10") && !text.contains("line 9\n"),
            "{text}"
        );
    }
}
