//! A message read by a [`RowPlan`] into the batch's columns: the same values Flink's streaming
//! converters give for the common case (the same parsers run on the same text).
use super::scan::Scan;
use super::{Kind, PlanLimits, RowPlan};
use crate::decode::columns::Column;
use crate::decode::java;
use crate::decode::{base64, temporal};

/// Reads `message` as one row of `plan` into `columns`; false when it is not the common case,
/// with cells of this row possibly left in the plan's columns (the caller truncates them).
pub(crate) fn read_row(plan: &RowPlan, message: &[u8], columns: &mut [Column]) -> bool {
    let mut scan = Scan { input: message, pos: 0 };
    // What follows the object is never read, by Flink either.
    scan.eat(b'{').is_some() && row(&mut scan, plan, columns).is_some()
}

/// The members of an object after its `{`, through its `}`: each known name once, in any
/// order; unknown names with scalar values skipped; unset fields null.
pub(super) fn row(scan: &mut Scan, plan: &RowPlan, columns: &mut [Column]) -> Option<()> {
    let fields = &plan.fields;
    let limits = &plan.limits;
    let mut seen = 0u64;
    // Flink writes fields in schema order: the next one is tried first.
    let mut next = 0;
    if scan.peek()? == b'}' {
        scan.pos += 1;
    } else {
        loop {
            // Flink writes the next field's `"name":` and its value without whitespace.
            let index = match fields.get(next) {
                Some(field) if scan.eat_prefix(&field.member) => Some(next),
                _ => member_name(scan, plan)?,
            };
            scan.peek()?;
            match index {
                Some(index) => {
                    // A repeated name counts again in Flink's row: left to `direct`.
                    let bit = 1u64 << index;
                    if seen & bit != 0 {
                        return None;
                    }
                    seen |= bit;
                    let field = &fields[index];
                    value(scan, &field.kind, limits, &mut columns[field.column])?;
                    next = index + 1;
                }
                None => scan.skip_scalar(limits)?,
            }
            match scan.peek()? {
                b',' => scan.pos += 1,
                b'}' => {
                    scan.pos += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    let all = u64::MAX >> (64 - fields.len().max(1));
    if seen != all && !fields.is_empty() {
        if limits.fail_on_missing_field {
            return None;
        }
        for (index, field) in fields.iter().enumerate() {
            if seen & (1 << index) == 0 {
                columns[field.column].push_null();
            }
        }
    }
    Some(())
}

/// A member's name and colon in any other layout: the field it names, or `None` for an unknown
/// name.
fn member_name(scan: &mut Scan, plan: &RowPlan) -> Option<Option<usize>> {
    scan.eat(b'"')?;
    let name = scan.name()?;
    let index = plan.fields.iter().position(|f| *f.name == *name);
    if index.is_none() {
        unknown_name(name, &plan.limits)?;
    }
    scan.eat(b':')?;
    Some(index)
}

/// An unknown name is skipped when Jackson reads it as its bytes (valid UTF-8, not too long).
pub(super) fn unknown_name(name: &[u8], limits: &PlanLimits) -> Option<()> {
    let readable = name.len() <= limits.max_name_length && (name.is_ascii() || std::str::from_utf8(name).is_ok());
    readable.then_some(())
}

/// One value (at a non-whitespace byte) into `column`: `null`, or the token the kind reads.
fn value(scan: &mut Scan, kind: &Kind, limits: &PlanLimits, column: &mut Column) -> Option<()> {
    let byte = scan.input[scan.pos];
    if byte == b'n' {
        scan.literal(b"null")?;
        column.push_null();
        return Some(());
    }
    match kind {
        Kind::Integer { min, max } => {
            let value = scan.integer()?;
            if value < *min || value > *max {
                return None;
            }
            push_integer(column, value)
        }
        Kind::Text => {
            let Column::Text(text) = column else { return None };
            scan.eat(b'"')?;
            scan.string_into(&mut text.data, limits.max_string_length)?;
            text.end_cell(true);
            Some(())
        }
        Kind::Double | Kind::Float => floating(scan, limits, column),
        Kind::Boolean => {
            let Column::Boolean(cells) = column else { return None };
            let value = byte == b't';
            scan.literal(if value { b"true" } else { b"false" })?;
            cells.push(value);
            Some(())
        }
        Kind::Decimal { precision, scale } => {
            let text = scan.number(limits.max_number_length)?;
            // A tree's float node is a double when it is infinite on 1.20: only plain text here.
            if limits.tree && (text.len() > 64 || text.contains(['e', 'E'])) {
                return None;
            }
            match (java::unscaled(text, *precision, *scale)?, column) {
                (Some(unscaled), Column::Decimal(cells)) => cells.push(unscaled),
                (None, column @ Column::Decimal(_)) => column.push_null(),
                _ => return None,
            }
            Some(())
        }
        // A tree's text node is decoded from its units, not the raw bytes.
        Kind::Bytes if limits.tree => None,
        Kind::Bytes => {
            let Column::Bytes(bytes) = column else { return None };
            scan.eat(b'"')?;
            let (decoded, resume) = base64::decode_raw(scan.input, scan.pos);
            bytes.push(&decoded.ok()?);
            scan.pos = resume;
            Some(())
        }
        Kind::Date | Kind::Time | Kind::Timestamp { .. } => temporal_value(scan, kind, limits, column),
        Kind::Row(plan) => {
            let Column::Row { valid, children } = column else { return None };
            scan.eat(b'{')?;
            row(scan, plan, children)?;
            valid.push(true);
            Some(())
        }
        Kind::Map(item) => {
            let Column::Map(map) = column else { return None };
            scan.eat(b'{')?;
            entries(scan, item.as_deref(), limits, &mut map.child)?;
            map.end_row(map.child[0].len(), true);
            Some(())
        }
        Kind::Array(element) => {
            let Column::List(list) = column else { return None };
            scan.eat(b'[')?;
            if scan.peek()? == b']' {
                scan.pos += 1;
            } else {
                loop {
                    scan.peek()?;
                    value(scan, element, limits, &mut list.child)?;
                    match scan.peek()? {
                        b',' => scan.pos += 1,
                        b']' => {
                            scan.pos += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
            }
            list.end_row(list.child.len(), true);
            Some(())
        }
    }
}

/// DOUBLE and FLOAT from a number token. A tree holds a float token as a double node (a
/// `BigDecimal` with a DECIMAL in the row), read as FLOAT by rounding the double again; other
/// nodes are read from their text, which drops the sign of a negative zero.
fn floating(scan: &mut Scan, limits: &PlanLimits, column: &mut Column) -> Option<()> {
    let text = scan.number(limits.max_number_length)?;
    if !limits.tree {
        match column {
            Column::Float64(cells) => cells.push(text.parse().ok()?),
            Column::Float32(cells) => cells.push(text.parse().ok()?),
            _ => return None,
        }
        return Some(());
    }
    let double_node = !limits.big_decimal_floats && text.contains(['.', 'e', 'E']);
    match column {
        Column::Float64(cells) => cells.push(text.parse().ok()?),
        Column::Float32(cells) if double_node => cells.push(text.parse::<f64>().ok()? as f32),
        Column::Float32(cells) => cells.push(text.parse().ok()?),
        _ => return None,
    }
    // Left in the column for the caller to truncate.
    let mantissa = text.split(['e', 'E']).next().unwrap_or(text);
    let negative_zero = text.starts_with('-') && mantissa.bytes().all(|b| matches!(b, b'-' | b'0' | b'.'));
    (double_node || !negative_zero).then_some(())
}

/// A map's members after its `{`, through its `}`, as Flink's map converter reads them: each
/// name a STRING key, each value of `item` (a MULTISET's count for `None`). A repeated key (the
/// last value wins, in the first one's place) and a null count are left to the converter.
fn entries(scan: &mut Scan, item: Option<&Kind>, limits: &PlanLimits, columns: &mut [Column; 2]) -> Option<()> {
    let [Column::Text(keys), values] = columns else { return None };
    let first = keys.valid.len();
    if scan.peek()? == b'}' {
        scan.pos += 1;
        return Some(());
    }
    loop {
        scan.eat(b'"')?;
        let name = scan.name()?;
        unknown_name(name, limits)?;
        if (first..keys.valid.len()).any(|k| keys.cell(k) == name) {
            return None;
        }
        keys.push(name);
        scan.eat(b':')?;
        scan.peek()?;
        match item {
            Some(kind) => value(scan, kind, limits, values)?,
            None => {
                let count = scan.integer()?;
                let Column::Int32(counts) = values else { return None };
                counts.push(i32::try_from(count).ok()?);
            }
        }
        match scan.peek()? {
            b',' => scan.pos += 1,
            b'}' => {
                scan.pos += 1;
                return Some(());
            }
            _ => return None,
        }
    }
}

fn push_integer(column: &mut Column, value: i64) -> Option<()> {
    match column {
        Column::Int8(cells) => cells.push(value as i8),
        Column::Int16(cells) => cells.push(value as i16),
        Column::Int32(cells) => cells.push(value as i32),
        Column::Int64(cells) => cells.push(value),
        _ => return None,
    }
    Some(())
}

/// DATE, TIME and TIMESTAMP from a string without escapes, parsed as `direct` parses them.
fn temporal_value(scan: &mut Scan, kind: &Kind, limits: &PlanLimits, column: &mut Column) -> Option<()> {
    scan.eat(b'"')?;
    // Text that is not ASCII never parses, as `direct` finds.
    let text = scan.plain_string()?;
    match (kind, column) {
        (Kind::Date, Column::Date(cells)) => cells.push(temporal::parse_date_bytes(text)? as i32),
        (Kind::Time, Column::Time(cells)) => {
            let nanos = temporal::parse_sql_time_bytes(text)?;
            let millis = match limits.time_keeps_fraction {
                true => nanos / 1_000_000,
                false => nanos / 1_000_000_000 * 1000,
            };
            cells.push(millis as i32);
        }
        (Kind::Timestamp { ltz }, Column::Timestamp(cells)) => {
            let parsed = temporal::parse_timestamp_bytes(text, limits.iso_timestamps, *ltz)?;
            cells.push((parsed.epoch_millis(), parsed.nano_of_milli()));
        }
        _ => return None,
    }
    Some(())
}
