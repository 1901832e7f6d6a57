//! Table keys: the board's cells under each symmetry, and the smallest
//! Zobrist hash over them, so that symmetric positions share one record.
use super::super::geometry::Geo;
use super::pairing;
use crate::{zobrist, Mark, Square};

/// Table-key salts for the two games (so their entries never mix).
const SALT_BREAKER: u64 = 0x6D61_6B65_722D_6272;
const SALT_REAL: u64 = 0x7265_616C_2D67_616D;
/// Key bit for "the attacker is to move".
const SALT_ATTACKER_MOVES: u64 = 0x5DEE_CE66_D1CE_4E5B;

/// Board tables the searches need beyond [`Geo`].
pub(crate) struct Tables {
    pub(crate) geo: Geo,
    /// Zobrist key of a cell under each symmetry: `[sym][cell][0: attacker, 1: other]`.
    zob: [[[u64; 2]; 64]; 8],
    /// The cell each cell maps to under each symmetry, and back.
    sym_cell: [[u8; 64]; 8],
    sym_cell_inv: [[u8; 64]; 8],
    /// The windows through each cell, as bits of window numbers (only when
    /// the board has at most 128 windows, else `None`).
    pub(crate) cell_lines: Option<[u128; 64]>,
}

impl Tables {
    pub(crate) fn new(rules: &crate::Rules) -> Tables {
        let geo = Geo::new(rules);
        let mut zob = [[[0; 2]; 64]; 8];
        let mut sym_cell = [[0; 64]; 8];
        let mut sym_cell_inv = [[0; 64]; 8];
        for (s, row) in zob.iter_mut().enumerate().take(geo.nsym) {
            for (c, keys) in row.iter_mut().enumerate().take(rules.cell_count()) {
                let sq = Square::from_index(geo.sym_sq[s][c]);
                *keys = [zobrist::key(Mark::X, sq), zobrist::key(Mark::O, sq)];
                let to = geo.cell(sq) as u8;
                sym_cell[s][c] = to;
                sym_cell_inv[s][to as usize] = c as u8;
            }
        }
        let cell_lines = pairing::cell_lines(&geo);
        Tables {
            cell_lines,
            geo,
            zob,
            sym_cell,
            sym_cell_inv,
        }
    }

    /// The cell set `cells` seen under symmetry `sym` (table coordinates).
    pub(crate) fn board_to_canonical(&self, sym: usize, cells: u64) -> u64 {
        map_cells(&self.sym_cell[sym], cells)
    }

    /// The inverse of [`board_to_canonical`](Self::board_to_canonical).
    pub(crate) fn canonical_to_board(&self, sym: usize, cells: u64) -> u64 {
        map_cells(&self.sym_cell_inv[sym], cells)
    }
}

fn map_cells(map: &[u8; 64], cells: u64) -> u64 {
    let mut out = 0u64;
    let mut rest = cells;
    while rest != 0 {
        out |= 1 << map[rest.trailing_zeros() as usize];
        rest &= rest - 1;
    }
    out
}

/// The table key of (attacker marks `ka`, other marks or dead cells `kd`,
/// attacker to move) in game `MB`: the smallest hash over the board's
/// symmetries, and the symmetry that gives it.
pub(crate) fn key_of<const MB: bool>(t: &Tables, ka: u64, kd: u64, a_moves: bool) -> (u64, usize) {
    let g = &t.geo;
    let mut key = u64::MAX;
    let mut csym = 0;
    for (s, zs) in t.zob[..g.nsym].iter().enumerate() {
        let mut h = 0u64;
        let mut bits = ka;
        while bits != 0 {
            h ^= zs[bits.trailing_zeros() as usize][0];
            bits &= bits - 1;
        }
        let mut bits = kd;
        while bits != 0 {
            h ^= zs[bits.trailing_zeros() as usize][1];
            bits &= bits - 1;
        }
        if h < key {
            key = h;
            csym = s;
        }
    }
    key ^= g.salt ^ if MB { SALT_BREAKER } else { SALT_REAL };
    if a_moves {
        key ^= SALT_ATTACKER_MOVES;
    }
    (key, csym)
}
