//! The json format's streaming decoder writing straight into the batch's columns: the same
//! moves of the lexer as `convert`'s converters (so the same values, errors and positions after
//! an error), without a `Value` per row or a buffer per string. A field or row that fails under
//! `ignore-parse-errors` is truncated back to where it started and becomes null. A side with a
//! MAP or MULTISET is read through `convert` instead, whose whole rows are checked for the null
//! keys and counts an Arrow map cannot hold.
use super::columns::Column;
use super::convert::{self, field_index, skip_to_next_field};
use super::fast;
use super::java;
use super::lexer::{Lexer, LexerBuffers, Text, Token};
use super::side::{Failure, SideReader, INSERT};
use super::tree;
use super::DecodeSettings;
use crate::types::{DataType, LogicalType, RowField};

/// Where the value side's rows go: the table's columns, and what completes a row (the key's
/// columns and the RowKind) or stands in for a null row.
pub(crate) trait RowTarget {
    /// The table's columns and how many rows they hold.
    fn columns(&mut self) -> (&mut [Column], usize);
    /// The side wrote its columns of one more row of that RowKind, or (`None`) the message gave
    /// a null row.
    fn end_row(&mut self, kind: Option<i8>) -> Result<(), Failure>;
}

/// Reads the rows of one json message into `target` (as `rows::read_rows` reads them): the
/// common case by the side's `fast` plan, else with the lexer buffers of the messages before it.
pub(crate) fn read_rows(
    reader: &SideReader,
    message: &[u8],
    target: &mut dyn RowTarget,
    buffers: &mut LexerBuffers,
) -> Result<(), Failure> {
    if let Some(plan) = &reader.fast {
        let (columns, rows) = target.columns();
        if fast::read_row(plan, message, columns) {
            return target.end_row(Some(INSERT));
        }
        reader.projection.iter().for_each(|&at| columns[at].truncate(rows));
    }
    let mut lexer = Lexer::with_buffers(message, reader.settings.limits, std::mem::take(buffers));
    let read = rows(reader, &mut lexer, target);
    *buffers = lexer.into_buffers();
    read
}

fn rows(reader: &SideReader, lexer: &mut Lexer, target: &mut dyn RowTarget) -> Result<(), Failure> {
    match lexer.next()? {
        Some(Token::StartObject) => one_row(reader, lexer, target),
        Some(Token::StartArray) if reader.settings.top_level_arrays => {
            while lexer.next()? != Some(Token::EndArray) {
                one_row(reader, lexer, target)?;
            }
            Ok(())
        }
        _ => Err(Failure::Format("No content to map due to end-of-input".to_string())),
    }
}

/// The row at the current token through the nullable wrapper: a null (or, under
/// `ignore-parse-errors`, failed) row is handed on as a null row on 2.x and dropped on 1.20.
fn one_row(reader: &SideReader, lexer: &mut Lexer, target: &mut dyn RowTarget) -> Result<(), Failure> {
    let settings = &reader.settings;
    let present = match lexer.current() {
        None | Some(Token::Null) => false,
        Some(_) => {
            let (columns, rows) = target.columns();
            let fields = Fields { types: &reader.fields, at: &reader.projection };
            match row(lexer, fields, settings, columns, rows) {
                Ok(()) => true,
                Err(_) if settings.ignore_parse_errors => {
                    reader.projection.iter().for_each(|&at| columns[at].truncate(rows));
                    false
                }
                Err(cause) => return Err(Failure::Format(cause)),
            }
        }
    };
    match present {
        true => target.end_row(Some(INSERT)),
        false if settings.top_level_arrays => target.end_row(None),
        false => Ok(()),
    }
}

/// A row's fields and the column each is written to.
#[derive(Clone, Copy)]
struct Fields<'f> {
    types: &'f [RowField],
    /// Per field, its column; empty for a nested row (field `i` is child `i`).
    at: &'f [usize],
}

impl Fields<'_> {
    fn column(&self, field: usize) -> usize {
        self.at.get(field).copied().unwrap_or(field)
    }
}

/// Converts the value at the current token into `column` (the nullable wrapper: JSON null is
/// SQL NULL, and a failure is NULL under `ignore-parse-errors`).
fn value(lexer: &mut Lexer, ty: &DataType, settings: &DecodeSettings, column: &mut Column) -> Result<(), String> {
    if matches!(lexer.current(), None | Some(Token::Null)) {
        column.push_null();
        return Ok(());
    }
    let start = column.len();
    match not_null(lexer, &ty.logical, settings, column) {
        Err(_) if settings.ignore_parse_errors => {
            column.truncate(start);
            column.push_null();
            Ok(())
        }
        other => other,
    }
}

fn not_null(lexer: &mut Lexer, ty: &LogicalType, settings: &DecodeSettings, column: &mut Column) -> Result<(), String> {
    match (ty, column) {
        (LogicalType::Char { .. } | LogicalType::VarChar { .. }, Column::Text(text)) => {
            match lexer.current() {
                Some(Token::StartObject | Token::StartArray) => {
                    java::utf8(&tree::read_as_text(lexer, settings)?, &mut text.data)
                }
                _ => match lexer.text_ref()? {
                    Text::Utf8(bytes) => text.data.extend_from_slice(bytes),
                    Text::Units(units) => java::utf8(units, &mut text.data),
                },
            }
            text.end_cell(true);
            Ok(())
        }
        (LogicalType::Array(element), Column::List(list)) => {
            if lexer.current() != Some(Token::StartArray) {
                return Err("Illegal JSON array data...".to_string());
            }
            while lexer.next()? != Some(Token::EndArray) {
                value(lexer, element, settings, &mut list.child)?;
            }
            list.end_row(list.child.len(), true);
            Ok(())
        }
        (LogicalType::Row(fields), Column::Row { valid, children }) => {
            row(lexer, Fields { types: fields, at: &[] }, settings, children, valid.len())?;
            valid.push(true);
            Ok(())
        }
        (ty, column) => {
            column.push_value(&convert::convert_not_null(lexer, ty, settings)?);
            Ok(())
        }
    }
}

/// A row by field name into `columns`, each holding `rows` rows before it (as `convert::row`:
/// unknown names skipped, matching stops once the row has as many fields as it has, and a
/// repeated name counts again and replaces the earlier value). Fields left unset are null.
fn row(
    lexer: &mut Lexer,
    fields: Fields,
    settings: &DecodeSettings,
    columns: &mut [Column],
    rows: usize,
) -> Result<(), String> {
    if lexer.current() != Some(Token::StartObject) {
        return Err("Illegal JSON object data...".to_string());
    }
    let arity = fields.types.len();
    let mut count = 0;
    lexer.next()?;
    while lexer.current() != Some(Token::EndObject) {
        if count >= arity {
            skip_to_next_field(lexer)?;
            continue;
        }
        // No current token (after a nesting-depth error) is a null name, which matches nothing.
        let matched = match lexer.current() {
            Some(_) => field_index(fields.types, lexer.text_ref()?),
            None => None,
        };
        lexer.next()?;
        let Some(index) = matched else {
            skip_to_next_field(lexer)?;
            continue;
        };
        let field = &fields.types[index];
        let column = &mut columns[fields.column(index)];
        if column.len() > rows {
            column.truncate(rows);
        }
        value(lexer, &field.data_type, settings, column)
            .map_err(|_| format!("Fail to deserialize at field: {}.", field.name))?;
        lexer.next()?;
        count += 1;
    }
    if count < arity && settings.fail_on_missing_field {
        return Err("Some field is missing in the JSON data.".to_string());
    }
    for index in 0..arity {
        let column = &mut columns[fields.column(index)];
        if column.len() == rows {
            column.push_null();
        }
    }
    Ok(())
}
