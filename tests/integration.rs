//! The integration tests of the library in one binary, a module per file (run one file's with
//! `cargo test --release --test integration replan::`).
#[path = "generated.rs"]
mod generated;
#[path = "generated_decode.rs"]
mod generated_decode;
#[path = "jvm_carriages.rs"]
mod jvm_carriages;
#[path = "readme.rs"]
mod readme;
#[path = "replan.rs"]
mod replan;
