//! canal-json's and maxwell-json's common envelopes: the rows in `data` (canal: an array of
//! them, maxwell: one) read into the columns as they come, then `old`'s rows after them (as they
//! come when `data` came first, else once the envelope is read); the operation then says which
//! rows stay. Flink converts every member of the envelope row (so `old` must read without an error
//! even where it is not used), and fills an UPDATE's before-image from the after-image where
//! `old` names no field of that name at any depth (`findValue`): the common case here has only
//! scalar columns, so only `old`'s own members can name one.
use regex::Regex;

use super::envelope::{envelope, plain_or_null, RowKinds};
use super::read::{old_row, row};
use super::scan::{Prefix, Scan};
use super::{PlanLimits, RowPlan};
use crate::decode::columns::Column;
use crate::decode::side::{DELETE, INSERT};

/// canal-json's `database.include` and `table.include`.
#[derive(Default)]
pub(crate) struct Filters<'r> {
    pub database: Option<&'r Regex>,
    pub table: Option<&'r Regex>,
}

/// What an envelope held: the data rows written (`None`: `data` was null or missing), `old`,
/// the members seen (a bit each) and the strings read.
#[derive(Default)]
struct Envelope<'a> {
    rows: Option<usize>,
    old: Old,
    seen: u8,
    op: Option<&'a [u8]>,
    database: Option<&'a [u8]>,
    table: Option<&'a [u8]>,
}

/// `old`: null or missing, where it starts (it came before `data`: read once the data rows are),
/// or read already, right after the data rows (how many rows, the fields they named).
#[derive(Default, Clone, Copy)]
enum Old {
    #[default]
    Absent,
    At(usize),
    Read(usize, u64),
}

/// canal's members (maxwell's are the first three): bit `k` in `Envelope::seen` for member `k`.
static MEMBERS: [Prefix; 5] = [
    Prefix::of(b"\"data\":"),
    Prefix::of(b"\"old\":"),
    Prefix::of(b"\"type\":"),
    Prefix::of(b"\"database\":"),
    Prefix::of(b"\"table\":"),
];

/// `{"data":`, then `,"old":` (optional) and `,"type":`: the members in the order and spelling
/// producers write them.
static LAYOUT: [Prefix; 3] = [Prefix::of(b"{\"data\":"), Prefix::of(b",\"old\":"), Prefix::of(b",\"type\":")];

/// The envelope's members, the data rows read into `columns` from row `start` on: in the
/// common layout member after member (no member loop), else any layout (`read_envelope`).
fn read_members<'a>(
    plan: &RowPlan,
    message: &'a [u8],
    columns: &mut [Column],
    start: usize,
    canal: bool,
) -> Option<Envelope<'a>> {
    if let Some(found) = read_layout(plan, message, columns, canal) {
        return Some(found);
    }
    plan.columns().for_each(|at| columns[at].truncate(start));
    read_envelope(plan, message, columns, canal)
}

/// The common layout ([`LAYOUT`], no whitespace, `old` as rows, `type` a string, the data rows
/// first), read as [`read_envelope`] reads it; `None` on anything else (rows perhaps written).
fn read_layout<'a>(plan: &RowPlan, message: &'a [u8], columns: &mut [Column], canal: bool) -> Option<Envelope<'a>> {
    let mut scan = Scan { input: message, pos: 0 };
    if !scan.eat_prefix(&LAYOUT[0]) {
        return None;
    }
    let rows = match canal {
        true => rows(&mut scan, plan, columns, &mut 0, row)?,
        false => {
            scan.eat(b'{')?;
            row(&mut scan, plan, columns)?;
            1
        }
    };
    let mut found = Envelope { rows: Some(rows), seen: 1, ..Envelope::default() };
    if scan.eat_prefix(&LAYOUT[1]) {
        let (count, names) = old_rows(&mut scan, plan, columns, canal)?;
        found.old = Old::Read(count, names);
        found.seen |= 2;
    }
    if !scan.eat_prefix(&LAYOUT[2]) {
        return None;
    }
    found.op = Some(operation(&mut scan, &plan.limits)?);
    found.seen |= 4;
    let all = if canal { 31 } else { 7 };
    let complete = !plan.limits.fail_on_missing_field || found.seen == all;
    (complete && scan.input.get(scan.pos) == Some(&b'}')).then_some(found)
}

/// The envelope's members; the data rows are read into `columns`.
fn read_envelope<'a>(plan: &RowPlan, message: &'a [u8], columns: &mut [Column], canal: bool) -> Option<Envelope<'a>> {
    let mut scan = Scan { input: message, pos: 0 };
    let mut found = Envelope::default();
    let members = if canal { &MEMBERS[..] } else { &MEMBERS[..3] };
    envelope(&mut scan, members, &plan.limits, |scan, index| {
        let bit = 1 << index;
        // A repeated member keeps its last value in the tree.
        if found.seen & bit != 0 {
            return None;
        }
        found.seen |= bit;
        let null = scan.input[scan.pos] == b'n';
        match bit {
            1 if null => scan.literal(b"null")?,
            1 if canal => found.rows = Some(rows(scan, plan, columns, &mut 0, row)?),
            1 => {
                scan.eat(b'{')?;
                row(scan, plan, columns)?;
                found.rows = Some(1);
            }
            2 if null => scan.literal(b"null")?,
            // After `data`, no row follows: `old`'s rows go right after the data rows.
            2 if found.seen & 1 != 0 => {
                let (count, names) = old_rows(scan, plan, columns, canal)?;
                found.old = Old::Read(count, names);
            }
            2 => {
                found.old = Old::At(scan.pos);
                scan.skip_value(&plan.limits, 0)?;
            }
            4 => found.op = Some(operation(scan, &plan.limits)?),
            8 => found.database = plain_or_null(scan, &plan.limits)?,
            _ => found.table = plain_or_null(scan, &plan.limits)?,
        }
        Some(())
    })?;
    // Flink's envelope row would miss a field.
    let all = if canal { 31 } else { 7 };
    (!plan.limits.fail_on_missing_field || found.seen == all).then_some(found)
}

/// canal's and maxwell's operations as their producers write them, quotes included: eight
/// bytes each, compared as one word (a `plain_or_null` call cost about 130 instructions).
static OPERATIONS: [[u8; 8]; 7] =
    [*b"\"INSERT\"", *b"\"UPDATE\"", *b"\"DELETE\"", *b"\"CREATE\"", *b"\"insert\"", *b"\"update\"", *b"\"delete\""];

/// The operation member's string (any other spelling read by `plain_or_null`); `None` when
/// it is null or not a string Jackson reads.
fn operation<'a>(scan: &mut Scan<'a>, limits: &PlanLimits) -> Option<&'a [u8]> {
    let input = scan.input;
    if let Some(word) = input[scan.pos..].first_chunk::<8>() {
        // Six plain ASCII bytes between the quotes, as `plain_or_null` would read them.
        if OPERATIONS.contains(word) && limits.max_string_length >= 6 {
            scan.pos += 8;
            return Some(&word[1..7]);
        }
    }
    plain_or_null(scan, limits)?
}

/// An array of row objects into the columns, each read by `read`: how many; `names` gathers
/// the fields they named.
#[inline]
fn rows(scan: &mut Scan, plan: &RowPlan, columns: &mut [Column], names: &mut u64, read: ReadRow) -> Option<usize> {
    scan.eat(b'[')?;
    if scan.peek()? == b']' {
        scan.pos += 1;
        return Some(0);
    }
    let mut count = 0;
    loop {
        scan.eat(b'{')?;
        *names |= read(scan, plan, columns)?;
        count += 1;
        match scan.peek()? {
            b',' => scan.pos += 1,
            b']' => {
                scan.pos += 1;
                return Some(count);
            }
            _ => return None,
        }
    }
}

/// A row object's reader (`row` or `old_row`).
type ReadRow = fn(&mut Scan, &RowPlan, &mut [Column]) -> Option<u64>;

/// `old`'s rows (canal: an array of them) into the columns: how many, and the fields named
/// anywhere in them.
fn old_rows(scan: &mut Scan, plan: &RowPlan, columns: &mut [Column], canal: bool) -> Option<(usize, u64)> {
    let mut names = 0;
    let count = match canal {
        true => rows(scan, plan, columns, &mut names, old_row)?,
        false => {
            scan.eat(b'{')?;
            names = old_row(scan, plan, columns)?;
            1
        }
    };
    Some((count, names))
}

/// `old`'s rows after the data rows (see [`old_rows`]); `(0, 0)` when it was null or missing.
fn read_old(plan: &RowPlan, message: &[u8], old: Old, columns: &mut [Column], canal: bool) -> Option<(usize, u64)> {
    match old {
        Old::Absent => Some((0, 0)),
        Old::Read(count, names) => Some((count, names)),
        Old::At(pos) => old_rows(&mut Scan { input: message, pos }, plan, columns, canal),
    }
}

pub(crate) fn maxwell(plan: &RowPlan, message: &[u8], columns: &mut [Column]) -> Option<RowKinds> {
    let start = plan.rows(columns);
    let found = read_members(plan, message, columns, start, false)?;
    let rows = found.rows?;
    let (olds, names) = read_old(plan, message, found.old, columns, false)?;
    match found.op? {
        b"insert" => keep_data(plan, columns, start + rows, olds, RowKinds::all(INSERT, 1)),
        b"delete" => keep_data(plan, columns, start + rows, olds, RowKinds::all(DELETE, 1)),
        b"update" if olds == 1 => pair_updates(plan, columns, start, 1, names),
        _ => None,
    }
}

pub(crate) fn canal(plan: &RowPlan, filters: &Filters, message: &[u8], columns: &mut [Column]) -> Option<RowKinds> {
    let start = plan.rows(columns);
    let found = read_members(plan, message, columns, start, true)?;
    // A message of another database or table gives no row, whatever its other members.
    if !included(filters.database, found.database)? || !included(filters.table, found.table)? {
        return keep(plan, columns, start, RowKinds::none());
    }
    let (olds, names) = read_old(plan, message, found.old, columns, true)?;
    let (op, rows) = (found.op?, found.rows);
    match (op, rows) {
        (b"INSERT", Some(rows)) => keep_data(plan, columns, start + rows, olds, RowKinds::all(INSERT, rows)),
        (b"DELETE", Some(rows)) => keep_data(plan, columns, start + rows, olds, RowKinds::all(DELETE, rows)),
        (b"UPDATE", Some(rows)) if !matches!(found.old, Old::Absent) && olds >= rows => {
            pair_updates(plan, columns, start, rows, names)
        }
        // A DDL change.
        (b"CREATE", _) => keep(plan, columns, start, RowKinds::none()),
        _ => None,
    }
}

/// Whether an include filter (`None`: none) lets the message's name through; `None` when the
/// name is not a string.
fn included(filter: Option<&Regex>, name: Option<&[u8]>) -> Option<bool> {
    let Some(filter) = filter else { return Some(true) };
    Some(filter.is_match(std::str::from_utf8(name?).ok()?))
}

/// As [`keep`] for an INSERT's or a DELETE's data rows: when `old` gave no row (`olds` = 0), the
/// columns end with them already.
fn keep_data(plan: &RowPlan, columns: &mut [Column], rows: usize, olds: usize, kinds: RowKinds) -> Option<RowKinds> {
    match olds {
        0 => Some(kinds),
        _ => keep(plan, columns, rows, kinds),
    }
}

/// The plan's columns cut back to `rows` (the rows of `old` only had to read), giving `kinds`.
fn keep(plan: &RowPlan, columns: &mut [Column], rows: usize, kinds: RowKinds) -> Option<RowKinds> {
    // Every row read completes all of the plan's columns: the first one's length is theirs.
    if plan.rows(columns) != rows {
        plan.columns().for_each(|at| columns[at].truncate(rows));
    }
    Some(kinds)
}

/// An UPDATE's rows from `count` data rows at `start` followed by (at least) as many old rows:
/// each before-image (a field `old` names from its old row, the others from the data row), then
/// its after-image. Only for scalar columns, whose values hold no names `old` could match.
fn pair_updates(plan: &RowPlan, columns: &mut [Column], start: usize, count: usize, names: u64) -> Option<RowKinds> {
    if !plan.is_flat() {
        return None;
    }
    if count == 1 {
        // `old` may hold more rows than `data`: only the first one counts.
        if plan.rows(columns) != start + 2 {
            plan.columns().for_each(|at| columns[at].truncate(start + 2));
        }
        for (index, at) in plan.columns().enumerate() {
            columns[at].before_after(start, names & (1 << index) != 0).then_some(())?;
        }
        return Some(RowKinds::updates(1));
    }
    for (index, at) in plan.columns().enumerate() {
        let column = &mut columns[at];
        let after: Vec<_> = (start..start + count).map(|r| column.value_at(r)).collect();
        let old: Vec<_> = (start + count..start + 2 * count).map(|r| column.value_at(r)).collect();
        column.truncate(start);
        for (after, old) in after.iter().zip(&old) {
            column.push_value(if names & (1 << index) != 0 { old } else { after });
            column.push_value(after);
        }
    }
    Some(RowKinds::updates(count))
}
