//! A MAP's (or a MULTISET's) layout: `{`, each entry's `"key":` and value, `}`, with Flink's
//! rules for keys: a null key is refused, dropped or written as the literal
//! (`map-null-key.mode`), binary keys are the Java strings they decode to, and a key repeated
//! within one map keeps one entry with the value Jackson ends with.
use std::borrow::Cow;

use super::nullable_scalar_apart;
use crate::encode::access::{Keys, Maps, Scalar, SMALL_MAP};
use crate::encode::context::{ValueError, WriteContext, WriteResult};
use crate::options::MapNullKeyMode;

/// A typed writer of a MAP's values.
pub trait MapValues {
    /// Writes the value of `entry`, `null` included.
    fn write(&mut self, out: &mut Vec<u8>, entry: usize, cx: &WriteContext) -> WriteResult;

    /// Writes the value Jackson ends with for one key found at `occurrences` (map order): the
    /// last occurrence's. A writer of ROW values overrides it: under
    /// `encode.ignore-null-fields` those merge into one object.
    #[cold]
    fn write_repeated(&mut self, out: &mut Vec<u8>, occurrences: &[usize], cx: &WriteContext) -> WriteResult {
        self.write(out, occurrences[occurrences.len() - 1], cx)
    }
}

/// The values of a MAP of scalars, through their typed accessor.
pub struct ScalarValues<'r, A>(pub &'r mut A);

impl<A: Scalar> MapValues for ScalarValues<'_, A> {
    #[inline(always)]
    fn write(&mut self, out: &mut Vec<u8>, entry: usize, cx: &WriteContext) -> WriteResult {
        nullable_scalar_apart(self.0, out, entry, cx)
    }
}

/// A MAP or MULTISET: keys by the rules above, each value (null included) by `values`.
#[inline(always)]
pub fn map<V: MapValues>(
    maps: Maps<'_>,
    cx: &WriteContext,
    out: &mut Vec<u8>,
    row: usize,
    values: &mut V,
) -> WriteResult {
    let entries = maps.range(row);
    let keys = maps.keys();
    if keys.distinct_utf8(entries.clone()) {
        out.push(b'{');
        for entry in entries.clone() {
            if entry > entries.start {
                out.push(b',');
            }
            keys.write(out, entry);
            values.write(out, entry, cx)?;
        }
        out.push(b'}');
        return Ok(());
    }
    if entries.len() > 1 && has_repeated_keys(cx, keys, entries.clone())? {
        return write_repeated_keys(cx, out, keys, values, entries);
    }
    out.push(b'{');
    let mut first = true;
    for entry in entries {
        if entry_key(cx, keys, entry)?.is_none() {
            continue;
        }
        if !first {
            out.push(b',');
        }
        first = false;
        write_key(cx, out, keys, entry);
        values.write(out, entry, cx)?;
    }
    out.push(b'}');
    Ok(())
}

/// The output key of `entry` as Java sees it: `None` when the entry is dropped.
#[inline]
fn entry_key<'k>(cx: &'k WriteContext, keys: &Keys<'k>, entry: usize) -> Result<Option<Cow<'k, [u8]>>, ValueError> {
    if !keys.is_null(entry) {
        return Ok(Some(keys.java(entry)));
    }
    match cx.options.map_null_key_mode {
        MapNullKeyMode::Fail => Err(ValueError::NullMapKey { path: vec![] }),
        MapNullKeyMode::Drop => Ok(None),
        MapNullKeyMode::Literal => Ok(Some(Cow::Borrowed(&cx.literal_key))),
    }
}

/// `"key":` of a written entry: its key, or the null key's literal.
fn write_key(cx: &WriteContext, out: &mut Vec<u8>, keys: &Keys<'_>, entry: usize) {
    if keys.is_null(entry) {
        out.extend_from_slice(&cx.literal_key_json);
    } else {
        keys.write(out, entry);
    }
}

fn has_repeated_keys(cx: &WriteContext, keys: &Keys<'_>, entries: std::ops::Range<usize>) -> Result<bool, ValueError> {
    if entries.len() > SMALL_MAP {
        let mut all = Vec::with_capacity(entries.len());
        for entry in entries {
            if let Some(key) = entry_key(cx, keys, entry)? {
                all.push(key);
            }
        }
        return Ok(sorted_has_repeats(all));
    }
    for j in entries.clone() {
        let Some(later) = entry_key(cx, keys, j)? else { continue };
        for e in entries.start..j {
            if entry_key(cx, keys, e)?.as_deref() == Some(&*later) {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

#[cold]
fn sorted_has_repeats(mut all: Vec<Cow<'_, [u8]>>) -> bool {
    all.sort_unstable();
    all.windows(2).any(|w| w[0] == w[1])
}

// A key repeated within one map (two equal keys, or the null-key literal colliding with a real
// key). Flink converts every occurrence into the JSON node already stored under that key, so
// the key keeps its first position and the value is the last one's (ROW values merge, see
// `MapValues::write_repeated`). Rare, so written for clarity.

/// The map `entries` with repeated keys: each key once, at its first position.
#[cold]
fn write_repeated_keys<V: MapValues>(
    cx: &WriteContext,
    out: &mut Vec<u8>,
    keys: &Keys<'_>,
    values: &mut V,
    entries: std::ops::Range<usize>,
) -> WriteResult {
    let same_key = |e: usize, key: &[u8]| matches!(entry_key(cx, keys, e), Ok(Some(k)) if *k == *key);
    out.push(b'{');
    let mut first = true;
    let mut scratch = Vec::new();
    for j in entries.clone() {
        let Some(key) = entry_key(cx, keys, j)? else { continue };
        if (entries.start..j).any(|e| same_key(e, &key)) {
            continue;
        }
        if !first {
            out.push(b',');
        }
        first = false;
        let occurrences: Vec<usize> = (j..entries.end).filter(|&e| same_key(e, &key)).collect();
        // Flink converts every occurrence, so a replaced value that fails (a null map key under
        // FAIL) fails the record too.
        for &e in &occurrences[..occurrences.len() - 1] {
            scratch.clear();
            values.write(&mut scratch, e, cx)?;
        }
        write_key(cx, out, keys, j);
        values.write_repeated(out, &occurrences, cx)?;
    }
    out.push(b'}');
    Ok(())
}
