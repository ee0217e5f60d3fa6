package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.kjson.flink.sql.ScanParityTest.assertSameFailure;
import static org.kjson.flink.sql.ScanParityTest.assertSameRead;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.support.ScanRun;
import org.kjson.flink.sql.support.ScanRun.Result;

/**
 * The changelog formats' readable metadata ({@code value.*} columns) on the real broker, judged
 * by the stock connector: each format's keys beside the connector's {@code partition} and
 * {@code offset}, read by {@code kafka} and {@code kjson-kafka} with the same DDL, give the same
 * rows (the metadata in every row of a message, null where the envelope lacks the field, Flink's
 * conversions of odd values), also when a query projects some of them.
 */
class ScanFormatMetadataTest {
    /** %4$s: the format, %5$s: the metadata columns, %6$s: more options. */
    private static final String TABLE = "CREATE TABLE t (id BIGINT, name STRING,\n  %5$s,\n"
            + "  part INT METADATA FROM 'partition' VIRTUAL, off BIGINT METADATA FROM 'offset' VIRTUAL\n"
            + ") WITH (\n  'connector' = '%1$s',\n  'topic' = '%2$s',\n  'properties.bootstrap.servers' = '%3$s',\n"
            + "  'scan.startup.mode' = 'earliest-offset',\n  'scan.bounded.mode' = 'latest-offset',\n"
            + "  'format' = '%4$s'%6$s\n)";

    private static String table(String format, String metadataColumns, String options) {
        return TABLE.replace("%4$s", format).replace("%5$s", metadataColumns).replace("%6$s", options);
    }

    private static final String DEBEZIUM_COLUMNS = "ing TIMESTAMP_LTZ(3) METADATA FROM 'value.ingestion-timestamp'"
            + " VIRTUAL, sch STRING METADATA FROM 'value.schema' VIRTUAL,"
            + " src_ts TIMESTAMP_LTZ(3) METADATA FROM 'value.source.timestamp' VIRTUAL,"
            + " db STRING METADATA FROM 'value.source.database' VIRTUAL,"
            + " sc STRING METADATA FROM 'value.source.schema' VIRTUAL,"
            + " tb STRING METADATA FROM 'value.source.table' VIRTUAL,"
            + " props MAP<STRING, STRING> METADATA FROM 'value.source.properties' VIRTUAL";

    @Test
    void debeziumJsonMetadataReadsTheStockRows() throws Exception {
        String topic = ScanRun.topic("meta-debezium", 1);
        ScanRun.produce(List.of(
                ScanRun.text(topic, null, "{\"before\":null,\"after\":{\"id\":1,\"name\":\"a\"},\"op\":\"c\","
                        + "\"source\":{\"db\":\"inventory\",\"schema\":\"public\",\"table\":\"products\","
                        + "\"ts_ms\":1589355606100,\"snapshot\":false,\"extra\":{\"x\":[1,2.50]},\"n\":null},"
                        + "\"ts_ms\":1589355606111,\"schema\":{\"type\":\"struct\",\"fields\":[]}}"),
                ScanRun.text(topic, null, "{\"before\":{\"id\":1,\"name\":\"a\"},\"after\":{\"id\":1,\"name\":\"b\"},"
                        + "\"op\":\"u\",\"source\":{\"db\":\"x\",\"ts_ms\":\"-5\"},\"ts_ms\":\"42\",\"schema\":\"plain\"}"),
                ScanRun.text(topic, null, "{\"before\":{\"id\":1,\"name\":\"b\"},\"after\":null,\"op\":\"d\"}"),
                ScanRun.text(topic, null, "{\"before\":null,\"after\":{\"id\":2},\"op\":\"r\",\"source\":null,"
                        + "\"ts_ms\":1234.9,\"schema\":null}"),
                ScanRun.text(topic, null, "{\"before\":null,\"after\":{\"id\":3},\"op\":\"c\",\"source\":[1],"
                        + "\"ts_ms\":null,\"schema\":[1,\"a\"]}"),
                ScanRun.text(topic, null, "{\"before\":null,\"after\":{\"id\":4},\"op\":\"c\","
                        + "\"source\":{\"ts_ms\":null,\"table\":7}}")));
        String ddl = table("debezium-json", DEBEZIUM_COLUMNS, "");
        assertSameRead(ddl, "kafka", "kjson-kafka", topic, "SELECT * FROM t");
        assertSameRead(ddl, "kafka", "kjson-kafka", topic, "SELECT off, tb, id, src_ts FROM t WHERE id > 1");
    }

    @Test
    void debeziumJsonMetadataWithTheSchemaWrapperReadsTheStockRows() throws Exception {
        String topic = ScanRun.topic("meta-debezium-schema", 1);
        ScanRun.produce(List.of(
                ScanRun.text(topic, null, "{\"schema\":{\"type\":\"struct\"},\"payload\":{\"before\":null,"
                        + "\"after\":{\"id\":1,\"name\":\"a\"},\"op\":\"c\",\"source\":{\"db\":\"d\",\"ts_ms\":7},"
                        + "\"ts_ms\":8}}"),
                ScanRun.text(topic, null, "{\"payload\":{\"before\":{\"id\":1},\"after\":null,\"op\":\"d\"},"
                        + "\"ts_ms\":9,\"source\":{\"db\":\"outside the payload\"}}")));
        String ddl = table("debezium-json", DEBEZIUM_COLUMNS, ",\n  'debezium-json.schema-include' = 'true'");
        assertSameRead(ddl, "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    @Test
    void debeziumJsonMetadataThatFailsIsSkippedUnderIgnoreParseErrors() throws Exception {
        String topic = ScanRun.topic("meta-debezium-ignore", 1);
        ScanRun.produce(List.of(
                // Only source.timestamp is read: the root's ts_ms is not converted at all.
                ScanRun.text(topic, null, "{\"before\":null,\"after\":{\"id\":1},\"op\":\"c\","
                        + "\"source\":{\"ts_ms\":\"12\"},\"ts_ms\":\"oops\"}"),
                ScanRun.text(topic, null, "{\"before\":null,\"after\":{\"id\":2},\"op\":\"c\","
                        + "\"source\":{\"ts_ms\":\"abc\"}}"),
                ScanRun.text(topic, null, "{\"before\":{\"id\":2},\"after\":{\"id\":3},\"op\":\"u\","
                        + "\"source\":{\"ts_ms\":\" 12\"}}"),
                ScanRun.text(topic, null, "{\"before\":null,\"after\":{\"id\":4},\"op\":\"c\","
                        + "\"source\":{\"ts_ms\":\"+13\"}}")));
        String ddl = table("debezium-json", "src_ts TIMESTAMP_LTZ(3) METADATA FROM 'value.source.timestamp' VIRTUAL",
                ",\n  'debezium-json.ignore-parse-errors' = 'true'");
        assertSameRead(ddl, "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    @Test
    void canalJsonMetadataReadsTheStockRows() throws Exception {
        String topic = ScanRun.topic("meta-canal", 1);
        ScanRun.produce(List.of(
                ScanRun.text(topic, null, "{\"data\":[{\"id\":1,\"name\":\"a\"},{\"id\":2,\"name\":\"b\"}],"
                        + "\"old\":null,\"type\":\"INSERT\",\"database\":\"db1\",\"table\":\"t1\","
                        + "\"sqlType\":{\"id\":-5,\"name\":\"12\",\"n\":null},\"pkNames\":[\"id\",null],"
                        + "\"ts\":1589373560798,\"es\":1589373560000,\"isDdl\":false}"),
                ScanRun.text(topic, null, "{\"data\":[{\"id\":1,\"name\":\"a2\"}],\"old\":[{\"name\":\"a\"}],"
                        + "\"type\":\"UPDATE\",\"database\":\"db1\",\"table\":\"t1\",\"pkNames\":null,\"ts\":5}"),
                ScanRun.text(topic, null, "{\"data\":[{\"id\":2,\"name\":\"b\"}],\"old\":null,\"type\":\"DELETE\"}"),
                ScanRun.text(topic, null, "{\"data\":null,\"type\":\"CREATE\",\"database\":\"db1\",\"es\":3}")));
        String columns = "db STRING METADATA FROM 'value.database' VIRTUAL,"
                + " tbl STRING METADATA FROM 'value.table' VIRTUAL,"
                + " types MAP<STRING, INT> METADATA FROM 'value.sql-type' VIRTUAL,"
                + " pks ARRAY<STRING> METADATA FROM 'value.pk-names' VIRTUAL,"
                + " ing TIMESTAMP_LTZ(3) METADATA FROM 'value.ingestion-timestamp' VIRTUAL,"
                + " ev TIMESTAMP_LTZ(3) METADATA FROM 'value.event-timestamp' VIRTUAL";
        assertSameRead(table("canal-json", columns, ""), "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    @Test
    void maxwellJsonMetadataReadsTheStockRows() throws Exception {
        String topic = ScanRun.topic("meta-maxwell", 1);
        ScanRun.produce(List.of(
                ScanRun.text(topic, null, "{\"database\":\"test\",\"table\":\"product\",\"type\":\"insert\","
                        + "\"ts\":1596684883,\"data\":{\"id\":1,\"name\":\"a\"},\"primary_key_columns\":[\"id\"]}"),
                ScanRun.text(topic, null, "{\"database\":\"test\",\"type\":\"update\",\"ts\":\"7\","
                        + "\"data\":{\"id\":1,\"name\":\"b\"},\"old\":{\"name\":\"a\"}}"),
                ScanRun.text(topic, null, "{\"type\":\"delete\",\"data\":{\"id\":1,\"name\":\"b\"}}")));
        String columns = "db STRING METADATA FROM 'value.database' VIRTUAL,"
                + " tbl STRING METADATA FROM 'value.table' VIRTUAL,"
                + " pks ARRAY<STRING> METADATA FROM 'value.primary-key-columns' VIRTUAL,"
                + " ing TIMESTAMP_LTZ(3) METADATA FROM 'value.ingestion-timestamp' VIRTUAL";
        assertSameRead(table("maxwell-json", columns, ""), "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    @Test
    void oggJsonTableAndPrimaryKeysReadTheStockRows() throws Exception {
        String topic = ScanRun.topic("meta-ogg", 1);
        ScanRun.produce(List.of(
                ScanRun.text(topic, null, "{\"table\":\"OGG.T\",\"op_type\":\"I\",\"before\":null,"
                        + "\"after\":{\"id\":1,\"name\":\"a\"},\"primary_keys\":[\"ID\"]}"),
                ScanRun.text(topic, null, "{\"op_type\":\"U\",\"before\":{\"id\":1,\"name\":\"a\"},"
                        + "\"after\":{\"id\":1,\"name\":\"b\"},\"table\":\"OGG.T\"}"),
                ScanRun.text(topic, null, "{\"op_type\":\"D\",\"before\":{\"id\":1},\"after\":null}")));
        String columns = "tbl STRING METADATA FROM 'value.table' VIRTUAL,"
                + " pks ARRAY<STRING> METADATA FROM 'value.primary-keys' VIRTUAL";
        assertSameRead(table("ogg-json", columns, ""), "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    private static final String OGG_TIMESTAMPS = "ing TIMESTAMP_LTZ(6) METADATA FROM 'value.ingestion-timestamp' VIRTUAL,"
            + " ev TIMESTAMP_LTZ(6) METADATA FROM 'value.event-timestamp' VIRTUAL";

    /** An ogg insert of row {@code id} with the envelope fields {@code extra} (JSON members, or empty). */
    private static ProducerRecord<byte[], byte[]> oggInsert(String topic, int id, String extra) {
        return ScanRun.text(topic, null, "{\"table\":\"OGG.T\",\"op_type\":\"I\",\"after\":{\"id\":" + id + "}"
                + (extra.isEmpty() ? "" : "," + extra) + "}");
    }

    private static String timestamps(String currentTs, String opTs) {
        return "\"current_ts\":" + currentTs + ",\"op_ts\":" + opTs;
    }

    /**
     * ogg's {@code current_ts} read with its pattern {@code yyyy-MM-dd'T'HH:mm:ss.SSSSSS}, and
     * what the pattern refuses by {@code java.sql}'s parsers (or null); {@code op_ts} read by
     * Flink's default timestamp formatter; both to the millisecond, except the nanoseconds
     * {@code java.sql.Timestamp} keeps.
     */
    @Test
    void oggJsonTimestampsReadTheStockRows() throws Exception {
        String topic = ScanRun.topic("meta-ogg-timestamps", 1);
        String[][] spellings = {
            {"\"2020-05-13T15:40:06.123456\"", "\"2020-05-13 15:40:06.654321\""},
            {"\"2020-05-13 15:40:06.123456789\"", "\"2020-5-3 5:4:6.1\""},
            {"\"2020-05-13\"", "\"2020-05-13\""},
            {"\"2020-02-31T10:00:00.000000\"", "\"2020-02-31 10:00:00\""},
            {"\"2020-05-13 25:61:61\"", "\"2020-05-13 24:00:00\""},
            {"\"  2020-5-3 +1:40:06.5 \"", "\"2020-05-13 15:40:06.\""},
            {"\"1582-10-10 00:00:00\"", "\"1582-10-10 00:00:00\""},
            {"\"2020-05-13T15:40:06\"", "\"+12020-05-13 15:40:06\""},
            {"\"2020-13-01 00:00:00\"", "\"2020-05-\""},
            {"\"x\"", "null"},
            {"5", "\"1969-12-31 23:59:59.999\""},
            {"null", "null"},
        };
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < spellings.length; i++) {
            records.add(oggInsert(topic, i, timestamps(spellings[i][0], spellings[i][1])));
        }
        records.add(oggInsert(topic, spellings.length, ""));
        ScanRun.produce(records);
        assertSameRead(table("ogg-json", OGG_TIMESTAMPS, ""), "kafka", "kjson-kafka", topic, "SELECT * FROM t");
        assertSameRead(table("ogg-json", OGG_TIMESTAMPS, ""), "kafka", "kjson-kafka", topic,
                "SELECT id, CAST(ev AS TIMESTAMP_LTZ(3)) FROM t WHERE ing IS NULL");
    }

    /** An {@code op_ts} the default formatter cannot read, a Julian leap day in {@code current_ts}. */
    private static final String[] OGG_BAD_TIMESTAMPS = {
        timestamps("null", "\"2020-05-13T15:40:06.123456\""),
        timestamps("\"1500-02-29 00:00:00\"", "null"),
    };

    @Test
    void oggJsonTimestampsFlinkRefusesFailTheMessage() throws Exception {
        for (int i = 0; i < OGG_BAD_TIMESTAMPS.length; i++) {
            String topic = ScanRun.topic("meta-ogg-bad-timestamp-" + i, 1);
            ProducerRecord<byte[], byte[]> bad = oggInsert(topic, 2, OGG_BAD_TIMESTAMPS[i]);
            ScanRun.produce(List.of(oggInsert(topic, 1, timestamps("null", "\"2020-05-13\"")), bad));
            String ddl = table("ogg-json", OGG_TIMESTAMPS, "");
            Result stock = ScanRun.read(ddl, "kafka", topic, "SELECT * FROM t");
            Result kjson = ScanRun.read(ddl, "kjson-kafka", topic, "SELECT * FROM t");
            assertNotNull(stock.failure(), "the stock read fails on " + OGG_BAD_TIMESTAMPS[i]);
            assertSameFailure(stock, kjson, "Corrupt Ogg JSON message '" + new String(bad.value()) + "'.");
        }
    }

    @Test
    void oggJsonTimestampsFlinkRefusesAreSkippedUnderIgnoreParseErrors() throws Exception {
        String topic = ScanRun.topic("meta-ogg-timestamps-ignore", 1);
        ScanRun.produce(List.of(oggInsert(topic, 1, timestamps("null", "\"2020-05-13\"")),
                oggInsert(topic, 2, OGG_BAD_TIMESTAMPS[0]), oggInsert(topic, 3, OGG_BAD_TIMESTAMPS[1]),
                oggInsert(topic, 4, timestamps("\"2020-05-13T15:40:06.123456\"", "null"))));
        String ddl = table("ogg-json", OGG_TIMESTAMPS, ",\n  'ogg-json.ignore-parse-errors' = 'true'");
        assertSameRead(ddl, "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }
}
