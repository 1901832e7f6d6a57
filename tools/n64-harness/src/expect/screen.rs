//! `expect screen changes every N`: the framebuffer keeps changing.

use super::gap::gap_check;
use super::CheckResult;
use std::fmt::Write as _;

/// `expect screen changes every N`: the framebuffer's content changes at
/// least once in every `period` frames of `from..=to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScreenChanges {
    pub period: u32,
    pub from: u32,
    /// `None`: the end of the run.
    pub to: Option<u32>,
    pub line: usize,
}

/// `expect screen changes every N`.
pub fn check(c: &ScreenChanges, changes: &[u32], frames: u32) -> CheckResult {
    let mut what = format!("expect screen changes every {}", c.period);
    if c.from > 0 {
        let _ = write!(what, " from {}", c.from);
    }
    if let Some(to) = c.to {
        let _ = write!(what, " to {to}");
    }
    let end = c.to.unwrap_or(frames).min(frames);
    let inside: Vec<u32> = changes
        .iter()
        .copied()
        .filter(|f| *f > c.from && *f <= end)
        .collect();
    let (passed, detail) = gap_check(c.period, c.from, end, &inside, "changes");
    CheckResult {
        line: c.line,
        passed,
        what,
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_changes() {
        let c = ScreenChanges {
            period: 100,
            from: 50,
            to: None,
            line: 1,
        };
        let changes = [10, 60, 140, 230, 300];
        let r = check(&c, &changes, 390);
        assert!(r.passed, "{}", r.detail);
        let r = check(&c, &changes, 420);
        assert!(!r.passed);
        assert!(r.detail.contains("none in frames 300..420"), "{}", r.detail);
        let c = ScreenChanges { to: Some(200), ..c };
        assert!(check(&c, &[], 1000).detail.contains("no changes"));
    }
}
