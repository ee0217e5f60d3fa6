//! The layout of nested values, once: a nullable value, an ARRAY's brackets and commas, a MAP
//! of typed values, a ROW's braces and each field's separator, name and null rule
//! (`encode.ignore-null-fields`). The dynamic encoder's nested programs and generated code both
//! call these, generic over the typed accessor ([`Scalar`]) or given the writer of a nested value,
//! so generated code holds only the schema's names, accessors and calls.
use std::ops::Range;

use super::access::{Maps, Scalar};
use super::context::{WriteContext, WriteResult};
use crate::spelling::sink::{with_reserved, ByteSink};

mod map;
mod object;
pub use map::{map, MapValues, ScalarValues};
pub use object::{object_field, object_nested_field, NotNull, ObjectFields, Prefix};

/// A MAP or MULTISET of scalar values, null values as `null`.
#[inline(always)]
pub fn scalar_map<A: Scalar>(
    maps: Maps<'_>,
    cx: &WriteContext,
    out: &mut Vec<u8>,
    row: usize,
    accessor: &mut A,
) -> WriteResult {
    map(maps, cx, out, row, &mut ScalarValues(accessor))
}

/// A scalar value, or `null`, in one reservation. Inlined, so generated code's ARRAY loops write
/// their items in place (with the fixed-size names of [`Label`]; docs/performance.md).
#[inline(always)]
pub fn nullable_scalar<A: Scalar>(accessor: &mut A, out: &mut Vec<u8>, row: usize, cx: &WriteContext) -> WriteResult {
    if accessor.null(row) {
        out.extend_from_slice(b"null");
        return Ok(());
    }
    with_reserved(out, accessor.bound(row), |w| accessor.put(w, row, cx))
}

/// [`nullable_scalar`], never inlined: as a function of its own per accessor type, the
/// reservation's closure has one caller and is inlined into it, so the reserved region's position
/// stays in a register. For a loop whose body is not inlined anyway (MAP entries, whose writer
/// has two loops, and the dynamic programs' ARRAY items; docs/performance.md).
#[inline(never)]
pub fn nullable_scalar_apart<A: Scalar>(
    accessor: &mut A,
    out: &mut Vec<u8>,
    row: usize,
    cx: &WriteContext,
) -> WriteResult {
    nullable_scalar(accessor, out, row, cx)
}

/// A nested value written by `write`, or `null`.
#[inline(always)]
pub fn nullable(out: &mut Vec<u8>, null: bool, write: impl FnOnce(&mut Vec<u8>) -> WriteResult) -> WriteResult {
    if null {
        out.extend_from_slice(b"null");
        return Ok(());
    }
    write(out)
}

/// An ARRAY: `[item,...]`, the items at positions `items`, each written by `item` (null items
/// included).
#[inline(always)]
pub fn list(
    out: &mut Vec<u8>,
    items: Range<usize>,
    mut item: impl FnMut(&mut Vec<u8>, usize) -> WriteResult,
) -> WriteResult {
    out.push(b'[');
    for at in items.clone() {
        if at > items.start {
            out.push(b',');
        }
        item(out, at)?;
    }
    out.push(b']');
    Ok(())
}

/// An ARRAY of scalars, null items as `null`.
#[inline(always)]
pub fn scalar_list<A: Scalar>(
    out: &mut Vec<u8>,
    items: Range<usize>,
    accessor: &mut A,
    cx: &WriteContext,
) -> WriteResult {
    list(out, items, |out, item| nullable_scalar(accessor, out, item, cx))
}

/// An ARRAY of scalars, null items as `null`, in one reservation for the whole array: its bound
/// summed over the items first (a product where the type's bound is fixed), then no call or
/// reservation per item. For the dynamic programs, whose ARRAY writer is a function of its own
/// per item type; generated code inlines [`scalar_list`] (docs/performance.md).
#[inline(always)]
pub fn reserved_scalar_list<A: Scalar>(
    out: &mut Vec<u8>,
    items: Range<usize>,
    accessor: &mut A,
    cx: &WriteContext,
) -> WriteResult {
    // `[`, `]`, and per item a comma and the larger of `null` and its value's bound.
    let mut bound = 2;
    for item in items.clone() {
        bound += 1 + accessor.bound(item).max(4);
    }
    with_reserved(out, bound, |w| {
        w.put_byte(b'[');
        for at in items.clone() {
            if at > items.start {
                w.put_byte(b',');
            }
            if accessor.null(at) {
                w.put_chunk(b"null", 4);
            } else {
                accessor.put(w, at, cx)?;
            }
        }
        w.put_byte(b']');
        Ok(())
    })
}

/// A ROW: `{`, the fields written by `fields` (which get the `first` flag the field primitives
/// keep), `}`.
#[inline(always)]
pub fn row(out: &mut Vec<u8>, fields: impl FnOnce(&mut Vec<u8>, &mut bool) -> WriteResult) -> WriteResult {
    out.push(b'{');
    let mut first = true;
    fields(out, &mut first)?;
    out.push(b'}');
    Ok(())
}

/// A ROW field's `"name":`, as the field primitives write it.
pub trait FieldLabel {
    /// The field's name, as errors within it name it.
    fn name(&self) -> &str;
    /// The most bytes [`FieldLabel::put`] writes.
    fn bound(&self) -> usize;
    /// `,` unless `first`, then `"name":`; clears `first`.
    fn put<S: ByteSink>(&self, out: &mut S, first: &mut bool);
    /// [`FieldLabel::put`], then `null`.
    #[inline(always)]
    fn put_null<S: ByteSink>(&self, out: &mut S, first: &mut bool) {
        self.put(out, first);
        out.put_chunk(b"null", 4);
    }
}

/// A ROW field's name as generated code knows it: `"name":` escaped at generation time, its
/// length a constant, so writing it is a fixed-size copy.
pub struct Label<const N: usize> {
    pub json: &'static [u8; N],
    pub name: &'static str,
}

impl<const N: usize> FieldLabel for Label<N> {
    fn name(&self) -> &str {
        self.name
    }

    #[inline(always)]
    fn bound(&self) -> usize {
        1 + N
    }

    #[inline(always)]
    fn put<S: ByteSink>(&self, out: &mut S, first: &mut bool) {
        separator(out, first);
        out.put(self.json);
    }
}

/// `,` before every field of a row but the first (with `encode.ignore-null-fields`, where which
/// field comes first depends on the data).
#[inline(always)]
pub fn separator<S: ByteSink>(out: &mut S, first: &mut bool) {
    if !*first {
        out.put_byte(b',');
    }
    *first = false;
}

/// A scalar ROW field: separator, name and value (or `null`) in one reservation; a null is left
/// out under `encode.ignore-null-fields`. An error names the field.
#[inline(always)]
pub fn scalar_field<A: Scalar, N: FieldLabel>(
    accessor: &mut A,
    out: &mut Vec<u8>,
    name: &N,
    row: usize,
    cx: &WriteContext,
    first: &mut bool,
) -> WriteResult {
    let null = accessor.null(row);
    if null && cx.options.ignore_null_fields {
        return Ok(());
    }
    let value_bound = if null { 4 } else { accessor.bound(row) };
    with_reserved(out, name.bound() + value_bound, |w| {
        object_field::<false, _, _, _>(accessor, w, name, row, cx, first)
    })
}

/// A nested ROW field: separator, name and the value `write` writes (or `null`); a null is left
/// out under `encode.ignore-null-fields`. An error names the field.
#[inline(always)]
pub fn nested_field<N: FieldLabel>(
    out: &mut Vec<u8>,
    name: &N,
    cx: &WriteContext,
    first: &mut bool,
    null: bool,
    write: impl FnOnce(&mut Vec<u8>) -> WriteResult,
) -> WriteResult {
    if null && cx.options.ignore_null_fields {
        return Ok(());
    }
    object_nested_field::<false, _>(out, name, first, null, write)
}
