//! The scanned string layouts against the per-value escaper (`ByteValues::write_string`), on
//! every layout the scan reads: every ASCII byte and multibyte UTF-8 at every offset, values
//! around the vector widths, empty values, nulls, sliced arrays, and rows asked out of order.
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, BinaryArray, LargeBinaryArray, LargeStringArray, StringArray, StringViewArray};

use super::Strings;
use crate::encode::access::BindColumn;
use crate::encode::bind::{bind, BoundColumn};
use crate::encode::context::WriteContext;
use crate::encode::plan::PlanNode;
use crate::spelling::sink::with_reserved;

/// Every non-null row through one accessor (into a `Vec` and into a reserved region of its
/// bound), row order as given, against the per-value escaper.
fn check_rows(array: &dyn Array, node: &PlanNode, rows: &[usize]) {
    let column = bind(node, array).unwrap();
    let BoundColumn::Str(values, ..) = &column else { panic!("not a string column") };
    let cx = WriteContext::new(Default::default(), Default::default());
    let mut strings = Strings::bind(&column).unwrap();
    for &row in rows {
        if array.is_null(row) {
            assert!(strings.is_null(row), "row {row}");
            continue;
        }
        let mut expected = Vec::new();
        values.write_string(&mut expected, row);
        let mut plain = Vec::new();
        strings.write(&mut plain, row, &cx);
        assert_eq!(plain, expected, "row {row}: {}", String::from_utf8_lossy(&expected));
        let mut reserved = Vec::new();
        with_reserved(&mut reserved, strings.bound(row), |out| strings.write(out, row, &cx));
        assert_eq!(reserved, expected, "reserved, row {row}");
    }
}

fn check(array: &dyn Array, node: &PlanNode) {
    let rows: Vec<usize> = (0..array.len()).collect();
    check_rows(array, node, &rows);
    // Twice each (a key and a value of one row), then backwards.
    let twice: Vec<usize> = rows.iter().flat_map(|&r| [r, r]).collect();
    check_rows(array, node, &twice);
    check_rows(array, node, &rows.iter().rev().copied().collect::<Vec<_>>());
}

/// Values with one special char at every offset of lengths around 16, 32 and 64, every ASCII
/// byte, multibyte UTF-8, empty values and nulls.
fn values() -> Vec<Option<String>> {
    let mut values = vec![Some(String::new()), None, Some("plain".into())];
    for c in (0u8..0x80).map(char::from).chain(['\u{E9}', '\u{2028}', '\u{FFFF}', '\u{1F600}', '\u{10FFFF}']) {
        values.push(Some(c.to_string()));
        for len in [1, 15, 16, 17, 31, 32, 33, 63, 64, 65] {
            for pos in [0, len / 2, len - 1] {
                let mut s: Vec<char> = vec!['x'; len];
                s[pos] = c;
                values.push(Some(s.into_iter().collect()));
            }
        }
        values.push(None);
        values.push(Some(String::new()));
    }
    values
}

#[test]
fn utf8_of_every_byte_and_width() {
    let array = StringArray::from(values());
    check(&array, &PlanNode::String);
    for (offset, len) in [(1, 40), (7, 300), (100, 5)] {
        check(&array.slice(offset, len), &PlanNode::String);
    }
}

#[test]
fn clean_and_large_and_view_layouts() {
    let clean: Vec<Option<String>> = values().into_iter().filter(|v| v.as_ref().is_none_or(|s| !needs(s))).collect();
    check(&StringArray::from(clean.clone()), &PlanNode::String);
    check(&StringArray::from(clean).slice(3, 50), &PlanNode::String);
    let large = LargeStringArray::from(values());
    check(&large, &PlanNode::String);
    check(&large.slice(9, 77), &PlanNode::String);
    check(&StringViewArray::from(values()), &PlanNode::String);
}

#[test]
fn wtf8_binaries() {
    let bytes: Vec<Option<Vec<u8>>> = values().into_iter().map(|v| v.map(String::into_bytes)).collect();
    let refs: Vec<Option<&[u8]>> = bytes.iter().map(|v| v.as_deref()).collect();
    let wtf8 = PlanNode::Wtf8String;
    check(&BinaryArray::from(refs.clone()), &wtf8);
    check(&BinaryArray::from(refs.clone()).slice(5, 60), &wtf8);
    check(&LargeBinaryArray::from(refs.clone()), &wtf8);
    // A surrogate makes the buffer not UTF-8: value by value, as before.
    let mut with_surrogate = refs;
    with_surrogate.push(Some(b"a\xED\xA0\x80\"b"));
    check(&BinaryArray::from(with_surrogate), &wtf8);
}

#[test]
fn dense_escapes_go_value_by_value_and_agree() {
    let dense: Vec<Option<String>> = (0..50).map(|k| Some("\"\\\n".repeat(k))).collect();
    let array: ArrayRef = Arc::new(StringArray::from(dense));
    check(array.as_ref(), &PlanNode::String);
}

#[test]
fn both_sides_share_one_scan() {
    let array = StringArray::from(values());
    let column = bind(&PlanNode::String, &array).unwrap();
    let BoundColumn::Str(_, _, scan) = &column else { panic!("not a string column") };
    let _key = Strings::bind(&column).unwrap();
    let first = scan.get_or_scan(|| panic!("scanned by the first accessor")).map(<[usize]>::as_ptr);
    let _value = Strings::bind(&column).unwrap();
    let second = scan.get_or_scan(|| panic!("scanned again")).map(<[usize]>::as_ptr);
    assert_eq!(first, second);
}

fn needs(s: &str) -> bool {
    s.bytes().any(|b| b == b'"' || b == b'\\' || !(0x20..0xF0).contains(&b))
}

/// A batch whose longest value passes `UNIFORM_LEN` reserves row by row, escaped or clean; one
/// within it reserves its longest value's bound for every row (the checks above).
#[test]
fn long_values_reserve_row_by_row() {
    let escaped = format!("{}\"{}", "x".repeat(super::UNIFORM_LEN), "\\".repeat(40));
    let clean = "y".repeat(super::UNIFORM_LEN + 1);
    let short = StringArray::from(values());
    assert!(Strings::bind(&bind(&PlanNode::String, &short).unwrap()).unwrap().uniform.is_some());
    for long in [escaped, clean] {
        let array = StringArray::from(vec![Some("ab".to_string()), Some(long), None, Some("c".to_string())]);
        assert_eq!(Strings::bind(&bind(&PlanNode::String, &array).unwrap()).unwrap().uniform, None);
        check(&array, &PlanNode::String);
    }
}
