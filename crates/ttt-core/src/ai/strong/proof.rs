//! The threat searches as a judge: what they prove about a position and
//! about each of its moves, for the tactics suite (`ai::tactics`) and the
//! tools that build it. The engine's own play does not use this file.
//!
//! Every verdict comes from the searches of `vcf.rs` and `vct.rs` with a
//! node cap, and says which of three things happened: a proof was found,
//! the search ran to its end without one, or the cap stopped it first.
//! "Proven" is a proof; "not found" is exact only within the searches'
//! own limits ([`MAX_FOURS`] fours in a chain, [`VCT_THREES`]
//! three-threats in a VCT line, the best 32 moves at a node), which is
//! what "exact threat search" means here.
use super::vcf::{Vcf, MAX_FOURS};
use super::vct::VCT_THREES;
use super::{Budget, Engine};
use crate::{Mark, Position, Square};

/// Fours in a row a defence may start with ([`ThreatProbe::saves_with`]).
pub const DELAYS: u32 = 2;

/// A verdict of the threat searches.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Threat {
    /// A proof was found.
    Proven,
    /// The search ran to its end and found none.
    NotFound,
    /// The node cap stopped the search before it knew.
    Unknown,
}

impl Threat {
    /// The verdict on the opposite claim: a proof of "no" is a proof of
    /// "not", unknown stays unknown.
    fn negated(self) -> Threat {
        match self {
            Threat::Proven => Threat::NotFound,
            Threat::NotFound => Threat::Proven,
            Threat::Unknown => Threat::Unknown,
        }
    }

    /// This verdict, except that "not found" becomes unknown when an
    /// earlier search it builds on (`other`) did not know.
    fn or_unknown(self, other: Threat) -> Threat {
        match (self, other) {
            (Threat::NotFound, Threat::Unknown) => Threat::Unknown,
            (v, _) => v,
        }
    }
}

/// Threat searches on one position (15x15-style freestyle: k >= 4, five or
/// more wins; not renju, not "exactly k"), each search stopped after at
/// most `max_nodes` nodes. Every call leaves the position as it was; the
/// searches share a cache of positions shown to fail, so a sequence of
/// calls is deterministic but cheaper than each call alone.
pub struct ThreatProbe {
    engine: Engine<'static>,
    vcf: Vcf,
    max_nodes: u64,
}

impl ThreatProbe {
    /// A probe of `pos`; `None` when the game is over or the threat
    /// searches do not apply to its rules.
    pub fn new(pos: &Position, max_nodes: u64) -> Option<ThreatProbe> {
        if pos.outcome().is_over() {
            return None;
        }
        let mut engine = Engine::new(Budget::nodes(u64::MAX), 0);
        engine.load(pos);
        engine.vcf_applies().then(|| ThreatProbe {
            engine,
            vcf: Vcf::new(),
            max_nodes,
        })
    }

    /// Nodes visited by all the searches so far.
    pub fn nodes(&self) -> u64 {
        self.engine.stats.nodes
    }

    /// How many empty cells complete a line for `mark`: 0, 1, or 2 for
    /// two or more.
    pub fn winning_cells(&self, mark: Mark) -> u32 {
        self.engine.winning_cells(mark).1
    }

    /// Whether `mark`, if it were to move now, wins by continuous fours
    /// (a win in one counts).
    pub fn vcf(&mut self, mark: Mark) -> Threat {
        let turn = self.engine.turn;
        self.engine.turn = mark;
        let v = self.engine.vcf_verdict(&mut self.vcf, self.max_nodes);
        self.engine.turn = turn;
        v
    }

    /// Whether `mark`, if it were to move now, wins by continuous fours
    /// and threes (a VCF counts).
    pub fn vct(&mut self, mark: Mark) -> Threat {
        let turn = self.engine.turn;
        self.engine.turn = mark;
        let v = match self.engine.vcf_verdict(&mut self.vcf, self.max_nodes) {
            Threat::Proven => Threat::Proven,
            vcf => {
                let found = self
                    .engine
                    .find_vct(&mut self.vcf, VCT_THREES, self.max_nodes)
                    .is_some();
                self.verdict(found).or_unknown(vcf)
            }
        };
        self.engine.turn = turn;
        v
    }

    /// Whether the side to move wins by playing the empty `sq`, as the
    /// threat searches prove it: a five; two winning cells at once (the
    /// opponent having none); a four, after whose forced block it still
    /// wins by VCF or VCT; or a three-threat (a move after which it has a
    /// cell making two winning cells) against which every defence loses
    /// to a VCT with one three-threat fewer: the first moves of VCT lines
    /// as the engine's searches see them, tried on every cell of the
    /// board.
    pub fn wins_with(&mut self, sq: Square) -> Threat {
        let e = &mut self.engine;
        let me = e.turn;
        let you = me.other();
        if e.cells[sq.index()] != 0 {
            return Threat::NotFound;
        }
        // The opponent has a four: every move but its block loses at once.
        let (block, fours) = e.winning_cells(you);
        if fours > 1 || block.is_some_and(|b| b != sq) {
            return Threat::NotFound;
        }
        let verdict = if e.apply(sq, me) {
            Threat::Proven
        } else {
            self.after_attack(me)
        };
        self.engine.unapply(sq, me);
        verdict
    }

    /// [`wins_with`](ThreatProbe::wins_with) once `me` has played: the
    /// opponent to move.
    fn after_attack(&mut self, me: Mark) -> Threat {
        let you = me.other();
        let (reply, mine) = self.engine.winning_cells(me);
        if self.engine.winning_cells(you).1 > 0 {
            // The opponent completes a line first.
            return Threat::NotFound;
        }
        if mine >= 2 {
            return Threat::Proven;
        }
        if let Some(block) = reply {
            self.engine.apply(block, you);
            let v = self.vct(me);
            self.engine.unapply(block, you);
            return v;
        }
        let (_, forks) = self.engine.three_cells(me.index());
        if self.engine.fork_cell(me, &forks).is_none() {
            return Threat::NotFound;
        }
        self.vcf.start(self.max_nodes);
        // As in the VCT search: every defence must lose, with one
        // three-threat fewer (the root allows VCT_THREES).
        let won = self.engine.vct_defend(&mut self.vcf, me, VCT_THREES - 1, 1);
        self.verdict(won)
    }

    /// Whether the side to move, by playing the empty `sq`, leaves the
    /// opponent no VCF. A four of its own counts with the opponent's
    /// forced block: it saves if the opponent then has no VCF even with
    /// the move, or if another move saves after it ([`DELAYS`] fours in a
    /// row at most before the defence).
    pub fn saves_with(&mut self, sq: Square) -> Threat {
        self.saves(sq, DELAYS)
    }

    fn saves(&mut self, sq: Square, delays: u32) -> Threat {
        let e = &mut self.engine;
        let me = e.turn;
        let you = me.other();
        if e.cells[sq.index()] != 0 {
            return Threat::NotFound;
        }
        let five = e.apply(sq, me);
        let (block, mine) = e.winning_cells(me);
        let verdict = if five {
            Threat::Proven
        } else if e.winning_cells(you).1 > 0 {
            // The opponent completes a line.
            Threat::NotFound
        } else if mine >= 2 {
            Threat::Proven
        } else if let Some(b) = block {
            e.apply(b, you);
            let v = match self.vcf(you) {
                Threat::Proven if delays > 0 => self.any_saving_move(delays - 1),
                Threat::Proven => Threat::NotFound,
                v => v.negated(),
            };
            self.engine.unapply(b, you);
            v
        } else {
            self.vcf(you).negated()
        };
        self.engine.unapply(sq, me);
        verdict
    }

    /// Whether some empty cell saves, with at most `delays` fours first.
    fn any_saving_move(&mut self, delays: u32) -> Threat {
        let mut verdict = Threat::NotFound;
        for sq in self.engine.rules.squares() {
            if self.engine.cells[sq.index()] != 0 {
                continue;
            }
            match self.saves(sq, delays) {
                Threat::Proven => return Threat::Proven,
                Threat::Unknown => verdict = Threat::Unknown,
                Threat::NotFound => {}
            }
        }
        verdict
    }

    /// The verdict of the threat search just run on `self.vcf`, given
    /// whether it reported a proof.
    fn verdict(&self, proven: bool) -> Threat {
        match (proven, self.vcf.cut_off) {
            (true, _) => Threat::Proven,
            (false, true) => Threat::Unknown,
            (false, false) => Threat::NotFound,
        }
    }
}

impl Engine<'_> {
    /// Whether the side to move wins by continuous fours, as a verdict.
    fn vcf_verdict(&mut self, vcf: &mut Vcf, max_nodes: u64) -> Threat {
        match self.find_vcf(vcf, MAX_FOURS, max_nodes) {
            Some(_) => Threat::Proven,
            None if vcf.cut_off => Threat::Unknown,
            None => Threat::NotFound,
        }
    }
}
