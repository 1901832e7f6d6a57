//! `ttt solve --certificate` and `ttt verify`: proofs written, checked, and
//! corrupted proofs rejected.
mod common;

use common::{stdout_of, ttt};
use predicates::prelude::*;
use ttt_cli::engine::verify::check_text;

/// Solves `size`/`k` with a certificate; returns the certificate text.
fn certificate(size: &str, k: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.cert");
    let path_text = path.to_str().unwrap();
    let out = stdout_of(&["solve", "--size", size, "-k", k, "--certificate", path_text]);
    assert!(out.contains("certificate "), "{out}");
    let verified = stdout_of(&["verify", path_text]);
    assert!(verified.contains("valid proof"), "{verified}");
    std::fs::read_to_string(&path).unwrap()
}

#[test]
fn draws_and_wins_are_proven_and_verified() {
    let cert = certificate("3x3", "3");
    assert!(cert.contains("claim draw\n"), "{cert}");
    assert!(cert.contains("strategy o blocks x\n"));
    assert!(cert.contains("strategy x blocks o\n"));
    let checked = check_text(&cert).unwrap();
    assert_eq!(checked.claim, "draw");
    assert!(checked.positions > 10);

    let cert = certificate("4x4", "3");
    assert!(cert.contains("claim x wins\n"), "{cert}");
    assert!(check_text(&cert).is_ok());

    // Past 25 cells: 6x6 k=5 is a draw.
    let cert = certificate("6x6", "5");
    assert!(cert.contains("claim draw\n"));
    assert!(check_text(&cert).is_ok());
}

/// `text` with the line starting with `board ` given the reply `mv`.
fn with_reply(text: &str, board: &str, mv: &str) -> String {
    let mut found = false;
    let out: Vec<String> = text
        .lines()
        .map(|l| {
            if l.split(' ').next() == Some(board) {
                found = true;
                format!("{board} {mv}")
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(found, "no line for {board}");
    out.join("\n") + "\n"
}

/// A 3x3 certificate whose O strategy plays the first empty cell in every
/// position with O to move (a strategy that loses), with X's real strategy.
fn naive_o_strategy() -> String {
    use ttt_core::{Mark, Position, Rules};
    fn walk(pos: &mut Position, out: &mut Vec<String>) {
        if pos.outcome().is_over() {
            return;
        }
        let canon = ttt_core::Symmetry::ALL
            .iter()
            .map(|&s| pos.transformed(s).to_string())
            .min()
            .unwrap();
        if pos.side_to_move() == Mark::O && canon == pos.to_string() {
            let sq = pos.legal_moves().first().unwrap();
            out.push(format!("{pos} {}", pos.rules().number_of(sq)));
        }
        for sq in pos.legal_moves() {
            pos.play(sq).unwrap();
            walk(pos, out);
            pos.undo();
        }
    }
    let mut lines = Vec::new();
    walk(&mut Position::new(Rules::CLASSIC), &mut lines);
    lines.sort();
    lines.dedup();
    let good = certificate("3x3", "3");
    let x_part = &good[good.find("strategy x blocks o").unwrap()..];
    format!(
        "ttt-certificate 1\nrules 3x3 k=3\nclaim draw\nstrategy o blocks x\n{}\nend\n{x_part}",
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
    assert!(check_text(&with_reply(&good, ".../.x./...", "10")).is_err());
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
    // Another board, a bad header, a truncated file, a duplicate position.
    assert!(check_text(&good.replace("rules 3x3 k=3", "rules 4x4 k=3")).is_err());
    assert!(check_text(&good.replace("ttt-certificate 1", "ttt-certificate 2")).is_err());
    assert!(check_text(good.trim_end().trim_end_matches("end")).is_err());
    let dup = good.replacen(
        "strategy o blocks x\n",
        "strategy o blocks x\n.../.x./... 1\n",
        1,
    );
    assert!(check_text(&dup).unwrap_err().contains("twice"));

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
fn verify_reports_errors_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.cert");
    std::fs::write(&path, "ttt-certificate 1\nrules 3x3 k=3\nclaim draw\n").unwrap();
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
