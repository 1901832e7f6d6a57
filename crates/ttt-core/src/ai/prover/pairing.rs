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

/// Steps a [`shared_pairing`] search may take before it gives up.
/// (7x7 k=5: 32 steps 1.02M nodes, 64 0.73M, 128 0.55M, 512 0.36M; the
/// time is least at 128.)
pub(crate) const PAIRING_STEPS: u32 = 128;

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
) -> Option<Pairs> {
    private_pairing(g, d, empty).or_else(|| shared_pairing(g, cell_lines?, d, empty, hint, steps))
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
/// depth-first search of at most [`PAIRING_STEPS`] steps (the line with
/// fewest free cells first, its pairs by the lines they serve): `None`
/// means none was found, not that none exists.
pub(crate) fn shared_pairing(
    g: &Geo,
    cell_lines: &[u128; 64],
    d: u64,
    empty: u64,
    hint: &Pairs,
    steps: u32,
) -> Option<Pairs> {
    let mut live = 0u128;
    for (i, &w) in g.win[..g.nwin].iter().enumerate() {
        if w & d == 0 {
            if (w & empty).count_ones() < 2 {
                return None;
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
            let mut search = PairSearch {
                g,
                cell_lines,
                empty,
                used: kept.cells(),
                pairs: kept,
                steps: MEND_STEPS,
            };
            if search.cover(live & !served) {
                return Some(search.pairs);
            }
        }
    }
    if steps == 0 {
        return None;
    }
    let mut search = PairSearch {
        g,
        cell_lines,
        empty,
        used: 0,
        pairs: Pairs::EMPTY,
        steps,
    };
    search.cover(live).then_some(search.pairs)
}

struct PairSearch<'g> {
    g: &'g Geo,
    cell_lines: &'g [u128; 64],
    empty: u64,
    /// Cells already in a pair.
    used: u64,
    pairs: Pairs,
    steps: u32,
}

impl PairSearch<'_> {
    /// Serves every line of `uncovered` with new pairs of unused cells.
    fn cover(&mut self, uncovered: u128) -> bool {
        if uncovered == 0 {
            return true;
        }
        if self.steps == 0 {
            return false;
        }
        self.steps -= 1;
        // The unserved line with the fewest free cells.
        let mut best = (u32::MAX, 0u64);
        let mut rest = uncovered;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let free = self.g.win[i] & self.empty & !self.used;
            let n = free.count_ones();
            if n < 2 {
                return false;
            }
            if n < best.0 {
                best = (n, free);
            }
        }
        // Its pairs, by how many unserved lines each serves.
        let free = best.1;
        let mut options = [(0u32, 0u8, 0u8); 36];
        let mut n = 0;
        let mut p_rest = free;
        while p_rest != 0 {
            let p = p_rest.trailing_zeros() as u8;
            p_rest &= p_rest - 1;
            let mut q_rest = p_rest;
            while q_rest != 0 && n < options.len() {
                let q = q_rest.trailing_zeros() as u8;
                q_rest &= q_rest - 1;
                let serves = (self.both(p, q) & uncovered).count_ones();
                let mut j = n;
                while j > 0 && options[j - 1].0 < serves {
                    options[j] = options[j - 1];
                    j -= 1;
                }
                options[j] = (serves, p, q);
                n += 1;
            }
        }
        for &(_, p, q) in &options[..n] {
            if !self.pairs.push(p, q) {
                return false;
            }
            let bits = 1u64 << p | 1u64 << q;
            self.used |= bits;
            if self.cover(uncovered & !self.both(p, q)) {
                return true;
            }
            self.used &= !bits;
            self.pairs.len -= 1;
            if self.steps == 0 {
                return false;
            }
        }
        false
    }

    /// The windows holding both `p` and `q`.
    fn both(&self, p: u8, q: u8) -> u128 {
        self.cell_lines[p as usize] & self.cell_lines[q as usize]
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
            .expect("9x2 k=5 shares pairs");
        assert_pairing(&g, 0, g.full, &pairs);
        assert_eq!(pairs.len, 4);
        // The empty 7x7 k=5 board has none: its 3x3 centre would need 12
        // cells for its middle rows and columns. Nor has 6x6 k=5.
        for (c, r) in [(7, 7), (6, 6)] {
            let g = geo(c, r, 5);
            let lines = cell_lines(&g).unwrap();
            assert!(
                shared_pairing(&g, &lines, 0, g.full, &Pairs::EMPTY, PAIRING_STEPS).is_none(),
                "{c}x{r}"
            );
        }
    }

    #[test]
    fn a_hint_is_mended_into_a_pairing_of_the_new_position() {
        // 9x2 k=5's pairing, as a hint for positions one mark away.
        let g = geo(9, 2, 5);
        let lines = cell_lines(&g).unwrap();
        let hint = shared_pairing(&g, &lines, 0, g.full, &Pairs::EMPTY, PAIRING_STEPS).unwrap();
        for c in 0..18 {
            let bit = 1u64 << c;
            // A defender mark kills the lines through it: the hint's other
            // pairs still serve the rest.
            let mended = pairing_near(&g, Some(&lines), bit, g.full & !bit, &hint, PAIRING_STEPS)
                .unwrap_or_else(|| panic!("defender on {c}"));
            assert_pairing(&g, bit, g.full & !bit, &mended);
            // An attacker mark takes a cell: whatever comes back is a
            // pairing of that position (never the broken pair).
            if let Some(p) = pairing_near(&g, Some(&lines), 0, g.full & !bit, &hint, PAIRING_STEPS)
            {
                assert_pairing(&g, 0, g.full & !bit, &p);
            }
        }
        // A hint from another board's position (cells taken, lines dead)
        // never yields a false pairing: 7x7 k=5 has none, whatever the hint.
        let g7 = geo(7, 7, 5);
        let lines7 = cell_lines(&g7).unwrap();
        assert!(pairing_near(&g7, Some(&lines7), 0, g7.full, &hint, PAIRING_STEPS).is_none());
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
