package org.kjson.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.kjson.flink.support.StockKafkaSink;

/**
 * {@link RowDataEncodeOperator}'s time bound ({@code kjson.batch-interval}, on the harness's
 * processing-time clock) and its Arrow memory bound ({@code kjson.arrow-memory-limit}).
 */
class BatchingTest {
    private static SinkDescription sink;

    @BeforeAll
    static void createSink() throws Exception {
        StockKafkaSink kafka = StockKafkaSink.create("CREATE TABLE batching_sink (id BIGINT, name STRING) WITH ("
                + " 'connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092',"
                + " 'format' = 'json')");
        sink = SinkDescription.of(kafka.table().getResolvedSchema(), kafka.options());
    }

    private static RowData row(long id, String name) {
        return GenericRowData.of(id, StringData.fromString(name));
    }

    private static OneInputStreamOperatorTestHarness<RowData, KafkaEncodedRecord> harness(BatchSettings batching)
            throws Exception {
        return new OneInputStreamOperatorTestHarness<>(new RowDataEncodeOperator(sink, batching, null));
    }

    @Test
    void aPartialBatchIsFlushedOneIntervalAfterItsFirstRow() throws Exception {
        try (var harness = harness(BatchSettings.ofRows(100).withInterval(Duration.ofMillis(500)))) {
            harness.open();
            harness.setProcessingTime(1_000);
            harness.processElement(row(1, "a"), 1);
            harness.setProcessingTime(1_300);
            harness.processElement(row(2, "b"), 2);
            harness.setProcessingTime(1_499);
            assertEquals(0, harness.getOutput().size(), "within the interval the rows wait");
            harness.setProcessingTime(1_500);
            assertEquals(2, harness.getOutput().size(), "the interval after the first row flushes both");
            harness.setProcessingTime(5_000);
            assertEquals(2, harness.getOutput().size(), "an empty batch emits nothing");
        }
    }

    /** The timer set for a batch flushed by size must not cut the next batch short, nor forget it. */
    @Test
    void aBatchStartedAfterTheTimerWasSetWaitsItsOwnInterval() throws Exception {
        try (var harness = harness(BatchSettings.ofRows(2).withInterval(Duration.ofMillis(500)))) {
            harness.open();
            harness.setProcessingTime(0);
            harness.processElement(row(1, "a"), 1);
            harness.processElement(row(2, "b"), 2);
            assertEquals(2, harness.getOutput().size(), "a full batch is emitted at once");
            harness.setProcessingTime(300);
            harness.processElement(row(3, "c"), 3);
            harness.setProcessingTime(500);
            assertEquals(2, harness.getOutput().size(), "row 3 has waited 200 ms only");
            harness.setProcessingTime(799);
            assertEquals(2, harness.getOutput().size());
            harness.setProcessingTime(800);
            assertEquals(3, harness.getOutput().size(), "row 3 is sent 500 ms after it arrived");
        }
    }

    @Test
    void aZeroIntervalTurnsTheTimerOff() throws Exception {
        try (var harness = harness(BatchSettings.ofRows(100).withInterval(Duration.ZERO))) {
            harness.open();
            harness.setProcessingTime(0);
            harness.processElement(row(1, "a"), 1);
            harness.setProcessingTime(3_600_000);
            assertEquals(0, harness.getOutput().size());
            harness.endInput();
            assertEquals(1, harness.getOutput().size());
        }
    }

    @Test
    void rowsBeyondTheArrowLimitFailNamingTheOption() throws Exception {
        String wide = "x".repeat(300_000);
        try (var harness = harness(BatchSettings.ofRows(1000).withArrowMemoryLimit(1 << 20))) {
            harness.open();
            ArrowMemoryLimitException e = assertThrows(ArrowMemoryLimitException.class, () -> {
                for (int i = 0; i < 10; i++) {
                    harness.processElement(row(i, wide), i);
                }
            });
            assertTrue(e.getMessage().contains("'kjson.arrow-memory-limit'"), e.getMessage());
            assertTrue(e.getMessage().contains("1048576 bytes"), e.getMessage());
        }
    }

    @Test
    void theDerivedArrowLimitFollowsTheBatchRows() {
        assertEquals(64L << 20, BatchSettings.defaults().arrowMemoryLimit());
        assertEquals(100_000L * 16 * 1024, BatchSettings.ofRows(100_000).arrowMemoryLimit());
        assertEquals(5L << 20, BatchSettings.ofRows(100_000).withArrowMemoryLimit(5L << 20).arrowMemoryLimit());
        assertThrows(IllegalArgumentException.class, () -> BatchSettings.ofRows(10).withInterval(Duration.ofMillis(-1)));
    }

    /** The library is built with schemas/q0.sql, so a sink of that shape gets its generated encoder. */
    @Test
    void aSinkLikeABuiltInSchemaGetsTheGeneratedEncoder() throws Exception {
        StockKafkaSink q0 = StockKafkaSink.create("CREATE TABLE q0_like (auction BIGINT, bidder BIGINT, price BIGINT,"
                + " `dateTime` TIMESTAMP(3), extra VARCHAR) WITH ('connector' = 'kafka', 'topic' = 'bids',"
                + " 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json')");
        SinkDescription description = SinkDescription.of(q0.table().getResolvedSchema(), q0.options());
        try (var allocator = new org.apache.arrow.memory.RootAllocator();
                NativeJsonEncoder encoder = NativeJsonEncoder.open(description, allocator)) {
            assertEquals(NativeJsonEncoder.Kind.GENERATED, encoder.kind(), encoder.kindDescription());
            assertTrue(encoder.kindDescription().startsWith("generated "), encoder.kindDescription());
        }
    }

    @Test
    void encoderKindIsReportedByTheJavaApi() throws Exception {
        try (var allocator = new org.apache.arrow.memory.RootAllocator();
                NativeJsonEncoder encoder = NativeJsonEncoder.open(sink, allocator)) {
            assertEquals(NativeJsonEncoder.Kind.DYNAMIC, encoder.kind(), encoder.kindDescription());
            assertTrue(encoder.kindDescription().matches("dynamic .*spec fingerprint 0x[0-9a-f]{16}\\)"),
                    encoder.kindDescription());
            assertTrue(NativeJsonEncoder.nativeVersion().matches("\\d+\\.\\d+\\.\\d+\\S* \\w+-\\w+"),
                    NativeJsonEncoder.nativeVersion());
        }
    }
}
