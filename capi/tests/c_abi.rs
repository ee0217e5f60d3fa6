//! The C ABI's Rust-side tests in one binary, a module per file (one file's:
//! `cargo test --release -p kjson-capi --test c_abi null_views::`).
#[path = "decode.rs"]
mod decode;
#[path = "expected_records.rs"]
mod expected_records;
#[path = "null_views.rs"]
mod null_views;
