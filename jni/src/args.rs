//! Reads the Java arguments of `open` and `encode` into Rust values. Nothing here validates the
//! sink itself: `SinkSpec::from_parts` does that with Flink's rules and messages.
use std::collections::BTreeMap;

use arrow_array::Int8Array;
use jni::objects::{JByteArray, JObjectArray, JString};
use jni::JNIEnv;
use kjson_runtime::{Compatibility, FlinkVersion, FloatSpelling};

use super::BridgeError;

fn argument(message: String) -> BridgeError {
    BridgeError::Argument(message)
}

pub fn string(env: &mut JNIEnv<'_>, value: &JString<'_>, what: &str) -> Result<String, BridgeError> {
    if value.is_null() {
        return Err(argument(format!("{what} is null")));
    }
    Ok(env.get_string(value)?.into())
}

pub fn strings(env: &mut JNIEnv<'_>, array: &JObjectArray<'_>, what: &str) -> Result<Vec<String>, BridgeError> {
    if array.is_null() {
        return Err(argument(format!("{what} is null")));
    }
    let len = env.get_array_length(array)?;
    let mut out = Vec::with_capacity(len as usize);
    for i in 0..len {
        let element = JString::from(env.get_object_array_element(array, i)?);
        out.push(string(env, &element, &format!("{what}[{i}]"))?);
        env.delete_local_ref(element)?;
    }
    Ok(out)
}

/// An option map passed as a flat `[key0, value0, key1, value1, ...]` array.
pub fn option_map(
    env: &mut JNIEnv<'_>,
    array: &JObjectArray<'_>,
    what: &str,
) -> Result<BTreeMap<String, String>, BridgeError> {
    let flat = strings(env, array, what)?;
    if flat.len() % 2 != 0 {
        return Err(argument(format!("{what} must hold key/value pairs, found {} strings", flat.len())));
    }
    let mut map = BTreeMap::new();
    for pair in flat.chunks_exact(2) {
        if map.insert(pair[0].clone(), pair[1].clone()).is_some() {
            return Err(argument(format!("{what} sets option '{}' twice", pair[0])));
        }
    }
    Ok(map)
}

pub fn compatibility(flink_version: &str, float_spelling: &str) -> Result<Compatibility, BridgeError> {
    let flink_version = FlinkVersion::parse(flink_version)
        .ok_or_else(|| argument(format!("unsupported Flink version '{flink_version}'; supported: 1.20, 2.2, 2.3")))?;
    let float_spelling = FloatSpelling::parse(float_spelling)
        .ok_or_else(|| argument(format!("unsupported float spelling '{float_spelling}'; supported: jdk17, jdk19")))?;
    Ok(Compatibility { flink_version, float_spelling })
}

/// Flink RowKind bytes (`RowKind#toByteValue`); a null array means every row is an insert.
pub fn row_kinds(env: &mut JNIEnv<'_>, kinds: &JByteArray<'_>) -> Result<Option<Int8Array>, BridgeError> {
    if kinds.is_null() {
        return Ok(None);
    }
    let bytes = env.convert_byte_array(kinds)?;
    Ok(Some(Int8Array::from(bytes.into_iter().map(|b| b as i8).collect::<Vec<_>>())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compatibility_names_the_bad_value() {
        let ok = compatibility("2.2", "jdk19").expect("valid");
        assert_eq!(ok.flink_version, FlinkVersion::V2_2);
        assert_eq!(ok.float_spelling, FloatSpelling::Jdk19);
        let bad = compatibility("2.4", "jdk17").expect_err("2.4 is unknown");
        assert!(matches!(bad, BridgeError::Argument(m) if m.contains("'2.4'")));
        let bad = compatibility("2.3", "jdk21").expect_err("jdk21 is not a spelling");
        assert!(matches!(bad, BridgeError::Argument(m) if m.contains("'jdk21'")));
    }
}
