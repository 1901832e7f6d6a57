//! Game settings and the menu's items.

use ttt_core::ai::PlayerKind;
use ttt_core::series::{First, Players, Side};
use ttt_core::Rules;

/// Who plays, and on which controllers. Each mode keeps its own scores.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// You (controller 1) against the computer.
    #[default]
    OnePlayer,
    /// Two people, player 2 on controller 2.
    TwoPads,
    /// Two people passing controller 1.
    SharedPad,
    /// The computer against itself.
    ComputerVsComputer,
}

impl Mode {
    /// Menu order.
    pub const ALL: [Mode; 4] = [
        Mode::OnePlayer,
        Mode::TwoPads,
        Mode::SharedPad,
        Mode::ComputerVsComputer,
    ];

    /// Index into per-mode tables (the save's scores).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Name in the log.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::OnePlayer => "1p",
            Mode::TwoPads => "2p",
            Mode::SharedPad => "2p-shared",
            Mode::ComputerVsComputer => "cvc",
        }
    }

    /// Name on screen.
    pub const fn label(self) -> &'static str {
        match self {
            Mode::OnePlayer => "1 player vs computer",
            Mode::TwoPads => "2 players, 2 controllers",
            Mode::SharedPad => "2 players, 1 controller",
            Mode::ComputerVsComputer => "Computer vs computer",
        }
    }

    /// Names of side 1 and side 2 in 4 characters (the score table).
    pub const fn short_sides(self) -> [&'static str; 2] {
        match self {
            Mode::OnePlayer => ["You", "CPU"],
            Mode::TwoPads | Mode::SharedPad => ["P1", "P2"],
            Mode::ComputerVsComputer => ["CPU1", "CPU2"],
        }
    }

    /// Short names of side 1 and side 2 (scores, "goes first").
    pub const fn sides(self) -> [&'static str; 2] {
        match self {
            Mode::OnePlayer => ["You", "Computer"],
            Mode::TwoPads | Mode::SharedPad => ["Player 1", "Player 2"],
            Mode::ComputerVsComputer => ["CPU 1", "CPU 2"],
        }
    }

    /// Who plays in this mode; `computers` are computer 1's and computer
    /// 2's players (the one computer of 1 player vs computer is computer 1).
    pub const fn players(self, computers: [PlayerKind; 2]) -> Players {
        match self {
            Mode::OnePlayer => Players::HumanVsComputer(computers[0]),
            Mode::TwoPads | Mode::SharedPad => Players::TwoHumans,
            Mode::ComputerVsComputer => Players::ComputerVsComputer(computers[0], computers[1]),
        }
    }

    /// The controller port (0-based) of the person on `side`: player 2 has
    /// controller 2 in [`Mode::TwoPads`]; everyone else plays on controller 1.
    pub const fn port(self, side: Side) -> u8 {
        match (self, side) {
            (Mode::TwoPads, Side::Two) => 1,
            _ => 0,
        }
    }
}

/// The computer players in menu order, with the names shown on screen.
pub const STRENGTHS: [(PlayerKind, &str); 11] = [
    (PlayerKind::Easy, "Easy"),
    (PlayerKind::Medium, "Medium"),
    (PlayerKind::Hard, "Hard"),
    (PlayerKind::Impossible, "Impossible"),
    (PlayerKind::Classic, "CS102 Classic"),
    (PlayerKind::Standard, "Major: Human"),
    (PlayerKind::God, "Major: God"),
    (PlayerKind::Squid, "Squid's C bot"),
    (PlayerKind::Random, "Random"),
    (PlayerKind::Perfect, "Perfect"),
    (PlayerKind::Strong, "Strong"),
];

/// The on-screen name of a computer player.
pub fn friendly_name(kind: PlayerKind) -> &'static str {
    STRENGTHS
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, n)| *n)
        .unwrap_or("Computer")
}

/// Whether the exact solver answers within a second or two on the console.
///
/// Measured on the host (the N64 is 30-60x slower): the worst move of
/// `perfect` on 4x4 takes about 30 ms (1-2 s on the console), on 5x5 k=4
/// about 19 s (10-20 minutes on the console). So: at most 16 cells, or
/// k <= 2 on at most 64 cells (the desktop's `is_solvable` reach): the empty
/// 9x9 k=2 board took the solver 8 s on the host, a hint that froze the
/// console for minutes (found by the soak e2e).
pub fn console_solvable(rules: &Rules) -> bool {
    rules.cell_count() <= 16 || (rules.k() <= 2 && rules.cell_count() <= 64)
}

/// The most positions any `strong` search visits per move on the console
/// (`strong`, `hard`, `medium`, the hint): 3,000 nodes. Measured in the
/// emulator (`make -C n64 ai-times`, dynarec, COP0 timer) at 1,500 nodes a
/// move, worst move: 9x9 k=9 188 ms (125 us a node), 9x9 k=6 303 ms (202 us),
/// 5x5 144 ms. A node costs the console ~100-200x the host (MIPS II, 32-bit
/// registers, no cache effects in the emulator's count: instructions are
/// what counts). 3,000 nodes keeps the worst move near 0.6 s on the dearest
/// boards (9x9 k=6 and k=5), well under a second; more nodes beat fewer
/// (`ai_strong.rs`: 3,000 against the old 1,000 on 9x9 k=5 and 7x7 k=4).
/// `hard` keeps its own 4-ply limit within the same cap.
///
/// The desktop plays `strong` with 60,000 nodes and `hard` with 20,000: to
/// replay a console game there, limit the search to the same budget
/// (`ttt play --max-nodes 3000 --seed S`).
pub const CONSOLE_NODES: u64 = 3_000;

/// The budget on big boards with a short win length (k <= 5 on more than 25
/// cells), where a node visits the most windows: 9x9 k=5 took up to 190 ms a
/// move at 1,000 nodes in the emulator (190 us a node), so 3,000 nodes is
/// about 0.6 s. The same as [`CONSOLE_NODES`] since a node got cheaper
/// (9x9 k=6 costs as much a node); kept apart so either can be tuned.
pub const CONSOLE_NODES_SHORT_K: u64 = 3_000;

/// The node budget of every console search on `rules` (logged in the `game`
/// line as `nodes=N`, so `ttt play --max-nodes N --seed S` replays the game).
pub fn console_nodes(rules: &Rules) -> u64 {
    if rules.k() <= 5 && rules.cell_count() > 25 {
        CONSOLE_NODES_SHORT_K
    } else {
        CONSOLE_NODES
    }
}

/// The player that really plays `kind` on `rules` on the console: the exact
/// solver (`perfect`, `impossible`) only where [`console_solvable`]; elsewhere
/// they play as `strong`, the strongest player that fits in a second there
/// with [`console_nodes`] (a named player, so the desktop can replay the
/// game). On 4x4 k=4 the solver's first moves come from an opening book
/// ([`crate::books`]).
pub fn effective_kind(kind: PlayerKind, rules: &Rules) -> PlayerKind {
    match kind {
        PlayerKind::Perfect | PlayerKind::Impossible if !console_solvable(rules) => {
            PlayerKind::Strong
        }
        _ => kind,
    }
}

/// Smallest and largest board side offered ("Tic-Tac-Toe in C": 1x1 to 9x9).
pub const MIN_SIDE: u8 = 1;
/// Largest board side offered.
pub const MAX_SIDE: u8 = 9;

/// Everything the menu sets.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    /// Who plays.
    pub mode: Mode,
    /// Board side (square boards).
    pub size: u8,
    /// Marks in a row to win, 1..=size.
    pub k: u8,
    /// Index into [`STRENGTHS`]: the computer (computer 1 in cvc).
    pub computer: u8,
    /// Index into [`STRENGTHS`]: computer 2 (cvc only).
    pub computer2: u8,
    /// Who goes first.
    pub first: First,
    /// Whether a controller with a Rumble Pak rumbles when its player's
    /// move wins, loses or is refused.
    pub rumble: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            mode: Mode::OnePlayer,
            size: 3,
            k: 3,
            computer: 1,
            computer2: 4,
            first: First::You,
            rumble: true,
        }
    }
}

impl Settings {
    /// The board.
    pub fn rules(&self) -> Rules {
        Rules::new(self.size, self.size, self.k).unwrap_or(Rules::CLASSIC)
    }

    /// The computer (computer 1 in cvc).
    pub fn computer_kind(&self) -> PlayerKind {
        STRENGTHS
            .get(self.computer as usize)
            .map_or(PlayerKind::Medium, |s| s.0)
    }

    /// Computer 2 (cvc).
    pub fn computer2_kind(&self) -> PlayerKind {
        STRENGTHS
            .get(self.computer2 as usize)
            .map_or(PlayerKind::Classic, |s| s.0)
    }

    /// Who plays in `mode` with these settings, the computers as they
    /// really play on the board ([`effective_kind`]).
    pub fn players(&self, mode: Mode) -> Players {
        let rules = self.rules();
        mode.players([
            effective_kind(self.computer_kind(), &rules),
            effective_kind(self.computer2_kind(), &rules),
        ])
    }

    /// For the save (format 2: byte 6 is the Rumble setting, 1 on, 0 off).
    /// Who goes first is saved as its place in [`First::ALL`].
    pub fn to_bytes(&self) -> [u8; 8] {
        [
            self.mode as u8,
            self.size,
            self.k,
            self.computer,
            self.computer2,
            self.first as u8,
            u8::from(self.rumble),
            0,
        ]
    }

    /// From the save (format 2); `None` if anything is out of range.
    pub fn from_bytes(b: &[u8; 8]) -> Option<Settings> {
        let mode = *Mode::ALL.get(b[0] as usize)?;
        let size = b[1];
        let k = b[2];
        if !(MIN_SIDE..=MAX_SIDE).contains(&size) || k == 0 || k > size {
            return None;
        }
        let n = STRENGTHS.len() as u8;
        if b[3] >= n || b[4] >= n {
            return None;
        }
        let first = *First::ALL.get(b[5] as usize)?;
        let rumble = match b[6] {
            0 => false,
            1 => true,
            _ => return None,
        };
        Some(Settings {
            mode,
            size,
            k,
            computer: b[3],
            computer2: b[4],
            first,
            rumble,
        })
    }
}

/// A line of the menu.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MenuItem {
    /// Who plays.
    Players,
    /// Board size.
    Board,
    /// Win length.
    WinLength,
    /// The computer player (computer 1).
    Computer,
    /// Computer 2 (cvc only).
    Computer2,
    /// Who goes first.
    First,
    /// Rumble on or off (only with a Rumble Pak connected, not in cvc).
    Rumble,
    /// Start the game.
    Start,
}

impl MenuItem {
    /// All items; [`MenuItem::Computer`] is skipped in 2-player modes,
    /// [`MenuItem::Computer2`] outside cvc and [`MenuItem::Rumble`] unless
    /// a Rumble Pak is connected (see [`MenuItem::visible`]).
    pub const ALL: [MenuItem; 8] = [
        MenuItem::Players,
        MenuItem::Board,
        MenuItem::WinLength,
        MenuItem::Computer,
        MenuItem::Computer2,
        MenuItem::First,
        MenuItem::Rumble,
        MenuItem::Start,
    ];

    /// Name in the log (`menu <name>=<value>`).
    pub const fn name(self) -> &'static str {
        match self {
            MenuItem::Players => "players",
            MenuItem::Board => "size",
            MenuItem::WinLength => "k",
            MenuItem::Computer => "computer",
            MenuItem::Computer2 => "computer2",
            MenuItem::First => "first",
            MenuItem::Rumble => "rumble",
            MenuItem::Start => "start",
        }
    }

    /// Label on screen for `mode`.
    pub fn label(self, mode: Mode) -> &'static str {
        match self {
            MenuItem::Players => "Players",
            MenuItem::Board => "Board size",
            MenuItem::WinLength => "Win length",
            MenuItem::Computer => {
                if mode == Mode::ComputerVsComputer {
                    "Computer 1"
                } else {
                    "Computer"
                }
            }
            MenuItem::Computer2 => "Computer 2",
            MenuItem::First => "Goes first",
            MenuItem::Rumble => "Rumble",
            MenuItem::Start => "START GAME",
        }
    }

    /// Whether the item is shown for `mode`, `rumble_pak` saying whether a
    /// connected controller has a Rumble Pak. The Rumble line needs one:
    /// without a pak the menu stays as it always was (and a setting that
    /// does nothing is not offered). It is not shown in cvc either, where
    /// nobody's move rumbles; so the menu never has more than 7 lines.
    pub fn visible(self, mode: Mode, rumble_pak: bool) -> bool {
        match self {
            MenuItem::Computer => !matches!(mode, Mode::TwoPads | Mode::SharedPad),
            MenuItem::Computer2 => mode == Mode::ComputerVsComputer,
            MenuItem::Rumble => rumble_pak && mode != Mode::ComputerVsComputer,
            _ => true,
        }
    }
}

fn step(value: u8, count: u8, delta: i8) -> u8 {
    if count == 0 {
        return 0;
    }
    let v = value as i16 + delta as i16;
    v.rem_euclid(count as i16) as u8
}

impl Settings {
    /// Changes `item` by `delta` (+1 right, -1 left), wrapping around.
    pub fn change(&mut self, item: MenuItem, delta: i8) {
        match item {
            MenuItem::Players => {
                let i = step(self.mode as u8, Mode::ALL.len() as u8, delta);
                self.mode = Mode::ALL[i as usize % Mode::ALL.len()];
            }
            MenuItem::Board => {
                let was_full = self.k == self.size;
                let i = step(self.size - MIN_SIDE, MAX_SIDE - MIN_SIDE + 1, delta);
                self.size = i + MIN_SIDE;
                // Full row stays full row; otherwise k is kept if it fits.
                if was_full || self.k > self.size {
                    self.k = self.size;
                }
            }
            MenuItem::WinLength => {
                self.k = step(self.k.saturating_sub(1), self.size, delta) + 1;
            }
            MenuItem::Computer => {
                self.computer = step(self.computer, STRENGTHS.len() as u8, delta);
            }
            MenuItem::Computer2 => {
                self.computer2 = step(self.computer2, STRENGTHS.len() as u8, delta);
            }
            MenuItem::First => {
                let i = step(self.first as u8, First::ALL.len() as u8, delta);
                self.first = First::ALL[i as usize % First::ALL.len()];
            }
            // Two values: either direction toggles.
            MenuItem::Rumble => self.rumble = !self.rumble,
            MenuItem::Start => {}
        }
    }

    /// Writes the value of `item` as the log shows it.
    pub fn log_value(&self, item: MenuItem, out: &mut impl core::fmt::Write) -> core::fmt::Result {
        match item {
            MenuItem::Players => out.write_str(self.mode.name()),
            MenuItem::Board => write!(out, "{}x{}", self.size, self.size),
            MenuItem::WinLength => write!(out, "{}", self.k),
            MenuItem::Computer => out.write_str(self.computer_kind().name()),
            MenuItem::Computer2 => out.write_str(self.computer2_kind().name()),
            MenuItem::First => out.write_str(self.first.name()),
            MenuItem::Rumble => out.write_str(if self.rumble { "on" } else { "off" }),
            MenuItem::Start => Ok(()),
        }
    }

    /// Writes the value of `item` as the menu shows it.
    pub fn show_value(&self, item: MenuItem, out: &mut impl core::fmt::Write) -> core::fmt::Result {
        match item {
            MenuItem::Players => out.write_str(self.mode.label()),
            MenuItem::Board => write!(out, "{} x {}", self.size, self.size),
            MenuItem::WinLength => {
                if self.k == self.size {
                    write!(out, "{} (full row)", self.k)
                } else {
                    write!(out, "{} in a row", self.k)
                }
            }
            MenuItem::Computer => out.write_str(friendly_name(self.computer_kind())),
            MenuItem::Computer2 => out.write_str(friendly_name(self.computer2_kind())),
            MenuItem::First => {
                let sides = self.mode.sides();
                match self.first {
                    First::You => out.write_str(sides[0]),
                    First::Computer => out.write_str(sides[1]),
                    First::Random => out.write_str("Random"),
                    First::Alternate => out.write_str("Alternate"),
                }
            }
            MenuItem::Rumble => out.write_str(if self.rumble { "On" } else { "Off" }),
            MenuItem::Start => Ok(()),
        }
    }
}
