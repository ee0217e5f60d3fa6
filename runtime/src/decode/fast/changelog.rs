//! The changelog formats' common envelopes read straight into the columns, in one pass: each
//! image or data row that is not null is read as the tree converters read it, the other
//! members are skipped as the tree reads them, and the operation says which rows the message
//! gives. Only the shapes Flink's deserializer reads without an error are read here; anything
//! else gives `None` and is left to `cdc`.
//!
//! debezium-json and ogg-json: `{"before":ROW|null,"after":ROW|null,"op":"c"}` (ogg: `op_type`).
//! canal-json and maxwell-json (`data` and `old`) are in [`data_old`](super::data_old).
use super::data_old::{self, Filters};
use super::envelope::{envelope, RowKinds};
use super::read::row;
use super::scan::{Prefix, Scan};
use super::RowPlan;
use crate::decode::columns::Column;
use crate::decode::side::{DELETE, INSERT};
use crate::spec::Format;

/// Reads one message of `format` into `columns`, giving the RowKind of each row written, in
/// order; `None` when it is not the common case (rows may then be left in the plan's columns).
pub(crate) fn read_changelog(
    plan: &RowPlan,
    format: Format,
    filters: &Filters,
    message: &[u8],
    columns: &mut [Column],
) -> Option<RowKinds> {
    match format {
        Format::DebeziumJson => before_after(plan, &DEBEZIUM, message, columns),
        Format::OggJson => before_after(plan, &OGG, message, columns),
        Format::MaxwellJson => data_old::maxwell(plan, message, columns),
        Format::CanalJson => data_old::canal(plan, filters, message, columns),
        Format::Json => None,
    }
}

/// A before/after envelope's members (`before`, `after`, the operation) and operation codes.
struct BeforeAfter {
    members: [Prefix; 3],
    /// The members as Flink writes them, in order: `{"before":`, `,"after":`, `,"op":"`.
    layout: [Prefix; 3],
    /// Each code is one byte: compared as a byte, not as a slice (a `memcmp` call each).
    inserts: &'static [u8],
    update: u8,
    delete: u8,
}

static DEBEZIUM: BeforeAfter = BeforeAfter {
    members: [Prefix::of(b"\"before\":"), Prefix::of(b"\"after\":"), Prefix::of(b"\"op\":")],
    layout: [Prefix::of(b"{\"before\":"), Prefix::of(b",\"after\":"), Prefix::of(b",\"op\":\"")],
    inserts: b"cr",
    update: b'u',
    delete: b'd',
};
static OGG: BeforeAfter = BeforeAfter {
    members: [Prefix::of(b"\"before\":"), Prefix::of(b"\"after\":"), Prefix::of(b"\"op_type\":")],
    layout: [Prefix::of(b"{\"before\":"), Prefix::of(b",\"after\":"), Prefix::of(b",\"op_type\":\"")],
    inserts: b"I",
    update: b'U',
    delete: b'D',
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Image {
    Before,
    After,
}

/// Where each member of a before/after envelope was: the rows written, in order, the members
/// seen (a bit each) and the operation.
#[derive(Default)]
struct Images<'a> {
    written: [Option<Image>; 2],
    count: usize,
    seen: u8,
    op: Option<&'a [u8]>,
}

fn before_after(plan: &RowPlan, names: &BeforeAfter, message: &[u8], columns: &mut [Column]) -> Option<RowKinds> {
    let start = plan.rows(columns);
    if let Some(images) = layout(plan, names, message, columns) {
        return kinds(names, &images);
    }
    plan.columns().for_each(|at| columns[at].truncate(start));
    any_layout(plan, names, message, columns)
}

/// The envelope as Flink writes it (`BeforeAfter::layout`, no whitespace, no other member), read
/// member after member as [`any_layout`] reads it; `None` on anything else (rows perhaps written).
fn layout<'a>(plan: &RowPlan, names: &BeforeAfter, message: &'a [u8], columns: &mut [Column]) -> Option<Images<'a>> {
    let mut scan = Scan { input: message, pos: 0 };
    let mut images = Images { seen: 7, ..Images::default() };
    for (member, image) in names.layout[..2].iter().zip([Image::Before, Image::After]) {
        if !scan.eat_prefix(member) {
            return None;
        }
        match *scan.input.get(scan.pos)? {
            b'n' => scan.literal(b"null")?,
            b'{' => {
                scan.pos += 1;
                row(&mut scan, plan, columns)?;
                images.written[images.count] = Some(image);
                images.count += 1;
            }
            _ => return None,
        }
    }
    if !scan.eat_prefix(&names.layout[2]) {
        return None;
    }
    images.op = Some(operation(&mut scan)?);
    (scan.input.get(scan.pos) == Some(&b'}')).then_some(images)
}

/// The envelope's members in any order and layout.
fn any_layout(plan: &RowPlan, names: &BeforeAfter, message: &[u8], columns: &mut [Column]) -> Option<RowKinds> {
    let mut scan = Scan { input: message, pos: 0 };
    let mut images = Images::default();
    envelope(&mut scan, &names.members, &plan.limits, |scan, index| {
        let image = [Some(Image::Before), Some(Image::After), None][index];
        let bit = 1 << index;
        // A repeated member keeps its last value in the tree.
        if images.seen & bit != 0 {
            return None;
        }
        images.seen |= bit;
        match (image, scan.input[scan.pos]) {
            (_, b'n') => scan.literal(b"null")?,
            (Some(image), b'{') => {
                scan.pos += 1;
                row(scan, plan, columns)?;
                images.written[images.count] = Some(image);
                images.count += 1;
            }
            (None, b'"') => {
                scan.pos += 1;
                images.op = Some(operation(scan)?);
            }
            _ => return None,
        }
        Some(())
    })?;
    // Flink's envelope row would miss a field.
    if plan.limits.fail_on_missing_field && images.seen != 7 {
        return None;
    }
    kinds(names, &images)
}

/// After the operation's opening quote: its raw bytes as `plain_string` reads them, a one-byte
/// code (as Flink writes it) without the search for the string's end.
fn operation<'a>(scan: &mut Scan<'a>) -> Option<&'a [u8]> {
    let input = scan.input;
    match input.get(scan.pos..scan.pos + 2) {
        Some(&[code, b'"']) if code != b'"' && code != b'\\' => {
            scan.pos += 2;
            Some(&input[scan.pos - 2..scan.pos - 1])
        }
        _ => scan.plain_string(),
    }
}

/// The rows of the operation, when they are exactly the images written, in their order.
fn kinds(names: &BeforeAfter, images: &Images) -> Option<RowKinds> {
    use Image::{After, Before};
    let &[op] = images.op? else { return None };
    match images.written {
        [Some(After), None] if names.inserts.contains(&op) => Some(RowKinds::all(INSERT, 1)),
        [Some(Before), Some(After)] if op == names.update => Some(RowKinds::updates(1)),
        [Some(Before), None] if op == names.delete => Some(RowKinds::all(DELETE, 1)),
        _ => None,
    }
}
