//! A field of a side's object (the record's key or value): its separator and name, then its
//! value or `null`, or nothing for a null under `encode.ignore-null-fields`, which is fixed per
//! side (`SKIP_NULLS`). The dynamic encoder's column programs and generated code both call
//! these: generated code with its fields' prefixes as constants ([`Prefix`], or `Label` where
//! the separator depends on the data), the programs with the prefixes prepared at open. A ROW's
//! fields (`layout::scalar_field`, `layout::nested_field`) are written the same way.
use super::{nullable, FieldLabel};
use crate::encode::access::Scalar;
use crate::encode::context::{WriteContext, WriteResult};
use crate::spelling::sink::ByteSink;

/// A scalar field: nothing for a null under `SKIP_NULLS`, else `name`'s prefix and the value or
/// `null`, into capacity the caller reserved for [`FieldLabel::bound`] plus the value's bound
/// (4 for `null`). An error names the field.
#[inline(always)]
pub fn object_field<const SKIP_NULLS: bool, A: Scalar, N: FieldLabel, S: ByteSink>(
    accessor: &mut A,
    out: &mut S,
    name: &N,
    row: usize,
    cx: &WriteContext,
    first: &mut bool,
) -> WriteResult {
    let null = accessor.null(row);
    if null && SKIP_NULLS {
        return Ok(());
    }
    if null {
        name.put_null(out, first);
        return Ok(());
    }
    name.put(out, first);
    accessor.put(out, row, cx).map_err(|e| e.within(name.name()))
}

/// A nested field: nothing for a null under `SKIP_NULLS`, else `name`'s prefix and the value
/// `write` writes, or `null`. An error names the field.
#[inline(always)]
pub fn object_nested_field<const SKIP_NULLS: bool, N: FieldLabel>(
    out: &mut Vec<u8>,
    name: &N,
    first: &mut bool,
    null: bool,
    write: impl FnOnce(&mut Vec<u8>) -> WriteResult,
) -> WriteResult {
    if null && SKIP_NULLS {
        return Ok(());
    }
    name.put(out, first);
    nullable(out, null, write).map_err(|e| e.within(name.name()))
}

/// The fields of one row's object as generated code writes them: the row, the side's options and
/// the `first` flag the separators of `Label` prefixes read, passed to [`object_field`] and
/// [`object_nested_field`] on every call. Inlined away.
pub struct ObjectFields<'c, const SKIP_NULLS: bool> {
    row: usize,
    cx: &'c WriteContext,
    first: bool,
}

impl<'c, const SKIP_NULLS: bool> ObjectFields<'c, SKIP_NULLS> {
    #[inline(always)]
    pub fn new(row: usize, cx: &'c WriteContext) -> Self {
        ObjectFields { row, cx, first: true }
    }

    /// A scalar field ([`object_field`]) into reserved capacity.
    #[inline(always)]
    pub fn field<A: Scalar, N: FieldLabel, S: ByteSink>(
        &mut self,
        out: &mut S,
        accessor: &mut A,
        name: &N,
    ) -> WriteResult {
        object_field::<SKIP_NULLS, _, _, _>(accessor, out, name, self.row, self.cx, &mut self.first)
    }

    /// A nested field ([`object_nested_field`]), `null` or written by `write`.
    #[inline(always)]
    pub fn nested<N: FieldLabel>(
        &mut self,
        out: &mut Vec<u8>,
        name: &N,
        null: bool,
        write: impl FnOnce(&mut Vec<u8>) -> WriteResult,
    ) -> WriteResult {
        object_nested_field::<SKIP_NULLS, _>(out, name, &mut self.first, null, write)
    }
}

/// A field's prefix (`{"name":` or `,"name":`) with `null` after it, as generated code knows it
/// when the fields written before it do not depend on the data: escaped at generation time, so
/// writing the prefix, or the prefix and `null`, is one fixed-size copy. (Where they do, the
/// prefix is a `Label`: a separator at run time.)
pub struct Prefix<const N: usize>(pub &'static [u8; N], pub &'static str);

impl<const N: usize> FieldLabel for Prefix<N> {
    fn name(&self) -> &str {
        self.1
    }

    #[inline(always)]
    fn bound(&self) -> usize {
        N
    }

    #[inline(always)]
    fn put<S: ByteSink>(&self, out: &mut S, _: &mut bool) {
        out.put(&self.0[..N - 4]);
    }

    #[inline(always)]
    fn put_null<S: ByteSink>(&self, out: &mut S, _: &mut bool) {
        out.put(self.0);
    }
}

/// A column declared NOT NULL: generated code writes it without a null check (a batch with a
/// null there goes through the dynamic programs).
pub struct NotNull<'r, A>(pub &'r mut A);

impl<A: Scalar> Scalar for NotNull<'_, A> {
    #[inline(always)]
    fn null(&self, _: usize) -> bool {
        false
    }

    #[inline(always)]
    fn bound(&self, row: usize) -> usize {
        self.0.bound(row)
    }

    #[inline(always)]
    fn put<S: ByteSink>(&mut self, out: &mut S, row: usize, cx: &WriteContext) -> WriteResult {
        self.0.put(out, row, cx)
    }
}
