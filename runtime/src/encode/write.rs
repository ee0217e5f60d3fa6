//! Writing nested values (ROW, ARRAY, MAP and MULTISET, and the values inside them) as JSON,
//! one value at a time.
use std::borrow::Cow;

use super::bind::{BoundColumn, ByteValues, Offsets};
use super::plan::{field_name_json, RowFieldPlan};
use crate::float;
use crate::options::{Compatibility, JsonOptions, MapNullKeyMode};
use crate::spelling::sink::ByteSink;
use crate::spelling::temporal::{DayCache, SecondCache};
use crate::spelling::{self, base64, decimal, escape, temporal};

/// How one side (key or value) writes: its options, resolved once.
pub struct WriteContext {
    pub options: JsonOptions,
    pub compatibility: Compatibility,
    /// `"<literal>":` for `map-null-key.mode = LITERAL`.
    pub literal_key_json: Vec<u8>,
    /// The literal's raw bytes, to detect collisions with real keys.
    pub literal_key: Vec<u8>,
}

impl WriteContext {
    pub fn new(options: JsonOptions, compatibility: Compatibility) -> Self {
        let literal_key_json = field_name_json(&options.map_null_key_literal);
        let literal_key = options.map_null_key_literal.as_bytes().to_vec();
        WriteContext { options, compatibility, literal_key_json, literal_key }
    }
}

/// A data-dependent failure inside a row. `path` collects the enclosing ROW field names,
/// innermost first, as Flink's "Fail to serialize at field" wrappers do.
#[derive(Debug)]
#[non_exhaustive]
pub enum ValueError {
    NullMapKey { path: Vec<String> },
    OutOfRange { what: String, path: Vec<String> },
}

impl ValueError {
    /// The same error, one ROW field further out.
    pub fn within(mut self, field: &str) -> Self {
        match &mut self {
            ValueError::NullMapKey { path } | ValueError::OutOfRange { path, .. } => path.push(field.to_string()),
        }
        self
    }
}

pub type WriteResult = std::result::Result<(), ValueError>;

/// Writes `"name":value` pairs of a ROW, honouring `encode.ignore-null-fields`.
#[inline]
pub fn write_field(
    ctx: &WriteContext,
    out: &mut Vec<u8>,
    first: &mut bool,
    name_json: &[u8],
    name: &str,
    col: &BoundColumn<'_>,
    i: usize,
) -> WriteResult {
    let null = col.is_null(i);
    if null && ctx.options.ignore_null_fields {
        return Ok(());
    }
    if !*first {
        out.push(b',');
    }
    *first = false;
    out.extend_from_slice(name_json);
    if null {
        out.extend_from_slice(b"null");
        Ok(())
    } else {
        write_value(ctx, out, col, i).map_err(|e| e.within(name))
    }
}

/// Writes value `i` of `col`, `null` included.
pub fn write_nullable(ctx: &WriteContext, out: &mut Vec<u8>, col: &BoundColumn<'_>, i: usize) -> WriteResult {
    if col.is_null(i) {
        out.extend_from_slice(b"null");
        Ok(())
    } else {
        write_value(ctx, out, col, i)
    }
}

/// Writes the non-null value `i` of `col`: a ROW, ARRAY or MAP, or a value inside one. (Top-level
/// scalar columns go through the typed accessors of `codegen_support`, bound once per batch.)
pub fn write_value(ctx: &WriteContext, out: &mut Vec<u8>, col: &BoundColumn<'_>, i: usize) -> WriteResult {
    let spelling = ctx.compatibility.float_spelling;
    match col {
        BoundColumn::Boolean(a) => spelling::write_bool(out, a.value(i)),
        BoundColumn::I8(p) => spelling::write_int(out, p.values[i]),
        BoundColumn::I16(p) => spelling::write_int(out, p.values[i]),
        BoundColumn::I32(p) => spelling::write_int(out, p.values[i]),
        BoundColumn::I64(p) => spelling::write_int(out, p.values[i]),
        BoundColumn::F32(p) => float::write_f32_json(out, p.values[i], spelling),
        BoundColumn::F64(p) => float::write_f64_json(out, p.values[i], spelling),
        BoundColumn::Decimal(p, scale) => {
            let plain = ctx.options.encode_decimal_as_plain_number;
            decimal::write_decimal(out, p.values[i], *scale, plain, ctx.compatibility.flink_version);
        }
        BoundColumn::Str(values, ..) => values.write_string(out, i),
        BoundColumn::Bytes(values, _) => base64::write_base64_json(out, values.bytes(i)),
        BoundColumn::Date32(p) => temporal::write_date_json(out, &mut DayCache::new(), i64::from(p.values[i])),
        BoundColumn::Date64(p) => {
            temporal::write_date_json(out, &mut DayCache::new(), p.values[i].div_euclid(86_400_000));
        }
        BoundColumn::Time32 { values, mul, div } => write_time(ctx, out, i64::from(values.values[i]) * mul / div)?,
        BoundColumn::Time64 { values, mul, div } => write_time(ctx, out, values.values[i].wrapping_mul(*mul) / div)?,
        BoundColumn::Timestamp { values, ltz, .. } => {
            let (millis, nanos) = values.parts(i);
            let format = ctx.options.timestamp_format;
            temporal::write_timestamp_json(out, &mut SecondCache::new(), millis, nanos, format, *ltz);
        }
        BoundColumn::DayTime(p) => spelling::write_int(out, day_time_millis(p.values[i])),
        BoundColumn::Duration { values, mul, div } => {
            spelling::write_int(out, values.values[i].wrapping_mul(*mul) / div)
        }
        BoundColumn::List { offsets, child, .. } => write_list(ctx, out, offsets, child, i)?,
        BoundColumn::Map { offsets, keys, values, .. } => {
            let (start, end) = (offsets[i] as usize, offsets[i + 1] as usize);
            write_map(ctx, out, keys, values, start, end)?
        }
        BoundColumn::Row { names, fields, .. } => {
            out.push(b'{');
            let mut first = true;
            for (plan, field) in names.iter().zip(fields) {
                write_field(ctx, out, &mut first, &plan.name_json, &plan.name, field, i)?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

/// TIME from milliseconds of the day; fails outside one day (Flink's `LocalTime` cannot hold it).
#[inline]
pub(crate) fn write_time<S: ByteSink>(ctx: &WriteContext, out: &mut S, millis: i64) -> WriteResult {
    if !(0..86_400_000).contains(&millis) {
        return Err(time_out_of_range(millis));
    }
    temporal::write_time_json(out, millis as i32, ctx.compatibility.flink_version);
    Ok(())
}

/// Milliseconds of an Arrow (days, milliseconds) interval.
#[inline(always)]
pub(crate) fn day_time_millis(v: arrow_buffer::IntervalDayTime) -> i64 {
    i64::from(v.days) * 86_400_000 + i64::from(v.milliseconds)
}

#[cold]
fn time_out_of_range(millis: i64) -> ValueError {
    ValueError::OutOfRange { what: format!("TIME value of {millis} ms is outside one day"), path: vec![] }
}

fn write_list(
    ctx: &WriteContext,
    out: &mut Vec<u8>,
    offsets: &Offsets<'_>,
    child: &BoundColumn<'_>,
    i: usize,
) -> WriteResult {
    let (start, end) = offsets.range(i);
    out.push(b'[');
    for j in start..end {
        if j > start {
            out.push(b',');
        }
        write_nullable(ctx, out, child, j)?;
    }
    out.push(b']');
    Ok(())
}

/// The output key of entry `j` as Java sees it (binaries decoded as Java's UTF-8 decoder does,
/// so that keys Jackson would merge compare equal): `None` when the entry is dropped.
#[inline]
pub(crate) fn entry_key<'k>(
    ctx: &'k WriteContext,
    keys: &'k BoundColumn<'_>,
    j: usize,
) -> Result<Option<Cow<'k, [u8]>>, ValueError> {
    let BoundColumn::Str(values, ..) = keys else { return Ok(None) };
    if !keys.is_null(j) {
        return Ok(Some(match values {
            ByteValues::Utf8(_) | ByteValues::LargeUtf8(_) | ByteValues::Utf8View(_) => Cow::Borrowed(values.bytes(j)),
            _ => escape::java_text(values.bytes(j), values.text_bytes()),
        }));
    }
    match ctx.options.map_null_key_mode {
        MapNullKeyMode::Fail => Err(ValueError::NullMapKey { path: vec![] }),
        MapNullKeyMode::Drop => Ok(None),
        MapNullKeyMode::Literal => Ok(Some(Cow::Borrowed(&ctx.literal_key))),
    }
}

fn write_map(
    ctx: &WriteContext,
    out: &mut Vec<u8>,
    keys: &BoundColumn<'_>,
    values: &BoundColumn<'_>,
    start: usize,
    end: usize,
) -> WriteResult {
    out.push(b'{');
    let mut first = true;
    let duplicates = end - start > 1 && has_duplicate_keys(ctx, keys, start, end)?;
    for j in start..end {
        let Some(key) = entry_key(ctx, keys, j)? else { continue };
        if duplicates && (start..j).any(|e| matches!(entry_key(ctx, keys, e), Ok(Some(k)) if k == key)) {
            continue;
        }
        if !first {
            out.push(b',');
        }
        if duplicates {
            let occurrences: Vec<usize> =
                (j..end).filter(|&e| matches!(entry_key(ctx, keys, e), Ok(Some(k)) if k == key)).collect();
            first = false;
            check_replaced_values(ctx, values, &occurrences)?;
            write_key(ctx, out, keys, j);
            write_repeated_value(ctx, out, values, &occurrences)?;
            continue;
        }
        first = false;
        write_key(ctx, out, keys, j);
        write_nullable(ctx, out, values, j)?;
    }
    out.push(b'}');
    Ok(())
}

/// Flink converts every occurrence of a repeated key, so a value that fails (a null map key
/// under FAIL) fails the record even when a later occurrence replaces it.
#[cold]
fn check_replaced_values(ctx: &WriteContext, values: &BoundColumn<'_>, occurrences: &[usize]) -> WriteResult {
    let mut scratch = Vec::new();
    for &e in &occurrences[..occurrences.len().saturating_sub(1)] {
        scratch.clear();
        write_nullable(ctx, &mut scratch, values, e)?;
    }
    Ok(())
}

pub(crate) fn write_key(ctx: &WriteContext, out: &mut Vec<u8>, keys: &BoundColumn<'_>, j: usize) {
    match keys {
        BoundColumn::Str(values, ..) if !keys.is_null(j) => {
            values.write_string(out, j);
            out.push(b':');
        }
        _ => out.extend_from_slice(&ctx.literal_key_json),
    }
}

#[cold]
fn sorted_has_duplicates(mut all: Vec<Cow<'_, [u8]>>) -> bool {
    all.sort_unstable();
    all.windows(2).any(|w| w[0] == w[1])
}

/// Maps with up to this many entries are checked for repeated keys pair by pair.
const SMALL_MAP: usize = 32;

/// The key column of entries `start..end` when they can be written as they are: UTF-8 keys,
/// none null, none repeated (compared pair by pair, so only for small maps). `None` sends the
/// map through the general rules: null keys, Java's decoding of binary keys, repeated keys.
pub(crate) fn distinct_utf8_keys<'k>(
    keys: &'k BoundColumn<'_>,
    start: usize,
    end: usize,
) -> Option<&'k ByteValues<'k>> {
    let BoundColumn::Str(values @ (ByteValues::Utf8(_) | ByteValues::LargeUtf8(_) | ByteValues::Utf8View(_)), nulls, _) =
        keys
    else {
        return None;
    };
    if end - start > SMALL_MAP || nulls.is_some_and(|n| (start..end).any(|j| n.is_null(j))) {
        return None;
    }
    let repeated = match values {
        ByteValues::Utf8(array) => {
            let (offsets, data) = (array.value_offsets(), array.value_data());
            any_repeat(start, end, |j| &data[offsets[j] as usize..offsets[j + 1] as usize])
        }
        other => any_repeat(start, end, |j| other.bytes(j)),
    };
    (!repeated).then_some(values)
}

#[inline(always)]
fn any_repeat<'k>(start: usize, end: usize, key: impl Fn(usize) -> &'k [u8]) -> bool {
    (start + 1..end).any(|j| {
        let later = key(j);
        (start..j).any(|e| key(e) == later)
    })
}

pub(crate) fn has_duplicate_keys(
    ctx: &WriteContext,
    keys: &BoundColumn<'_>,
    start: usize,
    end: usize,
) -> Result<bool, ValueError> {
    if end - start > SMALL_MAP {
        let mut all = Vec::with_capacity(end - start);
        for j in start..end {
            if let Some(k) = entry_key(ctx, keys, j)? {
                all.push(k);
            }
        }
        return Ok(sorted_has_duplicates(all));
    }
    for j in start..end {
        let Some(kj) = entry_key(ctx, keys, j)? else { continue };
        for e in start..j {
            if entry_key(ctx, keys, e)?.as_deref() == Some(&*kj) {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

// A key repeated within one map (two equal keys, or the null-key literal colliding with a real
// key). Flink converts every occurrence into the JSON node already stored under that key, so
// the key keeps its first position; ROW values merge into the stored object (with
// `encode.ignore-null-fields`, a later null field leaves the earlier one in place, and fields
// first set by a later value go last), anything else is replaced. Rare, so written for clarity.

/// Writes the value Jackson ends with for the entries `occurrences` (in map order) of one key.
#[cold]
fn write_repeated_value(
    ctx: &WriteContext,
    out: &mut Vec<u8>,
    values: &BoundColumn<'_>,
    occurrences: &[usize],
) -> WriteResult {
    // A null value replaces the stored node; merging starts afresh after it.
    let run = match occurrences.iter().rposition(|&e| values.is_null(e)) {
        Some(last_null) => &occurrences[last_null + 1..],
        None => occurrences,
    };
    let Some(&last) = run.last() else {
        out.extend_from_slice(b"null");
        return Ok(());
    };
    match values {
        BoundColumn::Row { names, fields, .. } if ctx.options.ignore_null_fields && run.len() > 1 => {
            write_merged_row(ctx, out, names, fields, run)
        }
        _ => write_value(ctx, out, values, last),
    }
}

/// The object left after converting the non-null rows `run` into one node, nulls skipped.
fn write_merged_row(
    ctx: &WriteContext,
    out: &mut Vec<u8>,
    names: &[RowFieldPlan],
    fields: &[BoundColumn<'_>],
    run: &[usize],
) -> WriteResult {
    let mut order: Vec<usize> = Vec::with_capacity(fields.len());
    for &e in run {
        for (f, col) in fields.iter().enumerate() {
            if !col.is_null(e) && !order.contains(&f) {
                order.push(f);
            }
        }
    }
    out.push(b'{');
    for (n, &f) in order.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        out.extend_from_slice(&names[f].name_json);
        let present: Vec<usize> = run.iter().copied().filter(|&e| !fields[f].is_null(e)).collect();
        let written = match &fields[f] {
            BoundColumn::Row { names: inner_names, fields: inner, .. } if present.len() > 1 => {
                write_merged_row(ctx, out, inner_names, inner, &present)
            }
            col => write_value(ctx, out, col, present[present.len() - 1]),
        };
        written.map_err(|e| e.within(&names[f].name))?;
    }
    out.push(b'}');
    Ok(())
}
