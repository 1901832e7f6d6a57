//! A peer Gomocup engine asked to move in one 15x15 freestyle position: the
//! driver the examples share (`search_profile`, `label_positions`).
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Starts `cmd` (through `sh -c`), gives it the position after `moves`
/// (square names such as `h8`, X first) with `ms` to think, hands each
/// line it prints to `on_line` up to its move, then ends it. Returns the
/// seconds from the position sent to the move read; an engine that ends
/// without a move is an error.
pub fn think(
    cmd: &str,
    moves: &[String],
    ms: u64,
    mut on_line: impl FnMut(&str),
) -> Result<f64, String> {
    let mut text =
        format!("START 15\nINFO timeout_turn {ms}\nINFO timeout_match 0\nINFO rule 0\nBOARD\n");
    let n = moves.len();
    for (i, m) in moves.iter().enumerate() {
        let x = m
            .bytes()
            .next()
            .and_then(|c| c.checked_sub(b'a'))
            .filter(|&x| x < 15);
        let y = m
            .get(1..)
            .and_then(|r| r.parse::<u32>().ok())
            .filter(|y| (1..=15).contains(y));
        let (Some(x), Some(y)) = (x, y) else {
            return Err(format!("bad move {m}"));
        };
        // The side to move is 1 (its own stones), the other 2.
        let who = if (n - i) % 2 == 0 { 1 } else { 2 };
        text.push_str(&format!("{x},{},{who}\n", y - 1));
    }
    text.push_str("DONE\n");
    let mut child = Command::new("sh")
        .args(["-c", cmd])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{cmd}: {e}"))?;
    let mut input = child.stdin.take().ok_or("no stdin")?;
    let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let began = Instant::now();
    input
        .write_all(text.as_bytes())
        .and_then(|()| input.flush())
        .map_err(|e| e.to_string())?;
    let mut moved = false;
    for line in output.lines() {
        let line = line.map_err(|e| e.to_string())?;
        on_line(&line);
        moved = line
            .trim()
            .split_once(',')
            .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok());
        if moved {
            break;
        }
    }
    let secs = began.elapsed().as_secs_f64();
    let _ = input.write_all(b"END\n");
    drop(input);
    let status = child.wait();
    if !moved {
        // Not run at all (sh says why on stderr, which is not read), or it
        // ended without a move: its verdicts would be silently missing.
        return Err(match status {
            Ok(s) => format!("{cmd}: ended without a move ({s})"),
            Err(e) => format!("{cmd}: {e}"),
        });
    }
    Ok(secs)
}
