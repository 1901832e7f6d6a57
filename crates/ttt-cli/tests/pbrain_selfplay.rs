//! The brain against itself through the library's sessions, and random input
//! that must never make it panic.
use ttt_cli::common::Limits;
use ttt_cli::pbrain::{Brain, EngineBrain, Flow, Session};
use ttt_core::rng::Rng;
use ttt_core::{Outcome, Position, Square};

/// Sends one line, returns the answer lines (not what the brain says of
/// its search as it thinks: MESSAGE depth ... lines).
fn send<B: Brain>(session: &mut Session<B>, line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let flow = session.handle_line(line, &mut out).unwrap();
    assert_eq!(flow, Flow::Continue);
    String::from_utf8(out)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("MESSAGE depth "))
        .map(str::to_string)
        .collect()
}

fn coords(line: &str) -> (u8, u8) {
    let (x, y) = line.split_once(',').unwrap_or_else(|| panic!("{line:?}"));
    (x.parse().unwrap(), y.parse().unwrap())
}

#[test]
fn two_brains_play_a_whole_game_on_12x12() {
    let mut a = Session::new(EngineBrain::new(1));
    let mut b = Session::new(EngineBrain::new(2));
    for s in [&mut a, &mut b] {
        assert_eq!(send(s, "START 12"), ["OK"]);
        assert!(send(s, "INFO timeout_turn 60").is_empty());
    }
    // A referee position checks every move.
    let mut referee = Position::from_board(&["............"; 12].join("/"), Some(5)).unwrap();
    let mut answer = send(&mut a, "BEGIN");
    let mut movers = [&mut b, &mut a];
    let mut turn = 0;
    loop {
        assert_eq!(answer.len(), 1, "{answer:?}");
        let (x, y) = coords(&answer[0]);
        let sq = Square::new(x, y).unwrap();
        referee.play(sq).expect("a legal move");
        if referee.outcome().is_over() {
            break;
        }
        let next = &mut movers[turn % 2];
        answer = send(next, &format!("TURN {x},{y}"));
        turn += 1;
    }
    // Both sessions agree with the referee (each played its own moves too).
    for s in [&a, &b] {
        let pos = s.position().unwrap();
        let stones = pos.mark_count();
        assert!(stones + 1 >= referee.mark_count(), "{pos} vs {referee}");
    }
    match referee.outcome() {
        Outcome::Win(_) => assert!(referee.winning_line().is_some_and(|l| l.len >= 5)),
        Outcome::Draw => {}
        Outcome::InProgress => unreachable!(),
    }
}

/// A stand-in brain: the first legal move.
struct FirstMove;

impl Brain for FirstMove {
    fn think(
        &mut self,
        pos: &Position,
        _: Limits,
        _: u64,
        _: &dyn Fn() -> bool,
        _: &dyn Fn(&ttt_core::ai::strong::Iteration, std::time::Duration),
    ) -> Option<Square> {
        pos.legal_moves().first()
    }
}

#[test]
fn random_input_never_panics_and_each_line_gets_at_most_one_answer() {
    let words = [
        "START",
        "RECTSTART",
        "RESTART",
        "BEGIN",
        "TURN",
        "BOARD",
        "DONE",
        "TAKEBACK",
        "INFO",
        "ABOUT",
        "PLAY",
        "",
        "turn",
        "start",
    ];
    let args = [
        "",
        "0",
        "1",
        "5",
        "15",
        "16",
        "17",
        "99",
        "-1",
        "3,3",
        "0,0",
        "15,15",
        "16,0",
        "a,b",
        "1,2,1",
        "1,2,2",
        "1,2,3",
        "1,2,9",
        ",",
        ",,",
        "4294967296,1",
        "timeout_turn 5",
        "max_memory 0",
        "time_left x",
        "\u{0}",
        "\u{ff}\u{fe}",
        "\t\t",
    ];
    let mut rng = Rng::new(99);
    for _ in 0..200 {
        let mut session = Session::new(FirstMove);
        for _ in 0..100 {
            let word = words[rng.below(words.len() as u32) as usize];
            let arg = args[rng.below(args.len() as u32) as usize];
            let line = if rng.chance(1, 4) {
                arg.to_string()
            } else {
                format!("{word} {arg}")
            };
            let mut out = Vec::new();
            let flow = session.handle_line(&line, &mut out).unwrap();
            assert_eq!(flow, Flow::Continue);
            let text = String::from_utf8(out).unwrap();
            assert!(text.lines().count() <= 1, "{line:?} -> {text:?}");
            if let Some(pos) = session.position() {
                // The session's position is always one a game can reach.
                assert!(Position::from_board(&pos.to_string(), Some(pos.rules().k())).is_ok());
            }
        }
    }
}
