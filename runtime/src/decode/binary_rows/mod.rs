//! Decoded rows as the bytes of Flink's `BinaryRowData`, so that a JVM source can hand rows to
//! Flink by pointing a `BinaryRowData` at them instead of building each field of a
//! `GenericRowData`. Columns of every type the decoder reads, nested ones at any depth (see
//! `nested.rs` for `BinaryArrayData` and `BinaryMapData`); [`binary_rows_refusal`] says, once, at
//! open, when the rows must stay on Arrow.
//!
//! The layout, per row: a fixed part of `null_bytes + 8 * arity` bytes, where the first byte is
//! the RowKind, bit `8 + i` of the leading `null_bytes` (a multiple of 8) marks field `i` null, and
//! each field has an 8-byte slot (a null field's slot is zero); then the variable part, the values
//! that do not fit a slot in field order, each at an 8-byte boundary, zero-padded, its slot
//! holding `offset << 32 | size` (offset from the row's start). Strings and bytes of up to 7 bytes
//! stay in the slot (the bytes, then `0x80 | length` in its last byte). A DECIMAL of precision
//! above 18 takes 16 bytes of the variable part (its unscaled value as Java's
//! `BigInteger.toByteArray`), a TIMESTAMP above precision 3 takes 8 (its epoch milliseconds, the
//! slot's size its nanoseconds of the millisecond). Little-endian, as Flink's `MemorySegment`
//! on the platforms kjson builds for.
mod cells;
mod map_order;
mod nested;
mod slots;

use arrow_array::RecordBatch;
use arrow_schema::Schema;

use self::nested::Node;
use self::slots::{fixed_size, Target};
use super::DecodedBatch;
use crate::error::{KjsonError, Result};

/// The rows of a decoded batch laid out as Flink's `BinaryRowData`, ready to be written into one
/// slab (a new Java `byte[]`, say): row `i` takes `sizes()[i]` bytes from `offsets()[i]`, each
/// row 8-byte aligned, back to back.
pub struct BinaryRows<'a> {
    cells: Vec<Node<'a>>,
    row_kinds: &'a [i8],
    /// Each row's start, then the end of the last row.
    starts: Vec<usize>,
}

/// Why the decoded rows of `schema` cannot be written as `BinaryRowData` (a big-endian platform,
/// or a column of a type this path does not know, named), or `None` when they can.
pub fn binary_rows_refusal(schema: &Schema) -> Option<String> {
    if cfg!(target_endian = "big") {
        return Some("binary rows are written little-endian only".into());
    }
    schema.fields().iter().find(|f| !nested::is_written(f.data_type())).map(|f| {
        format!("column `{}` ({}) is not a type this path writes; its rows stay on Arrow", f.name(), f.data_type())
    })
}

impl DecodedBatch {
    /// The batch's rows (physical and metadata columns) as `BinaryRowData`, each row's header
    /// byte its RowKind. Refused as [`binary_rows_refusal`] says, or when the rows take more
    /// bytes than one Java array holds.
    pub fn binary_rows(&self) -> Result<BinaryRows<'_>> {
        BinaryRows::of(&self.batch, &self.row_kinds)
    }
}

impl<'a> BinaryRows<'a> {
    fn of(batch: &'a RecordBatch, row_kinds: &'a [i8]) -> Result<BinaryRows<'a>> {
        if let Some(reason) = binary_rows_refusal(&batch.schema()) {
            return Err(KjsonError::schema(reason));
        }
        let cells = batch.columns().iter().map(|c| Node::bind(c.as_ref())).collect::<Option<Vec<_>>>();
        let cells =
            cells.ok_or_else(|| KjsonError::internal("a decoded column does not have the layout its type gives"))?;
        let starts = row_starts(&cells, fixed_size(cells.len()), batch.num_rows())?;
        Ok(BinaryRows { cells, row_kinds, starts })
    }

    /// The bytes of all rows.
    pub fn byte_len(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    pub fn row_count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Each row's offset in the slab (it fits an `i32`: checked when laid out).
    pub fn offsets(&self) -> Vec<i32> {
        self.starts[..self.row_count()].iter().map(|&o| o as i32).collect()
    }

    /// Each row's size in bytes.
    pub fn sizes(&self) -> Vec<i32> {
        self.starts.windows(2).map(|w| (w[1] - w[0]) as i32).collect()
    }

    /// Writes every row into `out`, which must hold [`Self::byte_len`] zero bytes (as a new Java
    /// array does): only the bytes that are not zero are written.
    pub fn write_into_zeroed(&self, out: &mut [u8]) -> Result<()> {
        if out.len() != self.byte_len() {
            return Err(KjsonError::internal(format!(
                "a slab of {} bytes for binary rows of {} bytes",
                out.len(),
                self.byte_len()
            )));
        }
        for (row, kind) in self.row_kinds.iter().enumerate() {
            out[self.starts[row]] = *kind as u8;
        }
        let mut cursors = vec![fixed_size(self.cells.len()); self.row_count()];
        for (field, cell) in self.cells.iter().enumerate() {
            cell.fill(&mut Target::new(out, &self.starts, &mut cursors, field, self.cells.len()));
        }
        Ok(())
    }

    /// The rows in a new slab.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = vec![0; self.byte_len()];
        self.write_into_zeroed(&mut out).expect("the slab has the rows' length");
        out
    }
}

/// Each row's start, and the end of the last row: the fixed part plus each column's variable
/// part, summed one column at a time.
fn row_starts(cells: &[Node<'_>], fixed: usize, rows: usize) -> Result<Vec<usize>> {
    let mut sizes = vec![fixed; rows];
    for cell in cells.iter().filter(|c| c.has_variable_part()) {
        for (row, size) in sizes.iter_mut().enumerate() {
            *size += cell.variable_size(row);
        }
    }
    let mut starts = Vec::with_capacity(rows + 1);
    let mut at = 0usize;
    starts.push(0);
    for size in sizes {
        at += size;
        starts.push(at);
    }
    if at > i32::MAX as usize - 16 {
        return Err(KjsonError::Limit {
            message: format!(
                "the decoded rows take {at} bytes as BinaryRowData, more than one Java array holds; split the fetch"
            ),
        });
    }
    Ok(starts)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod nested_tests;

#[cfg(test)]
mod map_order_tests;
