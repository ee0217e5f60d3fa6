package org.kjson.flink.sql.source;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;

/**
 * The source reader's kjson metrics, in its operator's metric group (next to Flink's Kafka
 * source metrics): records decoded, rows they gave, native calls, decode time, and the decoder
 * kind ({@code native}, or {@code flink} where the fallback reads with Flink's deserializers).
 * Written by the fetcher thread, read by reporters: thread-safe counters.
 */
final class DecodeMetrics {
    static final String KIND = "kjsonDecoderKind";

    private final Counter records;
    private final Counter rows;
    private final Counter calls;
    private final Counter nanos;

    private DecodeMetrics(MetricGroup group) {
        this.records = group.counter("kjsonRecordsDecoded", new ThreadSafeSimpleCounter());
        this.rows = group.counter("kjsonRowsDecoded", new ThreadSafeSimpleCounter());
        this.calls = group.counter("kjsonDecodeCalls", new ThreadSafeSimpleCounter());
        this.nanos = group.counter("kjsonDecodeNanos", new ThreadSafeSimpleCounter());
    }

    static DecodeMetrics register(MetricGroup group) {
        group.gauge(KIND, () -> "native");
        return new DecodeMetrics(group);
    }

    static void registerFallback(MetricGroup group) {
        group.gauge(KIND, () -> "flink");
    }

    /** One native call: its records, the rows they gave, and the time from slabs to rows. */
    void decoded(int recordCount, int rowCount, long elapsedNanos) {
        records.inc(recordCount);
        rows.inc(rowCount);
        calls.inc();
        nanos.inc(elapsedNanos);
    }
}
