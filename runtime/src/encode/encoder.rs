//! The encoder core: a task-local handle that encodes whole batches into key and value slabs,
//! through the column programs (dynamic) or a generated schema's rows, chosen at open.
use arrow_array::{Array, ArrayRef, Int8Array, RecordBatch};

use super::bind::{bind, undictionary, BoundColumn};
use super::context::{ValueError, WriteContext};
use super::plan::{physical_fields, Plan};
use super::program::{ProgramRows, SideFields};
use super::row_writer::{RowWriter, RowsRun};
use super::slab::{KeyValueSlabs, Slab};
use crate::error::{KjsonError, Result};
use crate::options::Compatibility;
use crate::spec::{Envelope, SideSpec, SinkSpec};
use crate::types::RowKind;

/// One side of the record, resolved at open: which columns, under which names, with which options.
pub(crate) struct SidePlan {
    fields: SideFields,
    pub(crate) ctx: WriteContext,
    envelope: Envelope,
    label: &'static str,
}

impl SidePlan {
    fn new(side: &SideSpec, compatibility: Compatibility, label: &'static str) -> SidePlan {
        let names = side.projection.iter().copied().zip(side.field_names.iter().cloned());
        let fields = SideFields::new(names, side.options.ignore_null_fields, side.options.timestamp_format);
        let envelope = side.format.envelope(side.options.ignore_null_fields);
        SidePlan { fields, ctx: WriteContext::new(side.options.clone(), compatibility), envelope, label }
    }

    /// Writes one record into `slab`: the row's object on this side (`key`: the key, else the
    /// value) written by `writer`, inside the format's envelope if it has one. The writer is
    /// called here, not through a closure: a large closure stays a function of its own, a call
    /// frame per row (docs/performance.md).
    #[inline(always)]
    fn write_record<W: RowWriter>(
        &self,
        slab: &mut Slab,
        row: usize,
        kind: RowKind,
        writer: &mut W,
        key: bool,
    ) -> Result<()> {
        let start = slab.bytes.len();
        let wrap = self.envelope.wrap_for(kind);
        if let Some(w) = wrap {
            slab.bytes.extend_from_slice(w.before);
        }
        let written = if key {
            writer.write_key(&self.ctx, &mut slab.bytes, row)
        } else {
            writer.write_value(&self.ctx, &mut slab.bytes, row)
        };
        written.map_err(|e| row_error(self.label, e, row))?;
        if let Some(w) = wrap {
            slab.bytes.extend_from_slice(w.after);
        }
        slab.finish_record(start)
    }
}

const NULL_MAP_KEY: &str = "JSON format doesn't support to serialize map data with null keys. You can drop null key \
    entries or encode null in literals by specifying map-null-key.mode option.";

/// The error of a failed row: Flink's message, with the path of ROW fields that led to it.
#[cold]
fn row_error(label: &str, error: ValueError, row: usize) -> KjsonError {
    let at = |path: &[String]| {
        let fields: Vec<&str> = path.iter().rev().map(String::as_str).collect();
        format!("{label} of row {row}, field `{}`", fields.join("."))
    };
    match error {
        ValueError::NullMapKey { path } => KjsonError::MapNullKey { message: format!("{}: {NULL_MAP_KEY}", at(&path)) },
        ValueError::OutOfRange { path, what } => KjsonError::schema(format!("{}: {what}", at(&path))),
    }
}

/// Both sides of the record and the connector's tombstone rule.
pub(crate) struct Sides {
    key: Option<SidePlan>,
    value: SidePlan,
    upsert: bool,
}

/// Makes a batch's specialized [`RowWriter`] from its bound columns.
pub trait RowBinder {
    type Rows<'a>: RowWriter;
    /// `None`: this batch goes through the column programs instead.
    fn bind_rows<'a>(columns: &'a [BoundColumn<'a>]) -> Result<Option<Self::Rows<'a>>>;
}

/// The dynamic encoder's binder: always the column programs.
enum ProgramsOnly {}

impl RowBinder for ProgramsOnly {
    type Rows<'a> = ProgramRows<'a, 'a>;
    fn bind_rows<'a>(_: &'a [BoundColumn<'a>]) -> Result<Option<Self::Rows<'a>>> {
        Ok(None)
    }
}

/// The row loop shared by every encoder: keys, values, envelopes and upsert tombstones.
#[inline(always)]
fn encode_rows<W: RowWriter>(
    sides: &Sides,
    slabs: &mut KeyValueSlabs,
    writer: &mut W,
    kinds: Option<&Int8Array>,
    rows: usize,
) -> Result<()> {
    let kinds = kinds.map(|k| k.values().as_ref());
    if sides.key.is_none() {
        slabs.keys.push_nulls(rows);
    }
    for row in 0..rows {
        // The key is always an insert-only row (Flink resets its RowKind).
        if let Some(key) = &sides.key {
            key.write_record(&mut slabs.keys, row, RowKind::Insert, writer, true)?;
        }
        let kind = kinds.and_then(|k: &[i8]| RowKind::from_byte(k[row])).unwrap_or(RowKind::Insert);
        if sides.upsert && kind.is_retraction() {
            slabs.values.push_null();
        } else {
            sides.value.write_record(&mut slabs.values, row, kind, writer, false)?;
        }
    }
    Ok(())
}

/// One batch's rows through the rows `B` binds, or through the column programs where it declines.
fn bind_and_encode_rows<B: RowBinder>(
    sides: &Sides,
    slabs: &mut KeyValueSlabs,
    columns: &[BoundColumn<'_>],
    kinds: Option<&Int8Array>,
    rows: usize,
) -> Result<()> {
    match B::bind_rows(columns)? {
        Some(mut writer) => encode_rows(sides, slabs, &mut writer, kinds, rows),
        None => {
            let key = sides.key.as_ref().map(|k| &k.fields);
            ProgramRows::bind(key, &sides.value.fields, columns, rows)?.run(RowLoop { sides, slabs, kinds, rows })
        }
    }
}

/// [`encode_rows`] for the writer the column programs pick per batch.
struct RowLoop<'x, 'k> {
    sides: &'x Sides,
    slabs: &'x mut KeyValueSlabs,
    kinds: Option<&'k Int8Array>,
    rows: usize,
}

impl RowsRun for RowLoop<'_, '_> {
    type Output = Result<()>;

    fn run<W: RowWriter>(self, writer: &mut W) -> Result<()> {
        encode_rows(self.sides, self.slabs, writer, self.kinds, self.rows)
    }
}

/// The row loop of one kind of encoder, chosen at open: [`bind_and_encode_rows`] for its binder.
type RowLoopFn = fn(&Sides, &mut KeyValueSlabs, &[BoundColumn<'_>], Option<&Int8Array>, usize) -> Result<()>;

/// How many Arrow encodings of the batch an [`EncoderCore`] keeps a plan for; the least recently
/// used is dropped first.
pub const PLANS_KEPT: usize = 4;

/// The task-local encoder handle, dynamic or generated: the spec parsed once at open, one set of
/// slabs, the row loop (column programs or a generated schema's rows) chosen at open, and a plan
/// per Arrow encoding of the batch. Engines may change how a column is carried between batches
/// (Utf8, then Utf8View or a dictionary; a list item that becomes nullable) while the logical
/// types stay the same: a new encoding is planned (and refused if it does not fit the sink's
/// logical types, as on the first batch); up to [`PLANS_KEPT`] plans are kept.
/// `Send`, never shared between threads.
pub struct EncoderCore {
    spec: SinkSpec,
    compatibility: Compatibility,
    column_names: Vec<String>,
    sides: Sides,
    row_loop: RowLoopFn,
    /// Most recently used first.
    plans: Vec<Plan>,
    slabs: KeyValueSlabs,
}

impl EncoderCore {
    /// The dynamic encoder: every batch through the column programs.
    pub fn open_dynamic(spec: SinkSpec, compatibility: Compatibility) -> Result<Self> {
        Self::open_with::<ProgramsOnly>(spec, compatibility)
    }

    /// The encoder whose rows `B` binds (a generated schema's, see `codegen_support`).
    pub(crate) fn open_with<B: RowBinder>(spec: SinkSpec, compatibility: Compatibility) -> Result<Self> {
        let key = spec.key.as_ref().map(|k| SidePlan::new(k, compatibility, "key"));
        let value = SidePlan::new(&spec.value, compatibility, "value");
        let sides = Sides { key, value, upsert: spec.is_upsert() };
        let column_names = spec.columns.iter().map(|c| c.name.clone()).collect();
        Ok(EncoderCore {
            spec,
            compatibility,
            column_names,
            sides,
            row_loop: bind_and_encode_rows::<B>,
            plans: Vec::new(),
            slabs: KeyValueSlabs::default(),
        })
    }

    /// Encodes one batch whose columns are the spec's physical columns, in order.
    /// `row_kinds` holds Flink RowKind values (0 +I, 1 -U, 2 +U, 3 -D); absent means all +I.
    /// On error nothing is handed out; the next call starts afresh.
    pub fn encode(&mut self, batch: &RecordBatch, row_kinds: Option<&Int8Array>) -> Result<&KeyValueSlabs> {
        self.slabs.clear();
        self.select_plan(batch)?;
        let kinds = check_row_kinds(row_kinds, batch.num_rows())?;
        let arrays = batch.columns().iter().map(undictionary).collect::<Result<Vec<ArrayRef>>>()?;
        let columns = self.plans[0]
            .columns
            .iter()
            .zip(&arrays)
            .zip(&self.column_names)
            .map(|((node, array), name)| bind(node, array.as_ref()).map_err(|e| e.in_column(name)))
            .collect::<Result<Vec<_>>>()?;
        reserve(&mut self.slabs, batch);
        (self.row_loop)(&self.sides, &mut self.slabs, &columns, kinds, batch.num_rows())?;
        Ok(&self.slabs)
    }

    /// Moves the plan for this batch's Arrow encoding to the front, building one if there is
    /// none. A refused encoding leaves no plan behind.
    fn select_plan(&mut self, batch: &RecordBatch) -> Result<()> {
        let schema = batch.schema();
        let fields = physical_fields(&schema, None);
        if let Some(found) = self.plans.iter().position(|p| p.carried_as(&fields)) {
            self.plans[..=found].rotate_right(1);
            return Ok(());
        }
        let columns: Vec<_> = self.spec.columns.iter().map(|c| (c.name.clone(), c.data_type.clone())).collect();
        let plan = Plan::build(&columns, &fields)?;
        self.plans.truncate(PLANS_KEPT - 1);
        self.plans.insert(0, plan);
        Ok(())
    }

    /// How many Arrow encodings this encoder holds a plan for (at most [`PLANS_KEPT`]).
    pub fn plans_kept(&self) -> usize {
        self.plans.len()
    }

    pub fn spec(&self) -> &SinkSpec {
        &self.spec
    }

    pub fn compatibility(&self) -> Compatibility {
        self.compatibility
    }
}

fn check_row_kinds(kinds: Option<&Int8Array>, rows: usize) -> Result<Option<&Int8Array>> {
    let Some(k) = kinds else { return Ok(None) };
    if k.len() != rows {
        return Err(KjsonError::schema(format!("row kind array has {} entries, the batch has {rows} rows", k.len())));
    }
    if let Some(row) = (0..rows).find(|&i| k.is_null(i) || RowKind::from_byte(k.value(i)).is_none()) {
        let found = if k.is_null(row) { "null".to_string() } else { k.value(row).to_string() };
        return Err(KjsonError::schema(format!(
            "row kind of row {row} is {found}; expected 0 (+I), 1 (-U), 2 (+U) or 3 (-D)"
        )));
    }
    Ok(Some(k))
}

/// Pre-sizes the slabs from the batch's buffer sizes so most rows append without regrowth.
fn reserve(slabs: &mut KeyValueSlabs, batch: &RecordBatch) {
    let rows = batch.num_rows();
    let estimate = batch.get_array_memory_size().saturating_mul(2).min(1 << 30);
    slabs.values.bytes.reserve(estimate);
    slabs.values.offsets.reserve(rows);
    slabs.values.lengths.reserve(rows);
    slabs.keys.offsets.reserve(rows);
    slabs.keys.lengths.reserve(rows);
}
