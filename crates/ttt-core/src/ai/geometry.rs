//! The board in bitboard form, shared by the exact [`Solver`](super::Solver)
//! and the [`Prover`](super::Prover): cell `i` is bit `i` of a `u64`
//! (boards of up to 64 cells), every k-cell window a mask, the symmetries as
//! cell maps.
use super::tt;
use crate::symmetry::Symmetry;
use crate::{Position, Rules, Square};

/// The board geometry in bitboard form: cell `i` is bit `i`, row-major with
/// the board's own width.
pub(crate) struct Geo {
    pub(crate) cols: u8,
    pub(crate) k: u32,
    pub(crate) full: u64,
    pub(crate) nwin: usize,
    pub(crate) win: [u64; 256],
    pub(crate) nsym: usize,
    /// Mixed into TT keys (see `tt::salt`).
    pub(crate) salt: u64,
    /// The square each cell maps to under each symmetry.
    pub(crate) sym_sq: [[u16; 64]; 8],
    /// Static ordering weight: the number of windows through the cell.
    pub(crate) weight: [u8; 64],
    pub(crate) rules: Rules,
}

impl Geo {
    pub(crate) fn new(rules: &Rules) -> Geo {
        let (cols, rows, k) = (rules.columns(), rules.rows(), rules.k());
        let cells = cols as usize * rows as usize;
        debug_assert!(cells <= 64);
        let mut g = Geo {
            cols,
            k: k as u32,
            full: if cells == 64 {
                u64::MAX
            } else {
                (1u64 << cells) - 1
            },
            nwin: 0,
            win: [0; 256],
            nsym: Symmetry::of(rules).len(),
            salt: tt::salt(rules),
            sym_sq: [[0; 64]; 8],
            weight: [0; 64],
            rules: *rules,
        };
        let dirs: &[(i8, i8)] = if k == 1 {
            &[(1, 0)]
        } else {
            &[(1, 0), (0, 1), (1, 1), (1, -1)]
        };
        for r in 0..rows as i8 {
            for c in 0..cols as i8 {
                for &(dc, dr) in dirs {
                    let (ec, er) = (c + dc * (k as i8 - 1), r + dr * (k as i8 - 1));
                    if ec < 0 || er < 0 || ec >= cols as i8 || er >= rows as i8 {
                        continue;
                    }
                    let mut mask = 0u64;
                    for i in 0..k as i8 {
                        let (cc, rr) = (c + dc * i, r + dr * i);
                        mask |= 1 << (rr as u32 * cols as u32 + cc as u32);
                    }
                    if g.nwin < 256 {
                        g.win[g.nwin] = mask;
                        g.nwin += 1;
                    }
                }
            }
        }
        for i in 0..cells {
            // By coordinates: Symmetry::apply would divide the index again.
            let (c, r) = ((i % cols as usize) as u8, (i / cols as usize) as u8);
            for (s, sym) in Symmetry::of(rules).iter().enumerate() {
                let (sc, sr) = sym.apply_coords(c, r, cols - 1, rows - 1);
                g.sym_sq[s][i] = (sr as usize * Square::STRIDE + sc as usize) as u16;
            }
            g.weight[i] = g.win[..g.nwin]
                .iter()
                .filter(|&&w| w >> i & 1 != 0)
                .count()
                .min(255) as u8;
        }
        g
    }

    #[inline]
    pub(crate) fn cell(&self, sq: Square) -> u32 {
        sq.row() as u32 * self.cols as u32 + sq.column() as u32
    }

    /// Bitboards (side to move, other side) and the symmetric hashes of `pos`.
    pub(crate) fn load(&self, pos: &Position) -> (u64, u64, [u64; 8]) {
        let stm = pos.side_to_move();
        let mut me = 0;
        let mut opp = 0;
        for sq in pos.marks(stm) {
            me |= 1 << self.cell(sq);
        }
        for sq in pos.marks(stm.other()) {
            opp |= 1 << self.cell(sq);
        }
        let mut hashes = [0; 8];
        for (h, &sym) in hashes.iter_mut().zip(Symmetry::of(&self.rules)) {
            *h = pos.hash_under(sym);
        }
        (me, opp, hashes)
    }

    /// One pass over the windows: (my winning cells, the opponent's, whether
    /// I can still make a line, whether they can, cells where I make a
    /// threat, cells where they would).
    #[inline]
    pub(crate) fn scan(&self, me: u64, opp: u64) -> Scan {
        let mut s = Scan::default();
        let k1 = self.k - 1;
        for &w in &self.win[..self.nwin] {
            let a = me & w;
            let b = opp & w;
            if b == 0 {
                s.my_live = true;
                let n = a.count_ones();
                if n == k1 {
                    s.my_win |= w & !a;
                } else if n + 1 == k1 {
                    s.my_make |= w & !a;
                }
            }
            if a == 0 {
                s.opp_live = true;
                let n = b.count_ones();
                if n == k1 {
                    s.opp_win |= w & !b;
                } else if n + 1 == k1 {
                    s.opp_make |= w & !b;
                }
            }
        }
        s
    }
}

#[derive(Copy, Clone, Default)]
pub(crate) struct Scan {
    pub(crate) my_win: u64,
    pub(crate) opp_win: u64,
    pub(crate) my_live: bool,
    pub(crate) opp_live: bool,
    pub(crate) my_make: u64,
    pub(crate) opp_make: u64,
}
