// Compiles the DDLs in schemas/ into specialized encoders (see kjson-codegen).
// Until the code-generation issue lands this only declares what it watches.
fn main() {
    println!("cargo:rerun-if-changed=schemas");
    println!("cargo:rerun-if-env-changed=KJSON_SCHEMAS_DIR");
}
