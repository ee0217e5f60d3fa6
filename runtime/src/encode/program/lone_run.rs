//! A side whose fields are all scalar, a "lone run": its whole object in one reservation, with
//! the separator rule and the names' chunk width fixed as types. The common ones are inlined into
//! a row loop of their own, picked once per batch, so a row costs no call frame, as in generated
//! rows (a value side without `encode.ignore-null-fields` and without a null in the batch also
//! with no null checks); the others are reached through a function pointer per row
//! (docs/performance.md).
use std::marker::PhantomData;

use super::{BoundField, BoundSide, ProgramRows, Segment, NAME_CHUNK};
use crate::encode::context::{WriteContext, WriteResult};
use crate::encode::row_writer::{RowWriter, RowsRun};
use crate::spelling::sink::{fill_reserved, ByteSink, FillReserved, Reserved};

/// The writer of a side whose fields are all scalar, its separator rule and chunk width fixed.
pub(super) type LoneRun = fn(&mut BoundSide<'_, '_>, &WriteContext, &mut Vec<u8>, usize) -> WriteResult;

/// The [`LoneRun`] for a side's separator rule and its names' chunk width.
pub(super) fn lone_run_writer(skip_nulls: bool, name_width: usize) -> LoneRun {
    match (skip_nulls, name_width) {
        (false, 16) => write_lone_run::<false, 16>,
        (false, NAME_CHUNK) => write_lone_run::<false, NAME_CHUNK>,
        (false, _) => write_lone_run::<false, 0>,
        (true, 16) => write_lone_run::<true, 16>,
        (true, NAME_CHUNK) => write_lone_run::<true, NAME_CHUNK>,
        (true, _) => write_lone_run::<true, 0>,
    }
}

/// Runs `run` over `rows` with a [`RowWriter`] that writes each side that is a lone run inline,
/// for its separator rule and chunk width: any such value side, a key side without
/// `encode.ignore-null-fields` whose names fit a chunk. Other value sides (and names longer than
/// a chunk) go through [`BoundSide::write`] inlined, other key sides through a call to it.
pub(super) fn run_rows<R: RowsRun>(rows: &mut ProgramRows<'_, '_>, run: R) -> R::Output {
    let key = rows.key.as_ref().and_then(|k| Some((k.fields.skip_nulls, k.lone_width()?)));
    match key {
        Some((false, 16)) => with_value::<Lone<false, 16, true>, R>(rows, run),
        Some((false, NAME_CHUNK)) => with_value::<Lone<false, NAME_CHUNK, true>, R>(rows, run),
        _ => with_value::<CalledSide, R>(rows, run),
    }
}

/// [`run_rows`] with the key side's writer `K` chosen.
fn with_value<K: SideWriter, R: RowsRun>(rows: &mut ProgramRows<'_, '_>, run: R) -> R::Output {
    let value = rows.value.lone_width().map(|width| (rows.value.fields.skip_nulls, width, rows.value.nulls));
    match value {
        Some((false, 16, false)) => run.run(&mut Picked::<K, Lone<false, 16, false>>(rows, PhantomData)),
        Some((false, NAME_CHUNK, false)) => {
            run.run(&mut Picked::<K, Lone<false, NAME_CHUNK, false>>(rows, PhantomData))
        }
        Some((false, 16, _)) => run.run(&mut Picked::<K, Lone<false, 16, true>>(rows, PhantomData)),
        Some((false, NAME_CHUNK, _)) => run.run(&mut Picked::<K, Lone<false, NAME_CHUNK, true>>(rows, PhantomData)),
        Some((true, 16, _)) => run.run(&mut Picked::<K, Lone<true, 16, true>>(rows, PhantomData)),
        Some((true, NAME_CHUNK, _)) => run.run(&mut Picked::<K, Lone<true, NAME_CHUNK, true>>(rows, PhantomData)),
        _ => run.run(&mut Picked::<K, AnySide>(rows, PhantomData)),
    }
}

/// How a row loop writes one side's object.
trait SideWriter {
    fn write(side: &mut BoundSide<'_, '_>, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult;
}

/// A lone run of this separator rule and chunk width, inlined; `NULLS` false: no column of the
/// side holds a null in this batch.
enum Lone<const SKIP_NULLS: bool, const WIDTH: usize, const NULLS: bool> {}

impl<const SKIP_NULLS: bool, const WIDTH: usize, const NULLS: bool> SideWriter for Lone<SKIP_NULLS, WIDTH, NULLS> {
    #[inline(always)]
    fn write(side: &mut BoundSide<'_, '_>, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
        fill_lone_run::<SKIP_NULLS, WIDTH, NULLS>(side, cx, out, row)
    }
}

/// Any side, through [`BoundSide::write`].
enum AnySide {}

impl SideWriter for AnySide {
    #[inline(always)]
    fn write(side: &mut BoundSide<'_, '_>, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
        side.write(cx, out, row)
    }
}

/// Any side, through [`BoundSide::write`] in a function of its own: for a key side that is not
/// inlined (or none), so that the row loop does not hold a second copy of the segment writer.
enum CalledSide {}

impl SideWriter for CalledSide {
    #[inline(always)]
    fn write(side: &mut BoundSide<'_, '_>, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
        write_side(side, cx, out, row)
    }
}

#[inline(never)]
fn write_side(side: &mut BoundSide<'_, '_>, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
    side.write(cx, out, row)
}

/// The dynamic rows of a batch with the key's writer `K` and the value's `V` fixed.
struct Picked<'r, 's, 'a, K, V>(&'r mut ProgramRows<'s, 'a>, PhantomData<(K, V)>);

impl<K: SideWriter, V: SideWriter> RowWriter for Picked<'_, '_, '_, K, V> {
    #[inline(always)]
    fn write_key(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
        match &mut self.0.key {
            Some(side) => K::write(side, cx, out, row),
            None => Ok(()),
        }
    }

    #[inline(always)]
    fn write_value(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
        V::write(&mut self.0.value, cx, out, row)
    }
}

/// [`fill_lone_run`] as a function of its own, for a side reached through a [`LoneRun`].
#[inline(never)]
fn write_lone_run<const SKIP_NULLS: bool, const WIDTH: usize>(
    side: &mut BoundSide<'_, '_>,
    cx: &WriteContext,
    out: &mut Vec<u8>,
    row: usize,
) -> WriteResult {
    fill_lone_run::<SKIP_NULLS, WIDTH, true>(side, cx, out, row)
}

/// A side's whole object when its fields are one run of scalars: the reservation, the braces and
/// the fields, where the segment loop reserved and called `write_run` per row.
#[inline(always)]
fn fill_lone_run<const SKIP_NULLS: bool, const WIDTH: usize, const NULLS: bool>(
    side: &mut BoundSide<'_, '_>,
    cx: &WriteContext,
    out: &mut Vec<u8>,
    row: usize,
) -> WriteResult {
    let Some(Segment::Scalars { fixed, bounds, .. }) = side.segments.first() else { return Ok(()) };
    // `fixed` counts the `}`; under SKIP_NULLS the `{` is written apart from the first name.
    let reserve = super::run_reserve(*fixed, bounds, row) + usize::from(SKIP_NULLS);
    fill_reserved(out, reserve, LoneRunFields::<SKIP_NULLS, WIDTH, NULLS> { run: &mut side.bound, row, cx })
}

/// The braces and fields of [`fill_lone_run`], written into its reservation.
struct LoneRunFields<'r, 's, 'a, 'c, const SKIP_NULLS: bool, const WIDTH: usize, const NULLS: bool> {
    run: &'r mut [BoundField<'s, 'a>],
    row: usize,
    cx: &'c WriteContext,
}

impl<const SKIP_NULLS: bool, const WIDTH: usize, const NULLS: bool> FillReserved
    for LoneRunFields<'_, '_, '_, '_, SKIP_NULLS, WIDTH, NULLS>
{
    type Output = WriteResult;

    #[inline(always)]
    fn fill(self, w: &mut Reserved<'_>) -> WriteResult {
        if SKIP_NULLS {
            w.put_byte(b'{');
        }
        let first = &mut true;
        for BoundField { program, name } in self.run {
            program.write_field::<SKIP_NULLS, NULLS, WIDTH, _>(w, name, self.row, self.cx, first)?;
        }
        w.put_byte(b'}');
        Ok(())
    }
}
