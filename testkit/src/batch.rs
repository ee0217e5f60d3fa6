//! A random batch for a sink spec: every column in a layout drawn for its type, random row kinds.
use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{ArrayRef, Int8Array, RecordBatch, RecordBatchOptions};
use arrow_schema::{DataType as ArrowType, Field, Schema};
use kjson_runtime::SinkSpec;

use crate::arrays::array;
use crate::choices::Choices;
use crate::layout::{Layout, StrLayout};

/// How a batch is drawn.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub rows: usize,
    /// Chance of a null per nullable value, in 1/1000 (an array may still be all null, or carry a
    /// validity buffer without a null, unless this is 0).
    pub null_per_mille: u32,
    /// Whether NOT NULL columns and nested values may hold nulls anyway (a batch with such a
    /// column falls back to the dynamic column programs).
    pub nulls_in_not_null: bool,
    /// Whether values some sinks refuse may appear: a null map key (refused under FAIL), a TIME
    /// outside the day, seconds whose milliseconds overflow (refused at bind).
    pub refused_values: bool,
    /// Chance of a long string value (up to 70 KB), in 1/1000.
    pub long_text_per_mille: u32,
}

impl Shape {
    /// `rows` rows, a tenth of the values null, nothing an encoder refuses, short strings.
    pub fn new(rows: usize) -> Shape {
        Shape { rows, null_per_mille: 100, nulls_in_not_null: false, refused_values: false, long_text_per_mille: 0 }
    }
}

pub struct Drawn {
    pub batch: RecordBatch,
    pub row_kinds: Option<Int8Array>,
    /// The layout of each column, in the spec's order.
    pub layouts: Vec<Layout>,
}

/// A batch for `spec`: row kinds in four of five batches.
pub fn random_batch(spec: &SinkSpec, shape: Shape, c: &mut dyn Choices) -> Drawn {
    let mut fields = Vec::new();
    let mut arrays: Vec<ArrayRef> = Vec::new();
    let mut layouts = Vec::new();
    for column in &spec.columns {
        let layout = Layout::for_type(c, &column.data_type);
        let array = array(c, &layout, shape.rows, column.data_type.nullable, &shape);
        let mut field = Field::new(&column.name, array.data_type().clone(), true);
        // A string column in a Binary array is sometimes marked WTF-8, as kjson's JVM writer does.
        let binary_string = matches!(layout, Layout::Str { layout: StrLayout::Binary, .. });
        if binary_string && *array.data_type() == ArrowType::Binary && c.chance(500) {
            let (key, value) = kjson_runtime::encode::WTF8_METADATA;
            field = field.with_metadata(HashMap::from([(key.to_string(), value.to_string())]));
        }
        fields.push(field);
        arrays.push(array);
        layouts.push(layout);
    }
    let schema = Arc::new(Schema::new(fields));
    let options = RecordBatchOptions::new().with_row_count(Some(shape.rows));
    let batch = RecordBatch::try_new_with_options(schema, arrays, &options).expect("valid random batch");
    let row_kinds = c.chance(800).then(|| row_kinds(c, shape.rows));
    Drawn { batch, row_kinds, layouts }
}

/// `rows` random row kinds (INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE).
pub fn row_kinds(c: &mut dyn Choices, rows: usize) -> Int8Array {
    (0..rows).map(|_| c.below(4) as i8).collect()
}
