//! The runtime's integration tests in one binary, a module per file (one file's:
//! `cargo test --release -p kjson-runtime --test integration dictionary::`).
#[path = "dictionary.rs"]
mod dictionary;
#[path = "reference_rows.rs"]
mod reference_rows;
