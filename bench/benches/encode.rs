//! Criterion benches: per Nexmark query, one 4096-row batch through the generated encoder, the
//! dynamic encoder and, beside them as the baseline, arrow-json's `LineDelimitedWriter`.
//! Throughput is counted in rows. `kjson bench` gives the one-run table with ratios.
use std::hint::black_box;

use arrow_json::LineDelimitedWriter;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kjson_arrow::runtime::{Compatibility, SinkSpec};
use kjson_arrow::Encoder;
use kjson_cli::commands::nexmark::query_ddl;
use kjson_cli::nexmark::{NexmarkStream, Query};

const BATCH_ROWS: usize = 4096;

fn bench_query(c: &mut Criterion, query: Query) {
    let batch = NexmarkStream::new(query, 42).next_batch(BATCH_ROWS).expect("nexmark batch");
    let spec = SinkSpec::from_ddl(query_ddl(query)).expect("embedded DDL");
    let mut generated = Encoder::open(spec.clone(), Compatibility::default()).expect("open");
    assert!(generated.kind().is_generated(), "{}", generated.kind());
    let mut dynamic = Encoder::open_dynamic(spec, Compatibility::default()).expect("open");
    let expected = dynamic.encode(&batch.batch, batch.row_kinds.as_ref()).expect("dynamic").clone();
    let got = generated.encode(&batch.batch, batch.row_kinds.as_ref()).expect("generated");
    assert_eq!((&got.keys().bytes(), &got.values().bytes()), (&expected.keys().bytes(), &expected.values().bytes()));

    let mut group = c.benchmark_group(query.name());
    group.throughput(Throughput::Elements(BATCH_ROWS as u64));
    group.bench_function("generated", |b| {
        b.iter(|| {
            black_box(
                generated.encode(black_box(&batch.batch), batch.row_kinds.as_ref()).map(|s| s.values().bytes().len()),
            )
        })
    });
    group.bench_function("dynamic", |b| {
        b.iter(|| {
            black_box(
                dynamic.encode(black_box(&batch.batch), batch.row_kinds.as_ref()).map(|s| s.values().bytes().len()),
            )
        })
    });
    let mut buffer = Vec::new();
    group.bench_function("arrow-json", |b| {
        b.iter(|| {
            buffer.clear();
            let mut writer = LineDelimitedWriter::new(&mut buffer);
            writer.write(black_box(&batch.batch)).expect("arrow-json");
            writer.finish().expect("arrow-json");
        })
    });
    group.finish();
}

fn nexmark(c: &mut Criterion) {
    for query in [Query::Q0, Query::Q9, Query::Q19] {
        bench_query(c, query);
    }
}

criterion_group!(benches, nexmark);
criterion_main!(benches);
