//! What generated decoders call (re-exported, hidden, as `kjson_runtime::decode_support`): a
//! generated decoder holds a side's member names as constants and picks each field's reader at
//! compile time; the row loop, the readers of single values and the give-up rules are the ones
//! the dynamic fast path runs (`fast::read`), so a generated decoder reads exactly what the
//! dynamic one reads. It reads row objects only: a json message, a json key, or the rows in a
//! changelog envelope, whose members the dynamic fast path (`fast::changelog`) still reads.
//! Whatever it gives up on is truncated and read again by the Jackson-exact decoders, as with
//! the dynamic plan.
use std::marker::PhantomData;

use super::columns::Column;
use super::fast::read::{self, Fields, ReadObject, Unknown};
use super::fast::scan::Scan;
use super::fast::{GeneratedRead, PlanLimits};
use super::Decoder;

/// A member's `"name":`, matched a word at a time.
pub use super::fast::scan::Prefix as Member;

/// One row type of a generated decoder (the side's row, or a ROW nested in it).
pub trait GeneratedRow {
    /// Each field's `"name":`, in the order Flink writes them.
    const MEMBERS: &'static [Member];
    /// The column each field writes (the table's for the side's row, the child's in a ROW).
    const COLUMNS: &'static [usize];
    /// Field `index`'s value (at a non-whitespace byte) into its column; `None` gives up.
    fn field(index: usize, reader: &mut Reader<'_, '_>, columns: &mut Columns<'_>) -> Option<()>;
}

/// A schema's generated sides and what identifies its scan spec.
pub trait GeneratedDecoder {
    const FINGERPRINT: u64;
    const CANONICAL_SPEC: &'static str;
    /// The generated type's name, for [`Decoder::kind`].
    const TYPE_NAME: &'static str;
    /// The key side's row (a json key), where it is generated.
    const KEY: Option<SideRow>;
    /// The value side's row (a json message's, or the rows of a changelog envelope), where it
    /// is generated.
    const VALUE: Option<SideRow>;
}

/// The reader of one side's row objects, as a generated decoder hands it to the decoder.
#[derive(Clone, Copy)]
pub struct SideRow(ReadObject);

impl SideRow {
    /// The row objects of `R`.
    pub const fn of<R: GeneratedRow>() -> SideRow {
        SideRow(read_object::<R>)
    }
}

/// A message being read, and the options that change what it reads as.
pub struct Reader<'r, 'a> {
    scan: &'r mut Scan<'a>,
    limits: &'r PlanLimits,
}

/// The columns a row writes.
pub struct Columns<'c>(&'c mut [Column]);

/// Which decoder reads the common case of a table's sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecoderKind {
    /// The generated decoder `type_name` (`schemas/`) reads the sides marked true; the dynamic
    /// decoder reads the others.
    Generated { type_name: &'static str, key: bool, value: bool },
    /// Every side is read by the dynamic decoder.
    Dynamic,
}

impl std::fmt::Display for DecoderKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let DecoderKind::Generated { type_name, key, value } = *self else { return f.write_str("dynamic") };
        let sides = match (key, value) {
            (true, true) => "the key and value sides",
            (true, false) => "the key side",
            _ => "the value side",
        };
        write!(f, "generated {type_name} for {sides}")
    }
}

impl Decoder {
    /// Which decoder reads the common case of each side.
    pub fn kind(&self) -> DecoderKind {
        let [key, value] = self.plans().map(|plan| plan.and_then(|plan| plan.generated));
        match key.or(value) {
            Some(generated) => {
                DecoderKind::Generated { type_name: generated.type_name, key: key.is_some(), value: value.is_some() }
            }
            None => DecoderKind::Dynamic,
        }
    }

    /// Reads the common case of `D`'s generated sides with `D` (whose spec the caller matched
    /// by fingerprint and canonical text). False, and the decoder unchanged, when no such side
    /// has a one-pass plan for these options and this Flink line (it stays dynamic).
    #[doc(hidden)]
    pub fn use_generated<D: GeneratedDecoder>(&mut self) -> bool {
        let mut used = false;
        for (plan, side) in self.plans_mut().into_iter().zip([D::KEY, D::VALUE]) {
            if let (Some(plan), Some(SideRow(row))) = (plan, side) {
                plan.generated = Some(GeneratedRead { type_name: D::TYPE_NAME, row });
                used = true;
            }
        }
        used
    }
}

/// [`read::fields_row`] for the row objects of `R`.
fn read_object<R: GeneratedRow>(
    scan: &mut Scan,
    limits: &PlanLimits,
    columns: &mut [Column],
    unknown: Unknown,
) -> Option<u64> {
    read::fields_row(scan, &Rows::<R>(PhantomData), limits, columns, unknown)
}

/// The row loop's view of a generated row.
struct Rows<R>(PhantomData<R>);

impl<R: GeneratedRow> Fields for Rows<R> {
    fn count(&self) -> usize {
        R::MEMBERS.len()
    }

    fn member(&self, index: usize) -> &Member {
        &R::MEMBERS[index]
    }

    fn column(&self, index: usize) -> usize {
        R::COLUMNS[index]
    }

    #[inline(always)]
    fn value(&self, index: usize, scan: &mut Scan, limits: &PlanLimits, columns: &mut [Column]) -> Option<()> {
        R::field(index, &mut Reader { scan, limits }, &mut Columns(columns))
    }
}

/// Column `at`: `null`, or the value `read` reads.
#[inline(always)]
fn cell(
    reader: &mut Reader,
    columns: &mut Columns,
    at: usize,
    read: impl FnOnce(&mut Scan, &PlanLimits, &mut Column) -> Option<()>,
) -> Option<()> {
    let column = columns.0.get_mut(at)?;
    if read::null(reader.scan, column)? {
        return Some(());
    }
    read(reader.scan, reader.limits, column)
}

macro_rules! integer_readers {
    ($($(#[$doc:meta])* $name:ident: $ty:ty;)*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(reader: &mut Reader, columns: &mut Columns, at: usize) -> Option<()> {
            cell(reader, columns, at, |scan, _, column| read::integer(scan, <$ty>::MIN.into(), <$ty>::MAX.into(), column))
        }
    )*};
}

integer_readers! {
    tinyint: i8;
    smallint: i16;
    /// INT and INTERVAL YEAR TO MONTH.
    int: i32;
    /// BIGINT and INTERVAL DAY TO SECOND.
    bigint: i64;
}

/// FLOAT and DOUBLE (the column's type picks the width).
#[inline(always)]
pub fn floating(reader: &mut Reader, columns: &mut Columns, at: usize) -> Option<()> {
    cell(reader, columns, at, read::floating)
}

#[inline(always)]
pub fn boolean(reader: &mut Reader, columns: &mut Columns, at: usize) -> Option<()> {
    cell(reader, columns, at, |scan, _, column| read::boolean(scan, column))
}

/// CHAR and VARCHAR.
#[inline(always)]
pub fn text(reader: &mut Reader, columns: &mut Columns, at: usize) -> Option<()> {
    cell(reader, columns, at, read::text)
}

/// BINARY and VARBINARY.
pub fn bytes(reader: &mut Reader, columns: &mut Columns, at: usize) -> Option<()> {
    cell(reader, columns, at, read::bytes)
}

pub fn decimal(reader: &mut Reader, columns: &mut Columns, at: usize, precision: u8, scale: u8) -> Option<()> {
    cell(reader, columns, at, |scan, limits, column| read::decimal(scan, precision, scale, limits, column))
}

pub fn date(reader: &mut Reader, columns: &mut Columns, at: usize) -> Option<()> {
    cell(reader, columns, at, |scan, _, column| read::date(scan, column))
}

pub fn time(reader: &mut Reader, columns: &mut Columns, at: usize) -> Option<()> {
    cell(reader, columns, at, read::time)
}

#[inline(always)]
pub fn timestamp(reader: &mut Reader, columns: &mut Columns, at: usize) -> Option<()> {
    cell(reader, columns, at, |scan, limits, column| read::timestamp(scan, false, limits, column))
}

pub fn timestamp_ltz(reader: &mut Reader, columns: &mut Columns, at: usize) -> Option<()> {
    cell(reader, columns, at, |scan, limits, column| read::timestamp(scan, true, limits, column))
}

/// A ROW whose fields `R` reads.
pub fn row<R: GeneratedRow>(reader: &mut Reader, columns: &mut Columns, at: usize) -> Option<()> {
    cell(reader, columns, at, |scan, limits, column| {
        let Column::Row { valid, children } = column else { return None };
        scan.eat(b'{')?;
        read::fields_row(scan, &Rows::<R>(PhantomData), limits, children, Unknown::Any)?;
        valid.push(true);
        Some(())
    })
}

/// An ARRAY whose elements `item` reads (into column 0 of the columns it is given).
pub fn array(
    reader: &mut Reader,
    columns: &mut Columns,
    at: usize,
    mut item: impl FnMut(&mut Reader, &mut Columns) -> Option<()>,
) -> Option<()> {
    cell(reader, columns, at, |scan, limits, column| {
        read::array(scan, column, |scan, child| {
            item(&mut Reader { scan, limits }, &mut Columns(std::slice::from_mut(child)))
        })
    })
}

/// A MAP with STRING keys whose values `item` reads (into column 0 of the columns it is given).
pub fn map(
    reader: &mut Reader,
    columns: &mut Columns,
    at: usize,
    mut item: impl FnMut(&mut Reader, &mut Columns) -> Option<()>,
) -> Option<()> {
    cell(reader, columns, at, |scan, limits, column| {
        read::map(scan, limits, column, |scan, values| {
            item(&mut Reader { scan, limits }, &mut Columns(std::slice::from_mut(values)))
        })
    })
}

/// A MULTISET of STRING.
pub fn multiset(reader: &mut Reader, columns: &mut Columns, at: usize) -> Option<()> {
    cell(reader, columns, at, |scan, limits, column| read::map(scan, limits, column, read::multiset_count))
}
