package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.support.FailingRows;
import org.kjson.flink.sql.support.FailoverScenario;
import org.kjson.flink.sql.support.TestRows;

/**
 * {@code 'connector' = 'kjson-kafka'} through SQL on a real broker, with a failure injected after
 * the first completed checkpoint: under exactly-once a read_committed consumer sees every record
 * once, byte-identical to stock {@code kafka} + {@code json}; under at-least-once it sees every
 * record, some twice.
 */
class AppendSinkTest {
    static final long ROWS = 120_000;
    static final double ROWS_PER_SECOND = 40_000;

    /** Key and value projections, a key prefix and json options on the value side. */
    static final String DDL = "CREATE TABLE sink (\n  " + TestRows.COLUMNS.replace("id BIGINT", "k_id BIGINT")
            .replace("region STRING", "k_region STRING") + "\n) WITH (\n"
            + "  'connector' = '%1$s',\n"
            + "  'topic' = '%2$s',\n"
            + "  'properties.bootstrap.servers' = '%3$s',\n"
            + "  'properties.linger.ms' = '5',\n"
            + "  'key.format' = 'json',\n"
            + "  'key.fields' = 'k_id;k_region',\n"
            + "  'key.fields-prefix' = 'k_',\n"
            + "  'value.format' = 'json',\n"
            + "  'value.fields-include' = 'EXCEPT_KEY',\n"
            + "  'value.json.timestamp-format.standard' = 'ISO-8601',\n"
            + "  'value.json.encode.decimal-as-plain-number' = 'true',\n"
            + "  'sink.delivery-guarantee' = '%4$s',\n"
            + "  'sink.transactional-id-prefix' = '%5$s'\n"
            + ")";

    @Test
    void exactlyOnceAcrossFailover() throws Exception {
        FailoverScenario result = run("append-eo", "exactly-once");
        assertTrue(result.run.failed.get(), "the failure was not injected: " + result);
        assertTrue(result.audit.exactlyOnce(), result::toString);
        assertEquals(ROWS, result.audit.seen, result::toString);
    }

    @Test
    void atLeastOnceAcrossFailoverDuplicatesWithoutLoss() throws Exception {
        FailoverScenario result = run("append-alo", "at-least-once");
        assertTrue(result.run.failed.get(), "the failure was not injected: " + result);
        assertTrue(result.audit.missing.isEmpty() && result.audit.unexpected.isEmpty(), result::toString);
        // Rows emitted after the last checkpoint were sent before the failure and replayed after it.
        assertTrue(result.audit.duplicateCopies > 0, "expected duplicates after the failover: " + result);
    }

    private static FailoverScenario run(String runId, String guarantee) throws Exception {
        String ddl = DDL.replace("PRIMARY KEY", "");
        FailoverScenario result = FailoverScenario.run(runId, ddl, "kjson-kafka", "kafka", guarantee,
                FailingRows.Shape.APPEND, ROWS, ROWS_PER_SECOND, FailoverScenario.Path.SQL, true);
        System.out.println(result);
        return result;
    }
}
