//! Cross-module tests of the generated sink batches.
use std::collections::HashMap;

use arrow_array::{Array, Int8Array, RecordBatch};

use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, TimestampMillisecondType};
use arrow_schema::{DataType as ArrowType, TimeUnit};

use super::{NexmarkBatch, NexmarkStream, Query};

const DDLS: [(Query, &str); 3] = [
    (Query::Q0, include_str!("../../../schemas/q0.sql")),
    (Query::Q9, include_str!("../../../schemas/q9.sql")),
    (Query::Q19, include_str!("../../../schemas/q19.sql")),
];

/// `(name, type)` of each column line of a DDL (a small scan, enough for our own files).
fn ddl_columns(ddl: &str) -> Vec<(String, String)> {
    let body = ddl.split_once("(\n").unwrap().1.split_once(") WITH").unwrap().0;
    body.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("PRIMARY KEY"))
        .map(|line| {
            let (name, ty) = line.trim_end_matches(',').split_once(' ').unwrap();
            (name.trim_matches('`').to_string(), ty.trim().to_string())
        })
        .collect()
}

fn ints<'a>(batch: &'a RecordBatch, name: &str) -> &'a [i64] {
    batch.column_by_name(name).unwrap().as_primitive::<Int64Type>().values()
}

fn times<'a>(batch: &'a RecordBatch, name: &str) -> &'a [i64] {
    batch.column_by_name(name).unwrap().as_primitive::<TimestampMillisecondType>().values()
}

fn texts(batch: &RecordBatch, name: &str) -> Vec<String> {
    let column = batch.column_by_name(name).unwrap().as_string::<i32>();
    column.iter().map(|v| v.unwrap().to_string()).collect()
}

fn kinds(batch: &NexmarkBatch) -> &Int8Array {
    batch.row_kinds.as_ref().unwrap()
}

#[test]
fn schemas_follow_the_ddls() {
    for (query, ddl) in DDLS {
        let schema = NexmarkStream::new(query, 1).schema();
        let columns = ddl_columns(ddl);
        assert_eq!(schema.fields().len(), columns.len(), "{query}");
        for (field, (name, ty)) in schema.fields().iter().zip(&columns) {
            assert_eq!(field.name(), name, "{query}");
            let expected = match ty.as_str() {
                "BIGINT" => ArrowType::Int64,
                "VARCHAR" => ArrowType::Utf8,
                "TIMESTAMP(3)" => ArrowType::Timestamp(TimeUnit::Millisecond, None),
                other => panic!("{query}: unexpected DDL type {other}"),
            };
            assert_eq!(field.data_type(), &expected, "{query}.{name}");
        }
    }
}

#[test]
fn primary_key_columns_are_not_null() {
    let q19 = NexmarkStream::new(Query::Q19, 1).schema();
    let nullable: Vec<bool> = q19.fields().iter().map(|f| f.is_nullable()).collect();
    assert_eq!(nullable, [false, true, true, true, true, true, true, false]);
    assert!(!NexmarkStream::new(Query::Q9, 1).schema().field(0).is_nullable());
    assert!(NexmarkStream::new(Query::Q0, 1).schema().fields().iter().all(|f| f.is_nullable()));
}

#[test]
fn batches_have_the_requested_rows_and_row_kinds() {
    for query in [Query::Q0, Query::Q9, Query::Q19] {
        let mut stream = NexmarkStream::new(query, 2);
        for rows in [1, 777, 4096] {
            let batch = stream.next_batch(rows).unwrap();
            assert_eq!(batch.batch.num_rows(), rows, "{query}");
            assert_eq!(batch.batch.schema(), stream.schema());
            match &batch.row_kinds {
                None => assert_eq!(query, Query::Q0),
                Some(kinds) => {
                    assert_eq!(kinds.len(), rows);
                    assert_eq!(kinds.null_count(), 0);
                    assert!(kinds.values().iter().all(|k| (0..=3).contains(k)));
                }
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_batches() {
    for query in [Query::Q0, Query::Q9, Query::Q19] {
        let (mut a, mut b) = (NexmarkStream::new(query, 42), NexmarkStream::new(query, 42));
        let mut c = NexmarkStream::new(query, 43);
        for _ in 0..3 {
            let (x, y, z) = (a.next_batch(1000).unwrap(), b.next_batch(1000).unwrap(), c.next_batch(1000).unwrap());
            assert_eq!(x.batch, y.batch, "{query}");
            assert_eq!(x.row_kinds, y.row_kinds, "{query}");
            assert_ne!(x.batch, z.batch, "{query}");
        }
    }
}

#[test]
fn q0_bid_extras_look_like_the_reference() {
    let batch = NexmarkStream::new(Query::Q0, 3).next_batch(20_000).unwrap().batch;
    let extras = texts(&batch, "extra");
    assert!(extras.iter().all(|e| (54..=81).contains(&e.len())));
    let allowed = |b: u8| (b'H'..=b'z').contains(&b);
    assert!(extras.iter().all(|e| e.bytes().all(allowed)));
    let with_backslash = extras.iter().filter(|e| e.contains('\\')).count() as f64 / extras.len() as f64;
    let mean = extras.iter().map(|e| e.matches('\\').count()).sum::<usize>() as f64 / extras.len() as f64;
    // The upstream generator's extras: 71% contain one, 1.29 per value.
    assert!((0.67..0.75).contains(&with_backslash), "{with_backslash}");
    assert!((1.2..1.4).contains(&mean), "{mean}");
}

#[test]
fn q0_prices_ids_and_times() {
    let mut stream = NexmarkStream::new(Query::Q0, 4);
    let base = super::config::GeneratorConfig::with_seed(4).base_time_ms;
    let batch = stream.next_batch(200_000).unwrap().batch;
    assert!(ints(&batch, "price").iter().all(|p| (100..=100_000_000).contains(p)));
    // Starting at event 50M: 1M people and 3M auctions exist (ids from 1000, bidders from 2000).
    assert!(ints(&batch, "auction").iter().all(|a| (3_000_000..3_020_000).contains(a)));
    assert!(ints(&batch, "bidder").iter().all(|b| (1_001_000..1_006_500).contains(b)));
    let dates = times(&batch, "dateTime");
    assert!(dates.windows(2).all(|w| (0..=1).contains(&(w[1] - w[0]))));
    assert_eq!(dates[0], base + 5_000);
    // 200k bids are 217k events: 21.7 ms at 10M events/s.
    assert_eq!(dates[dates.len() - 1], base + 5_021);
}

#[test]
fn q9_changelog_replays_consistently() {
    let mut stream = NexmarkStream::new(Query::Q9, 5);
    let mut winners: HashMap<i64, i64> = HashMap::new();
    let mut counts = [0usize; 4];
    let mut expect_insert_for = None;
    for _ in 0..10 {
        let batch = stream.next_batch(4096).unwrap();
        let (ids, prices) = (ints(&batch.batch, "id"), ints(&batch.batch, "price"));
        let (auctions, bid_times) = (ints(&batch.batch, "auction"), times(&batch.batch, "bid_dateTime"));
        let (opened, expires) = (times(&batch.batch, "dateTime"), times(&batch.batch, "expires"));
        for (row, kind) in kinds(&batch).values().iter().enumerate() {
            let (id, price) = (ids[row], prices[row]);
            counts[*kind as usize] += 1;
            assert_eq!(id, auctions[row]);
            assert!(opened[row] <= bid_times[row] && bid_times[row] <= expires[row]);
            match kind {
                0 => {
                    if let Some((old_id, old_price)) = expect_insert_for.take() {
                        assert_eq!(old_id, id);
                        assert!(price > old_price);
                    }
                    winners.insert(id, price);
                }
                3 => {
                    assert_eq!(winners.remove(&id), Some(price), "-D must retract the current winner");
                    expect_insert_for = Some((id, price));
                }
                other => panic!("q9 emits only +I and -D, got {other}"),
            }
        }
    }
    assert!(counts[3] > 1_000 && counts[0] > counts[3], "{counts:?}");
}

#[test]
fn q19_changelog_replays_consistently() {
    let mut stream = NexmarkStream::new(Query::Q19, 6);
    let mut ranked: HashMap<(i64, i64), (i64, i64)> = HashMap::new();
    let mut counts = [0usize; 4];
    let mut retracted = None;
    for _ in 0..10 {
        let batch = stream.next_batch(4096).unwrap();
        let b = &batch.batch;
        let (auctions, ranks) = (ints(b, "auction"), ints(b, "rank_number"));
        let (bidders, prices) = (ints(b, "bidder"), ints(b, "price"));
        for (row, kind) in kinds(&batch).values().iter().enumerate() {
            let key = (auctions[row], ranks[row]);
            let value = (bidders[row], prices[row]);
            counts[*kind as usize] += 1;
            assert!((1..=10).contains(&key.1));
            match kind {
                0 => assert!(ranked.insert(key, value).is_none(), "+I on a taken rank"),
                1 => {
                    assert_eq!(ranked.get(&key), Some(&value), "-U must retract the current row");
                    retracted = Some(key);
                }
                2 => {
                    assert_eq!(retracted.take(), Some(key), "+U must follow the -U of its key");
                    ranked.insert(key, value);
                }
                _ => panic!("q19 emits no -D"),
            }
        }
    }
    assert!(counts[0] > 1_000 && counts[1] > 1_000, "{counts:?}");
    assert_eq!(counts[1], counts[2] + usize::from(retracted.is_some()), "{counts:?}");
    for ((auction, rank), (_, price)) in &ranked {
        if let Some((_, below)) = ranked.get(&(*auction, rank + 1)) {
            assert!(price >= below, "ranks must be ordered by price");
        }
    }
}

#[test]
fn q19_can_omit_update_before() {
    let mut stream = NexmarkStream::with_update_before(Query::Q19, 7, false);
    let batch = stream.next_batch(20_000).unwrap();
    let values = kinds(&batch).values();
    assert!(!values.contains(&1));
    assert!(values.contains(&0) && values.contains(&2));
}

#[test]
fn q19_channels_and_urls_pair_up() {
    let batch = NexmarkStream::new(Query::Q19, 8).next_batch(20_000).unwrap().batch;
    let (channels, urls) = (texts(&batch, "channel"), texts(&batch, "url"));
    let mut url_of: HashMap<&str, &str> = HashMap::new();
    for (channel, url) in channels.iter().zip(&urls) {
        assert_eq!(*url_of.entry(channel).or_insert(url), url, "one URL per channel");
        assert!(url.starts_with("https://www.nexmark.com/"));
    }
    let hot = channels.iter().filter(|c| !c.starts_with("channel-")).count() as f64 / channels.len() as f64;
    assert!((0.4..0.6).contains(&hot), "{hot}");
}
