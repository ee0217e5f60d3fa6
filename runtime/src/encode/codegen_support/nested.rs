//! Accessors of nested layouts for generated code: a ROW's or an ARRAY's own nulls (and an
//! ARRAY's offsets), and the child columns that typed accessors of the fields and items bind to.
//! The generated code writes the brackets, names and separators itself.
use arrow_buffer::NullBuffer;

use super::columns::BindColumn;
use crate::encode::bind::{Column, Offsets};
use crate::error::{KjsonError, Result};

#[cold]
fn not_nested(expected: &str) -> KjsonError {
    KjsonError::schema(format!("internal: generated code expects a {expected} column, the plan bound another kind"))
}

/// ROW: only its nulls; the fields have accessors of their own.
pub struct Structs<'a> {
    nulls: Option<&'a NullBuffer>,
}

impl<'a> BindColumn<'a> for Structs<'a> {
    fn bind(column: &'a Column<'a>) -> Result<Self> {
        match column {
            Column::Row { nulls, .. } => Ok(Structs { nulls: *nulls }),
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
    fn bind(column: &'a Column<'a>) -> Result<Self> {
        match column {
            Column::List { offsets, nulls, .. } => Ok(Lists { offsets, nulls: *nulls }),
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

/// Field `index` of a bound ROW column.
pub fn row_field<'a>(column: &'a Column<'a>, index: usize) -> Result<&'a Column<'a>> {
    match column {
        Column::Row { fields, .. } => fields.get(index).ok_or_else(|| not_nested("ROW field")),
        _ => Err(not_nested("ROW")),
    }
}

/// The item column of a bound ARRAY column.
pub fn list_items<'a>(column: &'a Column<'a>) -> Result<&'a Column<'a>> {
    match column {
        Column::List { child, .. } => Ok(child),
        _ => Err(not_nested("ARRAY")),
    }
}
