//! Column programs: how the dynamic encoder writes rows. Each batch binds, for each side, the
//! column of every field once to the typed accessor generated code uses (its Arrow layout, unit
//! and caches resolved there), in the side's field order, and splits the side's fields into
//! segments: runs of scalar fields written into one reserved region per row, as generated rows
//! are, and nested fields, each bound as a tree of the same accessors (`nested.rs`). Per value,
//! what is left is one jump to an inlined writer of a fixed type; each accessor is stored beside
//! its field's name, so a run walks one slice, with no index into the batch's columns
//! (docs/performance.md).
use std::ops::Range;

use super::access::{
    Binaries, BindColumn, Bools, Dates, Decimals, Floats32, Floats64, Intervals, Ints, Scalar, Spelled, Strings, Times,
};
use super::bind::BoundColumn;
use super::context::{WriteContext, WriteResult};
use super::layout::{self, FieldLabel, NotNull};
use super::plan::field_name_json;
use super::row_writer::{RowWriter, RowsRun};
use crate::error::Result;
use crate::options::TimestampFormat;
use crate::spelling::sink::{with_reserved, ByteSink, Reserved};
use nested::{NestedProgram, RowFieldName};

/// A column bound for one batch: the accessor of its value type (of a nested column, the tree of
/// its children's programs). An explicit tag, so the per-value jump reads it with one load (a
/// niche-encoded tag costs a decode per field).
#[repr(u8)]
enum ColumnProgram<'a> {
    Bool(Bools<'a>),
    I8(Ints<'a, i8>),
    I16(Ints<'a, i16>),
    I32(Ints<'a, i32>),
    I64(Ints<'a, i64>),
    F32(Floats32<'a>),
    F64(Floats64<'a>),
    Decimal(Decimals<'a>),
    Str(Strings<'a>),
    Bytes(Binaries<'a>),
    Date(Dates<'a>),
    Time(Times<'a>),
    Timestamp(Spelled<'a>),
    Interval(Intervals<'a>),
    Nested(Box<NestedProgram<'a>>),
}

/// Applies `$body` to the accessor of a scalar program (`$nested` for a nested one): the one
/// match of each per-value operation.
macro_rules! on_scalar {
    ($program:expr, $a:ident => $body:expr, $nested:pat => $other:expr) => {
        match $program {
            ColumnProgram::Bool($a) => $body,
            ColumnProgram::I8($a) => $body,
            ColumnProgram::I16($a) => $body,
            ColumnProgram::I32($a) => $body,
            ColumnProgram::I64($a) => $body,
            ColumnProgram::F32($a) => $body,
            ColumnProgram::F64($a) => $body,
            ColumnProgram::Decimal($a) => $body,
            ColumnProgram::Str($a) => $body,
            ColumnProgram::Bytes($a) => $body,
            ColumnProgram::Date($a) => $body,
            ColumnProgram::Time($a) => $body,
            ColumnProgram::Timestamp($a) => $body,
            ColumnProgram::Interval($a) => $body,
            $nested => $other,
        }
    };
}

mod lone_run;
mod nested;
use lone_run::{lone_run_writer, LoneRun};
pub(crate) use nested::write_merged_rows;

/// How a batch's columns are bound to programs.
#[derive(Clone, Copy)]
struct Binding {
    /// Whether string columns look for a value buffer that needs no escaping (a scan of the
    /// buffer; worth it for a batch, not for one value).
    scan_strings: bool,
    /// The side's `timestamp-format.standard`, fixed in the timestamp programs so that no value
    /// reads it from the context.
    timestamps: TimestampFormat,
}

impl<'a> ColumnProgram<'a> {
    fn bind(column: &'a BoundColumn<'a>, how: Binding) -> Result<Self> {
        let c = column;
        let scan_strings = how.scan_strings;
        Ok(match column {
            BoundColumn::Boolean(_) => ColumnProgram::Bool(BindColumn::bind(c)?),
            BoundColumn::I8(_) => ColumnProgram::I8(BindColumn::bind(c)?),
            BoundColumn::I16(_) => ColumnProgram::I16(BindColumn::bind(c)?),
            BoundColumn::I32(_) => ColumnProgram::I32(BindColumn::bind(c)?),
            BoundColumn::I64(_) => ColumnProgram::I64(BindColumn::bind(c)?),
            BoundColumn::F32(_) => ColumnProgram::F32(BindColumn::bind(c)?),
            BoundColumn::F64(_) => ColumnProgram::F64(BindColumn::bind(c)?),
            BoundColumn::Decimal(..) => ColumnProgram::Decimal(BindColumn::bind(c)?),
            BoundColumn::Str(..) if scan_strings => ColumnProgram::Str(BindColumn::bind(c)?),
            BoundColumn::Str(..) => ColumnProgram::Str(Strings::bind_unscanned(c)?),
            BoundColumn::Bytes(..) => ColumnProgram::Bytes(BindColumn::bind(c)?),
            BoundColumn::Date32(_) | BoundColumn::Date64(_) => ColumnProgram::Date(BindColumn::bind(c)?),
            BoundColumn::Time32 { .. } | BoundColumn::Time64 { .. } => ColumnProgram::Time(BindColumn::bind(c)?),
            BoundColumn::Timestamp { .. } => ColumnProgram::Timestamp(Spelled::bind(c, how.timestamps)?),
            BoundColumn::DayTime(_) | BoundColumn::Duration { .. } => ColumnProgram::Interval(BindColumn::bind(c)?),
            BoundColumn::List { .. } | BoundColumn::Map { .. } | BoundColumn::Row { .. } => {
                ColumnProgram::Nested(Box::new(NestedProgram::bind(c, how)?))
            }
        })
    }

    /// Writes the `"name":value` of a ROW field (or nothing, for a null skipped under
    /// `encode.ignore-null-fields`); an error names the field.
    #[inline(always)]
    fn write_row_field(
        &mut self,
        out: &mut Vec<u8>,
        name: &RowFieldName<'_>,
        row: usize,
        cx: &WriteContext,
        first: &mut bool,
    ) -> WriteResult {
        on_scalar!(
            self, a => layout::scalar_field(a, out, name, row, cx, first),
            ColumnProgram::Nested(nested) => {
                let null = nested.is_null(row);
                layout::nested_field(out, name, cx, first, null, |out| nested.write(out, row, cx))
            }
        )
    }

    #[inline(always)]
    fn is_null(&self, row: usize) -> bool {
        on_scalar!(self, a => a.null(row), ColumnProgram::Nested(nested) => nested.is_null(row))
    }

    /// Writes the value at `row`, `null` included.
    fn write_nullable(&mut self, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
        on_scalar!(
            self, a => layout::nullable_scalar_apart(a, out, row, cx),
            ColumnProgram::Nested(nested) => layout::MapValues::write(&mut **nested, out, row, cx)
        )
    }

    /// The bound of a value whose size does not depend on the row: `None` for binaries, and for
    /// strings unless the batch's values share one bound.
    fn fixed_bound(&self) -> Option<usize> {
        match self {
            ColumnProgram::Str(a) => a.batch_bound(),
            ColumnProgram::Bytes(_) | ColumnProgram::Nested(_) => None,
            // These bounds do not read the row.
            scalar => Some(on_scalar!(scalar, a => a.bound(0), ColumnProgram::Nested(_) => 0)),
        }
    }

    /// Adds each row's bound of a string or binary column's values to `bounds` (nothing for
    /// other columns, whose bound is fixed).
    fn add_variable_bounds(&self, bounds: &mut [usize]) {
        match self {
            ColumnProgram::Str(a) => add_bounds(a, bounds),
            ColumnProgram::Bytes(a) => add_bounds(a, bounds),
            _ => {}
        }
    }

    /// Writes `name:value` (or nothing, for a null skipped under `encode.ignore-null-fields`).
    /// `WIDTH`: the chunk width the name fits (see [`FieldName::put_prefix`]). `NULLS` false: the
    /// column holds no null in this batch, so the value is written without a null check.
    #[inline(always)]
    fn write_field<const SKIP_NULLS: bool, const NULLS: bool, const WIDTH: usize, S: ByteSink>(
        &mut self,
        out: &mut S,
        field: &FieldName,
        row: usize,
        cx: &WriteContext,
        first: &mut bool,
    ) -> WriteResult {
        let name = &Prefixed::<SKIP_NULLS, WIDTH>(field);
        on_scalar!(
            self, a => if NULLS {
                layout::object_field::<SKIP_NULLS, _, _, _>(a, out, name, row, cx, first)
            } else {
                layout::object_field::<SKIP_NULLS, _, _, _>(&mut NotNull(a), out, name, row, cx, first)
            },
            ColumnProgram::Nested(_) => Ok(())
        )
    }
}

/// Longest `,"name":` stored as a fixed-size chunk.
const NAME_CHUNK: usize = 32;

/// One field of a side, prepared at open: its column and its `"name":` bytes.
pub(crate) struct FieldName {
    column: usize,
    /// `,"name":`, or `{"name":` for the first field. Under `encode.ignore-null-fields`, where the
    /// first field written depends on the data, `"name":` only, and the separator is separate.
    prefix: Vec<u8>,
    /// `prefix` padded to [`NAME_CHUNK`] bytes (cut short when it does not fit): a fixed-size store.
    chunk: [u8; NAME_CHUNK],
    name: String,
}

impl FieldName {
    /// `WIDTH` 16 or 32: the caller knows the prefix is shorter than that, so it is one
    /// fixed-size store with no check per write, and its length masked to the width shows the
    /// store's cut that it is within the chunk; 0: checked here.
    #[inline(always)]
    fn put_prefix<const SKIP_NULLS: bool, const WIDTH: usize, S: ByteSink>(&self, out: &mut S, first: &mut bool) {
        if SKIP_NULLS {
            if !*first {
                out.put_byte(b',');
            }
            *first = false;
        }
        match self.chunk.first_chunk::<WIDTH>() {
            Some(chunk) if WIDTH > 0 => out.put_chunk(chunk, self.prefix.len() & WIDTH.wrapping_sub(1)),
            _ if self.prefix.len() <= NAME_CHUNK => out.put_chunk(&self.chunk, self.prefix.len()),
            _ => out.put(&self.prefix),
        }
    }

    /// The narrowest chunk width `put_prefix` can store this name with: 16, 32, or 0 (none).
    /// A width holds prefixes shorter than itself ([`FieldName::put_prefix`] masks the length).
    fn chunk_width(&self) -> usize {
        match self.prefix.len() {
            0..16 => 16,
            16..NAME_CHUNK => NAME_CHUNK,
            _ => 0,
        }
    }

    /// The most bytes `put_prefix` writes.
    fn bound(&self) -> usize {
        1 + self.prefix.len().max(NAME_CHUNK)
    }
}

/// A side's field as the layout primitives take it, its separator rule and chunk width fixed.
struct Prefixed<'f, const SKIP_NULLS: bool, const WIDTH: usize>(&'f FieldName);

impl<const SKIP_NULLS: bool, const WIDTH: usize> FieldLabel for Prefixed<'_, SKIP_NULLS, WIDTH> {
    fn name(&self) -> &str {
        &self.0.name
    }

    #[inline(always)]
    fn bound(&self) -> usize {
        self.0.bound()
    }

    #[inline(always)]
    fn put<S: ByteSink>(&self, out: &mut S, first: &mut bool) {
        self.0.put_prefix::<SKIP_NULLS, WIDTH, S>(out, first);
    }
}

/// The fields of one side and how its separators are written.
pub(crate) struct SideFields {
    fields: Vec<FieldName>,
    skip_nulls: bool,
    timestamps: TimestampFormat,
}

impl SideFields {
    /// `fields`: (physical column, field name) in the side's order; `skip_nulls` and `timestamps`:
    /// the side's `encode.ignore-null-fields` and `timestamp-format.standard`.
    pub(crate) fn new(
        fields: impl Iterator<Item = (usize, String)>,
        skip_nulls: bool,
        timestamps: TimestampFormat,
    ) -> SideFields {
        let fields = fields
            .enumerate()
            .map(|(k, (column, name))| {
                let mut prefix = Vec::new();
                if !skip_nulls {
                    prefix.push(if k == 0 { b'{' } else { b',' });
                }
                prefix.extend_from_slice(&field_name_json(&name));
                let mut chunk = [0u8; NAME_CHUNK];
                let fits = prefix.len().min(NAME_CHUNK);
                chunk[..fits].copy_from_slice(&prefix[..fits]);
                FieldName { column, prefix, chunk, name }
            })
            .collect();
        SideFields { fields, skip_nulls, timestamps }
    }

    /// This batch's accessors of the side's fields, each beside its name, in field order.
    fn bind<'s, 'a>(&'s self, columns: &'a [BoundColumn<'a>]) -> Result<Vec<BoundField<'s, 'a>>> {
        let how = Binding { scan_strings: true, timestamps: self.timestamps };
        self.fields
            .iter()
            .map(|name| Ok(BoundField { program: ColumnProgram::bind(&columns[name.column], how)?, name }))
            .collect()
    }

    /// This batch's segments of the side (of `rows` rows): maximal runs of scalar fields, and
    /// nested fields.
    fn segments(&self, bound: &[BoundField<'_, '_>], rows: usize) -> Vec<Segment> {
        let mut segments: Vec<Segment> = Vec::new();
        for (k, field) in self.fields.iter().enumerate() {
            let Some(value_bound) = program_bound(&bound[k].program) else {
                segments.push(Segment::Nested(k));
                continue;
            };
            if !matches!(segments.last(), Some(Segment::Scalars { .. })) {
                let run = Segment::Scalars {
                    fields: k..k,
                    fixed: 1,
                    variable: Vec::new(),
                    bounds: Vec::new(),
                    name_width: 16,
                    closes: false,
                };
                segments.push(run);
            }
            if let Some(Segment::Scalars { fields, fixed, variable, name_width, .. }) = segments.last_mut() {
                fields.end = k + 1;
                *name_width = run_width(*name_width, field.chunk_width());
                *fixed += field.bound() + value_bound.unwrap_or(0);
                if value_bound.is_none() {
                    variable.push(k);
                }
            }
        }
        if let Some(Segment::Scalars { closes, .. }) = segments.last_mut() {
            *closes = true;
        }
        for segment in &mut segments {
            if let Segment::Scalars { fixed, variable, bounds, .. } = segment {
                *bounds = run_bounds(bound, variable, *fixed, rows);
            }
        }
        segments
    }

    /// Writes the side's object for `row`.
    #[inline(always)]
    fn write_object(
        &self,
        segments: &[Segment],
        bound: &mut [BoundField<'_, '_>],
        cx: &WriteContext,
        out: &mut Vec<u8>,
        row: usize,
    ) -> WriteResult {
        if self.skip_nulls {
            self.write_segments::<true>(segments, bound, cx, out, row)
        } else {
            self.write_segments::<false>(segments, bound, cx, out, row)
        }
    }

    /// [`Self::write_object`] with `encode.ignore-null-fields` fixed.
    #[inline(always)]
    fn write_segments<const SKIP_NULLS: bool>(
        &self,
        segments: &[Segment],
        bound: &mut [BoundField<'_, '_>],
        cx: &WriteContext,
        out: &mut Vec<u8>,
        row: usize,
    ) -> WriteResult {
        if SKIP_NULLS || self.fields.is_empty() {
            out.push(b'{');
        }
        let mut first = true;
        for segment in segments {
            match segment {
                Segment::Scalars { fields, fixed, bounds, name_width, closes, .. } => {
                    let reserve = run_reserve(*fixed, bounds, row);
                    let (run, first, closes) = (&mut bound[fields.clone()], &mut first, *closes);
                    with_reserved(out, reserve, |w| match *name_width {
                        16 => write_run::<SKIP_NULLS, 16>(run, w, row, cx, first, closes),
                        NAME_CHUNK => write_run::<SKIP_NULLS, NAME_CHUNK>(run, w, row, cx, first, closes),
                        _ => write_run::<SKIP_NULLS, 0>(run, w, row, cx, first, closes),
                    })?;
                }
                Segment::Nested(k) => {
                    let BoundField { program, name } = &mut bound[*k];
                    if let ColumnProgram::Nested(values) = program {
                        nested_field::<SKIP_NULLS>(values, out, name, row, cx, &mut first)?;
                    }
                }
            }
        }
        if !matches!(segments.last(), Some(Segment::Scalars { closes: true, .. })) {
            out.push(b'}');
        }
        Ok(())
    }
}

/// Each row's reservation for a run: `fixed` plus the bounds of its binary values and of its
/// strings without one bound for the batch (`variable`), a column at a time for the whole batch,
/// where adding them per row cost a jump per value (docs/performance.md). Empty when the run has
/// no such value: `fixed` serves, and the batch costs no pass over its rows.
fn run_bounds(bound: &[BoundField<'_, '_>], variable: &[usize], fixed: usize, rows: usize) -> Vec<usize> {
    if variable.is_empty() {
        return Vec::new();
    }
    let mut bounds = vec![fixed; rows];
    for &k in variable {
        bound[k].program.add_variable_bounds(&mut bounds);
    }
    bounds
}

/// The reservation of a run for `row` ([`run_bounds`]).
#[inline(always)]
fn run_reserve(fixed: usize, bounds: &[usize], row: usize) -> usize {
    match bounds.get(row) {
        Some(&bound) => bound,
        None => fixed,
    }
}

/// Adds each row's bound of `accessor`'s values to `bounds`.
fn add_bounds<A: Scalar>(accessor: &A, bounds: &mut [usize]) {
    for (row, total) in bounds.iter_mut().enumerate() {
        *total += accessor.bound(row);
    }
}

/// Writes a run of scalar fields (and the closing `}` if `closes`); `row` is taken by value so
/// it stays in a register across the writes. Never inlined: it is too large to inline into
/// the row loop, and as a function of its own its arguments come in registers, where the
/// closure of [`with_reserved`] would reload them from its captures (docs/performance.md).
#[inline(never)]
fn write_run<const SKIP_NULLS: bool, const WIDTH: usize>(
    run: &mut [BoundField<'_, '_>],
    w: &mut Reserved<'_>,
    row: usize,
    cx: &WriteContext,
    first: &mut bool,
    closes: bool,
) -> WriteResult {
    for BoundField { program, name } in run {
        program.write_field::<SKIP_NULLS, true, WIDTH, _>(w, name, row, cx, first)?;
    }
    if closes {
        w.put_byte(b'}');
    }
    Ok(())
}

/// The chunk width a run's names fit once a name of width `name` joins a run of width `run`.
fn run_width(run: usize, name: usize) -> usize {
    if run == 0 || name == 0 {
        0
    } else {
        run.max(name)
    }
}

/// `Some(fixed bound)` of a scalar field's value (`Some(None)`: it depends on the row); `None`
/// for a nested one.
fn program_bound(program: &ColumnProgram<'_>) -> Option<Option<usize>> {
    match program {
        ColumnProgram::Nested(_) => None,
        scalar => Some(scalar.fixed_bound()),
    }
}

/// A top-level nested field, inlined into the row loop (docs/performance.md).
#[inline(always)]
fn nested_field<const SKIP_NULLS: bool>(
    values: &mut NestedProgram<'_>,
    out: &mut Vec<u8>,
    field: &FieldName,
    row: usize,
    cx: &WriteContext,
    first: &mut bool,
) -> WriteResult {
    let (name, null) = (&Prefixed::<SKIP_NULLS, 0>(field), values.is_null(row));
    layout::object_nested_field::<SKIP_NULLS, _>(out, name, first, null, |out| values.write(out, row, cx))
}

/// A part of a side's row: scalar fields written into one reservation (`fixed` bytes plus the
/// row-dependent bounds of the `variable` columns, per row in `bounds`), or one nested field.
enum Segment {
    /// `name_width`: the chunk width all names of the run fit (0: one fits none). `closes`: the
    /// segment ends the object and writes its `}`.
    Scalars {
        fields: Range<usize>,
        fixed: usize,
        variable: Vec<usize>,
        bounds: Vec<usize>,
        name_width: usize,
        closes: bool,
    },
    Nested(usize),
}

/// A field bound for one batch: its accessor beside its name, so a run walks one slice.
struct BoundField<'s, 'a> {
    program: ColumnProgram<'a>,
    name: &'s FieldName,
}

/// One side bound for one batch: its bound fields, in field order, and its segments.
struct BoundSide<'s, 'a> {
    fields: &'s SideFields,
    bound: Vec<BoundField<'s, 'a>>,
    segments: Vec<Segment>,
    /// The writer of a side that is one run of scalar fields (`None`: it has nested fields).
    lone_run: Option<LoneRun>,
    /// Whether a column of the side holds a null in this batch.
    nulls: bool,
}

impl<'s, 'a> BoundSide<'s, 'a> {
    fn bind(fields: &'s SideFields, columns: &'a [BoundColumn<'a>], rows: usize) -> Result<Self> {
        let bound = fields.bind(columns)?;
        let segments = fields.segments(&bound, rows);
        let nulls = fields.fields.iter().any(|f| columns[f.column].nulls().is_some_and(|n| n.null_count() > 0));
        let mut side = BoundSide { fields, bound, segments, lone_run: None, nulls };
        side.lone_run = side.lone_width().map(|width| lone_run_writer(fields.skip_nulls, width));
        Ok(side)
    }

    /// The chunk width of the side's names if its fields are one run of scalars.
    fn lone_width(&self) -> Option<usize> {
        match self.segments.as_slice() {
            [Segment::Scalars { name_width, .. }] => Some(*name_width),
            _ => None,
        }
    }

    #[inline(always)]
    fn write(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
        match self.lone_run {
            Some(write) => write(self, cx, out, row),
            None => self.fields.write_object(&self.segments, &mut self.bound, cx, out, row),
        }
    }
}

/// The dynamic [`RowWriter`]: each side's column programs and segments for one batch. A column
/// in both sides has an accessor (and caches) in each.
pub(crate) struct ProgramRows<'s, 'a> {
    key: Option<BoundSide<'s, 'a>>,
    value: BoundSide<'s, 'a>,
}

impl<'s, 'a> ProgramRows<'s, 'a> {
    /// `rows`: the batch's row count (every column's length).
    pub(crate) fn bind(
        key: Option<&'s SideFields>,
        value: &'s SideFields,
        columns: &'a [BoundColumn<'a>],
        rows: usize,
    ) -> Result<Self> {
        let key = key.map(|k| BoundSide::bind(k, columns, rows)).transpose()?;
        Ok(ProgramRows { key, value: BoundSide::bind(value, columns, rows)? })
    }

    /// Runs `run` with the writer of these rows: one whose sides are inlined into the row loop
    /// when they are runs of scalars (`lone_run.rs`).
    pub(crate) fn run<R: RowsRun>(&mut self, run: R) -> R::Output {
        lone_run::run_rows(self, run)
    }
}

impl RowWriter for ProgramRows<'_, '_> {
    #[inline(always)]
    fn write_key(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
        match &mut self.key {
            Some(side) => side.write(cx, out, row),
            None => Ok(()),
        }
    }

    #[inline(always)]
    fn write_value(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
        self.value.write(cx, out, row)
    }
}

#[cfg(test)]
mod tests;
