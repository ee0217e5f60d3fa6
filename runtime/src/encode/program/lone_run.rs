//! A side whose fields are all scalar, a "lone run": its whole object in one reservation, with
//! the separator rule and the names' chunk width fixed as types. The key's is reached through a
//! function pointer per row; the value's is inlined into a row loop of its own, picked once per
//! batch, so a row costs no call frame and the run's setup is hoisted out of the loop, as in
//! generated rows (docs/performance.md).
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

/// Runs `run` over `rows` with a [`RowWriter`] whose value side, when it is a lone run, is
/// written inline for its separator rule and chunk width.
pub(super) fn run_rows<R: RowsRun>(rows: &mut ProgramRows<'_, '_>, run: R) -> R::Output {
    let Some(width) = rows.value.lone_width() else { return run.run(rows) };
    match (rows.value.fields.skip_nulls, width) {
        (false, 16) => run.run(&mut LoneValue::<false, 16>(rows)),
        (false, NAME_CHUNK) => run.run(&mut LoneValue::<false, NAME_CHUNK>(rows)),
        (false, _) => run.run(&mut LoneValue::<false, 0>(rows)),
        (true, 16) => run.run(&mut LoneValue::<true, 16>(rows)),
        (true, NAME_CHUNK) => run.run(&mut LoneValue::<true, NAME_CHUNK>(rows)),
        (true, _) => run.run(&mut LoneValue::<true, 0>(rows)),
    }
}

/// The dynamic rows of a batch whose value side is a lone run of this separator rule and width.
struct LoneValue<'r, 's, 'a, const SKIP_NULLS: bool, const WIDTH: usize>(&'r mut ProgramRows<'s, 'a>);

impl<const SKIP_NULLS: bool, const WIDTH: usize> RowWriter for LoneValue<'_, '_, '_, SKIP_NULLS, WIDTH> {
    #[inline(always)]
    fn write_key(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
        self.0.write_key(cx, out, row)
    }

    #[inline(always)]
    fn write_value(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
        fill_lone_run::<SKIP_NULLS, WIDTH>(&mut self.0.value, cx, out, row)
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
    fill_lone_run::<SKIP_NULLS, WIDTH>(side, cx, out, row)
}

/// A side's whole object when its fields are one run of scalars: the reservation, the braces and
/// the fields, where the segment loop reserved and called `write_run` per row.
#[inline(always)]
fn fill_lone_run<const SKIP_NULLS: bool, const WIDTH: usize>(
    side: &mut BoundSide<'_, '_>,
    cx: &WriteContext,
    out: &mut Vec<u8>,
    row: usize,
) -> WriteResult {
    let Some(Segment::Scalars { fixed, bounds, .. }) = side.segments.first() else { return Ok(()) };
    // `fixed` counts the `}`; under SKIP_NULLS the `{` is written apart from the first name.
    let reserve = super::run_reserve(*fixed, bounds, row) + usize::from(SKIP_NULLS);
    fill_reserved(out, reserve, LoneRunFields::<SKIP_NULLS, WIDTH> { run: &mut side.bound, row, cx })
}

/// The braces and fields of [`fill_lone_run`], written into its reservation.
struct LoneRunFields<'r, 's, 'a, 'c, const SKIP_NULLS: bool, const WIDTH: usize> {
    run: &'r mut [BoundField<'s, 'a>],
    row: usize,
    cx: &'c WriteContext,
}

impl<const SKIP_NULLS: bool, const WIDTH: usize> FillReserved for LoneRunFields<'_, '_, '_, '_, SKIP_NULLS, WIDTH> {
    type Output = WriteResult;

    #[inline(always)]
    fn fill(self, w: &mut Reserved<'_>) -> WriteResult {
        if SKIP_NULLS {
            w.put_byte(b'{');
        }
        let first = &mut true;
        for BoundField { program, name } in self.run {
            program.write_field::<SKIP_NULLS, WIDTH, _>(w, name, self.row, self.cx, first)?;
        }
        w.put_byte(b'}');
        Ok(())
    }
}
