//! Reading Arrow IPC input (file or stream format, detected from the first bytes) and splitting
//! off the row-kind column.
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use std::sync::Arc;

use arrow_array::{make_array, Array, Int8Array, RecordBatch};

use arrow_array::cast::AsArray;

use arrow_data::ArrayData;
use arrow_ipc::reader::{FileReader, StreamReader};
use arrow_schema::{DataType, Field, Schema};

/// Batches from an Arrow IPC file or stream.
pub type BatchIter = Box<dyn Iterator<Item = Result<RecordBatch, String>>>;

/// Opens `path` as an Arrow IPC file (magic `ARROW1`) or, failing that, as an IPC stream.
///
/// Arrow's Map forbids nullable keys, Flink's MAP allows null keys: a Map whose key field is
/// declared nullable is read without arrow-rs's up-front check, relabelled as the equivalent
/// List of key/value structs, and then fully validated.
pub fn read_batches(path: &Path) -> Result<BatchIter, String> {
    let mut file = File::open(path).map_err(|e| format!("cannot open input {}: {e}", path.display()))?;
    let mut magic = [0u8; 6];
    let is_file = file.read_exact(&mut magic).is_ok() && &magic == b"ARROW1";
    file.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    let shown = path.display().to_string();
    let fail = move |e: arrow_schema::ArrowError| format!("reading {shown}: {e}");
    let shown = path.display().to_string();
    if is_file {
        let mut reader = guarded(&shown, || FileReader::try_new(BufReader::new(file), None))?
            .map_err(|e| format!("{shown} is not a readable Arrow IPC file: {e}"))?;
        if has_nullable_map_keys(&reader.schema()) {
            // SAFETY: every batch is relabelled and fully validated in `revalidate` before use.
            reader = unsafe { reader.with_skip_validation(true) };
        }
        Ok(Box::new(Guarded {
            batches: reader.map(move |b| b.map_err(&fail).and_then(revalidate)),
            shown,
            failed: false,
        }))
    } else {
        let mut reader = guarded(&shown, || StreamReader::try_new(BufReader::new(file), None))?
            .map_err(|e| format!("{shown} is neither an Arrow IPC file nor an IPC stream: {e}"))?;
        if has_nullable_map_keys(&reader.schema()) {
            // SAFETY: as above, `revalidate` fully validates every batch.
            reader = unsafe { reader.with_skip_validation(true) };
        }
        Ok(Box::new(Guarded {
            batches: reader.map(move |b| b.map_err(&fail).and_then(revalidate)),
            shown,
            failed: false,
        }))
    }
}

/// Runs a step of arrow's IPC reader, turning a panic into an error: arrow-ipc 60 asserts,
/// rather than returns an error, on some corrupt buffer and block descriptors. The reader is
/// not used again after one (see [`Guarded`]).
fn guarded<T>(shown: &str, step: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(step)).map_err(|panic| {
        let detail = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("no detail");
        format!("{shown} is a corrupt Arrow IPC input (the reader failed: {detail})")
    })
}

/// The batches of a reader, each read under [`guarded`]; ends after a caught panic.
struct Guarded<I> {
    batches: I,
    shown: String,
    failed: bool,
}

impl<I: Iterator<Item = Result<RecordBatch, String>>> Iterator for Guarded<I> {
    type Item = Result<RecordBatch, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let batches = &mut self.batches;
        guarded(&self.shown, || batches.next()).unwrap_or_else(|error| {
            self.failed = true;
            Some(Err(error))
        })
    }
}

fn has_nullable_map_keys(schema: &Schema) -> bool {
    schema.fields().iter().any(|f| relabel_type(f.data_type()).is_some())
}

/// The type with nullable-key Maps turned into Lists of entries, `None` if unchanged.
fn relabel_type(ty: &DataType) -> Option<DataType> {
    let field = |f: &Field| relabel_type(f.data_type()).map(|t| Arc::new(f.clone().with_data_type(t)));
    match ty {
        DataType::Map(entries, _) => {
            let key_nullable =
                matches!(entries.data_type(), DataType::Struct(kv) if kv.first().is_some_and(|k| k.is_nullable()));
            match (field(entries), key_nullable) {
                (Some(f), true) => Some(DataType::List(f)),
                (None, true) => Some(DataType::List(entries.clone())),
                (Some(f), false) => Some(DataType::Map(f, false)),
                (None, false) => None,
            }
        }
        DataType::List(f) => field(f).map(DataType::List),
        DataType::LargeList(f) => field(f).map(DataType::LargeList),
        DataType::FixedSizeList(f, n) => field(f).map(|f| DataType::FixedSizeList(f, *n)),
        DataType::Struct(fields) => {
            let changed: Vec<_> = fields.iter().map(|f| field(f)).collect();
            if changed.iter().all(Option::is_none) {
                return None;
            }
            let merged: Vec<Arc<Field>> =
                changed.into_iter().zip(fields.iter()).map(|(c, f)| c.unwrap_or_else(|| f.clone())).collect();
            Some(DataType::Struct(merged.into()))
        }
        _ => None,
    }
}

fn relabel_data(data: ArrayData) -> ArrayData {
    let Some(new_type) = relabel_type(data.data_type()) else { return data };
    let children: Vec<ArrayData> = data.child_data().iter().cloned().map(relabel_data).collect();
    // SAFETY: not used before `validate_full` in `revalidate`.
    unsafe { data.into_builder().data_type(new_type).child_data(children).build_unchecked() }
}

fn revalidate(batch: RecordBatch) -> Result<RecordBatch, String> {
    let schema = batch.schema();
    if !has_nullable_map_keys(&schema) {
        return Ok(batch);
    }
    let mut fields = Vec::new();
    let mut columns = Vec::new();
    for (field, column) in schema.fields().iter().zip(batch.columns()) {
        let data = relabel_data(column.to_data());
        data.validate_full().map_err(|e| format!("column `{}`: {e}", field.name()))?;
        fields.push(field.as_ref().clone().with_data_type(data.data_type().clone()));
        columns.push(make_array(data));
    }
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).map_err(|e| e.to_string())
}

/// Separates the named row-kind column (Int8) from the physical columns.
pub fn split_row_kinds(batch: &RecordBatch, column: Option<&str>) -> Result<(RecordBatch, Option<Int8Array>), String> {
    let Some(name) = column else { return Ok((batch.clone(), None)) };
    let schema = batch.schema();
    let index =
        schema.index_of(name).map_err(|_| format!("--row-kind-column: the input has no column named `{name}`"))?;
    let kinds = batch.column(index);
    if kinds.data_type() != &DataType::Int8 {
        return Err(format!("--row-kind-column: column `{name}` is {}, expected Int8", kinds.data_type()));
    }
    let kinds = kinds.as_primitive::<arrow_array::types::Int8Type>().clone();
    let keep: Vec<usize> = (0..batch.num_columns()).filter(|&i| i != index).collect();
    let physical = batch.project(&keep).map_err(|e| e.to_string())?;
    debug_assert_eq!(kinds.len(), physical.num_rows());
    Ok((physical, Some(kinds)))
}
