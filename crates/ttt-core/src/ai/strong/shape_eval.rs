//! The evaluation where shapes are kept (five in a row, not renju, boards
//! larger than 9x9): what each empty cell would make for each side, read
//! from a pattern board kept move by move.
//!
//! The line windows (`eval.rs`) count marks; they cannot tell a split three
//! that is one move from an open four from a blocked one, nor a cell where
//! two lines cross. The pattern board can: for every empty cell and side
//! it keeps the cell's pattern on each of its four lines (dead, one, two,
//! blocked or open three, four...; [`LinePattern`](crate::pattern::LinePattern)).
//! Each of the 715 multisets of four patterns has a weight as a cell of
//! the side to move and one as a cell of the other side (the side to move
//! plays first), and the board keeps both sums over the empty cells as
//! patterns change; the evaluation is those sums, a bonus for having the
//! move and one per empty cell. The windows are not read.
//!
//! The weights were fitted to Rapfi 0.43 (classical evaluation) twice.
//! First to 50 ms a position on 32,313 positions from the records of
//! `strong`'s matches, its evaluation read as a win rate
//! `1 / (1 + e^(-v/200))` (mates as 0 or 1) and ours as
//! `1 / (1 + e^(-e/1500))`, least squares on the win rate (80% of the
//! positions to fit, 20% to check): squared error 0.062 on the held-out
//! positions, where the windows with a weight per threat class gave 0.068.
//! Then again, starting from those weights and pulled towards them (a
//! ridge), to 100 ms a position on 19,943 positions of 2,336 games
//! (`strong` against Rapfi, most at 1 s a move, and against itself at
//! 200 ms), the games split 80/20 so that no held-out position has a
//! sibling in the fit. On those positions the first weights were
//! overconfident: read as `1 / (1 + e^(-e/2500))` they predict better
//! (0.0686 against 0.0744), and refitted on that scale 0.0619. Ours is
//! now that scale (the margins of the search were set on the old one,
//! where a logit is 1,500). In play see the README.
//!
//! Taking a stone back copies the cells it changed back from a record kept
//! when it was placed (the deepest [`UNDO_DEPTH`] stones of a search);
//! reading the patterns again would cost as much as placing it.
use crate::pattern::{
    CellWeights, LinePattern, PatternBoard, PatternUndo, ThreatClass, COMBINATIONS,
};
use crate::{Mark, Position, Square, MAX_SIDE};

/// The fewest cells of a board evaluated by shapes: more than 9x9. The
/// weights were fitted and measured on 15x15; the console's boards (up to
/// 9x9) keep the cheaper node (on 15x15 a node costs about 1.6 times as
/// much with the pattern board), and a console game still replays move for
/// move on the desktop with the same node budget.
pub(super) const MIN_CELLS: usize = 82;

/// Stones in a row (from the loaded position) whose changes are recorded
/// for a cheap take-back; deeper ones read their patterns again.
const UNDO_DEPTH: usize = 64;

/// What having the move is worth besides the cells.
const TEMPO: i32 = 578;
/// What having the move is worth per 100 empty cells: the first move of
/// the side to move counts for more on an emptier board.
const TEMPO_PER_100_EMPTY: i32 = 95;

/// Weight of an empty cell of the side to move, by the multiset of its
/// four line patterns (index: see [`by_code`]).
const MOVER_CELL: [i16; 715] = [
    -2041, -2057, -1994, -2011, -2013, -2013, -1958, -1992, 23096, 0, -1960, -2009, -2026, -1911,
    -2086, -1823, -1902, 23096, 0, -1992, -2032, -1965, -2040, -1828, -1750, 23096, 0, -1930,
    -2028, -2026, -1826, -1769, 23096, 0, -1750, -2001, -1488, -1452, 23096, 0, -1813, -1483,
    -1451, 23096, 0, -408, 12573, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -2104, -2087, -2042,
    -2155, -1950, -1830, -1708, 23096, 0, -2048, -2003, -2059, -1967, -1645, -1598, 23096, 0,
    -2020, -1993, -2014, -1726, -1794, 23096, 0, -2014, -1881, -1377, -1072, 23096, 0, -1768,
    -1172, -933, 23096, 0, -1154, 8083, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -2025, -1985,
    -1995, -1984, -1678, -1481, 23096, 0, -2062, -1971, -1983, -1577, -1725, 23096, 0, -2006,
    -1792, -1465, -990, 23096, 0, -1801, -1284, -993, 23096, 0, -1449, 4187, 23096, 0, 23096,
    23096, 0, 23096, 0, 0, -2045, -1989, -1929, -1515, -1460, 23096, 0, -1771, -1764, -1335, -732,
    23096, 0, -1890, -1190, -1028, 23096, 0, -704, 10406, 23096, 0, 23096, 23096, 0, 23096, 0, 0,
    -1841, -1635, -1083, -475, 23096, 0, -1453, -817, -315, 23096, 0, -909, 5956, 23096, 0, 23096,
    23096, 0, 23096, 0, 0, -818, -303, 650, 23096, 0, -411, 7365, 23096, 0, 23096, 23096, 0, 23096,
    0, 0, -1677, 5808, 23096, 0, 23096, 23096, 0, 23096, 0, 0, 23096, 23096, 0, 23096, 0, 0, 23096,
    0, 0, 0, -2038, -1944, -2062, -2112, -1832, -1914, -1751, 23096, 0, -2022, -2081, -1824, -1969,
    -1656, -1519, 23096, 0, -2060, -1814, -1792, -1736, -1464, 23096, 0, -1798, -1694, -1477, -969,
    23096, 0, -1764, -1644, -855, 23096, 0, -1542, 2681, 23096, 0, 23096, 23096, 0, 23096, 0, 0,
    -2065, -1995, -1957, -1924, -1688, -1354, 23096, 0, -2052, -2013, -1794, -1798, -1516, 23096,
    0, -1854, -1821, -1428, -1039, 23096, 0, -1721, -1477, -691, 23096, 0, -1633, 4304, 23096, 0,
    23096, 23096, 0, 23096, 0, 0, -2032, -2002, -1833, -1563, -1505, 23096, 0, -1876, -1796, -1452,
    -898, 23096, 0, -1544, -1304, -377, 23096, 0, -1293, 9162, 23096, 0, 23096, 23096, 0, 23096, 0,
    0, -1754, -1610, -1565, -680, 23096, 0, -1699, -1440, 315, 23096, 0, -1113, 2115, 23096, 0,
    23096, 23096, 0, 23096, 0, 0, -2048, -376, 1816, 23096, 0, -936, 5927, 23096, 0, 23096, 23096,
    0, 23096, 0, 0, -1967, 5808, 23096, 0, 23096, 23096, 0, 23096, 0, 0, 23096, 23096, 0, 23096, 0,
    0, 23096, 0, 0, 0, -2041, -2015, -2024, -1947, -1606, -1351, 23096, 0, -1980, -1957, -1887,
    -1619, -1326, 23096, 0, -2010, -1799, -1515, -1018, 23096, 0, -1877, -1472, -849, 23096, 0,
    -1763, 3500, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -1881, -1938, -1890, -1783, -1271, 23096,
    0, -1984, -2022, -1578, -970, 23096, 0, -1917, -1707, -815, 23096, 0, -1697, 4834, 23096, 0,
    23096, 23096, 0, 23096, 0, 0, -2049, -1998, -1896, -937, 23096, 0, -1871, -1431, -260, 23096,
    0, -1866, 5035, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -2036, -2347, -1467, 23096, 0, -1348,
    5826, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -2196, 5808, 23096, 0, 23096, 23096, 0, 23096, 0,
    0, 23096, 23096, 0, 23096, 0, 0, 23096, 0, 0, 0, -2028, -1891, -1948, -1620, -1988, 23096, 0,
    -1911, -1702, -1482, -597, 23096, 0, -1599, -1031, -204, 23096, 0, -1426, 8376, 23096, 0,
    23096, 23096, 0, 23096, 0, 0, -1835, -1741, -1359, -656, 23096, 0, -1318, -1461, 258, 23096, 0,
    -1508, 1405, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -2027, -1608, 743, 23096, 0, -817, 2913,
    23096, 0, 23096, 23096, 0, 23096, 0, 0, -2061, 5809, 23096, 0, 23096, 23096, 0, 23096, 0, 0,
    23096, 23096, 0, 23096, 0, 0, 23096, 0, 0, 0, -2303, -1756, -2071, 112, 23096, 0, -1687, -1776,
    -518, 23096, 0, -1862, 7771, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -1218, -1688, 3453, 23096,
    0, -590, 1566, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -776, 5808, 23096, 0, 23096, 23096, 0,
    23096, 0, 0, 23096, 23096, 0, 23096, 0, 0, 23096, 0, 0, 0, 412, -1731, -1786, 23096, 0, -3080,
    5808, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -3060, 5808, 23096, 0, 23096, 23096, 0, 23096, 0,
    0, 23096, 23096, 0, 23096, 0, 0, 23096, 0, 0, 0, -3080, 5808, 23096, 0, 23096, 23096, 0, 23096,
    0, 0, 23096, 23096, 0, 23096, 0, 0, 23096, 0, 0, 0, 23096, 23096, 0, 23096, 0, 0, 23096, 0, 0,
    0, 23096, 0, 0, 0, 0,
];
/// Weight of an empty cell of the other side, as [`MOVER_CELL`].
const WAITER_CELL: [i16; 715] = [
    2022, 2075, 2013, 2022, 1980, 2047, 1869, 1953, 633, 0, 2068, 2025, 2026, 1896, 1939, 1988,
    1827, 1073, 0, 1987, 1976, 2019, 1936, 1770, 1736, 155, 0, 1998, 1983, 2037, 1933, 1715, 116,
    0, 1920, 2116, 1800, 1409, -525, 0, 1915, 1774, 1374, -258, 0, 1555, -519, 1916, 0, -826, 124,
    0, 114, 0, 0, 2129, 2088, 2123, 2134, 2005, 2000, 1490, 792, 0, 2061, 2009, 2083, 1958, 1812,
    1512, 872, 0, 1945, 1970, 2030, 1800, 1485, -848, 0, 2005, 1888, 1921, 1259, -573, 0, 1836,
    1358, 1129, -293, 0, 1880, 17, 426, 0, 309, 122, 0, 114, 0, 0, 2015, 1966, 2016, 1961, 1808,
    1553, 699, 0, 2015, 1995, 1997, 1711, 1508, 173, 0, 1892, 1815, 1707, 1197, 25, 0, 1906, 1535,
    1091, 213, 0, 1726, -359, 470, 0, -651, 116, 0, 114, 0, 0, 1986, 1935, 1955, 1679, 1388, 17, 0,
    1946, 1857, 1628, 927, -818, 0, 1941, 1561, 1166, -422, 0, 1215, -904, 95, 0, 1650, 114, 0,
    114, 0, 0, 2004, 1889, 1284, 761, -1962, 0, 1439, 1400, 470, -2059, 0, 1493, -142, -1307, 0,
    92, 108, 0, 114, 0, 0, 1156, 1435, -38, 100, 0, 2042, 30, 102, 0, 105, 128, 0, 114, 0, 0, -650,
    -2417, 114, 0, 108, 114, 0, 114, 0, 0, 114, 114, 0, 113, 0, 0, 114, 0, 0, 0, 2072, 1945, 2084,
    2302, 2057, 2211, 1711, 1100, 0, 2073, 2038, 1952, 1940, 1972, 1448, 765, 0, 2027, 1942, 1866,
    1977, 1402, 261, 0, 1700, 1731, 1720, 1176, 413, 0, 1886, 1753, 1088, 124, 0, 1768, 493, 3139,
    0, 128, 116, 0, 114, 0, 0, 2040, 1977, 1949, 1924, 1756, 1280, 645, 0, 2082, 1963, 1806, 1752,
    1407, 547, 0, 1929, 1804, 1652, 1228, -39, 0, 1729, 1588, 732, 96, 0, 1480, -245, 787, 0,
    -1441, 129, 0, 114, 0, 0, 1950, 1941, 1797, 1654, 1449, 210, 0, 1899, 1761, 1715, 671, -800, 0,
    1752, 1666, 686, 32, 0, 1504, -329, 1068, 0, 114, 112, 0, 114, 0, 0, 1790, 1738, 1476, 443,
    -32, 0, 1690, 1331, 235, -1567, 0, 1594, -181, -906, 0, 116, 112, 0, 114, 0, 0, 1450, 1582,
    609, 101, 0, 1889, 899, 104, 0, 117, 103, 0, 114, 0, 0, 2769, -2387, 114, 0, 105, 114, 0, 114,
    0, 0, 114, 114, 0, 114, 0, 0, 114, 0, 0, 0, 2040, 2034, 2037, 1992, 1682, 1372, 650, 0, 2027,
    2032, 1923, 1723, 1286, 22, 0, 2033, 1956, 1552, 1048, -9, 0, 1995, 1491, 798, -729, 0, 1610,
    -945, -165, 0, -29, 114, 0, 114, 0, 0, 1851, 2048, 1816, 1770, 1187, -417, 0, 1980, 2001, 1669,
    905, -560, 0, 1920, 1798, 306, -1043, 0, 1516, -377, -1845, 0, 105, 114, 0, 114, 0, 0, 2052,
    1987, 1689, 993, -686, 0, 1742, 1678, 437, -392, 0, 1720, -859, -3162, 0, 107, 114, 0, 114, 0,
    0, 1771, 1345, -1509, 115, 0, 1676, -1275, 119, 0, 114, 114, 0, 114, 0, 0, 1153, -2410, 114, 0,
    114, 114, 0, 114, 0, 0, 114, 114, 0, 114, 0, 0, 114, 0, 0, 0, 1912, 1982, 1803, 2036, 1143,
    -372, 0, 1963, 1822, 1502, 802, -355, 0, 2126, 1246, 756, -1305, 0, 854, -95, 111, 0, 109, 137,
    0, 114, 0, 0, 1932, 1904, 1392, 820, -789, 0, 1714, 1702, 915, -1539, 0, 2042, -512, -4028, 0,
    114, 114, 0, 114, 0, 0, 1550, 1814, 184, 114, 0, 788, -17, 113, 0, 114, 114, 0, 114, 0, 0,
    1556, -2411, 101, 0, 114, 114, 0, 114, 0, 0, 114, 114, 0, 114, 0, 0, 114, 0, 0, 0, 2209, 2009,
    1618, 233, -1188, 0, 2102, 1904, 32, -7475, 0, 809, -524, 78, 0, 114, 114, 0, 114, 0, 0, 3161,
    1658, -729, 93, 0, 2112, 1090, 95, 0, 114, 114, 0, 114, 0, 0, 2339, -2410, 103, 0, 114, 114, 0,
    114, 0, 0, 114, 114, 0, 114, 0, 0, 114, 0, 0, 0, 1194, 238, 876, 114, 0, 335, -2410, 114, 0,
    105, 114, 0, 114, 0, 0, 337, -2410, 114, 0, 114, 114, 0, 114, 0, 0, 114, 114, 0, 114, 0, 0,
    114, 0, 0, 0, 349, -2410, 114, 0, 114, 114, 0, 114, 0, 0, 114, 114, 0, 114, 0, 0, 114, 0, 0, 0,
    114, 114, 0, 114, 0, 0, 114, 0, 0, 0, 114, 0, 0, 0, 0,
];

/// Every class code's cell weights ([`MOVER_CELL`], [`WAITER_CELL`] of the
/// multiset of its four patterns): one read a changed cell.
static CELL_WEIGHTS: CellWeights = by_code(&MOVER_CELL, &WAITER_CELL);

/// For each class code, the weights of its multiset of four line patterns
/// in `mover` and `waiter` (indexed among all 715 multisets in order of
/// their patterns sorted, `a <= b <= c <= d`, lexicographic).
pub(super) const fn by_code(mover: &[i16; 715], waiter: &[i16; 715]) -> CellWeights {
    let mut rank = [0u16; COMBINATIONS];
    let mut next = 0u16;
    let mut a = 0;
    while a < 10 {
        let mut b = a;
        while b < 10 {
            let mut c = b;
            while c < 10 {
                let mut d = c;
                while d < 10 {
                    rank[a * 1000 + b * 100 + c * 10 + d] = next;
                    next += 1;
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    let mut table = [[0i16; 2]; COMBINATIONS];
    let mut code = 0;
    while code < COMBINATIONS {
        let mut p = [code % 10, code / 10 % 10, code / 100 % 10, code / 1000];
        // Sorted by a small network of exchanges.
        let pairs = [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)];
        let mut i = 0;
        while i < pairs.len() {
            let (x, y) = pairs[i];
            if p[x] > p[y] {
                let t = p[x];
                p[x] = p[y];
                p[y] = t;
            }
            i += 1;
        }
        let r = rank[p[0] * 1000 + p[1] * 100 + p[2] * 10 + p[3]] as usize;
        table[code] = [mover[r], waiter[r]];
        code += 1;
    }
    table
}

/// Per class code, what its four line patterns hold: [`FOUR_LINE`] when
/// one of them is a four or an open four (a stone there makes a four on
/// that line), [`THREE_LINE`] when one is a blocked three or stronger.
static LINE_FLAGS: [u8; COMBINATIONS] = line_flags();
/// See [`LINE_FLAGS`].
const FOUR_LINE: u8 = 1;
/// See [`LINE_FLAGS`].
const THREE_LINE: u8 = 2;

/// [`LINE_FLAGS`] of every class code.
const fn line_flags() -> [u8; COMBINATIONS] {
    let mut table = [0u8; COMBINATIONS];
    let mut code = 0;
    while code < COMBINATIONS {
        let mut rest = code;
        let mut flags = 0;
        let mut d = 0;
        while d < 4 {
            let p = (rest % 10) as u8;
            rest /= 10;
            if p == LinePattern::Four as u8 || p == LinePattern::OpenFour as u8 {
                flags |= FOUR_LINE;
            }
            if p >= LinePattern::BlockedThree as u8 {
                flags |= THREE_LINE;
            }
            d += 1;
        }
        table[code] = flags;
        code += 1;
    }
    table
}

/// The pattern board and the take-back records of the stones on it since
/// the position was loaded.
pub(super) struct ShapeEval {
    board: PatternBoard,
    undo: [PatternUndo; UNDO_DEPTH],
    /// Stones placed since loading.
    placed: usize,
}

impl ShapeEval {
    /// The shape evaluation of `pos`: `None` unless five in a row wins, renju
    /// is off (black's forbidden cells change which shapes are threats) and
    /// the board is larger than 9x9 ([`MIN_CELLS`]).
    pub(super) fn new(pos: &Position) -> Option<ShapeEval> {
        let rules = pos.rules();
        if rules.is_renju() || rules.cell_count() < MIN_CELLS {
            return None;
        }
        let mut board = PatternBoard::new(pos).ok()?;
        board.set_cell_weights(&CELL_WEIGHTS);
        Some(ShapeEval {
            board,
            undo: [const { PatternUndo::EMPTY }; UNDO_DEPTH],
            placed: 0,
        })
    }

    /// Puts a stone of `mark` on the empty `sq`.
    #[inline]
    pub(super) fn place(&mut self, sq: Square, mark: Mark) {
        match self.undo.get_mut(self.placed) {
            Some(record) => self.board.place_saving(sq, mark, record),
            None => self.board.place(sq, mark),
        }
        self.placed += 1;
    }

    /// Takes back the last stone placed: `mark` on `sq`.
    #[inline]
    pub(super) fn remove(&mut self, sq: Square, mark: Mark) {
        self.placed -= 1;
        match self.undo.get(self.placed) {
            Some(record) => self.board.remove_restoring(sq, mark, record),
            None => self.board.remove(sq, mark),
        }
    }

    /// The evaluation for the side to move, `to_move`.
    pub(super) fn value(&self, to_move: Mark) -> i32 {
        let empty = self.board.rules().cell_count() as i32 - self.board.stones() as i32;
        TEMPO
            + TEMPO_PER_100_EMPTY * empty / 100
            + self.board.weight_sums(to_move)[0]
            + self.board.weight_sums(to_move.other())[1]
    }

    /// What a stone of `mark` on the empty `sq` makes.
    pub(super) fn class(&self, sq: Square, mark: Mark) -> ThreatClass {
        self.board.class(sq, mark)
    }

    /// Whether `mark` has a cell where a stone wins by force unless the
    /// other side answers at once: an open-four cell (an open three, or two
    /// threes crossing) or a four-three cell.
    pub(super) fn threatens(&self, mark: Mark) -> bool {
        self.board.count(mark, ThreatClass::OpenFour) > 0
            || self.board.count(mark, ThreatClass::FourThree) > 0
    }

    /// Against the other side's four-three cells, the cells where a stone
    /// of `me` leaves it none: those that defuse them all (the cell
    /// itself, and the cells that break its four or its three). `None`
    /// when the other side has no four-three cell.
    pub(super) fn four_three_defences(&self, me: Mark) -> Option<crate::SquareSet> {
        if self.board.count(me.other(), ThreatClass::FourThree) == 0 {
            return None;
        }
        self.board.defences(me, ThreatClass::FourThree)
    }

    /// The pattern board.
    #[inline]
    pub(super) fn board(&self) -> &PatternBoard {
        &self.board
    }

    /// The empty cells where `mark` makes five: the first (in square
    /// order) and how many (at most 2 counted).
    #[inline]
    pub(super) fn five_cells(&self, mark: Mark) -> (Option<Square>, u32) {
        let n = self.board.count(mark, ThreatClass::Five);
        if n == 0 {
            return (None, 0);
        }
        let m = mark.index();
        let first = self
            .board
            .four_cells(mark)
            .into_iter()
            .find(|&sq| self.board.class_numbers(sq)[m] == ThreatClass::Five as u8);
        (first, n.min(2))
    }

    /// Side `m`'s cells, per row a bit per column: `(where a stone makes a
    /// four on some line, where it makes two five cells at once)`: an open
    /// four or two fours, exactly (the window sets' second kind also holds
    /// false forks such as `x.xx.x`).
    pub(super) fn four_rows(
        &self,
        m: usize,
    ) -> ([u32; MAX_SIDE as usize], [u32; MAX_SIDE as usize]) {
        let mut fours = [0u32; MAX_SIDE as usize];
        let mut forks = [0u32; MAX_SIDE as usize];
        let mark = Mark::ALL[m];
        for sq in self.board.four_cells(mark) {
            let bit = 1u32 << sq.column();
            let row = sq.row() as usize;
            if LINE_FLAGS[usize::from(self.board.class_codes(sq)[m])] & FOUR_LINE != 0 {
                fours[row] |= bit;
            }
            if self.board.class_numbers(sq)[m] == ThreatClass::OpenFour as u8 {
                forks[row] |= bit;
            }
        }
        (fours, forks)
    }

    /// Whether `mark` has a cell that makes a four (or two, or a four and
    /// an open three), not counting its five cells.
    #[inline]
    pub(super) fn has_four_cells(&self, mark: Mark) -> bool {
        [
            ThreatClass::Four,
            ThreatClass::FourPlus,
            ThreatClass::FourThree,
            ThreatClass::OpenFour,
        ]
        .into_iter()
        .any(|c| self.board.count(mark, c) > 0)
    }

    /// Whether a stone of `mark` on the empty `sq` makes a blocked three
    /// or stronger on one of its lines.
    #[inline]
    pub(super) fn makes_three(&self, sq: Square, mark: Mark) -> bool {
        LINE_FLAGS[usize::from(self.board.class_codes(sq)[mark.index()])] & THREE_LINE != 0
    }

    /// Plies to a win `mark` (to move) has without a search, when the other
    /// side makes no four anywhere: 3 with a cell making two five cells, 5
    /// with a four-three cell.
    pub(super) fn static_win(&self, mark: Mark) -> Option<i32> {
        if self.has_four_cells(mark.other()) {
            return None;
        }
        if self.board.count(mark, ThreatClass::OpenFour) > 0 {
            Some(3)
        } else if self.board.count(mark, ThreatClass::FourThree) > 0 {
            Some(5)
        } else {
            None
        }
    }

    /// The classes of the empty `sq` (on the board) for X and O, as
    /// numbers.
    #[inline]
    pub(super) fn class_numbers(&self, sq: Square) -> [u8; 2] {
        self.board.class_numbers(sq)
    }
}

impl super::Engine<'_> {
    /// The shape evaluation's part of a move (`add`) or of its take-back.
    #[inline]
    pub(super) fn update_shapes(&mut self, sq: Square, mark: Mark, add: bool) {
        if let Some(shapes) = &mut self.shapes {
            if add {
                shapes.place(sq, mark);
            } else {
                shapes.remove(sq, mark);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_boards::{board, engine};
    use super::super::{Budget, Engine};
    use super::*;

    /// A search plays and takes back thousands of stones, past the depth
    /// of the take-back records too; afterwards the evaluation is that
    /// of the position read afresh.
    #[test]
    fn a_search_leaves_the_shape_terms_as_it_found_them() {
        // A game's first eight moves (Rapfi against `strong`), X to move.
        let mut pos = Position::new(crate::Rules::new(15, 15, 5).unwrap());
        for name in ["j6", "k11", "e9", "j11", "g9", "i9", "h11", "h8"] {
            pos.play(pos.rules().parse_square(name).unwrap()).unwrap();
        }
        let fresh = ShapeEval::new(&pos).unwrap().value(pos.side_to_move());
        let mut e = Engine::new(Budget::nodes(30_000), 1);
        assert!(e.analyse(&pos).is_some());
        assert_eq!(e.stats().nodes, 30_000);
        let shapes = e.shapes.as_ref().unwrap();
        assert_eq!(shapes.placed, 0);
        assert_eq!(shapes.value(pos.side_to_move()), fresh);
        // Stones beyond the records are read again, and taken back too.
        let mut deep = ShapeEval::new(&pos).unwrap();
        let empties: [Square; UNDO_DEPTH + 8] =
            core::array::from_fn(|i| pos.empty_squares().into_iter().nth(i).unwrap());
        for (i, &sq) in empties.iter().enumerate() {
            deep.place(sq, Mark::ALL[i % 2]);
        }
        for (i, &sq) in empties.iter().enumerate().rev() {
            deep.remove(sq, Mark::ALL[i % 2]);
        }
        assert_eq!(deep.value(pos.side_to_move()), fresh);
    }

    /// Two stones with room on both sides (an open two: four cells make an
    /// open three) are worth more to their side than two against the
    /// opponent's stone (two cells make a blocked three).
    #[test]
    fn an_open_two_is_worth_more_than_a_blocked_one() {
        // X to move in both; O has two stones in each.
        let open = board(&[(7, "......xx......."), (0, "o.............o")]);
        let blocked = board(&[(7, ".....oxx......."), (0, "o..............")]);
        let value = |pos: &Position| ShapeEval::new(pos).unwrap().value(Mark::X);
        assert!(
            value(&open) > value(&blocked) + 300,
            "{} {}",
            value(&open),
            value(&blocked)
        );
        // And the whole evaluation says so too.
        assert!(engine(&open).static_eval() > engine(&blocked).static_eval());
    }

    /// The console's boards (up to 9x9), renju and other win lengths keep
    /// the windows alone.
    #[test]
    fn only_large_five_in_a_row_boards_have_shape_terms() {
        use crate::Rules;
        let on = |rules: Rules| ShapeEval::new(&Position::new(rules)).is_some();
        assert!(on(Rules::new(15, 15, 5).unwrap()));
        assert!(on(Rules::new(20, 20, 5).unwrap()));
        assert!(on(Rules::new(10, 10, 5).unwrap()));
        assert!(!on(Rules::new(9, 9, 5).unwrap()));
        assert!(!on(Rules::new(15, 15, 5).unwrap().with_renju().unwrap()));
        assert!(!on(Rules::new(15, 15, 4).unwrap()));
    }
}
