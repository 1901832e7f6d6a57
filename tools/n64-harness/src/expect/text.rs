//! Expectations about the ROM's IS-Viewer output (`expect "text" by F`,
//! `every`, `after`, `sequence`, `count`, `not by`, numbers and bits after
//! a text) and their checks.

use super::gap::gap_check;
use super::CheckResult;
use std::fmt::Write as _;

/// An expectation about IS-Viewer output.
#[derive(Clone, Debug, PartialEq)]
pub enum TextExpect {
    /// A line containing `text` must appear in frames `from..=by`.
    Seen {
        text: String,
        from: u32,
        by: u32,
        line: usize,
    },
    /// No line containing `text` during the whole run.
    Never { text: String, line: usize },
    /// No line containing `text` in frames `from..=by`.
    Absent {
        text: String,
        from: u32,
        by: u32,
        line: usize,
    },
    /// A line containing `text` at least every `period` frames in
    /// `from..=to` (`to`: the end of the run when `None`): no gap between
    /// `from`, the matching lines and `to` is longer than `period`.
    Every {
        text: String,
        period: u32,
        from: u32,
        to: Option<u32>,
        line: usize,
    },
    /// Lines containing these texts appear in this order (each one after
    /// the line that matched the text before it).
    Sequence { texts: Vec<String>, line: usize },
    /// The number of lines containing `text` compares to `n`.
    Count {
        text: String,
        op: CountOp,
        n: usize,
        line: usize,
    },
    /// Every line containing `text` in frames `from..=by` (at least one)
    /// has a decimal number right after the text that compares to `n`
    /// (`expect "frame_us_max=" <= 16000 from 300 by 900`).
    Value {
        text: String,
        op: CountOp,
        n: u64,
        from: u32,
        by: u32,
        line: usize,
    },
    /// Every line containing `text` in frames `from..=by` (at least one)
    /// has a hexadecimal number right after the text (an optional `0x`
    /// prefix) with every bit of `mask` set
    /// (`expect "pif boot-done " has bits 0x8 by 30`).
    Bits {
        text: String,
        mask: u32,
        from: u32,
        by: u32,
        line: usize,
    },
}

/// The comparison of `expect count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountOp {
    Eq,
    AtLeast,
    AtMost,
}

impl CountOp {
    pub fn holds<T: Ord>(self, got: T, n: T) -> bool {
        match self {
            CountOp::Eq => got == n,
            CountOp::AtLeast => got >= n,
            CountOp::AtMost => got <= n,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            CountOp::Eq => "=",
            CountOp::AtLeast => ">=",
            CountOp::AtMost => "<=",
        }
    }
}

/// Check IS-Viewer expectations against the lines a run produced (with
/// the frame each arrived in) and the frames it ran.
pub fn check(texts: &[TextExpect], lines: &[(u32, String)], frames: u32) -> Vec<CheckResult> {
    let mut results = Vec::new();
    for t in texts {
        let result = match t {
            TextExpect::Seen {
                text,
                from,
                by,
                line,
            } => {
                let what = if *from > 0 {
                    format!("expect {text:?} from {from} by {by}")
                } else {
                    format!("expect {text:?} by {by}")
                };
                let hit = lines
                    .iter()
                    .find(|(f, l)| *f >= *from && *f <= *by && l.contains(text.as_str()));
                match hit {
                    Some((f, l)) => CheckResult {
                        line: *line,
                        passed: true,
                        what,
                        detail: format!("frame {f}: {l:?}"),
                    },
                    None => {
                        let later = lines
                            .iter()
                            .find(|(f, l)| *f > *by && l.contains(text.as_str()));
                        let detail = match later {
                            Some((f, l)) => format!("only at frame {f}: {l:?}"),
                            None if frames < *by => {
                                format!("not seen; the run ended at frame {frames}")
                            }
                            None => "not seen".to_string(),
                        };
                        CheckResult {
                            line: *line,
                            passed: false,
                            what,
                            detail,
                        }
                    }
                }
            }
            TextExpect::Never { text, line } => {
                let what = format!("expect no {text:?}");
                match lines.iter().find(|(_, l)| l.contains(text.as_str())) {
                    Some((f, l)) => CheckResult {
                        line: *line,
                        passed: false,
                        what,
                        detail: format!("frame {f}: {l:?}"),
                    },
                    None => CheckResult {
                        line: *line,
                        passed: true,
                        what,
                        detail: format!("not seen in {frames} frames"),
                    },
                }
            }
            TextExpect::Absent {
                text,
                from,
                by,
                line,
            } => {
                let what = if *from > 0 {
                    format!("expect no {text:?} from {from} by {by}")
                } else {
                    format!("expect {text:?} not by {by}")
                };
                let hit = lines
                    .iter()
                    .find(|(f, l)| *f >= *from && *f <= *by && l.contains(text.as_str()));
                let (passed, detail) = match hit {
                    Some((f, l)) => (false, format!("frame {f}: {l:?}")),
                    None if frames < *by => (false, format!("the run ended at frame {frames}")),
                    None => (true, "not seen".to_string()),
                };
                CheckResult {
                    line: *line,
                    passed,
                    what,
                    detail,
                }
            }
            TextExpect::Every {
                text,
                period,
                from,
                to,
                line,
            } => {
                let mut what = format!("expect {text:?} every {period}");
                if *from > 0 {
                    let _ = write!(what, " from {from}");
                }
                if let Some(to) = to {
                    let _ = write!(what, " to {to}");
                }
                let end = to.unwrap_or(frames).min(frames);
                let seen: Vec<u32> = lines
                    .iter()
                    .filter(|(f, l)| *f >= *from && *f <= end && l.contains(text.as_str()))
                    .map(|(f, _)| *f)
                    .collect();
                let (passed, detail) = gap_check(*period, *from, end, &seen, "matching lines");
                CheckResult {
                    line: *line,
                    passed,
                    what,
                    detail,
                }
            }
            TextExpect::Sequence { texts, line } => {
                let what = if texts.len() == 2 {
                    format!("expect {:?} after {:?}", texts[1], texts[0])
                } else {
                    let quoted: Vec<String> = texts.iter().map(|t| format!("{t:?}")).collect();
                    format!("expect sequence {}", quoted.join(" "))
                };
                let (passed, detail) = sequence_check(texts, lines);
                CheckResult {
                    line: *line,
                    passed,
                    what,
                    detail,
                }
            }
            TextExpect::Count { text, op, n, line } => {
                let matching: Vec<&(u32, String)> = lines
                    .iter()
                    .filter(|(_, l)| l.contains(text.as_str()))
                    .collect();
                let got = matching.len();
                let mut detail = format!("{got} lines");
                if let (Some((f0, _)), Some((f1, _))) = (matching.first(), matching.last()) {
                    let _ = write!(detail, " (frames {f0}..{f1})");
                }
                CheckResult {
                    line: *line,
                    passed: op.holds(got, *n),
                    what: format!("expect count {text:?} {} {n}", op.symbol()),
                    detail,
                }
            }
            TextExpect::Value {
                text,
                op,
                n,
                from,
                by,
                line,
            } => {
                let what = if *from > 0 {
                    format!("expect {text:?} {} {n} from {from} by {by}", op.symbol())
                } else {
                    format!("expect {text:?} {} {n} by {by}", op.symbol())
                };
                let (passed, detail) = value_check(lines, text, *op, *n, *from, *by);
                CheckResult {
                    line: *line,
                    passed,
                    what,
                    detail,
                }
            }
            TextExpect::Bits {
                text,
                mask,
                from,
                by,
                line,
            } => {
                let what = if *from > 0 {
                    format!("expect {text:?} has bits {mask:#x} from {from} by {by}")
                } else {
                    format!("expect {text:?} has bits {mask:#x} by {by}")
                };
                let (passed, detail) = bits_check(lines, text, *mask, *from, *by);
                CheckResult {
                    line: *line,
                    passed,
                    what,
                    detail,
                }
            }
        };
        results.push(result);
    }
    results
}

/// `expect "text" has bits M from A by B`: the hexadecimal number after
/// `text` (`0x` optional) in every line of frames `from..=by` that contains
/// it has every bit of `mask` set.
fn bits_check(
    lines: &[(u32, String)],
    text: &str,
    mask: u32,
    from: u32,
    by: u32,
) -> (bool, String) {
    let mut seen = 0;
    for (f, l) in lines.iter().filter(|(f, _)| *f >= from && *f <= by) {
        let Some(at) = l.find(text) else { continue };
        let rest = &l[at + text.len()..];
        let rest = rest.strip_prefix("0x").unwrap_or(rest);
        let digits: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
        let Ok(v) = u32::from_str_radix(&digits, 16) else {
            return (
                false,
                format!("frame {f}: no hexadecimal number after the text: {l:?}"),
            );
        };
        if v & mask != mask {
            return (
                false,
                format!("frame {f}: {v:#010x} lacks bits {:#x}", mask & !v),
            );
        }
        seen += 1;
    }
    if seen == 0 {
        return (false, format!("no line in frames {from}..{by}"));
    }
    (true, format!("{seen} lines, each with bits {mask:#x} set"))
}

/// `expect "text" <= N from A by B`: the number after `text` in every line
/// of frames `from..=by` that contains it.
fn value_check(
    lines: &[(u32, String)],
    text: &str,
    op: CountOp,
    n: u64,
    from: u32,
    by: u32,
) -> (bool, String) {
    let mut values = Vec::new();
    for (f, l) in lines.iter().filter(|(f, _)| *f >= from && *f <= by) {
        let Some(at) = l.find(text) else { continue };
        let digits: String = l[at + text.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        match digits.parse::<u64>() {
            Ok(v) => values.push((*f, v)),
            Err(_) => return (false, format!("frame {f}: no number after the text: {l:?}")),
        }
    }
    let Some(&(f0, _)) = values.first() else {
        return (false, format!("no line in frames {from}..{by}"));
    };
    if let Some((f, v)) = values.iter().find(|(_, v)| !op.holds(*v, n)) {
        return (
            false,
            format!("frame {f}: {v} (of {} lines from frame {f0})", values.len()),
        );
    }
    let (min, max) = values
        .iter()
        .fold((u64::MAX, 0), |(lo, hi), (_, v)| (lo.min(*v), hi.max(*v)));
    (
        true,
        format!(
            "{} lines from frame {f0}, values {min}..{max}",
            values.len()
        ),
    )
}
/// `expect sequence`: each text on a line after the line of the one before.
fn sequence_check(texts: &[String], lines: &[(u32, String)]) -> (bool, String) {
    let mut pos = 0;
    let mut found: Vec<u32> = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        match lines[pos..]
            .iter()
            .position(|(_, l)| l.contains(text.as_str()))
        {
            Some(k) => {
                found.push(lines[pos + k].0);
                pos += k + 1;
            }
            None => {
                let detail = if i == 0 {
                    format!("{text:?} not seen")
                } else {
                    let prev = &texts[i - 1];
                    let anywhere = lines.iter().find(|(_, l)| l.contains(text.as_str()));
                    match anywhere {
                        Some((f, _)) => format!(
                            "{text:?} not seen after {prev:?} (frame {}); only before, at frame {f}",
                            found[i - 1]
                        ),
                        None => format!(
                            "{text:?} not seen (after {prev:?} at frame {})",
                            found[i - 1]
                        ),
                    }
                };
                return (false, detail);
            }
        }
    }
    let frames: Vec<String> = found.iter().map(u32::to_string).collect();
    (true, format!("at frames {}", frames.join(", ")))
}
