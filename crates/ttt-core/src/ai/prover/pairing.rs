//! Pairing strategies: the defender's static wins in the Maker-Breaker game.
//!
//! A *pairing* is a set of disjoint pairs of empty cells such that every
//! live line (a window with no defender mark) holds both cells of some
//! pair. The defender answers each attacker move in a pair with its
//! partner, so every live line gets a defender mark before the attacker can
//! fill it, whoever is to move (the defender, to move, plays anywhere).
//!
//! Two searches find them: [`private_pairing`] gives every line two cells
//! of its own (a bipartite b-matching, exact: it finds one if one exists),
//! and [`shared_pairing`] lets one pair serve every line through both its
//! cells (two neighbours on a row serve every window of that row holding
//! both), a set-cover search bounded to [`PAIRING_STEPS`] steps. The shared
//! form is what settles most positions of 7x7 k=5: its 60 lines outnumber
//! half its 49 cells, so private pairs cannot exist until many lines are
//! dead.
//!
//! The prover passes the last pairing it found as a hint ([`pairing_near`]):
//! a sibling position differs by a mark or two, so most of its pairs still
//! serve, and only the lines left unserved are searched for (7x7 k=5: the
//! proof took 6.3G instructions and 449k nodes instead of 7.5G and 528k;
//! 8x8: 5% fewer instructions per node, 6% more positions paired).
//!
//! [`twin_cells`] is the exact reduction behind the same idea: two empty
//! cells on exactly the same live lines are a pair serving all of them.
use super::super::geometry::Geo;

/// Steps a [`shared_pairing`] search may take before it gives up. Each
/// pairing found spares the search of a position (the attacker's 12 to 14
/// moves on 8x8 k=5), and a step costs a few masks ([`FreeCounts`]), so
/// the budget is large: on six 8x8 k=5 positions (solver.md; before the
/// pairs were ranked by the lines they hurt too), 128 steps 11.1M nodes,
/// 256 8.2M, 512 6.2M, 1024 4.9M, 2048 4.1M, 4096 3.6M, the time least at
/// 2048 (a third less than at 128); then 3.7M at 2048, 3.4M at 4096 in
/// more time; with backjumping 3.33M at 2048 (16,384: 2.98M, in far more
/// steps). 7x7 k=5 takes 202k nodes instead of 453k at 128, in about 10%
/// more time (fewer nodes, dearer ones).
pub(crate) const PAIRING_STEPS: u32 = 2048;

/// Steps a [`pairing_near`] may take to mend its hint.
pub(crate) const MEND_STEPS: u32 = 32;

/// A pairing: pairs of cells (bit numbers of the bitboard).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Pairs {
    pub(crate) pairs: [(u8, u8); 32],
    pub(crate) len: usize,
}

impl Pairs {
    pub(crate) const EMPTY: Pairs = Pairs {
        pairs: [(0, 0); 32],
        len: 0,
    };

    /// Every cell of every pair.
    pub(crate) fn cells(&self) -> u64 {
        self.pairs[..self.len]
            .iter()
            .fold(0, |m, &(p, q)| m | 1 << p | 1 << q)
    }

    fn push(&mut self, p: u8, q: u8) -> bool {
        if self.len == self.pairs.len() {
            return false;
        }
        self.pairs[self.len] = (p, q);
        self.len += 1;
        true
    }
}

/// The windows through each cell, as bits of window numbers; `None` when
/// the board has more than 128 windows (then only [`private_pairing`] runs
/// and no twins are taken out).
pub(crate) fn cell_lines(g: &Geo) -> Option<[u128; 64]> {
    (g.nwin <= 128).then(|| {
        let mut lines = [0u128; 64];
        for (i, &w) in g.win[..g.nwin].iter().enumerate() {
            let mut cells = w;
            while cells != 0 {
                lines[cells.trailing_zeros() as usize] |= 1 << i;
                cells &= cells - 1;
            }
        }
        lines
    })
}

/// What a pairing search found, and what it cost.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Sought {
    /// The pairing, if one was found.
    pub(crate) pairs: Option<Pairs>,
    /// Steps of the shared-pairing searches (mending and from scratch).
    pub(crate) steps: u32,
    /// With no pairing: whether a search ran out of steps (else none
    /// exists: the search from scratch tried every way).
    pub(crate) gave_up: bool,
}

/// A pairing for the defender (marks `d`) among the `empty` cells: a
/// private one if it exists, else a shared one if the bounded search finds
/// it, trying first to mend `hint` (a pairing of a position met shortly
/// before: a sibling's differs by a mark or two; [`Pairs::EMPTY`] for
/// none): its pairs whose cells are still empty are kept, and only the
/// lines they leave unserved are searched for, within [`MEND_STEPS`] steps.
/// Past that, a search from scratch of `steps` steps (0: none).
pub(crate) fn pairing_near(
    g: &Geo,
    cell_lines: Option<&[u128; 64]>,
    d: u64,
    empty: u64,
    hint: &Pairs,
    steps: u32,
) -> Sought {
    if let Some(pairs) = private_pairing(g, d, empty) {
        return Sought {
            pairs: Some(pairs),
            steps: 0,
            gave_up: false,
        };
    }
    match cell_lines {
        Some(lines) => shared_pairing(g, lines, d, empty, hint, steps),
        None => Sought {
            pairs: None,
            steps: 0,
            gave_up: true,
        },
    }
}

/// Empty cells that come in twins, two cells on exactly the same live
/// lines (at least one), found repeatedly: each twin pair removed with all
/// its lines may make further twins. In the Maker-Breaker game a twin pair
/// can be taken out of play exactly: the defender answers one with the
/// other (so the attacker gains nothing there), and a defender move there
/// is a pass, never better than a real move. The twins' cells (0: none).
pub(crate) fn twin_cells(g: &Geo, cell_lines: &[u128; 64], a: u64, d: u64) -> u64 {
    let empty = g.full & !(a | d);
    let mut dead_lines = 0u128;
    for (i, &w) in g.win[..g.nwin].iter().enumerate() {
        if w & d != 0 {
            dead_lines |= 1 << i;
        }
    }
    let mut paired = 0u64;
    loop {
        // Cells by line set, in a small open-addressed table (64 cells
        // at most, 128 slots: short probes).
        let mut slots = [(0u128, u8::MAX); 128];
        let mut found = 0u64;
        let mut rest = empty & !paired;
        while rest != 0 {
            let c = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let lines = cell_lines[c as usize] & !dead_lines;
            if lines == 0 {
                continue;
            }
            let h = (lines as u64 ^ (lines >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut i = (h >> 57) as usize;
            loop {
                let (l, other) = slots[i];
                if other == u8::MAX {
                    slots[i] = (lines, c);
                    break;
                }
                if l == lines {
                    // A twin (a third cell on the same lines is dead once
                    // these two are paired off: its slot stays taken).
                    if found >> other & 1 == 0 && paired >> other & 1 == 0 {
                        found |= 1 << c | 1 << other;
                    }
                    break;
                }
                i = (i + 1) & 127;
            }
        }
        if found == 0 {
            return paired;
        }
        // Their lines are dead from now on; the other twins found in this
        // pass stay twins without them (both lose the same lines).
        let mut rest = found;
        while rest != 0 {
            dead_lines |= cell_lines[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        paired |= found;
    }
}

/// A pairing that gives every live line two empty cells of its own, no
/// cell shared, or `None` if there is none (a bipartite b-matching, found
/// by augmenting paths).
pub(crate) fn private_pairing(g: &Geo, d: u64, empty: u64) -> Option<Pairs> {
    let mut lines = [0u64; 64];
    let mut n = 0;
    let mut cells = 0u64;
    for &w in &g.win[..g.nwin] {
        if w & d == 0 {
            // 2n cells for n lines: more than 32 lines never pair.
            if n == lines.len() {
                return None;
            }
            lines[n] = w & empty;
            cells |= w & empty;
            n += 1;
        }
    }
    if 2 * n > cells.count_ones() as usize {
        return None;
    }
    let mut owner = [u8::MAX; 64];
    for i in 0..n {
        for _ in 0..2 {
            let mut seen = 0u64;
            if !augment(&lines[..n], &mut owner, i, &mut seen) {
                return None;
            }
        }
    }
    // Each line owns exactly two cells: they are its pair.
    let mut first = [u8::MAX; 64];
    let mut pairs = Pairs::EMPTY;
    for (c, &o) in owner.iter().enumerate() {
        if o != u8::MAX {
            let f = &mut first[o as usize];
            if *f == u8::MAX {
                *f = c as u8;
            } else {
                pairs.push(*f, c as u8);
            }
        }
    }
    Some(pairs)
}

/// Kuhn's augmenting path: gives line `i` one more cell, moving other
/// lines' cells along the way; `seen` marks the cells already tried.
fn augment(lines: &[u64], owner: &mut [u8; 64], i: usize, seen: &mut u64) -> bool {
    let mut free = lines[i] & !*seen;
    while free != 0 {
        let c = free.trailing_zeros() as usize;
        free &= free - 1;
        *seen |= 1 << c;
        let o = owner[c];
        if o == i as u8 {
            continue;
        }
        if o == u8::MAX || augment(lines, owner, o as usize, seen) {
            owner[c] = i as u8;
            return true;
        }
    }
    false
}

/// A pairing in which one pair may serve several live lines, found by a
/// depth-first search of at most `steps` steps (the line with fewest free
/// cells first, its pairs by the lines they serve, then by the fewest
/// unserved lines they take a free cell from). The search tries every pair
/// of every line it picks, so when it ends within its steps without one,
/// none exists; past them it gives up.
pub(crate) fn shared_pairing(
    g: &Geo,
    cell_lines: &[u128; 64],
    d: u64,
    empty: u64,
    hint: &Pairs,
    steps: u32,
) -> Sought {
    let mut sought = Sought {
        pairs: None,
        steps: 0,
        gave_up: false,
    };
    let mut live = 0u128;
    for (i, &w) in g.win[..g.nwin].iter().enumerate() {
        if w & d == 0 {
            if (w & empty).count_ones() < 2 {
                return sought;
            }
            live |= 1 << i;
        }
    }
    if hint.len > 0 {
        let mut kept = Pairs::EMPTY;
        let mut served = 0u128;
        for &(p, q) in &hint.pairs[..hint.len] {
            if empty >> p & 1 != 0 && empty >> q & 1 != 0 {
                let lines = cell_lines[p as usize] & cell_lines[q as usize] & live;
                if lines != 0 {
                    kept.push(p, q);
                    served |= lines;
                }
            }
        }
        if kept.len > 0 {
            let used = kept.cells();
            let mut search = PairSearch {
                g,
                cell_lines,
                empty,
                live,
                used,
                pairs: kept,
                steps: MEND_STEPS,
                partial: false,
            };
            let free = search.free_counts();
            let found = search.cover(live & !served, free).is_ok();
            sought.steps += MEND_STEPS - search.steps;
            if found {
                sought.pairs = Some(search.pairs);
                return sought;
            }
        }
    }
    if steps == 0 {
        sought.gave_up = true;
        return sought;
    }
    let mut search = PairSearch {
        g,
        cell_lines,
        empty,
        live,
        used: 0,
        pairs: Pairs::EMPTY,
        steps,
        partial: false,
    };
    let free = search.free_counts();
    let found = search.cover(live, free).is_ok();
    sought.steps += steps - search.steps;
    if found {
        sought.pairs = Some(search.pairs);
    } else {
        sought.gave_up = search.steps == 0 || search.partial;
    }
    sought
}

/// Each live line's number of free cells (empty, in no pair yet), as bit
/// planes: bit i of plane j is bit j of line i's count (a line holds at
/// most 20 cells). Kept so, a pair updates every count at once, and the
/// lines with a given count are a few masks away.
#[derive(Copy, Clone)]
struct FreeCounts([u128; 5]);

impl FreeCounts {
    /// The lines holding exactly `n` free cells.
    fn exactly(&self, n: u32) -> u128 {
        self.0.iter().enumerate().fold(!0, |m, (j, &plane)| {
            m & if n >> j & 1 != 0 { plane } else { !plane }
        })
    }

    /// The lines holding fewer than two free cells.
    fn below_two(&self) -> u128 {
        !(self.0[1] | self.0[2] | self.0[3] | self.0[4])
    }

    /// The counts once a pair is taken: one free cell less on the lines
    /// of `one` (holding one of its cells), two less on those of `both`
    /// (the two sets disjoint, and each line holding the cells it loses).
    fn minus(self, one: u128, both: u128) -> FreeCounts {
        let [p0, p1, p2, p3, p4] = self.0;
        let mut borrow = !p0 & one;
        let n0 = p0 ^ one;
        let sub = both | borrow;
        let n1 = p1 ^ sub;
        borrow = !p1 & sub;
        let n2 = p2 ^ borrow;
        borrow &= !p2;
        let n3 = p3 ^ borrow;
        borrow &= !p3;
        let n4 = p4 ^ borrow;
        FreeCounts([n0, n1, n2, n3, n4])
    }
}

struct PairSearch<'g> {
    g: &'g Geo,
    cell_lines: &'g [u128; 64],
    empty: u64,
    /// The live lines (the only ones counted).
    live: u128,
    /// Cells already in a pair.
    used: u64,
    pairs: Pairs,
    steps: u32,
    /// Set when a line had more pairs than the search tries (lines of
    /// more than 9 free cells): its failure then proves nothing.
    partial: bool,
}

impl PairSearch<'_> {
    /// The free cells of every live line, counted.
    fn free_counts(&self) -> FreeCounts {
        let mut planes = [0u128; 5];
        let mut rest = self.live;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let n = (self.g.win[i] & self.empty & !self.used).count_ones();
            for (j, plane) in planes.iter_mut().enumerate() {
                *plane |= ((n >> j & 1) as u128) << i;
            }
        }
        FreeCounts(planes)
    }

    /// The pairs (as bits of their places in `pairs`) holding a cell of
    /// `cells`.
    fn holders(&self, cells: u64) -> u32 {
        self.pairs.pairs[..self.pairs.len]
            .iter()
            .enumerate()
            .fold(0, |m, (t, &(p, q))| {
                m | (((cells >> p | cells >> q) & 1) as u32) << t
            })
    }

    /// Serves every line of `uncovered` with new pairs of unused cells
    /// (`free`: the live lines' free cells, counted). On failure, the
    /// pairs to blame (bits of their places in `pairs`): no pairing holds
    /// all of them. A choice not among them cannot be the cause, so the
    /// search goes straight back past it (conflict-directed backjumping):
    /// on 8x8 k=5 a dead end is mostly a few crowded lines, while the
    /// pairs chosen since elsewhere on the board would otherwise be tried
    /// in every combination first. Out of steps: every pair is blamed and
    /// `steps` is 0.
    fn cover(&mut self, uncovered: u128, free: FreeCounts) -> Result<(), u32> {
        if uncovered == 0 {
            return Ok(());
        }
        if self.steps == 0 {
            return Err(!0);
        }
        self.steps -= 1;
        // A line left with fewer than two free cells: the pairs that took
        // its other cells are to blame (none of them serves it).
        let short = free.below_two() & uncovered;
        if short != 0 {
            let i = short.trailing_zeros() as usize;
            return Err(self.holders(self.g.win[i] & self.empty));
        }
        let t = self.pairs.len;
        let before = ((1u64 << t) - 1) as u32;
        // The unserved line with the fewest free cells (the first such).
        let Some(line) = (2..=self.g.k)
            .map(|n| free.exactly(n) & uncovered)
            .find(|&m| m != 0)
        else {
            return Err(before);
        };
        let i = line.trailing_zeros() as usize;
        let free_cells = self.g.win[i] & self.empty & !self.used;
        // It must be served by a pair of its free cells: the pairs holding
        // its other cells are to blame, with those each try blames.
        let mut blame = self.holders(self.g.win[i] & self.empty & self.used);
        // Its pairs, by how many unserved lines each serves, then by how
        // few it takes a free cell from without serving them (the least
        // constraining first: 11% fewer nodes on 8x8 k=5).
        let mut options = [(0u32, 0u8, 0u8); 36];
        let mut n = 0;
        let mut p_rest = free_cells;
        while p_rest != 0 {
            let p = p_rest.trailing_zeros() as u8;
            p_rest &= p_rest - 1;
            let mut q_rest = p_rest;
            while q_rest != 0 && n < options.len() {
                let q = q_rest.trailing_zeros() as u8;
                q_rest &= q_rest - 1;
                let (lp, lq) = (self.cell_lines[p as usize], self.cell_lines[q as usize]);
                let serves = (lp & lq & uncovered).count_ones();
                let hurts = ((lp ^ lq) & uncovered).count_ones();
                // At most 128 lines: the second key fits below the first.
                let rank = serves * 256 + 255 - hurts;
                let mut j = n;
                while j > 0 && options[j - 1].0 < rank {
                    options[j] = options[j - 1];
                    j -= 1;
                }
                options[j] = (rank, p, q);
                n += 1;
            }
            if q_rest != 0 {
                // Pairs left untried: every earlier choice stays blamed.
                self.partial = true;
                blame |= before;
            }
        }
        for &(_, p, q) in &options[..n] {
            if !self.pairs.push(p, q) {
                return Err(before);
            }
            let bits = 1u64 << p | 1u64 << q;
            self.used |= bits;
            let (lp, lq) = (self.cell_lines[p as usize], self.cell_lines[q as usize]);
            let after = free.minus((lp ^ lq) & self.live, lp & lq & self.live);
            let r = self.cover(uncovered & !(lp & lq), after);
            if r.is_ok() {
                return r;
            }
            self.used &= !bits;
            self.pairs.len -= 1;
            let child = r.err().unwrap_or(!0);
            if self.steps == 0 {
                return Err(!0);
            }
            if child >> t & 1 == 0 {
                // This pair is not to blame: no other choice here helps.
                return Err(child);
            }
            blame |= child & !(1 << t);
        }
        Err(blame)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    /// Checks a pairing as the definition says, independently of the search.
    fn assert_pairing(g: &Geo, d: u64, empty: u64, pairs: &Pairs) {
        let mut seen = 0u64;
        for &(p, q) in &pairs.pairs[..pairs.len] {
            let bits = 1u64 << p | 1u64 << q;
            assert_ne!(p, q);
            assert_eq!(bits & seen, 0, "cells used twice");
            assert_eq!(bits & !empty, 0, "a pair on a taken cell");
            seen |= bits;
        }
        for &w in &g.win[..g.nwin] {
            if w & d == 0 {
                assert!(
                    pairs.pairs[..pairs.len]
                        .iter()
                        .any(|&(p, q)| w >> p & 1 != 0 && w >> q & 1 != 0),
                    "a live line without a pair: {w:#x}"
                );
            }
        }
    }

    fn geo(c: u8, r: u8, k: u8) -> Geo {
        Geo::new(&Rules::new(c, r, k).unwrap())
    }

    #[test]
    fn the_empty_5x5_k5_board_has_a_private_pairing_and_4x4_k4_none() {
        // 5,5,5: 12 lines, 24 of the 25 cells paired (the classic draw).
        let g = geo(5, 5, 5);
        let pairs = private_pairing(&g, 0, g.full).expect("5x5 k=5 pairs");
        assert_eq!(pairs.len, 12);
        assert_pairing(&g, 0, g.full, &pairs);
        // 4,4,4: 10 lines need 20 cells, there are 16.
        let g = geo(4, 4, 4);
        assert!(private_pairing(&g, 0, g.full).is_none());
        // 6,6,5: 32 lines need 64 cells, there are 36.
        let g = geo(6, 6, 5);
        assert!(private_pairing(&g, 0, g.full).is_none());
    }

    #[test]
    fn a_blocked_line_needs_no_pair() {
        // 4x4 k=4 with the defender on the main diagonal: its cells meet
        // every row, column and the diagonal, so only the anti-diagonal
        // stays live, and one pair of its cells serves it.
        let g = geo(4, 4, 4);
        let diag = 1 | 1 << 5 | 1 << 10 | 1 << 15;
        let pairs = private_pairing(&g, diag, g.full & !diag).expect("pairs");
        assert_eq!(pairs.len, 1);
        let anti = 1 << 3 | 1 << 6 | 1 << 9 | 1 << 12;
        assert_eq!(pairs.cells() & !anti, 0);
    }

    #[test]
    fn shared_pairs_serve_several_windows_where_private_ones_cannot() {
        // 9x2 k=5: 10 windows (five per row) need 20 private cells, there
        // are 18; a pair on columns 5-6 serves four windows of its row, one
        // on columns 1-2 the fifth.
        let g = geo(9, 2, 5);
        assert!(private_pairing(&g, 0, g.full).is_none());
        let lines = cell_lines(&g).unwrap();
        let pairs = shared_pairing(&g, &lines, 0, g.full, &Pairs::EMPTY, PAIRING_STEPS)
            .pairs
            .expect("9x2 k=5 shares pairs");
        assert_pairing(&g, 0, g.full, &pairs);
        assert_eq!(pairs.len, 4);
        // The empty 7x7 k=5 board has none: its 3x3 centre would need 12
        // cells for its middle rows and columns. Nor has 6x6 k=5.
        for (c, r) in [(7, 7), (6, 6)] {
            let g = geo(c, r, 5);
            let lines = cell_lines(&g).unwrap();
            assert!(
                shared_pairing(&g, &lines, 0, g.full, &Pairs::EMPTY, PAIRING_STEPS)
                    .pairs
                    .is_none(),
                "{c}x{r}"
            );
        }
    }

    #[test]
    fn a_hint_is_mended_into_a_pairing_of_the_new_position() {
        // 9x2 k=5's pairing, as a hint for positions one mark away.
        let g = geo(9, 2, 5);
        let lines = cell_lines(&g).unwrap();
        let hint = shared_pairing(&g, &lines, 0, g.full, &Pairs::EMPTY, PAIRING_STEPS)
            .pairs
            .unwrap();
        for c in 0..18 {
            let bit = 1u64 << c;
            // A defender mark kills the lines through it: the hint's other
            // pairs still serve the rest.
            let mended = pairing_near(&g, Some(&lines), bit, g.full & !bit, &hint, PAIRING_STEPS)
                .pairs
                .unwrap_or_else(|| panic!("defender on {c}"));
            assert_pairing(&g, bit, g.full & !bit, &mended);
            // An attacker mark takes a cell: whatever comes back is a
            // pairing of that position (never the broken pair).
            if let Some(p) =
                pairing_near(&g, Some(&lines), 0, g.full & !bit, &hint, PAIRING_STEPS).pairs
            {
                assert_pairing(&g, 0, g.full & !bit, &p);
            }
        }
        // A hint from another board's position (cells taken, lines dead)
        // never yields a false pairing: 7x7 k=5 has none, whatever the hint.
        let g7 = geo(7, 7, 5);
        let lines7 = cell_lines(&g7).unwrap();
        assert!(
            pairing_near(&g7, Some(&lines7), 0, g7.full, &hint, PAIRING_STEPS)
                .pairs
                .is_none()
        );
    }

    /// Whether some pairing serves every line of `lines` (window masks)
    /// with pairs of `free` cells: every pair of the line with fewest
    /// free cells tried, plainly (no backjumping, no step limit).
    fn pairing_exists(lines: &[u64], free: u64) -> bool {
        let Some(&first) = lines.iter().min_by_key(|&&w| (w & free).count_ones()) else {
            return true;
        };
        let cells = first & free;
        let mut p_rest = cells;
        while p_rest != 0 {
            let p = p_rest.trailing_zeros();
            p_rest &= p_rest - 1;
            let mut q_rest = p_rest;
            while q_rest != 0 {
                let q = q_rest.trailing_zeros();
                q_rest &= q_rest - 1;
                let pair = 1u64 << p | 1u64 << q;
                let mut unserved = [0u64; 128];
                let mut n = 0;
                for &w in lines.iter().filter(|&&w| w & pair != pair) {
                    unserved[n] = w;
                    n += 1;
                }
                if pairing_exists(&unserved[..n], free & !pair) {
                    return true;
                }
            }
        }
        false
    }

    #[test]
    fn the_shared_search_finds_a_pairing_where_one_exists_and_none_where_none_does() {
        // Positions of 5x5 k=4, 6x5 k=4 and 7x5 k=5 from a fixed sequence, against
        // a plain search: a pairing found is one, and a search that ends
        // within its steps without one (backjumping past pairs not to
        // blame) is right that none exists.
        let mut rng = crate::rng::Rng::new(0x9e37_79b9_7f4a_7c15u64);
        let mut next = |n: u64| u64::from(rng.below(n as u32));
        let (mut found, mut none) = (0, 0);
        for (c, r, k) in [(5, 5, 4), (6, 5, 4), (7, 5, 5)] {
            let g = geo(c, r, k);
            let lines = cell_lines(&g).unwrap();
            let cells = u64::from(c) * u64::from(r);
            for _ in 0..400 {
                let (mut a, mut d) = (0u64, 0u64);
                for _ in 0..2 + next(6) {
                    a |= 1 << next(cells);
                    d |= 1 << next(cells);
                }
                d &= !a;
                let empty = g.full & !(a | d);
                let mut live = [0u64; 128];
                let mut n = 0;
                for &w in g.win[..g.nwin].iter().filter(|&&w| w & d == 0) {
                    live[n] = w;
                    n += 1;
                }
                let sought = shared_pairing(&g, &lines, d, empty, &Pairs::EMPTY, 1 << 20);
                assert!(!sought.gave_up, "{c}x{r} k={k}: a:{a:#x} d:{d:#x}");
                let exists = pairing_exists(&live[..n], empty);
                assert_eq!(
                    sought.pairs.is_some(),
                    exists,
                    "{c}x{r} k={k}: a:{a:#x} d:{d:#x}"
                );
                if let Some(pairs) = sought.pairs {
                    assert_pairing(&g, d, empty, &pairs);
                    found += 1;
                } else {
                    none += 1;
                }
            }
        }
        // Both answers are met often.
        assert!(found > 100 && none > 100, "{found} found, {none} none");
    }

    #[test]
    fn free_counts_follow_the_pairs_taken() {
        // 8x8 k=5 positions from a fixed sequence: the bit-plane counts,
        // updated pair by pair as the search does, agree with the free
        // cells counted line by line.
        let g = geo(8, 8, 5);
        let lines = cell_lines(&g).unwrap();
        let mut rng = crate::rng::Rng::new(0x2545_f491_4f6c_dd1du64);
        let mut next = |n: u64| u64::from(rng.below(n as u32));
        for _ in 0..200 {
            let mut d = 0u64;
            let mut a = 0u64;
            for _ in 0..next(12) {
                d |= 1 << next(64);
                a |= 1 << next(64);
            }
            a &= !d;
            let empty = g.full & !(a | d);
            let mut live = 0u128;
            for (i, &w) in g.win[..g.nwin].iter().enumerate() {
                if w & d == 0 {
                    live |= 1 << i;
                }
            }
            let mut search = PairSearch {
                g: &g,
                cell_lines: &lines,
                empty,
                live,
                used: 0,
                pairs: Pairs::EMPTY,
                steps: 0,
                partial: false,
            };
            let mut free = search.free_counts();
            for _ in 0..12 {
                let open = empty & !search.used;
                if open.count_ones() < 2 {
                    break;
                }
                let pick = |r: u64| {
                    let mut rest = open;
                    for _ in 0..r % u64::from(open.count_ones()) {
                        rest &= rest - 1;
                    }
                    rest.trailing_zeros() as usize
                };
                let p = pick(next(64));
                let q = pick(next(64));
                if p == q {
                    continue;
                }
                search.used |= 1 << p | 1 << q;
                let (lp, lq) = (lines[p], lines[q]);
                free = free.minus((lp ^ lq) & live, lp & lq & live);
                for (i, &w) in g.win[..g.nwin].iter().enumerate() {
                    if live >> i & 1 == 0 {
                        continue;
                    }
                    let n = (w & empty & !search.used).count_ones();
                    for m in 0..=5 {
                        assert_eq!(free.exactly(m) >> i & 1 == 1, n == m, "line {i}: {n} free");
                    }
                    assert_eq!(free.below_two() >> i & 1 == 1, n < 2);
                }
            }
        }
    }

    #[test]
    fn twins_are_cells_on_the_same_live_lines() {
        // 5x1 k=3: windows 0-2, 1-3, 2-4. The defender on cell 2 kills
        // them all: no twins. On cell 4: windows 0-2 and 1-3 live; cells 1
        // and 2 lie on both, 0 only on 0-2, 3 only on 1-3.
        let g = geo(5, 1, 3);
        let lines = cell_lines(&g).unwrap();
        assert_eq!(twin_cells(&g, &lines, 0, 1 << 2), 0);
        assert_eq!(twin_cells(&g, &lines, 0, 1 << 4), 1 << 1 | 1 << 2);
        // 7x1 k=3, the defender on 3: only windows 0-2 and 4-6 stay live.
        // Cells 0, 1 and 2 lie on 0-2 alone: two of them (the first found)
        // are paired off, and the third is then dead. The same on 4-6.
        let g = geo(7, 1, 3);
        let lines = cell_lines(&g).unwrap();
        let twins = twin_cells(&g, &lines, 0, 1 << 3);
        assert_eq!(twins.count_ones(), 4);
        assert_eq!(twins & 0b111, 0b011);
        assert_eq!(twins & 0b111_0000, 0b011_0000);
    }
}
