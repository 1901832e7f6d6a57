//! `ttt play` in a real terminal (the full-screen view, and the line view
//! where a terminal matters: Ctrl-C, TERM=dumb): `ttt` runs inside a private
//! tmux server (its own socket), keys are sent with `send-keys` and the screen
//! is read with `capture-pane`. Skipped (with a note) when tmux is missing.
use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    /// A tmux server running a shell in an 80x24 window, or `None` without tmux.
    fn start(name: &str) -> Option<Tmux> {
        let socket = format!("ttt-test-{name}-{}", std::process::id());
        let ok = Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null", "new-session", "-d"])
            .args(["-x", "80", "-y", "24", "sh"])
            .env("PS1", "$ ")
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if !ok {
            eprintln!("tmux is not available: skipping the full-screen test");
            return None;
        }
        Some(Tmux { socket })
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("run tmux");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.tmux(&["send-keys", "-t", "0", k]);
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn type_line(&self, line: &str) {
        self.tmux(&["send-keys", "-t", "0", "-l", line]);
        self.tmux(&["send-keys", "-t", "0", "Enter"]);
    }

    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", "0"])
    }

    /// The screen with its colours and attributes as escape sequences.
    fn screen_with_escapes(&self) -> String {
        self.tmux(&["capture-pane", "-e", "-p", "-t", "0"])
    }

    /// Waits until the screen contains `text`; panics with the screen if not.
    fn wait_for(&self, text: &str) -> String {
        let end = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            if Instant::now() > end {
                panic!("timed out waiting for {text:?}; screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the screen's words, lines joined, contain `text` (a
    /// message that may wrap); returns them.
    fn wait_for_words(&self, text: &str) -> String {
        let end = Instant::now() + Duration::from_secs(20);
        loop {
            let words = text_of(&self.screen());
            if words.contains(text) {
                return words;
            }
            if Instant::now() > end {
                panic!("timed out waiting for {text:?}; screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits up to a minute for a screen that `done` accepts (a computer
    /// that thinks long); panics with the screen, saying `what`, if none.
    fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let end = Instant::now() + Duration::from_secs(60);
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(Instant::now() < end, "{what}:\n{screen}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// `#{alternate_on} #{cursor_flag}`: "0 1" once the program gave the
    /// terminal back (normal screen, cursor shown).
    fn modes(&self) -> String {
        self.tmux(&[
            "display-message",
            "-p",
            "-t",
            "0",
            "#{alternate_on} #{cursor_flag}",
        ])
        .trim()
        .to_string()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

fn command(extra: &str) -> String {
    let data = std::env::temp_dir().join(format!("ttt-tui-test-{}", std::process::id()));
    // Another build can be named at run time, to see a test fail there.
    let ttt = std::env::var("CARGO_BIN_EXE_ttt").unwrap_or(env!("CARGO_BIN_EXE_ttt").into());
    format!(
        "XDG_DATA_HOME={} NO_COLOR=1 {ttt} --seed 1 {extra}; echo EXIT=$?",
        data.display(),
    )
}

#[test]
fn full_screen_move_place_quit_with_confirmation() {
    let Some(t) = Tmux::start("play") else {
        return;
    };
    t.type_line(&command("--first you"));
    let screen = t.wait_for("Your move (X)");
    assert!(screen.contains("┌───┬───┬───┐"), "{screen}");
    assert_eq!(t.modes(), "1 0", "alternate screen on, cursor hidden");
    // The cursor starts on b2: right and down is c3.
    t.keys(&["Right", "Down", "Enter"]);
    let screen = t.wait_for("I am choosing square 5!");
    let row3 = screen.lines().find(|l| l.starts_with(" 3 ")).unwrap_or("");
    assert!(row3.ends_with("│   │   │ X │"), "{screen}");
    let row2 = screen.lines().find(|l| l.starts_with(" 2 ")).unwrap_or("");
    assert!(row2.contains("│ O │"), "{screen}");
    // WASD moves too: up twice and left twice is a1.
    t.keys(&["w", "w", "a", "a", "Space"]);
    t.wait_for("I am choosing square 3!");
    let screen = t.screen();
    let row1 = screen.lines().find(|l| l.starts_with(" 1 ")).unwrap_or("");
    assert!(row1.contains("│ X │"), "{screen}");
    // Placing on a taken square is refused.
    t.keys(&["Space"]);
    t.wait_for("That cell is already taken");
    // q asks first; n keeps playing; q y quits.
    t.keys(&["q"]);
    t.wait_for("Quit the game in progress? (y/n)");
    t.keys(&["n"]);
    t.wait_for("Your move (X)");
    t.keys(&["q", "y"]);
    let screen = t.wait_for("EXIT=0");
    assert!(screen.contains("Thanks for playing!"), "{screen}");
    assert!(screen.contains("Score - You: 0 | Computer (classic): 0 | Draws: 0"));
    assert!(!screen.contains("┌───"), "board left on screen:\n{screen}");
    assert_eq!(
        t.modes(),
        "0 1",
        "terminal restored: normal screen, cursor shown"
    );
}

#[test]
fn full_screen_ctrl_c_restores_the_terminal() {
    let Some(t) = Tmux::start("ctrlc") else {
        return;
    };
    t.type_line(&command("--mode two-player --size 4"));
    t.wait_for("Player X:");
    t.keys(&["Space"]);
    t.wait_for("Player O:");
    t.keys(&["C-c"]);
    let screen = t.wait_for("EXIT=1");
    assert!(screen.contains("Game interrupted"), "{screen}");
    assert_eq!(t.modes(), "0 1");
}

#[test]
fn full_screen_asks_who_goes_first_and_announces_the_result() {
    let Some(t) = Tmux::start("ask") else {
        return;
    };
    t.type_line(&command("--ai classic"));
    t.wait_for("Do you want to go first? (y/n) [r = random]");
    t.keys(&["n"]);
    // Classic opens in the centre; you are O.
    t.wait_for("I am choosing square 5!");
    // a1, a3 (block), b1: classic then completes 4-5-6 as in the line test.
    t.keys(&["Up", "Left", "Enter"]);
    t.wait_for("I am choosing square 3!");
    t.keys(&["Down", "Down", "Enter"]);
    t.wait_for("I am choosing square 4!");
    t.keys(&["Up", "Up", "Right", "Enter"]);
    let screen = t.wait_for("I WIN!!!");
    assert!(
        screen.contains("[X]"),
        "winning line marked by shape:\n{screen}"
    );
    assert!(screen.contains("Do you want to play again? (y/n)"));
    t.keys(&["n"]);
    let screen = t.wait_for("EXIT=0");
    assert!(screen.contains("Score - You: 0 | Computer (classic): 1 | Draws: 0"));
    assert_eq!(t.modes(), "0 1");
}

#[test]
fn full_screen_panic_restores_the_terminal() {
    let Some(t) = Tmux::start("panic") else {
        return;
    };
    t.type_line(&format!("TTT_TEST_PANIC=1 {}", command("--first you")));
    let screen = t.wait_for("EXIT=101");
    assert!(screen.contains("TTT_TEST_PANIC is set"), "{screen}");
    assert_eq!(t.modes(), "0 1");
}

/// The pid of the shell's child (the `ttt` started by `type_line`), from
/// /proc (procps may not be installed).
fn child_of_pane(t: &Tmux) -> Option<u32> {
    let shell: u32 = t
        .tmux(&["display-message", "-p", "-t", "0", "#{pane_pid}"])
        .trim()
        .parse()
        .ok()?;
    let end = Instant::now() + Duration::from_secs(10);
    while Instant::now() < end {
        for entry in std::fs::read_dir("/proc").ok()?.flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            // "pid (comm) state ppid ...": comm may hold spaces, so split after ')'.
            let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
            let ppid = after
                .split_whitespace()
                .nth(1)
                .and_then(|p| p.parse::<u32>().ok());
            if ppid == Some(shell) && stat.contains("(ttt)") {
                return Some(pid);
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    None
}

#[test]
fn full_screen_sigterm_and_sighup_restore_the_terminal() {
    for (signal, status) in [("TERM", 143), ("HUP", 129)] {
        let Some(t) = Tmux::start(&format!("sig{signal}")) else {
            return;
        };
        t.type_line(&command("--first you"));
        t.wait_for("Your move (X)");
        assert_eq!(t.modes(), "1 0");
        let pid = child_of_pane(&t).expect("the ttt process");
        let killed = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &pid.to_string()])
            .status()
            .expect("run kill");
        assert!(killed.success());
        let screen = t.wait_for(&format!("EXIT={status}"));
        assert!(
            screen.contains(&format!("ttt: stopped by SIG{signal}.")),
            "{screen}"
        );
        assert!(!screen.contains("┌───"), "board left on screen:\n{screen}");
        assert_eq!(t.modes(), "0 1", "SIG{signal}: terminal restored");
    }
}

#[test]
fn full_screen_watch_ai_vs_ai() {
    let Some(t) = Tmux::start("watch") else {
        return;
    };
    t.type_line(&command(
        "--mode ai-vs-ai --ai-x classic --ai-o perfect --pace 10",
    ));
    let screen = t.wait_for("Do you want to play again? (y/n)");
    assert!(
        screen.contains("X (classic) against O (perfect)"),
        "{screen}"
    );
    assert!(
        screen.contains("Draws: 1") || screen.contains("O (perfect): 1"),
        "{screen}"
    );
    t.keys(&["n"]);
    t.wait_for("EXIT=0");
    assert_eq!(t.modes(), "0 1");
}

#[test]
fn full_screen_colours_and_no_color() {
    let Some(t) = Tmux::start("colour") else {
        return;
    };
    // Colours on: X cyan, O yellow (256-colour indexes 14 and 11).
    let cmd = command("--first you").replace("NO_COLOR=1 ", "");
    t.type_line(&format!("unset NO_COLOR; {cmd}"));
    t.wait_for("Your move (X)");
    t.keys(&["Space"]);
    t.wait_for("I am choosing square 1!");
    let coloured = t.screen_with_escapes();
    assert!(coloured.contains("38;5;14m"), "{coloured}");
    assert!(coloured.contains("38;5;11m"), "{coloured}");
    t.keys(&["q", "y"]);
    t.wait_for("EXIT=0");
    // NO_COLOR: no colours, the marks still differ by shape.
    t.type_line("clear");
    t.type_line(&command("--first you"));
    t.wait_for("Your move (X)");
    t.keys(&["Space"]);
    t.wait_for("I am choosing square 1!");
    let plain = t.screen_with_escapes();
    assert!(!plain.contains("38;5;"), "{plain}");
    assert!(plain.contains(" O ") && plain.contains(" X "), "{plain}");
    t.keys(&["q", "y"]);
    t.wait_for("EXIT=0");
}

#[test]
fn full_screen_quits_while_the_computer_thinks() {
    let Some(t) = Tmux::start("think") else {
        return;
    };
    // Solving 5x5 four-in-a-row from the empty board takes the exact solver
    // seconds; the keys must work meanwhile.
    t.type_line(&command("--ai perfect --size 5 -k 4 --first computer"));
    t.wait_for("Thinking...");
    let start = Instant::now();
    t.keys(&["q"]);
    t.wait_for("Quit the game in progress? (y/n)");
    t.keys(&["y"]);
    t.wait_for("EXIT=0");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
    assert_eq!(t.modes(), "0 1");
}

#[test]
fn full_screen_mouse_click_places_a_mark() {
    let Some(t) = Tmux::start("mouse") else {
        return;
    };
    t.type_line(&command("--first you"));
    t.wait_for("Your move (X)");
    // An SGR mouse press and release on c1: screen column 14, row 4 (1-based),
    // typed into the pane as the terminal would report it.
    t.tmux(&["send-keys", "-t", "0", "-l", "\x1b[<0;14;4M\x1b[<0;14;4m"]);
    let screen = t.wait_for("I am choosing square 5!");
    let row1 = screen.lines().find(|l| l.starts_with(" 1 ")).unwrap_or("");
    assert!(row1.ends_with("│   │   │ X │"), "{screen}");
    // A click on a grid line places nothing.
    t.tmux(&["send-keys", "-t", "0", "-l", "\x1b[<0;14;5M\x1b[<0;14;5m"]);
    t.keys(&["q", "y"]);
    let screen = t.wait_for("EXIT=0");
    assert!(screen.contains("Thanks for playing!"));
    assert_eq!(t.modes(), "0 1");
}

#[test]
fn full_screen_board_fits_the_terminal() {
    let Some(t) = Tmux::start("fit") else {
        return;
    };
    // 16x16 in 80x24: the compact board (one line per row, no box lines).
    t.type_line(&command("--mode two-player --size 16 -k 5"));
    let screen = t.wait_for("Player X:");
    assert!(screen.contains("16 ·  ·"), "{screen}");
    assert!(!screen.contains("┌───"), "{screen}");
    // Too small: a message instead of a broken board.
    t.tmux(&["resize-window", "-t", "0", "-x", "40", "-y", "12"]);
    t.wait_for("Too small for the board");
    // Tall enough for the boxed board.
    t.tmux(&["resize-window", "-t", "0", "-x", "80", "-y", "45"]);
    let screen = t.wait_for("┌───┬───");
    assert!(screen.contains("Player X:"), "{screen}");
    t.keys(&["Space"]);
    t.wait_for("Player O:");
    t.keys(&["q", "y"]);
    t.wait_for("EXIT=0");
    assert_eq!(t.modes(), "0 1");
}

/// Whether process `pid` still exists (and is not a zombie).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| {
            let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
            !state.is_some_and(|s| s.starts_with('Z'))
        })
        .unwrap_or(false)
}

/// Waits up to `secs` seconds for process `pid` to end.
fn ends_within(pid: u32, secs: u64) -> bool {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

#[test]
fn full_screen_closing_the_terminal_ends_the_program() {
    let Some(t) = Tmux::start("hangup") else {
        return;
    };
    t.type_line(&command("--first you"));
    t.wait_for("Your move (X)");
    let pid = child_of_pane(&t).expect("the ttt process");
    // Closing the window: the terminal hangs up, the shell gets SIGHUP.
    t.tmux(&["kill-server"]);
    let gone = ends_within(pid, 10);
    if !gone {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(gone, "ttt went on running after its terminal closed");
}

#[test]
fn full_screen_sigterm_ends_the_program_even_when_stderr_is_full() {
    let Some(t) = Tmux::start("devfull") else {
        return;
    };
    t.type_line(&command("--first you 2>/dev/full"));
    t.wait_for("Your move (X)");
    let pid = child_of_pane(&t).expect("the ttt process");
    let killed = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let screen = t.wait_for("EXIT=143");
    assert!(!screen.contains("┌───"), "board left on screen:\n{screen}");
    assert_eq!(t.modes(), "0 1", "terminal restored");
    assert!(!alive(pid));
}

/// The non-empty lines of the screen, for messages that may wrap.
fn text_of(screen: &str) -> String {
    screen.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn full_screen_typed_squares_play_with_an_input_line() {
    let Some(t) = Tmux::start("typed") else {
        return;
    };
    t.type_line(&command("--first you"));
    t.wait_for("Your move (X)");
    // A number shows on the input line with what Enter will do; Enter plays.
    t.keys(&["7"]);
    t.wait_for("Your move (X): 7_   Enter plays 7");
    t.keys(&["Enter"]);
    let screen = t.wait_for("I am choosing square 5!");
    let row3 = screen.lines().find(|l| l.starts_with(" 3 ")).unwrap_or("");
    assert!(row3.starts_with(" 3 │ X │   │   │"), "{screen}");
    // ? shows the help, as in the line view.
    t.keys(&["?"]);
    t.wait_for("Type a square number (1 to 9");
    // A bad square: the error, the text kept to edit; Backspace, Esc.
    t.keys(&["1", "0", "Enter"]);
    let screen = t.wait_for("choose 1 to 9");
    assert!(screen.contains("Your move (X): 10_"), "{screen}");
    t.keys(&["BSpace"]);
    t.wait_for("Your move (X): 1_   Enter plays 1");
    t.keys(&["Escape"]);
    t.wait_for("Your move (X): arrows + Space");
    // A coordinate starting with a movement letter (a moves left) and a row
    // and column with a space: both play where they say.
    t.keys(&["c", "1", "Enter"]);
    let screen = t.wait_for("I am choosing square 1!");
    let row1 = screen.lines().find(|l| l.starts_with(" 1 ")).unwrap_or("");
    assert!(row1.starts_with(" 1 │ O │   │ X │"), "{screen}");
    t.keys(&["a", "2"]);
    t.wait_for("Your move (X): a2_   Enter plays 4");
    t.keys(&["Escape", "3"]);
    t.tmux(&["send-keys", "-t", "0", "Space"]);
    t.keys(&["3"]);
    t.wait_for("Your move (X): 3 3_   Enter plays 9");
    t.keys(&["Enter"]);
    let screen = t.wait_for("Your move (X): arrows");
    let row3 = screen.lines().find(|l| l.starts_with(" 3 ")).unwrap_or("");
    assert!(
        row3.starts_with(" 3 │ X │") && row3.ends_with("│ X │"),
        "{screen}"
    );
    t.keys(&["q", "y"]);
    t.wait_for("EXIT=0");
}

#[test]
fn full_screen_too_small_shows_the_whole_message_and_accepts_no_move() {
    let Some(t) = Tmux::start("small") else {
        return;
    };
    t.type_line(&command("--mode two-player"));
    t.wait_for("Player X:");
    t.tmux(&["resize-window", "-t", "0", "-x", "10", "-y", "12"]);
    let screen = t.wait_for("enlarge");
    assert_eq!(
        text_of(&screen),
        "Too small for the board: enlarge the terminal to 12x10. q quits.",
        "{screen}"
    );
    // Keys that would play, by cursor and typed, change nothing.
    t.keys(&["Enter", "Space", "5", "Enter", "1"]);
    t.tmux(&["resize-window", "-t", "0", "-x", "80", "-y", "24"]);
    let screen = t.wait_for("Player X: arrows");
    assert!(
        !screen.contains(" X "),
        "a hidden move was played:\n{screen}"
    );
    // Quitting works while it is too small, with its question shown.
    t.tmux(&["resize-window", "-t", "0", "-x", "10", "-y", "12"]);
    t.wait_for("enlarge");
    t.keys(&["q"]);
    t.wait_for("(y/n)");
    t.keys(&["y"]);
    t.tmux(&["resize-window", "-t", "0", "-x", "80", "-y", "24"]);
    t.wait_for("EXIT=0");
}

#[test]
fn full_screen_shows_start_up_warnings() {
    let Some(t) = Tmux::start("notes") else {
        return;
    };
    let data = std::env::temp_dir().join(format!("ttt-tui-notes-{}", std::process::id()));
    std::fs::create_dir_all(data.join("ttt")).unwrap();
    std::fs::write(data.join("ttt/record.txt"), "not a record\n").unwrap();
    t.type_line(&format!(
        "XDG_DATA_HOME={} NO_COLOR=1 {} --seed 1 --first you --stats --games 3; echo EXIT=$?",
        data.display(),
        env!("CARGO_BIN_EXE_ttt")
    ));
    let screen = t.wait_for("Your move (X)");
    let text = text_of(&screen);
    assert!(text.contains("Not keeping a record this time"), "{screen}");
    assert!(
        text.contains("Note: --games has no effect with --mode human-vs-ai."),
        "{screen}"
    );
    t.keys(&["q", "y"]);
    t.wait_for("EXIT=0");
    // The file was left alone.
    let kept = std::fs::read_to_string(data.join("ttt/record.txt")).unwrap();
    assert_eq!(kept, "not a record\n");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn full_screen_ctrl_d_is_reported_as_end_of_input() {
    let Some(t) = Tmux::start("ctrld") else {
        return;
    };
    t.type_line(&command("--mode two-player"));
    t.wait_for("Player X:");
    t.keys(&["Space"]);
    t.wait_for("Player O:");
    t.keys(&["C-d"]);
    let screen = t.wait_for("EXIT=1");
    assert!(
        screen.contains("Game abandoned: end of input (Ctrl-D)."),
        "{screen}"
    );
    assert!(!screen.contains("Ctrl-C"), "{screen}");
    assert_eq!(t.modes(), "0 1");
}

#[test]
fn line_view_ctrl_c_ends_as_the_help_says() {
    let Some(t) = Tmux::start("linectrlc") else {
        return;
    };
    // In a game: the message, the score, exit 1.
    t.type_line(&command("--plain --first you"));
    t.wait_for("Enter a square:");
    t.keys(&["C-c"]);
    let screen = t.wait_for("EXIT=");
    assert!(screen.contains("Game interrupted (Ctrl-C)."), "{screen}");
    assert!(screen.contains("Thanks for playing!"), "{screen}");
    assert!(screen.contains("EXIT=1"), "{screen}");
    // Between games: like q, exit 0.
    t.type_line("clear");
    t.type_line(&command("--plain"));
    t.wait_for("Do you want to go first?");
    t.keys(&["C-c"]);
    let screen = t.wait_for("EXIT=");
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(!screen.contains("Game interrupted"), "{screen}");
}

#[test]
fn dumb_terminal_gets_the_line_view() {
    let Some(t) = Tmux::start("dumb") else {
        return;
    };
    t.type_line(&format!("TERM=dumb {}", command("--first you")));
    t.wait_for("Enter a square:");
    let screen = t.screen();
    assert!(screen.contains("Welcome to Tic-Tac-Toe!"), "{screen}");
    assert_eq!(t.modes(), "0 1", "no alternate screen");
    t.type_line("q");
    t.wait_for("EXIT=0");
}

#[test]
fn full_screen_ctrl_z_suspends_and_fg_restores() {
    let Some(t) = Tmux::start("suspend") else {
        return;
    };
    // Without "; echo": the shell would go on with the list when ttt stops.
    let ttt = command("--first you");
    let ttt = ttt.split(';').next().unwrap();
    t.type_line(ttt);
    t.wait_for("Your move (X)");
    assert_eq!(t.modes(), "1 0");
    t.keys(&["C-z"]);
    t.wait_for("Stopped");
    assert_eq!(t.modes(), "0 1", "the shell gets a normal terminal back");
    t.type_line("fg");
    let end = Instant::now() + Duration::from_secs(10);
    while t.modes() != "1 0" && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(t.modes(), "1 0", "full screen again after fg");
    t.wait_for("┌───┬───┬───┐");
    // Keys work again, in raw mode: one key places.
    t.keys(&["Space"]);
    t.wait_for("I am choosing square 1!");
    t.keys(&["q", "y"]);
    t.wait_for("Thanks for playing!");
    t.type_line("echo EXIT=$?");
    t.wait_for("EXIT=0");
    assert_eq!(t.modes(), "0 1");
}

#[test]
fn full_screen_command_letters_that_name_columns_start_a_coordinate() {
    let Some(t) = Tmux::start("hcolumn") else {
        return;
    };
    // On 8x8, h is both the hint key and the last column.
    t.type_line(&command("--mode two-player --size 8 -k 4"));
    t.wait_for("Player X: arrows");
    t.keys(&["h"]);
    t.wait_for("Player X: h_   Enter asks for a hint");
    t.keys(&["8"]);
    t.wait_for("Player X: h8_   Enter plays 64 (h8)");
    t.keys(&["Enter"]);
    let screen = t.wait_for("Player O: arrows");
    let row8 = screen.lines().find(|l| l.starts_with(" 8 ")).unwrap_or("");
    assert!(row8.ends_with("│ X │"), "{screen}");
    // h alone, then Enter: the hint.
    t.keys(&["h"]);
    t.wait_for("Player O: h_   Enter asks for a hint");
    t.keys(&["Enter"]);
    t.wait_for("Hint: square");
    t.keys(&["q", "y"]);
    t.wait_for("EXIT=0");
}

#[test]
fn full_screen_help_at_the_first_question_and_a_fresh_entry_after_a_refusal() {
    let Some(t) = Tmux::start("newuser") else {
        return;
    };
    t.type_line(&command("--first ask"));
    t.wait_for("Do you want to go first?");
    // ? at the very first question shows the help.
    t.keys(&["?"]);
    t.wait_for("Type a square number (1 to 9");
    t.keys(&["y"]);
    t.wait_for("Your move (X)");
    // A refused entry stays shown (on the line and in the message); the next
    // key starts a new entry: 8 then Enter plays 8, not "9x8".
    t.keys(&["9", "x", "Enter"]);
    let screen = t.wait_for("\"9x\": Invalid move");
    assert!(screen.contains("Your move (X): 9x_"), "{screen}");
    t.keys(&["8"]);
    t.wait_for("Your move (X): 8_   Enter plays 8");
    t.keys(&["Enter"]);
    let screen = t.wait_for("I am choosing square");
    let row3 = screen.lines().find(|l| l.starts_with(" 3 ")).unwrap_or("");
    assert!(row3.starts_with(" 3 │   │ X │"), "{screen}");
    t.keys(&["q", "y"]);
    t.wait_for("EXIT=0");
}

#[test]
fn full_screen_a_board_too_big_for_80x24_offers_the_line_view() {
    let Some(t) = Tmux::start("toobig") else {
        return;
    };
    t.type_line(&command("--mode two-player --size 20"));
    let screen = t.wait_for("enlarge");
    assert!(
        text_of(&screen).contains(
            "enlarge the terminal to 63x27, or play line by line with ttt --plain. q quits."
        ),
        "{screen}"
    );
    t.keys(&["q", "y"]);
    t.wait_for("EXIT=0");
}

/// The marks on the screen's board: (row label, column letter, mark), each
/// mark read under its column's letter in the header line.
fn marks(screen: &str) -> Vec<(u32, char, char)> {
    let Some(header) = screen.lines().find(|l| {
        let t = l.trim();
        t.starts_with("A ") && t.chars().all(|c| c == ' ' || c.is_ascii_uppercase())
    }) else {
        return Vec::new();
    };
    let columns: Vec<(usize, char)> = header
        .chars()
        .enumerate()
        .filter(|(_, c)| c.is_ascii_uppercase())
        .collect();
    let mut found = Vec::new();
    for line in screen.lines() {
        let Some(row) = line.get(..2).and_then(|l| l.trim().parse::<u32>().ok()) else {
            continue;
        };
        let cells: Vec<char> = line.chars().collect();
        for &(i, letter) in &columns {
            if let Some(&mark @ ('X' | 'O')) = cells.get(i) {
                found.push((row, letter.to_ascii_lowercase(), mark));
            }
        }
    }
    found
}

#[test]
fn full_screen_keys_typed_while_the_computer_thinks_are_played_after_its_move() {
    let Some(t) = Tmux::start("typeahead") else {
        return;
    };
    // The exact solver takes seconds over the first move of 5x5 four in a
    // row: a square typed meanwhile is shown waiting, then played in turn.
    t.type_line(&command("--ai perfect --size 5 -k 4 --first computer"));
    t.wait_for("Thinking...");
    t.tmux(&["send-keys", "-t", "0", "-l", "a1"]);
    t.keys(&["Enter"]);
    t.wait_for("typed meanwhile, played after my move: a1 Enter");
    // The computer's move, then a1 for O, and the computer thinks again.
    let screen = t.wait_until("a1 was not played", |s| marks(s).contains(&(1, 'a', 'O')));
    assert!(!screen.contains("already taken"), "{screen}");
    assert_eq!(marks(&screen).len(), 2, "{screen}");
    t.keys(&["q", "y"]);
    t.wait_for("EXIT=0");
}

#[test]
fn full_screen_typing_ahead_on_15x15_loses_no_key() {
    let Some(t) = Tmux::start("typeahead15") else {
        return;
    };
    // Issue 53's steps: h8, then g9 and, 0.3 s later while the computer
    // thinks, f8. Each reaches the board where it was typed. A million nodes
    // make each reply last about a second, so f8 comes while it thinks.
    let cmd = command("--size 15 --ai strong --first you --max-nodes 1000000")
        .replace("--seed 1", "--seed 3");
    t.type_line(&cmd);
    t.wait_for("Your move (X)");
    t.tmux(&["send-keys", "-t", "0", "-l", "h8"]);
    t.keys(&["Enter"]);
    t.wait_for("I am choosing square");
    t.tmux(&["send-keys", "-t", "0", "-l", "g9"]);
    t.keys(&["Enter"]);
    std::thread::sleep(Duration::from_millis(300));
    t.tmux(&["send-keys", "-t", "0", "-l", "f8"]);
    t.keys(&["Enter"]);
    // Three moves of each side: the last reply comes after f8.
    let screen = t.wait_until("no third reply", |s| {
        marks(s).iter().filter(|m| m.2 == 'O').count() == 3 && s.contains("Your move (X)")
    });
    assert!(!screen.contains("already taken"), "{screen}");
    let found = marks(&screen);
    for cell in [(8, 'h', 'X'), (9, 'g', 'X'), (8, 'f', 'X')] {
        assert!(found.contains(&cell), "{cell:?} missing:\n{screen}");
    }
    t.keys(&["q", "y"]);
    t.wait_for("EXIT=0");
}

#[test]
fn full_screen_enter_on_an_empty_line_places_only_after_a_cursor_move() {
    let Some(t) = Tmux::start("enter") else {
        return;
    };
    t.type_line(&command("--mode two-player"));
    t.wait_for("Player X: arrows");
    // Enter alone, the cursor untouched: no mark, and how to place one.
    t.keys(&["Enter"]);
    let screen = t.wait_for("Type a square and press Enter, or move the cursor");
    assert!(marks(&screen).is_empty(), "{screen}");
    assert!(screen.contains("Player X:"), "{screen}");
    // A move of the cursor, then Enter: placed there (c2).
    t.keys(&["Right", "Enter"]);
    let screen = t.wait_for("Player O:");
    let row2 = screen.lines().find(|l| l.starts_with(" 2 ")).unwrap_or("");
    assert!(row2.ends_with("│ X │"), "{screen}");
    // The next player's stray Enter places nothing either; u takes back one
    // move and says so.
    t.keys(&["Enter"]);
    t.wait_for("Type a square and press Enter");
    t.keys(&["u"]);
    t.wait_for("Took back the last move.");
    t.keys(&["q", "y"]);
    t.wait_for("EXIT=0");
}

#[test]
fn full_screen_help_names_every_command_as_the_board_reads_it() {
    let Some(t) = Tmux::start("help") else {
        return;
    };
    // 3x3: h and q are keys of their own.
    t.type_line(&command("--first you"));
    t.wait_for("Your move (X)");
    t.keys(&["?"]);
    let text = t.wait_for_words("Ctrl-Z suspends");
    assert!(
        text.contains("u undoes your last move, h gives a hint"),
        "{text}"
    );
    assert!(text.contains("q or Esc asks before quitting"), "{text}");
    // Your move and the reply taken back, in words.
    t.tmux(&["send-keys", "-t", "0", "-l", "1"]);
    t.keys(&["Enter"]);
    t.wait_for("I am choosing square");
    t.keys(&["u"]);
    t.wait_for("Took back your last move and my reply.");
    t.keys(&["q", "y"]);
    t.wait_for("EXIT=0");
    // 17 columns: h and q name columns; they act when Enter follows alone.
    t.type_line("clear");
    t.tmux(&["resize-window", "-t", "0", "-x", "80", "-y", "40"]);
    t.type_line(&command("--mode two-player --size 17x10 -k 5"));
    t.wait_for("Player X: arrows");
    t.keys(&["?"]);
    let text = t.wait_for_words("Ctrl-Z suspends");
    assert!(text.contains("h then Enter gives a hint"), "{text}");
    assert!(
        text.contains("q then Enter or Esc asks before quitting"),
        "{text}"
    );
    assert!(!text.contains(" h gives a hint"), "{text}");
    t.keys(&["Escape"]);
    t.wait_for("Quit the game in progress? (y/n)");
    t.keys(&["y"]);
    t.wait_for("EXIT=0");
}
