//! Many runs at once: each script and CPU mode in a child process of its
//! own (mupen64plus-core keeps global state, so a run needs a fresh
//! process), a few at a time, their output printed in order and their
//! `N passed, M failed` lines added up.

use crate::script::CpuMode;
use anyhow::{Context as _, Result};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The child's closing line `N passed, M failed`.
fn parse_count_line(line: &str) -> Option<(usize, usize)> {
    let (p, f) = line.trim().split_once(" passed, ")?;
    let f = f.strip_suffix(" failed")?;
    Some((p.parse().ok()?, f.parse().ok()?))
}

/// One thing `run` reports on: a child run, or a script that failed to load.
pub enum Item {
    Bad {
        header: String,
        error: String,
    },
    Child {
        header: String,
        cmd: Command,
        /// Kill the child after this long.
        limit: Duration,
    },
}

/// Items that must run one after the other, in order (runs sharing a save
/// directory); everything else is a chain of one.
pub type Chain = Vec<(usize, Item)>;

/// Group `items` into chains: items with the same key (`Some`) form one
/// chain, in their order; chains are ordered by their first item.
pub fn chains(items: Vec<(Option<CpuMode>, Item)>) -> Vec<Chain> {
    let mut chains: Vec<Chain> = Vec::new();
    let mut keyed: Vec<(CpuMode, usize)> = Vec::new();
    for (index, (key, item)) in items.into_iter().enumerate() {
        match key.and_then(|k| keyed.iter().find(|(c, _)| *c == k).map(|(_, i)| *i)) {
            Some(chain) => chains[chain].push((index, item)),
            None => {
                if let Some(k) = key {
                    keyed.push((k, chains.len()));
                }
                chains.push(vec![(index, item)]);
            }
        }
    }
    chains
}

/// Run every item, `jobs` at a time (`1`: one after the other, each
/// child's output streamed as it comes); returns (passed, failed).
pub fn run_all(items: Vec<(Option<CpuMode>, Item)>, jobs: usize) -> (usize, usize) {
    if jobs <= 1 {
        run_sequential(items.into_iter().map(|(_, i)| i).collect())
    } else {
        run_parallel(chains(items), jobs)
    }
}

/// Run items one after the other, streaming each child's output.
fn run_sequential(items: Vec<Item>) -> (usize, usize) {
    let (mut passed, mut failed) = (0, 0);
    for item in items {
        let (_, p, f) = run_item(item, true);
        passed += p;
        failed += f;
    }
    (passed, failed)
}

/// Run up to `jobs` chains at once (each chain's items one after the
/// other); print each item's output, in order, when it is complete.
fn run_parallel(chains: Vec<Chain>, jobs: usize) -> (usize, usize) {
    let count = chains.len();
    let queue = std::sync::Mutex::new(chains.into_iter());
    let (tx, rx) = std::sync::mpsc::channel();
    let (mut passed, mut failed) = (0, 0);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(count) {
            let tx = tx.clone();
            let queue = &queue;
            scope.spawn(move || loop {
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                let Some(chain) = next else { break };
                for (index, item) in chain {
                    let result = run_item(item, false);
                    if tx.send((index, result)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut done = std::collections::BTreeMap::new();
        let mut next_to_print = 0;
        for (index, result) in rx {
            done.insert(index, result);
            while let Some((text, p, f)) = done.remove(&next_to_print) {
                print!("{text}");
                let _ = std::io::stdout().flush();
                passed += p;
                failed += f;
                next_to_print += 1;
            }
        }
    });
    (passed, failed)
}

/// Run one item; returns its output (empty when streamed) and counts.
fn run_item(item: Item, stream: bool) -> (String, usize, usize) {
    let mut out = Output {
        stream,
        text: String::new(),
    };
    match item {
        Item::Bad { header, error } => {
            out.line(&header);
            out.line(&format!("FAIL script: {error}"));
            (out.text, 0, 1)
        }
        Item::Child { header, cmd, limit } => {
            out.line(&header);
            let (p, f) = match run_child(cmd, limit, &mut out) {
                Ok(c) => c,
                Err(e) => {
                    out.line(&format!("FAIL run: {e:#}"));
                    (0, 1)
                }
            };
            (out.text, p, f)
        }
    }
}

/// Where a child's report goes: straight to stdout, or kept for later.
struct Output {
    stream: bool,
    text: String,
}

impl Output {
    fn line(&mut self, line: &str) {
        if self.stream {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        } else {
            self.text.push_str(line);
            self.text.push('\n');
        }
    }
}

/// Run a child, pass its output on, return its counts. A child that
/// crashes, hangs or prints no count line is one failure.
fn run_child(mut cmd: Command, limit: Duration, out: &mut Output) -> Result<(usize, usize)> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("starting the harness child process")?;
    let stdout = child.stdout.take().context("child stdout")?;
    let stream = out.stream;
    let reader = std::thread::spawn(move || {
        let mut counts = None;
        let mut kept = Output {
            stream,
            text: String::new(),
        };
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Some(c) = parse_count_line(&line) {
                counts = Some(c);
                continue;
            }
            kept.line(&line);
        }
        (counts, kept.text)
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (counts, text) = reader.join().unwrap_or((None, String::new()));
    out.text.push_str(&text);
    match (status, counts) {
        (None, _) => {
            out.line(&format!(
                "FAIL run: killed after {} s (hung)",
                limit.as_secs()
            ));
            Ok((counts.map_or(0, |c| c.0), counts.map_or(0, |c| c.1) + 1))
        }
        (Some(_), Some(c)) => Ok(c),
        (Some(status), None) => {
            out.line(&format!(
                "FAIL run: the harness process died ({status}) without results"
            ));
            Ok((0, 1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_line() {
        assert_eq!(parse_count_line("3 passed, 1 failed"), Some((3, 1)));
        assert_eq!(parse_count_line("x passed, 1 failed"), None);
        assert_eq!(parse_count_line("PASS line 3"), None);
    }

    #[test]
    fn runs_sharing_a_save_dir_chain_per_cpu_mode() {
        let bad = |n: usize| Item::Bad {
            header: n.to_string(),
            error: String::new(),
        };
        let (p, c) = (Some(CpuMode::Pure), Some(CpuMode::Cached));
        // Script-major order: s1/pure, s1/cached, s2/pure, s2/cached, then
        // an unchained item.
        let items = vec![
            (p, bad(0)),
            (c, bad(1)),
            (p, bad(2)),
            (c, bad(3)),
            (None, bad(4)),
        ];
        let got: Vec<Vec<usize>> = chains(items)
            .into_iter()
            .map(|chain| chain.into_iter().map(|(i, _)| i).collect())
            .collect();
        assert_eq!(got, vec![vec![0, 2], vec![1, 3], vec![4]]);
        let items = vec![(None, bad(0)), (None, bad(1))];
        assert_eq!(chains(items).len(), 2);
    }
}
