//! The summary of a match on stdout: a table of results (or JSON).
use std::io::{self, Write};

use serde::Serialize;

use super::elo::EloEstimate;
use super::tally::Tally;
use super::{ArenaArgs, Match};

/// Prints the summary of the games in `tally` (all of them, or those
/// finished before an interruption).
pub(super) fn print_summary(args: &ArenaArgs, m: &Match, tally: &Tally) -> io::Result<()> {
    let (first, second) = (m.first.label(), m.second.label());
    let elo = tally.elo();
    let turn_ms = |side: usize| m.clocks[side].turn.map(|d| d.as_millis() as u64);
    let mut out = io::stdout().lock();
    if args.json {
        #[derive(Serialize)]
        struct Json<'a> {
            rules: String,
            x: String,
            o: String,
            swap: bool,
            openings: Option<String>,
            openings_file: Option<String>,
            openings_skip: usize,
            seed: u64,
            /// Time per move when both sides have the same.
            time_ms: Option<u64>,
            time_x_ms: Option<u64>,
            time_o_ms: Option<u64>,
            game_time_ms: Option<u64>,
            grace_ms: u64,
            #[serde(flatten)]
            tally: &'a Tally,
            elo: Option<EloEstimate>,
        }
        let json = Json {
            rules: m.rules.to_string(),
            x: first.clone(),
            o: second.clone(),
            swap: m.swap,
            openings: args.openings.map(|s| s.to_string()),
            openings_file: args.openings_file.as_ref().map(|p| p.display().to_string()),
            openings_skip: args.openings_skip,
            seed: args.seed,
            time_ms: if turn_ms(0) == turn_ms(1) {
                turn_ms(0)
            } else {
                None
            },
            time_x_ms: turn_ms(0),
            time_o_ms: turn_ms(1),
            game_time_ms: args.game_time,
            grace_ms: args.grace,
            tally,
            elo,
        };
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        let colours = match (args.openings, &args.openings_file, m.swap) {
            (Some(stones), _, _) => {
                format!("openings of {stones} stones, each played twice with colours swapped")
            }
            (None, Some(file), _) => format!(
                "the openings of {}{}, each played twice with colours swapped",
                file.display(),
                match args.openings_skip {
                    0 => String::new(),
                    skip => format!(" from opening {}", skip + 1),
                }
            ),
            (None, None, true) => "colours alternate".to_string(),
            (None, None, false) => "-x plays X".to_string(),
        };
        writeln!(
            out,
            "{} games of {}, {first} vs {second}, {colours}, seed {}",
            tally.games, m.rules, args.seed
        )?;
        let clock = &m.clocks[0];
        let game = clock.game.map_or(String::new(), |g| {
            format!(", {} ms per game", g.as_millis())
        });
        let grace = clock.grace.as_millis();
        match (turn_ms(0), turn_ms(1)) {
            (Some(x), Some(o)) if x == o => {
                writeln!(out, "time: {x} ms per move{game}, {grace} ms grace")?
            }
            (None, None) => {}
            (x, o) => {
                let per_move =
                    |t: Option<u64>| t.map_or("no limit".to_string(), |t| format!("{t} ms"));
                writeln!(
                    out,
                    "time: {} per move for {first} (-x), {} for {second} (-o){game}, {grace} ms grace",
                    per_move(x),
                    per_move(o)
                )?
            }
        }
        writeln!(out, "X wins  {}", tally.x_wins)?;
        writeln!(out, "O wins  {}", tally.o_wins)?;
        writeln!(out, "draws   {}", tally.draws)?;
        if m.swap {
            writeln!(out, "by player:")?;
            writeln!(out, "  {first} (-x) wins  {}", tally.first_player_wins)?;
            writeln!(out, "  {second} (-o) wins  {}", tally.second_player_wins)?;
            writeln!(out, "  draws  {}", tally.draws)?;
        }
        write!(
            out,
            "{:<28} {:>5} {:>6} {:>6} {:>9} {:>8}",
            "player", "wins", "draws", "losses", "forfeits", "score"
        )?;
        if tally.timing.is_some() {
            write!(out, " {:>10} {:>8}", "ms/move", "max ms")?;
        }
        writeln!(out)?;
        let timing = tally.timing.unwrap_or_default();
        let rows = [
            (
                format!("{} (-x)", quote_cut(&first, 23)),
                tally.first_player_wins,
                tally.second_player_wins,
                tally.first_player_forfeits,
                timing.first_player_ms_per_move,
                timing.first_player_max_ms,
            ),
            (
                format!("{} (-o)", quote_cut(&second, 23)),
                tally.second_player_wins,
                tally.first_player_wins,
                tally.second_player_forfeits,
                timing.second_player_ms_per_move,
                timing.second_player_max_ms,
            ),
        ];
        for (name, wins, losses, forfeits, mean, max) in rows {
            let score = f64::from(wins) + f64::from(tally.draws) / 2.0;
            write!(
                out,
                "{name:<28} {wins:>5} {:>6} {losses:>6} {forfeits:>9} {:>8}",
                tally.draws,
                format!("{score}/{}", tally.games),
            )?;
            if tally.timing.is_some() {
                write!(out, " {mean:>10.1} {max:>8.0}")?;
            }
            writeln!(out)?;
        }
        if let Some(p) = tally.pairs {
            writeln!(
                out,
                "pairs for -x: won {}, even {}, lost {} (by points 2/1.5/1/0.5/0: {}/{}/{}/{}/{})",
                p.two + p.one_and_half,
                p.one,
                p.half + p.zero,
                p.two,
                p.one_and_half,
                p.one,
                p.half,
                p.zero
            )?;
        }
        if let Some(e) = elo {
            let unit = if tally.pairs.is_some_and(|p| p.total() > 0) {
                "pairs"
            } else {
                "games"
            };
            writeln!(
                out,
                "Elo difference (-x minus -o): {} (95%, from {} {unit}, score {:.1}%)",
                e.text(),
                e.samples,
                e.score * 100.0
            )?;
        }
    }
    out.flush()?;
    Ok(())
}

/// `text` cut to `width` characters (with `...` when cut).
fn quote_cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut s: String = text.chars().take(width.saturating_sub(3)).collect();
    s.push_str("...");
    s
}
