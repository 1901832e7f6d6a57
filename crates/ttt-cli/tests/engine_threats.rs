//! `ttt threats` through the real binary.
mod common;

use common::{stdout_of, ttt};
use predicates::prelude::*;

#[test]
fn an_open_three_and_its_answers() {
    // X: h8 i8 j8, an open three on row 8; O: h9 i9, two on row 9.
    assert_eq!(
        stdout_of(&["threats", "--moves", "h8 h9 i8 i9 j8"]),
        "15x15 k=5, O to move\n\
         X  open four: g8 k8\n   \
            four: f8 l8\n\
         O  open three: f9 g9 j9 k9\n\
         O must answer (X threatens an open four): g8 k8\n"
    );
}

#[test]
fn answers_to_the_strongest_threat() {
    // X: g8 h8 i8 j8, f8 blocked by O: only k8 stops the five.
    let out = stdout_of(&["threats", "--moves", "g8 f8 h8 a1 i8 a3 j8"]);
    assert!(
        out.ends_with("O must answer (X threatens five): k8\n"),
        "{out}"
    );
    // Both sides have an open three and O moves first: its own open four
    // wins the race, so no answer is listed.
    let out = stdout_of(&["threats", "--moves", "h8 h9 i8 i9 j8 j9 a1"]);
    assert!(out.contains("O  open four: g9 k9\n"), "{out}");
    assert!(!out.contains("must answer"), "{out}");
    // Two separate open threes of X: no single stone stops both.
    let out = stdout_of(&[
        "threats",
        "--moves",
        "g8 a1 h8 o1 i8 a15 g12 o15 h12 h1 i12",
    ]);
    assert!(
        out.ends_with("O must answer (X threatens an open four): none (lost unless a four of its own comes first)\n"),
        "{out}"
    );
    // JSON: the threat and the cells.
    let out = stdout_of(&["threats", "--json", "--moves", "g8 a1 h8 a3 i8"]);
    let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        json["answers"],
        serde_json::json!({"against": "open four", "cells": ["f8", "j8"]})
    );
    let quiet = stdout_of(&["threats", "--json", "--moves", "h8 i9"]);
    let json: serde_json::Value = serde_json::from_str(quiet.trim()).unwrap();
    assert!(json["answers"].is_null(), "{json}");
}

#[test]
fn quiet_boards_say_so_and_all_lists_every_class() {
    let out = stdout_of(&["threats", "--moves", "h8 i9 g7 j10"]);
    assert_eq!(
        out,
        "15x15 k=5, X to move\nX  nothing forcing\nO  nothing forcing\n"
    );
    let all = stdout_of(&["threats", "--moves", "h8 h9 i8", "--all"]);
    assert!(all.contains("X  open three: f8 g8 j8 k8\n"), "{all}");
    assert!(all.contains("   double two: i7 i9\n"), "{all}");
    assert!(all.lines().any(|l| l.starts_with("O  open two:")), "{all}");
}

#[test]
fn overlines_count_only_where_they_win() {
    // X: h8 i8 j8 k8 and m8; l8 fills six in a row.
    let moves = "h8 a1 i8 a3 j8 a5 k8 a7 m8 o15";
    let free = stdout_of(&["threats", "--moves", moves]);
    assert!(free.contains("X  five: g8 l8\n"), "{free}");
    let exact = stdout_of(&["threats", "--exact-k", "--moves", moves]);
    assert!(
        exact.starts_with("15x15 k=5 exact, X to move\nX  five: g8\n"),
        "{exact}"
    );
}

#[test]
fn renju_lists_black_forbidden_cells_apart() {
    // j8 makes two open threes for X (g8 h8 . j8 and j6 j7 j8): forbidden.
    let moves = "g8 a1 h8 a3 j6 a5 j7";
    let renju = stdout_of(&["threats", "--renju", "--moves", moves]);
    assert!(renju.contains("   forbidden: j8\n"), "{renju}");
    assert!(!renju.contains("double three"), "{renju}");
    let free = stdout_of(&["threats", "--moves", moves]);
    assert!(free.contains("X  double three: j8\n"), "{free}");
    assert!(!free.contains("forbidden"), "{free}");
}

#[test]
fn boards_as_text_and_json() {
    // Column c of a 10x10 board: X c1 c2 c3 against the edge, O a9 b10
    // (k=5 by default). c4 and c5 each make a four; no open three, the
    // edge blocks it.
    let board = "..x......./..x......./..x......./........../........../\
                 ........../........../........../o........./.o........";
    let out = stdout_of(&["threats", "--json", board]);
    let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(json["rules"], "10x10 k=5");
    assert_eq!(json["to_move"], "O");
    assert_eq!(json["x"]["four"], serde_json::json!(["c4", "c5"]));
    assert_eq!(json["x"].as_object().unwrap().len(), 1);
    assert_eq!(json["o"], serde_json::json!({}));
    // Numbers on request.
    let out = stdout_of(&["threats", "--format", "number", board]);
    assert!(out.contains("X  four: 33 43\n"), "{out}");
}

/// The examples of `--help` work as their comments say.
#[test]
fn help_examples_hold() {
    let help = stdout_of(&["threats", "--help"]);
    assert!(
        help.contains("ttt threats --moves \"h8 h9 i8 i9 j8\""),
        "{help}"
    );
    let out = stdout_of(&["threats", "--moves", "h8 h9 i8 i9 j8"]);
    assert!(out.contains("X  open four: g8 k8\n"), "{out}");
    let board = "..x.../..x.../..x.../....../o...../o.....";
    assert!(help.contains(board), "{help}");
    let out = stdout_of(&["threats", "-k", "5", board]);
    assert_eq!(
        out,
        "6x6 k=5, O to move\nX  four: c4 c5\nO  nothing forcing\n"
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    for (args, message) in [
        (
            &["threats", "--moves", "h8 zz"][..],
            "\"zz\" is not a square",
        ),
        (&["threats", "--moves", "h8 h8"], "h8 cannot be played"),
        (&["threats", "x.o/.x./..."], "needs a side of 5 or more"),
        (&["threats", "x......../........./........./........./........./........./........./........./........."], "-k 5 plays five in a row"),
        (
            &["threats", "--size", "3", "--moves", "b2"],
            "defined for five in a row",
        ),
        (
            &["threats", "--size", "21", "--moves", "b2"],
            "not possible",
        ),
        (
            &["threats", "--size", "15y", "--moves", "b2"],
            "expected a board size like",
        ),
        (&["threats", "xxxxx/...../ooooo"], "board"),
    ] {
        ttt()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message));
    }
    // Renju only with --moves; no board at all.
    ttt().args(["threats", "--renju", "x"]).assert().code(2);
    ttt().args(["threats"]).assert().code(2);
}
