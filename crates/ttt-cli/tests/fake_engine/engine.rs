//! A scripted Gomocup engine for the `ttt arena` tests: it plays the first
//! empty square (row by row) and misbehaves on request.
//!
//! `fake-engine [--fault KIND] [--at N] [--delay-ms MS] [--log FILE]`:
//! on its N-th move request of each game (default 1) it does KIND:
//! `illegal` (answers an occupied square), `offboard` (99,99), `garbage`
//! (an unreadable line), `error` (ERROR ...), `timeout` (never answers),
//! `crash` (writes to stderr and exits with status 3), `late` (answers
//! after --delay-ms). `ignore-end` makes it stay alive after END. `slow`
//! answers every request after --delay-ms. `flood` prints MESSAGE lines
//! without pause from its start, between its answers too. `long-message`
//! writes a MESSAGE line of 65,600 bytes (over arena's line limit) before
//! its move.
//! `forbidden` (for renju): it builds two crossing threes around the
//! centre and then plays the first cell forbidden to it (black), if any.
//! Every line it receives is appended to the log file as "PID LINE".
use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{self, BufRead, Write};
use std::process;
use std::thread;
use std::time::Duration;

use ttt_core::{Position, Rules, Square, SquareSet};

#[derive(Default)]
struct Script {
    fault: String,
    at: u32,
    delay_ms: u64,
    log: Option<String>,
}

fn parse_args() -> Script {
    let mut script = Script {
        at: 1,
        ..Script::default()
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--fault" => script.fault = value,
            "--at" => script.at = value.parse().unwrap_or(1),
            "--delay-ms" => script.delay_ms = value.parse().unwrap_or(0),
            "--log" => script.log = Some(value),
            other => {
                eprintln!("fake-engine: unknown argument {other}");
                process::exit(2);
            }
        }
        i += 2;
    }
    script
}

struct Game {
    width: u32,
    height: u32,
    stones: HashSet<(u32, u32)>,
    /// The stones it played or was given as its own (BOARD field 1).
    own: HashSet<(u32, u32)>,
    requests: u32,
}

impl Game {
    fn first_empty(&self) -> Option<(u32, u32)> {
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .find(|sq| !self.stones.contains(sq))
    }

    /// The `forbidden` fault's move: a cell forbidden to it under renju
    /// (when it is black, to move), else the next free cell of two threes
    /// crossing at the centre, else the first empty cell.
    fn toward_forbidden(&self) -> Option<(u32, u32)> {
        let rules = Rules::new(self.width as u8, self.height as u8, 5)
            .ok()
            .and_then(|r| r.with_renju().ok());
        let square = |&(x, y): &(u32, u32)| Square::new(x as u8, y as u8);
        let own: SquareSet = self.own.iter().filter_map(square).collect();
        let theirs: SquareSet = self
            .stones
            .iter()
            .filter(|sq| !self.own.contains(sq))
            .filter_map(square)
            .collect();
        if let Some(pos) = rules.and_then(|r| Position::from_marks(r, own, theirs).ok()) {
            if let Some(sq) = pos
                .empty_squares()
                .into_iter()
                .find(|&sq| pos.forbidden(sq).is_some())
            {
                return Some((u32::from(sq.column()), u32::from(sq.row())));
            }
        }
        let (cx, cy) = (self.width / 2, self.height / 2);
        [(cx - 2, cy), (cx - 1, cy), (cx, cy - 2), (cx, cy - 1)]
            .into_iter()
            .find(|sq| !self.stones.contains(sq))
            .or_else(|| self.first_empty())
    }
}

fn pair(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.split(',').map(|t| t.trim().parse::<u32>().ok());
    Some((parts.next()??, parts.next()??))
}

fn main() {
    let script = parse_args();
    let pid = process::id();
    let mut log = script.log.as_ref().map(|path| {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("the log file opens")
    });
    let stdin = io::stdin();
    // Not locked for good: the `flood` thread writes too (each line whole).
    let mut out = io::stdout();
    if script.fault == "flood" {
        thread::spawn(|| {
            // Whole lines in large writes: as fast as a pipe takes them.
            let block = format!("MESSAGE {}\n", "chatter ".repeat(12)).repeat(600);
            while io::stdout()
                .lock()
                .write_all(block.as_bytes())
                .and_then(|()| io::stdout().flush())
                .is_ok()
            {}
        });
    }
    let mut game = Game {
        width: 0,
        height: 0,
        stones: HashSet::new(),
        own: HashSet::new(),
        requests: 0,
    };
    let mut lines = stdin.lock().lines();
    while let Some(Ok(line)) = lines.next() {
        let line = line.trim().to_string();
        if let Some(log) = log.as_mut() {
            let _ = writeln!(log, "{pid} {line}");
        }
        let (word, rest) = line.split_once(' ').unwrap_or((&line, ""));
        let mut wants_move = false;
        match word.to_ascii_uppercase().as_str() {
            "START" => {
                let n = rest.trim().parse().unwrap_or(15);
                (game.width, game.height) = (n, n);
                game.stones.clear();
                game.own.clear();
                game.requests = 0;
                let _ = writeln!(out, "OK");
            }
            "RECTSTART" => {
                (game.width, game.height) = pair(rest).unwrap_or((15, 15));
                game.stones.clear();
                game.own.clear();
                game.requests = 0;
                let _ = writeln!(out, "OK");
            }
            "RESTART" => {
                game.stones.clear();
                game.own.clear();
                game.requests = 0;
                let _ = writeln!(out, "OK");
            }
            "BEGIN" => wants_move = true,
            "TURN" => {
                if let Some(sq) = pair(rest) {
                    game.stones.insert(sq);
                }
                wants_move = true;
            }
            "BOARD" => {
                for board_line in lines.by_ref() {
                    let Ok(board_line) = board_line else { break };
                    if let Some(log) = log.as_mut() {
                        let _ = writeln!(log, "{pid} {}", board_line.trim());
                    }
                    if board_line.trim().eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    if let Some(sq) = pair(&board_line) {
                        game.stones.insert(sq);
                        if board_line.trim().ends_with(",1") {
                            game.own.insert(sq);
                        }
                    }
                }
                wants_move = true;
            }
            "END" => {
                if script.fault == "ignore-end" {
                    loop {
                        thread::sleep(Duration::from_secs(60));
                    }
                }
                process::exit(0);
            }
            "ABOUT" => {
                let _ = writeln!(out, "name=\"fake-engine\"");
            }
            _ => {}
        }
        if wants_move {
            game.requests += 1;
            let faulty = game.requests == script.at;
            let _ = writeln!(out, "MESSAGE thinking about request {}", game.requests);
            if script.fault == "long-message" && faulty {
                let _ = writeln!(out, "MESSAGE {}", "a".repeat(65_600));
            }
            match script.fault.as_str() {
                "illegal" if faulty => {
                    let taken = game.stones.iter().min().copied().unwrap_or((0, 0));
                    let _ = writeln!(out, "{},{}", taken.0, taken.1);
                }
                "offboard" if faulty => {
                    let _ = writeln!(out, "99,99");
                }
                "garbage" if faulty => {
                    let _ = writeln!(out, "banana");
                }
                "error" if faulty => {
                    let _ = writeln!(out, "ERROR out of cheese");
                }
                "timeout" if faulty => {
                    let _ = out.flush();
                    thread::sleep(Duration::from_secs(600));
                }
                "crash" if faulty => {
                    eprintln!("fake-engine: crashing on purpose");
                    process::exit(3);
                }
                "forbidden" => {
                    if let Some(sq) = game.toward_forbidden() {
                        game.stones.insert(sq);
                        game.own.insert(sq);
                        let _ = writeln!(out, "{},{}", sq.0, sq.1);
                    }
                }
                fault => {
                    if (fault == "late" && faulty) || fault == "slow" {
                        let _ = out.flush();
                        thread::sleep(Duration::from_millis(script.delay_ms));
                    }
                    if let Some(sq) = game.first_empty() {
                        game.stones.insert(sq);
                        game.own.insert(sq);
                        let _ = writeln!(out, "{},{}", sq.0, sq.1);
                    }
                }
            }
        }
        let _ = out.flush();
    }
    if script.fault == "ignore-end" {
        loop {
            thread::sleep(Duration::from_secs(60));
        }
    }
}
