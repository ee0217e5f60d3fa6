//! The `CREATE TABLE` parser and the spec built from it: never panics or hangs, and every error
//! of the parser carries a position inside the input. Errors of the spec builder (options,
//! types) carry one whenever they have one at all, which must be inside the input too.
#![no_main]
use kjson_runtime::sql::parse_create_table;
use kjson_runtime::SinkSpec;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_create_table(text) {
        Err(error) => kjson_fuzz::check_error_position(&error, text),
        Ok(_) => match SinkSpec::from_ddl(text) {
            Ok(spec) => {
                // What `kjson inspect` prints must not panic either.
                let _ = spec.describe();
            }
            Err(error) if error.position().is_some() => kjson_fuzz::check_error_position(&error, text),
            Err(_) => {}
        },
    }
});
