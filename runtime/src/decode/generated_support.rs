//! What generated decoders call (re-exported, hidden, as `kjson_runtime::decode_support`): a
//! generated decoder holds a side's member names as constants and picks each field's reader at
//! compile time; the row loop, the readers of single values and the give-up rules are the ones
//! the dynamic fast path runs (`fast::read`), so a generated decoder reads exactly what the
//! dynamic one reads. Whatever it gives up on is truncated and read again by the Jackson-exact
//! decoders, as with the dynamic plan.
use std::marker::PhantomData;

use super::columns::Column;
use super::fast::read::{self, Fields};
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

/// The value side of a schema: its row and what identifies its spec.
pub trait GeneratedDecoder: GeneratedRow {
    const FINGERPRINT: u64;
    const CANONICAL_SPEC: &'static str;
    /// The generated type's name, for [`Decoder::kind`].
    const TYPE_NAME: &'static str;
}

/// A message being read, and the options that change what it reads as.
pub struct Reader<'r, 'a> {
    scan: &'r mut Scan<'a>,
    limits: &'r PlanLimits,
}

/// The columns a row writes.
pub struct Columns<'c>(&'c mut [Column]);

/// What a generated decoder is to the decoder: which reader its value side uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecoderKind {
    /// The value side is read by the generated decoder of that name (`schemas/`).
    Generated(&'static str),
    /// Every side is read by the dynamic decoder.
    Dynamic,
}

impl std::fmt::Display for DecoderKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecoderKind::Generated(name) => write!(f, "generated {name} for the value side"),
            DecoderKind::Dynamic => f.write_str("dynamic"),
        }
    }
}

impl Decoder {
    /// Which decoder reads the value side's common case.
    pub fn kind(&self) -> DecoderKind {
        match self.value_plan().and_then(|plan| plan.generated) {
            Some(generated) => DecoderKind::Generated(generated.type_name),
            None => DecoderKind::Dynamic,
        }
    }

    /// Reads the value side's common case with `D` (whose spec the caller matched by fingerprint
    /// and canonical text). False, and the decoder unchanged, when the side has no one-pass plan
    /// for these options and this Flink line (it stays dynamic).
    #[doc(hidden)]
    pub fn use_generated<D: GeneratedDecoder>(&mut self) -> bool {
        let Some(plan) = self.value_plan_mut() else { return false };
        plan.generated = Some(GeneratedRead { type_name: D::TYPE_NAME, read: read_message::<D> });
        true
    }
}

/// [`read::read_row`] for the rows of `R`.
fn read_message<R: GeneratedRow>(message: &[u8], columns: &mut [Column], limits: &PlanLimits) -> bool {
    let mut scan = Scan { input: message, pos: 0 };
    scan.eat(b'{').is_some()
        && read::fields_row(&mut scan, &Rows::<R>(PhantomData), limits, columns, read::Unknown::Any).is_some()
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
        read::fields_row(scan, &Rows::<R>(PhantomData), limits, children, read::Unknown::Any)?;
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
