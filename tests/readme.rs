//! The README's Rust example is the crate's doctest (src/lib.rs), so the compiled and run code
//! is what a reader copies.
use std::path::Path;

/// The first ```rust block of a text, without its fences.
fn first_rust_block(text: &str) -> String {
    let start = text.find("```rust\n").expect("a ```rust block") + "```rust\n".len();
    let end = start + text[start..].find("```").expect("a closing fence");
    text[start..end].to_string()
}

#[test]
fn the_readme_example_is_the_crate_doctest() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let crate_docs: String = lib
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| format!("{}\n", line.strip_prefix(' ').unwrap_or(line)))
        .collect();
    assert_eq!(first_rust_block(&readme), first_rust_block(&crate_docs));
}
