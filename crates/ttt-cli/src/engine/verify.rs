//! `ttt verify FILE`: checks a proof certificate (format: see
//! [`super::certificate`]) without trusting the prover that made it: this
//! module uses only the rules (`Position`, `Rules`), never the search code
//! or the writer.
use std::collections::{HashMap, HashSet};
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;
use ttt_core::{Direction, Mark, Outcome, Position, Rules, Square, Symmetry};

use crate::common::{grouped, input_error};

const AFTER_HELP: &str = "\
Reads a certificate written by `ttt solve --certificate FILE` and plays every
game its strategies allow from the empty board, checking that each one ends as
claimed. Exit status 0: the proof holds; 2: it is malformed or wrong (the
reason is printed).

Example:
  ttt solve --size 5x5 -k 4 --certificate 554.cert && ttt verify 554.cert";

/// Arguments of `ttt verify`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct VerifyArgs {
    /// The certificate file.
    pub file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// What a checked strategy achieves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Goal {
    Blocks,
    Wins,
}

struct Strategy {
    player: Mark,
    goal: Goal,
    /// Canonical board text (P to move) to P's reply in that frame.
    replies: HashMap<String, Square>,
}

/// A parsed certificate.
pub struct Claim {
    rules: Rules,
    claim: &'static str,
    strategies: Vec<Strategy>,
}

/// The result of a successful check.
#[derive(Serialize, Debug)]
pub struct Checked {
    /// The board, `CxR k=K`.
    pub rules: String,
    /// `draw`, `x wins` or `o wins`.
    pub claim: &'static str,
    /// Positions visited over all strategies (one per symmetry class).
    pub positions: u64,
    /// Strategy entries in the file.
    pub entries: usize,
}

/// Runs `ttt verify`.
pub fn run(args: &VerifyArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| input_error(format!("cannot read {}: {e}", args.file.display())))?;
    let start = Instant::now();
    let checked = check_text(&text).map_err(|e| {
        input_error(format!(
            "{}: certificate rejected: {e}",
            args.file.display()
        ))
    })?;
    let secs = start.elapsed().as_secs_f64();
    let mut out = io::stdout().lock();
    if args.json {
        #[derive(Serialize)]
        struct Json<'a> {
            file: String,
            valid: bool,
            #[serde(flatten)]
            checked: &'a Checked,
            seconds: f64,
        }
        serde_json::to_writer_pretty(
            &mut out,
            &Json {
                file: args.file.display().to_string(),
                valid: true,
                checked: &checked,
                seconds: secs,
            },
        )?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "{}: valid proof: {} {} ({} entries, {} positions checked, {secs:.3} s)",
            args.file.display(),
            checked.rules,
            checked.claim,
            grouped(checked.entries as u64),
            grouped(checked.positions)
        )?;
    }
    Ok(())
}

/// Parses and checks certificate text; the error says what is wrong.
pub fn check_text(text: &str) -> Result<Checked, String> {
    let claim = parse(text)?;
    let needed: &[(Mark, Goal)] = match claim.claim {
        "draw" => &[(Mark::O, Goal::Blocks), (Mark::X, Goal::Blocks)],
        "x wins" => &[(Mark::X, Goal::Wins)],
        _ => &[(Mark::O, Goal::Wins)],
    };
    let mut positions = 0;
    for &(player, goal) in needed {
        let s = claim
            .strategies
            .iter()
            .find(|s| s.player == player && s.goal == goal)
            .ok_or_else(|| format!("claim {} needs {}", claim.claim, describe(player, goal)))?;
        let mut checker = Checker {
            strategy: s,
            seen: HashSet::new(),
        };
        checker
            .check(&mut Position::new(claim.rules))
            .map_err(|e| format!("{}: {e}", describe(player, goal)))?;
        positions += checker.seen.len() as u64;
    }
    Ok(Checked {
        rules: claim.rules.to_string(),
        claim: claim.claim,
        positions,
        entries: claim.strategies.iter().map(|s| s.replies.len()).sum(),
    })
}

fn describe(player: Mark, goal: Goal) -> String {
    let p = name(player);
    match goal {
        Goal::Blocks => format!("strategy {p} blocks {}", name(player.other())),
        Goal::Wins => format!("strategy {p} wins"),
    }
}

fn name(m: Mark) -> &'static str {
    match m {
        Mark::X => "x",
        Mark::O => "o",
    }
}

/// Reads the file format; every line must make sense.
pub fn parse(text: &str) -> Result<Claim, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let mut next = |what: &str| {
        lines
            .next()
            .ok_or_else(|| format!("unexpected end of file: expected {what}"))
    };
    let (n, magic) = next("the header")?;
    if magic != "ttt-certificate 1" {
        return Err(format!("line {n}: not a ttt certificate (version 1)"));
    }
    let (n, rules_line) = next("the rules")?;
    let rules: Rules = rules_line
        .strip_prefix("rules ")
        .and_then(|r| r.parse().ok())
        .ok_or_else(|| format!("line {n}: expected `rules CxR k=K`"))?;
    let (n, claim_line) = next("the claim")?;
    let claim = match claim_line {
        "claim draw" => "draw",
        "claim x wins" => "x wins",
        "claim o wins" => "o wins",
        _ => return Err(format!("line {n}: expected `claim draw|x wins|o wins`")),
    };
    let mut strategies: Vec<Strategy> = Vec::new();
    while let Some((n, line)) = lines.next() {
        let head = line
            .strip_prefix("strategy ")
            .ok_or_else(|| format!("line {n}: expected `strategy ...`"))?;
        let (player, goal) = match head {
            "x blocks o" => (Mark::X, Goal::Blocks),
            "o blocks x" => (Mark::O, Goal::Blocks),
            "x wins" => (Mark::X, Goal::Wins),
            "o wins" => (Mark::O, Goal::Wins),
            _ => return Err(format!("line {n}: unknown strategy `{head}`")),
        };
        if strategies
            .iter()
            .any(|s| s.player == player && s.goal == goal)
        {
            return Err(format!("line {n}: strategy `{head}` given twice"));
        }
        let mut replies = HashMap::new();
        loop {
            let (n, line) = lines
                .next()
                .ok_or_else(|| format!("unexpected end of file in strategy `{head}`"))?;
            if line == "end" {
                break;
            }
            let (board, mv) = line
                .split_once(' ')
                .ok_or_else(|| format!("line {n}: expected `BOARD MOVE`"))?;
            let pos = Position::from_board(board, Some(rules.k()))
                .map_err(|e| format!("line {n}: bad board: {e}"))?;
            if *pos.rules() != rules {
                return Err(format!("line {n}: board is not {rules}"));
            }
            if pos.outcome().is_over() || pos.side_to_move() != player {
                return Err(format!(
                    "line {n}: not a position with {} to move",
                    name(player)
                ));
            }
            let number: u16 = mv
                .trim()
                .parse()
                .map_err(|_| format!("line {n}: bad move `{mv}`"))?;
            let sq = square_of(&rules, number)
                .filter(|&sq| pos.is_legal(sq))
                .ok_or_else(|| format!("line {n}: move {number} is not legal there"))?;
            let (key, sym) = canonical(&pos);
            if replies.insert(key, sym.apply(sq, &rules)).is_some() {
                return Err(format!("line {n}: position given twice (up to symmetry)"));
            }
        }
        strategies.push(Strategy {
            player,
            goal,
            replies,
        });
    }
    Ok(Claim {
        rules,
        claim,
        strategies,
    })
}

/// The square with 1-based row-major number `number`.
fn square_of(rules: &Rules, number: u16) -> Option<Square> {
    let i = number.checked_sub(1)?;
    let cols = rules.columns() as u16;
    let (c, r) = (i % cols, i / cols);
    Square::new(c as u8, r as u8).filter(|&s| rules.contains(s) && r < rules.rows() as u16)
}

/// The smallest board text over the symmetries, and the symmetry giving it.
fn canonical(pos: &Position) -> (String, Symmetry) {
    Symmetry::of(pos.rules())
        .iter()
        .map(|&s| (pos.transformed(s).to_string(), s))
        .min_by(|a, b| a.0.cmp(&b.0))
        .unwrap_or_else(|| (pos.to_string(), Symmetry::Identity))
}

struct Checker<'s> {
    strategy: &'s Strategy,
    /// Canonical boards already proven fine.
    seen: HashSet<String>,
}

impl Checker<'_> {
    fn check(&mut self, pos: &mut Position) -> Result<(), String> {
        let p = self.strategy.player;
        let q = p.other();
        match (pos.outcome(), self.strategy.goal) {
            (Outcome::Win(w), _) if w == p => return Ok(()),
            (Outcome::Win(_), Goal::Blocks) => {
                return Err(format!("{} completes a line in {pos}", name(q)))
            }
            (Outcome::Win(_), Goal::Wins) | (Outcome::Draw, Goal::Wins) => {
                return Err(format!(
                    "the game {pos} ends without a line for {}",
                    name(p)
                ))
            }
            (Outcome::Draw, Goal::Blocks) => return Ok(()),
            (Outcome::InProgress, _) => {}
        }
        if self.strategy.goal == Goal::Blocks && erdos_selfridge_blocks(pos, p) {
            return Ok(());
        }
        let (key, sym) = canonical(pos);
        if self.seen.contains(&key) {
            return Ok(());
        }
        if pos.side_to_move() == p {
            let reply = *self
                .strategy
                .replies
                .get(&key)
                .ok_or_else(|| format!("no reply for {pos} ({} to move)", name(p)))?;
            let mv = sym.inverse().apply(reply, pos.rules());
            pos.play(mv)
                .map_err(|e| format!("the reply in {pos} is illegal: {e}"))?;
            let r = self.check(pos);
            pos.undo();
            r?;
        } else {
            for sq in pos.legal_moves() {
                pos.play(sq).map_err(|e| e.to_string())?;
                let r = self.check(pos);
                pos.undo();
                r?;
            }
        }
        self.seen.insert(key);
        Ok(())
    }
}

/// Whether `p` can keep the other side (q) from ever completing a line,
/// by the Erdos-Selfridge theorem on the lines holding no `p` mark (each
/// with k minus q's marks cells still needed): the sum of 2^-(cells needed)
/// below 1 with `p` to move, below 1/2 with q to move. In units of 2^-k: the
/// sum of 2^(q's marks) below 2^k, resp. 2^(k-1).
fn erdos_selfridge_blocks(pos: &Position, p: Mark) -> bool {
    let rules = pos.rules();
    let k = rules.k() as u32;
    let mut sum: u64 = 0;
    for start in rules.squares() {
        for d in Direction::ALL {
            let mut line = Vec::with_capacity(k as usize);
            for i in 0..k as i8 {
                match start.step(d, i) {
                    Some(s) if rules.contains(s) => line.push(pos.get(s)),
                    _ => break,
                }
            }
            if line.len() < k as usize || line.contains(&Some(p)) {
                continue;
            }
            let q_marks = line.iter().filter(|c| c.is_some()).count() as u32;
            sum += 1 << q_marks;
        }
    }
    let limit = if pos.side_to_move() == p {
        1u64 << k
    } else {
        1u64 << (k - 1)
    };
    sum < limit
}
