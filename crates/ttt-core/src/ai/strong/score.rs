//! What the search's values mean where the game is decided, and how deep
//! it may go.

/// Search values of decided games: a win whose last move is the n-th ply
/// from the root is worth `WIN - n`, a loss `-(WIN - n)`.
pub(super) const WIN: i32 = 1 << 29;
/// Values at least this large in magnitude are such wins or losses.
pub(super) const MATE_BOUND: i32 = WIN - 1024;
/// Deepest ply of the search (and of its killer table).
pub(super) const MAX_PLY: u32 = 64;
