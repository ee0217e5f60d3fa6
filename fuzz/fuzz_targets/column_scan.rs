//! The column scan (`spelling::scan`) of every vector unit this CPU runs against the eight-byte
//! word scan and a byte loop, on arbitrary bytes: all positions of a range of the buffer, the
//! first one from every start, and the limit that sends a column back to per-value escaping.
#![no_main]
use kjson_runtime::spelling::scan::{attention_positions, find_attention, Unit};
use libfuzzer_sys::fuzz_target;

fn is_attention(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20 || b >= 0xF0
}

fuzz_target!(|input: &[u8]| {
    // The first two bytes pick the scanned range's start and end; the rest is the buffer.
    let [a, b, data @ ..] = input else { return };
    let end = data.len() - usize::from(*b) % (data.len() + 1).min(40);
    let start = usize::from(*a) % (end + 1);
    let expected: Vec<usize> = (start..end).filter(|&i| is_attention(data[i])).collect();
    let units = Unit::available();
    for &unit in &units {
        let all = attention_positions(unit, data, start, end, usize::MAX);
        assert_eq!(all.as_ref(), Some(&expected), "{unit:?} {start}..{end}");
        let words = attention_positions(Unit::Words, data, start, end, usize::MAX);
        assert_eq!(all, words, "{unit:?} against words");
        if let Some(limit) = expected.len().checked_sub(1) {
            assert_eq!(attention_positions(unit, data, start, end, limit), None, "{unit:?} limit {limit}");
        }
        for from in start..=end.min(start + 70) {
            let first = expected.iter().copied().find(|&p| p >= from);
            assert_eq!(find_attention(unit, &data[..end], from), first, "{unit:?} from {from}");
        }
    }
});
