//! The engine commands of `ttt`: one module per subcommand.
pub mod analyze;
pub mod arena;
pub mod bench;
pub mod certificate;
pub mod move_cmd;
pub mod parallel_proof;
pub mod reduced;
pub mod solve;
pub mod tactics;
pub mod threats;
pub mod verify;
