//! Nested column programs: a ROW, ARRAY, MAP or MULTISET column bound for one batch as a tree of
//! the typed accessors generated code uses (one per ROW field, ARRAY item and MAP value), so a
//! nested value is written with every type below it fixed at bind time, as generated code
//! writes it, instead of matching on the column's type per value in the nested-value writers.
//! Map keys keep those writers' rules (null keys, repeated keys, binary keys) through [`Maps`].
use std::ops::Range;

use super::{nullable_value, ColumnProgram, NAME_CHUNK};
use crate::encode::access::{list_items, map_values, BindColumn, Lists, Maps, Structs};
use crate::encode::bind::Column;
use crate::encode::plan::RowFieldPlan;
use crate::encode::write::{WriteContext, WriteResult};
use crate::error::Result;
use crate::format::sink::ByteSink;

/// A nested column bound for one batch. An explicit tag, as [`ColumnProgram`]'s.
#[repr(u8)]
pub(super) enum NestedProgram<'a> {
    Row(RowProgram<'a>),
    List(ListProgram<'a>),
    Map(MapProgram<'a>),
}

/// ROW: its nulls, and each field's program beside the field's planned name.
pub(super) struct RowProgram<'a> {
    nulls: Structs<'a>,
    fields: Vec<RowFieldProgram<'a>>,
}

struct RowFieldProgram<'a> {
    name: RowFieldName<'a>,
    value: ColumnProgram<'a>,
}

/// A ROW field's planned `"name":`, also padded to a fixed-size chunk (cut short when it does not
/// fit), so writing it is one fixed-size store.
pub(super) struct RowFieldName<'a> {
    plan: &'a RowFieldPlan,
    /// `plan.name_json.len()`, beside the chunk.
    len: usize,
    chunk: [u8; NAME_CHUNK],
}

impl<'a> RowFieldName<'a> {
    fn new(plan: &'a RowFieldPlan) -> Self {
        let mut chunk = [0u8; NAME_CHUNK];
        let fits = plan.name_json.len().min(NAME_CHUNK);
        chunk[..fits].copy_from_slice(&plan.name_json[..fits]);
        RowFieldName { plan, len: plan.name_json.len(), chunk }
    }

    pub(super) fn name(&self) -> &str {
        &self.plan.name
    }

    /// The most bytes [`Self::put`] writes.
    #[inline(always)]
    pub(super) fn bound(&self) -> usize {
        1 + self.len.max(NAME_CHUNK)
    }

    /// `,` unless `first`, then `"name":`.
    #[inline(always)]
    pub(super) fn put<S: ByteSink>(&self, out: &mut S, first: &mut bool) {
        if !*first {
            out.put_byte(b',');
        }
        *first = false;
        if self.len <= NAME_CHUNK {
            out.put_chunk(&self.chunk, self.len);
        } else {
            out.put(&self.plan.name_json);
        }
    }
}

/// ARRAY: its nulls and offsets, and the program of its item column.
pub(super) struct ListProgram<'a> {
    list: Lists<'a>,
    item: ColumnProgram<'a>,
}

/// MAP and MULTISET: keys as the nested-value writers handle them, and the program of the value
/// column.
pub(super) struct MapProgram<'a> {
    map: Maps<'a>,
    value: ColumnProgram<'a>,
}

impl<'a> NestedProgram<'a> {
    /// Fails (as [`Maps`] does) for a column that is not nested.
    pub(super) fn bind(column: &'a Column<'a>) -> Result<Self> {
        Ok(match column {
            Column::Row { names, fields, .. } => {
                let fields = names
                    .iter()
                    .zip(fields)
                    .map(|(plan, field)| {
                        Ok(RowFieldProgram { name: RowFieldName::new(plan), value: ColumnProgram::bind(field)? })
                    })
                    .collect::<Result<_>>()?;
                NestedProgram::Row(RowProgram { nulls: Structs::bind(column)?, fields })
            }
            Column::List { .. } => NestedProgram::List(ListProgram {
                list: Lists::bind(column)?,
                item: ColumnProgram::bind(list_items(column)?)?,
            }),
            _ => NestedProgram::Map(MapProgram {
                map: Maps::bind(column)?,
                value: ColumnProgram::bind(map_values(column)?)?,
            }),
        })
    }

    #[inline(always)]
    pub(super) fn is_null(&self, row: usize) -> bool {
        match self {
            NestedProgram::Row(p) => p.nulls.is_null(row),
            NestedProgram::List(p) => p.list.is_null(row),
            NestedProgram::Map(p) => p.map.is_null(row),
        }
    }

    /// [`Self::write`], or `null`.
    #[inline(always)]
    pub(super) fn write_nullable(&mut self, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
        if self.is_null(row) {
            out.extend_from_slice(b"null");
            return Ok(());
        }
        self.write(out, row, cx)
    }

    /// Writes the non-null value at `row`.
    #[inline(always)]
    pub(super) fn write(&mut self, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
        match self {
            NestedProgram::Row(p) => p.write(out, row, cx),
            NestedProgram::List(p) => p.write(out, row, cx),
            NestedProgram::Map(p) => p.write(out, row, cx),
        }
    }
}

impl RowProgram<'_> {
    /// `{"name":value,...}`, nulls skipped under `encode.ignore-null-fields`; an error names
    /// the field it came from.
    #[inline(never)]
    fn write(&mut self, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
        out.push(b'{');
        let mut first = true;
        for RowFieldProgram { name, value } in &mut self.fields {
            value.write_row_field(out, name, row, cx, &mut first)?;
        }
        out.push(b'}');
        Ok(())
    }
}

impl ListProgram<'_> {
    /// `[item,...]`, null items written as `null`; the item type is matched once per value, not
    /// per item.
    #[inline(never)]
    fn write(&mut self, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
        let items = self.list.range(row);
        out.push(b'[');
        on_scalar!(
            &mut self.item, a => write_items(out, items, |out, item| nullable_value(a, out, item, cx)),
            ColumnProgram::Nested(nested) => write_items(out, items, |out, item| nested.write_nullable(out, item, cx))
        )?;
        out.push(b']');
        Ok(())
    }
}

impl MapProgram<'_> {
    /// The value type is matched once per map, not per entry.
    #[inline(never)]
    fn write(&mut self, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
        let map = self.map;
        on_scalar!(
            &mut self.value, a => map.write(cx, out, row, |out, entry| nullable_value(a, out, entry, cx)),
            ColumnProgram::Nested(nested) => map.write(cx, out, row, |out, entry| nested.write_nullable(out, entry, cx))
        )
    }
}

/// The items `items` of an ARRAY, comma-separated, each written by `item`.
#[inline(always)]
fn write_items(
    out: &mut Vec<u8>,
    items: Range<usize>,
    mut item: impl FnMut(&mut Vec<u8>, usize) -> WriteResult,
) -> WriteResult {
    for at in items.clone() {
        if at > items.start {
            out.push(b',');
        }
        item(out, at)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
