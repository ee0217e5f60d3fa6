//! A column of any depth bound for writing: scalars through [`Cell`], ROW as a nested
//! `BinaryRowData` (header byte 0), ARRAY as `BinaryArrayData`, MAP and MULTISET as
//! `BinaryMapData` (the byte length of a key array, the key array, then a value array of the
//! same length; a MULTISET's values are its INT counts).
//!
//! `BinaryArrayData`: the element count as an int, null bits from byte 4 (bit `i` of byte
//! `4 + i / 8`, in whole 4-byte words), one slot per element of the element type's width
//! (1 for BOOLEAN and TINYINT, 2 for SMALLINT, 4 for INT, FLOAT, DATE and TIME, else 8), the
//! fixed part padded to 8 bytes; then the variable part as in a row, offsets from the array's
//! start. A null element is its null bit and a zero slot: nothing is reserved for it.
use std::ops::Range;

use arrow_array::cast::AsArray;
use arrow_array::Array;
use arrow_buffer::NullBuffer;
use arrow_schema::DataType as ArrowType;

use super::cells::{self, is_timestamp, Cell};
use super::map_order::{flink_string_hash, hash_map_order};
use super::slots::{fixed_size, null_bytes, Slot, Target};

/// Whether a decoded column of this Arrow type is written by this path, at any depth.
pub(super) fn is_written(ty: &ArrowType) -> bool {
    match ty {
        ArrowType::Struct(fields) if !is_timestamp(fields) => fields.iter().all(|f| is_written(f.data_type())),
        ArrowType::List(element) => is_written(element.data_type()),
        ArrowType::Map(entries, _) => is_written(entries.data_type()),
        _ => cells::is_scalar(ty),
    }
}

/// A decoded column, or the values inside one, bound for writing.
pub(super) enum Node<'a> {
    Scalar(Cell<'a>),
    Row { nulls: Option<&'a NullBuffer>, fields: Vec<Node<'a>> },
    Array { nulls: Option<&'a NullBuffer>, offsets: &'a [i32], element: Box<Node<'a>> },
    Map { nulls: Option<&'a NullBuffer>, offsets: &'a [i32], keys: Box<Node<'a>>, values: Box<Node<'a>> },
}

impl<'a> Node<'a> {
    /// The array's values, or `None` for a layout [`is_written`] refuses.
    pub(super) fn bind(array: &'a dyn Array) -> Option<Node<'a>> {
        Some(match array.data_type() {
            ArrowType::Struct(fields) if !is_timestamp(fields) => {
                let row = array.as_struct();
                let fields = row.columns().iter().map(|c| Node::bind(c.as_ref())).collect::<Option<_>>()?;
                Node::Row { nulls: row.nulls(), fields }
            }
            ArrowType::List(_) => {
                let list = array.as_list::<i32>();
                let element = Box::new(Node::bind(list.values().as_ref())?);
                Node::Array { nulls: list.nulls(), offsets: list.value_offsets(), element }
            }
            ArrowType::Map(..) => {
                let map = array.as_map();
                let (keys, values) = (Node::bind(map.keys().as_ref())?, Node::bind(map.values().as_ref())?);
                Node::Map { nulls: map.nulls(), offsets: map.value_offsets(), keys: keys.into(), values: values.into() }
            }
            _ => Node::Scalar(Cell::bind(array)?),
        })
    }

    fn nulls(&self) -> Option<&'a NullBuffer> {
        match self {
            Node::Scalar(_) => None,
            Node::Row { nulls, .. } | Node::Array { nulls, .. } | Node::Map { nulls, .. } => *nulls,
        }
    }

    fn is_null(&self, index: usize) -> bool {
        match self {
            Node::Scalar(cell) => cell.is_null(index),
            _ => self.nulls().is_some_and(|n| n.is_null(index)),
        }
    }

    pub(super) fn has_variable_part(&self) -> bool {
        match self {
            Node::Scalar(cell) => cell.has_variable_part(),
            _ => true,
        }
    }

    /// The bytes the value at `index` takes in the variable part of its row or array.
    pub(super) fn variable_size(&self, index: usize) -> usize {
        match self {
            Node::Scalar(cell) => cell.variable_size(index),
            _ if self.is_null(index) => 0,
            _ => self.size(index).next_multiple_of(8),
        }
    }

    /// The bytes of the nested value at `index` (not null), unpadded.
    fn size(&self, index: usize) -> usize {
        match self {
            Node::Scalar(_) => unreachable!("a scalar has no nested value"),
            Node::Row { fields, .. } => {
                fixed_size(fields.len()) + fields.iter().map(|f| f.variable_size(index)).sum::<usize>()
            }
            Node::Array { offsets, element, .. } => element.array_size(entries(offsets, index)),
            Node::Map { offsets, keys, values, .. } => {
                4 + keys.array_size(entries(offsets, index)) + values.array_size(entries(offsets, index))
            }
        }
    }

    /// The bytes of a `BinaryArrayData` of the values in `range`.
    fn array_size(&self, range: Range<usize>) -> usize {
        let fixed = array_fixed_size(self.element_size(), range.len());
        fixed + range.map(|i| self.variable_size(i)).sum::<usize>()
    }

    fn element_size(&self) -> usize {
        match self {
            Node::Scalar(cell) => cell.element_size(),
            _ => 8,
        }
    }

    /// Writes this column's field of every row.
    pub(super) fn fill(&self, out: &mut Target<'_>) {
        match self {
            Node::Scalar(cell) => cell.fill(out),
            _ => {
                for row in 0..out.rows() {
                    if self.is_null(row) {
                        out.null(row);
                    } else {
                        self.put(row, &mut out.slot_of(row));
                    }
                }
            }
        }
    }

    /// Writes the (non-null) value at `index` into `out`: a scalar in the slot, a nested value
    /// at the variable cursor.
    fn put(&self, index: usize, out: &mut Slot<'_>) {
        if let Node::Scalar(cell) = self {
            return cell.put(index, out);
        }
        let size = self.write(index, out.data, out.base + *out.cursor);
        out.offset_and_size(size as u32);
        *out.cursor += size.next_multiple_of(8);
    }

    /// Writes the nested value at `index` (not null) at `at` of a zeroed `data`; its size.
    fn write(&self, index: usize, data: &mut [u8], at: usize) -> usize {
        match self {
            Node::Scalar(_) => unreachable!("a scalar has no nested value"),
            Node::Row { fields, .. } => write_row(fields, index, data, at),
            Node::Array { offsets, element, .. } => element.write_array(entries(offsets, index), data, at),
            Node::Map { offsets, keys, values, .. } => {
                let order = keys.hash_map_order(entries(offsets, index));
                let key_size = keys.write_array(order.iter().copied(), data, at + 4);
                data[at..at + 4].copy_from_slice(&(key_size as i32).to_le_bytes());
                4 + key_size + values.write_array(order.iter().copied(), data, at + 4 + key_size)
            }
        }
    }

    /// The entries of a map with these keys in the order Flink's deserializer leaves them
    /// (`map_order`): positions in the child values.
    fn hash_map_order(&self, keys: Range<usize>) -> Vec<usize> {
        let Node::Scalar(cell) = self else { return keys.collect() };
        if keys.len() < 2 {
            return keys.collect();
        }
        let hashes: Option<Vec<u32>> = keys.clone().map(|i| cell.bytes(i).map(flink_string_hash)).collect();
        let Some(hashes) = hashes else { return keys.collect() }; // the JSON formats have string keys only
        let mut order = hash_map_order(&hashes);
        order.iter_mut().for_each(|k| *k += keys.start);
        order
    }

    /// Writes the values at `indices` as a `BinaryArrayData` at `at` of a zeroed `data`; its size.
    fn write_array(&self, indices: impl ExactSizeIterator<Item = usize>, data: &mut [u8], at: usize) -> usize {
        let (count, width) = (indices.len(), self.element_size());
        data[at..at + 4].copy_from_slice(&(count as i32).to_le_bytes());
        let header = array_header_size(count);
        let mut cursor = array_fixed_size(width, count);
        for (k, index) in indices.enumerate() {
            if self.is_null(index) {
                data[at + 4 + k / 8] |= 1 << (k % 8);
            } else {
                self.put(index, &mut Slot { data, base: at, at: at + header + width * k, cursor: &mut cursor });
            }
        }
        cursor
    }
}

/// Writes row `index` of `fields` as a nested `BinaryRowData` (header byte 0) at `at` of a
/// zeroed `data`; its size.
fn write_row(fields: &[Node<'_>], index: usize, data: &mut [u8], at: usize) -> usize {
    let mut cursor = fixed_size(fields.len());
    for (f, field) in fields.iter().enumerate() {
        if field.is_null(index) {
            let bit = f + 8; // after the header byte
            data[at + bit / 8] |= 1 << (bit % 8);
        } else {
            let slot = at + null_bytes(fields.len()) + 8 * f;
            field.put(index, &mut Slot { data, base: at, at: slot, cursor: &mut cursor });
        }
    }
    cursor
}

/// The entries of list or map `index` in the child values.
fn entries(offsets: &[i32], index: usize) -> Range<usize> {
    offsets[index] as usize..offsets[index + 1] as usize
}

/// The element count and the null bits of an array of `count` elements, in whole 4-byte words.
fn array_header_size(count: usize) -> usize {
    4 + count.div_ceil(32) * 4
}

/// An array's header and element slots, padded to 8 bytes.
fn array_fixed_size(width: usize, count: usize) -> usize {
    (array_header_size(count) + width * count).next_multiple_of(8)
}
