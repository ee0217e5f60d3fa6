//! Nested column programs: a ROW, ARRAY, MAP or MULTISET column bound for one batch as a tree of
//! the typed accessors generated code uses (one per ROW field, ARRAY item and MAP value), so a
//! nested value is written with every type below it fixed at bind time, as generated code
//! writes it, instead of matching on the column's type per value in the nested-value writers.
//! Map keys keep those writers' rules (null keys, repeated keys, binary keys) through [`Maps`].
use super::{ColumnProgram, NAME_CHUNK};
use crate::encode::access::{list_items, map_values, BindColumn, Lists, Maps, Structs};
use crate::encode::bind::BoundColumn;
use crate::encode::layout::{self, FieldLabel};
use crate::encode::plan::RowFieldPlan;
use crate::encode::write::{WriteContext, WriteResult};
use crate::error::Result;
use crate::spelling::sink::ByteSink;

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
}

impl FieldLabel for RowFieldName<'_> {
    fn name(&self) -> &str {
        &self.plan.name
    }

    #[inline(always)]
    fn bound(&self) -> usize {
        1 + self.len.max(NAME_CHUNK)
    }

    #[inline(always)]
    fn put<S: ByteSink>(&self, out: &mut S, first: &mut bool) {
        layout::separator(out, first);
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
    pub(super) fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        Ok(match column {
            BoundColumn::Row { names, fields, .. } => {
                let fields = names
                    .iter()
                    .zip(fields)
                    .map(|(plan, field)| {
                        Ok(RowFieldProgram { name: RowFieldName::new(plan), value: ColumnProgram::bind(field)? })
                    })
                    .collect::<Result<_>>()?;
                NestedProgram::Row(RowProgram { nulls: Structs::bind(column)?, fields })
            }
            BoundColumn::List { .. } => NestedProgram::List(ListProgram {
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
        layout::row(out, |out, first| {
            for RowFieldProgram { name, value } in &mut self.fields {
                value.write_row_field(out, name, row, cx, first)?;
            }
            Ok(())
        })
    }
}

impl ListProgram<'_> {
    /// `[item,...]`, null items written as `null`; the item type is matched once per value, not
    /// per item.
    #[inline(never)]
    fn write(&mut self, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
        let items = self.list.range(row);
        on_scalar!(
            &mut self.item, a => layout::list(out, items, |out, item| layout::nullable_scalar_apart(a, out, item, cx)),
            ColumnProgram::Nested(nested) => layout::list(out, items, |out, item| {
                layout::nullable(out, nested.is_null(item), |out| nested.write(out, item, cx))
            })
        )
    }
}

impl MapProgram<'_> {
    /// The value type is matched once per map, not per entry.
    #[inline(never)]
    fn write(&mut self, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
        let map = self.map;
        on_scalar!(
            &mut self.value, a => layout::scalar_map(map, cx, out, row, a),
            ColumnProgram::Nested(nested) => layout::map(map, cx, out, row, |out, entry| {
                layout::nullable(out, nested.is_null(entry), |out| nested.write(out, entry, cx))
            })
        )
    }
}

#[cfg(test)]
mod tests;
