package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.support.FailingRows;
import org.kjson.flink.sql.support.FailoverScenario;
import org.kjson.flink.sql.support.TestRows;

/**
 * {@code 'connector' = 'kjson-upsert-kafka'} on a real broker with a failure injected after the
 * first completed checkpoint. The source is a changelog (+I, -U/+U updates, -D deletes) keyed by
 * the primary key. Through SQL the planner hands the sink +I/+U/-D (it drops -U for upsert
 * sinks, stock or not); through the runtime provider the sink also gets -U rows, which become
 * tombstones like -D.
 */
class UpsertSinkTest {
    /** Key groups: 44,000 groups are 110,000 changelog rows. */
    static final long GROUPS = 44_000;
    static final double GROUPS_PER_SECOND = 15_000;

    static final String DDL = "CREATE TABLE sink (\n  " + TestRows.COLUMNS + ",\n  PRIMARY KEY (id, region) NOT ENFORCED\n"
            + ") WITH (\n"
            + "  'connector' = '%1$s',\n"
            + "  'topic' = '%2$s',\n"
            + "  'properties.bootstrap.servers' = '%3$s',\n"
            + "  'properties.linger.ms' = '5',\n"
            + "  'key.format' = 'json',\n"
            + "  'value.format' = 'json',\n"
            + "  'value.json.map-null-key.mode' = 'DROP',\n"
            + "  'sink.delivery-guarantee' = '%4$s',\n"
            + "  'sink.transactional-id-prefix' = '%5$s'\n"
            + ")";

    @Test
    void exactlyOnceAcrossFailover() throws Exception {
        FailoverScenario result = run("upsert-eo", "kjson-upsert-kafka", "exactly-once", FailoverScenario.Path.SQL, true);
        assertExactlyOnceInKeyOrder(result);
    }

    @Test
    void updateBeforeAndDeleteBecomeTombstonesExactlyOnceAcrossFailover() throws Exception {
        FailoverScenario result = run("upsert-provider-eo", "kjson-upsert-kafka", "exactly-once",
                FailoverScenario.Path.RUNTIME_PROVIDER, true);
        assertExactlyOnceInKeyOrder(result);
        assertEquals(TestRows.changelogRowCount(GROUPS), result.audit.seen, "one record per changelog row");
    }

    @Test
    void atLeastOnceAcrossFailoverDuplicatesWithoutLoss() throws Exception {
        FailoverScenario result = run("upsert-alo", "kjson-upsert-kafka", "at-least-once", FailoverScenario.Path.SQL, true);
        assertTrue(result.run.failed.get(), "the failure was not injected: " + result);
        assertTrue(result.audit.missing.isEmpty() && result.audit.unexpected.isEmpty(), result::toString);
        assertTrue(result.audit.duplicateCopies > 0, "expected duplicates after the failover: " + result);
    }

    /** The stock job (no failure) writes exactly what the expected records say, so kjson's run is compared with it too. */
    @Test
    void stockUpsertKafkaJobWritesTheExpectedRecords() throws Exception {
        FailoverScenario result = run("upsert-stock", "upsert-kafka", "exactly-once", FailoverScenario.Path.SQL, false);
        assertTrue(result.audit.exactlyOnce(), result::toString);
    }

    private static void assertExactlyOnceInKeyOrder(FailoverScenario result) {
        assertTrue(result.run.failed.get(), "the failure was not injected: " + result);
        assertTrue(result.audit.exactlyOnce(), result::toString);
        List<String> outOfOrder = result.audit.keysOutOfOrder();
        assertTrue(outOfOrder.isEmpty(), "keys whose records are out of order: " + outOfOrder);
    }

    private static FailoverScenario run(String runId, String connector, String guarantee, FailoverScenario.Path path,
            boolean injectFailure) throws Exception {
        FailoverScenario result = FailoverScenario.run(runId, DDL, connector, "upsert-kafka", guarantee,
                FailingRows.Shape.CHANGELOG, GROUPS, GROUPS_PER_SECOND, path, injectFailure);
        System.out.println(result);
        return result;
    }
}
