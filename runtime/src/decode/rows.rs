//! The json format's messages read into rows: the streaming decoder and the tree decoder.
use super::convert;
use super::lexer::{Lexer, Token};
use super::node::{self, Node};
use super::node_convert;
use super::side::{Emit, Failure, SideReader, INSERT};
use super::value::Value;
use crate::types::{DataType, LogicalType, RowField};

pub(crate) fn read_rows(reader: &SideReader, message: &[u8], emit: &mut Emit) -> std::result::Result<(), Failure> {
    let settings = &reader.settings;
    let mut lexer = Lexer::new(message, settings.limits);
    let row_type = &reader.row_type;
    let mut push = |value: Value| match value {
        Value::Row(values) => match unrepresentable(reader, &reader.fields, &values) {
            Some(message) => Err(Failure::Fatal(message.into())),
            None => emit(Some((INSERT, values))),
        },
        _ if settings.top_level_arrays => emit(None),
        _ => Ok(()),
    };
    match lexer.next()? {
        Some(Token::StartObject) => push(convert::convert(&mut lexer, row_type, settings)?)?,
        Some(Token::StartArray) if settings.top_level_arrays => {
            while lexer.next()? != Some(Token::EndArray) {
                push(convert::convert(&mut lexer, row_type, settings)?)?;
            }
        }
        _ => return Err(Failure::Format("No content to map due to end-of-input".to_string())),
    }
    Ok(())
}

/// The tree decoder over `row_type` (a ROW): the whole message parsed first; a row that converts
/// to null is not handed on, and (2.x) each element of a top-level array is one row, a failing
/// one skipped under `ignore-parse-errors`.
pub(crate) fn tree_rows(
    reader: &SideReader,
    row_type: &DataType,
    message: &[u8],
    emit: &mut Emit,
) -> std::result::Result<(), Failure> {
    let settings = &reader.settings;
    let LogicalType::Row(fields) = &row_type.logical else { unreachable!("tree_rows reads a ROW") };
    let mut push = |value: Value| match value {
        Value::Row(values) => match unrepresentable(reader, fields, &values) {
            Some(message) => Err(Failure::Fatal(message.into())),
            None => emit(Some((INSERT, values))),
        },
        _ => Ok(()),
    };
    // No content at all reads as no tree, hence no row.
    let Some(root) = node::read_tree(message, settings)? else {
        return Ok(());
    };
    match root {
        Node::Array(items) if settings.top_level_arrays => {
            for item in &items {
                match node_convert::convert(Some(item), row_type, settings) {
                    Ok(value) => push(value)?,
                    Err(_) if settings.ignore_parse_errors => {}
                    Err(cause) => return Err(Failure::Format(cause)),
                }
            }
            Ok(())
        }
        root => push(node_convert::convert(Some(&root), row_type, settings)?),
    }
}

const NULL_MULTISET_COUNT: &str = "java.lang.NullPointerException: a MULTISET element count is null";

/// Only reached after a nesting-depth error: Flink's map holds the null name as a key.
const NULL_MAP_KEY: &str = "a MAP key is null (read after a nesting-depth error): an Arrow map cannot hold it";

/// Why a row Flink reads cannot go on: a null map key (never in an Arrow map), or on 1.20 a
/// null MULTISET count (Flink fails past the format).
fn unrepresentable(reader: &SideReader, fields: &[RowField], values: &[Value]) -> Option<&'static str> {
    let counts = reader.settings.multiset_null_count_fails;
    reader.has_map_like.then(|| find_null_entry(fields, values, counts)).flatten()
}

fn find_null_entry(fields: &[RowField], values: &[Value], counts: bool) -> Option<&'static str> {
    fields.iter().zip(values).find_map(|(f, v)| null_entry(&f.data_type.logical, v, counts))
}

fn null_entry(ty: &LogicalType, value: &Value, counts: bool) -> Option<&'static str> {
    let entries = |key: &LogicalType, item: &LogicalType, entries: &[(Value, Value)], multiset: bool| {
        entries.iter().find_map(|(k, v)| match (k, v) {
            (Value::Null, _) => Some(NULL_MAP_KEY),
            (_, Value::Null) if multiset && counts => Some(NULL_MULTISET_COUNT),
            _ => null_entry(key, k, counts).or_else(|| null_entry(item, v, counts)),
        })
    };
    match (ty, value) {
        (LogicalType::Multiset(element), Value::Map(map)) => entries(&element.logical, &LogicalType::Int, map, true),
        (LogicalType::Map { key, value: item }, Value::Map(map)) => entries(&key.logical, &item.logical, map, false),
        (LogicalType::Array(element), Value::List(items)) => {
            items.iter().find_map(|v| null_entry(&element.logical, v, counts))
        }
        (LogicalType::Row(fields), Value::Row(values)) => find_null_entry(fields, values, counts),
        _ => None,
    }
}
