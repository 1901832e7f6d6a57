//! The liveness rule shared by `every` and `expect screen changes`: no
//! stretch without an event longer than the period.

/// The longest stretch without an event: `events` (sorted frames within
/// `from..=end`) must leave no gap longer than `period` between `from`,
/// themselves and `end`.
pub fn gap_check(period: u32, from: u32, end: u32, events: &[u32], what: &str) -> (bool, String) {
    let mut worst = (0, from, from);
    let mut prev = from;
    for &f in events.iter().chain(std::iter::once(&end)) {
        let gap = f.saturating_sub(prev);
        if gap > worst.0 {
            worst = (gap, prev, f);
        }
        prev = prev.max(f);
    }
    let (gap, a, b) = worst;
    let passed = gap <= period;
    let detail = if passed {
        format!(
            "{} {what} in frames {from}..{end}, longest gap {gap} frames",
            events.len()
        )
    } else if events.is_empty() {
        format!("no {what} in frames {from}..{end}")
    } else {
        format!(
            "{} {what} in frames {from}..{end}, but none in frames {a}..{b} ({gap} frames)",
            events.len()
        )
    };
    (passed, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps() {
        assert!(gap_check(10, 0, 30, &[10, 20], "x").0);
        let (ok, detail) = gap_check(10, 0, 30, &[10, 25], "ticks");
        assert!(!ok);
        assert_eq!(
            detail,
            "2 ticks in frames 0..30, but none in frames 10..25 (15 frames)"
        );
        // The stretch after the last event counts too.
        assert!(!gap_check(10, 0, 31, &[10, 20], "x").0);
        assert_eq!(
            gap_check(10, 5, 30, &[], "ticks").1,
            "no ticks in frames 5..30"
        );
    }
}
