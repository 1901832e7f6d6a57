//! The pattern board's fitted tables, apart from the code that reads
//! them: one weight per multiset of four line patterns
//! ([`MULTISETS`](crate::pattern::MULTISETS)), for the side to move and
//! for the other side.
pub(super) mod eval;
pub(super) mod order;
