//! The model of a series of games (`ttt_core::series`): seats, who opens,
//! the coin, results, take-backs and the score.
use ttt_core::ai::PlayerKind;
use ttt_core::series::{
    Coin, First, GameResult, Lineup, ParseFirstError, ParseScoreError, Players, Score, Seat,
    Series, Side,
};
use ttt_core::{Mark, Outcome, Position, Rules, Square};

fn played(moves: &[&str]) -> Position {
    let mut pos = Position::new(Rules::CLASSIC);
    for text in moves {
        let square: Square = pos.rules().parse_square(text).unwrap();
        pos.play(square).unwrap();
    }
    pos
}

#[test]
fn seats_follow_the_players_and_the_opener() {
    let vs = Players::HumanVsComputer(PlayerKind::Hard);
    assert_eq!(vs.seat(Side::One), Seat::Human);
    assert_eq!(vs.seat(Side::Two), Seat::Computer(PlayerKind::Hard));
    let lineup = Lineup::new(vs, Side::Two);
    assert_eq!(lineup.seat(Mark::X), Seat::Computer(PlayerKind::Hard));
    assert_eq!(lineup.seat(Mark::O), Seat::Human);
    assert_eq!(lineup.side(Mark::O), Side::One);
    assert_eq!(lineup.mark(Side::Two), Mark::X);
    assert_eq!(lineup.human_mark(), Some(Mark::O));

    let cvc = Players::ComputerVsComputer(PlayerKind::Classic, PlayerKind::Perfect);
    let lineup = Lineup::new(cvc, Side::One);
    assert_eq!(lineup.seat(Mark::X), Seat::Computer(PlayerKind::Classic));
    assert_eq!(lineup.seat(Mark::O), Seat::Computer(PlayerKind::Perfect));
    assert_eq!(lineup.human_mark(), None);
    assert_eq!(
        Lineup::new(Players::TwoHumans, Side::One).human_mark(),
        None
    );
    assert!(Players::TwoHumans.seat(Side::Two).is_human());
    assert!(!vs.seat(Side::Two).is_human());
}

#[test]
fn computers_lists_the_computer_players_side_one_first() {
    let kinds = |players: Players| {
        let mut out = [None; 3];
        for (slot, kind) in out.iter_mut().zip(players.computers()) {
            *slot = Some(kind);
        }
        out
    };
    assert_eq!(kinds(Players::TwoHumans), [None; 3]);
    assert_eq!(
        kinds(Players::HumanVsComputer(PlayerKind::Squid)),
        [Some(PlayerKind::Squid), None, None]
    );
    assert_eq!(
        kinds(Players::ComputerVsComputer(
            PlayerKind::Easy,
            PlayerKind::Strong
        )),
        [Some(PlayerKind::Easy), Some(PlayerKind::Strong), None]
    );
}

#[test]
fn sides_count_from_one_and_swap() {
    assert_eq!(Side::One.number(), 1);
    assert_eq!(Side::Two.number(), 2);
    assert_eq!(Side::One.index(), 0);
    assert_eq!(Side::Two.other(), Side::One);
    assert_eq!(Side::One.other(), Side::Two);
}

#[test]
fn fixed_and_alternate_openers() {
    let mut coin = Coin::new(1);
    let untouched = coin.clone();
    for games in [0, 1, 2, 7, u32::MAX] {
        assert_eq!(First::You.opener(games, &mut coin), Side::One);
        assert_eq!(First::Computer.opener(games, &mut coin), Side::Two);
    }
    let alternate: [Side; 5] =
        core::array::from_fn(|g| First::Alternate.opener(g as u32, &mut coin));
    assert_eq!(
        alternate,
        [Side::One, Side::Two, Side::One, Side::Two, Side::One]
    );
    assert_eq!(coin, untouched, "only Random tosses the coin");
}

#[test]
fn the_coin_is_fixed_by_its_seed() {
    // Pinned: `ttt --first random --seed S` opens its games with these
    // tosses, and the console game with game seed S its one game; a change
    // would open the games people replay differently.
    let tosses = |seed: u64| -> [Side; 6] {
        let mut coin = Coin::new(seed);
        core::array::from_fn(|_| coin.toss())
    };
    use Side::{One, Two};
    assert_eq!(tosses(0), [Two, Two, Two, Two, One, Two]);
    assert_eq!(tosses(11), [One, One, Two, One, Two, Two]);
    assert_eq!(tosses(u64::MAX), [Two, One, Two, One, One, One]);
    assert_eq!(tosses(11), tosses(11), "same seed, same tosses");
    let mut coin = Coin::new(3);
    let firsts = First::Random.opener(0, &mut coin);
    assert_eq!(firsts, Coin::new(3).toss());
    // Fair enough: the first toss of 10,000 seeds.
    let ones = (0..10_000u64)
        .filter(|&s| Coin::new(s).toss() == Side::One)
        .count();
    assert!((4_800..=5_200).contains(&ones), "{ones}");
}

#[test]
fn first_has_names_both_ways() {
    for first in First::ALL {
        assert_eq!(first.to_string().parse(), Ok(first));
    }
    assert_eq!(" Alternate ".parse(), Ok(First::Alternate));
    assert_eq!("coin".parse::<First>(), Err(ParseFirstError));
    assert_eq!("".parse::<First>(), Err(ParseFirstError));
    assert_eq!(
        ParseFirstError.to_string(),
        "expected who goes first: you, computer, random or alternate"
    );
    assert_eq!(First::default(), First::You);
    // The console game saves a rule as its place in ALL, its menu's order.
    for (place, first) in First::ALL.into_iter().enumerate() {
        assert_eq!(first as usize, place);
    }
}

#[test]
fn results_are_seen_from_the_sides() {
    let lineup = Lineup::new(Players::TwoHumans, Side::Two);
    assert_eq!(
        lineup.result(Outcome::Win(Mark::X)),
        Some(GameResult::Win(Side::Two))
    );
    assert_eq!(
        lineup.result(Outcome::Win(Mark::O)),
        Some(GameResult::Win(Side::One))
    );
    assert_eq!(lineup.result(Outcome::Draw), Some(GameResult::Draw));
    assert_eq!(lineup.result(Outcome::InProgress), None);
    assert_eq!(GameResult::Win(Side::Two).winner(), Some(Side::Two));
    assert_eq!(GameResult::Draw.winner(), None);
}

#[test]
fn scores_count_write_and_read() {
    let mut score = Score::ZERO;
    score.add(GameResult::Win(Side::One));
    score.add(GameResult::Win(Side::One));
    score.add(GameResult::Draw);
    score.add(GameResult::Win(Side::Two));
    assert_eq!(
        score,
        Score {
            wins: 2,
            losses: 1,
            draws: 1
        }
    );
    assert_eq!(score.total(), 4);
    assert_eq!(score.to_string(), "2-1-1");
    assert_eq!("2-1-1".parse(), Ok(score));
    assert_eq!(
        " 0-0-4294967295 ".parse::<Score>().map(|s| s.draws),
        Ok(u32::MAX)
    );
    for bad in [
        "",
        "1-2",
        "1-2-3-4",
        "1--2",
        "-1-2-3",
        "1-+2-3",
        "1-2-4294967296",
        "a-b-c",
        "1 -2-3",
    ] {
        assert_eq!(bad.parse::<Score>(), Err(ParseScoreError), "{bad:?}");
    }
    let mut full = Score {
        wins: u32::MAX,
        losses: 0,
        draws: u32::MAX,
    };
    full.add(GameResult::Win(Side::One));
    assert_eq!(full.wins, u32::MAX, "counts stop at the top");
    assert_eq!(full.total(), u32::MAX);
}

#[test]
fn take_back_against_the_computer_returns_to_your_turn() {
    let vs = Players::HumanVsComputer(PlayerKind::Classic);
    // You are X: your move and the reply go.
    let you_x = Lineup::new(vs, Side::One);
    let mut pos = played(&["5", "1", "9"]);
    assert_eq!(you_x.take_back(&mut pos), 1, "your last move, no reply yet");
    assert_eq!(pos.history().len(), 2);
    assert_eq!(you_x.take_back(&mut pos), 2);
    assert_eq!(pos.history().len(), 0);
    assert_eq!(you_x.take_back(&mut pos), 0, "nothing of yours");
    // You are O: the computer's opening stays.
    let you_o = Lineup::new(vs, Side::Two);
    let mut pos = played(&["5"]);
    assert_eq!(you_o.take_back(&mut pos), 0);
    assert_eq!(pos.history().len(), 1);
    let mut pos = played(&["5", "1", "9"]);
    assert_eq!(you_o.take_back(&mut pos), 2);
    assert_eq!(pos.to_string(), ".../.x./...");
}

#[test]
fn take_back_between_people_is_one_move_and_computers_none() {
    let two = Lineup::new(Players::TwoHumans, Side::One);
    let mut pos = played(&["5", "1"]);
    assert_eq!(two.take_back(&mut pos), 1);
    assert_eq!(two.take_back(&mut pos), 1);
    assert_eq!(two.take_back(&mut pos), 0);
    let cvc = Lineup::new(
        Players::ComputerVsComputer(PlayerKind::Easy, PlayerKind::Easy),
        Side::One,
    );
    let mut pos = played(&["5", "1"]);
    assert_eq!(cvc.take_back(&mut pos), 0);
    assert_eq!(pos.history().len(), 2);
}

#[test]
fn a_series_counts_games_once_and_keeps_the_score() {
    let mut series = Series::new(Players::TwoHumans, First::Alternate);
    let mut coin = Coin::new(0);
    assert!(!series.in_game());
    assert_eq!(series.lineup().opener(), Side::One);
    // Game 1: side one is X and wins.
    let lineup = series.start_game(series.next_opener(&mut coin));
    assert_eq!(lineup.opener(), Side::One);
    assert_eq!(series.games_started(), 1);
    assert!(series.in_game());
    assert_eq!(series.finish_game(Outcome::InProgress), None);
    assert!(series.in_game());
    let x_wins = Outcome::Win(Mark::X);
    assert_eq!(series.finish_game(x_wins), Some(GameResult::Win(Side::One)));
    assert_eq!(series.finish_game(x_wins), None, "counted once");
    // Game 2: side two is X and X wins again: side one lost.
    let lineup = series.start_game(series.next_opener(&mut coin));
    assert_eq!(lineup.opener(), Side::Two);
    assert_eq!(series.finish_game(x_wins), Some(GameResult::Win(Side::Two)));
    // Game 3, abandoned; game 4 drawn.
    series.start_game(series.next_opener(&mut coin));
    assert_eq!(series.lineup().opener(), Side::One);
    series.start_game(series.next_opener(&mut coin));
    assert_eq!(series.finish_game(Outcome::Draw), Some(GameResult::Draw));
    assert_eq!(series.score().to_string(), "1-1-1");
    assert_eq!(series.games_started(), 4);
}

#[test]
fn settings_change_between_games_and_the_score_carries_on() {
    let mut series = Series::new(Players::HumanVsComputer(PlayerKind::Easy), First::You);
    let mut coin = Coin::new(0);
    series.start_game(series.next_opener(&mut coin));
    series.finish_game(Outcome::Win(Mark::O));
    series.set_players(Players::HumanVsComputer(PlayerKind::Hard));
    series.set_first(First::Random);
    assert_eq!(series.first(), First::Random);
    // Seed 0's first toss is side two: the computer opens.
    let lineup = series.start_game(series.next_opener(&mut coin));
    assert_eq!(lineup.seat(Mark::X), Seat::Computer(PlayerKind::Hard));
    assert_eq!(series.players(), Players::HumanVsComputer(PlayerKind::Hard));
    series.finish_game(Outcome::Win(Mark::X));
    assert_eq!(
        series.score(),
        Score {
            wins: 0,
            losses: 2,
            draws: 0
        }
    );
}
