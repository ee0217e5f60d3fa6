//! Nothing but a home for the criterion benches (`benches/encode.rs`, `cargo bench -p kjson-bench`),
//! whose dev-dependencies the CLI's test builds then leave out.
