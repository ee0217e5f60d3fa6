//! CHAR and VARCHAR: a string column's value buffer is scanned once per batch for the bytes that
//! need escaping, with the widest vector unit the CPU has (`spelling/scan.rs`); a value without
//! any is a quote, fixed-size copies and a quote, and a value with some is escaped at the
//! positions the scan found, without a second look at its other bytes.
use arrow_array::OffsetSizeTrait;
use arrow_buffer::NullBuffer;

use super::columns::{null_at, wrong_column, BindColumn};
use crate::encode::bind::{BoundColumn, ByteValues, ScanOnce};
use crate::encode::context::WriteContext;
use crate::error::Result;
use crate::spelling::escape;
use crate::spelling::scan::{self, Unit};
use crate::spelling::sink::{ByteSink, RUN_STORE};

/// How a string column's values are read this batch.
enum StringLayout<'a> {
    /// 32-bit offsets, no byte to escape in any value: each is copied between quotes.
    Clean { offsets: &'a [i32], data: &'a [u8] },
    /// 32-bit offsets, escapes at `attention` (ascending positions in `data`).
    Scanned { offsets: &'a [i32], data: &'a [u8], attention: &'a [usize] },
    /// 64-bit offsets (LargeUtf8, WTF-8 in LargeBinary), escapes at `attention` (maybe none).
    Large { offsets: &'a [i64], data: &'a [u8], attention: &'a [usize] },
    /// Escaped value by value: views, binaries decoded lossily, WTF-8 that is not UTF-8, and
    /// buffers with many escapes.
    Other(&'a ByteValues<'a>),
}

/// CHAR and VARCHAR.
pub struct Strings<'a> {
    layout: StringLayout<'a>,
    nulls: Option<&'a NullBuffer>,
    /// Index into the attention positions of the first one at or after the last row's start:
    /// rows are written in ascending order, so finding a row's escapes is a step forward.
    cursor: usize,
    /// Every row's bound when the batch's values are short ([`uniform_bound`]).
    uniform: Option<usize>,
}

impl<'a> BindColumn<'a> for Strings<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        let BoundColumn::Str(values, nulls, scan) = column else { return Err(wrong_column("string", column)) };
        let layout = match values {
            ByteValues::Utf8(array) => small(array.value_offsets(), array.value_data(), scan, values, true),
            ByteValues::LargeUtf8(array) => large(array.value_offsets(), array.value_data(), scan, values, true),
            // kjson's JVM writer: WTF-8 in a Binary array, almost always plain UTF-8.
            ByteValues::Wtf8(inner) => match inner.as_ref() {
                ByteValues::Binary(array) => small(array.value_offsets(), array.value_data(), scan, values, false),
                ByteValues::LargeBinary(array) => large(array.value_offsets(), array.value_data(), scan, values, false),
                _ => StringLayout::Other(values),
            },
            other => StringLayout::Other(other),
        };
        let uniform = match &layout {
            StringLayout::Clean { offsets, .. } => uniform_bound(offsets, |len| len + 2 + RUN_STORE),
            StringLayout::Scanned { offsets, .. } => uniform_bound(offsets, escape::quoted_bound),
            _ => None,
        };
        Ok(Strings { layout, nulls: *nulls, cursor: 0, uniform })
    }
}

/// Values up to this long share one bound for the whole batch; a longer one would make every
/// row reserve room for it.
const UNIFORM_LEN: usize = 1024;

/// `bound` of the batch's longest value when no value is longer than [`UNIFORM_LEN`]: each row
/// then reserves that, and the row loop reads no offsets for it (a pass over the offsets per
/// batch instead).
fn uniform_bound(offsets: &[i32], bound: impl Fn(usize) -> usize) -> Option<usize> {
    let longest = offsets.iter().zip(&offsets[1..]).map(|(start, end)| end.wrapping_sub(*start)).max().unwrap_or(0);
    usize::try_from(longest).ok().filter(|&len| len <= UNIFORM_LEN).map(bound)
}

impl<'a> Strings<'a> {
    /// Bound without the column's scan, each value escaped on its own: for a value or two (a
    /// repeated MAP key's merge), where stepping to a row through the scan's positions would cost
    /// more than it saves.
    pub(crate) fn bind_unscanned(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::Str(values, nulls, _) => {
                Ok(Strings { layout: StringLayout::Other(values), nulls: *nulls, cursor: 0, uniform: None })
            }
            other => Err(wrong_column("string", other)),
        }
    }
}

/// The layout of a column with 32-bit offsets.
fn small<'a>(
    offsets: &'a [i32],
    data: &'a [u8],
    scan: &'a ScanOnce,
    values: &'a ByteValues<'a>,
    utf8: bool,
) -> StringLayout<'a> {
    match scan.get_or_scan(|| scan_column(offsets, data, utf8)) {
        Some([]) => StringLayout::Clean { offsets, data },
        Some(attention) => StringLayout::Scanned { offsets, data, attention },
        None => StringLayout::Other(values),
    }
}

/// The layout of a column with 64-bit offsets.
fn large<'a>(
    offsets: &'a [i64],
    data: &'a [u8],
    scan: &'a ScanOnce,
    values: &'a ByteValues<'a>,
    utf8: bool,
) -> StringLayout<'a> {
    match scan.get_or_scan(|| scan_column(offsets, data, utf8)) {
        Some(attention) => StringLayout::Large { offsets, data, attention },
        None => StringLayout::Other(values),
    }
}

/// The positions of the bytes of the column's values that need escaping, `None` when the
/// column is escaped value by value: more than one such byte in eight (the per-value escaper
/// is as fast there, and the list stays smaller than the buffer), or bytes not known to be
/// UTF-8 value by value (`utf8` false: WTF-8 in a binary array, which must be UTF-8 as a whole
/// with no value starting inside a character).
fn scan_column<O: OffsetSizeTrait>(offsets: &[O], data: &[u8], utf8: bool) -> Option<Vec<usize>> {
    let (first, last) = (offsets[0].as_usize(), offsets[offsets.len() - 1].as_usize());
    let used = &data[first..last];
    if !utf8 {
        let starts_a_char = |o: &O| data.get(o.as_usize()).is_none_or(|b| (*b as i8) >= -0x40);
        let valid = used.is_ascii() || (std::str::from_utf8(used).is_ok() && offsets.iter().all(starts_a_char));
        if !valid {
            return None;
        }
    }
    scan::attention_positions(Unit::detected(), data, first, last, used.len() / 8 + 16)
}

impl Strings<'_> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        null_at(self.nulls, row)
    }

    /// Every row's bound, when the batch has one ([`uniform_bound`]).
    pub(crate) fn batch_bound(&self) -> Option<usize> {
        self.uniform
    }

    #[inline(always)]
    pub fn bound(&self, row: usize) -> usize {
        if let Some(bound) = self.uniform {
            return bound;
        }
        match &self.layout {
            StringLayout::Clean { offsets, .. } => (offsets[row + 1] - offsets[row]) as usize + 2 + RUN_STORE,
            StringLayout::Scanned { offsets, .. } => escape::quoted_bound((offsets[row + 1] - offsets[row]) as usize),
            StringLayout::Large { offsets, .. } => escape::quoted_bound((offsets[row + 1] - offsets[row]) as usize),
            StringLayout::Other(values) => escape::quoted_bound(values.bytes(row).len()),
        }
    }

    #[inline(always)]
    pub fn write<S: ByteSink>(&mut self, out: &mut S, row: usize, _: &WriteContext) {
        match &self.layout {
            StringLayout::Clean { offsets, data } => {
                write_clean(out, data, offsets[row] as usize, offsets[row + 1] as usize)
            }
            StringLayout::Scanned { offsets, data, attention } => {
                let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
                write_scanned(out, data, start, end, attention, &mut self.cursor)
            }
            StringLayout::Large { offsets, data, attention } => {
                let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
                write_scanned(out, data, start, end, attention, &mut self.cursor)
            }
            StringLayout::Other(values) => values.write_string(out, row),
        }
    }
}

/// `"` + `data[start..end]` + `"`, the value in [`RUN_STORE`]-byte stores read from the column's
/// value buffer (past the value's end where the buffer allows): no `memcpy` call per value.
#[inline(always)]
fn write_clean<S: ByteSink>(out: &mut S, data: &[u8], start: usize, end: usize) {
    out.put_byte(b'"');
    out.put_run(data, start, end);
    out.put_byte(b'"');
}

/// The value at `data[start..end]`, escaped at the positions of `attention` inside it.
#[inline(always)]
fn write_scanned<S: ByteSink>(
    out: &mut S,
    data: &[u8],
    start: usize,
    end: usize,
    attention: &[usize],
    cursor: &mut usize,
) {
    let first = seek(attention, cursor, start);
    match attention.get(first..) {
        Some(rest @ [pos, ..]) if *pos < end => write_escaped(out, data, start, end, rest),
        _ => write_clean(out, data, start, end),
    }
}

/// The index of the first position at or after `start`, stepping `cursor` forward (or searching
/// again when a row before the last one is asked for).
#[inline(always)]
fn seek(attention: &[usize], cursor: &mut usize, start: usize) -> usize {
    let mut at = *cursor;
    if at > 0 && attention.get(at - 1).is_some_and(|&p| p >= start) {
        at = attention.partition_point(|&p| p < start);
    }
    while attention.get(at).is_some_and(|&p| p < start) {
        at += 1;
    }
    *cursor = at;
    at
}

/// Copies the clean runs between the escapes at `positions` (ascending, the first inside the
/// value; those past `end` belong to later values). A `\\` or `"` (almost every escape) is a
/// backslash before the run that starts at it ([`ByteSink::put_backslashed`]); the other
/// escapes stop that and are written one at a time.
#[inline(never)]
fn write_escaped<S: ByteSink>(out: &mut S, data: &[u8], start: usize, end: usize, positions: &[usize]) {
    out.put_byte(b'"');
    let (mut run, mut rest) = (start, positions);
    loop {
        let (stop, used) = out.put_backslashed(data, run, end, rest);
        if stop == end {
            break;
        }
        run = stop + escape::write_escape(out, &data[..end], stop);
        rest = rest.get(used + 1..).unwrap_or_default();
    }
    out.put_byte(b'"');
}

#[cfg(test)]
mod tests;
