package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.support.CollectingReporter;
import org.kjson.flink.sql.support.ScanRun;
import org.kjson.flink.sql.support.ScanRun.Result;

/**
 * Reading a kjson table where the native library cannot load (the surefire execution of
 * {@link PlanningWithoutNativeLibraryTest}): with {@code 'kjson.native' = 'fallback'} Flink's own
 * reader and deserializers read the stock rows and the decoder kind is {@code flink}; without it
 * the job fails at the reader's open with the loader's message.
 */
class NativeFallbackSourceTest {
    static final String DDL = ScanParityTest.KEYED.replace("'value.format' = 'json',",
            "'value.format' = 'json',\n  'kjson.native' = '%4$s',");

    @Test
    void fallbackReadsTheStockRowsWithFlinksDeserializers() throws Exception {
        String topic = ScanRun.topic("fallback-scan", 1);
        ScanRun.produce(List.of(ScanRun.text(topic, "{\"id\":1,\"region\":\"eu\"}", "{\"name\":\"a\",\"amount\":1.5}"),
                ScanRun.text(topic, "{\"id\":2,\"region\":\"us\"}", "{\"name\":\"b\"}")));
        Result stock = ScanRun.read(DDL.replace("%4$s", "required").replace(",\n  'kjson.native' = 'required'", ""),
                "kafka", topic, "SELECT * FROM t");
        Result kjson = ScanRun.read(DDL.replace("%4$s", "fallback"), "kjson-kafka", topic, "SELECT * FROM t");
        assertNull(stock.failure(), () -> ScanRun.causes(stock.failure()));
        assertNull(kjson.failure(), () -> ScanRun.causes(kjson.failure()));
        assertFalse(stock.rows().isEmpty());
        assertEquals(stock.lines(), kjson.lines());
        List<Metric> kinds = CollectingReporter.metrics().entrySet().stream()
                .filter(e -> e.getKey().endsWith(".kjsonDecoderKind")).map(Map.Entry::getValue).toList();
        assertFalse(kinds.isEmpty(), "the source reports its decoder kind");
        kinds.forEach(kind -> assertEquals("flink", ((Gauge<?>) kind).getValue()));
    }

    @Test
    void withoutTheFallbackTheReaderFailsWithTheLoadersMessage() throws Exception {
        String topic = ScanRun.topic("required-scan", 1);
        ScanRun.produce(List.of(ScanRun.text(topic, "{\"id\":1,\"region\":\"eu\"}", "{\"name\":\"a\"}")));
        // Into a blackhole table, not collected: Flink's collect sink fails its own cleanup when a
        // task fails before it opened, which makes the MiniCluster's TaskExecutor shut down.
        Throwable failure = assertThrows(Exception.class, () -> ScanRun.run(DDL.replace("%4$s", "required"),
                "kjson-kafka", topic, "CREATE TABLE drained (id BIGINT, name STRING) WITH ('connector' = 'blackhole')",
                "INSERT INTO drained SELECT k_id, name FROM t"));
        String causes = ScanRun.causes(failure);
        assertTrue(causes.contains("cannot be read natively here") && causes.contains("cannot load the kjson native library from "),
                causes);
    }
}
