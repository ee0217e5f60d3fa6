//! Nested column programs: a ROW, ARRAY, MAP or MULTISET column bound for one batch as a tree of
//! the typed accessors generated code uses (one per ROW field, ARRAY item and MAP value), so a
//! nested value is written with every type below it fixed at bind time, as generated code
//! writes it.
//! Map keys follow the rules of `layout::map` (null keys, repeated keys, binary keys).
use arrow_buffer::NullBuffer;

use super::{Binding, ColumnProgram, NAME_CHUNK};
use crate::encode::access::{list_items, map_values, BindColumn, Lists, Maps};
use crate::encode::bind::BoundColumn;
use crate::encode::context::{WriteContext, WriteResult};
use crate::encode::layout::{self, FieldLabel, MapValues};
use crate::encode::plan::RowFieldPlan;
use crate::error::Result;
use crate::spelling::sink::ByteSink;

/// A nested column bound for one batch: its own nulls, read the same way whatever its kind (a
/// match on the kind per value cost about 4 instructions), and its kind's program.
pub(super) struct NestedProgram<'a> {
    nulls: Option<&'a NullBuffer>,
    kind: NestedKind<'a>,
}

/// The program of a nested column's kind. An explicit tag, as [`ColumnProgram`]'s.
#[repr(u8)]
enum NestedKind<'a> {
    Row(RowProgram<'a>),
    List(ListProgram<'a>),
    Map(MapProgram<'a>),
}

/// ROW: each field's program beside the field's planned name.
struct RowProgram<'a> {
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
struct ListProgram<'a> {
    list: Lists<'a>,
    item: ColumnProgram<'a>,
}

/// MAP and MULTISET: its keys, and the program of the value column.
struct MapProgram<'a> {
    map: Maps<'a>,
    value: ColumnProgram<'a>,
}

impl<'a> NestedProgram<'a> {
    /// Fails (as [`Maps`] does) for a column that is not nested.
    pub(super) fn bind(column: &'a BoundColumn<'a>, how: Binding) -> Result<Self> {
        let kind = match column {
            BoundColumn::Row { names, fields, .. } => {
                let fields = names
                    .iter()
                    .zip(fields)
                    .map(|(plan, field)| {
                        Ok(RowFieldProgram { name: RowFieldName::new(plan), value: ColumnProgram::bind(field, how)? })
                    })
                    .collect::<Result<_>>()?;
                NestedKind::Row(RowProgram { fields })
            }
            BoundColumn::List { .. } => NestedKind::List(ListProgram {
                list: Lists::bind(column)?,
                item: ColumnProgram::bind(list_items(column)?, how)?,
            }),
            _ => NestedKind::Map(MapProgram {
                map: Maps::bind(column)?,
                value: ColumnProgram::bind(map_values(column)?, how)?,
            }),
        };
        Ok(NestedProgram { nulls: column.nulls(), kind })
    }

    #[inline(always)]
    pub(super) fn is_null(&self, row: usize) -> bool {
        self.nulls.is_some_and(|n| n.is_null(row))
    }

    /// Writes the non-null value at `row`.
    #[inline(always)]
    pub(super) fn write(&mut self, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
        match &mut self.kind {
            NestedKind::Row(p) => p.write(out, row, cx),
            NestedKind::List(p) => p.write(out, row, cx),
            NestedKind::Map(p) => p.write(out, row, cx),
        }
    }
}

impl RowProgram<'_> {
    /// [`RowProgram::write_inline`] as a function of its own.
    #[inline(never)]
    fn write(&mut self, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
        self.write_inline(out, row, cx)
    }

    /// `{"name":value,...}`, nulls skipped under `encode.ignore-null-fields`; an error names
    /// the field it came from. Inlined into an ARRAY's item loop ([`ListProgram::write`]).
    #[inline(always)]
    fn write_inline(&mut self, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
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
    /// per item, and scalar items share one reservation. ROW items are written inline in the
    /// item loop, as generated code writes them, with no call per item (docs/performance.md).
    #[inline(never)]
    fn write(&mut self, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
        let items = self.list.range(row);
        on_scalar!(
            &mut self.item, a => layout::reserved_scalar_list(out, items, a, cx),
            ColumnProgram::Nested(nested) => {
                let NestedProgram { nulls, kind } = &mut **nested;
                let nulls = *nulls;
                let null = |item: usize| nulls.is_some_and(|n| n.is_null(item));
                match kind {
                    NestedKind::Row(rows) => layout::list(out, items, |out, item| {
                        layout::nullable(out, null(item), |out| rows.write_inline(out, item, cx))
                    }),
                    _ => layout::list(out, items, |out, item| {
                        layout::nullable(out, null(item), |out| nested.write(out, item, cx))
                    }),
                }
            }
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
            ColumnProgram::Nested(nested) => layout::map(map, cx, out, row, &mut **nested)
        )
    }
}

impl MapValues for NestedProgram<'_> {
    #[inline(always)]
    fn write(&mut self, out: &mut Vec<u8>, entry: usize, cx: &WriteContext) -> WriteResult {
        layout::nullable(out, self.is_null(entry), |out| NestedProgram::write(self, out, entry, cx))
    }

    /// ROW values merge under `encode.ignore-null-fields`: Jackson converts each non-null ROW
    /// since the last null one into the node stored under the key.
    #[cold]
    fn write_repeated(&mut self, out: &mut Vec<u8>, occurrences: &[usize], cx: &WriteContext) -> WriteResult {
        let last = occurrences[occurrences.len() - 1];
        // A null value replaces the stored node; merging starts afresh after it.
        let run = match occurrences.iter().rposition(|&e| self.is_null(e)) {
            Some(last_null) => &occurrences[last_null + 1..],
            None => occurrences,
        };
        match &mut self.kind {
            NestedKind::Row(rows) if cx.options.ignore_null_fields && run.len() > 1 => rows.write_merged(out, run, cx),
            _ => MapValues::write(self, out, last, cx),
        }
    }
}

impl RowProgram<'_> {
    /// The object left after converting the non-null rows `run` into one node, null fields
    /// skipped: each field at its first position, with its last value (ROW fields merged).
    #[cold]
    fn write_merged(&mut self, out: &mut Vec<u8>, run: &[usize], cx: &WriteContext) -> WriteResult {
        let mut order: Vec<usize> = Vec::with_capacity(self.fields.len());
        for &e in run {
            for (f, field) in self.fields.iter().enumerate() {
                if !field.value.is_null(e) && !order.contains(&f) {
                    order.push(f);
                }
            }
        }
        out.push(b'{');
        for (n, &f) in order.iter().enumerate() {
            if n > 0 {
                out.push(b',');
            }
            let RowFieldProgram { name, value } = &mut self.fields[f];
            out.extend_from_slice(&name.plan.name_json);
            let present: Vec<usize> = run.iter().copied().filter(|&e| !value.is_null(e)).collect();
            let written = match value {
                ColumnProgram::Nested(nested) if present.len() > 1 => match &mut nested.kind {
                    NestedKind::Row(inner) => inner.write_merged(out, &present, cx),
                    _ => MapValues::write(&mut **nested, out, present[present.len() - 1], cx),
                },
                value => value.write_nullable(out, present[present.len() - 1], cx),
            };
            written.map_err(|e| e.within(name.name()))?;
        }
        out.push(b'}');
        Ok(())
    }
}

/// The value Jackson ends with for a key found at `occurrences` of the MAP value column
/// `values` when its ROW values merge (`encode.ignore-null-fields`, two non-null ROWs since the
/// last null one): written by the column's typed programs, bound for this one rare value (with
/// no scan of string buffers, so the binding costs no more than the value). `None` when they
/// do not merge, or if the programs cannot be bound.
#[cold]
pub(crate) fn write_merged_rows(
    values: &BoundColumn<'_>,
    out: &mut Vec<u8>,
    occurrences: &[usize],
    cx: &WriteContext,
) -> Option<WriteResult> {
    let merges = cx.options.ignore_null_fields
        && matches!(values, BoundColumn::Row { .. })
        && occurrences.iter().rev().take_while(|&&e| !values.is_null(e)).nth(1).is_some();
    if !merges {
        return None;
    }
    let how = Binding { scan_strings: false, timestamps: cx.options.timestamp_format };
    let mut program = NestedProgram::bind(values, how).ok()?;
    Some(program.write_repeated(out, occurrences, cx))
}
