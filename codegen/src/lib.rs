//! Code generation of schema-specialized encoders (skeleton until the code-generation issue).
//!
//! The generator will turn a `SinkSpec` into Rust source; for now it only reports that no
//! specialized encoder exists, so every spec runs on the dynamic encoder.

/// Generated source for one schema file, or `None` while code generation is not built.
pub fn generate_for_ddl(_ddl: &str) -> Option<String> {
    None
}
