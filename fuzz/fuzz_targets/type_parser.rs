//! The Flink type-string parser (what the JNI open call passes): never panics or hangs, every
//! error carries a position inside the input, and every parsed type prints back to a string that
//! parses to the same type.
#![no_main]
use kjson_runtime::sql::parse_type;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_type(text) {
        Ok(parsed) => {
            let printed = parsed.to_string();
            match parse_type(&printed) {
                Ok(again) => assert_eq!(again, parsed, "{text:?} printed as {printed:?}"),
                Err(e) => panic!("{text:?} printed as {printed:?}, which does not parse: {e}"),
            }
        }
        Err(error) => kjson_fuzz::check_error_position(&error, text),
    }
});
