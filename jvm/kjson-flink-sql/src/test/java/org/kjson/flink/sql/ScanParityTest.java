package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.support.FlinkLine;
import org.kjson.flink.sql.support.ScanRun;
import org.kjson.flink.sql.support.ScanRun.Result;
import org.kjson.flink.sql.support.SharedBroker;
import org.kjson.flink.sql.support.SharedScanCluster;

/**
 * {@code SELECT} from {@code kjson-kafka} and {@code kjson-upsert-kafka} tables on the real
 * broker, judged by the stock connector: the same topic read through the same DDL with
 * {@code 'connector' = 'kafka'} / {@code 'upsert-kafka'} and with the kjson connector (bounded
 * by {@code scan.bounded.mode}) gives the same rows, RowKinds included, or the same failure.
 */
class ScanParityTest {
    private static final String BOUNDED = "  'properties.bootstrap.servers' = '%3$s',\n"
            + "  'scan.startup.mode' = 'earliest-offset',\n"
            + "  'scan.bounded.mode' = 'latest-offset',\n";

    static final String RICH = "CREATE TABLE t (\n"
            + "  id BIGINT, name STRING, price DECIMAL(10, 2), big DECIMAL(38, 18), score DOUBLE, ratio FLOAT,\n"
            + "  ok BOOLEAN, tiny TINYINT, small SMALLINT, n INT, d DATE, tm TIME, ts TIMESTAMP(3),\n"
            + "  ltz TIMESTAMP_LTZ(3), ts7 TIMESTAMP(7), ts9 TIMESTAMP(9), bin BYTES,\n"
            + "  r ROW<a INT, b ARRAY<STRING>>, items ARRAY<ROW<x DOUBLE, y ARRAY<INT>>>, m MAP<STRING, BIGINT>,\n"
            + "  mm MAP<STRING, ROW<q BOOLEAN>>\n"
            + ") WITH (\n  'connector' = '%1$s',\n  'topic' = '%2$s',\n" + BOUNDED
            + "  'format' = 'json'\n)";

    static List<ProducerRecord<byte[], byte[]>> richRecords(String topic) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        records.add(ScanRun.text(topic, null, "{\"id\":1,\"name\":\"a\\\"b \u00e9\",\"price\":12.34,"
                + "\"big\":12345678901234567890.123456789012345678,\"score\":1.5,\"ratio\":2.25,\"ok\":true,"
                + "\"tiny\":7,\"small\":-300,\"n\":42,\"d\":\"2024-02-29\",\"tm\":\"23:59:58\","
                + "\"ts\":\"2024-02-29 23:59:58.123\",\"ltz\":\"2024-02-29 23:59:58.123Z\","
                + "\"ts7\":\"2024-02-29 23:59:58.1234567\",\"ts9\":\"2024-02-29 23:59:58.123456789\","
                + "\"bin\":\"AAH/\",\"r\":{\"a\":7,\"b\":[\"x\",null]},"
                + "\"items\":[{\"x\":0.5,\"y\":[1,2]},null,{\"x\":null,\"y\":[]}],\"m\":{\"k1\":1,\"k2\":null},"
                + "\"mm\":{\"z\":{\"q\":false},\"n\":null}}"));
        records.add(ScanRun.text(topic, null, "{\"id\":2}"));
        records.add(ScanRun.text(topic, null, "{\"id\":3,\"name\":null,\"price\":-0.01,\"score\":-0.0,"
                + "\"ts\":\"1969-12-31 23:59:59.999\",\"d\":\"1900-01-01\",\"bin\":\"\",\"r\":null,\"items\":[],"
                + "\"m\":{},\"extra\":{\"deep\":[1,{\"x\":2}]}}"));
        // Numbers as strings, whitespace, unknown fields, field order.
        records.add(ScanRun.text(topic, null, "  {\"n\":\"5\", \"score\":1e3, \"id\":\"4\", \"ok\":\"true\"}  "));
        records.add(ScanRun.text(topic, null, ""));
        records.add(ScanRun.text(topic, null, null));
        records.add(ScanRun.text(topic, null, "{\"id\":6,\"price\":99999999.99,\"ratio\":1e-10,\"tiny\":-128}"));
        return records;
    }

    @Test
    void jsonWithARichSchemaReadsTheStockRows() throws Exception {
        String topic = ScanRun.topic("scan-rich", 1);
        ScanRun.produce(richRecords(topic));
        assertSameRead(RICH, "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    @Test
    void projectionsAndFiltersAboveTheSourceReadTheStockRows() throws Exception {
        String topic = ScanRun.topic("scan-query", 1);
        ScanRun.produce(richRecords(topic));
        assertSameRead(RICH, "kafka", "kjson-kafka", topic,
                "SELECT id, r.b, m['k1'], CARDINALITY(items) FROM t WHERE id IS NOT NULL AND id <> 2");
    }

    static final String TEMPORAL = "CREATE TABLE t (id INT, ts0 TIMESTAMP(0), ts1 TIMESTAMP(1), ts3 TIMESTAMP(3),\n"
            + "  ts5 TIMESTAMP(5), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9), ltz3 TIMESTAMP_LTZ(3), ltz6 TIMESTAMP_LTZ(6),\n"
            + "  ltz7 TIMESTAMP_LTZ(7), tm TIME, tm3 TIME(3), r ROW<t TIMESTAMP(2), u ARRAY<TIMESTAMP(4)>>\n"
            + ") WITH (\n  'connector' = '%1$s',\n  'topic' = '%2$s',\n" + BOUNDED
            + "  'format' = 'json'\n)";

    /**
     * Records with more digits than their columns declare: Flink's rows keep the milliseconds up
     * to precision 3 (precision 0 included), every digit from precision 4 on.
     */
    @Test
    void timestampsWithMoreDigitsThanTheColumnReadTheStockRows() throws Exception {
        String topic = ScanRun.topic("scan-temporal", 1);
        ScanRun.produce(List.of(
                ScanRun.text(topic, null, "{\"id\":1,\"ts0\":\"2024-02-29 23:59:58.987654\","
                        + "\"ts1\":\"2024-02-29 23:59:58.987654\","
                        + "\"ts3\":\"2024-02-29 23:59:58.123456789\",\"ts5\":\"1969-12-31 23:59:59.123456789\","
                        + "\"ts6\":\"2024-02-29 23:59:58.1234567\",\"ts9\":\"2024-02-29 23:59:58.123456789\","
                        + "\"ltz3\":\"2024-02-29 23:59:58.5Z\",\"ltz6\":\"2024-02-29 23:59:58.000000001Z\","
                        + "\"ltz7\":\"2024-02-29 23:59:58.123456789Z\",\"tm\":\"23:59:58.123\","
                        + "\"tm3\":\"12:00:00.123456\",\"r\":{\"t\":\"2000-01-01 00:00:00.999\","
                        + "\"u\":[\"2000-01-01 00:00:00.12345678\",null]}}"),
                ScanRun.text(topic, null, "{\"id\":2,\"ts0\":\"1969-12-31 23:59:59.5\",\"ts1\":\"1969-12-31 23:59:59.999\","
                        + "\"ts3\":\"1970-01-01 00:00:00\",\"ts6\":\"1970-01-01 00:00:00.000001\","
                        + "\"tm\":\"00:00:00\",\"tm3\":\"00:00:01.5\"}")));
        assertSameRead(TEMPORAL, "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    static final String MORE_TYPES = "CREATE TABLE t (id INT, c CHAR(3), v VARCHAR(5), b BINARY(2), vb VARBINARY(4),\n"
            + "  ms MULTISET<STRING>, nested MAP<STRING, ARRAY<MAP<STRING, INT>>>, deep ROW<a ROW<b ROW<c BIGINT>>>,\n"
            + "  big BIGINT, f FLOAT, dbl DOUBLE, dec0 DECIMAL(5, 0), dec38 DECIMAL(38, 0)\n"
            + ") WITH (\n  'connector' = '%1$s',\n  'topic' = '%2$s',\n" + BOUNDED
            + "  'format' = 'json',\n  'json.fail-on-missing-field' = 'false'\n)";

    @Test
    void moreTypesReadTheStockRows() throws Exception {
        String topic = ScanRun.topic("scan-types", 1);
        ScanRun.produce(List.of(
                ScanRun.text(topic, null, "{\"id\":1,\"c\":\"abcdef\",\"v\":\"\u00e9\u00e8\",\"b\":\"AAE=\","
                        + "\"vb\":\"/////w==\",\"ms\":{\"x\":2,\"y\":1},\"nested\":{\"k\":[{\"a\":1},null,{}]},"
                        + "\"deep\":{\"a\":{\"b\":{\"c\":9223372036854775807}}},\"big\":-9223372036854775808,"
                        + "\"f\":3.4028235E38,\"dbl\":-1.7976931348623157E308,\"dec0\":12345,"
                        + "\"dec38\":99999999999999999999999999999999999999}"),
                ScanRun.text(topic, null, "{\"id\":2,\"ms\":{},\"nested\":{},\"deep\":{\"a\":null},\"f\":1e-45,"
                        + "\"dbl\":4.9E-324,\"dec0\":-0.4}"),
                ScanRun.text(topic, null, "{\"id\":3,\"deep\":{\"a\":{\"b\":null}},\"dec0\":1.5}")));
        assertSameRead(MORE_TYPES, "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    /** Many small fetches on three partitions: the record boundaries of every native call. */
    @Test
    void manyFetchesReadTheStockRows() throws Exception {
        String topic = ScanRun.topic("scan-many", 3);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 6_000; i++) {
            String value = switch (i % 13) {
                case 0 -> null;
                case 1 -> "";
                // Several rows of one record where the line reads top-level arrays (Flink 2.x).
                case 2 -> FlinkLine.readsTopLevelJsonArrays() ? "[{\"id\":" + i + "},{\"id\":" + -i + "}]"
                        : "{\"id\":" + -i + "}";
                default -> "{\"id\":" + i + ",\"name\":" + (i % 5 == 0 ? "null" : "\"n" + i + "\"") + ",\"price\":"
                        + (i % 100) + "." + (i % 10) + ",\"tags\":[" + i % 3 + "]}";
            };
            records.add(new ProducerRecord<>(topic, i % 3, null, ScanRun.bytes(value)));
        }
        ScanRun.produceFast(records);
        String ddl = LENIENT.replace("%4$s", "false").replace("'format' = 'json',",
                "'properties.max.poll.records' = '37',\n  'format' = 'json',");
        Result stock = ScanRun.read(ddl, "kafka", topic, "SELECT * FROM t");
        Result kjson = ScanRun.read(ddl, "kjson-kafka", topic, "SELECT * FROM t");
        assertNull(stock.failure(), () -> "the stock read failed: " + ScanRun.causes(stock.failure()));
        assertNull(kjson.failure(), () -> "the kjson read failed: " + ScanRun.causes(kjson.failure()));
        assertTrue(stock.rows().size() > 5_000, "the stock source read the rows: " + stock.rows().size());
        assertEquals(stock.sortedLines(), kjson.sortedLines());
    }

    static final String KEYED = "CREATE TABLE t (\n"
            + "  k_id BIGINT, k_region STRING, name STRING, amount DECIMAL(12, 3),\n"
            + "  topic_name STRING METADATA FROM 'topic' VIRTUAL, part INT METADATA FROM 'partition' VIRTUAL,\n"
            + "  off BIGINT METADATA FROM 'offset' VIRTUAL, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',\n"
            + "  ts_type STRING METADATA FROM 'timestamp-type' VIRTUAL, headers MAP<STRING, BYTES> METADATA,\n"
            + "  epoch INT METADATA FROM 'leader-epoch' VIRTUAL\n"
            + ") WITH (\n  'connector' = '%1$s',\n  'topic' = '%2$s',\n" + BOUNDED
            + "  'key.format' = 'json',\n  'key.fields' = 'k_id;k_region',\n  'key.fields-prefix' = 'k_',\n"
            + "  'value.format' = 'json',\n  'value.fields-include' = 'EXCEPT_KEY'\n)";

    @Test
    void keyFieldsWithPrefixExceptKeyAndMetadataReadTheStockRows() throws Exception {
        String topic = ScanRun.topic("scan-keyed", 2);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String key = i % 7 == 3 ? null : "{\"id\":" + i + ",\"region\":\"r" + (i % 3) + "\"}";
            String value = i % 11 == 5 ? null : "{\"name\":\"n" + i + "\",\"amount\":" + i + ".125}";
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, i % 2, 1_700_000_000_000L + i * 1000L,
                    ScanRun.bytes(key), ScanRun.bytes(value));
            if (i % 4 == 0) {
                record.headers().add(new RecordHeader("h", ScanRun.bytes("v" + i)));
                record.headers().add(new RecordHeader("empty", null));
            }
            records.add(record);
        }
        ScanRun.produce(records);
        Result stock = ScanRun.read(KEYED, "kafka", topic, "SELECT * FROM t");
        Result kjson = ScanRun.read(KEYED, "kjson-kafka", topic, "SELECT * FROM t");
        assertNull(stock.failure(), () -> "the stock read failed: " + ScanRun.causes(stock.failure()));
        assertNull(kjson.failure(), () -> "the kjson read failed: " + ScanRun.causes(kjson.failure()));
        // Flink's source gives no row for a null key (key fields from no key row) nor for a null value.
        assertEquals(31, stock.rows().size(), "the stock source skips null keys and values");
        // Two partitions read by one reader: the order across partitions depends on the fetches.
        assertEquals(stock.sortedLines(), kjson.sortedLines());
    }

    static final String LENIENT = "CREATE TABLE t (id BIGINT, name STRING, price DECIMAL(5, 2), ts TIMESTAMP(3),\n"
            + "  tags ARRAY<INT>) WITH (\n  'connector' = '%1$s',\n  'topic' = '%2$s',\n" + BOUNDED
            + "  'format' = 'json',\n  'json.ignore-parse-errors' = '%4$s'\n)";

    static List<ProducerRecord<byte[], byte[]>> badRecords(String topic) {
        return List.of(ScanRun.text(topic, null, "{\"id\":1,\"name\":\"one\"}"),
                ScanRun.text(topic, null, "{\"id\":2,\"name\":"),
                ScanRun.text(topic, null, "{\"id\":\"three\",\"name\":\"bad id\"}"),
                ScanRun.text(topic, null, "{\"id\":4,\"ts\":\"not a time\",\"tags\":[1,\"x\",3]}"),
                ScanRun.text(topic, null, "{\"id\":5,\"price\":\"12.5\",\"tags\":[1,2]}"),
                ScanRun.text(topic, null, "[{\"id\":6},{\"id\":7}]"),
                ScanRun.text(topic, null, "not json at all"),
                // Null rows: Flink's deserializer hands them on and ignore-parse-errors swallows the failure.
                ScanRun.text(topic, null, "[null]"),
                ScanRun.text(topic, null, "[1]"),
                // A null row after good elements (2.x): those rows stay, the rest of the message goes.
                ScanRun.text(topic, null, "[{\"id\":10},5,{\"id\":11}]"),
                ScanRun.text(topic, null, "[{\"id\":12,\"name\":\"x\"},null]"),
                ScanRun.text(topic, null, "null"),
                ScanRun.text(topic, null, "5"),
                ScanRun.text(topic, null, "{\"id\":9,\"tags\":[1,\"x\"]}"),
                ScanRun.text(topic, null, "{\"id\":8}"));
    }

    @Test
    void ignoreParseErrorsSkipsWhatTheStockSourceSkips() throws Exception {
        String topic = ScanRun.topic("scan-lenient", 1);
        ScanRun.produce(badRecords(topic));
        assertSameRead(LENIENT.replace("%4$s", "true"), "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    @Test
    void aBadRecordFailsTheJobWithTheStockMessage() throws Exception {
        String topic = ScanRun.topic("scan-strict", 1);
        ScanRun.produce(badRecords(topic));
        String ddl = LENIENT.replace("%4$s", "false");
        Result stock = ScanRun.read(ddl, "kafka", topic, "SELECT * FROM t");
        Result kjson = ScanRun.read(ddl, "kjson-kafka", topic, "SELECT * FROM t");
        assertNotNull(stock.failure(), "the stock read fails on the malformed record");
        assertSameFailure(stock, kjson, "Failed to deserialize JSON '{\"id\":2,\"name\":'.");
    }

    /**
     * Both reads failed on the same record with the same messages: the emitter's, (connector 3.4)
     * the record's coordinates, and Flink's format message, which starts with {@code formatMessage}.
     * The rows before the failure are the same too.
     */
    static void assertSameFailure(Result stock, Result kjson, String formatMessage) {
        assertNotNull(kjson.failure(), "the kjson read fails as the stock read does");
        Throwable stockCause = deserializeFailure(stock.failure());
        Throwable kjsonCause = deserializeFailure(kjson.failure());
        String wrapper = "Failed to deserialize consumer record ConsumerRecord(";
        if (stockCause.getMessage().startsWith(wrapper)) {
            // Kafka connector 3.4 (Flink 1.20): a level naming the record, up to its key and value bytes.
            String named = stockCause.getMessage().substring(0, stockCause.getMessage().indexOf(", key = "));
            assertTrue(named.contains("partition = ") && named.contains("offset = "), named);
            String kjsonNamed = kjsonCause.getMessage();
            assertTrue(kjsonNamed.startsWith(named), () -> "kjson: " + kjsonNamed + "\nstock: " + named);
            stockCause = stockCause.getCause();
            kjsonCause = kjsonCause.getCause();
        }
        String stockMessage = stockCause.getMessage();
        String kjsonMessage = kjsonCause.getMessage();
        // Flink's format message ("Failed to deserialize JSON '<the record>'."), then the parser's cause.
        assertTrue(stockMessage.startsWith(formatMessage), stockMessage);
        assertTrue(kjsonMessage.startsWith(stockMessage), () -> "kjson: " + kjsonMessage + "\nstock: " + stockMessage);
        // The rows before the bad record reached the query in both (record 0), none after it.
        assertEquals(stock.lines(), kjson.lines());
    }

    /** The cause of the emitter's "Failed to deserialize consumer record due to" in the job's failure. */
    private static Throwable deserializeFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if ("Failed to deserialize consumer record due to".equals(t.getMessage())) {
                assertNotNull(t.getCause(), "the emitter's failure has the format's cause");
                return t.getCause();
            }
        }
        throw new AssertionError("no deserialization failure in the job's failure", failure);
    }

    static final String CDC = "CREATE TABLE t (id BIGINT, name STRING, weight DOUBLE, ts TIMESTAMP(3)) WITH (\n"
            + "  'connector' = '%1$s',\n  'topic' = '%2$s',\n" + BOUNDED
            + "  'format' = '%4$s'\n)";

    @Test
    void debeziumJsonChangelogReadsTheStockRows() throws Exception {
        String topic = ScanRun.topic("scan-debezium", 1);
        String row1 = "{\"id\":1,\"name\":\"scooter\",\"weight\":3.14,\"ts\":\"2024-01-01 10:00:00.5\"}";
        String row1b = "{\"id\":1,\"name\":\"scooter\",\"weight\":5.1,\"ts\":null}";
        String row2 = "{\"id\":2,\"name\":\"car battery\",\"weight\":8.1}";
        ScanRun.produce(List.of(
                ScanRun.text(topic, null, "{\"before\":null,\"after\":" + row1 + ",\"op\":\"c\"}"),
                ScanRun.text(topic, null, "{\"before\":null,\"after\":" + row2 + ",\"op\":\"r\"}"),
                ScanRun.text(topic, null, "{\"before\":" + row1 + ",\"after\":" + row1b + ",\"op\":\"u\"}"),
                ScanRun.text(topic, null, "{\"before\":" + row2 + ",\"after\":null,\"op\":\"d\"}"),
                ScanRun.text(topic, null, null),
                ScanRun.text(topic, null, "{\"before\":null,\"after\":{\"id\":3},\"op\":\"c\","
                        + "\"source\":{\"db\":\"inventory\"},\"ts_ms\":1}")));
        assertSameRead(CDC.replace("%4$s", "debezium-json"), "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    @Test
    void canalJsonChangelogReadsTheStockRows() throws Exception {
        String topic = ScanRun.topic("scan-canal", 1);
        ScanRun.produce(List.of(
                ScanRun.text(topic, null, "{\"data\":[{\"id\":1,\"name\":\"a\",\"weight\":1.5},{\"id\":2,\"name\":\"b\"}],"
                        + "\"old\":null,\"type\":\"INSERT\",\"database\":\"db\",\"table\":\"t\"}"),
                ScanRun.text(topic, null, "{\"data\":[{\"id\":1,\"name\":\"a2\",\"weight\":2.5}],"
                        + "\"old\":[{\"name\":\"a\",\"weight\":1.5}],\"type\":\"UPDATE\"}"),
                ScanRun.text(topic, null, "{\"data\":[{\"id\":2,\"name\":\"b\"}],\"old\":null,\"type\":\"DELETE\"}"),
                ScanRun.text(topic, null, "{\"data\":null,\"type\":\"CREATE\",\"isDdl\":true,\"sql\":\"CREATE TABLE\"}")));
        assertSameRead(CDC.replace("%4$s", "canal-json"), "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    @Test
    void maxwellJsonChangelogReadsTheStockRows() throws Exception {
        String topic = ScanRun.topic("scan-maxwell", 1);
        ScanRun.produce(List.of(
                ScanRun.text(topic, null, "{\"database\":\"db\",\"table\":\"t\",\"type\":\"insert\","
                        + "\"data\":{\"id\":1,\"name\":\"a\",\"weight\":1.5}}"),
                ScanRun.text(topic, null, "{\"type\":\"update\",\"data\":{\"id\":1,\"name\":\"a2\",\"weight\":1.5},"
                        + "\"old\":{\"name\":\"a\"}}"),
                ScanRun.text(topic, null, "{\"type\":\"delete\",\"data\":{\"id\":1,\"name\":\"a2\"}}")));
        assertSameRead(CDC.replace("%4$s", "maxwell-json"), "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    @Test
    void oggJsonChangelogReadsTheStockRows() throws Exception {
        String topic = ScanRun.topic("scan-ogg", 1);
        ScanRun.produce(List.of(
                ScanRun.text(topic, null, "{\"table\":\"s.t\",\"op_type\":\"I\",\"before\":null,"
                        + "\"after\":{\"id\":1,\"name\":\"a\",\"weight\":1.5}}"),
                ScanRun.text(topic, null, "{\"op_type\":\"U\",\"before\":{\"id\":1,\"name\":\"a\",\"weight\":1.5},"
                        + "\"after\":{\"id\":1,\"name\":\"b\",\"weight\":2.5}}"),
                ScanRun.text(topic, null, "{\"op_type\":\"D\",\"before\":{\"id\":1,\"name\":\"b\"},\"after\":null}")));
        assertSameRead(CDC.replace("%4$s", "ogg-json"), "kafka", "kjson-kafka", topic, "SELECT * FROM t");
    }

    /**
     * A changelog format wraps any failure of a message (here a wrong-typed field of its row) in
     * its own message, "Corrupt Debezium JSON message '<the record>'." and the like.
     */
    @Test
    void aBadChangelogMessageFailsTheJobWithTheFormatsMessage() throws Exception {
        String[][] cases = {
            {"debezium-json", "Debezium", "{\"before\":null,\"after\":{\"id\":\"x\"},\"op\":\"c\"}"},
            {"canal-json", "Canal", "{\"data\":[{\"id\":\"x\"}],\"type\":\"INSERT\"}"},
            {"maxwell-json", "Maxwell", "{\"data\":{\"id\":\"x\"},\"type\":\"insert\"}"},
            {"ogg-json", "Ogg", "{\"before\":null,\"after\":{\"id\":\"x\"},\"op_type\":\"I\"}"},
        };
        for (String[] c : cases) {
            String topic = ScanRun.topic("scan-bad-" + c[0], 1);
            ScanRun.produce(List.of(ScanRun.text(topic, null, c[2])));
            String ddl = String.format(CDC.replace("%4$s", c[0]), "%1$s", topic, SharedBroker.get().bootstrapServers());
            Result stock = SharedScanCluster.read(String.format(ddl, "kafka"), "SELECT * FROM t");
            Result kjson = SharedScanCluster.read(String.format(ddl, "kjson-kafka"), "SELECT * FROM t");
            assertNotNull(stock.failure(), "the stock read fails on the " + c[0] + " message");
            assertSameFailure(stock, kjson, "Corrupt " + c[1] + " JSON message '" + c[2] + "'.");
        }
    }

    /**
     * A row the operator after the source refuses (a null for a NOT NULL column): Flink's rows go
     * downstream inside the deserializer's call, so the stock job fails with the emitter's
     * messages around the operator's; kjson's emitter wraps it the same way. Known difference:
     * where the format's own call wraps it too (json on 2.x: "Failed to deserialize JSON
     * '<record>'."), kjson has no such level.
     */
    @Test
    void aFailureDownstreamOfTheSourceHasTheStockMessages() throws Exception {
        String topic = ScanRun.topic("scan-not-null", 1);
        ScanRun.produce(List.of(ScanRun.text(topic, null, "{\"id\":2}"), ScanRun.text(topic, null, "{\"id\":3}")));
        String ddl = String.format("CREATE TABLE t (id BIGINT, name STRING NOT NULL) WITH (\n"
                + "  'connector' = '%%s',\n  'topic' = '%s',\n  'properties.bootstrap.servers' = '%s',\n"
                + "  'scan.startup.mode' = 'earliest-offset',\n  'scan.bounded.mode' = 'latest-offset',\n"
                + "  'format' = 'json'\n)", topic, SharedBroker.get().bootstrapServers());
        Result stock = SharedScanCluster.read(String.format(ddl, "kafka"), "SELECT * FROM t");
        Result kjson = SharedScanCluster.read(String.format(ddl, "kjson-kafka"), "SELECT * FROM t");
        assertNotNull(stock.failure(), "the stock job fails on the null name");
        assertNotNull(kjson.failure(), "the kjson job fails on the null name");
        List<String> stockCauses = causesBelowEmitter(stock.failure());
        List<String> kjsonCauses = causesBelowEmitter(kjson.failure());
        assertEquals(stockCauses.get(stockCauses.size() - 1), kjsonCauses.get(kjsonCauses.size() - 1));
        assertTrue(stockCauses.containsAll(kjsonCauses), () -> "kjson: " + kjsonCauses + "\nstock: " + stockCauses);
    }

    /**
     * Each cause under the emitter's "Failed to deserialize consumer record due to", the record's
     * level (1.20) without its key and value.
     */
    private static List<String> causesBelowEmitter(Throwable failure) {
        List<String> causes = new ArrayList<>();
        for (Throwable t = deserializeFailure(failure); t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            causes.add(t.getClass().getName() + ": "
                    + (message.contains(", key = ") ? message.substring(0, message.indexOf(", key = ")) : message));
        }
        return causes;
    }

    static final String UPSERT = "CREATE TABLE t (id BIGINT, region STRING, name STRING, score DOUBLE,\n"
            + "  PRIMARY KEY (id, region) NOT ENFORCED) WITH (\n  'connector' = '%1$s',\n  'topic' = '%2$s',\n"
            + "  'properties.bootstrap.servers' = '%3$s',\n  'scan.bounded.mode' = 'latest-offset',\n"
            + "  'key.format' = 'json',\n  'value.format' = 'json',\n  'value.fields-include' = 'EXCEPT_KEY'\n)";

    @Test
    void upsertKafkaWithTombstonesReadsTheStockChangelog() throws Exception {
        String topic = ScanRun.topic("scan-upsert", 1);
        ScanRun.produce(List.of(
                ScanRun.text(topic, "{\"id\":1,\"region\":\"eu\"}", "{\"name\":\"one\",\"score\":1.0}"),
                ScanRun.text(topic, "{\"id\":2,\"region\":\"us\"}", "{\"name\":\"two\",\"score\":2.0}"),
                ScanRun.text(topic, "{\"id\":1,\"region\":\"eu\"}", "{\"name\":\"one again\",\"score\":1.5}"),
                ScanRun.text(topic, "{\"id\":2,\"region\":\"us\"}", null),
                ScanRun.text(topic, "{\"id\":3,\"region\":\"eu\"}", null),
                ScanRun.text(topic, "{\"id\":3,\"region\":\"eu\"}", "{\"name\":\"three\"}"),
                ScanRun.text(topic, "{\"id\":1,\"region\":\"eu\"}", null)));
        Result stock = assertSameRead(UPSERT, "upsert-kafka", "kjson-upsert-kafka", topic, "SELECT * FROM t");
        assertTrue(stock.lines().stream().anyMatch(line -> line.startsWith("-D")), stock.lines()::toString);
    }

    /** Reads the topic with both connectors; asserts the same rows in the same order; returns the stock read. */
    static Result assertSameRead(String ddl, String stockConnector, String kjsonConnector, String topic,
            String query) throws Exception {
        Result stock = ScanRun.read(ddl, stockConnector, topic, query);
        long decodedBefore = ScanRun.recordsDecoded();
        Result kjson = ScanRun.read(ddl, kjsonConnector, topic, query);
        assertTrue(ScanRun.recordsDecoded() > decodedBefore, "the kjson read decoded natively (kjsonRecordsDecoded)");
        assertNull(stock.failure(), () -> "the stock read failed: " + ScanRun.causes(stock.failure()));
        assertNull(kjson.failure(), () -> "the kjson read failed: " + ScanRun.causes(kjson.failure()));
        assertFalse(stock.rows().isEmpty(), "the stock connector read no rows: the comparison would be empty");
        assertEquals(stock.lines(), kjson.lines());
        assertEquals(stock.rows(), kjson.rows()); // deep equality (arrays, maps), RowKinds included
        return stock;
    }
}
