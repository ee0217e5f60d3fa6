//! debezium-json's common envelope, `{"before":ROW|null,"after":ROW|null,"op":"c"}` with other
//! members of any JSON value, read straight into the columns: each image that is not null is
//! read as the tree converters read it, in the order it comes, and `op` says which rows the
//! message gives (the shapes Flink's deserializer reads without an error; anything else is
//! left to `cdc`).
use super::read::{row, unknown_name};
use super::scan::Scan;
use super::RowPlan;
use crate::decode::columns::Column;
use crate::decode::side::{DELETE, INSERT, UPDATE_AFTER, UPDATE_BEFORE};

/// Where each member of the envelope was: the rows written, in order (`before` or `after`), and
/// the operation.
#[derive(Default)]
struct Envelope<'a> {
    written: [Option<Image>; 2],
    count: usize,
    seen: u8,
    op: Option<&'a [u8]>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Image {
    Before,
    After,
}

/// Reads one message into `columns`, giving the RowKind of each row written, in order; `None`
/// when it is not the common case (rows may then be left in the plan's columns).
pub(crate) fn read_debezium(plan: &RowPlan, message: &[u8], columns: &mut [Column]) -> Option<Vec<i8>> {
    let mut scan = Scan { input: message, pos: 0 };
    scan.eat(b'{')?;
    let mut envelope = Envelope::default();
    if scan.peek()? != b'}' {
        loop {
            scan.eat(b'"')?;
            let name = scan.name()?;
            scan.eat(b':')?;
            scan.peek()?;
            member(&mut scan, plan, columns, &mut envelope, name)?;
            match scan.peek()? {
                b',' => scan.pos += 1,
                b'}' => break,
                _ => return None,
            }
        }
    }
    // Flink's envelope row would miss a field.
    if plan.limits.fail_on_missing_field && envelope.seen != 7 {
        return None;
    }
    kinds(&envelope)
}

fn member<'a>(
    scan: &mut Scan<'a>,
    plan: &RowPlan,
    columns: &mut [Column],
    envelope: &mut Envelope<'a>,
    name: &[u8],
) -> Option<()> {
    let (bit, image) = match name {
        b"before" => (1, Some(Image::Before)),
        b"after" => (2, Some(Image::After)),
        b"op" => (4, None),
        // Every member is part of the tree, so it must read as JSON.
        _ => {
            unknown_name(name, &plan.limits)?;
            return scan.skip_value(&plan.limits, 0);
        }
    };
    // A repeated member keeps its last value in the tree.
    if envelope.seen & bit != 0 {
        return None;
    }
    envelope.seen |= bit;
    match (image, scan.input[scan.pos]) {
        (_, b'n') => scan.literal(b"null"),
        (Some(image), b'{') => {
            scan.pos += 1;
            row(scan, plan, columns)?;
            envelope.written[envelope.count] = Some(image);
            envelope.count += 1;
            Some(())
        }
        (None, b'"') => {
            scan.pos += 1;
            envelope.op = Some(scan.plain_string()?);
            Some(())
        }
        _ => None,
    }
}

/// The rows of the operation, when they are exactly the images written, in their order.
fn kinds(envelope: &Envelope) -> Option<Vec<i8>> {
    use Image::{After, Before};
    match (envelope.op?, &envelope.written) {
        (b"c" | b"r", [Some(After), None]) => Some(vec![INSERT]),
        (b"u", [Some(Before), Some(After)]) => Some(vec![UPDATE_BEFORE, UPDATE_AFTER]),
        (b"d", [Some(Before), None]) => Some(vec![DELETE]),
        _ => None,
    }
}
