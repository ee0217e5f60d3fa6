//! What a record must parse back to, computed from the Arrow arrays through arrow's own
//! accessors (not the encoder's binding): field order, nulls, `encode.ignore-null-fields`, map
//! keys (Jackson's ObjectNode: a repeated key keeps its first position; its value is the last
//! one, or ROWs merged), Java's lossy UTF-8, Base64, and which rows must fail.
use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, StructArray};
use arrow_schema::{DataType as ArrowType, *};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use kjson_runtime::MapNullKeyMode;
use kjson_testkit::{BytesLayout, DayTimeLayout, Layout, StrLayout};

/// Parsed JSON that keeps object members as written, repeated keys included.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Json::Null, Json::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            members.push((key, value));
        }
        Ok(Json::Object(members))
    }
}

/// The expected value; the `Any*` forms check the JSON kind only (their spelling is covered by
/// the parity fixtures).
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    AnyNumber,
    AnyString,
    /// A float: a number, or "NaN" / "Infinity" / "-Infinity".
    AnyFloat,
    Array(Vec<Expect>),
    /// A MAP or MULTISET.
    Object(Vec<(String, Expect)>),
    /// A ROW (merges under a repeated map key, see [`merge_repeated`]).
    Row(Vec<(String, Expect)>),
}

impl Expect {
    pub fn matches(&self, json: &Json) -> bool {
        match (self, json) {
            (Expect::Null, Json::Null) => true,
            (Expect::Bool(a), Json::Bool(b)) => a == b,
            (Expect::Int(a), Json::Number(n)) => n.as_i64() == Some(*a),
            (Expect::Str(a), Json::String(b)) => a == b,
            (Expect::AnyNumber, Json::Number(_)) | (Expect::AnyString, Json::String(_)) => true,
            (Expect::AnyFloat, Json::Number(_)) => true,
            (Expect::AnyFloat, Json::String(s)) => matches!(s.as_str(), "NaN" | "Infinity" | "-Infinity"),
            (Expect::Array(a), Json::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.matches(y)),
            (Expect::Object(a) | Expect::Row(a), Json::Object(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|((ka, va), (kb, vb))| ka == kb && va.matches(vb))
            }
            _ => false,
        }
    }
}

/// The row must fail: a null map key under FAIL, or a TIME outside the day.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MustFail;

/// One side's options, as far as the expected values depend on them.
#[derive(Debug, Clone)]
pub struct SideOptions {
    pub ignore_null_fields: bool,
    pub null_key: MapNullKeyMode,
    pub literal: String,
}

type Outcome = Result<Expect, MustFail>;

/// The object written for row `row` of the projected `columns`.
pub fn record(columns: &[(&str, &dyn Array, &Layout)], row: usize, options: &SideOptions) -> Outcome {
    let mut members = Vec::new();
    for (name, array, layout) in columns {
        if array.is_null(row) && options.ignore_null_fields {
            continue;
        }
        members.push((name.to_string(), value(*array, layout, row, options)?));
    }
    Ok(Expect::Row(members))
}

/// Value `i` of `array` (null included).
/// True if the encoder must refuse the batch when it binds it, before any row: a non-null
/// Timestamp(Second) or Duration(Second) value, in any slot of its array at any depth, whose
/// milliseconds overflow an `i64` (past what Flink's `long` milliseconds hold).
pub fn refused_at_bind(data: &arrow_data::ArrayData) -> bool {
    let seconds =
        matches!(data.data_type(), ArrowType::Timestamp(TimeUnit::Second, _) | ArrowType::Duration(TimeUnit::Second));
    if seconds {
        let values = data.buffer::<i64>(0);
        if (0..data.len()).any(|i| data.is_valid(i) && values[i].checked_mul(1000).is_none()) {
            return true;
        }
    }
    data.child_data().iter().any(refused_at_bind)
}

pub fn value(array: &dyn Array, layout: &Layout, i: usize, options: &SideOptions) -> Outcome {
    if array.is_null(i) {
        return Ok(Expect::Null);
    }
    Ok(match layout {
        Layout::Bool => Expect::Bool(array.as_boolean().value(i)),
        Layout::I8 => Expect::Int(array.as_primitive::<Int8Type>().value(i).into()),
        Layout::I16 => Expect::Int(array.as_primitive::<Int16Type>().value(i).into()),
        Layout::I32 | Layout::YearMonth { interval: false } => {
            Expect::Int(array.as_primitive::<Int32Type>().value(i).into())
        }
        Layout::YearMonth { interval: true } => {
            Expect::Int(array.as_primitive::<IntervalYearMonthType>().value(i).into())
        }
        Layout::I64 | Layout::DayTime(DayTimeLayout::Millis) => Expect::Int(array.as_primitive::<Int64Type>().value(i)),
        Layout::DayTime(DayTimeLayout::Interval) => {
            let v = array.as_primitive::<IntervalDayTimeType>().value(i);
            Expect::Int(i64::from(v.days) * 86_400_000 + i64::from(v.milliseconds))
        }
        Layout::DayTime(DayTimeLayout::Duration(_)) | Layout::Decimal { .. } => Expect::AnyNumber,
        Layout::F32 | Layout::F64 => Expect::AnyFloat,
        Layout::Str { layout, .. } => Expect::Str(string_value(array, *layout, i)),
        Layout::Bytes(layout) => Expect::Str(base64(bytes_value(array, *layout, i))),
        Layout::Date32 | Layout::Date64 | Layout::Timestamp { .. } | Layout::TimestampParts { .. } => Expect::AnyString,
        Layout::Time(unit) => time_value(array, *unit, i)?,
        Layout::List { element, .. } => {
            let items = list_items(array, i);
            let values = (0..items.len()).map(|j| value(items.as_ref(), element, j, options));
            Expect::Array(values.collect::<Result<_, _>>()?)
        }
        Layout::Map { key, value: value_layout, .. } => {
            let entries = map_entries(array, i);
            map_value(&entries, *key, value_layout, options)?
        }
        Layout::Row(fields) => {
            let row = array.as_struct();
            let columns: Vec<(&str, &dyn Array, &Layout)> =
                fields.iter().zip(row.columns()).map(|(f, c)| (f.name.as_str(), c.as_ref(), &f.layout)).collect();
            record(&columns, i, options)?
        }
    })
}

fn time_value(array: &dyn Array, unit: TimeUnit, i: usize) -> Outcome {
    let millis = match unit {
        TimeUnit::Second => i64::from(array.as_primitive::<Time32SecondType>().value(i)) * 1000,
        TimeUnit::Millisecond => i64::from(array.as_primitive::<Time32MillisecondType>().value(i)),
        TimeUnit::Microsecond => array.as_primitive::<Time64MicrosecondType>().value(i) / 1000,
        TimeUnit::Nanosecond => array.as_primitive::<Time64NanosecondType>().value(i) / 1_000_000,
    };
    match (0..86_400_000).contains(&millis) {
        true => Ok(Expect::AnyString),
        false => Err(MustFail),
    }
}

fn list_items(array: &dyn Array, i: usize) -> arrow_array::ArrayRef {
    match array.data_type() {
        ArrowType::List(_) => array.as_list::<i32>().value(i),
        ArrowType::LargeList(_) => array.as_list::<i64>().value(i),
        _ => array.as_fixed_size_list().value(i),
    }
}

fn map_entries(array: &dyn Array, i: usize) -> StructArray {
    match array.data_type() {
        ArrowType::Map(..) => array.as_map().value(i),
        _ => array.as_list::<i32>().value(i).as_struct().clone(),
    }
}

fn map_value(entries: &StructArray, key: StrLayout, value_layout: &Layout, options: &SideOptions) -> Outcome {
    let (keys, values) = (entries.column(0).as_ref(), entries.column(1).as_ref());
    let mut members: Vec<(String, Expect)> = Vec::new();
    for j in 0..entries.len() {
        let name = match (keys.is_null(j), options.null_key) {
            (false, _) => string_value(keys, key, j),
            (true, MapNullKeyMode::Fail) => return Err(MustFail),
            (true, MapNullKeyMode::Drop) => continue,
            (true, MapNullKeyMode::Literal) => options.literal.clone(),
            // A mode added to the (non-exhaustive) enum needs its expectation written here first.
            (true, mode) => panic!("the fuzz oracle has no expectation for map-null-key.mode {mode:?}"),
        };
        let v = value(values, value_layout, j, options)?;
        match members.iter_mut().find(|(k, _)| *k == name) {
            Some(member) => member.1 = merge_repeated(std::mem::replace(&mut member.1, Expect::Null), v, options),
            None => members.push((name, v)),
        }
    }
    Ok(Expect::Object(members))
}

/// The node Jackson holds after converting `new` into `old` (Flink passes the node stored under
/// a repeated key as the reuse target): a ROW with `encode.ignore-null-fields` merges into a
/// stored ROW (fields it leaves out keep their values, new fields go last, nested rows merge);
/// anything else replaces it.
fn merge_repeated(old: Expect, new: Expect, options: &SideOptions) -> Expect {
    match (old, new) {
        (Expect::Row(mut stored), Expect::Row(fields)) if options.ignore_null_fields => {
            for (name, value) in fields {
                match stored.iter_mut().find(|(k, _)| *k == name) {
                    Some(member) => {
                        member.1 = merge_repeated(std::mem::replace(&mut member.1, Expect::Null), value, options)
                    }
                    None => stored.push((name, value)),
                }
            }
            Expect::Row(stored)
        }
        (_, new) => new,
    }
}

/// A string value as Java sees it: UTF-8 decoded, invalid sequences replaced by U+FFFD.
pub fn string_value(array: &dyn Array, layout: StrLayout, i: usize) -> String {
    let bytes: &[u8] = match layout {
        StrLayout::Utf8 => array.as_string::<i32>().value(i).as_bytes(),
        StrLayout::LargeUtf8 => array.as_string::<i64>().value(i).as_bytes(),
        StrLayout::Utf8View => array.as_string_view().value(i).as_bytes(),
        StrLayout::Dictionary => {
            let dictionary = array.as_dictionary::<Int32Type>();
            let key = dictionary.keys().value(i) as usize;
            return dictionary.values().as_string::<i32>().value(key).to_string();
        }
        StrLayout::Binary => array.as_binary::<i32>().value(i),
        StrLayout::LargeBinary => array.as_binary::<i64>().value(i),
        StrLayout::BinaryView => array.as_binary_view().value(i),
    };
    crate::java_utf8::java_decode(bytes)
}

fn bytes_value(array: &dyn Array, layout: BytesLayout, i: usize) -> &[u8] {
    match layout {
        BytesLayout::Binary => array.as_binary::<i32>().value(i),
        BytesLayout::LargeBinary => array.as_binary::<i64>().value(i),
        BytesLayout::BinaryView => array.as_binary_view().value(i),
        BytesLayout::Fixed(_) => array.as_fixed_size_binary().value(i),
    }
}

/// Standard Base64 with padding, as Jackson writes `byte[]`.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (k, &b)| acc | u32::from(b) << (16 - 8 * k));
        for k in 0..4 {
            match k <= chunk.len() {
                true => out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char),
                false => out.push('='),
            }
        }
    }
    out
}

/// A value row framed by a CDC format's envelope (`format` names it; `None` for plain json):
/// the insert form for INSERT / UPDATE_AFTER, the delete form for UPDATE_BEFORE / DELETE. With
/// `ignore_null_fields`, debezium-json and ogg-json drop their own null `before`/`after` member.
pub fn envelope(format: Option<&str>, ignore_null_fields: bool, retraction: bool, row: Expect) -> Expect {
    let member = |name: &str, value: Expect| (name.to_string(), value);
    let before_after = |op_name: &str, insert: &str, delete: &str| {
        let (before, after, op) = match retraction {
            false => (Expect::Null, row.clone(), insert),
            true => (row.clone(), Expect::Null, delete),
        };
        let members = [member("before", before), member("after", after), member(op_name, Expect::Str(op.into()))];
        let kept = members.into_iter().filter(|(_, v)| !(ignore_null_fields && *v == Expect::Null));
        Expect::Object(kept.collect())
    };
    let typed = |data: Expect, insert: &str, delete: &str| {
        let kind = if retraction { delete } else { insert };
        Expect::Object(vec![member("data", data), member("type", Expect::Str(kind.into()))])
    };
    match format {
        None => row,
        Some("debezium-json") => before_after("op", "c", "d"),
        Some("ogg-json") => before_after("op_type", "I", "D"),
        Some("canal-json") => typed(Expect::Array(vec![row.clone()]), "INSERT", "DELETE"),
        Some("maxwell-json") => typed(row.clone(), "insert", "delete"),
        Some(other) => panic!("no envelope for format {other}"),
    }
}
