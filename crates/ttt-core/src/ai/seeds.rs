//! The rule-based players of the seeds: `classic` (CS102), `standard` and
//! `god` (the Major Project), and `random`. See the [module docs](super) for
//! their rules and tie-breaks; `squid` lives in [`super::squid`].
use crate::rng::Rng;
use crate::{Mark, Position, Rules, Square};

/// The first empty cell (row-major) where `mark` would complete k in a row.
pub fn first_completing(pos: &Position, mark: Mark) -> Option<Square> {
    pos.legal_moves()
        .into_iter()
        .find(|&sq| pos.completes_line(sq, mark))
}

/// The last empty cell (row-major, i.e. the highest-numbered) where `mark`
/// would complete k in a row: CS102's `find_win`, which keeps the last hit.
pub fn last_completing(pos: &Position, mark: Mark) -> Option<Square> {
    pos.legal_moves()
        .into_iter()
        .filter(|&sq| pos.completes_line(sq, mark))
        .last()
}

/// The centre cell(s) in row-major order: one on an odd side, two on an even
/// one (so 1, 2 or 4 cells).
pub fn centre_cells(rules: &Rules) -> impl Iterator<Item = Square> + Clone {
    let best = rules
        .squares()
        .map(|sq| rules.distance_from_centre(sq))
        .min()
        .unwrap_or(0);
    let r = *rules;
    rules
        .squares()
        .filter(move |&sq| r.distance_from_centre(sq) == best)
}

/// The four corners: top-left, top-right, bottom-left, bottom-right (the
/// seeds' 1, 3, 7, 9). On boards one cell wide some coincide.
pub fn corners(rules: &Rules) -> [Square; 4] {
    let (w, h) = (rules.columns() - 1, rules.rows() - 1);
    let sq = |c, r| Square::new(c, r).unwrap_or(Square::from_index(0));
    [sq(0, 0), sq(w, 0), sq(0, h), sq(w, h)]
}

fn first_empty_of(pos: &Position, cells: impl IntoIterator<Item = Square>) -> Option<Square> {
    cells.into_iter().find(|&sq| pos.is_legal(sq))
}

/// `classic`: win (last found), block (last found), centre, corner 1, 3, 7,
/// 9, then the first free cell (on 3x3: the sides 2, 4, 6, 8).
pub fn classic(pos: &Position) -> Option<Square> {
    let me = pos.side_to_move();
    let rules = pos.rules();
    last_completing(pos, me)
        .or_else(|| last_completing(pos, me.other()))
        .or_else(|| first_empty_of(pos, centre_cells(rules)))
        .or_else(|| first_empty_of(pos, corners(rules)))
        .or_else(|| pos.legal_moves().first())
}

/// `standard`: win (first found), block (first found), corners (1,1),
/// (1,3), (3,1), (3,3), then the first free cell.
pub fn standard(pos: &Position) -> Option<Square> {
    let me = pos.side_to_move();
    first_completing(pos, me)
        .or_else(|| first_completing(pos, me.other()))
        .or_else(|| first_empty_of(pos, corners(pos.rules())))
        .or_else(|| pos.legal_moves().first())
}

/// `god`: as [`standard`], with the centre taken after win and block.
pub fn god(pos: &Position) -> Option<Square> {
    let me = pos.side_to_move();
    let rules = pos.rules();
    first_completing(pos, me)
        .or_else(|| first_completing(pos, me.other()))
        .or_else(|| first_empty_of(pos, centre_cells(rules)))
        .or_else(|| first_empty_of(pos, corners(rules)))
        .or_else(|| pos.legal_moves().first())
}

/// `random`: the `rng.below(n)`-th legal move in row-major order.
pub fn random(pos: &Position, rng: &mut Rng) -> Option<Square> {
    let moves = pos.legal_moves();
    let n = moves.len() as u32;
    if n == 0 {
        return None;
    }
    moves.into_iter().nth(rng.below(n) as usize)
}
