package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.support.MetadataSinkRun;
import org.kjson.flink.sql.support.ReadRecord;

/**
 * Writable metadata on a real broker: the same rows through the same DDL into stock {@code kafka}
 * / {@code upsert-kafka} and into kjson's connector, each on fresh topics, exactly-once; a
 * read_committed consumer must see the same records on both: topic, partition, key, value,
 * record timestamp and headers (in order, with their bytes). Metadata columns sit between the
 * physical ones in the DDL (the planner appends them to the consumed row).
 */
class WritableMetadataTest {
    static final long ROWS = 3_000;

    static final String APPEND_DDL = "CREATE TABLE sink (\n"
            + "  id BIGINT,\n"
            + "  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',\n"
            + "  name STRING,\n"
            + "  hdrs MAP<STRING, BYTES> METADATA FROM 'headers',\n"
            + "  tp STRING METADATA FROM 'topic'\n"
            + ") WITH (\n"
            + "  'connector' = '%1$s',\n"
            + "  %2$s,\n"
            + "  'properties.bootstrap.servers' = '%3$s',\n"
            + "  'key.format' = 'json',\n"
            + "  'key.fields' = 'id',\n"
            + "  'value.format' = 'json',\n"
            + "  'sink.delivery-guarantee' = 'exactly-once',\n"
            + "  'sink.transactional-id-prefix' = '%4$s'\n"
            + ")";

    static final String UPSERT_DDL = "CREATE TABLE sink (\n"
            + "  id BIGINT,\n"
            + "  name STRING,\n"
            + "  hdrs MAP<STRING, BYTES> METADATA FROM 'headers',\n"
            + "  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',\n"
            + "  PRIMARY KEY (id) NOT ENFORCED\n"
            + ") WITH (\n"
            + "  'connector' = '%1$s',\n"
            + "  %2$s,\n"
            + "  'properties.bootstrap.servers' = '%3$s',\n"
            + "  'key.format' = 'json',\n"
            + "  'value.format' = 'json',\n"
            + "  'sink.delivery-guarantee' = 'exactly-once',\n"
            + "  'sink.transactional-id-prefix' = '%4$s'\n"
            + ")";

    static final String APPEND_INSERT = "INSERT INTO sink SELECT id, ts, name, headers, CONCAT('%s', topic_suffix) FROM metadata_rows";
    static final String UPSERT_INSERT = "INSERT INTO sink SELECT id, name, headers, ts FROM metadata_rows";

    @Test
    void topicListTimestampAndHeadersAreTheStockSinks() throws Exception {
        List<String> stock = run("kafka", "list-stock", APPEND_DDL, APPEND_INSERT, WritableMetadataTest::topicList);
        List<String> kjson = run("kjson-kafka", "list-kjson", APPEND_DDL, APPEND_INSERT, WritableMetadataTest::topicList);
        assertWroteMetadata(stock, true);
        ReadRecord.assertSameRecords(stock, kjson);
    }

    @Test
    void topicPatternRoutesEachRowAsTheStockSinkDoes() throws Exception {
        List<String> stock = run("kafka", "pattern-stock", APPEND_DDL, APPEND_INSERT, WritableMetadataTest::topicPattern);
        List<String> kjson = run("kjson-kafka", "pattern-kjson", APPEND_DDL, APPEND_INSERT, WritableMetadataTest::topicPattern);
        assertWroteMetadata(stock, true);
        ReadRecord.assertSameRecords(stock, kjson);
    }

    @Test
    void upsertSinkWritesTimestampAndHeadersAsTheStockOne() throws Exception {
        List<String> stock = run("upsert-kafka", "upsert-stock", UPSERT_DDL, UPSERT_INSERT, WritableMetadataTest::singleTopic);
        List<String> kjson = run("kjson-upsert-kafka", "upsert-kjson", UPSERT_DDL, UPSERT_INSERT,
                WritableMetadataTest::singleTopic);
        assertWroteMetadata(stock, false);
        ReadRecord.assertSameRecords(stock, kjson);
    }

    private static String topicList(String prefix) {
        return "'topic' = '" + prefix + "a;" + prefix + "b'";
    }

    private static String topicPattern(String prefix) {
        return "'topic-pattern' = '" + prefix.replace("-", "\\-") + "[ab]'";
    }

    /** Every row to topic {@code <prefix>b}. */
    private static String singleTopic(String prefix) {
        return "'topic' = '" + prefix + "b'";
    }

    /** The run wrote every row, with record timestamps, producer stamps and headers among them. */
    private static void assertWroteMetadata(List<String> records, boolean bothTopics) {
        assertEquals(ROWS, records.size(), "records read");
        assertTrue(records.stream().anyMatch(r -> r.contains(" ts=stamped ")), "a row with a null timestamp");
        assertTrue(records.stream().anyMatch(r -> !r.contains(" ts=stamped ")), "a row with a timestamp");
        assertTrue(records.stream().anyMatch(r -> r.contains("trace-id=")), () -> "a row with headers: " + records.subList(0, 5));
        assertTrue(records.stream().anyMatch(r -> r.contains("headers=[]")), "a row without headers");
        assertEquals(bothTopics, records.stream().anyMatch(r -> r.startsWith("a ")), "rows routed to topic a");
    }

    private static List<String> run(String connector, String runId, String ddl, String insert,
            Function<String, String> topicOption) throws Exception {
        return MetadataSinkRun.run(connector, runId, ddl, insert, topicOption, ROWS, 2);
    }
}
