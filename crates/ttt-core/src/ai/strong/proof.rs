//! The threat searches as a judge: what they prove about a position and
//! about each of its moves, for the tactics suite (`ai::tactics`) and the
//! tools that build it. The engine's own play does not use this file.
//!
//! Every verdict comes from the searches of `threat_search/` with a node
//! cap, and says which of three things happened: a proof was found, the
//! search ran to its end without one, or the cap stopped it first.
//! "Proven" is a proof; "not found" is exact only within the searches'
//! own limits ([`MAX_FOURS`] fours in a chain, [`VCT_THREES`]
//! three-threats in a VCT line, the best 32 moves at a node), which is
//! what "exact threat search" means here.
use super::board::SearchBoard;
use super::budget::{Budget, Meter};
use super::shape::ShapeBoard;
use super::threat_search::vct::VCT_THREES;
use super::threat_search::{self, Scratch, ThreatSearch, MAX_FOURS};
use super::window::WindowBoard;
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
    judge: Judges,
}

/// The judge on the board the engine would search the position on. (The
/// variants differ in size as the boards do; `ttt-core` has no allocator
/// to box the larger, and a probe is made once per position.)
#[allow(clippy::large_enum_variant)]
enum Judges {
    Windows(Judge<WindowBoard>),
    Shapes(Judge<ShapeBoard>),
}

/// Runs `$body` with `$judge` bound to the probe's judge, whichever its
/// board.
macro_rules! with_judge {
    ($probe:expr, $judge:ident => $body:expr) => {
        match &mut $probe.judge {
            Judges::Windows($judge) => $body,
            Judges::Shapes($judge) => $body,
        }
    };
}

impl ThreatProbe {
    /// A probe of `pos`; `None` when the game is over or the threat
    /// searches do not apply to its rules.
    pub fn new(pos: &Position, max_nodes: u64) -> Option<ThreatProbe> {
        if pos.outcome().is_over() || !threat_search::applies(pos.rules()) {
            return None;
        }
        let judge = match ShapeBoard::new(pos) {
            Some(board) => Judges::Shapes(Judge::new(board, max_nodes)),
            None => Judges::Windows(Judge::new(WindowBoard::new(pos), max_nodes)),
        };
        Some(ThreatProbe { judge })
    }

    /// Nodes visited by all the searches so far.
    pub fn nodes(&self) -> u64 {
        match &self.judge {
            Judges::Windows(judge) => judge.meter.stats.nodes,
            Judges::Shapes(judge) => judge.meter.stats.nodes,
        }
    }

    /// How many empty cells complete a line for `mark`: 0, 1, or 2 for
    /// two or more.
    pub fn winning_cells(&self, mark: Mark) -> u32 {
        match &self.judge {
            Judges::Windows(judge) => judge.board.winning_cells(mark).1,
            Judges::Shapes(judge) => judge.board.winning_cells(mark).1,
        }
    }

    /// Whether `mark`, if it were to move now, wins by continuous fours
    /// (a win in one counts).
    pub fn vcf(&mut self, mark: Mark) -> Threat {
        with_judge!(self, judge => judge.vcf(mark))
    }

    /// Whether `mark`, if it were to move now, wins by continuous fours
    /// and threes (a VCF counts).
    pub fn vct(&mut self, mark: Mark) -> Threat {
        with_judge!(self, judge => judge.vct(mark))
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
        with_judge!(self, judge => judge.wins_with(sq))
    }

    /// Whether the side to move, by playing the empty `sq`, leaves the
    /// opponent no VCF. A four of its own counts with the opponent's
    /// forced block: it saves if the opponent then has no VCF even with
    /// the move, or if another move saves after it ([`DELAYS`] fours in a
    /// row at most before the defence).
    pub fn saves_with(&mut self, sq: Square) -> Threat {
        with_judge!(self, judge => judge.saves(sq, DELAYS))
    }
}

/// The threat searches' verdicts on one board.
struct Judge<B> {
    board: B,
    meter: Meter<'static>,
    scratch: Scratch,
    max_nodes: u64,
}

impl<B: SearchBoard> Judge<B> {
    fn new(board: B, max_nodes: u64) -> Judge<B> {
        Judge {
            board,
            meter: Meter::new(Budget::nodes(u64::MAX)),
            scratch: Scratch::new(),
            max_nodes,
        }
    }

    /// The threat searches on the board as it stands.
    fn threats(&mut self) -> ThreatSearch<'_, 'static, B> {
        ThreatSearch {
            board: &mut self.board,
            meter: &mut self.meter,
            scratch: &mut self.scratch,
        }
    }

    /// [`ThreatProbe::vcf`].
    fn vcf(&mut self, mark: Mark) -> Threat {
        let turn = self.board.stones().turn;
        self.board.set_turn(mark);
        let v = self.vcf_verdict();
        self.board.set_turn(turn);
        v
    }

    /// [`ThreatProbe::vct`].
    fn vct(&mut self, mark: Mark) -> Threat {
        let turn = self.board.stones().turn;
        self.board.set_turn(mark);
        let v = match self.vcf_verdict() {
            Threat::Proven => Threat::Proven,
            vcf => {
                let max_nodes = self.max_nodes;
                let found = self.threats().find_vct(VCT_THREES, max_nodes).is_some();
                self.verdict(found).or_unknown(vcf)
            }
        };
        self.board.set_turn(turn);
        v
    }

    /// Whether the side to move wins by continuous fours, as a verdict.
    fn vcf_verdict(&mut self) -> Threat {
        let max_nodes = self.max_nodes;
        let found = self.threats().find_vcf(MAX_FOURS, max_nodes).is_some();
        self.verdict(found)
    }

    /// [`ThreatProbe::wins_with`].
    fn wins_with(&mut self, sq: Square) -> Threat {
        let me = self.board.stones().turn;
        let you = me.other();
        if !self.board.stones().is_empty(sq) {
            return Threat::NotFound;
        }
        // The opponent has a four: every move but its block loses at once.
        let (block, fours) = self.board.winning_cells(you);
        if fours > 1 || block.is_some_and(|b| b != sq) {
            return Threat::NotFound;
        }
        let verdict = if self.board.apply(sq, me) {
            Threat::Proven
        } else {
            self.after_attack(me)
        };
        self.board.unapply(sq, me);
        verdict
    }

    /// [`wins_with`](Self::wins_with) once `me` has played: the opponent
    /// to move.
    fn after_attack(&mut self, me: Mark) -> Threat {
        let you = me.other();
        let (reply, mine) = self.board.winning_cells(me);
        if self.board.winning_cells(you).1 > 0 {
            // The opponent completes a line first.
            return Threat::NotFound;
        }
        if mine >= 2 {
            return Threat::Proven;
        }
        if let Some(block) = reply {
            self.board.apply(block, you);
            let v = self.vct(me);
            self.board.unapply(block, you);
            return v;
        }
        let (_, forks) = self.board.four_cells(me.index());
        if self.board.fork_cell(me, &forks).is_none() {
            return Threat::NotFound;
        }
        self.scratch.start(self.max_nodes);
        // As in the VCT search: every defence must lose, with one
        // three-threat fewer (the root allows VCT_THREES).
        let won = self.threats().vct_defend(me, VCT_THREES - 1, 1);
        self.verdict(won)
    }

    /// [`ThreatProbe::saves_with`] with at most `delays` fours first.
    fn saves(&mut self, sq: Square, delays: u32) -> Threat {
        let me = self.board.stones().turn;
        let you = me.other();
        if !self.board.stones().is_empty(sq) {
            return Threat::NotFound;
        }
        let five = self.board.apply(sq, me);
        let (block, mine) = self.board.winning_cells(me);
        let verdict = if five {
            Threat::Proven
        } else if self.board.winning_cells(you).1 > 0 {
            // The opponent completes a line.
            Threat::NotFound
        } else if mine >= 2 {
            Threat::Proven
        } else if let Some(b) = block {
            self.board.apply(b, you);
            let v = match self.vcf(you) {
                Threat::Proven if delays > 0 => self.any_saving_move(delays - 1),
                Threat::Proven => Threat::NotFound,
                v => v.negated(),
            };
            self.board.unapply(b, you);
            v
        } else {
            self.vcf(you).negated()
        };
        self.board.unapply(sq, me);
        verdict
    }

    /// Whether some empty cell saves, with at most `delays` fours first.
    fn any_saving_move(&mut self, delays: u32) -> Threat {
        let mut verdict = Threat::NotFound;
        let rules = self.board.stones().rules;
        for sq in rules.squares() {
            if !self.board.stones().is_empty(sq) {
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

    /// The verdict of the threat search just run on the scratch, given
    /// whether it reported a proof.
    fn verdict(&self, proven: bool) -> Threat {
        match (proven, self.scratch.cut_off) {
            (true, _) => Threat::Proven,
            (false, true) => Threat::Unknown,
            (false, false) => Threat::NotFound,
        }
    }
}
