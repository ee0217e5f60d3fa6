//! Flink's streaming JSON converters (`json.decode.json-parser.enabled = true`, the default):
//! each type reads the current token and moves the lexer as Flink's converter moves Jackson's
//! parser, so a field that fails under `ignore-parse-errors` leaves the lexer where Flink's
//! would be.
use super::java;
use super::lexer::{Lexer, Text, Token};
use super::temporal;
use super::tree;
use super::value::{is_text_key, MapEntries, Value};
use super::DecodeSettings;
use crate::types::{DataType, LogicalType, RowField};

pub(crate) type Converted = Result<Value, String>;

/// Converts the value at the current token (the nullable wrapper: JSON null is SQL NULL, and a
/// failure is NULL under `ignore-parse-errors`).
pub(crate) fn convert(lexer: &mut Lexer, ty: &DataType, settings: &DecodeSettings) -> Converted {
    if matches!(lexer.current(), None | Some(Token::Null)) {
        return Ok(Value::Null);
    }
    match convert_not_null(lexer, &ty.logical, settings) {
        Err(_) if settings.ignore_parse_errors => Ok(Value::Null),
        other => other,
    }
}

pub(crate) fn convert_not_null(lexer: &mut Lexer, ty: &LogicalType, settings: &DecodeSettings) -> Converted {
    let token = lexer.current().expect("a token");
    Ok(match ty {
        LogicalType::Boolean => Value::Bool(match token {
            Token::True => true,
            Token::False => false,
            _ => lexer.text_ref()?.trim().ascii().is_some_and(|t| t.eq_ignore_ascii_case("true")),
        }),
        LogicalType::TinyInt => Value::Int(integer(lexer, token, i8::MIN.into(), i8::MAX.into(), false)?),
        LogicalType::SmallInt => Value::Int(integer(lexer, token, i16::MIN.into(), i16::MAX.into(), false)?),
        LogicalType::Int | LogicalType::Interval { kind: crate::types::IntervalKind::YearMonth, .. } => {
            Value::Int(integer(lexer, token, i32::MIN.into(), i32::MAX.into(), true)?)
        }
        LogicalType::BigInt | LogicalType::Interval { .. } => {
            Value::Int(integer(lexer, token, i64::MIN.into(), i64::MAX.into(), true)?)
        }
        LogicalType::Float => Value::Float(floating(token, lexer.text_ref()?, java::float_text)?),
        LogicalType::Double => Value::Double(floating(token, lexer.text_ref()?, java::double_text)?),
        LogicalType::Decimal { precision, scale } => decimal(lexer, token, *precision, *scale)?,
        LogicalType::Char { .. } | LogicalType::VarChar { .. } => Value::Text(string(lexer, token, settings)?),
        LogicalType::Binary { .. } | LogicalType::VarBinary { .. } => Value::Bytes(binary(lexer)?),
        LogicalType::Date => {
            let text = lexer.text_ref()?;
            let text = text.ascii().ok_or_else(|| parse_error(text))?;
            Value::Date(temporal::parse_date(&text).ok_or_else(|| parse_error_str(&text))? as i32)
        }
        LogicalType::Time { .. } => {
            let text = lexer.text_ref()?;
            let text = text.ascii().ok_or_else(|| parse_error(text))?;
            let nanos = temporal::parse_sql_time(&text).ok_or_else(|| parse_error_str(&text))?;
            let millis = match settings.time_keeps_fraction {
                true => nanos / 1_000_000,
                false => nanos / 1_000_000_000 * 1000,
            };
            Value::Time(millis as i32)
        }
        LogicalType::Timestamp { .. } => timestamp(lexer, settings, false)?,
        LogicalType::TimestampLtz { .. } => timestamp(lexer, settings, true)?,
        LogicalType::Array(element) => array(lexer, token, element, settings)?,
        LogicalType::Map { key, value } => map(lexer, token, key, value, settings)?,
        LogicalType::Multiset(element) => map(lexer, token, element, &DataType::nullable(LogicalType::Int), settings)?,
        LogicalType::Row(fields) => row(lexer, fields, settings)?,
        LogicalType::Unsupported { text, .. } => return Err(format!("Unsupported type: {text}")),
    })
}

/// `getIntValue`/`getLongValue` on number tokens (floats truncated when `floats`), else
/// `parseInt(text.trim())`; TINYINT and SMALLINT are range-checked.
fn integer(lexer: &mut Lexer, token: Token, min: i128, max: i128, floats: bool) -> Result<i64, String> {
    let text = lexer.text_ref()?;
    match token {
        Token::Int => {
            let value = int_value(text).unwrap_or(i128::MAX);
            if value < min || value > max {
                return Err(format!("Numeric value ({}) out of range", text.lossy()));
            }
            Ok(value as i64)
        }
        Token::Float if floats => {
            let value = floating(token, text, java::double_text)?;
            if value < min as f64 || value > max as f64 || value.is_nan() {
                return Err(format!("Numeric value ({}) out of range", text.lossy()));
            }
            Ok(value as i64)
        }
        _ => Ok(java::parse_integer(&text.trim().to_units(), min, max)? as i64),
    }
}

/// An integer token's value straight from its bytes (a sign and digits); `None` past i128.
fn int_value(text: Text) -> Option<i128> {
    let raw = match text {
        Text::Utf8(raw) => raw,
        Text::Units(units) => return java::ascii(units)?.parse().ok(),
    };
    let (negative, digits) = match raw.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, raw),
    };
    if digits.len() > 38 || digits.is_empty() {
        return std::str::from_utf8(raw).ok()?.parse().ok();
    }
    // Up to 18 digits fit an i64: the common case, without 128-bit arithmetic.
    if digits.len() <= 18 {
        let magnitude = digits.iter().fold(0i64, |acc, &d| acc * 10 + i64::from(d - b'0'));
        return Some(i128::from(if negative { -magnitude } else { magnitude }));
    }
    let magnitude = digits.iter().fold(0i128, |acc, &d| acc * 10 + i128::from(d - b'0'));
    Some(if negative { -magnitude } else { magnitude })
}

/// `Double.parseDouble` / `Float.parseFloat` of a token's text (trimmed, ASCII only). A JSON
/// number token is already the text Rust's parser reads as Java's does (no sign `+`, suffix,
/// hex, `NaN` or `Infinity`).
fn floating<T: std::str::FromStr>(token: Token, text: Text, parse: fn(&str) -> Option<T>) -> Result<T, String> {
    if let (Token::Int | Token::Float, Text::Utf8(raw)) = (token, text) {
        if let Some(value) = std::str::from_utf8(raw).ok().and_then(|t| t.parse().ok()) {
            return Ok(value);
        }
    }
    text.trim().ascii().and_then(|t| parse(&t)).ok_or_else(|| java::number_format_text(&text.lossy()))
}

fn decimal(lexer: &mut Lexer, token: Token, precision: u8, scale: u8) -> Converted {
    let text = lexer.text_ref()?;
    let text = match token {
        Token::String => text.trim(),
        _ => text,
    };
    let unscaled = text.ascii().and_then(|t| java::unscaled(&t, precision, scale)).ok_or_else(|| parse_error(text))?;
    Ok(unscaled.map_or(Value::Null, Value::Decimal))
}

fn string(lexer: &mut Lexer, token: Token, settings: &DecodeSettings) -> Result<Vec<u8>, String> {
    match token {
        Token::StartObject | Token::StartArray => Ok(java::to_utf8(&tree::read_as_text(lexer, settings)?)),
        _ => Ok(lexer.text_ref()?.to_utf8()),
    }
}

fn binary(lexer: &mut Lexer) -> Result<Vec<u8>, String> {
    lexer.binary()
}

fn timestamp(lexer: &mut Lexer, settings: &DecodeSettings, ltz: bool) -> Converted {
    let units = lexer.text_ref()?;
    let text = units.ascii().ok_or_else(|| parse_error(units))?;
    let parsed = temporal::parse_timestamp(&text, settings.iso_timestamps, ltz).ok_or_else(|| parse_error(units))?;
    Ok(Value::Timestamp { millis: parsed.epoch_millis(), nano_of_milli: parsed.nano_of_milli() })
}

fn array(lexer: &mut Lexer, token: Token, element: &DataType, settings: &DecodeSettings) -> Converted {
    if token != Token::StartArray {
        return Err("Illegal JSON array data...".to_string());
    }
    let mut items = Vec::new();
    while lexer.next()? != Some(Token::EndArray) {
        items.push(convert(lexer, element, settings)?);
    }
    Ok(Value::List(items))
}

fn map(lexer: &mut Lexer, token: Token, key: &DataType, value: &DataType, settings: &DecodeSettings) -> Converted {
    if token != Token::StartObject {
        return Err("Illegal JSON map data...".to_string());
    }
    let text_keys = is_text_key(key);
    let mut entries = MapEntries::default();
    while lexer.next()? != Some(Token::EndObject) {
        let identity = if text_keys { Some(lexer.text_ref()?.to_units()) } else { None };
        let k = convert(lexer, key, settings)?;
        lexer.next()?;
        let v = convert(lexer, value, settings)?;
        entries.put(identity, k, v);
    }
    Ok(entries.into_value())
}

/// A row by field name: stops matching once it has as many fields as the row, skips unknown
/// names, and counts a repeated name again (as Flink does).
pub(crate) fn row(lexer: &mut Lexer, fields: &[RowField], settings: &DecodeSettings) -> Converted {
    if lexer.current() != Some(Token::StartObject) {
        return Err("Illegal JSON object data...".to_string());
    }
    let arity = fields.len();
    let mut values = vec![Value::Null; arity];
    let mut count = 0;
    lexer.next()?;
    while lexer.current() != Some(Token::EndObject) {
        if count >= arity {
            skip_to_next_field(lexer)?;
            continue;
        }
        // No current token (after a nesting-depth error) is a null name, which matches nothing.
        let matched = match lexer.current() {
            Some(_) => field_index(fields, lexer.text_ref()?),
            None => None,
        };
        lexer.next()?;
        match matched {
            Some(index) => {
                values[index] = convert(lexer, &fields[index].data_type, settings)
                    .map_err(|_| format!("Fail to deserialize at field: {}.", fields[index].name))?;
                lexer.next()?;
                count += 1;
            }
            None => skip_to_next_field(lexer)?,
        }
    }
    if count < arity && settings.fail_on_missing_field {
        return Err("Some field is missing in the JSON data.".to_string());
    }
    Ok(Value::Row(values))
}

/// The field a name is, compared as bytes when the name is its UTF-8 (no escape), else as
/// UTF-16 units (a lone surrogate matches no field name).
pub(crate) fn field_index(fields: &[RowField], name: Text) -> Option<usize> {
    match name {
        Text::Utf8(bytes) => fields.iter().position(|f| f.name.as_bytes() == bytes),
        Text::Units(units) => fields.iter().position(|f| f.name.encode_utf16().eq(units.iter().copied())),
    }
}

pub(crate) fn skip_to_next_field(lexer: &mut Lexer) -> Result<(), String> {
    lexer.skip_children()?;
    lexer.next()?;
    Ok(())
}

fn parse_error(text: Text) -> String {
    format!("Text '{}' could not be parsed", text.lossy())
}

fn parse_error_str(text: &str) -> String {
    format!("Text '{text}' could not be parsed")
}

impl DataType {
    pub(crate) fn nullable(logical: LogicalType) -> DataType {
        DataType { logical, nullable: true }
    }
}
