//! Flink's tree converters (`JsonToRowDataConverters`): each SQL type read from a node of the
//! message's Jackson tree. The tree decoder and every CDC format use them.
use super::java::{self, BigDecimal};
use super::node::Node;
use super::temporal;
use super::value::{is_text_key, MapEntries, Value};
use super::DecodeSettings;
use crate::types::{DataType, IntervalKind, LogicalType, RowField};

pub(crate) type Converted = Result<Value, String>;

/// The nullable wrapper: a missing node or JSON null is NULL, and a failure is NULL under
/// `ignore-parse-errors`.
pub(crate) fn convert(node: Option<&Node>, ty: &DataType, settings: &DecodeSettings) -> Converted {
    let Some(node) = node.filter(|n| **n != Node::Null) else {
        return Ok(Value::Null);
    };
    match convert_not_null(node, &ty.logical, settings) {
        Err(_) if settings.ignore_parse_errors => Ok(Value::Null),
        other => other,
    }
}

fn convert_not_null(node: &Node, ty: &LogicalType, settings: &DecodeSettings) -> Converted {
    // A text node's own units, borrowed.
    let text = || match node {
        Node::Text(units) => std::borrow::Cow::Borrowed(units.as_slice()),
        _ => std::borrow::Cow::Owned(node.as_text(settings)),
    };
    Ok(match ty {
        LogicalType::Boolean => Value::Bool(match node {
            Node::Bool(b) => *b,
            _ => java::ascii(java::trim(&text())).is_some_and(|t| t.eq_ignore_ascii_case("true")),
        }),
        LogicalType::TinyInt => {
            Value::Int(java::parse_integer(java::trim(&text()), i8::MIN.into(), i8::MAX.into())? as i64)
        }
        LogicalType::SmallInt => {
            Value::Int(java::parse_integer(java::trim(&text()), i16::MIN.into(), i16::MAX.into())? as i64)
        }
        LogicalType::Int | LogicalType::Interval { kind: IntervalKind::YearMonth, .. } => {
            Value::Int(integer(node, settings, i32::MIN.into(), i32::MAX.into())?)
        }
        LogicalType::BigInt | LogicalType::Interval { .. } => {
            Value::Int(integer(node, settings, i64::MIN.into(), i64::MAX.into())?)
        }
        LogicalType::Double => Value::Double(match node {
            Node::Double(v) => *v,
            _ => java::parse_double(&text())?,
        }),
        LogicalType::Float => Value::Float(match node {
            // `(float) asDouble()`: rounded twice.
            Node::Double(v) => *v as f32,
            _ => java::parse_float(&text())?,
        }),
        LogicalType::Decimal { precision, scale } => {
            let decimal = match node {
                Node::Decimal(d) => d.clone(),
                // `new BigDecimal(asText())`, not trimmed.
                _ => java::ascii(&text()).and_then(|t| BigDecimal::parse(&t)).ok_or_else(|| not_parsed(&text()))?,
            };
            decimal.to_unscaled(*precision, *scale).map_or(Value::Null, Value::Decimal)
        }
        LogicalType::Char { .. } | LogicalType::VarChar { .. } => Value::Text(match node {
            Node::Object(_) | Node::Array(_) => {
                let mut json = Vec::new();
                node.to_json(settings, &mut json);
                java::to_utf8(&json)
            }
            _ => java::to_utf8(&text()),
        }),
        // `binaryValue()`: base64 of a text node, null for every other node.
        LogicalType::Binary { .. } | LogicalType::VarBinary { .. } => match node {
            Node::Text(units) => Value::Bytes(super::base64::decode(units)?),
            _ => Value::Null,
        },
        LogicalType::Date => {
            let units = text();
            let day = java::ascii(&units).and_then(|t| temporal::parse_date(&t)).ok_or_else(|| not_parsed(&units))?;
            Value::Date(day as i32)
        }
        LogicalType::Time { .. } => {
            let units = text();
            let nanos =
                java::ascii(&units).and_then(|t| temporal::parse_sql_time(&t)).ok_or_else(|| not_parsed(&units))?;
            Value::Time(match settings.time_keeps_fraction {
                true => nanos / 1_000_000,
                false => nanos / 1_000_000_000 * 1000,
            } as i32)
        }
        LogicalType::Timestamp { .. } | LogicalType::TimestampLtz { .. } => {
            let ltz = matches!(ty, LogicalType::TimestampLtz { .. });
            let units = text();
            let parsed = java::ascii(&units)
                .and_then(|t| temporal::parse_timestamp(&t, settings.iso_timestamps, ltz))
                .ok_or_else(|| not_parsed(&units))?;
            Value::Timestamp { millis: parsed.epoch_millis(), nano_of_milli: parsed.nano_of_milli() }
        }
        LogicalType::Array(element) => match node {
            Node::Array(items) => {
                Value::List(items.iter().map(|item| convert(Some(item), element, settings)).collect::<Result<_, _>>()?)
            }
            _ => return Err("class cannot be cast to class ArrayNode".to_string()),
        },
        LogicalType::Map { key, value } => map(node, key, value, settings)?,
        LogicalType::Multiset(element) => map(node, element, &DataType::nullable(LogicalType::Int), settings)?,
        LogicalType::Row(fields) => row(node, fields, settings)?,
        LogicalType::Unsupported { text, .. } => return Err(format!("Unsupported type: {text}")),
    })
}

/// `canConvertToInt()`/`canConvertToLong()` then `asInt()`/`asLong()` (numbers in range,
/// fractions truncated), else `parseInt(asText().trim())`.
fn integer(node: &Node, settings: &DecodeSettings, min: i128, max: i128) -> Result<i64, String> {
    match node {
        Node::Integer(v) if (min..=max).contains(v) => Ok(*v as i64),
        Node::Double(v) if *v >= min as f64 && *v <= max as f64 => Ok(*v as i64),
        Node::Decimal(d) if decimal_within(d, min, max) => Ok(truncated(d) as i64),
        _ => Ok(java::parse_integer(java::trim(&node.as_text(settings)), min, max)? as i64),
    }
}

/// `compareTo` against both bounds; a stripped decimal with a positive scale has a fraction.
fn decimal_within(d: &BigDecimal, min: i128, max: i128) -> bool {
    let t = truncated(d);
    let fraction = d.scale > 0;
    (t > min && t < max) || (t == max && (!fraction || d.negative)) || (t == min && (!fraction || !d.negative))
}

/// A decimal's integer part (toward zero), saturated beyond i128.
fn truncated(d: &BigDecimal) -> i128 {
    let keep = d.digits.len() as i64 - d.scale.max(0);
    if keep <= 0 {
        return 0;
    }
    let mut value: i128 = 0;
    for &digit in d.digits.iter().take(keep as usize) {
        value = value.saturating_mul(10).saturating_add(i128::from(digit));
    }
    for _ in 0..(-d.scale).max(0) {
        value = value.saturating_mul(10);
    }
    if d.negative {
        -value
    } else {
        value
    }
}

/// `jsonNode.fields()`: the members of an object, none for any other node.
fn map(node: &Node, key: &DataType, value: &DataType, settings: &DecodeSettings) -> Converted {
    let text_keys = is_text_key(key);
    let mut entries = MapEntries::default();
    if let Node::Object(members) = node {
        for (name, item) in members {
            let k = convert(Some(&Node::Text(name.clone())), key, settings)?;
            let v = convert(Some(item), value, settings)?;
            entries.put(text_keys.then(|| name.clone()), k, v);
        }
    }
    Ok(entries.into_value())
}

/// A row by field name from an object node.
pub(crate) fn row(node: &Node, fields: &[RowField], settings: &DecodeSettings) -> Converted {
    if !matches!(node, Node::Object(_)) {
        return Err("class cannot be cast to class ObjectNode".to_string());
    }
    let mut values = Vec::with_capacity(fields.len());
    for field in fields {
        let child = node.get(&field.name);
        if child.is_none() && settings.fail_on_missing_field {
            return Err(format!("Could not find field with name '{}'.", field.name));
        }
        values.push(convert(child, &field.data_type, settings)?);
    }
    Ok(Value::Row(values))
}

fn not_parsed(units: &[u16]) -> String {
    format!("Text '{}' could not be parsed", String::from_utf16_lossy(units))
}
