//! A random batch for a sink spec: every column in a layout drawn for its type, random row kinds.
use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{ArrayRef, Int8Array, RecordBatch, RecordBatchOptions};
use arrow_schema::{DataType as ArrowType, Field, Schema};
use kjson_runtime::SinkSpec;

use crate::arrays::array;
use crate::choices::Choices;
use crate::layout::{Layout, StrLayout};
use crate::shape::Shape;

pub struct Drawn {
    pub batch: RecordBatch,
    pub row_kinds: Option<Int8Array>,
    /// The layout of each column, in the spec's order.
    pub layouts: Vec<Layout>,
}

/// A batch for `spec`, each column in a layout drawn for it; row kinds in four of five batches.
pub fn random_batch(spec: &SinkSpec, shape: Shape, c: &mut dyn Choices) -> Drawn {
    let layouts = layouts(spec, c);
    batch_in(spec, layouts, shape, c)
}

/// A layout for each column of `spec`, in its order.
pub fn layouts(spec: &SinkSpec, c: &mut dyn Choices) -> Vec<Layout> {
    spec.columns.iter().map(|column| Layout::for_type(c, &column.data_type)).collect()
}

/// A batch for `spec` in the given `layouts` (one per column, from [`layouts`]): batches of one
/// Arrow schema, as one producer sends them.
pub fn batch_in(spec: &SinkSpec, layouts: Vec<Layout>, shape: Shape, c: &mut dyn Choices) -> Drawn {
    let mut fields = Vec::new();
    let mut arrays: Vec<ArrayRef> = Vec::new();
    for (column, layout) in spec.columns.iter().zip(&layouts) {
        let array = array(c, layout, shape.rows, column.data_type.nullable, &shape);
        let mut field = Field::new(&column.name, array.data_type().clone(), true);
        // A string column in a Binary array is sometimes marked WTF-8, as kjson's JVM writer does.
        let binary_string = matches!(layout, Layout::Str { layout: StrLayout::Binary, .. });
        if binary_string && *array.data_type() == ArrowType::Binary && c.chance(500) {
            let (key, value) = kjson_runtime::encode::WTF8_METADATA;
            field = field.with_metadata(HashMap::from([(key.to_string(), value.to_string())]));
        }
        fields.push(field);
        arrays.push(array);
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
