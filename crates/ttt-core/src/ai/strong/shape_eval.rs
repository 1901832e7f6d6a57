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
//! The weights were fitted to Rapfi 0.43 (classical evaluation, 50 ms a
//! position): 32,313 positions from the records of `strong`'s matches,
//! its evaluation read as a win rate `1 / (1 + e^(-v/200))` (mates as 0
//! or 1), and ours as `1 / (1 + e^(-e/1500))`, least squares on the win
//! rate (Gauss-Newton, a light ridge on the multisets; 80% of the
//! positions to fit, 20% to check). The squared error of the predicted
//! win rate on the held-out positions is 0.062, where the windows with a
//! weight per threat class (the evaluation before, refitted the same way)
//! give 0.068 and as they were weighted 0.070. In play see the README.
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
const TEMPO: i32 = 683;
/// What having the move is worth per 100 empty cells: the first move of
/// the side to move counts for more on an emptier board.
const TEMPO_PER_100_EMPTY: i32 = 116;

/// Weight of an empty cell of the side to move, by the multiset of its
/// four line patterns (index: see [`by_code`]).
const MOVER_CELL: [i16; 715] = [
    -2028, -2024, -1846, -2007, -1999, -1975, -2007, -2038, 23096, 0, -2037, -1949, -2035, -1956,
    -2009, -1706, -2024, 23096, 0, -1908, -1910, -1861, -2017, -1748, -1857, 23096, 0, -1994,
    -1964, -1837, -1560, -1774, 23096, 0, -1873, -1625, -1503, -1418, 23096, 0, -1795, -1360,
    -1361, 23096, 0, -451, 12650, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -1948, -1924, -2106,
    -1908, -2022, -2013, -1827, 23096, 0, -1923, -1940, -1894, -1941, -1840, -1762, 23096, 0,
    -2079, -1976, -1882, -1715, -1766, 23096, 0, -1765, -1704, -1559, -1037, 23096, 0, -1764,
    -1303, -726, 23096, 0, -1398, 8093, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -1942, -1913,
    -1902, -1931, -1776, -1741, 23096, 0, -1959, -1842, -1917, -1716, -1637, 23096, 0, -1905,
    -1787, -1507, -951, 23096, 0, -1820, -1399, -872, 23096, 0, -1414, 4196, 23096, 0, 23096,
    23096, 0, 23096, 0, 0, -2101, -1980, -1992, -1467, -1437, 23096, 0, -1786, -1683, -1287, -382,
    23096, 0, -1872, -1273, -1295, 23096, 0, -752, 10458, 23096, 0, 23096, 23096, 0, 23096, 0, 0,
    -1938, -1653, -1289, -431, 23096, 0, -1403, -807, -229, 23096, 0, -1102, 5924, 23096, 0, 23096,
    23096, 0, 23096, 0, 0, -639, -234, 709, 23096, 0, -383, 7364, 23096, 0, 23096, 23096, 0, 23096,
    0, 0, -1675, 5808, 23096, 0, 23096, 23096, 0, 23096, 0, 0, 23096, 23096, 0, 23096, 0, 0, 23096,
    0, 0, 0, -2185, -1646, -1975, -1927, -1864, -1878, -1861, 23096, 0, -1920, -1918, -1815, -1860,
    -1650, -1712, 23096, 0, -2047, -1938, -1854, -1703, -1530, 23096, 0, -1778, -1717, -1570, -986,
    23096, 0, -1748, -1928, -832, 23096, 0, -1554, 2658, 23096, 0, 23096, 23096, 0, 23096, 0, 0,
    -1953, -1954, -1918, -1915, -1711, -1636, 23096, 0, -1924, -1865, -1826, -1587, -1456, 23096,
    0, -1846, -1797, -1552, -1136, 23096, 0, -1758, -1448, -634, 23096, 0, -1697, 4340, 23096, 0,
    23096, 23096, 0, 23096, 0, 0, -1802, -1959, -1973, -1952, -1504, 23096, 0, -1812, -1862, -1562,
    -1080, 23096, 0, -1798, -1415, -194, 23096, 0, -1277, 9175, 23096, 0, 23096, 23096, 0, 23096,
    0, 0, -1804, -1604, -1217, -662, 23096, 0, -1765, -1404, 451, 23096, 0, -962, 2100, 23096, 0,
    23096, 23096, 0, 23096, 0, 0, -2107, -205, 1864, 23096, 0, -1059, 5922, 23096, 0, 23096, 23096,
    0, 23096, 0, 0, -1974, 5808, 23096, 0, 23096, 23096, 0, 23096, 0, 0, 23096, 23096, 0, 23096, 0,
    0, 23096, 0, 0, 0, -1936, -1909, -1937, -1878, -1741, -1690, 23096, 0, -1907, -1898, -1874,
    -1605, -1531, 23096, 0, -1949, -1801, -1545, -1156, 23096, 0, -1842, -1558, -824, 23096, 0,
    -1791, 3566, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -1906, -1916, -1859, -1642, -1362, 23096,
    0, -1932, -1898, -1652, -842, 23096, 0, -1904, -1591, -751, 23096, 0, -1641, 4878, 23096, 0,
    23096, 23096, 0, 23096, 0, 0, -1989, -1828, -1753, -1061, 23096, 0, -1831, -1481, -248, 23096,
    0, -1891, 5080, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -2085, -2401, -1480, 23096, 0, -1358,
    5829, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -2188, 5808, 23096, 0, 23096, 23096, 0, 23096, 0,
    0, 23096, 23096, 0, 23096, 0, 0, 23096, 0, 0, 0, -2144, -2007, -2137, -1557, -1998, 23096, 0,
    -1867, -1702, -1495, -641, 23096, 0, -1533, -932, -155, 23096, 0, -1497, 8375, 23096, 0, 23096,
    23096, 0, 23096, 0, 0, -1787, -1702, -1540, -627, 23096, 0, -1363, -1397, 249, 23096, 0, -1447,
    1402, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -2047, -1614, 723, 23096, 0, -794, 2911, 23096,
    0, 23096, 23096, 0, 23096, 0, 0, -2061, 5808, 23096, 0, 23096, 23096, 0, 23096, 0, 0, 23096,
    23096, 0, 23096, 0, 0, 23096, 0, 0, 0, -2321, -1976, -2031, 143, 23096, 0, -1760, -1800, -549,
    23096, 0, -1866, 7771, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -1233, -1711, 3434, 23096, 0,
    -587, 1537, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -766, 5808, 23096, 0, 23096, 23096, 0,
    23096, 0, 0, 23096, 23096, 0, 23096, 0, 0, 23096, 0, 0, 0, 423, -1733, -1798, 23096, 0, -3080,
    5808, 23096, 0, 23096, 23096, 0, 23096, 0, 0, -3080, 5808, 23096, 0, 23096, 23096, 0, 23096, 0,
    0, 23096, 23096, 0, 23096, 0, 0, 23096, 0, 0, 0, -3080, 5808, 23096, 0, 23096, 23096, 0, 23096,
    0, 0, 23096, 23096, 0, 23096, 0, 0, 23096, 0, 0, 0, 23096, 23096, 0, 23096, 0, 0, 23096, 0, 0,
    0, 23096, 0, 0, 0, 0,
];
/// Weight of an empty cell of the other side, as [`MOVER_CELL`].
const WAITER_CELL: [i16; 715] = [
    2002, 1981, 1859, 2023, 1996, 2083, 2053, 1890, 606, 0, 2001, 1963, 2098, 1981, 1930, 2102,
    1928, 1169, 0, 1907, 1924, 1872, 1883, 1733, 1754, 227, 0, 2149, 1829, 1941, 1996, 1840, 216,
    0, 1967, 1888, 1771, 1429, -606, 0, 1896, 1517, 1195, -131, 0, 1548, -523, 2035, 0, -964, 114,
    0, 114, 0, 0, 1945, 1940, 2058, 1976, 1984, 2090, 1515, 826, 0, 1919, 1938, 1889, 1924, 1810,
    1819, 1092, 0, 1942, 1907, 1998, 1702, 1589, -992, 0, 1895, 1838, 1762, 1114, -693, 0, 1824,
    1525, 950, -205, 0, 1810, 51, 414, 0, 344, 114, 0, 114, 0, 0, 1924, 1909, 1922, 1892, 1827,
    1738, 814, 0, 1939, 1844, 1854, 1780, 1423, 392, 0, 1943, 1823, 1647, 1173, 113, 0, 1855, 1559,
    842, 361, 0, 1763, -293, 500, 0, -718, 114, 0, 114, 0, 0, 2008, 2015, 1923, 1773, 1569, 30, 0,
    1923, 1729, 1527, 696, -620, 0, 1866, 1518, 1211, -438, 0, 998, -851, 113, 0, 1701, 114, 0,
    114, 0, 0, 1853, 1960, 1422, 734, -1972, 0, 1399, 1524, 520, -2045, 0, 1580, 67, -1329, 0, 114,
    114, 0, 114, 0, 0, 1030, 1542, -66, 114, 0, 2182, 65, 114, 0, 114, 114, 0, 114, 0, 0, -656,
    -2410, 114, 0, 114, 114, 0, 114, 0, 0, 114, 114, 0, 114, 0, 0, 114, 0, 0, 0, 2281, 1662, 1933,
    1971, 2054, 2027, 1750, 1104, 0, 1920, 1926, 1880, 1824, 1874, 1702, 803, 0, 2116, 1889, 1908,
    2114, 1293, 212, 0, 1717, 1810, 1833, 1183, 437, 0, 1845, 1622, 1195, 151, 0, 1750, 475, 3140,
    0, 114, 114, 0, 114, 0, 0, 1934, 1927, 1907, 1879, 1775, 1635, 754, 0, 1939, 1879, 1879, 1731,
    1474, 563, 0, 1906, 1792, 1679, 1113, -17, 0, 1744, 1602, 711, 131, 0, 1504, -122, 824, 0,
    -1447, 114, 0, 114, 0, 0, 1813, 1976, 1848, 1920, 1559, 89, 0, 1944, 1753, 1646, 828, -854, 0,
    1915, 1617, 713, 174, 0, 1477, -256, 1126, 0, 114, 114, 0, 114, 0, 0, 1845, 1687, 1396, 290,
    -30, 0, 1906, 1575, 156, -1567, 0, 1580, -148, -882, 0, 114, 114, 0, 114, 0, 0, 1448, 1626,
    668, 114, 0, 1829, 931, 114, 0, 114, 114, 0, 114, 0, 0, 2790, -2410, 114, 0, 114, 114, 0, 114,
    0, 0, 114, 114, 0, 114, 0, 0, 114, 0, 0, 0, 1928, 1917, 1939, 1917, 1760, 1771, 804, 0, 1929,
    1904, 1902, 1677, 1476, 88, 0, 1942, 1857, 1637, 1172, 181, 0, 1825, 1566, 810, -715, 0, 1543,
    -964, -178, 0, -56, 114, 0, 114, 0, 0, 1944, 1939, 2107, 1626, 1288, -348, 0, 2009, 1936, 1719,
    1044, -458, 0, 1875, 1790, 163, -1047, 0, 1530, -310, -1850, 0, 114, 114, 0, 114, 0, 0, 1999,
    1965, 1643, 1004, -696, 0, 1867, 1718, 379, -357, 0, 1668, -836, -3171, 0, 114, 114, 0, 114, 0,
    0, 1807, 1418, -1549, 114, 0, 1698, -1256, 114, 0, 114, 114, 0, 114, 0, 0, 1136, -2410, 114, 0,
    114, 114, 0, 114, 0, 0, 114, 114, 0, 114, 0, 0, 114, 0, 0, 0, 2065, 2146, 2005, 2108, 1193,
    -405, 0, 1920, 1718, 1522, 888, -276, 0, 2232, 1366, 685, -1266, 0, 813, -16, 114, 0, 114, 114,
    0, 114, 0, 0, 1988, 2194, 1542, 912, -800, 0, 1817, 1644, 963, -1524, 0, 2147, -599, -4042, 0,
    114, 114, 0, 114, 0, 0, 1523, 1774, 197, 114, 0, 818, 36, 114, 0, 114, 114, 0, 114, 0, 0, 1556,
    -2410, 114, 0, 114, 114, 0, 114, 0, 0, 114, 114, 0, 114, 0, 0, 114, 0, 0, 0, 2200, 2080, 1779,
    255, -1172, 0, 2180, 1973, 1, -7480, 0, 791, -504, 114, 0, 114, 114, 0, 114, 0, 0, 3256, 1723,
    -742, 114, 0, 2155, 1134, 114, 0, 114, 114, 0, 114, 0, 0, 2320, -2410, 114, 0, 114, 114, 0,
    114, 0, 0, 114, 114, 0, 114, 0, 0, 114, 0, 0, 0, 1194, 209, 879, 114, 0, 333, -2410, 114, 0,
    114, 114, 0, 114, 0, 0, 333, -2410, 114, 0, 114, 114, 0, 114, 0, 0, 114, 114, 0, 114, 0, 0,
    114, 0, 0, 0, 333, -2410, 114, 0, 114, 114, 0, 114, 0, 0, 114, 114, 0, 114, 0, 0, 114, 0, 0, 0,
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
