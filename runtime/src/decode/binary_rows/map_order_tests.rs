//! Against the real jars: the hash codes were printed by a throwaway Java program as
//! `StringData.fromString(s).hashCode()`, and the order as the `keySet()` of a `HashMap` into
//! which it put `StringData.fromString("key" + i)` for i = 0..30 (flink-table-common 2.2.1).
use super::map_order::{flink_string_hash, hash_map_order};

#[test]
fn string_hashes_are_binary_string_data_hash_codes() {
    let expected: [(&str, i32); 10] = [
        ("", 142593372),
        ("a", 1485273170),
        ("ab", -97053317),
        ("abc", 1322437556),
        ("abcd", -396302900),
        ("abcde", 814637928),
        ("héllo wörld", -281075962),
        ("\u{ff}\u{100}x", 1654443835),
        ("k1", 2067321769),
        ("k2", 1219544257),
    ];
    for (text, hash) in expected {
        assert_eq!(flink_string_hash(text.as_bytes()) as i32, hash, "{text:?}");
    }
}

#[test]
fn the_order_is_a_hash_maps_iteration_order() {
    let keys: Vec<String> = (0..30).map(|i| format!("key{i}")).collect();
    let hashes: Vec<u32> = keys.iter().map(|k| flink_string_hash(k.as_bytes())).collect();
    let order: Vec<&str> = hash_map_order(&hashes).into_iter().map(|i| keys[i].as_str()).collect();
    let java = "key14,key0,key18,key2,key9,key26,key23,key16,key5,key6,key12,key27,key15,key24,key13,key17,key20,\
                key1,key19,key7,key22,key4,key3,key28,key29,key8,key11,key10,key25,key21";
    assert_eq!(order.join(","), java);
}

#[test]
fn a_ninth_key_in_one_bucket_of_a_small_table_doubles_it() {
    // c0 .. c173 share bucket 5 of 16; the ninth makes Java double the table instead of making
    // the bucket a tree. The Java order was printed as in the test above.
    let keys = ["c0", "c15", "c28", "c40", "c59", "c83", "c85", "c101", "c130", "c173", "x1", "x2"];
    let hashes: Vec<u32> = keys.iter().map(|k| flink_string_hash(k.as_bytes())).collect();
    let order: Vec<&str> = hash_map_order(&hashes).into_iter().map(|i| keys[i]).collect();
    assert_eq!(order.join(","), "x2,c0,c15,c28,c101,c173,x1,c40,c59,c83,c85,c130");
    let eight = &hashes[..8];
    assert_eq!(hash_map_order(eight), (0..8).collect::<Vec<_>>(), "eight in one bucket keep their order");
}
