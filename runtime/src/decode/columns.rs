//! The batch's columns while it decodes: growable typed buffers, one per table column (and one
//! per nested child), chosen once from the column's type. Rows are appended as they decode,
//! either as whole `Value`s (the tree decoder, the changelog formats, the key side) or cell by
//! cell by the streaming converters (`direct`); `truncate` undoes everything past a row start, so
//! a record or a field that fails leaves nothing behind.
use super::value::Value;
use crate::types::{IntervalKind, LogicalType};

/// Values and their validity; a null cell holds `T::default()`.
#[derive(Debug, Default)]
pub(crate) struct Cells<T> {
    pub values: Vec<T>,
    pub valid: Vec<bool>,
}

impl<T: Copy + Default> Cells<T> {
    #[inline]
    pub(crate) fn push(&mut self, value: T) {
        self.values.push(value);
        self.valid.push(true);
    }

    fn push_null(&mut self) {
        self.values.push(T::default());
        self.valid.push(false);
    }

    fn truncate(&mut self, len: usize) {
        self.values.truncate(len);
        self.valid.truncate(len);
    }

    fn reserve(&mut self, rows: usize) {
        self.values.reserve(rows);
        self.valid.reserve(rows);
    }

    /// See [`Column::before_after`].
    fn before_after(&mut self, at: usize, from_old: bool) {
        match from_old {
            true => {
                self.values.swap(at, at + 1);
                self.valid.swap(at, at + 1);
            }
            false => {
                self.values[at + 1] = self.values[at];
                self.valid[at + 1] = self.valid[at];
            }
        }
    }
}

/// Variable-length cells (text, bytes): their bytes one after the other, and where each ends.
#[derive(Debug)]
pub(crate) struct Blobs {
    pub data: Vec<u8>,
    /// `len() + 1` offsets, starting at 0.
    pub offsets: Vec<i32>,
    pub valid: Vec<bool>,
}

impl Blobs {
    fn new() -> Blobs {
        Blobs { data: Vec::new(), offsets: vec![0], valid: Vec::new() }
    }

    pub(crate) fn push(&mut self, bytes: &[u8]) {
        self.data.extend_from_slice(bytes);
        self.end_cell(true);
    }

    /// Ends the cell whose bytes were written to `data` since the previous one.
    #[inline]
    pub(crate) fn end_cell(&mut self, valid: bool) {
        self.offsets.push(self.data.len() as i32);
        self.valid.push(valid);
    }

    fn truncate(&mut self, len: usize) {
        self.offsets.truncate(len + 1);
        self.data.truncate(self.offsets[len] as usize);
        self.valid.truncate(len);
    }

    pub(crate) fn cell(&self, row: usize) -> &[u8] {
        &self.data[self.offsets[row] as usize..self.offsets[row + 1] as usize]
    }

    /// See [`Column::before_after`].
    fn before_after(&mut self, at: usize, from_old: bool) {
        let (start, middle) = (self.offsets[at] as usize, self.offsets[at + 1] as usize);
        match from_old {
            true => {
                // The two cells' bytes swap places: the old one's now ends where the data one began
                // plus its own length.
                self.data[start..].rotate_left(middle - start);
                self.offsets[at + 1] = (start + self.data.len() - middle) as i32;
                self.valid.swap(at, at + 1);
            }
            false => {
                self.truncate(at + 1);
                self.data.extend_from_within(start..middle);
                self.end_cell(self.valid[at]);
            }
        }
    }
}

/// A list or map column: where each row's entries end in the child columns.
#[derive(Debug)]
pub(crate) struct Nested<C> {
    /// `len() + 1` offsets, starting at 0.
    pub offsets: Vec<i32>,
    pub valid: Vec<bool>,
    pub child: C,
}

impl<C> Nested<C> {
    fn new(child: C) -> Nested<C> {
        Nested { offsets: vec![0], valid: Vec::new(), child }
    }

    /// Ends the row whose entries were appended to the child since the previous one.
    pub(crate) fn end_row(&mut self, entries: usize, valid: bool) {
        self.offsets.push(entries as i32);
        self.valid.push(valid);
    }

    /// The child entries of row `row`.
    fn entries(&self, row: usize) -> std::ops::Range<usize> {
        self.offsets[row] as usize..self.offsets[row + 1] as usize
    }

    /// Drops the rows past `len`; gives how many child entries remain.
    fn truncate(&mut self, len: usize) -> usize {
        self.offsets.truncate(len + 1);
        self.valid.truncate(len);
        self.offsets[len] as usize
    }
}

#[derive(Debug)]
pub(crate) enum Column {
    Boolean(Cells<bool>),
    Int8(Cells<i8>),
    Int16(Cells<i16>),
    /// INT and INTERVAL YEAR TO MONTH.
    Int32(Cells<i32>),
    /// BIGINT and INTERVAL DAY TO SECOND.
    Int64(Cells<i64>),
    Float32(Cells<f32>),
    Float64(Cells<f64>),
    /// Unscaled values at the column's scale.
    Decimal(Cells<i128>),
    /// Days since the epoch.
    Date(Cells<i32>),
    /// Milliseconds of the day.
    Time(Cells<i32>),
    /// Epoch milliseconds and nanoseconds of the millisecond.
    Timestamp(Cells<(i64, i32)>),
    Text(Blobs),
    Bytes(Blobs),
    List(Box<Nested<Column>>),
    /// Keys, then values.
    Map(Box<Nested<[Column; 2]>>),
    Row {
        valid: Vec<bool>,
        children: Vec<Column>,
    },
}

impl Column {
    /// The empty column of a value of type `ty`.
    pub(crate) fn new(ty: &LogicalType) -> Column {
        match ty {
            LogicalType::Boolean => Column::Boolean(Cells::default()),
            LogicalType::TinyInt => Column::Int8(Cells::default()),
            LogicalType::SmallInt => Column::Int16(Cells::default()),
            LogicalType::Int | LogicalType::Interval { kind: IntervalKind::YearMonth, .. } => {
                Column::Int32(Cells::default())
            }
            LogicalType::BigInt | LogicalType::Interval { .. } => Column::Int64(Cells::default()),
            LogicalType::Float => Column::Float32(Cells::default()),
            LogicalType::Double => Column::Float64(Cells::default()),
            LogicalType::Decimal { .. } => Column::Decimal(Cells::default()),
            LogicalType::Char { .. } | LogicalType::VarChar { .. } => Column::Text(Blobs::new()),
            LogicalType::Binary { .. } | LogicalType::VarBinary { .. } => Column::Bytes(Blobs::new()),
            LogicalType::Date => Column::Date(Cells::default()),
            LogicalType::Time { .. } => Column::Time(Cells::default()),
            LogicalType::Timestamp { .. } | LogicalType::TimestampLtz { .. } => Column::Timestamp(Cells::default()),
            LogicalType::Array(element) => Column::List(Box::new(Nested::new(Column::new(&element.logical)))),
            LogicalType::Map { key, value } => {
                Column::Map(Box::new(Nested::new([Column::new(&key.logical), Column::new(&value.logical)])))
            }
            LogicalType::Multiset(element) => {
                Column::Map(Box::new(Nested::new([Column::new(&element.logical), Column::Int32(Cells::default())])))
            }
            LogicalType::Row(fields) => Column::Row {
                valid: Vec::new(),
                children: fields.iter().map(|f| Column::new(&f.data_type.logical)).collect(),
            },
            // Refused when the decoder opens (no Arrow layout); never filled.
            LogicalType::Unsupported { .. } => Column::Row { valid: Vec::new(), children: Vec::new() },
        }
    }

    /// Room for `rows` more rows of the column itself (nested entries grow as they come).
    pub(crate) fn reserve(&mut self, rows: usize) {
        match self {
            Column::Boolean(c) => c.reserve(rows),
            Column::Int8(c) => c.reserve(rows),
            Column::Int16(c) => c.reserve(rows),
            Column::Int32(c) | Column::Date(c) | Column::Time(c) => c.reserve(rows),
            Column::Int64(c) => c.reserve(rows),
            Column::Float32(c) => c.reserve(rows),
            Column::Float64(c) => c.reserve(rows),
            Column::Decimal(c) => c.reserve(rows),
            Column::Timestamp(c) => c.reserve(rows),
            Column::Text(b) | Column::Bytes(b) => {
                b.offsets.reserve(rows);
                b.valid.reserve(rows);
            }
            Column::List(n) => {
                n.offsets.reserve(rows);
                n.valid.reserve(rows);
            }
            Column::Map(n) => {
                n.offsets.reserve(rows);
                n.valid.reserve(rows);
            }
            Column::Row { valid, children } => {
                valid.reserve(rows);
                children.iter_mut().for_each(|c| c.reserve(rows));
            }
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Column::Boolean(c) => c.valid.len(),
            Column::Int8(c) => c.valid.len(),
            Column::Int16(c) => c.valid.len(),
            Column::Int32(c) | Column::Date(c) | Column::Time(c) => c.valid.len(),
            Column::Int64(c) => c.valid.len(),
            Column::Float32(c) => c.valid.len(),
            Column::Float64(c) => c.valid.len(),
            Column::Decimal(c) => c.valid.len(),
            Column::Timestamp(c) => c.valid.len(),
            Column::Text(b) | Column::Bytes(b) => b.valid.len(),
            Column::List(n) => n.valid.len(),
            Column::Map(n) => n.valid.len(),
            Column::Row { valid, .. } => valid.len(),
        }
    }

    pub(crate) fn push_null(&mut self) {
        match self {
            Column::Boolean(c) => c.push_null(),
            Column::Int8(c) => c.push_null(),
            Column::Int16(c) => c.push_null(),
            Column::Int32(c) | Column::Date(c) | Column::Time(c) => c.push_null(),
            Column::Int64(c) => c.push_null(),
            Column::Float32(c) => c.push_null(),
            Column::Float64(c) => c.push_null(),
            Column::Decimal(c) => c.push_null(),
            Column::Timestamp(c) => c.push_null(),
            Column::Text(b) | Column::Bytes(b) => b.end_cell(false),
            Column::List(n) => n.end_row(n.child.len(), false),
            Column::Map(n) => n.end_row(n.child[0].len(), false),
            Column::Row { valid, children } => {
                valid.push(false);
                children.iter_mut().for_each(Column::push_null);
            }
        }
    }

    /// Drops every row past the first `len` (nested entries included).
    pub(crate) fn truncate(&mut self, len: usize) {
        match self {
            Column::Boolean(c) => c.truncate(len),
            Column::Int8(c) => c.truncate(len),
            Column::Int16(c) => c.truncate(len),
            Column::Int32(c) | Column::Date(c) | Column::Time(c) => c.truncate(len),
            Column::Int64(c) => c.truncate(len),
            Column::Float32(c) => c.truncate(len),
            Column::Float64(c) => c.truncate(len),
            Column::Decimal(c) => c.truncate(len),
            Column::Timestamp(c) => c.truncate(len),
            Column::Text(b) | Column::Bytes(b) => b.truncate(len),
            Column::List(n) => {
                let entries = n.truncate(len);
                n.child.truncate(entries);
            }
            Column::Map(n) => {
                let entries = n.truncate(len);
                n.child.iter_mut().for_each(|c| c.truncate(entries));
            }
            Column::Row { valid, children } => {
                valid.truncate(len);
                children.iter_mut().for_each(|c| c.truncate(len));
            }
        }
    }

    /// Rows `at` (a data row) and `at + 1` (its old row), the column's last two, of a scalar
    /// column become an UPDATE's pair: the before-image's cell (the old row's when
    /// `from_old`, else the data row's), then the after-image's (the data row's). False, and the
    /// column unchanged, for a nested column.
    pub(crate) fn before_after(&mut self, at: usize, from_old: bool) -> bool {
        match self {
            Column::Boolean(c) => c.before_after(at, from_old),
            Column::Int8(c) => c.before_after(at, from_old),
            Column::Int16(c) => c.before_after(at, from_old),
            Column::Int32(c) | Column::Date(c) | Column::Time(c) => c.before_after(at, from_old),
            Column::Int64(c) => c.before_after(at, from_old),
            Column::Float32(c) => c.before_after(at, from_old),
            Column::Float64(c) => c.before_after(at, from_old),
            Column::Decimal(c) => c.before_after(at, from_old),
            Column::Timestamp(c) => c.before_after(at, from_old),
            Column::Text(b) | Column::Bytes(b) => b.before_after(at, from_old),
            Column::List(_) | Column::Map(_) | Column::Row { .. } => return false,
        }
        true
    }

    /// The value of row `row` (the inverse of [`Column::push_value`]).
    pub(crate) fn value_at(&self, row: usize) -> Value {
        let cell = |valid: &[bool], value: &dyn Fn() -> Value| if valid[row] { value() } else { Value::Null };
        match self {
            Column::Boolean(c) => cell(&c.valid, &|| Value::Bool(c.values[row])),
            Column::Int8(c) => cell(&c.valid, &|| Value::Int(c.values[row].into())),
            Column::Int16(c) => cell(&c.valid, &|| Value::Int(c.values[row].into())),
            Column::Int32(c) => cell(&c.valid, &|| Value::Int(c.values[row].into())),
            Column::Int64(c) => cell(&c.valid, &|| Value::Int(c.values[row])),
            Column::Float32(c) => cell(&c.valid, &|| Value::Float(c.values[row])),
            Column::Float64(c) => cell(&c.valid, &|| Value::Double(c.values[row])),
            Column::Decimal(c) => cell(&c.valid, &|| Value::Decimal(c.values[row])),
            Column::Date(c) => cell(&c.valid, &|| Value::Date(c.values[row])),
            Column::Time(c) => cell(&c.valid, &|| Value::Time(c.values[row])),
            Column::Timestamp(c) => cell(&c.valid, &|| {
                let (millis, nano_of_milli) = c.values[row];
                Value::Timestamp { millis, nano_of_milli }
            }),
            Column::Text(b) => cell(&b.valid, &|| Value::Text(b.cell(row).to_vec())),
            Column::Bytes(b) => cell(&b.valid, &|| Value::Bytes(b.cell(row).to_vec())),
            Column::List(n) => cell(&n.valid, &|| Value::List(n.entries(row).map(|i| n.child.value_at(i)).collect())),
            Column::Map(n) => cell(&n.valid, &|| {
                Value::Map(n.entries(row).map(|i| (n.child[0].value_at(i), n.child[1].value_at(i))).collect())
            }),
            Column::Row { valid, children } => {
                cell(valid, &|| Value::Row(children.iter().map(|c| c.value_at(row)).collect()))
            }
        }
    }

    /// Appends row `row` of `from`, a column of the same type (a nested one through its value).
    pub(crate) fn push_cell(&mut self, from: &Column, row: usize) {
        fn copy<T: Copy + Default>(to: &mut Cells<T>, from: &Cells<T>, row: usize) {
            match from.valid[row] {
                true => to.push(from.values[row]),
                false => to.push_null(),
            }
        }
        match (self, from) {
            (Column::Boolean(to), Column::Boolean(from)) => copy(to, from, row),
            (Column::Int8(to), Column::Int8(from)) => copy(to, from, row),
            (Column::Int16(to), Column::Int16(from)) => copy(to, from, row),
            (Column::Int32(to), Column::Int32(from))
            | (Column::Date(to), Column::Date(from))
            | (Column::Time(to), Column::Time(from)) => copy(to, from, row),
            (Column::Int64(to), Column::Int64(from)) => copy(to, from, row),
            (Column::Float32(to), Column::Float32(from)) => copy(to, from, row),
            (Column::Float64(to), Column::Float64(from)) => copy(to, from, row),
            (Column::Decimal(to), Column::Decimal(from)) => copy(to, from, row),
            (Column::Timestamp(to), Column::Timestamp(from)) => copy(to, from, row),
            (Column::Text(to), Column::Text(from)) | (Column::Bytes(to), Column::Bytes(from)) => {
                match from.valid[row] {
                    true => to.push(from.cell(row)),
                    false => to.end_cell(false),
                }
            }
            (to, from) => to.push_value(&from.value_at(row)),
        }
    }

    /// Appends one decoded value; a value of another kind than the column's is null (as a
    /// DECIMAL that overflows its precision is).
    pub(crate) fn push_value(&mut self, value: &Value) {
        match (self, value) {
            (Column::Boolean(c), Value::Bool(v)) => c.push(*v),
            (Column::Int8(c), Value::Int(v)) => c.push(*v as i8),
            (Column::Int16(c), Value::Int(v)) => c.push(*v as i16),
            (Column::Int32(c), Value::Int(v)) => c.push(*v as i32),
            (Column::Int64(c), Value::Int(v)) => c.push(*v),
            (Column::Float32(c), Value::Float(v)) => c.push(*v),
            (Column::Float64(c), Value::Double(v)) => c.push(*v),
            (Column::Decimal(c), Value::Decimal(v)) => c.push(*v),
            (Column::Date(c), Value::Date(v)) => c.push(*v),
            (Column::Time(c), Value::Time(v)) => c.push(*v),
            (Column::Timestamp(c), Value::Timestamp { millis, nano_of_milli }) => c.push((*millis, *nano_of_milli)),
            (Column::Text(b), Value::Text(bytes)) | (Column::Bytes(b), Value::Bytes(bytes)) => b.push(bytes),
            (Column::List(n), Value::List(items)) => {
                items.iter().for_each(|item| n.child.push_value(item));
                n.end_row(n.child.len(), true);
            }
            (Column::Map(n), Value::Map(entries)) => {
                for (key, item) in entries {
                    n.child[0].push_value(key);
                    n.child[1].push_value(item);
                }
                n.end_row(n.child[0].len(), true);
            }
            (Column::Row { valid, children }, Value::Row(values)) if values.len() == children.len() => {
                valid.push(true);
                children.iter_mut().zip(values).for_each(|(c, v)| c.push_value(v));
            }
            (column, _) => column.push_null(),
        }
    }
}
