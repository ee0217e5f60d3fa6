//! Accessors of nested layouts for generated code: a ROW's or an ARRAY's own nulls (and an
//! ARRAY's offsets), and the child columns that typed accessors of the fields and items bind to.
//! The generated code writes the brackets, names and separators itself.
use arrow_buffer::NullBuffer;

use super::columns::BindColumn;
use crate::encode::bind::{BoundColumn, Offsets};
use crate::encode::write::{
    distinct_utf8_keys, entry_key, has_duplicate_keys, write_key, write_value, WriteContext, WriteResult,
};
use crate::error::{KjsonError, Result};

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

/// MAP and MULTISET: keys as the nested-value writers handle them (null keys, lossy binary
/// keys); each value is written by the generated code's typed accessor of the value column.
#[derive(Clone, Copy)]
pub struct Maps<'a> {
    column: &'a BoundColumn<'a>,
    offsets: &'a [i32],
    keys: &'a BoundColumn<'a>,
}

impl<'a> BindColumn<'a> for Maps<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::Map { offsets, keys, .. } => Ok(Maps { column, offsets, keys }),
            _ => Err(not_nested("MAP")),
        }
    }
}

impl Maps<'_> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        self.column.is_null(row)
    }

    /// Writes the map at `row`, each entry's value (null included) through `value(out, entry)`. A map
    /// with a repeated key (rare; Jackson keeps one entry, merging ROW values) goes through the
    /// nested-value writers as a whole.
    #[inline]
    pub fn write(
        self,
        cx: &WriteContext,
        out: &mut Vec<u8>,
        row: usize,
        mut value: impl FnMut(&mut Vec<u8>, usize) -> WriteResult,
    ) -> WriteResult {
        let (start, end) = (self.offsets[row] as usize, self.offsets[row + 1] as usize);
        if let Some(keys) = distinct_utf8_keys(self.keys, start, end) {
            out.push(b'{');
            for entry in start..end {
                if entry > start {
                    out.push(b',');
                }
                keys.write_string(out, entry);
                out.push(b':');
                value(out, entry)?;
            }
            out.push(b'}');
            return Ok(());
        }
        if end - start > 1 && has_duplicate_keys(cx, self.keys, start, end)? {
            return write_value(cx, out, self.column, row);
        }
        out.push(b'{');
        let mut first = true;
        for entry in start..end {
            if entry_key(cx, self.keys, entry)?.is_none() {
                continue;
            }
            if !first {
                out.push(b',');
            }
            first = false;
            write_key(cx, out, self.keys, entry);
            value(out, entry)?;
        }
        out.push(b'}');
        Ok(())
    }
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
