//! Random Arrow batches for any sink spec: every logical type in the Arrow layouts the plan
//! accepts, nulls, empty strings, every escape class, extreme numbers, random row kinds.
//! Deterministic from a seed, so proptest's cases can be replayed.
use std::sync::Arc;

use arrow_array::types::Int32Type;
use arrow_array::*;
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType as ArrowType, Field, Fields, Schema};
use kjson_arrow::runtime::{DataType, IntervalKind, LogicalType, SinkSpec};

/// xorshift64*: no dependency, stable across platforms.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, per_mille: u32) -> bool {
        self.below(1000) < u64::from(per_mille)
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// How a batch is drawn.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub rows: usize,
    /// Chance of a null per nullable value, in 1/1000.
    pub null_per_mille: u32,
    /// Whether NOT NULL top-level columns may hold nulls anyway (the batch then falls back to
    /// the dynamic column programs).
    pub nulls_in_not_null: bool,
}

pub struct Drawn {
    pub batch: RecordBatch,
    pub row_kinds: Option<Int8Array>,
}

pub fn random_batch(spec: &SinkSpec, shape: Shape, rng: &mut Rng) -> Drawn {
    let mut fields = Vec::new();
    let mut arrays = Vec::new();
    for column in &spec.columns {
        let nulls_allowed = column.data_type.nullable || shape.nulls_in_not_null;
        let array = random_array(&column.data_type, shape.rows, shape.null_per_mille, nulls_allowed, rng, 0);
        let mut field = Field::new(&column.name, array.data_type().clone(), true);
        // A string column in a Binary array is sometimes marked WTF-8, as kjson's JVM writer does.
        if column.data_type.is_string() && *array.data_type() == ArrowType::Binary && rng.chance(500) {
            let (key, value) = kjson_arrow::runtime::encode::WTF8_METADATA;
            field = field.with_metadata(std::collections::HashMap::from([(key.to_string(), value.to_string())]));
        }
        fields.push(field);
        arrays.push(array);
    }
    let schema = Arc::new(Schema::new(fields));
    let options = RecordBatchOptions::new().with_row_count(Some(shape.rows));
    let batch = RecordBatch::try_new_with_options(schema, arrays, &options).expect("valid random batch");
    let row_kinds = rng.chance(800).then(|| Int8Array::from_iter_values((0..shape.rows).map(|_| rng.below(4) as i8)));
    Drawn { batch, row_kinds }
}

fn validity(rows: usize, per_mille: u32, allowed: bool, rng: &mut Rng) -> Option<NullBuffer> {
    if !allowed || per_mille == 0 {
        return None;
    }
    let valid: Vec<bool> = (0..rows).map(|_| !rng.chance(per_mille)).collect();
    Some(NullBuffer::from(valid))
}

/// One array of `rows` values of logical type `ty`.
pub fn random_array(ty: &DataType, rows: usize, per_mille: u32, nulls: bool, rng: &mut Rng, depth: usize) -> ArrayRef {
    use LogicalType as L;
    let nulls_buffer = validity(rows, per_mille, nulls, rng);
    match &ty.logical {
        L::Boolean => Arc::new(BooleanArray::new((0..rows).map(|_| rng.chance(500)).collect(), nulls_buffer)),
        L::TinyInt => Arc::new(Int8Array::new((0..rows).map(|_| int(rng) as i8).collect(), nulls_buffer)),
        L::SmallInt => Arc::new(Int16Array::new((0..rows).map(|_| int(rng) as i16).collect(), nulls_buffer)),
        L::Int => Arc::new(Int32Array::new((0..rows).map(|_| int(rng) as i32).collect(), nulls_buffer)),
        L::BigInt => Arc::new(Int64Array::new((0..rows).map(|_| int(rng)).collect(), nulls_buffer)),
        L::Float => Arc::new(Float32Array::new((0..rows).map(|_| float32(rng)).collect(), nulls_buffer)),
        L::Double => Arc::new(Float64Array::new((0..rows).map(|_| float64(rng)).collect(), nulls_buffer)),
        L::Decimal { precision, scale } => decimal(*precision, *scale, rows, nulls_buffer, rng),
        L::Char { .. } | L::VarChar { .. } => strings(rows, nulls_buffer, rng, depth),
        L::Binary { .. } | L::VarBinary { .. } => binaries(rows, nulls_buffer, rng),
        L::Date => dates(rows, nulls_buffer, rng),
        L::Time { .. } => times(rows, nulls_buffer, rng),
        L::Timestamp { .. } => timestamps(rows, nulls_buffer, rng, false),
        L::TimestampLtz { .. } => timestamps(rows, nulls_buffer, rng, true),
        L::Interval { kind: IntervalKind::YearMonth, .. } => year_months(rows, nulls_buffer, rng),
        L::Interval { kind: IntervalKind::DayTime, .. } => day_times(rows, nulls_buffer, rng),
        L::Array(element) => list(element, rows, nulls_buffer, per_mille, rng, depth),
        L::Map { key, value } => map(key, value, rows, nulls_buffer, per_mille, rng, depth),
        L::Multiset(element) => {
            let count = DataType::not_null(LogicalType::Int);
            map(element, &count, rows, nulls_buffer, per_mille, rng, depth)
        }
        L::Row(fields) => row(fields, rows, nulls_buffer, per_mille, rng, depth),
        L::Unsupported { text } => panic!("no Arrow layout for {text}"),
    }
}

fn int(rng: &mut Rng) -> i64 {
    match rng.below(8) {
        0 => rng.pick(&[0, -1, 1, i64::MIN, i64::MAX, i64::from(i32::MIN), i64::from(i16::MAX), -128, 127]),
        1 => rng.next() as i64,
        2 => {
            let digits = rng.below(19) as u32;
            rng.below(10u64.pow(digits)) as i64 * rng.pick(&[1, -1])
        }
        _ => rng.below(100_000) as i64 - 50_000,
    }
}

fn float64(rng: &mut Rng) -> f64 {
    match rng.below(6) {
        0 => rng.pick(&[
            0.0,
            -0.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            5e-324,
            1e7,
            9_999_999.999,
            1e-3,
            0.000_999_9,
            1e23,
            0.1 + 0.2,
        ]),
        1 => f64::from_bits(rng.next()),
        2 => (rng.below(2_000_000) as f64 - 1e6) / 1000.0,
        _ => rng.below(1 << 40) as f64 * 10f64.powi(rng.below(40) as i32 - 20),
    }
}

fn float32(rng: &mut Rng) -> f32 {
    match rng.below(5) {
        0 => rng.pick(&[0.0, -0.0, f32::NAN, f32::INFINITY, f32::MIN_POSITIVE, f32::MAX, 1e7, 1.0e-45, 9.69785e10]),
        1 => f32::from_bits(rng.next() as u32),
        _ => float64(rng) as f32,
    }
}

fn decimal(precision: u8, scale: u8, rows: usize, nulls: Option<NullBuffer>, rng: &mut Rng) -> ArrayRef {
    let max = 10i128.pow(u32::from(precision)) - 1;
    let values: Vec<i128> = (0..rows)
        .map(|_| match rng.below(5) {
            0 => rng.pick(&[0, 1, -1, max, -max, 10i128.pow(u32::from(scale)), 100]),
            1 => (i128::from(rng.next()) << 64 | i128::from(rng.next())) % (max + 1),
            2 => i128::from(rng.below(1000)) * 10i128.pow(rng.below(u64::from(precision).saturating_sub(2)) as u32),
            _ => i128::from(rng.next() as i64) % (max + 1),
        })
        .collect();
    let array = Decimal128Array::new(values.into(), nulls).with_precision_and_scale(precision, scale as i8);
    Arc::new(array.expect("valid decimal"))
}

/// Characters from every escape class of Flink's JSON strings.
fn random_text(rng: &mut Rng) -> String {
    const SPECIAL: [char; 14] = [
        '"',
        '\\',
        '/',
        '\u{7F}',
        '\u{0}',
        '\n',
        '\t',
        '\u{1F}',
        '\u{E9}',
        '\u{2028}',
        '\u{FFFF}',
        '\u{1F600}',
        '\u{10FFFF}',
        '\u{8}',
    ];
    let len = match rng.below(6) {
        0 => 0,
        1 => rng.below(4),
        2 => 16 + rng.below(40),
        _ => rng.below(24),
    } as usize;
    let clean = rng.chance(500);
    (0..len)
        .map(|_| match rng.below(12) {
            0 if !clean => rng.pick(&SPECIAL),
            1 if !clean => char::from(rng.below(0x20) as u8),
            2 => char::from_u32(0x80 + rng.below(0x700) as u32).unwrap_or('x'),
            _ => match b' ' + rng.below(95) as u8 {
                b'"' | b'\\' => 'q',
                c => char::from(c),
            },
        })
        .collect()
}

fn strings(rows: usize, nulls: Option<NullBuffer>, rng: &mut Rng, depth: usize) -> ArrayRef {
    let clean_column = rng.chance(300);
    let texts: Vec<Option<String>> = (0..rows)
        .map(|i| {
            let text = random_text(rng);
            let text = if clean_column {
                text.replace(|c: char| c < ' ' || c == '"' || c == '\\' || c > '\u{FFFF}', "_")
            } else {
                text
            };
            nulls.as_ref().is_none_or(|n| n.is_valid(i)).then_some(text)
        })
        .collect();
    let refs: Vec<Option<&str>> = texts.iter().map(|t| t.as_deref()).collect();
    let layouts = if depth == 0 { 6 } else { 4 };
    match rng.below(layouts) {
        0 | 1 => Arc::new(StringArray::from(refs)),
        2 => Arc::new(LargeStringArray::from(refs)),
        3 => Arc::new(StringViewArray::from(refs)),
        4 => Arc::new(refs.into_iter().collect::<DictionaryArray<Int32Type>>()),
        _ => {
            // Binary holding UTF-8, sometimes with an invalid byte (decoded to U+FFFD).
            let bytes: Vec<Option<Vec<u8>>> = texts
                .iter()
                .map(|t| {
                    t.as_ref().map(|t| {
                        let mut b = t.clone().into_bytes();
                        if !b.is_empty() && rng.chance(200) {
                            let at = rng.below(b.len() as u64) as usize;
                            b[at] = 0xFF;
                        }
                        if rng.chance(100) {
                            // An encoded surrogate: U+FFFD, or a `\uD8xx` escape under WTF-8.
                            b.extend_from_slice(&[0xED, rng.pick(&[0xA0, 0xAF, 0xB0, 0xBF]), 0x80]);
                        }
                        b
                    })
                })
                .collect();
            Arc::new(BinaryArray::from_iter(bytes))
        }
    }
}

fn binaries(rows: usize, nulls: Option<NullBuffer>, rng: &mut Rng) -> ArrayRef {
    if rng.chance(250) {
        let size = rng.below(5) as i32;
        let values: Vec<Option<Vec<u8>>> = (0..rows)
            .map(|i| {
                nulls.as_ref().is_none_or(|n| n.is_valid(i)).then(|| (0..size).map(|_| rng.next() as u8).collect())
            })
            .collect();
        return Arc::new(
            FixedSizeBinaryArray::try_from_sparse_iter_with_size(values.into_iter(), size).expect("fixed binary"),
        );
    }
    let values: Vec<Option<Vec<u8>>> = (0..rows)
        .map(|i| {
            let len = rng.below(12) as usize;
            nulls.as_ref().is_none_or(|n| n.is_valid(i)).then(|| (0..len).map(|_| rng.next() as u8).collect())
        })
        .collect();
    match rng.below(3) {
        0 => Arc::new(LargeBinaryArray::from_iter(values)),
        1 => Arc::new(BinaryViewArray::from_iter(values)),
        _ => Arc::new(BinaryArray::from_iter(values)),
    }
}

fn day(rng: &mut Rng) -> i64 {
    match rng.below(5) {
        0 => rng.pick(&[0, -1, -719_528, -719_529, 2_932_896, 2_932_897, -354_285]),
        1 => i64::from(rng.next() as i32),
        _ => 19_000 + rng.below(3) as i64,
    }
}

fn dates(rows: usize, nulls: Option<NullBuffer>, rng: &mut Rng) -> ArrayRef {
    if rng.chance(300) {
        let values: Vec<i64> = (0..rows).map(|_| day(rng) * 86_400_000 + rng.below(86_400_000) as i64).collect();
        return Arc::new(Date64Array::new(values.into(), nulls));
    }
    Arc::new(Date32Array::new((0..rows).map(|_| day(rng) as i32).collect(), nulls))
}

fn times(rows: usize, nulls: Option<NullBuffer>, rng: &mut Rng) -> ArrayRef {
    let millis: Vec<i64> = (0..rows)
        .map(|_| {
            let any = rng.below(86_400_000) as i64;
            rng.pick(&[0, 1, 10, 120, 86_399_999, 45_296_789, any])
        })
        .collect();
    match rng.below(4) {
        0 => Arc::new(Time32SecondArray::new(millis.iter().map(|m| (m / 1000) as i32).collect(), nulls)),
        1 => Arc::new(Time64MicrosecondArray::new(
            millis.iter().map(|m| m * 1000 + rng.below(1000) as i64).collect(),
            nulls,
        )),
        2 => Arc::new(Time64NanosecondArray::new(
            millis.iter().map(|m| m * 1_000_000 + rng.below(1_000_000) as i64).collect(),
            nulls,
        )),
        _ => Arc::new(Time32MillisecondArray::new(millis.iter().map(|&m| m as i32).collect(), nulls)),
    }
}

fn timestamps(rows: usize, nulls: Option<NullBuffer>, rng: &mut Rng, ltz: bool) -> ArrayRef {
    // Runs inside one second and one day exercise the writers' caches; extremes their edges.
    let base = 1_704_164_645_000i64 + rng.below(1 << 30) as i64 * rng.pick(&[1, -1, 1000]);
    let raw: Vec<i64> = (0..rows)
        .map(|_| match rng.below(10) {
            0 => rng.pick(&[i64::MIN, i64::MAX, 0, -1, 1, 253_402_300_799_999, -62_167_219_200_001]),
            1 => rng.next() as i64,
            2..=5 => base,
            _ => base + rng.below(5_000) as i64 * rng.pick(&[1, 1, 1000]),
        })
        .collect();
    let zone = (ltz && rng.chance(500)).then(|| Arc::<str>::from("UTC"));
    if zone.is_none() && rng.chance(150) {
        return timestamp_parts(raw, nulls, rng);
    }
    match rng.below(5) {
        0 => Arc::new(TimestampSecondArray::new(raw.iter().map(|v| v / 1000).collect(), nulls).with_timezone_opt(zone)),
        1 => Arc::new(
            TimestampMicrosecondArray::new(
                raw.iter().map(|v| v.wrapping_mul(1000) + rng.below(1000) as i64).collect(),
                nulls,
            )
            .with_timezone_opt(zone),
        ),
        2 => Arc::new(
            TimestampNanosecondArray::new(
                raw.iter().map(|v| v.wrapping_mul(1_000_000) + rng.below(3) as i64).collect(),
                nulls,
            )
            .with_timezone_opt(zone),
        ),
        _ => Arc::new(TimestampMillisecondArray::new(raw.into(), nulls).with_timezone_opt(zone)),
    }
}

/// Flink's `TimestampData` as a struct of epoch milliseconds and nanoseconds of the millisecond.
fn timestamp_parts(millis: Vec<i64>, nulls: Option<NullBuffer>, rng: &mut Rng) -> ArrayRef {
    let nanos: Vec<i32> = millis
        .iter()
        .map(|_| {
            let any = rng.below(1_000_000) as i32;
            rng.pick(&[0, 1, 999_999, any])
        })
        .collect();
    let fields = Fields::from(vec![
        Field::new("epoch_millis", ArrowType::Int64, false),
        Field::new("nano_of_milli", ArrowType::Int32, false),
    ]);
    let columns: Vec<ArrayRef> = vec![Arc::new(Int64Array::from(millis)), Arc::new(Int32Array::from(nanos))];
    Arc::new(StructArray::try_new(fields, columns, nulls).expect("timestamp parts"))
}

fn year_months(rows: usize, nulls: Option<NullBuffer>, rng: &mut Rng) -> ArrayRef {
    let values: Vec<i32> = (0..rows).map(|_| int(rng) as i32).collect();
    match rng.below(2) {
        0 => Arc::new(IntervalYearMonthArray::new(values.into(), nulls)),
        _ => Arc::new(Int32Array::new(values.into(), nulls)),
    }
}

fn day_times(rows: usize, nulls: Option<NullBuffer>, rng: &mut Rng) -> ArrayRef {
    match rng.below(3) {
        0 => {
            let values: Vec<_> = (0..rows)
                .map(|_| arrow_buffer::IntervalDayTime::new(int(rng) as i32 / 4, rng.below(86_400_000) as i32))
                .collect();
            Arc::new(IntervalDayTimeArray::new(values.into(), nulls))
        }
        1 => Arc::new(DurationMicrosecondArray::new((0..rows).map(|_| int(rng) / 8).collect(), nulls)),
        _ => Arc::new(Int64Array::new((0..rows).map(|_| int(rng)).collect(), nulls)),
    }
}

/// Offsets for `rows` lists of 0..4 entries (fewer deeper down).
fn offsets(rows: usize, rng: &mut Rng, depth: usize) -> Vec<i32> {
    let max = if depth >= 2 { 2 } else { 4 };
    let mut offsets = vec![0i32];
    for _ in 0..rows {
        offsets.push(offsets.last().copied().unwrap_or(0) + rng.below(max) as i32);
    }
    offsets
}

fn list(
    element: &DataType,
    rows: usize,
    nulls: Option<NullBuffer>,
    per_mille: u32,
    rng: &mut Rng,
    depth: usize,
) -> ArrayRef {
    if rng.chance(150) {
        // Size 0 would make an Arrow array of length 0, whatever `rows` is.
        let size = 1 + rng.below(2) as i32;
        let child = random_array(element, rows * size as usize, per_mille, element.nullable, rng, depth + 1);
        let field = Arc::new(Field::new("item", child.data_type().clone(), true));
        return Arc::new(FixedSizeListArray::try_new(field, size, child, nulls).expect("fixed list"));
    }
    let offsets = offsets(rows, rng, depth);
    let total = *offsets.last().unwrap_or(&0) as usize;
    let child = random_array(element, total, per_mille, element.nullable, rng, depth + 1);
    let field = Arc::new(Field::new("item", child.data_type().clone(), true));
    if rng.chance(300) {
        let large = OffsetBuffer::new(offsets.iter().map(|&o| i64::from(o)).collect::<Vec<_>>().into());
        return Arc::new(LargeListArray::try_new(field, large, child, nulls).expect("large list"));
    }
    Arc::new(ListArray::try_new(field, OffsetBuffer::new(offsets.into()), child, nulls).expect("list"))
}

fn map(
    key: &DataType,
    value: &DataType,
    rows: usize,
    nulls: Option<NullBuffer>,
    per_mille: u32,
    rng: &mut Rng,
    depth: usize,
) -> ArrayRef {
    let offsets = offsets(rows, rng, depth);
    let total = *offsets.last().unwrap_or(&0) as usize;
    // A List of key/value structs can carry null keys (Arrow's Map cannot).
    let as_list = rng.chance(400);
    let keys: Vec<Option<String>> = (0..total)
        .map(|_| match rng.below(10) {
            0 if as_list => None,
            1 | 2 => Some(rng.pick(&["k", "null-key", "null", "a\"b"]).to_string()),
            _ => Some(random_text(rng)),
        })
        .collect();
    let keys: ArrayRef = Arc::new(StringArray::from(keys));
    let values = random_array(value, total, per_mille, value.nullable, rng, depth + 1);
    let entry_fields = Fields::from(vec![
        Field::new("key", keys.data_type().clone(), as_list),
        Field::new("value", values.data_type().clone(), true),
    ]);
    let entries = StructArray::try_new(entry_fields.clone(), vec![keys, values], None).expect("entries");
    let entries_field = Arc::new(Field::new("entries", ArrowType::Struct(entry_fields), false));
    let offsets = OffsetBuffer::new(offsets.into());
    let _ = key;
    if as_list {
        return Arc::new(ListArray::try_new(entries_field, offsets, Arc::new(entries), nulls).expect("list map"));
    }
    Arc::new(MapArray::try_new(entries_field, offsets, entries, nulls, false).expect("map"))
}

fn row(
    fields: &[kjson_arrow::runtime::RowField],
    rows: usize,
    nulls: Option<NullBuffer>,
    per_mille: u32,
    rng: &mut Rng,
    depth: usize,
) -> ArrayRef {
    let arrays: Vec<ArrayRef> = fields
        .iter()
        .map(|f| random_array(&f.data_type, rows, per_mille, f.data_type.nullable, rng, depth + 1))
        .collect();
    let arrow_fields: Fields = fields
        .iter()
        .zip(&arrays)
        .map(|(f, a)| Field::new(&f.name, a.data_type().clone(), f.data_type.nullable))
        .collect();
    Arc::new(StructArray::try_new(arrow_fields, arrays, nulls).expect("struct"))
}
