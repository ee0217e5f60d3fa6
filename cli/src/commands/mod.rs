//! The `kjson` command line: one module per subcommand.
#[cfg(feature = "bench")]
pub mod bench;
pub mod codegen;
pub mod common;
pub mod decode;
pub mod diff;
pub mod encode;
pub mod inspect;
pub mod nexmark;
