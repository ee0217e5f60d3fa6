//! The one interface between the row loop and what writes a row's key and value objects.
use super::context::{WriteContext, WriteResult};

/// Writes the JSON object of one row for each side of the record. The dynamic encoder runs
/// column programs (`ProgramRows`); a generated encoder has one specialized function per side.
pub trait RowWriter {
    fn write_key(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult;
    fn write_value(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult;
}

/// A row loop generic over its [`RowWriter`]: the dynamic encoder picks the writer per batch
/// (its value side inlined when it is one run of scalars) and hands it to this.
pub(crate) trait RowsRun {
    type Output;
    fn run<W: RowWriter>(self, writer: &mut W) -> Self::Output;
}
