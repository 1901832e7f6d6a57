//! Which moves are searched, in what order.
//!
//! Candidates are the empty cells within two steps of a mark (all cells on
//! an empty board, nearest the centre first), ordered by their key: how
//! much a mark there gains for the side to move, doubled, plus how much it
//! would gain for the opponent (kept per cell by the board, so ordering
//! reads one number per cell). Where the shape terms are kept (five in a
//! row on boards larger than 9x9, not renju) the key adds a weight for the
//! threat class the cell makes for each side ([`MOVER_CLASS`],
//! [`WAITER_CLASS`]). Inside the tree only the best [`BEAM`] are
//! searched, the table's move first, then the two killers of the ply
//! (quiet moves that caused a cut-off at a sibling). At the root the seed
//! perturbs equal keys, so equal moves differ between seeds (same seed,
//! same move). Against an open three only its blocks and our fours are
//! candidates (`exact_replies` in `shapes.rs` for five in a row, else
//! `threat_replies`); where shapes are kept, against a four-three cell
//! only the cells that defuse it and our fours (`four_three_replies`).
//!
//! Where the pattern board is the only board (five or more in a row on
//! boards larger than 9x9, not renju; see `board.rs`) the windows are not
//! kept, and the key is a weight of the multiset of the cell's four line
//! patterns for the side to move plus one of the multiset for the other
//! side ([`ORDER_MOVER`], [`ORDER_WAITER`]): two table reads a cell.
use super::shape_eval::by_code;
use super::threats::cells_of;
use super::Engine;
use crate::ai::tt::NO_MOVE;
use crate::pattern::{CellWeights, PatternBoard};
use crate::{Square, MAX_SIDE};

/// Candidate moves searched at a node inside the tree, at most.
pub(super) const BEAM: usize = 12;

/// Ordering weight of the threat class (index: the class as `u8`) a cell
/// makes for the side to move, and ([`WAITER_CLASS`]) for the opponent,
/// in units of the window key. Fitted (conditional logit) to which cell
/// Rapfi 0.43 played in 20,000 positions of its games against `strong`;
/// on 15,000 other positions Rapfi's move is first in the order 51% of
/// the time instead of 27%, and among the [`BEAM`] searched 93% instead
/// of 87%. Fours come later than their window key says: a four only
/// forces a block (the search tries them past the horizon anyway), and
/// quiet shapes (a double two, an open three with more) are what Rapfi
/// plays.
const MOVER_CLASS: [i32; 13] = [
    0, 1286, 436, 3056, 2515, 1790, 3880, 4856, -4406, -2399, 1422, -3602, -10,
];
/// Ordering weight of the class a cell makes for the opponent (taking a
/// cell it wants).
const WAITER_CLASS: [i32; 13] = [
    0, 270, 67, 191, 502, 1931, 2489, 2349, -2273, -917, 1432, -2802, 12215,
];

/// Order weight (thousandths of a logit) of a cell by the multiset of its
/// four line patterns for the side to move (index as [`by_code`]'s; the
/// all-dead multiset at 0, multisets never seen too), where the pattern
/// board is the only board; [`ORDER_WAITER`] by the multiset for the other
/// side. Fitted by `examples/fit_order.rs` (conditional logit) to the
/// moves Rapfi 0.43 (classical, 100 ms a move) played in 28,243 positions:
/// 506 games against itself and 300 against `strong` (450f46a), random
/// 2-4 stone openings. On the fifth of them held out, Rapfi's move is
/// first 45.6% of the time and among the [`BEAM`] searched 90.4%; in the
/// engine's own test below, first 178 times of 353 and among the beam 321
/// times (the window key with the class weights: 175 and 321 of 351).
const ORDER_MOVER: [i16; 715] = [
    0, 197, 104, 213, 1301, 1222, 2244, 3577, 7212, 10211, 370, 54, 727, 1179, 1384, 1933, 2898,
    6527, 10424, 241, 404, 1003, 1286, 2361, 2949, 7124, 11061, 959, 1176, 1415, 2363, 3038, 7633,
    10666, 1861, 2169, 3258, 4133, 8161, 9269, 2361, 3624, 4052, 7648, 8905, 4712, 7512, 6192,
    7058, 7360, 6916, 0, 0, 0, 0, 503, 69, 820, 1199, 904, 1718, 2507, 6834, 9582, 109, 474, 952,
    1401, 2236, 3022, 7731, 10663, 940, 1430, 1500, 2183, 3230, 7792, 11516, 1729, 2048, 3320,
    3968, 7741, 9915, 2098, 3528, 4361, 7268, 9671, 4704, 7499, 7188, 8190, 7055, 6984, 6426, 0, 0,
    0, -335, 305, 889, 1627, 2581, 3509, 7629, 11544, 576, 1354, 1632, 2824, 3182, 7667, 10242,
    2091, 2331, 3754, 4532, 9191, 10264, 2828, 4013, 4646, 8292, 9570, 5559, 7729, 6502, 6642,
    8845, 0, 4977, 4975, 0, 0, 1226, 1393, 1647, 2572, 3254, 8107, 9502, 1955, 2693, 3944, 4158,
    8699, 8903, 3035, 3676, 4484, 8531, 9728, 6130, 7594, 7762, 0, 7916, 4957, 7188, 0, 0, 0, 2941,
    3221, 4636, 4926, 6967, 8898, 3367, 4464, 5411, 7841, 7590, 6565, 6893, 6517, 0, 4931, 4977, 0,
    0, 0, 0, 3752, 3979, 4993, 6873, 0, 6270, 5721, 7718, 6807, 0, 0, 0, 0, 0, 0, 4473, 7152, 0, 0,
    6616, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2060, 519, 1005, 1387, 1292, 2186, 1591,
    6528, 6373, 479, 761, 1315, 1412, 2483, 2889, 7256, 10516, 1090, 1488, 1676, 2654, 2948, 7766,
    9097, 2007, 2304, 3290, 3904, 7031, 8650, 2541, 3272, 4127, 6775, 6895, 4679, 7106, 6250, 6913,
    5820, 0, 0, 4645, 0, 0, 422, 487, 1193, 1735, 2934, 3517, 7804, 11617, 694, 1338, 1513, 2868,
    3501, 7688, 11079, 2341, 2602, 3878, 4536, 7913, 9083, 2780, 3844, 5182, 7454, 8937, 5521,
    7979, 8130, 9377, 5003, 4976, 0, 0, 0, 0, 1016, 1449, 1395, 2496, 3541, 7622, 9139, 2309, 2586,
    4014, 4788, 7826, 8406, 2536, 3345, 4846, 6980, 8999, 5626, 7927, 4904, 6322, 7698, 0, 0, 0, 0,
    0, 3167, 3411, 4571, 5592, 7869, 7932, 1972, 4758, 5042, 8690, 8288, 5750, 7795, 6430, 0, 4972,
    0, 0, 0, 0, 0, 3731, 3228, 6987, 7490, 0, 5667, 7244, 7816, 5157, 6251, 0, 0, 0, 0, 0, 5931,
    4957, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1249, -917, 512, 1007, 3181, 4006,
    7339, 11892, 21, 515, 1416, 3305, 4503, 8440, 11116, 2234, 2813, 4395, 5457, 7830, 10036, 3299,
    4237, 5837, 7228, 9569, 5742, 9013, 7519, 8246, 6564, 4977, 7101, 0, 0, 0, 1045, 977, 1950,
    3839, 3963, 7269, 8986, 2277, 2952, 4466, 5139, 8413, 9365, 3176, 4342, 5079, 8387, 8474, 6120,
    8113, 4968, 6475, 4939, 4975, 0, 0, 0, 0, 3179, 3770, 5285, 5962, 7803, 9786, 4305, 5337, 6293,
    7694, 6122, 6313, 9006, 6594, 8271, 4927, 4917, 0, 0, 0, 0, 3360, 5402, 6148, 4976, 0, 5933,
    7712, 4977, 0, 4972, 4971, 0, 0, 0, 0, 4910, 4971, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 2549, 1796, 2078, 3322, 2231, 7544, 8299, 2097, 2932, 4507, 5012, 8895, 0, 2722, 4425,
    4941, 8332, 0, 6598, 7991, 6625, 0, 4977, 4967, 0, 0, 0, 0, 3161, 3718, 5434, 6969, 9010, 8893,
    3476, 5738, 6541, 7582, 7084, 6447, 7727, 4951, 0, 0, 4977, 0, 0, 0, 0, 4252, 4173, 4533, 7068,
    6954, 6296, 7857, 4958, 8171, 4974, 0, 0, 0, 0, 0, 4973, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 3301, 4153, 4795, 5158, 7706, 0, 3842, 5697, 7134, 0, 7152, 6649, 7737, 0,
    6793, 0, 0, 0, 0, 0, 0, 5303, 4988, 4789, 4901, 0, 5404, 6376, 0, 0, 4945, 0, 0, 0, 0, 0, 4955,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4845, 4720, 4930, 0, 0, 6047, 4976, 0,
    0, 4952, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];
/// See [`ORDER_MOVER`]: the weight by the other side's multiset (taking
/// a cell it wants).
const ORDER_WAITER: [i16; 715] = [
    0, -5, 288, 149, 858, 983, 2611, 2535, 6241, 11826, 460, 303, 910, 1349, 1330, 2359, 2848,
    6277, 11169, 433, 437, 956, 1358, 2666, 3035, 6462, 12084, 780, 1203, 1325, 2567, 2908, 6174,
    12958, 1352, 1755, 3023, 3507, 6659, 12134, 1714, 2972, 3758, 6550, 11358, 3718, 5371, 5548,
    8851, 6466, 6305, 5834, 0, 0, 0, 1467, 597, 653, 1564, 1791, 2235, 2601, 5485, 10689, 323, 621,
    1220, 1449, 2663, 2912, 6046, 12460, 809, 1397, 1713, 2691, 2964, 6078, 10940, 1717, 2037,
    3116, 3577, 6375, 10813, 2220, 3129, 3631, 5734, 10166, 4562, 5233, 5086, 10011, 6032, 5961,
    7499, 0, 0, 0, 12, 513, 669, 899, 2529, 3133, 7073, 12586, 562, 962, 1492, 2954, 3192, 6809,
    11443, 1288, 1678, 3108, 3794, 7494, 11179, 1882, 2919, 3600, 6866, 10822, 4457, 5175, 6289,
    9907, 6853, 4789, 0, 4800, 0, 0, 871, 1297, 1591, 2607, 3428, 6510, 11054, 1656, 2026, 3129,
    4081, 6803, 11509, 2468, 2890, 3838, 6360, 10948, 3923, 5648, 6927, 11639, 6589, 4661, 4803, 0,
    0, 0, 2337, 2167, 3451, 4768, 6555, 11689, 2400, 3643, 4547, 6147, 10869, 4333, 5834, 5143,
    7015, 5287, 6739, 0, 0, 6521, 0, 3120, 4360, 3873, 6387, 8552, 4359, 5892, 4647, 8333, 4441,
    4688, 0, 0, 0, 0, 3620, 4699, 0, 9206, 4740, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1169,
    729, 1043, 1601, 1591, 2512, 2913, 4669, 8112, 862, 722, 1287, 1400, 2989, 2971, 6061, 11127,
    779, 1357, 1695, 2737, 3363, 5534, 10024, 1575, 1844, 3346, 3663, 6749, 10456, 2586, 3305,
    4054, 5972, 9352, 3977, 4675, 5224, 7195, 3820, 0, 0, 5193, 0, 0, 655, 714, 984, 1474, 2811,
    3441, 6793, 11891, 804, 941, 1302, 3098, 3444, 6776, 12405, 1245, 1803, 3272, 4248, 7132,
    11347, 2218, 3896, 4463, 6735, 10536, 4744, 4983, 6829, 7990, 5194, 5427, 4802, 0, 4803, 0,
    914, 1300, 1325, 2568, 3452, 6279, 11195, 1260, 1546, 3453, 4094, 7102, 12766, 2067, 3405,
    4260, 6391, 11526, 4336, 5781, 6677, 6955, 6658, 4722, 0, 0, 0, 0, 2093, 2530, 3332, 4429,
    7006, 11209, 2696, 3753, 4640, 7403, 9552, 3801, 5163, 7862, 8727, 5983, 0, 0, 0, 0, 0, 3860,
    3369, 4929, 6012, 6996, 3890, 5021, 6448, 6994, 6054, 0, 0, 0, 0, 0, 5421, 4700, 4770, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -344, -276, -91, 538, 2449, 3244, 7512, 13536, 389,
    -433, 567, 2909, 3890, 7500, 13029, 105, 956, 3236, 4278, 8096, 12670, 2353, 4077, 4208, 8192,
    11493, 4753, 6191, 6624, 9992, 7190, 6015, 4803, 0, 0, 0, 592, 356, 1220, 3037, 3891, 7078,
    13051, 620, 1342, 3262, 4404, 7794, 12839, 2569, 3238, 4339, 7165, 10055, 4430, 6037, 7523,
    6897, 5478, 0, 0, 0, 0, 0, 860, 1766, 3744, 4884, 8296, 11533, 3176, 4094, 4847, 7136, 10577,
    3931, 6568, 7279, 9533, 6345, 4775, 6999, 0, 0, 0, 3117, 3569, 4512, 4696, 4803, 5053, 5496,
    6731, 0, 6241, 4768, 0, 0, 0, 0, 5687, 4706, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 1612, 1061, 1357, 2667, 3464, 7240, 9998, 1494, 1523, 3682, 4348, 7375, 10573, 2568, 3590,
    4600, 6647, 10750, 3594, 5649, 8744, 6970, 4797, 4564, 0, 0, 0, 0, 1378, 2306, 3535, 5167,
    8016, 11053, 3075, 4536, 4962, 7321, 10280, 5878, 5244, 4542, 4802, 6819, 6763, 0, 0, 0, 0,
    3550, 3589, 5420, 6600, 6889, 4156, 4119, 5939, 6955, 0, 0, 0, 0, 0, 0, 6010, 4791, 0, 0, 4794,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2465, 2786, 4220, 5216, 6711, 10727, 4647, 3969,
    3665, 4772, 6954, 4876, 4371, 5978, 7008, 0, 0, 0, 0, 0, 0, 3857, 3758, 4377, 6248, 6969, 4122,
    4545, 4802, 0, 4656, 0, 7006, 0, 0, 0, 4507, 4802, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 4700, 4804, 4597, 0, 0, 4250, 4727, 6443, 0, 6138, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];

/// [`ORDER_MOVER`] and [`ORDER_WAITER`] by class code: one read a side.
static ORDER_BY_CODE: CellWeights = by_code(&ORDER_MOVER, &ORDER_WAITER);

/// The order key of the empty `sq` for side `me` where the pattern board
/// is the only board: the weights of its patterns' multisets for both
/// sides.
#[inline]
fn shape_key(board: &PatternBoard, sq: Square, me: usize) -> i32 {
    let codes = board.class_codes(sq);
    i32::from(ORDER_BY_CODE[usize::from(codes[me])][0])
        + i32::from(ORDER_BY_CODE[usize::from(codes[1 - me])][1])
}

/// Inserts `(key, sq)` into `out[..n]` (sorted by key, best first, equal
/// keys in arrival order), dropping the worst entry when full; returns the
/// new length.
#[inline]
pub(super) fn insert_ranked(out: &mut [(i32, Square)], n: usize, key: i32, sq: Square) -> usize {
    let len = out.len();
    if len == 0 || (n == len && out[n - 1].0 >= key) {
        return n;
    }
    let mut j = if n < len { n } else { n - 1 };
    while j > 0 && out[j - 1].0 < key {
        out[j] = out[j - 1];
        j -= 1;
    }
    out[j] = (key, sq);
    if n < len {
        n + 1
    } else {
        n
    }
}

impl Engine<'_> {
    /// The ordering key of the empty `sq` for side `me` (index of the mark)
    /// where the windows are kept: its window key, plus its classes'
    /// weights where shapes are kept too.
    #[inline]
    fn order_key(&self, sq: Square, me: usize) -> i32 {
        let key = self.cell_key[sq.index()][me];
        match &self.shapes {
            Some(shapes) => {
                let classes = shapes.class_numbers(sq);
                key + MOVER_CLASS[usize::from(classes[me])]
                    + WAITER_CLASS[usize::from(classes[1 - me])]
            }
            None => key,
        }
    }

    /// The key that ranks side `me`'s fours past the horizon and in the
    /// threat searches: the window key, or where the pattern board is the
    /// only board, its order key (`shape_key`, also the candidates' key
    /// there).
    #[inline]
    pub(super) fn four_key(&self, sq: Square, me: usize) -> i32 {
        match self.one_board() {
            Some(shapes) => shape_key(shapes.board(), sq, me),
            None => self.cell_key[sq.index()][me],
        }
    }

    /// Per row, a bit per column: the empty cells within two steps of a
    /// mark (the candidates once the board is not empty).
    pub(super) fn frontier(&self) -> [u32; MAX_SIDE as usize] {
        let rows = self.rules.rows() as usize;
        let all = (1u32 << self.rules.columns()) - 1;
        let mut spread = [0u32; MAX_SIDE as usize];
        for (out, &r) in spread.iter_mut().zip(&self.occupied[..rows]) {
            *out = (r | r << 1 | r << 2 | r >> 1 | r >> 2) & all;
        }
        let mut front = [0u32; MAX_SIDE as usize];
        for r in 0..rows {
            let mut near = 0;
            for s in &spread[r.saturating_sub(2)..(r + 3).min(rows)] {
                near |= s;
            }
            front[r] = near & !self.occupied[r];
        }
        front
    }

    /// Candidate moves, best first (the best `out.len()`, equal keys in
    /// row-major order); returns the count.
    pub(super) fn candidates(&mut self, out: &mut [(i32, Square)], jitter: bool) -> usize {
        let mut front = self.frontier();
        if self.judges_shapes() {
            // The exact replies to an open three (none: the caller knows
            // the position is lost), else to a four-three, wherever they
            // are.
            if let Some(replies) = self.exact_replies().or_else(|| self.four_three_replies()) {
                front = replies;
            }
        } else if let Some(replies) = self.threat_replies() {
            for (f, r) in front.iter_mut().zip(replies) {
                *f &= r;
            }
        }
        self.candidates_among(out, jitter, front)
    }

    /// The best `out.len()` of the cells of `front` (per row a bit per
    /// column, cells on the board only; every cell on an empty board), as
    /// [`candidates`](Self::candidates).
    pub(super) fn candidates_among(
        &mut self,
        out: &mut [(i32, Square)],
        jitter: bool,
        front: [u32; MAX_SIDE as usize],
    ) -> usize {
        let me = self.turn.index();
        if self.marks == 0 {
            // Empty board: every cell, nearest the centre first.
            let all = (1u32 << self.rules.columns()) - 1;
            let mut cells = [0u32; MAX_SIDE as usize];
            cells[..self.rules.rows() as usize].fill(all);
            let rules = self.rules;
            return self.rank(out, jitter, cells, |_, sq| {
                -(rules.distance_from_centre(sq) as i32)
            });
        }
        // One loop for each kind of key: the test of which kind stays out
        // of the loop over cells (on 9x9 the loop takes over a quarter of a
        // node's time).
        match (&self.shapes, self.one_board) {
            (None, _) => self.rank(out, jitter, front, |e, sq| e.cell_key[sq.index()][me]),
            (Some(_), false) => self.rank(out, jitter, front, |e, sq| e.order_key(sq, me)),
            (Some(_), true) => self.rank(out, jitter, front, |e, sq| e.four_key(sq, me)),
        }
    }

    /// The best `out.len()` of the cells of `cells` by `key` (perturbed by
    /// the seed when `jitter`), best first; returns the count.
    #[inline(always)]
    fn rank(
        &mut self,
        out: &mut [(i32, Square)],
        jitter: bool,
        cells: [u32; MAX_SIDE as usize],
        key: impl Fn(&Self, Square) -> i32,
    ) -> usize {
        let mut n = 0;
        for sq in cells_of(cells) {
            let mut key = key(self, sq);
            if jitter {
                key = key * 4 + self.rng.below(4) as i32;
            }
            n = insert_ranked(out, n, key, sq);
        }
        n
    }

    /// Moves the table's move `tt_move`, then the killers of `ply`, to the
    /// front of `list[..n]` (each that is there, in that order); the rest
    /// keep their key order. Returns how many were moved.
    pub(super) fn promote_known_moves(
        &self,
        list: &mut [(i32, Square)],
        n: usize,
        tt_move: u16,
        ply: u32,
    ) -> usize {
        let killers = self.killers[ply as usize];
        let mut front = 0;
        for want in [tt_move, killers[0], killers[1]] {
            if want == NO_MOVE {
                continue;
            }
            if let Some(i) = list[front..n]
                .iter()
                .position(|e| e.1.index() as u16 == want)
            {
                list[front..=front + i].rotate_right(1);
                front += 1;
            }
        }
        front
    }

    /// Notes `sq`, which caused a cut-off at `ply`, as the ply's first
    /// killer (the old first becomes the second).
    pub(super) fn note_killer(&mut self, ply: u32, sq: Square) {
        let slot = &mut self.killers[ply as usize];
        let mv = sq.index() as u16;
        if slot[0] != mv {
            slot[1] = slot[0];
            slot[0] = mv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_boards::engine;
    use super::*;
    use crate::{Position, Rules, MAX_CELLS};

    /// On 400 positions of Rapfi's games, the candidate order puts the
    /// move Rapfi played first far more often with the class weights than
    /// with the window keys alone (175 and 93 times of the 351 positions
    /// with more than three candidates), and keeps it among the searched
    /// [`BEAM`] at least as often (319 and 299 times).
    #[test]
    fn the_order_finds_rapfis_moves() {
        let rules = Rules::new(15, 15, 5).unwrap();
        let (mut positions, mut first, mut first_by_key, mut beam, mut beam_by_key) =
            (0, 0, 0, 0, 0);
        for line in include_str!("rapfi-moves.txt").lines() {
            if line.starts_with('#') {
                continue;
            }
            let Some((moves, played)) = line.split_once(" | ") else {
                continue;
            };
            let mut pos = Position::new(rules);
            for m in moves.split_whitespace() {
                pos.play(rules.parse_square(m).unwrap()).unwrap();
            }
            let played = rules.parse_square(played).unwrap();
            let mut e = engine(&pos);
            let mut list = [(0, Square::from_index(0)); MAX_CELLS];
            let n = e.candidates(&mut list, false);
            if n <= 3 {
                continue;
            }
            positions += 1;
            let rank = list[..n].iter().position(|&(_, sq)| sq == played);
            let me = pos.side_to_move().index();
            let key = |sq: Square| e.cell_key[sq.index()][me];
            let rank_by_key = rank.map(|_| {
                list[..n]
                    .iter()
                    .filter(|&&(_, sq)| key(sq) > key(played))
                    .count()
            });
            first += usize::from(rank == Some(0));
            first_by_key += usize::from(rank_by_key == Some(0));
            beam += usize::from(rank.is_some_and(|r| r < BEAM));
            beam_by_key += usize::from(rank_by_key.is_some_and(|r| r < BEAM));
        }
        assert!(positions >= 340, "{positions}");
        assert!(
            first * 100 >= positions * 42 && first >= first_by_key + positions / 8,
            "first {first}, by key {first_by_key} of {positions}"
        );
        assert!(
            beam >= beam_by_key,
            "in the beam {beam}, by key {beam_by_key}"
        );
    }
}
