//! What the changelog formats' fast paths share: an envelope object's members (the known ones
//! handed to the format's reader, the others checked as Jackson's tree reads them and skipped),
//! and the RowKinds of the rows a message gives.
use super::read::unknown_name;
use super::scan::{Prefix, Scan};
use super::PlanLimits;
use crate::decode::side::{UPDATE_AFTER, UPDATE_BEFORE};

/// The RowKinds of the rows a message gave, in order, without an allocation: `count` rows
/// repeating `pattern` (one kind twice, or UPDATE's -U/+U pair).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RowKinds {
    pattern: [i8; 2],
    count: usize,
}

impl RowKinds {
    /// No row (a message filtered out, a DDL change).
    pub(crate) fn none() -> RowKinds {
        RowKinds::all(0, 0)
    }

    /// `count` rows of `kind`.
    pub(crate) fn all(kind: i8, count: usize) -> RowKinds {
        RowKinds { pattern: [kind, kind], count }
    }

    /// `pairs` UPDATE_BEFORE, UPDATE_AFTER pairs.
    pub(crate) fn updates(pairs: usize) -> RowKinds {
        RowKinds { pattern: [UPDATE_BEFORE, UPDATE_AFTER], count: 2 * pairs }
    }

    pub(crate) fn iter(self) -> impl Iterator<Item = i8> {
        (0..self.count).map(move |row| self.pattern[row % 2])
    }

    /// Appends the kinds to `kinds`.
    #[inline]
    pub(crate) fn push_into(self, kinds: &mut Vec<i8>) {
        // One row or one pair, the common messages, without a loop or a copy call.
        match self.count {
            1 => kinds.push(self.pattern[0]),
            2 => kinds.extend_from_slice(&self.pattern),
            _ => kinds.extend(self.iter()),
        }
    }
}

/// The members of an envelope object: `visit` reads the value of member `known[k]` (given `k`);
/// every other member must read as JSON, as it is part of the tree. A known member as Flink
/// writes it (`"name":`) is matched a word at a time.
pub(super) fn envelope<'a>(
    scan: &mut Scan<'a>,
    known: &[Prefix],
    limits: &PlanLimits,
    mut visit: impl FnMut(&mut Scan<'a>, usize) -> Option<()>,
) -> Option<()> {
    scan.eat(b'{')?;
    if scan.peek()? == b'}' {
        return Some(());
    }
    // Known members are looked for from the one after the last found on: the order Flink
    // writes them in.
    let mut next = 0;
    loop {
        let expected = known.get(next).is_some_and(|member| scan.eat_prefix(member));
        let found = match expected {
            true => Some(next),
            false => known.iter().position(|member| scan.eat_prefix(member)),
        };
        let index = match found {
            Some(index) => Some(index),
            None => member_name(scan, known, limits)?,
        };
        scan.peek()?;
        match index {
            Some(index) => {
                visit(scan, index)?;
                next = index + 1;
            }
            None => scan.skip_value(limits, 0)?,
        }
        match scan.peek()? {
            b',' => scan.pos += 1,
            b'}' => return Some(()),
            _ => return None,
        }
    }
}

/// A member's name and colon in any other layout: which known member it is, if any (an unknown
/// name must be one Jackson reads as its bytes).
fn member_name(scan: &mut Scan, known: &[Prefix], limits: &PlanLimits) -> Option<Option<usize>> {
    scan.eat(b'"')?;
    let name = scan.name()?;
    scan.eat(b':')?;
    // A member is `"name":`: the name is between the quotes.
    let index = known.iter().position(|member| {
        let bytes = member.bytes();
        bytes.len() == name.len() + 3 && bytes[1..=name.len()] == *name
    });
    if index.is_none() {
        unknown_name(name, limits)?;
    }
    Some(index)
}

/// A string member without escapes that Jackson reads as its bytes (UTF-8, not too long), or
/// `null` (`None` inside).
pub(super) fn plain_or_null<'a>(scan: &mut Scan<'a>, limits: &PlanLimits) -> Option<Option<&'a [u8]>> {
    if scan.input[scan.pos] == b'n' {
        return scan.literal(b"null").map(|()| None);
    }
    scan.eat(b'"')?;
    let text = scan.plain_string()?;
    let readable = text.len() <= limits.max_string_length && (text.is_ascii() || std::str::from_utf8(text).is_ok());
    readable.then_some(Some(text))
}
