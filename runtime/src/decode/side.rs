//! What reading one side's messages needs: the side's reader, how a message fails, the row
//! callback, and Flink's RowKind bytes.
pub(crate) use super::failure::Failure;
use super::fast::RowPlan;
use super::metadata::MetaKey;
use super::value::Value;
use super::DecodeSettings;
use crate::spec::Format;
use crate::types::{DataType, RowField};

pub(crate) const INSERT: i8 = 0;
pub(crate) const UPDATE_BEFORE: i8 = 1;
pub(crate) const UPDATE_AFTER: i8 = 2;
pub(crate) const DELETE: i8 = 3;

/// One side's row type (the format's field names) and where its fields go in the table's row.
pub(crate) struct SideReader {
    pub fields: Vec<RowField>,
    /// `fields` as one nullable ROW, built once.
    pub row_type: DataType,
    pub projection: Vec<usize>,
    pub settings: DecodeSettings,
    /// A MAP or MULTISET somewhere in the row.
    pub has_map_like: bool,
    pub format: Format,
    /// The nullable ROW a changelog format's envelope is read as (the physical row for json),
    /// built once.
    pub envelope_type: DataType,
    pub schema_include: bool,
    /// canal-json's `database.include` and `table.include`, anchored to match whole names.
    pub database_include: Option<regex::Regex>,
    pub table_include: Option<regex::Regex>,
    /// The format's metadata columns, appended to each row in this order.
    pub metadata: Vec<MetaKey>,
    /// How a json side's common-case message is read straight into the columns, when its types
    /// allow it.
    pub fast: Option<RowPlan>,
}

/// Takes each row a message gives, with its RowKind byte (`None`: a null row).
pub(crate) type Emit<'e> = dyn FnMut(Option<(i8, Vec<Value>)>) -> std::result::Result<(), Failure> + 'e;
