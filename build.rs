// Compiles the sink DDLs in schemas/ (and in $KJSON_SCHEMAS_DIR, if set) into specialized
// encoders (and their scan sides into decoders) under OUT_DIR; the work is in kjson_codegen.
use std::path::PathBuf;

use kjson_codegen::{compile_decoder_dirs, compile_schema_dirs, SchemaDir};

fn main() {
    println!("cargo:rerun-if-env-changed=KJSON_SCHEMAS_DIR");
    let mut dirs = vec![SchemaDir { path: "schemas".into(), label: "schemas".into(), module_prefix: String::new() }];
    if let Some(user) = std::env::var_os("KJSON_SCHEMAS_DIR").filter(|v| !v.is_empty()) {
        let path = PathBuf::from(user);
        dirs.push(SchemaDir { label: path.display().to_string(), path, module_prefix: "user_".into() });
    }
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for compile in [compile_schema_dirs, compile_decoder_dirs] {
        match compile(&dirs, &out_dir) {
            Ok(watched) => watched.iter().for_each(|path| println!("cargo:rerun-if-changed={}", path.display())),
            Err(message) => panic!("kjson schema compilation failed: {message}"),
        }
    }
}
