// Compiles the sink DDLs in schemas/ (and in $KJSON_SCHEMAS_DIR, if set) into specialized
// encoders under OUT_DIR; the work is in kjson_codegen::compile_schema_dirs.
use std::path::PathBuf;

use kjson_codegen::{compile_schema_dirs, SchemaDir};

fn main() {
    println!("cargo:rerun-if-env-changed=KJSON_SCHEMAS_DIR");
    let mut dirs = vec![SchemaDir { path: "schemas".into(), label: "schemas".into(), module_prefix: String::new() }];
    if let Some(user) = std::env::var_os("KJSON_SCHEMAS_DIR").filter(|v| !v.is_empty()) {
        let path = PathBuf::from(user);
        dirs.push(SchemaDir { label: path.display().to_string(), path, module_prefix: "user_".into() });
    }
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    match compile_schema_dirs(&dirs, &out_dir) {
        Ok(watched) => watched.iter().for_each(|path| println!("cargo:rerun-if-changed={}", path.display())),
        Err(message) => panic!("kjson schema compilation failed: {message}"),
    }
}
