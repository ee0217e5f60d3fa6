//! One message of one side read into rows, with the error handling of Flink's JSON formats
//! around it: the json decoders (`rows`, or `direct` straight into the columns) or a changelog
//! envelope (`cdc`).
use super::cdc;
use super::direct::{self, RowTarget};
use super::lexer::LexerBuffers;
use super::rows::{read_rows, tree_rows};
use super::side::{Emit, Failure, SideReader};
use crate::spec::Format;

/// Reads one message of one side and hands `emit` each row it gives (`None`: a null row): none
/// for a null or empty message, one per object, one per element of a top-level array (Flink
/// 2.x). Under `ignore-parse-errors` a failure ends the message quietly, keeping what was
/// emitted.
pub(crate) fn read_message(
    reader: &SideReader,
    message: Option<&[u8]>,
    emit: &mut Emit,
) -> std::result::Result<(), String> {
    let Some(message) = message.filter(|m| !m.is_empty()) else {
        return Ok(());
    };
    let read = match (reader.format, reader.settings.streaming) {
        (Format::Json, true) => read_rows(reader, message, emit),
        (Format::Json, false) => tree_rows(reader, &reader.row_type, message, emit),
        _ => cdc::read_changelog(reader, message, emit),
    };
    outcome(reader, message, read)
}

/// Whether a side is read by [`read_message_into`]: the json format's streaming decoder, on a
/// row without a MAP or MULTISET.
pub(crate) fn reads_into_columns(reader: &SideReader) -> bool {
    reader.format == Format::Json && reader.settings.streaming && !reader.has_map_like
}

/// [`read_message`] for a side that [`reads_into_columns`]: the rows go straight into `target`.
pub(crate) fn read_message_into(
    reader: &SideReader,
    message: Option<&[u8]>,
    target: &mut dyn RowTarget,
    buffers: &mut LexerBuffers,
) -> std::result::Result<(), String> {
    let Some(message) = message.filter(|m| !m.is_empty()) else {
        return Ok(());
    };
    outcome(reader, message, direct::read_rows(reader, message, target, buffers))
}

fn outcome(reader: &SideReader, message: &[u8], read: Result<(), Failure>) -> std::result::Result<(), String> {
    match read {
        Ok(()) => Ok(()),
        Err(Failure::Format(_)) if reader.settings.ignore_parse_errors => Ok(()),
        Err(Failure::Format(cause)) => {
            Err(format!("Failed to deserialize JSON '{}'. {cause}", String::from_utf8_lossy(message)))
        }
        Err(Failure::Fatal(cause)) => Err(cause),
    }
}
