package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.kjson.flink.sql.support.FailingRows;
import org.kjson.flink.sql.support.FailoverScenario;
import org.kjson.flink.sql.support.TestRows;

/**
 * {@code 'connector' = 'kjson-kafka'} with each CDC value format on a real broker: a changelog
 * (+I, -U, +U, -D) through the sink's runtime provider, exactly-once, and every record
 * byte-identical to what the stock {@code kafka} connector's serializer writes for the same row
 * with the same format. (Failover is the business of Flink's KafkaSink, tested with the json
 * format in {@link AppendSinkTest} and {@link UpsertSinkTest}.)
 */
class CdcFormatsTest {
    /** 2,000 key groups are 5,000 changelog rows. */
    static final long GROUPS = 2_000;
    static final double GROUPS_PER_SECOND = 2_000;

    static final String DDL = "CREATE TABLE sink (\n  " + TestRows.COLUMNS + "\n) WITH (\n"
            + "  'connector' = '%1$s',\n"
            + "  'topic' = '%2$s',\n"
            + "  'properties.bootstrap.servers' = '%3$s',\n"
            + "  'properties.linger.ms' = '5',\n"
            + "  'key.format' = 'json',\n"
            + "  'key.fields' = 'id',\n"
            + "  'format' = 'FORMAT',\n"
            + "  'FORMAT.map-null-key.mode' = 'LITERAL',\n"
            + "  'FORMAT.map-null-key.literal' = 'null-key',\n"
            + "  'FORMAT.timestamp-format.standard' = 'ISO-8601',\n"
            + "  'sink.delivery-guarantee' = '%4$s',\n"
            + "  'sink.transactional-id-prefix' = '%5$s'\n"
            + ")";

    @ParameterizedTest
    @ValueSource(strings = {"debezium-json", "canal-json", "maxwell-json", "ogg-json"})
    void changelogExactlyOnceAsTheStockFormatWritesIt(String format) throws Exception {
        FailoverScenario result = FailoverScenario.run("cdc-" + format, DDL.replace("FORMAT", format), "kjson-kafka",
                "kafka", "exactly-once", FailingRows.Shape.CHANGELOG, GROUPS, GROUPS_PER_SECOND,
                FailoverScenario.Path.RUNTIME_PROVIDER, false);
        System.out.println(result);
        assertTrue(result.audit.exactlyOnce(), result::toString);
        assertEquals(TestRows.changelogRowCount(GROUPS), result.audit.seen, "one record per changelog row");
    }
}
