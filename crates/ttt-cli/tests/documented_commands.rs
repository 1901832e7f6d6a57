//! The commands the user is shown run as shown: every example of `ttt`'s
//! help (the program's and each command's `--help`), every command of
//! README.md's `sh` blocks, and the numbers the help quotes are the code's.
//!
//! A command runs under `bash -c` in a scratch folder, with `ttt` and
//! `pbrain-ttt` of this build first on the PATH, HOME and XDG_DATA_HOME in
//! the scratch folder, and `q` on standard input (a game started by an
//! example quits at once), after these rewrites that keep it short:
//! `--games N` plays at most 2 games, `--time`/`--time-x`/`--time-o` give a
//! twentieth of the time (10 ms at least), `--max-nodes` is 2,000 at most,
//! `--pace` waits 0 ms, `--openings` alone draws openings of 3 or 4 stones
//! (of 2 stones none is balanced on 15x15: 2,000 tries cost seconds), a Gomocup
//! engine shown as `./pbrain-rapfi` (not part of this project) is
//! `pbrain-ttt`, a full `ttt bench` runs one item, `ttt tactics check --full`
//! checks a suite of three positions, paths under `crates/` are the
//! repository's. It must exit 0, and where the example's comment promises
//! an answer ([`PROMISES`]) print it. README's `make` commands must name a
//! target of the Makefile they run, and its `cargo install` the command
//! `make test` runs (`install-check`).
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;

/// Examples whose comment states what they print, and words of it.
const PROMISES: &[(&str, &[&str])] = &[
    ("ttt move x.o/.x./...", &["9\n"]),
    ("ttt move --format coord xx./oo./...", &["c1\n"]),
    ("ttt solve", &["3x3 k=3: draw"]),
    ("ttt solve --size 4x4 -k 3", &["4x4 k=3: win in"]),
    ("ttt solve --size 9x3 -k 3 --distance", &["win in 7"]),
    (
        "ttt solve --size 6x6 -k 5 --certificate 665.cert && ttt verify 665.cert",
        &["6x6 k=5: draw", "665.cert: valid proof"],
    ),
    (
        "ttt solve --size 6x6 -k 5 --list-parts --json",
        &["\"question\": \"part 0: does O win?"],
    ),
    (
        "ttt solve --size 6x6 -k 5 --part 3 --census --certificate 665-3.part",
        &[
            "answer   X does not win",
            "positions settled by",
            "heaviest subtrees",
        ],
    ),
    (
        "ttt solve --size 6x6 -k 5 --resume 665.parts --certificate 665.cert",
        &[
            "7 parts, 0 settled",
            "6x6 k=5: draw",
            "certificate 665.cert (7 sections",
        ],
    ),
    (
        "ttt join --output 665.cert 665-*.part && ttt verify 665.cert",
        &[
            "665.cert: valid proof: 6x6 k=5 draw (7 of 7 sections",
            "665.cert: valid proof: 6x6 k=5 draw (",
        ],
    ),
    (
        "ttt threats --moves \"h8 h9 i8 i9 j8\"",
        &["X  open four: g8 k8"],
    ),
    (
        "ttt threats -k 5 ..x.../..x.../..x.../....../o...../o.....",
        &["X  four: c4 c5"],
    ),
    (
        "printf 'y\\n1\\n9\\n7\\n4\\nn\\n' | ttt --plain --seed 1",
        &["Congratulations, you win!"],
    ),
    ("ttt tactics run", &["solved"]),
];

/// The folder of this build's programs.
fn bin_dir() -> PathBuf {
    common::ttt_path()
        .parent()
        .expect("ttt has a folder")
        .to_path_buf()
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A help's words, one space apart (clap wraps the text to the terminal).
fn help_words(args: &[&str]) -> String {
    help(args).split_whitespace().collect::<Vec<_>>().join(" ")
}

fn help(args: &[&str]) -> String {
    let out = common::ttt()
        .args(args)
        .arg("--help")
        .output()
        .expect("run ttt --help");
    assert!(out.status.success(), "ttt {args:?} --help failed");
    String::from_utf8(out.stdout).expect("UTF-8 help")
}

/// The program's help and each command's: the commands its help lists,
/// and the developers' `tactics`, which it does not.
fn all_helps() -> Vec<(String, String)> {
    let root = help(&[]);
    let (_, listed) = root
        .split_once("Commands:\n")
        .expect("ttt --help lists commands");
    let mut commands: Vec<&str> = listed
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 10, "{commands:?}");
    commands.push("tactics");
    let mut helps = vec![("ttt".to_string(), root.clone())];
    for command in commands {
        helps.push((format!("ttt {command}"), help(&[command])));
    }
    helps
}

/// An example's lines joined (a line ending in `\` goes on), cut from its
/// comment (`  # ...`).
fn join_lines(lines: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in lines {
        let line = line.trim();
        if let Some(start) = line.strip_suffix('\\') {
            current.push_str(start.trim_end());
            current.push(' ');
            continue;
        }
        current.push_str(line);
        let (command, comment) = match current.find("  #") {
            Some(i) => (current[..i].trim(), current[i + 3..].trim()),
            None => (current.trim(), ""),
        };
        if !command.is_empty() && !command.starts_with('#') {
            out.push((command.to_string(), comment.to_string()));
        }
        current.clear();
    }
    out
}

/// The lines of a help's `Examples:` section.
fn help_examples(help: &str) -> Vec<(String, String)> {
    let Some((_, rest)) = help.split_once("Examples:\n") else {
        return Vec::new();
    };
    let lines: Vec<&str> = rest
        .lines()
        .take_while(|l| l.starts_with("  ") || l.is_empty())
        .filter(|l| !l.trim().is_empty())
        .collect();
    join_lines(&lines)
}

/// The lines of README.md's ```sh blocks.
fn readme_commands() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo().join("README.md")).expect("read README.md");
    let mut commands = Vec::new();
    let mut block: Option<Vec<&str>> = None;
    for line in text.lines() {
        match (&mut block, line.trim_end()) {
            (None, "```sh") => block = Some(Vec::new()),
            (Some(lines), "```") => {
                commands.extend(join_lines(lines));
                block = None;
            }
            (Some(lines), _) => lines.push(line),
            (None, _) => {}
        }
    }
    assert!(block.is_none(), "README.md: an sh block is not closed");
    commands
}

/// Replaces the number after each `flag ` with `f(number)`.
fn rewrite_numbers(command: &str, flag: &str, f: impl Fn(u64) -> u64) -> String {
    let words: Vec<&str> = command.split(' ').collect();
    let mut out: Vec<String> = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let after_flag = i > 0 && words[i - 1] == flag;
        match word.parse::<u64>() {
            Ok(n) if after_flag => out.push(f(n).to_string()),
            _ => out.push((*word).to_string()),
        }
    }
    out.join(" ")
}

/// The short-limits version of a shown command (see the file's doc).
fn shortened(command: &str, scratch: &Path) -> String {
    let mut c = command.to_string();
    c = rewrite_numbers(&c, "--games", |n| n.min(2));
    c = rewrite_numbers(&c, "-n", |n| n.min(2));
    for flag in ["--time", "--time-x", "--time-o"] {
        c = rewrite_numbers(&c, flag, |ms| (ms / 20).max(10));
    }
    c = rewrite_numbers(&c, "--max-nodes", |n| n.min(2000));
    c = rewrite_numbers(&c, "--pace", |_| 0);
    c = c.replace("./pbrain-rapfi", "pbrain-ttt");
    if c.contains("--openings ") && !c.contains("--openings 2") && !c.contains("--openings 3") {
        c = c.replacen("--openings ", "--openings 3-4 ", 1);
    }
    c = c.replace(" crates/", &format!(" {}/crates/", repo().display()));
    if c.starts_with("ttt bench") && !c.contains("--only") {
        c = c.replacen("ttt bench", "ttt bench --only 3x3-best-move", 1);
    }
    if c.starts_with("ttt tactics check --full") {
        let suite = std::fs::read_to_string(repo().join("crates/ttt-core/src/ai/tactics.txt"))
            .expect("read the tactics suite");
        let small: Vec<&str> = suite
            .lines()
            .filter(|l| !l.starts_with('#'))
            .take(3)
            .collect();
        let path = scratch.join("small-suite.txt");
        std::fs::write(&path, small.join("\n") + "\n").expect("write a small suite");
        c = format!("{c} --suite {}", path.display());
    }
    c
}

/// Runs a shown command (shortened) in `scratch`; its output, or a failure.
fn run(command: &str, scratch: &Path) -> Result<String, String> {
    let short = shortened(command, scratch);
    // `> ~/x/y`: the folder is made first, as a user's would exist.
    for target in short.split("> ").skip(1) {
        let path = target.split_whitespace().next().unwrap_or("");
        if let Some(rest) = path.strip_prefix("~/") {
            if let Some(parent) = scratch.join(rest).parent() {
                std::fs::create_dir_all(parent).expect("make the folder");
            }
        }
    }
    let path = std::env::join_paths(std::iter::once(bin_dir()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH");
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(&short)
        .current_dir(scratch)
        .env("PATH", path)
        .env("HOME", scratch)
        .env("XDG_DATA_HOME", scratch.join("data"))
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run bash");
    {
        use std::io::Write;
        // A game quits at once; a command that reads no input may be gone.
        let _ = child.stdin.take().expect("stdin").write_all(b"q\n");
    }
    let out = child.wait_with_output().expect("wait for the command");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        Ok(stdout)
    } else {
        Err(format!(
            "`{short}` failed ({}):\n{stdout}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ttt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make the scratch folder");
    dir
}

/// Runs `commands` in order in one scratch folder (an example may use a
/// file an earlier one wrote), checking the promises; returns the
/// promised commands that ran.
fn run_all(
    commands: &[(String, String)],
    dir: &Path,
    failures: &mut Vec<String>,
) -> BTreeSet<String> {
    let mut kept = BTreeSet::new();
    for (command, _comment) in commands {
        match run(command, dir) {
            Ok(out) => {
                if let Some((_, words)) = PROMISES.iter().find(|(c, _)| c == command) {
                    kept.insert(command.clone());
                    for word in *words {
                        if !out.contains(word) {
                            failures.push(format!("`{command}` does not print {word:?}:\n{out}"));
                        }
                    }
                }
            }
            Err(why) => failures.push(why),
        }
    }
    kept
}

#[test]
fn every_help_example_runs_and_prints_what_it_says() {
    let helps = all_helps();
    let mut count = 0;
    for (name, help) in &helps {
        let examples = help_examples(help);
        assert!(
            !examples.is_empty() || name == "ttt pbrain",
            "{name} --help shows no example"
        );
        count += examples.len();
    }
    assert!(count > 30, "only {count} examples found");
    // Each help's examples in order in a folder of their own, the helps
    // side by side.
    let results: Vec<(BTreeSet<String>, Vec<String>)> = std::thread::scope(|s| {
        let runs: Vec<_> = helps
            .iter()
            .map(|(name, help)| {
                s.spawn(move || {
                    let dir = scratch(&format!("help-{}", name.replace(' ', "-")));
                    let mut failures = Vec::new();
                    let kept = run_all(&help_examples(help), &dir, &mut failures);
                    let _ = std::fs::remove_dir_all(&dir);
                    (kept, failures)
                })
            })
            .collect();
        runs.into_iter()
            .map(|r| r.join().expect("a help's examples"))
            .collect()
    });
    let mut promised = BTreeSet::new();
    let mut failures = Vec::new();
    for (kept, failed) in results {
        promised.extend(kept);
        failures.extend(failed);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Every promise is about an example that is still shown.
    for (command, _) in PROMISES {
        assert!(
            promised.contains(*command) || readme_commands().iter().any(|(c, _)| c == command),
            "no example runs `{command}` any more: update PROMISES"
        );
    }
}

#[test]
fn the_gomocup_session_of_pbrain_help_is_answered_as_shown() {
    use std::io::{BufRead, BufReader, Write};
    let help = help(&["pbrain"]);
    let (_, session) = help
        .split_once("Example session")
        .expect("pbrain --help shows a session");
    let mut brain = Command::new(common::ttt_path())
        .arg("pbrain")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run ttt pbrain");
    let mut to_brain = brain.stdin.take().expect("stdin");
    let mut from_brain = BufReader::new(brain.stdout.take().expect("stdout"));
    let mut answered = 0;
    // As a manager does: each command, then its answer (if any) before the next.
    for line in session.lines().filter(|l| l.trim_start().starts_with('>')) {
        let line = line.trim_start().trim_start_matches('>').trim();
        let (command, answer) = match line.split_once("  <") {
            Some((c, a)) => (c.trim(), Some(a.trim())),
            None => (line, None),
        };
        writeln!(to_brain, "{command}").expect("write to the brain");
        let Some(answer) = answer else {
            continue;
        };
        // What the brain says of its search (MESSAGE depth ...) is no
        // answer: a manager shows it.
        let mut got = String::new();
        while got.is_empty() || got.starts_with("MESSAGE depth ") {
            got.clear();
            from_brain.read_line(&mut got).expect("read the answer");
        }
        let got = got.trim_end();
        match answer {
            // Any move.
            "..." => assert!(
                got.split_once(',')
                    .is_some_and(|(x, y)| { x.parse::<u8>().is_ok() && y.parse::<u8>().is_ok() }),
                "{command}: {got:?}"
            ),
            _ => assert_eq!(got, answer, "{command}"),
        }
        answered += 1;
    }
    drop(to_brain);
    assert!(answered >= 3, "the session shows {answered} answers");
    assert!(brain.wait().expect("wait for the brain").success());
}

#[test]
fn every_readme_command_is_run_here_or_by_make() {
    let commands = readme_commands();
    assert!(
        commands.len() > 10,
        "only {} README commands",
        commands.len()
    );
    let makefile = std::fs::read_to_string(repo().join("Makefile")).expect("read Makefile");
    let n64_makefile =
        std::fs::read_to_string(repo().join("n64/Makefile")).expect("read n64/Makefile");
    let dir = scratch("readme");
    let mut failures = Vec::new();
    let mut ttt_commands = Vec::new();
    for (command, comment) in commands {
        if let Some(rest) = command.strip_prefix("make ") {
            let (file, target) = match rest.strip_prefix("-C n64 ") {
                Some(t) => (&n64_makefile, t),
                None => (&makefile, rest),
            };
            let target = target.split_whitespace().next().unwrap_or("");
            let defined = file
                .lines()
                .any(|l| l.split(':').next() == Some(target) && l.contains(':'));
            if !defined {
                failures.push(format!("README runs `{command}`: no target {target:?}"));
            }
        } else if command.starts_with("cargo install ") {
            if !makefile.contains(&command) {
                failures.push(format!("README's `{command}` is not run by make test"));
            }
        } else if command.starts_with("ttt ") || command.contains("| ttt ") {
            ttt_commands.push((command, comment));
        } else {
            failures.push(format!(
                "README's `{command}`: neither ttt, make nor cargo install"
            ));
        }
    }
    run_all(&ttt_commands, &dir, &mut failures);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn numbers_the_help_quotes_are_the_codes() {
    let words = help_words(&["play"]);
    // The console's node budget, on every board it searches with one (the
    // larger boards are searched for a time).
    let mut budgets = BTreeSet::new();
    let mut timed = 0;
    for side in ttt64_game::settings::MIN_SIDE..=ttt64_game::settings::MAX_SIDE {
        for k in 1..=side {
            let rules = ttt_core::Rules::new(side, side, k).expect("a console board");
            if ttt64_game::settings::is_timed(&rules) {
                timed += 1;
            } else {
                budgets.insert(ttt64_game::settings::console_nodes(&rules));
            }
        }
    }
    assert!(
        timed == 0 || words.contains("on larger boards it searches for a time"),
        "{words}"
    );
    assert_eq!(
        budgets.len(),
        1,
        "the console's budget varies: say so in --help"
    );
    let nodes = budgets.first().expect("a budget");
    assert!(
        words.contains(&format!(
            "The N64 console searches with {nodes} nodes a move"
        )) && words.contains(&format!("--max-nodes {nodes} --seed")),
        "{words}"
    );
    // tactics: strong's budget a position.
    let bench = ttt_core::ai::tactics::BENCH_NODES;
    let grouped = format!("{},{:03}", bench / 1000, bench % 1000);
    assert!(help_words(&["bench"]).contains(&format!("({grouped} nodes each")));
    assert!(help_words(&["tactics"]).contains(&format!("strong at {grouped} nodes a position")));
    // solve: the distance always up to PROVER_ABOVE cells, the prover up to 64.
    let solve = help_words(&["solve"]);
    let above = ttt_core::ai::solver::PROVER_ABOVE;
    assert!(
        solve.contains(&format!("boards of up to {above} cells always")),
        "{solve}"
    );
    assert!(
        solve.contains("Boards of up to 64 cells are proven"),
        "{solve}"
    );
    let fits = |c, r| ttt_core::ai::Prover::fits(&ttt_core::Rules::new(c, r, 4).unwrap());
    assert!(fits(8, 8) && !fits(13, 5));
    // move: the longest line read.
    let kib = ttt_cli::lines::MAX_LINE_BYTES / 1024;
    assert!(help_words(&["move"]).contains(&format!("lines over {kib} KiB")));
    // arena: an engine's time per move when none is given.
    let arena = help_words(&["arena"]);
    let turn = ttt_cli::engine::arena::DEFAULT_ENGINE_TURN_MS;
    assert!(
        arena.contains(&format!("(engines: {turn} if not given)")),
        "{arena}"
    );
}

#[test]
fn the_same_things_have_the_same_flags_in_every_command() {
    let has = |command: &str, flag: &str| help(&[command]).contains(flag);
    for command in ["play", "move", "analyze", "threats", "solve", "arena"] {
        assert!(has(command, "-k, --win-length <K>"), "{command}");
    }
    for command in ["play", "threats", "solve", "arena"] {
        assert!(has(command, "--size <N|CxR>"), "{command}");
    }
    // Commands that read boards take no --size, and say none.
    for command in ["move", "analyze"] {
        assert!(!has(command, "--size"), "{command}");
    }
    for command in ["play", "arena"] {
        assert!(has(command, "-x, --ai-x <NAME>"), "{command}");
        assert!(has(command, "-o, --ai-o <NAME>"), "{command}");
    }
    for command in ["play", "move", "arena", "pbrain"] {
        assert!(has(command, "--seed <SEED>"), "{command}");
    }
    for command in ["play", "move", "arena"] {
        assert!(has(command, "--max-nodes <N>"), "{command}");
    }
    // Old spellings still work.
    common::ttt()
        .args(["arena", "-x", "random", "-o", "random", "--games", "2"])
        .assert()
        .success();
    common::ttt()
        .args([
            "arena", "--ai-x", "random", "--ai-o", "random", "--games", "2",
        ])
        .assert()
        .success();
    common::ttt()
        .args(["solve", "--size", "4", "--win-length", "3"])
        .assert()
        .success();
}
