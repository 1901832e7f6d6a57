//! Command-line flags of `ttt play` (also accepted by bare `ttt`).
use clap::{Args, ValueEnum};
use ttt_cli::common;
use ttt_core::Rules;

use ttt_core::ai::PlayerKind;

/// Shown after `--help`.
pub const EXAMPLES: &str = "\
Examples:
  ttt                                  # classic tic-tac-toe against `classic`
  ttt --ai perfect --first random      # the unbeatable player; a coin decides who starts
  ttt --size 4 --first you             # 4x4, four in a row; moves like 6, b2 or \"2 2\"
  ttt --size 7x6 -k 4 --ai hard        # Connect-Four sized board, four in a row
  ttt --size 15 --ai strong            # gomoku: five in a row
  ttt --mode two-player                # two people at one keyboard
  ttt --mode ai-vs-ai -x classic -o perfect --pace 300   # watch a game
  ttt --mode ai-vs-ai --games 100 --seed 7               # tally 100 games
  printf 'y\\n1\\n9\\n7\\n4\\nn\\n' | ttt --plain --seed 1   # script a game
  ttt --stats                          # keep a record across sessions

In a game: a square number (5), a coordinate (b2) or a row and column (2 2)
places your mark; u undoes, h asks for a hint, ? shows help, q quits.
The full-screen view (when stdin and stdout are a terminal, TERM is not dumb
and --plain is not given): type a square and press Enter (Backspace and Esc
edit it), or move the cursor with the arrow keys or WASD and place with Space
(or Enter), or click a square; Enter alone places nothing until the cursor
has moved. Keys typed while the computer thinks are played after its move.
Ctrl-Z suspends it (fg brings it back). Warnings (a record
that cannot be kept, flags with no effect) stay shown under the board; the
game waits while the terminal is too small for the board.
NO_COLOR turns colours off. The record (--stats) lives in
$XDG_DATA_HOME/ttt/record.txt (default ~/.local/share/ttt/record.txt).

Exit status: 0 when you quit or decline another game (or press Ctrl-C or
Ctrl-D between games), 1 when input ends (Ctrl-D, end of file) or Ctrl-C in
the middle of a game, 2 for bad flags, 128+N when ended by signal N (SIGHUP,
SIGTERM, SIGQUIT).";

/// Who plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum Mode {
    /// You against the computer (`--ai`).
    #[default]
    #[value(alias = "1", alias = "vs-ai")]
    HumanVsAi,
    /// Two people at one keyboard.
    #[value(alias = "2", alias = "2p")]
    TwoPlayer,
    /// Computer against computer (`--ai-x`, `--ai-o`).
    #[value(alias = "0", alias = "watch")]
    AiVsAi,
}

/// Who moves first (and so plays X) against the computer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum First {
    /// Ask before every game: "Do you want to go first? (y/n)".
    #[default]
    Ask,
    /// You always go first.
    You,
    /// The computer always goes first.
    Computer,
    /// A coin toss (from --seed) before every game.
    Random,
    /// You first, then take turns going first.
    Alternate,
}

/// `ttt play` flags.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// Who plays: human-vs-ai (1), two-player (2) or ai-vs-ai (0).
    #[arg(long, value_enum, default_value_t = Mode::HumanVsAi)]
    pub mode: Mode,

    /// Your computer opponent: random, classic, standard, god, squid, perfect,
    /// strong, easy, medium, hard, impossible (see --help).
    #[arg(long, value_name = "NAME", default_value = "classic", value_parser = common::PlayerParser,
          hide_possible_values = true,
          long_help = ai_long_help())]
    pub ai: PlayerKind,

    /// The computer playing X in ai-vs-ai: any --ai name (default: --ai).
    #[arg(short = 'x', long, value_name = "NAME", value_parser = common::PlayerParser,
          hide_possible_values = true)]
    pub ai_x: Option<PlayerKind>,

    /// The computer playing O in ai-vs-ai: any --ai name (default: --ai).
    #[arg(short = 'o', long, value_name = "NAME", value_parser = common::PlayerParser,
          hide_possible_values = true)]
    pub ai_o: Option<PlayerKind>,

    #[arg(long, value_name = common::SIZE_VALUE, default_value = "3", value_parser = common::parse_rules,
          help = common::SIZE_HELP)]
    pub size: Rules,

    #[arg(short = 'k', long, value_name = "K", help = common::WIN_LENGTH_HELP)]
    pub win_length: Option<u8>,

    #[arg(long, help = common::EXACT_K_SIZE_HELP)]
    pub exact_k: bool,

    /// Who goes first against the computer; whoever goes first is X.
    #[arg(long, value_enum, default_value_t = First::Ask)]
    pub first: First,

    /// Number of games in ai-vs-ai; more than one prints a tally.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,

    /// Milliseconds to wait between computer moves in ai-vs-ai (default: 500
    /// in the full-screen view; none in the line view, where more than one
    /// game is only tallied unless --pace is given).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub pace: Option<u64>,

    /// Seed for the computer's choices and random starts: the same seed gives
    /// the same computer moves (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,

    /// Limit each search of the computer players to N nodes (deterministic,
    /// unlike a time limit). The N64 console searches with 3000 nodes a
    /// move on boards up to 9x9, so `--max-nodes 3000 --seed SEED` replays
    /// such a console game on the desktop; on larger boards it searches for
    /// a time (its Think time), which no replay repeats.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,

    /// Plain line view even on a terminal (always used when piped, and when
    /// TERM is dumb or unset).
    #[arg(long)]
    pub plain: bool,

    /// Keep a record of your results across sessions (in the user's data dir).
    #[arg(long)]
    pub stats: bool,
}

impl PlayArgs {
    /// The board shape and win length.
    pub fn rules(&self) -> Result<Rules, String> {
        let rules = match self.win_length {
            Some(k) => self.size.with_k(k).map_err(|e| e.to_string())?,
            None => self.size,
        };
        Ok(if self.exact_k {
            rules.with_win_condition(ttt_core::WinCondition::ExactlyK)
        } else {
            rules
        })
    }
}

fn ai_long_help() -> String {
    let mut s = String::from(
        "Your computer opponent (and the default for --ai-x/--ai-o). The default, classic, \
         is the CS102 seed's program: instant on every board and beatable, as in the seeds; \
         choose hard or impossible for a challenge.\n",
    );
    for kind in PlayerKind::ALL {
        s.push_str(&format!("\n  {:<11} {}", kind.name(), kind.description()));
    }
    s
}
