//! A message read by a [`RowPlan`] into the batch's columns: the same values Flink's streaming
//! converters give for the common case (the same parsers run on the same text). The row loop
//! and the readers of single values are shared with the generated decoders
//! (`decode::generated_support`), which fix each field's reader at compile time.
use super::scan::{Prefix, Scan};
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

/// A row's fields as the row loop needs them: a plan's, or a generated decoder's constants.
pub(crate) trait Fields {
    fn count(&self) -> usize;
    /// Field `index`'s `"name":`.
    fn member(&self, index: usize) -> &Prefix;
    /// The column field `index` writes.
    fn column(&self, index: usize) -> usize;
    /// Field `index`'s value (at a non-whitespace byte) into its column of `columns`.
    fn value(&self, index: usize, scan: &mut Scan, limits: &PlanLimits, columns: &mut [Column]) -> Option<()>;
}

impl Fields for RowPlan {
    fn count(&self) -> usize {
        self.fields.len()
    }

    fn member(&self, index: usize) -> &Prefix {
        &self.fields[index].member
    }

    fn column(&self, index: usize) -> usize {
        self.fields[index].column
    }

    #[inline]
    fn value(&self, index: usize, scan: &mut Scan, limits: &PlanLimits, columns: &mut [Column]) -> Option<()> {
        let field = &self.fields[index];
        value(scan, &field.kind, limits, &mut columns[field.column])
    }
}

/// The members of an object after its `{`, through its `}` (see [`fields_row`]).
pub(super) fn row(scan: &mut Scan, plan: &RowPlan, columns: &mut [Column]) -> Option<u64> {
    object(scan, plan, columns, Unknown::Any)
}

/// As [`row`], for canal's and maxwell's `old` rows.
pub(super) fn old_row(scan: &mut Scan, plan: &RowPlan, columns: &mut [Column]) -> Option<u64> {
    object(scan, plan, columns, Unknown::Scalar)
}

/// A generated decoder's reader of a row object (see [`object`]).
pub(crate) type ReadObject = fn(&mut Scan, &PlanLimits, &mut [Column], Unknown) -> Option<u64>;

/// A row object of `plan`, read by the plan's generated reader where it has one (the same row
/// loop and readers, each field's reader fixed at compile time).
#[inline]
fn object(scan: &mut Scan, plan: &RowPlan, columns: &mut [Column], unknown: Unknown) -> Option<u64> {
    match &plan.generated {
        Some(generated) => (generated.row)(scan, &plan.limits, columns, unknown),
        None => fields_row(scan, plan, &plan.limits, columns, unknown),
    }
}

/// The values of an object's unknown members the row loop skips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unknown {
    /// Any JSON value.
    Any,
    /// Strings, numbers and literals: canal's and maxwell's `old`, where Flink looks a field's
    /// name up at any depth (`findValue`), so a nested value could name a field.
    Scalar,
}

/// The members of an object after its `{`, through its `}`: each known name once, in any
/// order; unknown members skipped (any value); unset fields null. Gives the fields the
/// object named (bit `k` for field `k`).
#[inline]
pub(crate) fn fields_row<F: Fields>(
    scan: &mut Scan,
    fields: &F,
    limits: &PlanLimits,
    columns: &mut [Column],
    unknown: Unknown,
) -> Option<u64> {
    if scan.peek()? == b'}' {
        scan.pos += 1;
        return unset_fields(fields, limits, columns, 0);
    }
    // Flink writes every field in schema order, its `"name":` and value without whitespace: read
    // so while they come (a loop of a constant count for a generated row, which the compiler
    // unrolls into straight code), then as `members` reads any order.
    let mut index = 0;
    while index < fields.count() {
        if !scan.eat_prefix(fields.member(index)) {
            break;
        }
        scan.peek()?;
        fields.value(index, scan, limits, columns)?;
        index += 1;
        match scan.peek()? {
            b',' => scan.pos += 1,
            b'}' => {
                scan.pos += 1;
                return unset_fields(fields, limits, columns, low_bits(index));
            }
            _ => return None,
        }
    }
    members(scan, fields, limits, columns, (low_bits(index), index), unknown)
}

/// The first `count` bits.
fn low_bits(count: usize) -> u64 {
    u64::MAX.checked_shr(64 - count as u32).unwrap_or(0)
}

/// The rest of an object's members, from a member's name on, with the fields `seen` so far and
/// the `next` one expected.
fn members<F: Fields>(
    scan: &mut Scan,
    fields: &F,
    limits: &PlanLimits,
    columns: &mut [Column],
    (mut seen, mut next): (u64, usize),
    unknown: Unknown,
) -> Option<u64> {
    loop {
        let index = match next < fields.count() && scan.eat_prefix(fields.member(next)) {
            true => Some(next),
            false => member_name(scan, fields, limits)?,
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
                fields.value(index, scan, limits, columns)?;
                next = index + 1;
            }
            None if unknown == Unknown::Any => scan.skip_value(limits, 0)?,
            None => scan.skip_scalar(limits)?,
        }
        match scan.peek()? {
            b',' => scan.pos += 1,
            b'}' => {
                scan.pos += 1;
                return unset_fields(fields, limits, columns, seen);
            }
            _ => return None,
        }
    }
}

/// The fields not `seen` set null, or (`fail-on-missing-field`) not the common case; gives `seen`.
fn unset_fields<F: Fields>(fields: &F, limits: &PlanLimits, columns: &mut [Column], seen: u64) -> Option<u64> {
    let count = fields.count();
    if seen == low_bits(count) {
        return Some(seen);
    }
    if limits.fail_on_missing_field {
        return None;
    }
    for index in (0..count).filter(|index| seen & (1 << index) == 0) {
        columns[fields.column(index)].push_null();
    }
    Some(seen)
}

/// A member's name and colon in any other layout: the field it names, or `None` for an unknown
/// name.
fn member_name<F: Fields>(scan: &mut Scan, fields: &F, limits: &PlanLimits) -> Option<Option<usize>> {
    scan.eat(b'"')?;
    let name = scan.name()?;
    // A member is `"name":`: the name is between the quotes.
    let index = (0..fields.count()).find(|&i| {
        let member = fields.member(i).bytes();
        member.len() == name.len() + 3 && member[1..=name.len()] == *name
    });
    if index.is_none() {
        unknown_name(name, limits)?;
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
    if null(scan, column)? {
        return Some(());
    }
    match kind {
        Kind::Integer { min, max } => integer(scan, *min, *max, column),
        Kind::Text => text(scan, limits, column),
        Kind::Double | Kind::Float => floating(scan, limits, column),
        Kind::Boolean => boolean(scan, column),
        Kind::Decimal { precision, scale } => decimal(scan, *precision, *scale, limits, column),
        Kind::Bytes => bytes(scan, limits, column),
        Kind::Date => date(scan, column),
        Kind::Time => time(scan, limits, column),
        Kind::Timestamp { ltz } => timestamp(scan, *ltz, limits, column),
        Kind::Row(plan) => {
            let Column::Row { valid, children } = column else { return None };
            scan.eat(b'{')?;
            row(scan, plan, children)?;
            valid.push(true);
            Some(())
        }
        Kind::Map(None) => map(scan, limits, column, multiset_count),
        Kind::Map(Some(item)) => map(scan, limits, column, |scan, values| value(scan, item, limits, values)),
        Kind::Array(element) => array(scan, column, |scan, items| value(scan, element, limits, items)),
    }
}

/// A `null` token (true, a null cell pushed) or the start of another value (false).
#[inline(always)]
pub(crate) fn null(scan: &mut Scan, column: &mut Column) -> Option<bool> {
    if scan.input[scan.pos] != b'n' {
        return Some(false);
    }
    scan.literal(b"null")?;
    column.push_null();
    Some(true)
}

/// An integer column (TINYINT to BIGINT, the intervals) of range `min..=max`.
#[inline(always)]
pub(crate) fn integer(scan: &mut Scan, min: i64, max: i64, column: &mut Column) -> Option<()> {
    let value = scan.integer()?;
    if value < min || value > max {
        return None;
    }
    push_integer(column, value)
}

#[inline(always)]
pub(crate) fn text(scan: &mut Scan, limits: &PlanLimits, column: &mut Column) -> Option<()> {
    let Column::Text(text) = column else { return None };
    scan.eat(b'"')?;
    scan.string_into(&mut text.data, limits.max_string_length)?;
    text.end_cell(true);
    Some(())
}

#[inline(always)]
pub(crate) fn boolean(scan: &mut Scan, column: &mut Column) -> Option<()> {
    let Column::Boolean(cells) = column else { return None };
    let value = scan.input[scan.pos] == b't';
    scan.literal(if value { b"true" } else { b"false" })?;
    cells.push(value);
    Some(())
}

pub(crate) fn decimal(
    scan: &mut Scan,
    precision: u8,
    scale: u8,
    limits: &PlanLimits,
    column: &mut Column,
) -> Option<()> {
    let text = scan.number(limits.max_number_length)?;
    // A tree's float node is a double when it is infinite on 1.20: only plain text here.
    if limits.tree && (text.len() > 64 || text.contains(['e', 'E'])) {
        return None;
    }
    match (java::unscaled(text, precision, scale)?, column) {
        (Some(unscaled), Column::Decimal(cells)) => cells.push(unscaled),
        (None, column @ Column::Decimal(_)) => column.push_null(),
        _ => return None,
    }
    Some(())
}

/// BINARY and VARBINARY from a streaming string (Base64). A tree's text node is decoded from
/// its units, not the raw bytes: never read here.
pub(crate) fn bytes(scan: &mut Scan, limits: &PlanLimits, column: &mut Column) -> Option<()> {
    let Column::Bytes(bytes) = column else { return None };
    if limits.tree {
        return None;
    }
    scan.eat(b'"')?;
    let (decoded, resume) = base64::decode_raw(scan.input, scan.pos);
    bytes.push(&decoded.ok()?);
    scan.pos = resume;
    Some(())
}

/// An ARRAY after its `[`'s position: each element by `item` into the list's child column.
#[inline(always)]
pub(crate) fn array(
    scan: &mut Scan,
    column: &mut Column,
    mut item: impl FnMut(&mut Scan, &mut Column) -> Option<()>,
) -> Option<()> {
    let Column::List(list) = column else { return None };
    scan.eat(b'[')?;
    if scan.peek()? == b']' {
        scan.pos += 1;
    } else {
        loop {
            scan.peek()?;
            item(scan, &mut list.child)?;
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

/// A MAP with STRING keys or a MULTISET of STRING: each member's value by `item`.
#[inline(always)]
pub(crate) fn map(
    scan: &mut Scan,
    limits: &PlanLimits,
    column: &mut Column,
    item: impl FnMut(&mut Scan, &mut Column) -> Option<()>,
) -> Option<()> {
    let Column::Map(map) = column else { return None };
    scan.eat(b'{')?;
    entries(scan, limits, &mut map.child, item)?;
    map.end_row(map.child[0].len(), true);
    Some(())
}

/// A MULTISET's count: an INT token (a null count is left to the converter).
pub(crate) fn multiset_count(scan: &mut Scan, counts: &mut Column) -> Option<()> {
    let count = scan.integer()?;
    let Column::Int32(counts) = counts else { return None };
    counts.push(i32::try_from(count).ok()?);
    Some(())
}

/// DOUBLE and FLOAT from a number token. A tree holds a float token as a double node (a
/// `BigDecimal` with a DECIMAL in the row), read as FLOAT by rounding the double again; other
/// nodes are read from their text, which drops the sign of a negative zero.
pub(crate) fn floating(scan: &mut Scan, limits: &PlanLimits, column: &mut Column) -> Option<()> {
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
/// name a STRING key, each value read by `item`. A repeated key (the last value wins, in the
/// first one's place) is left to the converter.
fn entries(
    scan: &mut Scan,
    limits: &PlanLimits,
    columns: &mut [Column; 2],
    mut item: impl FnMut(&mut Scan, &mut Column) -> Option<()>,
) -> Option<()> {
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
        item(scan, values)?;
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

#[inline(always)]
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

/// DATE, TIME and TIMESTAMP are read from a string without escapes, parsed as `direct`
/// parses them (text that is not ASCII never parses, as `direct` finds).
fn temporal_text<'a>(scan: &mut Scan<'a>) -> Option<&'a [u8]> {
    scan.eat(b'"')?;
    scan.plain_string()
}

pub(crate) fn date(scan: &mut Scan, column: &mut Column) -> Option<()> {
    let Column::Date(cells) = column else { return None };
    cells.push(temporal::parse_date_bytes(temporal_text(scan)?)? as i32);
    Some(())
}

pub(crate) fn time(scan: &mut Scan, limits: &PlanLimits, column: &mut Column) -> Option<()> {
    let Column::Time(cells) = column else { return None };
    let nanos = temporal::parse_sql_time_bytes(temporal_text(scan)?)?;
    let millis = match limits.time_keeps_fraction {
        true => nanos / 1_000_000,
        false => nanos / 1_000_000_000 * 1000,
    };
    cells.push(millis as i32);
    Some(())
}

#[inline]
pub(crate) fn timestamp(scan: &mut Scan, ltz: bool, limits: &PlanLimits, column: &mut Column) -> Option<()> {
    let Column::Timestamp(cells) = column else { return None };
    let (iso, rest) = (limits.iso_timestamps, &scan.input[scan.pos..]);
    let parsed = match rest.split_first() {
        Some((b'"', text)) => match temporal::fixed_quoted_timestamp(text, iso, ltz) {
            Some((parsed, taken)) => {
                scan.pos += 1 + taken;
                parsed
            }
            None => temporal::parse_timestamp_bytes(temporal_text(scan)?, iso, ltz)?,
        },
        _ => temporal::parse_timestamp_bytes(temporal_text(scan)?, iso, ltz)?,
    };
    cells.push((parsed.epoch_millis(), parsed.nano_of_milli()));
    Some(())
}
