//! The dynamic (runtime) encoder: a task-local handle that encodes whole batches into key and
//! value slabs.
use arrow::array::{Array, ArrayRef, Int8Array, RecordBatch};

use crate::bind::{bind, undictionary, Column};
use crate::envelope::Envelope;
use crate::error::{KjsonError, Result};
use crate::options::Compatibility;
use crate::plan::{field_name_json, physical_fields, Plan};
use crate::slab::{KeyValueSlabs, Slab};
use crate::spec::{SideSpec, SinkSpec};
use crate::write::{write_field, ValueError, WriteContext};

/// Flink's RowKind, as carried in an optional `Int8` array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    Insert = 0,
    UpdateBefore = 1,
    UpdateAfter = 2,
    Delete = 3,
}

impl RowKind {
    pub fn from_byte(b: i8) -> Option<RowKind> {
        match b {
            0 => Some(RowKind::Insert),
            1 => Some(RowKind::UpdateBefore),
            2 => Some(RowKind::UpdateAfter),
            3 => Some(RowKind::Delete),
            _ => None,
        }
    }

    /// upsert-kafka turns these into tombstones.
    pub fn is_retraction(self) -> bool {
        matches!(self, RowKind::UpdateBefore | RowKind::Delete)
    }
}

/// One side of the record, resolved at open: which columns, under which names, with which options.
struct SidePlan {
    /// Index of the physical column, `"name":` bytes, and the name for error paths.
    fields: Vec<(usize, Vec<u8>, String)>,
    ctx: WriteContext,
    envelope: Envelope,
    label: &'static str,
}

impl SidePlan {
    fn new(side: &SideSpec, compatibility: Compatibility, label: &'static str) -> SidePlan {
        let fields = side
            .projection
            .iter()
            .zip(&side.field_names)
            .map(|(&col, name)| (col, field_name_json(name), name.clone()))
            .collect();
        let envelope = Envelope::for_format(&side.format, side.options.ignore_null_fields);
        SidePlan { fields, ctx: WriteContext::new(side.options.clone(), compatibility), envelope, label }
    }

    /// Writes one row as a JSON object into `slab`, inside the format's envelope if it has one.
    fn write_row(&self, slab: &mut Slab, columns: &[Column<'_>], row: usize, kind: RowKind) -> Result<()> {
        let start = slab.bytes.len();
        let out = &mut slab.bytes;
        let wrap = self.envelope.wrap_for(kind);
        if let Some(w) = wrap {
            out.extend_from_slice(w.before);
        }
        out.push(b'{');
        let mut first = true;
        for (col, name_json, name) in &self.fields {
            write_field(&self.ctx, out, &mut first, name_json, name, &columns[*col], row)
                .map_err(|e| self.row_error(e, row))?;
        }
        out.push(b'}');
        if let Some(w) = wrap {
            out.extend_from_slice(w.after);
        }
        slab.finish_record(start)
    }

    #[cold]
    fn row_error(&self, error: ValueError, row: usize) -> KjsonError {
        let (path, message) = match error {
            ValueError::NullMapKey { path } => (
                path,
                "JSON format doesn't support to serialize map data with null keys. You can drop null key entries or encode null in literals by specifying map-null-key.mode option.".to_string(),
            ),
            ValueError::OutOfRange { path, what } => (path, what),
        };
        let fields: Vec<&str> = path.iter().rev().map(String::as_str).collect();
        let message = format!("{} of row {row}, field `{}`: {message}", self.label, fields.join("."));
        match message.contains("map-null-key.mode") {
            true => KjsonError::MapNullKey { message },
            false => KjsonError::schema(message),
        }
    }
}

/// A task-local encoder handle: the spec is parsed once at open, the plan is built on the first
/// batch and reused afterwards. `Send`, never shared between threads.
pub struct DynamicEncoder {
    spec: SinkSpec,
    compatibility: Compatibility,
    column_names: Vec<String>,
    key: Option<SidePlan>,
    value: SidePlan,
    plan: Option<Plan>,
    slabs: KeyValueSlabs,
}

impl DynamicEncoder {
    pub fn open(spec: SinkSpec, compatibility: Compatibility) -> Result<Self> {
        let key = spec.key.as_ref().map(|k| SidePlan::new(k, compatibility, "key"));
        let value = SidePlan::new(&spec.value, compatibility, "value");
        let column_names = spec.columns.iter().map(|c| c.name.clone()).collect();
        Ok(DynamicEncoder { spec, compatibility, column_names, key, value, plan: None, slabs: KeyValueSlabs::default() })
    }

    /// Encodes one batch whose columns are the spec's physical columns, in order.
    /// `row_kinds` holds Flink RowKind values (0 +I, 1 -U, 2 +U, 3 -D); absent means all +I.
    /// On error nothing is handed out; the next call starts afresh.
    pub fn encode(&mut self, batch: &RecordBatch, row_kinds: Option<&Int8Array>) -> Result<&KeyValueSlabs> {
        self.slabs.clear();
        self.ensure_plan(batch)?;
        let kinds = check_row_kinds(row_kinds, batch.num_rows())?;
        let arrays = batch.columns().iter().map(undictionary).collect::<Result<Vec<ArrayRef>>>()?;
        let Some(plan) = self.plan.as_ref() else { unreachable!("plan built above") };
        let columns = plan
            .columns
            .iter()
            .zip(&arrays)
            .map(|(node, array)| bind(node, array.as_ref()))
            .collect::<Result<Vec<_>>>()?;
        let upsert = self.spec.is_upsert();
        let slabs = &mut self.slabs;
        reserve(slabs, batch);
        for row in 0..batch.num_rows() {
            // The key is always an insert-only row (Flink resets its RowKind).
            match &self.key {
                Some(key) => key.write_row(&mut slabs.keys, &columns, row, RowKind::Insert)?,
                None => slabs.keys.push_null(),
            }
            let kind = kinds.and_then(|k| RowKind::from_byte(k.value(row))).unwrap_or(RowKind::Insert);
            if upsert && kind.is_retraction() {
                slabs.values.push_null();
            } else {
                self.value.write_row(&mut slabs.values, &columns, row, kind)?;
            }
        }
        Ok(&self.slabs)
    }

    fn ensure_plan(&mut self, batch: &RecordBatch) -> Result<()> {
        let schema = batch.schema();
        let fields = physical_fields(&schema, None);
        match &self.plan {
            Some(plan) => plan.check_same_schema(&self.column_names, &fields),
            None => {
                let columns: Vec<_> = self.spec.columns.iter().map(|c| (c.name.clone(), c.data_type.clone())).collect();
                self.plan = Some(Plan::build(&columns, &fields)?);
                Ok(())
            }
        }
    }

    pub fn spec(&self) -> &SinkSpec {
        &self.spec
    }

    pub fn compatibility(&self) -> Compatibility {
        self.compatibility
    }

    /// The plan built from the first batch, if any.
    pub fn plan(&self) -> Option<&Plan> {
        self.plan.as_ref()
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
