//! BOARD ... DONE: a position sent stone by stone, checked as a whole at
//! DONE.
use super::*;

/// Stones read so far between BOARD and DONE.
#[derive(Default)]
pub(super) struct BoardInput {
    own: SquareSet,
    opponent: SquareSet,
    /// Own and opponent's stones in the order given (the last one is the
    /// move TAKEBACK may undo).
    order: Vec<Square>,
    /// Field 3: cells of a line already won in a continuous game (or
    /// forbidden by renju rules), in the order given; nobody plays there.
    walls: Vec<Square>,
    taken: SquareSet,
    /// The first problem found (reported at DONE).
    problem: Option<String>,
    lines: u32,
}

impl BoardInput {
    /// Input to read to its DONE and refuse there with `problem`.
    pub(super) fn refused(problem: &str) -> BoardInput {
        BoardInput {
            problem: Some(problem.to_string()),
            ..BoardInput::default()
        }
    }
}

impl<B: Brain> Session<B> {
    pub(super) fn board_line(
        &mut self,
        line: &str,
        received: Instant,
        out: &mut dyn Write,
    ) -> io::Result<Flow> {
        let Some(board) = self.board.as_mut() else {
            return Ok(Flow::Continue);
        };
        board.lines += 1;
        let n = board.lines;
        match parse_board_line(line) {
            BoardLine::Blank => {}
            BoardLine::End => return Ok(Flow::Exit),
            BoardLine::Bad(text) => {
                board.problem.get_or_insert_with(|| {
                    format!(
                        "BOARD line {n}: expected x,y,field or DONE, got {}",
                        printable(&text)
                    )
                });
            }
            BoardLine::Stone(x, y, field) => {
                if board.problem.is_some() {
                    return Ok(Flow::Continue);
                }
                let Some(rules) = self.pos.as_ref().map(|p| *p.rules()) else {
                    return Ok(Flow::Continue);
                };
                let problem = match square_on(&rules, x, y) {
                    Err(e) => Some(format!("BOARD line {n}: {e}")),
                    Ok(sq) if board.taken.contains(sq) => {
                        Some(format!("BOARD line {n}: {x},{y} is given twice"))
                    }
                    Ok(_) if !(1..=3).contains(&field) => Some(format!(
                        "BOARD line {n}: field {field} is not 1 (own), 2 (opponent's) \
                         or 3 (a won line of a continuous game)"
                    )),
                    Ok(sq) => {
                        board.taken.insert(sq);
                        match field {
                            1 => board.own.insert(sq),
                            2 => board.opponent.insert(sq),
                            _ => board.walls.push(sq),
                        }
                        if field != 3 {
                            board.order.push(sq);
                        }
                        None
                    }
                };
                board.problem = problem;
            }
            BoardLine::Done => {
                let board = self.board.take().unwrap_or_default();
                self.finish_board(board, received, out)?;
            }
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    fn finish_board(
        &mut self,
        mut board: BoardInput,
        received: Instant,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if let Some(problem) = board.problem {
            return writeln!(out, "ERROR {problem}");
        }
        let Some(rules) = self.pos.as_ref().map(|p| *p.rules()) else {
            return writeln!(out, "ERROR no game: send START first");
        };
        let (own, opp, walls) = (
            board.own.len() as i64,
            board.opponent.len() as i64,
            board.walls.len() as i64,
        );
        // We are to move: first (X) when the counts are equal, else second
        // (O) with one stone fewer. The position has no cell nobody owns, so
        // field-3 cells become stones, `ours` of them ours, the rest the
        // opponent's, alternately in the order given (a won line is then
        // dead for both sides): they are never played, but the evaluation
        // sees them as stones.
        let twice_ours = opp - own + walls;
        let we_are_x = twice_ours.rem_euclid(2) == 0;
        let ours = if we_are_x {
            twice_ours / 2
        } else {
            (twice_ours - 1) / 2
        };
        if !(0..=walls).contains(&ours) {
            let walls_note = if walls > 0 {
                format!(" and {walls} field-3 cells")
            } else {
                String::new()
            };
            return writeln!(
                out,
                "ERROR BOARD: {own} own and {opp} opponent's stones{walls_note} cannot be a \
                 position with us to move (moves alternate)"
            );
        }
        let (mut ours_left, mut theirs_left) = (ours, walls - ours);
        for (i, &sq) in board.walls.iter().enumerate() {
            if (i % 2 == 0 && ours_left > 0) || theirs_left == 0 {
                board.own.insert(sq);
                ours_left -= 1;
            } else {
                board.opponent.insert(sq);
                theirs_left -= 1;
            }
        }
        let (x, o) = if we_are_x {
            (board.own, board.opponent)
        } else {
            (board.opponent, board.own)
        };
        match Position::from_marks(rules, x, o) {
            Ok(pos) => {
                self.pos = Some(pos);
                self.moves = board.order;
                self.answer(received, out)
            }
            Err(e) => writeln!(out, "ERROR BOARD: {e}"),
        }
    }
}
