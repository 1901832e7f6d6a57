//! The engine commands of `ttt`: one module per subcommand.
pub mod analyze;
pub mod arena;
pub mod bench;
pub mod move_cmd;
pub mod solve;
