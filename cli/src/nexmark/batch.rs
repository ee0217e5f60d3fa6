//! Lays sink rows out as Arrow columns: the sink's physical columns in DDL order, with Flink's
//! Arrow mapping (BIGINT Int64, VARCHAR Utf8, TIMESTAMP(3) Timestamp(Millisecond, None)).
//! Primary-key columns are NOT NULL, as Flink's ArrowUtils writes them.
use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, Int8Array, RecordBatch, TimestampMillisecondArray};

use arrow_array::builder::StringBuilder;
use arrow_schema::ArrowError;
use arrow_schema::{DataType as ArrowType, Field, Schema, SchemaRef, TimeUnit};

use super::changelog::SinkRow;
use super::events::TextTables;
use super::Query;

#[derive(Clone, Copy)]
enum Kind {
    Bigint,
    /// With the bytes to reserve per value (a little above the mean), so builders rarely grow.
    Varchar(usize),
    Timestamp3,
}

const Q0_COLUMNS: &[(&str, Kind)] = &[
    ("auction", Kind::Bigint),
    ("bidder", Kind::Bigint),
    ("price", Kind::Bigint),
    ("dateTime", Kind::Timestamp3),
    ("extra", Kind::Varchar(80)),
];

const Q9_COLUMNS: &[(&str, Kind)] = &[
    ("id", Kind::Bigint),
    ("itemName", Kind::Varchar(16)),
    ("description", Kind::Varchar(64)),
    ("initialBid", Kind::Bigint),
    ("reserve", Kind::Bigint),
    ("dateTime", Kind::Timestamp3),
    ("expires", Kind::Timestamp3),
    ("seller", Kind::Bigint),
    ("category", Kind::Bigint),
    ("extra", Kind::Varchar(448)),
    ("auction", Kind::Bigint),
    ("bidder", Kind::Bigint),
    ("price", Kind::Bigint),
    ("bid_dateTime", Kind::Timestamp3),
    ("bid_extra", Kind::Varchar(80)),
];

const Q19_COLUMNS: &[(&str, Kind)] = &[
    ("auction", Kind::Bigint),
    ("bidder", Kind::Bigint),
    ("price", Kind::Bigint),
    ("channel", Kind::Varchar(16)),
    ("url", Kind::Varchar(72)),
    ("dateTime", Kind::Timestamp3),
    ("extra", Kind::Varchar(80)),
    ("rank_number", Kind::Bigint),
];

fn columns_of(query: Query) -> (&'static [(&'static str, Kind)], &'static [&'static str]) {
    match query {
        Query::Q0 => (Q0_COLUMNS, &[]),
        Query::Q9 => (Q9_COLUMNS, &["id"]),
        Query::Q19 => (Q19_COLUMNS, &["auction", "rank_number"]),
    }
}

/// The Arrow schema of the query's sink table.
pub fn sink_schema(query: Query) -> SchemaRef {
    let (columns, primary_key) = columns_of(query);
    let fields: Vec<Field> = columns
        .iter()
        .map(|(name, kind)| {
            let data_type = match kind {
                Kind::Bigint => ArrowType::Int64,
                Kind::Varchar(_) => ArrowType::Utf8,
                Kind::Timestamp3 => ArrowType::Timestamp(TimeUnit::Millisecond, None),
            };
            Field::new(*name, data_type, !primary_key.contains(name))
        })
        .collect();
    Arc::new(Schema::new(fields))
}

/// One column being filled: integers and timestamps as plain vectors, strings in a builder.
enum ColumnBuffer {
    Int64(Vec<i64>),
    Timestamp(Vec<i64>),
    Utf8(StringBuilder),
}

impl ColumnBuffer {
    fn new(kind: Kind, rows: usize) -> Self {
        match kind {
            Kind::Bigint => ColumnBuffer::Int64(Vec::with_capacity(rows)),
            Kind::Timestamp3 => ColumnBuffer::Timestamp(Vec::with_capacity(rows)),
            Kind::Varchar(bytes) => ColumnBuffer::Utf8(StringBuilder::with_capacity(rows, rows * bytes)),
        }
    }

    fn finish(self) -> ArrayRef {
        match self {
            ColumnBuffer::Int64(values) => Arc::new(Int64Array::from(values)),
            ColumnBuffer::Timestamp(values) => Arc::new(TimestampMillisecondArray::from(values)),
            ColumnBuffer::Utf8(mut builder) => Arc::new(builder.finish()),
        }
    }
}

/// Pushes one row's values in column order; a value of the wrong kind for its column is a bug
/// in this file and is caught by the schema tests.
struct RowWriter<'a> {
    columns: std::slice::IterMut<'a, ColumnBuffer>,
}

impl RowWriter<'_> {
    #[inline]
    fn int(&mut self, value: i64) -> &mut Self {
        if let Some(ColumnBuffer::Int64(values) | ColumnBuffer::Timestamp(values)) = self.columns.next() {
            values.push(value);
        }
        self
    }

    #[inline]
    fn text(&mut self, value: &str) -> &mut Self {
        if let Some(ColumnBuffer::Utf8(builder)) = self.columns.next() {
            builder.append_value(value);
        }
        self
    }
}

/// Collects up to one batch of sink rows.
pub struct BatchBuilder {
    schema: SchemaRef,
    columns: Vec<ColumnBuffer>,
    row_kinds: Option<Vec<i8>>,
    rows: usize,
}

impl BatchBuilder {
    pub fn new(query: Query, capacity: usize) -> Self {
        let (columns, _) = columns_of(query);
        let buffers = columns.iter().map(|(_, kind)| ColumnBuffer::new(*kind, capacity)).collect();
        let row_kinds = (query != Query::Q0).then(|| Vec::with_capacity(capacity));
        BatchBuilder { schema: sink_schema(query), columns: buffers, row_kinds, rows: 0 }
    }

    pub fn len(&self) -> usize {
        self.rows
    }

    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    pub fn push(&mut self, row: &SinkRow, text: &TextTables) {
        let mut w = RowWriter { columns: self.columns.iter_mut() };
        let kind = match row {
            SinkRow::Bid(bid) => {
                w.int(bid.auction).int(bid.bidder).int(bid.price).int(bid.date_time).text(text.extra(bid.extra));
                None
            }
            SinkRow::Winner { auction: a, bid, kind } => {
                w.int(a.id).text(&a.item_name).text(&a.description).int(a.initial_bid).int(a.reserve);
                w.int(a.date_time).int(a.expires).int(a.seller).int(a.category).text(text.extra(a.extra));
                w.int(bid.auction).int(bid.bidder).int(bid.price).int(bid.date_time).text(text.extra(bid.extra));
                Some(*kind)
            }
            SinkRow::Ranked { bid, rank, kind } => {
                let channels = &text.channels;
                w.int(bid.auction).int(bid.bidder).int(bid.price);
                w.text(channels.name(bid.channel)).text(channels.url(bid.channel));
                w.int(bid.date_time).text(text.extra(bid.extra)).int(*rank);
                Some(*kind)
            }
        };
        if let (Some(kinds), Some(kind)) = (self.row_kinds.as_mut(), kind) {
            kinds.push(kind as i8);
        }
        self.rows += 1;
    }

    /// The batch and, for q9 and q19, the Flink RowKind of each row (0 +I, 1 -U, 2 +U, 3 -D).
    pub fn finish(self) -> Result<(RecordBatch, Option<Int8Array>), ArrowError> {
        let arrays: Vec<ArrayRef> = self.columns.into_iter().map(ColumnBuffer::finish).collect();
        let batch = RecordBatch::try_new(self.schema, arrays)?;
        Ok((batch, self.row_kinds.map(Int8Array::from)))
    }
}
