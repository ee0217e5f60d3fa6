//! The order of a map's entries as Flink's JSON deserializer leaves them: it puts them, in the
//! document's order (a repeated key keeps its first place and its last value), into a
//! `java.util.HashMap` keyed by `BinaryStringData`, and the map's `BinaryMapData` lists them in
//! that map's iteration order: by bucket (the key's hash, spread, modulo the table size), then in
//! the order they were put. The one order this does not follow is that of a bucket Java turns into
//! a tree (9 keys in one bucket of a table of 64 or more, which hashes this good give only to
//! chosen keys); its keys stay in the order they were put.

/// Flink's seed of its Murmur3 variant (`MurmurHashUtil`).
const SEED: u32 = 42;
/// A bucket holding more keys than this is made a tree, or the table doubled while it is small.
const TREEIFY_THRESHOLD: u32 = 8;
const MIN_TREEIFY_CAPACITY: u32 = 64;

/// `BinaryStringData.hashCode()` of the string of these UTF-8 bytes: Murmur3 over the
/// little-endian 4-byte words, then each remaining (signed) byte as a word of its own.
pub(super) fn flink_string_hash(bytes: &[u8]) -> u32 {
    let words = bytes.chunks_exact(4);
    let tail = words.remainder();
    let mut hash = SEED;
    for word in words {
        hash = mix_hash(hash, mix_word(u32::from_le_bytes([word[0], word[1], word[2], word[3]])));
    }
    for &byte in tail {
        hash = mix_hash(hash, mix_word(byte as i8 as u32));
    }
    finish(hash ^ bytes.len() as u32)
}

fn mix_word(word: u32) -> u32 {
    word.wrapping_mul(0xcc9e_2d51).rotate_left(15).wrapping_mul(0x1b87_3593)
}

fn mix_hash(hash: u32, word: u32) -> u32 {
    (hash ^ word).rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64)
}

fn finish(mut hash: u32) -> u32 {
    hash ^= hash >> 16;
    hash = hash.wrapping_mul(0x85eb_ca6b);
    hash ^= hash >> 13;
    hash = hash.wrapping_mul(0xc2b2_ae35);
    hash ^ (hash >> 16)
}

/// The iteration order of a `java.util.HashMap` (default size) given distinct keys of these
/// hash codes, in the order they were put: positions into `hashes`.
pub(super) fn hash_map_order(hashes: &[u32]) -> Vec<usize> {
    let mask = table_size(hashes) - 1;
    let mut order: Vec<usize> = (0..hashes.len()).collect();
    order.sort_by_key(|&i| spread(hashes[i]) & mask); // stable: the order of puts within a bucket
    order
}

/// `HashMap.hash`: the high half of the hash code folded into the low one.
fn spread(hash: u32) -> u32 {
    hash ^ (hash >> 16)
}

/// The table size after the puts: 16, doubled when more than 3/4 full and, while below 64, when
/// a put makes a bucket longer than the tree threshold.
fn table_size(hashes: &[u32]) -> u32 {
    let mut size = 16u32;
    for put in 1..=hashes.len() {
        if size < MIN_TREEIFY_CAPACITY {
            // At most 48 puts: counting the bucket anew is cheap.
            let bucket = spread(hashes[put - 1]) & (size - 1);
            let length = hashes[..put].iter().filter(|&&h| spread(h) & (size - 1) == bucket).count() as u32;
            if length > TREEIFY_THRESHOLD {
                size *= 2;
            }
        }
        if put as u32 > size / 4 * 3 {
            size *= 2;
        }
    }
    size
}
