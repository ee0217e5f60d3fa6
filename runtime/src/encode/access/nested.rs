//! Accessors of nested layouts: a ROW's, an ARRAY's or a MAP's own nulls (and an ARRAY's or a
//! MAP's offsets, a MAP's keys), and the child columns that typed accessors of the fields, items
//! and values bind to. The layout primitives (`encode/layout.rs`) write brackets, names and
//! separators.
use std::borrow::Cow;

use arrow_buffer::NullBuffer;

use super::columns::BindColumn;
use crate::encode::bind::{BoundColumn, ByteValues, Offsets};
use crate::error::{KjsonError, Result};
use crate::spelling::escape;

#[cold]
fn not_nested(expected: &str) -> KjsonError {
    KjsonError::internal(format!("generated code expects a {expected} column, the plan bound another kind"))
}

/// ROW: only its nulls; the fields have accessors of their own.
pub struct Structs<'a> {
    nulls: Option<&'a NullBuffer>,
}

impl<'a> BindColumn<'a> for Structs<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::Row { nulls, .. } => Ok(Structs { nulls: *nulls }),
            _ => Err(not_nested("ROW")),
        }
    }
}

impl Structs<'_> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        self.nulls.is_some_and(|n| n.is_null(row))
    }
}

/// ARRAY: its nulls and the range of item positions of each value.
pub struct Lists<'a> {
    offsets: &'a Offsets<'a>,
    nulls: Option<&'a NullBuffer>,
}

impl<'a> BindColumn<'a> for Lists<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::List { offsets, nulls, .. } => Ok(Lists { offsets, nulls: *nulls }),
            _ => Err(not_nested("ARRAY")),
        }
    }
}

impl Lists<'_> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        self.nulls.is_some_and(|n| n.is_null(row))
    }

    /// Positions of value `row`'s items in the item column.
    #[inline(always)]
    pub fn range(&self, row: usize) -> std::ops::Range<usize> {
        let (start, end) = self.offsets.range(row);
        start..end
    }
}

/// MAP and MULTISET: its nulls, the range of entry positions of each value and its keys; each
/// value is written by a typed accessor of the value column (`layout::map`).
#[derive(Clone, Copy)]
pub struct Maps<'a> {
    offsets: &'a [i32],
    nulls: Option<&'a NullBuffer>,
    keys: Keys<'a>,
    values: &'a BoundColumn<'a>,
}

impl<'a> BindColumn<'a> for Maps<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::Map { offsets, nulls, keys, values } => {
                Ok(Maps { offsets, nulls: *nulls, keys: Keys::bind(keys)?, values })
            }
            _ => Err(not_nested("MAP")),
        }
    }
}

impl<'a> Maps<'a> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        self.nulls.is_some_and(|n| n.is_null(row))
    }

    /// Positions of value `row`'s entries in the key and value columns.
    #[inline(always)]
    pub fn range(&self, row: usize) -> std::ops::Range<usize> {
        self.offsets[row] as usize..self.offsets[row + 1] as usize
    }

    #[inline(always)]
    pub(crate) fn keys(&self) -> &Keys<'a> {
        &self.keys
    }

    /// The value column, for the rare value that is not written entry by entry: the one left
    /// of ROW values merged under a repeated key.
    pub(crate) fn values(&self) -> &'a BoundColumn<'a> {
        self.values
    }
}

/// A MAP's keys: always strings (the plan refuses others), possibly null, of any string layout.
#[derive(Clone, Copy)]
pub(crate) struct Keys<'a> {
    values: &'a ByteValues<'a>,
    nulls: Option<&'a NullBuffer>,
}

/// Maps with up to this many entries are checked for repeated keys pair by pair.
pub(crate) const SMALL_MAP: usize = 32;

impl<'a> Keys<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::Str(values, nulls, _) => Ok(Keys { values, nulls: *nulls }),
            _ => Err(not_nested("MAP with string keys")),
        }
    }

    #[inline(always)]
    pub fn is_null(&self, entry: usize) -> bool {
        self.nulls.is_some_and(|n| n.is_null(entry))
    }

    /// The non-null key at `entry` as Java sees it: binaries decoded as Java's UTF-8 decoder
    /// does, so that keys Jackson would merge compare equal.
    #[inline]
    pub fn java(&self, entry: usize) -> Cow<'a, [u8]> {
        match self.values {
            ByteValues::Utf8(_) | ByteValues::LargeUtf8(_) | ByteValues::Utf8View(_) => {
                Cow::Borrowed(self.values.bytes(entry))
            }
            values => escape::java_text(values.bytes(entry), values.text_bytes()),
        }
    }

    /// `"key":` of the non-null key at `entry`.
    #[inline]
    pub fn write(&self, out: &mut Vec<u8>, entry: usize) {
        self.values.write_string(out, entry);
        out.push(b':');
    }

    /// Whether the keys of `entries` can be written as they are: UTF-8, none null, none repeated
    /// (compared pair by pair, so only for small maps). `false` sends the map through the general
    /// rules: null keys, Java's decoding of binary keys, repeated keys.
    #[inline]
    pub fn distinct_utf8(&self, entries: std::ops::Range<usize>) -> bool {
        let (start, end) = (entries.start, entries.end);
        if end - start > SMALL_MAP || self.nulls.is_some_and(|n| entries.clone().any(|j| n.is_null(j))) {
            return false;
        }
        let repeated = match self.values {
            ByteValues::Utf8(array) => {
                let (offsets, data) = (array.value_offsets(), array.value_data());
                any_repeat(start, end, |j| &data[offsets[j] as usize..offsets[j + 1] as usize])
            }
            values @ (ByteValues::LargeUtf8(_) | ByteValues::Utf8View(_)) => {
                any_repeat(start, end, |j| values.bytes(j))
            }
            _ => return false,
        };
        !repeated
    }
}

#[inline(always)]
fn any_repeat<'k>(start: usize, end: usize, key: impl Fn(usize) -> &'k [u8]) -> bool {
    (start + 1..end).any(|j| {
        let later = key(j);
        (start..j).any(|e| key(e) == later)
    })
}

/// The value column of a bound MAP or MULTISET column.
pub fn map_values<'a>(column: &'a BoundColumn<'a>) -> Result<&'a BoundColumn<'a>> {
    match column {
        BoundColumn::Map { values, .. } => Ok(values),
        _ => Err(not_nested("MAP")),
    }
}

/// Field `index` of a bound ROW column.
pub fn row_field<'a>(column: &'a BoundColumn<'a>, index: usize) -> Result<&'a BoundColumn<'a>> {
    match column {
        BoundColumn::Row { fields, .. } => fields.get(index).ok_or_else(|| not_nested("ROW field")),
        _ => Err(not_nested("ROW")),
    }
}

/// The item column of a bound ARRAY column.
pub fn list_items<'a>(column: &'a BoundColumn<'a>) -> Result<&'a BoundColumn<'a>> {
    match column {
        BoundColumn::List { child, .. } => Ok(child),
        _ => Err(not_nested("ARRAY")),
    }
}
