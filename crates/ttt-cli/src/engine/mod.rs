//! The engine commands of `ttt`: one module per subcommand.
pub mod analyze;
pub mod arena;
pub mod bench;
pub mod certificate;
pub mod join;
pub mod move_cmd;
pub mod parallel_proof;
pub mod parts;
pub mod reduced;
pub mod solve;
pub mod solve_parts;
pub mod tactics;
pub mod threats;
pub mod verify;
