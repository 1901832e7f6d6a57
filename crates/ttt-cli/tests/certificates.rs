//! `ttt solve --certificate` and `ttt verify`: proofs written, checked, and
//! corrupted proofs rejected.
mod common;

use common::{stdout_of, ttt};
use predicates::prelude::*;
use ttt_cli::engine::reduced::Geometry;
use ttt_cli::engine::verify::check_text;
use ttt_core::{Mark, Position, Rules};

/// Solves `size`/`k` with a certificate; returns the certificate text.
fn certificate(size: &str, k: &str) -> String {
    certificate_on(size, k, "1")
}

/// As [`certificate`], written by `threads` threads (on one, the same file
/// on every run).
fn certificate_on(size: &str, k: &str, threads: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.cert");
    let path_text = path.to_str().unwrap();
    let out = stdout_of(&[
        "solve",
        "--size",
        size,
        "-k",
        k,
        "--threads",
        threads,
        "--certificate",
        path_text,
    ]);
    assert!(out.contains("certificate "), "{out}");
    let verified = stdout_of(&["verify", path_text]);
    assert!(verified.contains("valid proof"), "{verified}");
    std::fs::read_to_string(&path).unwrap()
}

#[test]
fn draws_and_wins_are_proven_and_verified() {
    let cert = certificate("3x3", "3");
    assert!(cert.starts_with("ttt-certificate 3\n"), "{cert}");
    assert!(cert.contains("claim draw\n"), "{cert}");
    assert!(cert.contains("strategy o blocks x\n"));
    assert!(cert.contains("strategy x blocks o\n"));
    let checked = check_text(&cert).unwrap();
    assert_eq!(checked.claim, "draw");
    assert!(checked.positions > 10);

    // `ttt solve` says X wins 4x4 k=3 (a win in 5) and draws 4x4 k=4.
    let cert = certificate("4x4", "3");
    assert!(cert.contains("claim x wins\n"), "{cert}");
    assert!(check_text(&cert).is_ok());
    let cert = certificate("4x4", "4");
    assert!(cert.contains("claim draw\n"), "{cert}");

    // Past 25 cells: 6x6 k=5 is a draw.
    let cert = certificate("6x6", "5");
    assert!(cert.contains("claim draw\n"));
    assert!(check_text(&cert).is_ok());
}

#[test]
fn certificates_written_by_several_threads_are_checked_and_hold() {
    // The threads split the walk; their parts together must still be a
    // whole proof, which `ttt verify` (in `certificate_on`) checks.
    for (size, k, claim) in [
        ("5x5", "4", "draw"),
        ("6x5", "4", "x wins"),
        ("7x6", "5", "draw"),
    ] {
        for threads in ["2", "3"] {
            let cert = certificate_on(size, k, threads);
            assert!(
                cert.contains(&format!("claim {claim}\n")),
                "{size} {threads}"
            );
            let checked = check_text(&cert).unwrap();
            assert!(
                checked.positions > 100,
                "{size} {threads}: {}",
                checked.positions
            );
        }
    }
    // One thread: the same file every time.
    assert_eq!(certificate("5x5", "4"), certificate("5x5", "4"));
}

#[test]
fn positions_differing_only_in_dead_cells_are_merged() {
    // 5x5 k=4 (a draw): the proof lists positions with dead cells (`#`), each
    // standing for every position that differs from it only there.
    let cert = certificate("5x5", "4");
    let dead_entries = cert.lines().filter(|l| l.contains('#')).count();
    assert!(dead_entries > 20, "{dead_entries} entries with dead cells");
    let checked = check_text(&cert).unwrap();
    assert!(checked.positions > 100, "{}", checked.positions);

    // The reduction itself, on boards of two rows with k = 3 (only the
    // rows hold lines). 4x2: in the top row x.o., the line a..c holds both
    // marks, b..d only o: the first cell is dead, the others live.
    let g = Geometry::new("4x2 k=3".parse().unwrap()).unwrap();
    let reduce = |board: &str| g.reduce(&Position::from_board(board, Some(3)).unwrap());
    let key = reduce("xo../....");
    assert_eq!(g.board_text(&key), "#o../....");
    assert_eq!(key.spare, 0);
    // 5x2: in a row ?xo.., the lines a..c and b..d hold both marks
    // whatever `?` holds: the first two cells are dead.
    let g = Geometry::new("5x2 k=3".parse().unwrap()).unwrap();
    let reduce = |board: &str| g.reduce(&Position::from_board(board, Some(3)).unwrap());
    let a = reduce("xxo../oxo..");
    assert_eq!(g.board_text(&a), "##o../##o..");
    assert_eq!(a.spare, 0);
    // Dead cells' contents swapped: the same reduced position.
    assert_eq!(a, reduce("oxo../xxo.."));
    // A spare (empty dead) cell: another one.
    let c = reduce(".xo../xxo..");
    assert_eq!(g.board_text(&c), "##o../##o..");
    assert_eq!(c.spare, 1);
    assert_ne!(a, c);
    // A live cell differs: another one.
    let d = reduce("xxo../ox.o.");
    assert_eq!(g.board_text(&d), "##o../##.o.");
    assert_ne!(a, d);
}

#[test]
fn the_checker_s_leaf_tests_follow_the_rules() {
    use ttt_cli::engine::reduced::Key;
    let g = Geometry::new("4x4 k=4".parse().unwrap()).unwrap();
    let reduce = |board: &str| g.reduce(&Position::from_board(board, Some(4)).unwrap());
    // Empty 4x4 k=4, X to move: 10 lines, sum 10 >= 2^3: O is not safe by
    // Erdos-Selfridge yet; after X's corner (O to move) 3*2 + 7 = 13 < 2^4.
    assert!(!g.erdos_selfridge_blocks(&reduce("..../..../..../...."), Mark::O));
    assert!(g.erdos_selfridge_blocks(&reduce("x.../..../..../...."), Mark::O));
    // X's three in a row with the fourth cell free: X to move wins at once;
    // blocked, it does not.
    let three = reduce("xxx./oo../o.../....");
    assert!(g.has_immediate_win(&three, Mark::X));
    assert!(!g.has_immediate_win(&three, Mark::O));
    assert!(!g.has_immediate_win(&reduce("xxxo/oo../..x./...."), Mark::X));
    // Consistency of a listed position: shown cells must be live, counts
    // must fit the side to move and the spare cells.
    let bits = |t: &str| g.parse_board(t).unwrap();
    let key = |t: &str, spare: u8, x_to_move: bool| {
        let (dead, x, o) = bits(t);
        Key {
            dead,
            x,
            o,
            spare,
            x_to_move,
        }
    };
    assert!(g
        .check_consistent(&key("x.../..../..../....", 0, false))
        .is_ok());
    // Two X marks, no O, X to move: impossible without dead cells.
    let err = g
        .check_consistent(&key("xx../..../..../....", 0, true))
        .unwrap_err();
    assert!(err.contains("do not fit"), "{err}");
    // More spare cells than dead ones.
    let err = g
        .check_consistent(&key("#.../..../..../....", 2, true))
        .unwrap_err();
    assert!(err.contains("do not fit"), "{err}");
    // A cell shown on no open line: the row, column and diagonal through
    // the empty corner each hold both marks, so it must be shown as dead.
    let err = g
        .check_consistent(&key(".xo./ox../x.../...o", 0, true))
        .unwrap_err();
    assert!(err.contains("on no open line"), "{err}");
}

/// `text` with the entry for `board` given the reply `mv` (its spare count
/// kept).
fn with_reply(text: &str, board: &str, mv: &str) -> String {
    edit_entry(text, board, |fields| fields[2] = mv.to_string())
}

/// `text` with the entry for `board` changed by `edit` (on its three fields).
fn edit_entry(text: &str, board: &str, edit: impl Fn(&mut Vec<String>)) -> String {
    let mut found = false;
    let out: Vec<String> = text
        .lines()
        .map(|l| {
            let mut fields: Vec<String> = l.split(' ').map(String::from).collect();
            if fields.len() == 3 && fields[0] == board && !found {
                found = true;
                edit(&mut fields);
                fields.join(" ")
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(found, "no line for {board}");
    out.join("\n") + "\n"
}

/// A 3x3 certificate whose O strategy plays the first empty live cell in
/// every reduced position with O to move (a strategy that loses), with X's
/// real strategy.
fn naive_o_strategy() -> String {
    fn walk(g: &Geometry, pos: &mut Position, out: &mut Vec<String>) {
        if pos.outcome().is_over() {
            return;
        }
        if pos.side_to_move() == Mark::O {
            let (key, _) = g.canonical(&g.reduce(pos));
            let taken = key.dead | key.x | key.o;
            let first = (0..9).find(|i| taken >> i & 1 == 0).unwrap();
            out.push(g.entry_text(&key, first));
        }
        for sq in pos.legal_moves() {
            pos.play(sq).unwrap();
            walk(g, pos, out);
            pos.undo();
        }
    }
    let g = Geometry::new(Rules::CLASSIC).unwrap();
    let mut lines = Vec::new();
    walk(&g, &mut Position::new(Rules::CLASSIC), &mut lines);
    lines.sort();
    lines.dedup();
    let good = certificate("3x3", "3");
    let x_part = &good[good.find("strategy x blocks o").unwrap()..];
    format!(
        "ttt-certificate 3\nrules 3x3 k=3\nclaim draw\nstrategy o blocks x\n{}\nend\n{x_part}",
        lines.join("\n")
    )
}

#[test]
fn corrupted_certificates_are_rejected() {
    let good = certificate("3x3", "3");
    assert!(check_text(&good).is_ok());
    // O must answer X's centre with a corner: after an edge the strategy
    // has no answer to X's threats (rejected either way: a missing reply or
    // a line for X).
    let bad = with_reply(&good, ".../.x./...", "2");
    let err = check_text(&bad).unwrap_err();
    assert!(
        err.contains("x completes a line") || err.contains("no reply"),
        "{err}"
    );
    // A complete but losing strategy: O answers the centre with an edge and
    // every later position with its first empty cell: X gets a line.
    let naive = naive_o_strategy();
    let err = check_text(&naive).unwrap_err();
    assert!(err.contains("x completes a line"), "{err}");
    // An occupied cell as the reply.
    let err = check_text(&with_reply(&good, ".../.x./...", "5")).unwrap_err();
    assert!(err.contains("not legal"), "{err}");
    // A reply off the board.
    let err = check_text(&with_reply(&good, ".../.x./...", "10")).unwrap_err();
    assert!(err.contains("not on the board"), "{err}");
    // A position missing.
    let missing: String = good
        .lines()
        .filter(|l| !l.starts_with(".../.x./... "))
        .map(|l| format!("{l}\n"))
        .collect();
    let err = check_text(&missing).unwrap_err();
    assert!(err.contains("no reply"), "{err}");
    // The wrong claim: a draw is not an X win.
    let err = check_text(&good.replace("claim draw", "claim x wins")).unwrap_err();
    assert!(err.contains("needs strategy x wins"), "{err}");
    // Half a draw proof: X's side of it removed.
    let half = &good[..good.find("strategy x blocks o").unwrap()];
    assert!(check_text(half).unwrap_err().contains("x blocks o"));
    // Another board, a truncated file, a duplicate position.
    assert!(check_text(&good.replace("rules 3x3 k=3", "rules 4x4 k=3")).is_err());
    assert!(check_text(good.trim_end().trim_end_matches("end")).is_err());
    let dup = good.replacen(
        "strategy o blocks x\n",
        "strategy o blocks x\n.../.x./... 0 1\n",
        1,
    );
    assert!(check_text(&dup).unwrap_err().contains("twice"));
    // Old and unknown versions; version 2 is version 3 without pairings.
    let err = check_text(&good.replace("ttt-certificate 3", "ttt-certificate 1")).unwrap_err();
    assert!(err.contains("version 1"), "{err}");
    let err = check_text(&good.replace("ttt-certificate 3", "ttt-certificate 5")).unwrap_err();
    assert!(err.contains("unknown certificate version `5`"), "{err}");
    let v2 = certificate("4x4", "3").replace("ttt-certificate 3", "ttt-certificate 2");
    assert!(!v2.contains("pairs "), "a win needs no pairing");
    assert!(check_text(&v2).is_ok());

    // An X-win proof whose first move is replaced by a drawing one: 4x4
    // k=3 is won from every first move? Corrupt every reply of the first
    // position in turn; at least the non-winning ones must be rejected, and
    // every accepted one must really win (checked by the checker itself).
    let win = certificate("4x4", "3");
    let empty = "..../..../..../....";
    let mut rejected = 0;
    for mv in 1..=16 {
        if check_text(&with_reply(&win, empty, &mv.to_string())).is_err() {
            rejected += 1;
        }
    }
    assert!(rejected > 0, "every first move wins 4x4 k=3?");
}

#[test]
fn pairing_entries_are_checked_not_trusted() {
    // 3x3, X in the centre, O to move: X blocks O by pairs, one on each
    // line O can still use (the outer rows and columns).
    let good = certificate("3x3", "3");
    let entry = "pairs o .../.x./... 0 1-4 2-3 6-9 7-8";
    let x_blocks = good.find("strategy x blocks o\n").unwrap();
    assert!(good[x_blocks..].contains(&format!("{entry}\n")), "{good}");
    let with = |pairs: &str| good.replace(entry, &format!("pairs o .../.x./... 0 {pairs}"));
    let err = check_text(&with("1-4 2-3 6-9")).unwrap_err();
    assert!(
        err.contains("the line through cells 7,8,9 holds no pair"),
        "{err}"
    );
    let err = check_text(&with("1-4 2-3 6-9 7-5")).unwrap_err();
    assert!(err.contains("cell 5 is not an empty live cell"), "{err}");
    let err = check_text(&with("1-4 1-3 6-9 7-8")).unwrap_err();
    assert!(err.contains("cell 1 is in two pairs"), "{err}");
    let err = check_text(&with("1-4 2-3 6-9 7-x")).unwrap_err();
    assert!(err.contains("bad cell number `x`"), "{err}");
    let err = check_text(&with("1-4 2-3 6-9 7-10")).unwrap_err();
    assert!(err.contains("cell 10 is not on the board"), "{err}");
    let err = check_text(&good.replace(entry, "pairs z .../.x./... 0 1-4")).unwrap_err();
    assert!(err.contains("expected `x` or `o` to move"), "{err}");
    // The same pairs do not block X (its lines through the centre).
    let moved = good.replace(&format!("{entry}\n"), "").replace(
        "strategy o blocks x\n",
        &format!("strategy o blocks x\n{entry}\n"),
    );
    let err = check_text(&moved).unwrap_err();
    assert!(err.contains("not a pairing for o"), "{err}");
    // A pairing only blocks: never part of a winning strategy.
    let win = certificate("4x4", "3").replace(
        "strategy x wins\n",
        "strategy x wins\npairs o ..../..../..../.... 0 1-2\n",
    );
    let err = check_text(&win).unwrap_err();
    assert!(err.contains("a pairing only blocks"), "{err}");
}

#[test]
fn versions_and_numbers_are_read_as_written() {
    // Issue 51: `+3` and `03` were read as version 3, and a version 2 file
    // (no pairings in that format) was accepted with pairing entries.
    let good = certificate("3x3", "3");
    assert!(good.contains("\npairs "), "{good}");
    for version in ["+3", "03", "3.0", "3 3"] {
        let text = good.replace("ttt-certificate 3", &format!("ttt-certificate {version}"));
        let err = check_text(&text).unwrap_err();
        assert!(
            err.contains(&format!("unknown certificate version `{version}`")),
            "{version}: {err}"
        );
    }
    let v2 = good.replace("ttt-certificate 3", "ttt-certificate 2");
    let err = check_text(&v2).unwrap_err();
    assert!(
        err.contains("a pairing entry in a version 2 certificate"),
        "{err}"
    );
    // The numbers of the entries are read the same way.
    let entry = "pairs o .../.x./... 0 1-4 2-3 6-9 7-8";
    for (bad, message) in [
        (
            "pairs o .../.x./... +0 1-4 2-3 6-9 7-8",
            "bad spare cell count `+0`",
        ),
        (
            "pairs o .../.x./... 00 1-4 2-3 6-9 7-8",
            "bad spare cell count `00`",
        ),
        (
            "pairs o .../.x./... 0 01-4 2-3 6-9 7-8",
            "bad cell number `01`",
        ),
        (
            "pairs o .../.x./... 0 +1-4 2-3 6-9 7-8",
            "bad cell number `+1`",
        ),
    ] {
        let err = check_text(&good.replace(entry, bad)).unwrap_err();
        assert!(err.contains(message), "{bad}: {err}");
    }
    let reply = good
        .lines()
        .find(|l| l.starts_with(".../.x./... 0 "))
        .unwrap()
        .to_string();
    let cell = reply.rsplit(' ').next().unwrap();
    let err = check_text(&good.replace(&reply, &format!(".../.x./... 0 0{cell}"))).unwrap_err();
    assert!(err.contains(&format!("bad move `0{cell}`")), "{err}");
}

#[test]
fn a_cell_paired_with_itself_is_named_so() {
    // Issue 51: `7-7` was reported as "cell 7 is in two pairs".
    let good = certificate("3x3", "3");
    let entry = "pairs o .../.x./... 0 1-4 2-3 6-9 7-8";
    let err =
        check_text(&good.replace(entry, "pairs o .../.x./... 0 1-4 2-3 6-9 7-7")).unwrap_err();
    assert!(err.contains("7-7 pairs cell 7 with itself"), "{err}");
}

#[test]
fn verify_json_gives_a_verdict_for_a_rejected_certificate_too() {
    // Issue 51: --json printed nothing for a rejected certificate.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.cert");
    std::fs::write(&path, "ttt-certificate 3\nrules 3x3 k=3\nclaim draw\n").unwrap();
    let out = ttt()
        .args(["verify", "--json", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["valid"], false, "{json}");
    assert_eq!(json["file"], path.to_str().unwrap(), "{json}");
    let reason = json["reason"].as_str().unwrap();
    assert!(
        reason.contains("claim draw needs strategy o blocks x"),
        "{reason}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains(reason));
    // And a valid one: true, no reason.
    let good = dir.path().join("good.cert");
    std::fs::write(&good, certificate("3x3", "3")).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&stdout_of(&["verify", "--json", good.to_str().unwrap()])).unwrap();
    assert_eq!(json["valid"], true, "{json}");
    assert!(json.get("reason").is_none(), "{json}");
    assert_eq!(json["claim"], "draw", "{json}");
}

#[test]
fn corrupted_reduced_positions_are_rejected() {
    let good = certificate("5x5", "4");
    assert!(check_text(&good).is_ok());
    // An entry with dead cells and a spare one (the strategy's first).
    let entry = good
        .lines()
        .filter(|l| !l.starts_with("pairs "))
        .find(|l| l.contains('#') && l.split(' ').nth(1).is_some_and(|s| s != "0"))
        .expect("an entry with a spare dead cell")
        .to_string();
    let fields: Vec<&str> = entry.split(' ').collect();
    let (board, spare) = (fields[0], fields[1].parse::<u32>().unwrap());
    let dead = board.find('#').unwrap();
    let cell = |i: usize| (i - i / 6 + 1).to_string(); // board text index -> cell number
                                                       // A reply into a dead cell (taken or not, it is a pass as far as lines go).
    let err = check_text(&with_reply(&good, board, &cell(dead))).unwrap_err();
    assert!(err.contains("must be an empty live cell"), "{err}");
    // A reply into a live cell that is taken.
    if let Some(taken) = board.find(['x', 'o']) {
        let err = check_text(&with_reply(&good, board, &cell(taken))).unwrap_err();
        assert!(err.contains("not legal"), "{err}");
    }
    // A reduced position whose spare count does not match the real
    // positions it stood for: those positions are left without a reply (or
    // the count does not fit the marks at all).
    let err = check_text(&edit_entry(&good, board, |f| {
        f[1] = (spare + 2).to_string()
    }))
    .unwrap_err();
    assert!(
        err.contains("no reply") || err.contains("do not fit") || err.contains("twice"),
        "{err}"
    );
    // Wrong merges: an empty live cell of an entry claimed dead and spare
    // (counts still consistent), a claimed-equivalent position that is not:
    // the positions the entry stood for are left without a reply. Every
    // such edit of the first 20 entries with dead cells is rejected, and
    // for the consistent ones it is for that reason.
    let mut wrong_merges = 0;
    for line in good
        .lines()
        .filter(|l| l.contains('#') && !l.starts_with("pairs "))
        .take(20)
    {
        let fields: Vec<&str> = line.split(' ').collect();
        let (board, spare) = (fields[0], fields[1].parse::<u32>().unwrap());
        for (i, _) in board.match_indices('.') {
            let mut merged = board.to_string();
            merged.replace_range(i..=i, "#");
            let bad = edit_entry(&good, board, |f| {
                f[0] = merged.clone();
                f[1] = (spare + 1).to_string();
            });
            let err = check_text(&bad).unwrap_err();
            if err.contains("no reply") {
                wrong_merges += 1;
            } else {
                // Or the reply's own cell was the one claimed dead.
                assert!(
                    err.contains("not a reduced position")
                        || err.contains("twice")
                        || err.contains("must be an empty live cell"),
                    "{err}"
                );
            }
        }
    }
    assert!(
        wrong_merges > 5,
        "{wrong_merges} consistent wrong merges tried"
    );
    // A dead cell shown as live and empty: not a reduction at all.
    let mut revived = board.to_string();
    revived.replace_range(dead..=dead, ".");
    let err = check_text(&edit_entry(&good, board, |f| f[0] = revived.clone())).unwrap_err();
    assert!(
        err.contains("no reply") || err.contains("not a reduced position") || err.contains("twice"),
        "{err}"
    );
}

#[test]
fn verify_reports_errors_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.cert");
    std::fs::write(&path, "ttt-certificate 2\nrules 3x3 k=3\nclaim draw\n").unwrap();
    ttt()
        .args(["verify", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("certificate rejected"));
    ttt()
        .args(["verify", dir.path().join("absent").to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
}

#[test]
fn a_certificate_path_that_cannot_be_written_is_refused_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().display().to_string();
    let missing = format!("{folder}/no-such-folder/x.cert");
    for (path, why) in [
        (
            folder.clone(),
            format!("--certificate {folder}: is a directory"),
        ),
        (
            missing.clone(),
            format!("--certificate {missing}: there is no folder {folder}/no-such-folder"),
        ),
    ] {
        let out = ttt()
            .args(["solve", "--size", "4x4", "-k", "3", "--certificate", &path])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&why), "{stderr}");
        // Refused before any solving: nothing on stdout, and no file left.
        assert!(
            out.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn solve_groups_the_certificate_entries_like_verify() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("554.cert");
    let path_text = path.to_str().unwrap();
    let solved = stdout_of(&[
        "solve",
        "--size",
        "5x5",
        "-k",
        "4",
        "--certificate",
        path_text,
    ]);
    let verified = stdout_of(&["verify", path_text]);
    // The same count, grouped by thousands, in both.
    let entries = |text: &str| {
        let end = text.find(" entries").expect("entries");
        let start = text[..end].rfind('(').expect("a count") + 1;
        text[start..end].to_string()
    };
    let count = entries(&solved);
    assert!(count.contains(','), "{solved}");
    assert!(
        count.chars().all(|c| c.is_ascii_digit() || c == ','),
        "{solved}"
    );
    assert_eq!(entries(&verified), count, "{verified}");
}

#[test]
fn exactly_k_boards_are_refused_for_the_real_reason_and_solved_where_they_can_be() {
    let out = ttt()
        .args(["solve", "--size", "4x4 k=3 exact"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("does not play the exactly-k rule where a line longer than k fits"),
        "{stderr}"
    );
    assert!(!stderr.contains("too large"), "{stderr}");
    let analysed = ttt()
        .args(["analyze", "--exact-k", "-k", "3", "..../..../..../...."])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&analysed.stderr);
    assert!(stderr.contains("exactly-k rule"), "{stderr}");
    // With k the longer side no longer line fits: solved as usual.
    let solved = stdout_of(&["solve", "--size", "4x4 k=4 exact"]);
    assert!(solved.starts_with("4x4 k=4 exact: draw"), "{solved}");
}
