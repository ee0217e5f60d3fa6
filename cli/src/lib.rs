//! The `kjson` command line's library: one module per subcommand, Arrow IPC input, and the
//! Nexmark generator that the `nexmark` and `bench` commands and the criterion benches (`bench/`)
//! feed encoders with.
pub mod commands;
pub mod input;
pub mod nexmark;
pub mod progress;
