//! The one interface between the row loop and what writes a row's key and value objects.
use super::context::{WriteContext, WriteResult};

/// Writes the JSON object of one row for each side of the record. The dynamic encoder runs
/// column programs (`ProgramRows`); a generated encoder has one specialized function per side.
pub trait RowWriter {
    fn write_key(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult;
    fn write_value(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult;
}
