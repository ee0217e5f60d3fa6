package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.junit.jupiter.api.Test;
import org.kjson.flink.NativeJsonEncoder;
import org.kjson.flink.sql.support.CollectingReporter;
import org.kjson.flink.sql.support.FailingRows;
import org.kjson.flink.sql.support.FailoverScenario;
import org.kjson.flink.sql.support.SinkJob;
import org.kjson.flink.sql.support.TestRows;

/**
 * A job on a machine where the native library cannot load, with {@code 'kjson.native' =
 * 'fallback'}: Flink's own serializers write every record, and a read_committed consumer reads
 * exactly the records of the stock connector for the same rows (append with key projection,
 * prefix and EXCEPT_KEY; upsert with tombstones; a raw key). Each sink subtask logs one WARN line
 * at open and reports the encoder kind {@code flink}. Runs in the surefire execution of
 * {@link PlanningWithoutNativeLibraryTest} ({@code -Dkjson.native.path} names a file that is not
 * a library), whose log goes to the file named by {@value #LOG_FILE_PROPERTY}.
 */
class NativeFallbackTest {
    static final String LOG_FILE_PROPERTY = "kjson.test.log.file";
    static final String FALLBACK = "  'kjson.native' = 'fallback',\n  'sink.delivery-guarantee'";
    static final long ROWS = 2_000;

    @Test
    void theNativeLibraryReallyCannotLoadHere() {
        assertThrows(UnsatisfiedLinkError.class, NativeJsonEncoder::openHandleCount);
    }

    @Test
    void appendTableWritesTheStockRecordsWithOneWarnLinePerSubtask() throws Exception {
        long warningsBefore = fallbackWarnings();
        FailoverScenario result = FailoverScenario.run("fallback-append", fallback(AppendSinkTest.DDL), "kjson-kafka",
                "kafka", "exactly-once", FailingRows.Shape.APPEND, ROWS, 2_000, FailoverScenario.Path.SQL, false,
                CollectingReporter.configuration());
        System.out.println(result);
        assertTrue(result.audit.exactlyOnce(), result::toString);
        assertEquals(SinkJob.PARALLELISM, fallbackWarnings() - warningsBefore, "one WARN line per sink subtask");

        List<Metric> kinds = encoderMetrics("kjsonEncoderKind");
        assertEquals(SinkJob.PARALLELISM, kinds.size(), kinds::toString);
        kinds.forEach(kind -> assertEquals("flink", ((Gauge<?>) kind).getValue()));
        long rows = encoderMetrics("kjsonRowsEncoded").stream().mapToLong(c -> ((Counter) c).getCount()).sum();
        assertEquals(ROWS, rows);
    }

    @Test
    void upsertTableWritesTheStockRecordsAndTombstones() throws Exception {
        long groups = 600;
        FailoverScenario result = FailoverScenario.run("fallback-upsert", fallback(UpsertSinkTest.DDL),
                "kjson-upsert-kafka", "upsert-kafka", "exactly-once", FailingRows.Shape.CHANGELOG, groups, 1_000,
                FailoverScenario.Path.RUNTIME_PROVIDER, false);
        System.out.println(result);
        assertTrue(result.audit.exactlyOnce(), result::toString);
        assertEquals(TestRows.changelogRowCount(groups), result.audit.seen, "one record per changelog row");
        assertTrue(result.audit.keysOutOfOrder().isEmpty(), result::toString);
    }

    @Test
    void rawKeyTableWritesTheStockRecords() throws Exception {
        FailoverScenario result = FailoverScenario.run("fallback-raw-key", fallback(KeyFormatsTest.RAW_STRING_KEY_DDL),
                "kjson-kafka", "kafka", "exactly-once", FailingRows.Shape.APPEND, ROWS, 2_000, FailoverScenario.Path.SQL,
                false);
        System.out.println(result);
        assertTrue(result.audit.exactlyOnce(), result::toString);
    }

    private static String fallback(String ddl) {
        assertTrue(ddl.contains("  'sink.delivery-guarantee'"), ddl);
        return ddl.replace("  'sink.delivery-guarantee'", FALLBACK);
    }

    /** The fallback metric {@code name} of every encode subtask of the tables named 'sink'. */
    private static List<Metric> encoderMetrics(String name) {
        return CollectingReporter.metrics().entrySet().stream()
                .filter(e -> e.getKey().contains("sink: kjson-encode") && e.getKey().endsWith("." + name))
                .map(Map.Entry::getValue).toList();
    }

    /** WARN lines of the encode operator about the fallback, in this JVM's log so far. */
    private static long fallbackWarnings() throws Exception {
        Path log = Path.of(System.getProperty(LOG_FILE_PROPERTY));
        if (!Files.exists(log)) {
            return 0;
        }
        try (var lines = Files.lines(log)) {
            return lines.filter(line -> line.contains("WARN org.kjson.flink.RowDataEncodeOperator")
                    && line.contains("(kjson.native = 'fallback')")).count();
        }
    }
}
