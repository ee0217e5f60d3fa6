//! A key repeated within one map (two equal keys, or the null-key literal colliding with a real
//! key). Flink converts every occurrence into the JSON node already stored under that key, so
//! the key keeps its first position; ROW values merge into the stored object (with
//! `encode.ignore-null-fields`, a later null field leaves the earlier one in place, and fields
//! first set by a later value go last), anything else is replaced. Rare, so written for clarity.
use super::bind::Column;
use super::plan::RowFieldPlan;
use super::write::{write_value, WriteContext, WriteResult};

/// Writes the value Jackson ends with for the entries `occurrences` (in map order) of one key.
#[cold]
pub fn write_repeated_value(
    ctx: &WriteContext,
    out: &mut Vec<u8>,
    values: &Column<'_>,
    occurrences: &[usize],
) -> WriteResult {
    // A null value replaces the stored node; merging starts afresh after it.
    let run = match occurrences.iter().rposition(|&e| values.is_null(e)) {
        Some(last_null) => &occurrences[last_null + 1..],
        None => occurrences,
    };
    let Some(&last) = run.last() else {
        out.extend_from_slice(b"null");
        return Ok(());
    };
    match values {
        Column::Row { names, fields, .. } if ctx.options.ignore_null_fields && run.len() > 1 => {
            write_merged_row(ctx, out, names, fields, run)
        }
        _ => write_value(ctx, out, values, last),
    }
}

/// The object left after converting the non-null rows `run` into one node, nulls skipped.
fn write_merged_row(
    ctx: &WriteContext,
    out: &mut Vec<u8>,
    names: &[RowFieldPlan],
    fields: &[Column<'_>],
    run: &[usize],
) -> WriteResult {
    let mut order: Vec<usize> = Vec::with_capacity(fields.len());
    for &e in run {
        for (f, col) in fields.iter().enumerate() {
            if !col.is_null(e) && !order.contains(&f) {
                order.push(f);
            }
        }
    }
    out.push(b'{');
    for (n, &f) in order.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        out.extend_from_slice(&names[f].name_json);
        let present: Vec<usize> = run.iter().copied().filter(|&e| !fields[f].is_null(e)).collect();
        let written = match &fields[f] {
            Column::Row { names: inner_names, fields: inner, .. } if present.len() > 1 => {
                write_merged_row(ctx, out, inner_names, inner, &present)
            }
            col => write_value(ctx, out, col, present[present.len() - 1]),
        };
        written.map_err(|e| e.within(&names[f].name))?;
    }
    out.push(b'}');
    Ok(())
}
