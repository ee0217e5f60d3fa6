//! The C arguments of the open calls, read into Rust values. Nothing here validates the sink:
//! `SinkSpec::from_ddl` / `from_parts` do, with Flink's rules and messages.
use std::collections::BTreeMap;
use std::ffi::{c_char, CStr};

use kjson_arrow::runtime::{Compatibility, FlinkVersion, FloatSpelling, SinkParts};

use crate::status::CallError;

/// One physical column: its name and its Flink type string (`BIGINT NOT NULL`, `ROW<a INT>`).
#[repr(C)]
pub struct KjsonColumn {
    pub name: *const c_char,
    pub type_string: *const c_char,
}

/// One table option exactly as a `WITH` clause writes it (`connector`, `key.fields`,
/// `value.json.timestamp-format.standard`, ...).
#[repr(C)]
pub struct KjsonOption {
    pub key: *const c_char,
    pub value: *const c_char,
}

/// A sink table as an engine's catalog resolves it (the same parts the JNI open takes): the
/// physical columns, the primary key and the table options. kjson derives the key and value
/// projections from them with the Kafka connectors' rules, as it does for a DDL.
#[repr(C)]
pub struct KjsonSinkParts {
    /// The table's name in messages; NULL means none.
    pub table_name: *const c_char,
    pub columns: *const KjsonColumn,
    pub column_count: usize,
    /// Column names of the primary key (required by upsert-kafka); NULL when the count is 0.
    pub primary_key: *const *const c_char,
    pub primary_key_count: usize,
    pub options: *const KjsonOption,
    pub option_count: usize,
}

/// # Safety
/// `ptr` is NULL or a NUL-terminated string that lives through the call.
pub unsafe fn text(ptr: *const c_char, what: &str) -> Result<String, CallError> {
    if ptr.is_null() {
        return Err(CallError::argument(format!("{what} is NULL")));
    }
    // SAFETY: non-null, and NUL-terminated and live by the caller's contract.
    let c = unsafe { CStr::from_ptr(ptr) };
    c.to_str().map(str::to_owned).map_err(|e| CallError::argument(format!("{what} is not UTF-8: {e}")))
}

/// # Safety
/// `ptr` is NULL (only when `len` is 0) or points to `len` initialized values of `T`.
pub unsafe fn slice<'a, T>(ptr: *const T, len: usize, what: &str) -> Result<&'a [T], CallError> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(CallError::argument(format!("{what} is NULL but its length is {len}")));
    }
    if !ptr.is_aligned() {
        return Err(CallError::argument(format!("{what} is not aligned")));
    }
    // SAFETY: non-null and aligned (checked), `len` values by the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// # Safety
/// Every pointer in `parts` follows its field's contract (see [`KjsonSinkParts`]).
pub unsafe fn sink_parts(parts: &KjsonSinkParts) -> Result<SinkParts, CallError> {
    let mut sink = SinkParts::default();
    // Every block below reads pointers and lengths from `parts`, per its contract.
    if !parts.table_name.is_null() {
        // SAFETY: `table_name` is non-null here and NUL-terminated, per `parts`' contract.
        sink.table_name = unsafe { text(parts.table_name, "table_name") }?;
    }
    // SAFETY: `columns` holds `column_count` columns, per `parts`' contract.
    let columns = unsafe { slice(parts.columns, parts.column_count, "columns") }?;
    for (i, column) in columns.iter().enumerate() {
        // SAFETY: each column's name is a NUL-terminated string, per `parts`' contract.
        sink.field_names.push(unsafe { text(column.name, &format!("columns[{i}].name")) }?);
        // SAFETY: each column's type string is a NUL-terminated string, per `parts`' contract.
        sink.type_strings.push(unsafe { text(column.type_string, &format!("columns[{i}].type_string")) }?);
    }
    // SAFETY: `primary_key` holds `primary_key_count` strings, per `parts`' contract.
    let primary_key = unsafe { slice(parts.primary_key, parts.primary_key_count, "primary_key") }?;
    for (i, &name) in primary_key.iter().enumerate() {
        // SAFETY: each primary key name is a NUL-terminated string, per `parts`' contract.
        sink.primary_key.push(unsafe { text(name, &format!("primary_key[{i}]")) }?);
    }
    // SAFETY: `options` holds `option_count` options, per `parts`' contract.
    sink.options = unsafe { options(parts.options, parts.option_count, "options") }?;
    Ok(sink)
}

/// # Safety
/// As [`slice`], and every key and value a NUL-terminated string.
unsafe fn options(ptr: *const KjsonOption, len: usize, what: &str) -> Result<BTreeMap<String, String>, CallError> {
    let mut map = BTreeMap::new();
    // SAFETY: per this function's contract.
    for (i, option) in unsafe { slice(ptr, len, what) }?.iter().enumerate() {
        // SAFETY: every key is NUL-terminated, per this function's contract.
        let key = unsafe { text(option.key, &format!("{what}[{i}].key")) }?;
        // SAFETY: every value is NUL-terminated, per this function's contract.
        let value = unsafe { text(option.value, &format!("{what}[{i}].value")) }?;
        if map.insert(key.clone(), value).is_some() {
            return Err(CallError::argument(format!("{what} sets option '{key}' twice")));
        }
    }
    Ok(map)
}

/// # Safety
/// Each pointer is NULL (the default) or a NUL-terminated string.
pub unsafe fn compatibility(
    flink_version: *const c_char,
    float_spelling: *const c_char,
) -> Result<Compatibility, CallError> {
    let mut compatibility = Compatibility::default();
    if !flink_version.is_null() {
        // SAFETY: per this function's contract.
        let name = unsafe { text(flink_version, "flink_version") }?;
        compatibility.flink_version = FlinkVersion::parse(&name).ok_or_else(|| {
            CallError::argument(format!("unsupported Flink version '{name}'; supported: 1.20, 2.2, 2.3"))
        })?;
    }
    if !float_spelling.is_null() {
        // SAFETY: per this function's contract.
        let name = unsafe { text(float_spelling, "float_spelling") }?;
        compatibility.float_spelling = FloatSpelling::parse(&name).ok_or_else(|| {
            CallError::argument(format!("unsupported float spelling '{name}'; supported: jdk17, jdk19"))
        })?;
    }
    Ok(compatibility)
}
