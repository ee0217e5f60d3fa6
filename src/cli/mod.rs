//! The `kjson` command line: one module per subcommand.
pub mod common;
pub mod encode;
pub mod inspect;
pub mod nexmark;
