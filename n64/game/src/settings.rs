//! Game settings and the menu's items.

use ttt_core::ai::PlayerKind;
use ttt_core::series::{First, Players, Side};
use ttt_core::{Rules, WinCondition};

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

/// The name of a computer player in at most 6 characters (the side
/// panels).
pub const fn short_name(kind: PlayerKind) -> &'static str {
    match kind {
        PlayerKind::Easy => "Easy",
        PlayerKind::Medium => "Medium",
        PlayerKind::Hard => "Hard",
        PlayerKind::Impossible => "Imposs",
        PlayerKind::Classic => "CS102",
        PlayerKind::Standard => "Human",
        PlayerKind::God => "God",
        PlayerKind::Squid => "Squid",
        PlayerKind::Random => "Random",
        PlayerKind::Perfect => "Perfct",
        PlayerKind::Strong => "Strong",
    }
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

/// The most positions any `strong` search visits per move on the seeds'
/// boards (up to 9x9: `strong`, `hard`, `medium`, the hint): 3,000 nodes.
/// Measured in the emulator (`make -C n64 ai-times`, dynarec, COP0 timer)
/// at 1,500 nodes a move, worst move: 9x9 k=9 188 ms (125 us a node), 9x9
/// k=6 303 ms (202 us), 5x5 144 ms. A node costs the console ~100-200x the
/// host (MIPS II, 32-bit registers, no cache effects in the emulator's
/// count: instructions are what counts). 3,000 nodes keeps the worst move
/// near 0.6 s on the dearest boards (9x9 k=6 and k=5), well under a second;
/// more nodes beat fewer (`ai_strong.rs`: 3,000 against the old 1,000 on
/// 9x9 k=5 and 7x7 k=4). `hard` keeps its own 4-ply limit within the same
/// cap.
///
/// The desktop plays `strong` with 60,000 nodes and `hard` with 20,000: to
/// replay a console game there, limit the search to the same budget
/// (`ttt play --max-nodes 3000 --seed S`). Boards larger than 9x9 are
/// searched for a time instead ([`think_ms`]).
pub const CONSOLE_NODES: u64 = 3_000;

/// The budget on big boards with a short win length (k <= 5 on more than 25
/// cells), where a node visits the most windows: 9x9 k=5 took up to 190 ms a
/// move at 1,000 nodes in the emulator (190 us a node), so 3,000 nodes is
/// about 0.6 s. The same as [`CONSOLE_NODES`] since a node got cheaper
/// (9x9 k=6 costs as much a node); kept apart so either can be tuned.
pub const CONSOLE_NODES_SHORT_K: u64 = 3_000;

/// The node budget of every console search on `rules` (logged in the `game`
/// line as `nodes=N`, so `ttt play --max-nodes N --seed S` replays the game).
/// On boards searched for a time ([`is_timed`]) it only bounds a search
/// whose clock never stops it: no console search gets near it.
pub fn console_nodes(rules: &Rules) -> u64 {
    if is_timed(rules) {
        TIMED_MAX_NODES
    } else if rules.k() <= 5 && rules.cell_count() > 25 {
        CONSOLE_NODES_SHORT_K
    } else {
        CONSOLE_NODES
    }
}

/// The node cap of a search for a time: far more than the console visits
/// in the longest think time (on 15x15 about 1,900 nodes a second in
/// mupen64plus, 2,500 in ares, the frames drawn meanwhile included:
/// `e2e/game_15x15.script`'s `ai strong` lines).
pub const TIMED_MAX_NODES: u64 = 1_000_000;

/// Whether the console's searches on `rules` run for a time (the think
/// time, [`THINK_TIMES_MS`]) rather than a node budget: the gomoku boards,
/// larger than the seeds' 9x9. A time, counted on the console's clock, is
/// what a player waits; a node of the pattern board costs the console
/// about half a millisecond, and on those boards every node counts.
pub fn is_timed(rules: &Rules) -> bool {
    rules.columns().max(rules.rows()) > Rules::FULL_ROW_DEFAULT_MAX_SIDE
}

/// The think times offered (the menu's "Think time" on boards searched for
/// a time), in milliseconds: a computer move (or a hint) takes about this
/// long, never much longer.
pub const THINK_TIMES_MS: [u32; 3] = [1_000, 3_000, 8_000];

/// The think time with index `think` ([`Settings::think`]).
pub fn think_ms(think: u8) -> u32 {
    THINK_TIMES_MS
        .get(think as usize)
        .copied()
        .unwrap_or(THINK_TIMES_MS[0])
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

/// Smallest and largest board side offered ("Tic-Tac-Toe in C": 1x1 to 9x9;
/// then the gomoku boards, 10x10 to 15x15, the renju board).
pub const MIN_SIDE: u8 = 1;
/// Largest board side offered.
pub const MAX_SIDE: u8 = 15;

/// The win length a board of `side` starts with: the full row up to 9x9,
/// five in a row beyond (as [`Rules::with_default_k`]).
pub fn default_k(side: u8) -> u8 {
    Rules::with_default_k(side, side).map_or(side, |r| r.k())
}

/// The rules offered, in menu order: freestyle (k or more in a row),
/// exactly k, renju (15x15 and k = 5 only).
pub const WIN_CONDITIONS: [WinCondition; 3] = [
    WinCondition::AtLeastK,
    WinCondition::ExactlyK,
    WinCondition::Renju,
];

/// Name of a win condition in the log (`menu rules=<name>`, the `game` line).
pub const fn win_name(win: WinCondition) -> &'static str {
    match win {
        WinCondition::AtLeastK => "freestyle",
        WinCondition::ExactlyK => "exact",
        WinCondition::Renju => "renju",
    }
}

/// Everything the menu sets.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    /// Who plays.
    pub mode: Mode,
    /// Board side (square boards).
    pub size: u8,
    /// Marks in a row to win, 1..=size.
    pub k: u8,
    /// Which lines win: k or more (freestyle), exactly k, renju. Only
    /// freestyle on boards up to 9x9 (the menu offers the rules on the
    /// gomoku boards); renju only where the rules allow it (15x15, k = 5).
    pub win: WinCondition,
    /// Index into [`STRENGTHS`]: the computer (computer 1 in cvc).
    pub computer: u8,
    /// Index into [`STRENGTHS`]: computer 2 (cvc only).
    pub computer2: u8,
    /// Index into [`THINK_TIMES_MS`]: how long the computer searches a
    /// move (and the hint) on boards searched for a time ([`is_timed`]).
    pub think: u8,
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
            win: WinCondition::AtLeastK,
            computer: 1,
            computer2: 4,
            think: 1,
            first: First::You,
            rumble: true,
        }
    }
}

/// Bytes of the settings in the save (format 3).
pub const SETTINGS_BYTES: usize = 10;

impl Settings {
    /// The board.
    pub fn rules(&self) -> Rules {
        Rules::new(self.size, self.size, self.k)
            .map(|r| r.with_win_condition(self.win))
            .unwrap_or(Rules::CLASSIC)
    }

    /// The think time in milliseconds ([`THINK_TIMES_MS`]).
    pub fn think_ms(&self) -> u32 {
        think_ms(self.think)
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

    /// Whether the rules may be other than freestyle: the gomoku boards
    /// (the menu's Rules line).
    pub fn offers_rules(&self) -> bool {
        self.size > Rules::FULL_ROW_DEFAULT_MAX_SIDE
    }

    /// Whether `win` can be played with this board and k.
    fn allows(&self, win: WinCondition) -> bool {
        match win {
            WinCondition::AtLeastK => true,
            WinCondition::ExactlyK => self.offers_rules(),
            WinCondition::Renju => {
                self.offers_rules()
                    && Rules::new(self.size, self.size, self.k).is_ok_and(|r| r.supports_renju())
            }
        }
    }

    /// For the save (format 3): mode, size, k, computer, computer 2, who
    /// goes first (its place in [`First::ALL`]), rumble (1 on, 0 off), 0,
    /// the rules (their place in [`WIN_CONDITIONS`]), the think time.
    pub fn to_bytes(&self) -> [u8; SETTINGS_BYTES] {
        let win = WIN_CONDITIONS
            .iter()
            .position(|&w| w == self.win)
            .unwrap_or(0);
        [
            self.mode as u8,
            self.size,
            self.k,
            self.computer,
            self.computer2,
            self.first as u8,
            u8::from(self.rumble),
            0,
            win as u8,
            self.think,
        ]
    }

    /// From the save (format 3); `None` if anything is out of range or the
    /// rules do not fit the board.
    pub fn from_bytes(b: &[u8; SETTINGS_BYTES]) -> Option<Settings> {
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
        let win = *WIN_CONDITIONS.get(b[8] as usize)?;
        if b[9] as usize >= THINK_TIMES_MS.len() {
            return None;
        }
        let settings = Settings {
            mode,
            size,
            k,
            win,
            computer: b[3],
            computer2: b[4],
            think: b[9],
            first,
            rumble,
        };
        settings.allows(win).then_some(settings)
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
    /// Freestyle, exactly k or renju (the gomoku boards only).
    Rules,
    /// The computer player (computer 1).
    Computer,
    /// Computer 2 (cvc only).
    Computer2,
    /// How long the computer thinks (boards searched for a time, with a
    /// computer playing).
    ThinkTime,
    /// Who goes first.
    First,
    /// Rumble on or off (only with a Rumble Pak connected, not in cvc).
    Rumble,
    /// Start the game.
    Start,
}

impl MenuItem {
    /// All items, in menu order; which are shown depends on the settings
    /// and the controllers ([`MenuItem::visible`]).
    pub const ALL: [MenuItem; 10] = [
        MenuItem::Players,
        MenuItem::Board,
        MenuItem::WinLength,
        MenuItem::Rules,
        MenuItem::Computer,
        MenuItem::Computer2,
        MenuItem::ThinkTime,
        MenuItem::First,
        MenuItem::Rumble,
        MenuItem::Start,
    ];

    /// The most lines the menu shows at once: Rules and Think time only on
    /// the gomoku boards, Computer 2 only in cvc, Rumble never in cvc.
    pub const MAX_VISIBLE: usize = 9;

    /// Name in the log (`menu <name>=<value>`).
    pub const fn name(self) -> &'static str {
        match self {
            MenuItem::Players => "players",
            MenuItem::Board => "size",
            MenuItem::WinLength => "k",
            MenuItem::Rules => "rules",
            MenuItem::Computer => "computer",
            MenuItem::Computer2 => "computer2",
            MenuItem::ThinkTime => "think",
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
            MenuItem::Rules => "Rules",
            MenuItem::Computer => {
                if mode == Mode::ComputerVsComputer {
                    "Computer 1"
                } else {
                    "Computer"
                }
            }
            MenuItem::Computer2 => "Computer 2",
            MenuItem::ThinkTime => "Think time",
            MenuItem::First => "Goes first",
            MenuItem::Rumble => "Rumble",
            MenuItem::Start => "START GAME",
        }
    }

    /// Whether the item is shown with `settings`, `rumble_pak` saying
    /// whether a connected controller has a Rumble Pak. The Rumble line
    /// needs one: without a pak the menu stays as it always was (and a
    /// setting that does nothing is not offered); it is not shown in cvc
    /// either, where nobody's move rumbles. Rules and Think time are there
    /// on the gomoku boards only (Think time when a computer plays), so the
    /// menu never has more than [`MenuItem::MAX_VISIBLE`] lines.
    pub fn visible(self, settings: &Settings, rumble_pak: bool) -> bool {
        let mode = settings.mode;
        let computer = !matches!(mode, Mode::TwoPads | Mode::SharedPad);
        match self {
            MenuItem::Computer => computer,
            MenuItem::Computer2 => mode == Mode::ComputerVsComputer,
            MenuItem::Rules => settings.offers_rules(),
            MenuItem::ThinkTime => computer && is_timed(&settings.rules()),
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
    /// The rules fall back to freestyle where the board no longer allows
    /// them (renju off 15x15 k=5, exactly k on the seeds' boards).
    pub fn change(&mut self, item: MenuItem, delta: i8) {
        match item {
            MenuItem::Players => {
                let i = step(self.mode as u8, Mode::ALL.len() as u8, delta);
                self.mode = Mode::ALL[i as usize % Mode::ALL.len()];
            }
            MenuItem::Board => {
                let was_default = self.k == default_k(self.size);
                let i = step(self.size - MIN_SIDE, MAX_SIDE - MIN_SIDE + 1, delta);
                self.size = i + MIN_SIDE;
                // The default win length follows the board (the full row,
                // five past 9x9); a chosen one is kept if it fits.
                if was_default || self.k > self.size {
                    self.k = default_k(self.size);
                }
            }
            MenuItem::WinLength => {
                self.k = step(self.k.saturating_sub(1), self.size, delta) + 1;
            }
            MenuItem::Rules => {
                let allowed = |s: &Settings, i: u8| s.allows(WIN_CONDITIONS[i as usize]);
                let mut i = WIN_CONDITIONS
                    .iter()
                    .position(|&w| w == self.win)
                    .unwrap_or(0) as u8;
                for _ in 0..WIN_CONDITIONS.len() {
                    i = step(i, WIN_CONDITIONS.len() as u8, delta.signum());
                    if allowed(self, i) {
                        break;
                    }
                }
                self.win = WIN_CONDITIONS[i as usize];
            }
            MenuItem::Computer => {
                self.computer = step(self.computer, STRENGTHS.len() as u8, delta);
            }
            MenuItem::Computer2 => {
                self.computer2 = step(self.computer2, STRENGTHS.len() as u8, delta);
            }
            MenuItem::ThinkTime => {
                self.think = step(self.think, THINK_TIMES_MS.len() as u8, delta);
            }
            MenuItem::First => {
                let i = step(self.first as u8, First::ALL.len() as u8, delta);
                self.first = First::ALL[i as usize % First::ALL.len()];
            }
            // Two values: either direction toggles.
            MenuItem::Rumble => self.rumble = !self.rumble,
            MenuItem::Start => {}
        }
        if !self.allows(self.win) {
            self.win = WinCondition::AtLeastK;
        }
    }

    /// Writes the value of `item` as the log shows it.
    pub fn log_value(&self, item: MenuItem, out: &mut impl core::fmt::Write) -> core::fmt::Result {
        match item {
            MenuItem::Players => out.write_str(self.mode.name()),
            MenuItem::Board => write!(out, "{}x{}", self.size, self.size),
            MenuItem::WinLength => write!(out, "{}", self.k),
            MenuItem::Rules => out.write_str(win_name(self.win)),
            MenuItem::Computer => out.write_str(self.computer_kind().name()),
            MenuItem::Computer2 => out.write_str(self.computer2_kind().name()),
            MenuItem::ThinkTime => write!(out, "{}ms", self.think_ms()),
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
            MenuItem::Rules => match self.win {
                WinCondition::AtLeastK => out.write_str("Freestyle"),
                WinCondition::ExactlyK => write!(out, "Exactly {}", self.k),
                WinCondition::Renju => out.write_str("Renju"),
            },
            MenuItem::Computer => out.write_str(friendly_name(self.computer_kind())),
            MenuItem::Computer2 => out.write_str(friendly_name(self.computer2_kind())),
            MenuItem::ThinkTime => write!(out, "{} s a move", self.think_ms() / 1000),
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
