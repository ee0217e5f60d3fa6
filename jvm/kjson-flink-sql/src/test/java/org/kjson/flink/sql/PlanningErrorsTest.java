package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.support.FlinkLine;

/**
 * Planning (no job runs, no broker needed): what the native path cannot write byte-identically
 * is refused with a {@link ValidationException} naming the option, column or type; what stock
 * Flink refuses is refused with Flink's own message; a valid table plans.
 */
class PlanningErrorsTest {
    private static TableEnvironment tableEnv;
    private static int tables;

    @BeforeAll
    static void createSource() {
        tableEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tableEnv.executeSql("CREATE TABLE src (id BIGINT, name STRING, ts TIMESTAMP(3))"
                + " WITH ('connector' = 'datagen', 'number-of-rows' = '10')");
    }

    @Test
    void validTablesPlan() {
        assertKjsonOperatorsIn(plan("kjson-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))", "'format' = 'json'"));
        assertKjsonOperatorsIn(plan("kjson-upsert-kafka",
                "(id BIGINT, name STRING, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED)",
                "'key.format' = 'json', 'value.format' = 'json', 'value.json.encode.ignore-null-fields' = 'true'"));
    }

    /** The stock 'kafka' connector's plan has neither: the check sees which sink was planned. */
    @Test
    void stockKafkaPlansWithoutTheKjsonOperator() {
        String plan = plan("kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))", "'format' = 'json'");
        assertFalse(plan.contains("kjson-encode"), plan);
    }

    /** The execution plan (the operators the sink translates to) holds kjson's encoder and its Kafka writer. */
    private static void assertKjsonOperatorsIn(String plan) {
        assertTrue(plan.matches("(?s).*\"sink_\\d+: kjson-encode\".*"), plan);
        assertTrue(plan.matches("(?s).*\"sink_\\d+: Writer\".*"), plan);
    }

    /** Writable metadata, topic lists and patterns, and partitioner classes plan as for the stock sink. */
    @Test
    void metadataTopicListsPatternsAndPartitionerClassesPlan() {
        String metadata = "(id BIGINT, kafka_ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', name STRING,"
                + " headers MAP<STRING, BYTES> METADATA, tp STRING METADATA FROM 'topic')";
        String query = "SELECT id, CAST(ts AS TIMESTAMP_LTZ(3)), name, MAP['h', CAST(name AS BYTES)], 'a' FROM src";
        assertTrue(plan("kjson-kafka", metadata, "'format' = 'json'", "'topic' = 'a;b'", query).contains(": kjson-encode\""));
        assertTrue(plan("kjson-kafka", metadata, "'format' = 'json'", "'topic-pattern' = '[ab]'", query)
                .contains(": kjson-encode\""));
        assertTrue(plan("kjson-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))", "'format' = 'json', 'sink.partitioner'"
                + " = 'org.apache.flink.streaming.connectors.kafka.partitioner.FlinkFixedPartitioner'", null, "SELECT * FROM src")
                .contains(": kjson-encode\""));
    }

    /** The planner checks metadata columns against the keys and types the sink lists: the stock sink's. */
    @Test
    void metadataColumnsAreCheckedAsForTheStockSink() {
        String topicColumn = "(id BIGINT, name STRING, tp STRING METADATA FROM 'topic')";
        assertSameErrorAsStock(topicColumn, "SELECT id, name, 'a' FROM src", "Invalid metadata key 'topic'");
        String wrongType = "(id BIGINT, name STRING, hdrs ARRAY<INT> METADATA FROM 'headers')";
        assertSameErrorAsStock(wrongType, "SELECT id, name, ARRAY[1] FROM src", "hdrs");
    }

    /** Both connectors refuse {@code columns} with the same message (the table and sink class names aside). */
    private static void assertSameErrorAsStock(String columns, String query, String expected) {
        String stock = planningError("kafka", columns, "'format' = 'json'", null, query);
        String kjson = planningError("kjson-kafka", columns, "'format' = 'json'", null, query);
        assertTrue(stock.contains(expected), stock);
        assertEquals(withoutNames(stock), withoutNames(kjson));
    }

    private static String withoutNames(String message) {
        return message.replaceAll("sink_\\d+", "<table>").replaceAll("'[\\w.$]+DynamicSink'", "'<sink class>'");
    }

    /** upsert-kafka's reducing buffer plans, as a buffer operator before the encoder. */
    @Test
    void upsertBufferFlushPlans() {
        String plan = plan("kjson-upsert-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED)",
                "'key.format' = 'json', 'value.format' = 'json', 'sink.buffer-flush.max-rows' = '100',"
                        + " 'sink.buffer-flush.interval' = '1 s'");
        assertTrue(plan.contains("\"kjson-upsert-buffer\"") && plan.contains(": kjson-encode\""), plan);
    }

    /** Keys in other formats are written by Flink's serializer (KeyFormatsTest); the plan is kjson's. */
    @Test
    void keyFormatKjsonDoesNotEncodePlans() {
        assertKjsonOperatorsIn(plan("kjson-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))",
                "'key.format' = 'raw', 'key.fields' = 'name', 'key.raw.charset' = 'UTF-16BE', 'value.format' = 'json'"));
    }

    @Test
    void unknownKeyFormatGetsFlinksMessage() {
        String message = planningError("kjson-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))",
                "'key.format' = 'no-such-format', 'key.fields' = 'name', 'value.format' = 'json'");
        assertTrue(message.contains("'no-such-format'") && message.contains("key.format"), message);
    }

    @Test
    void badNativeOptionIsRefusedByName() {
        String message = planningError("kjson-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))",
                "'format' = 'json', 'kjson.native' = 'maybe'");
        assertTrue(message.contains("Option 'kjson.native' of 'kjson-kafka' must be 'required' or 'fallback',"
                + " found 'maybe'"), message);
    }

    @Test
    void valueFormatKjsonDoesNotEncodeNamesTheOptionAsWritten() {
        String message = planningError("kjson-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))", "'format' = 'csv'");
        assertTrue(message.contains("option 'format' = 'csv' is not a format kjson encodes; kjson encodes values in the"
                + " formats 'json', 'debezium-json', 'canal-json', 'maxwell-json', 'ogg-json'"), message);
        assertTrue(message.contains("use 'connector' = 'kafka'"), message);

        String upsert = planningError("kjson-upsert-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED)",
                "'key.format' = 'json', 'value.format' = 'avro'");
        assertTrue(upsert.contains("option 'value.format' = 'avro' is not a format kjson encodes"), upsert);
        assertTrue(upsert.contains("use 'connector' = 'upsert-kafka'"), upsert);
    }

    @Test
    void typeTheEncoderCannotWriteIsRefusedByName() {
        assumeTrue(FlinkLine.hasVariantType(), "VARIANT exists from Flink 2.1 on");
        String message = planningError("kjson-kafka", "(id BIGINT, name STRING, doc VARIANT)",
                "'format' = 'json'", null, "SELECT id, name, PARSE_JSON(name) FROM src");
        assertTrue(message.contains("cannot be written byte-identically") && message.contains("VARIANT"), message);
    }

    @Test
    void invalidJsonOptionGetsFlinksMessage() {
        String message = planningError("kjson-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))",
                "'format' = 'json', 'json.timestamp-format.standard' = 'RFC-3339'");
        assertTrue(message.contains("timestamp-format.standard") && message.contains("RFC-3339"), message);
    }

    @Test
    void unknownOptionGetsFlinksMessage() {
        String message = planningError("kjson-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))",
                "'format' = 'json', 'sink.flush-everything' = 'true'");
        assertTrue(message.contains("Unsupported options") && message.contains("sink.flush-everything"), message);
    }

    @Test
    void missingPrimaryKeyGetsFlinksMessage() {
        String message = planningError("kjson-upsert-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))",
                "'key.format' = 'json', 'value.format' = 'json'");
        assertTrue(message.contains("require to define a PRIMARY KEY"), message);
    }

    @Test
    void badBatchRowsIsRefusedByName() {
        String message = planningError("kjson-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))",
                "'format' = 'json', 'kjson.batch-rows' = '0'");
        assertTrue(message.contains("'kjson.batch-rows'"), message);
    }

    @Test
    void badBatchIntervalAndMemoryLimitAreRefusedByName() {
        for (String[] bad : new String[][] {{"kjson.batch-interval", "soon"}, {"kjson.batch-interval", "-1 s"},
                {"kjson.arrow-memory-limit", "lots"}, {"kjson.arrow-memory-limit", "0 b"}}) {
            String message = planningError("kjson-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))",
                    "'format' = 'json', '" + bad[0] + "' = '" + bad[1] + "'");
            assertTrue(message.contains("'" + bad[0] + "'") && message.contains("'" + bad[1] + "'"), message);
        }
    }

    /** An updating query into an append-only sink: the planner refuses it as for the stock sink. */
    @Test
    void updatingQueryIsRefusedAsForTheStockSink() {
        String query = "SELECT id, MAX(name), MAX(ts) FROM src GROUP BY id";
        String stock = planningFailure("kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))", "'format' = 'json'", null, query);
        String kjson = planningFailure("kjson-kafka", "(id BIGINT, name STRING, ts TIMESTAMP(3))", "'format' = 'json'", null, query);
        assertTrue(kjson.contains("doesn't support consuming update changes"), kjson);
        assertEquals(stock.replaceAll("sink_\\d+", "sink"), kjson.replaceAll("sink_\\d+", "sink"));
    }

    private static String planningError(String connector, String columns, String options) {
        return planningError(connector, columns, options, null, "SELECT * FROM src");
    }

    private static String planningError(String connector, String columns, String options, String topicOption) {
        return planningError(connector, columns, options, topicOption, "SELECT * FROM src");
    }

    /** Plans the insert and returns the messages of the ValidationException and its causes. */
    private static String planningError(String connector, String columns, String options, String topicOption, String query) {
        String name = createSink(connector, columns, options, topicOption);
        ValidationException error = assertThrows(ValidationException.class,
                () -> tableEnv.explainSql("INSERT INTO " + name + " " + query));
        return messages(error);
    }

    private static String planningFailure(String connector, String columns, String options, String topicOption, String query) {
        String name = createSink(connector, columns, options, topicOption);
        Exception error = assertThrows(Exception.class, () -> tableEnv.explainSql("INSERT INTO " + name + " " + query));
        assertInstanceOf(org.apache.flink.table.api.TableException.class, error);
        return error.getMessage();
    }

    /** Plans the insert down to the operators (the JSON execution plan) and returns that plan. */
    private static String plan(String connector, String columns, String options) {
        return plan(connector, columns, options, null, "SELECT * FROM src");
    }

    private static String plan(String connector, String columns, String options, String topicOption, String query) {
        String name = createSink(connector, columns, options, topicOption);
        return tableEnv.explainSql("INSERT INTO " + name + " " + query, ExplainDetail.JSON_EXECUTION_PLAN);
    }

    private static String createSink(String connector, String columns, String options, String topicOption) {
        String name = "sink_" + (++tables);
        tableEnv.executeSql("CREATE TABLE " + name + " " + columns + " WITH ('connector' = '" + connector + "', "
                + (topicOption == null ? "'topic' = 'events'" : topicOption)
                + ", 'properties.bootstrap.servers' = '127.0.0.1:9', " + options + ")");
        return name;
    }

    private static String messages(Throwable error) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = error; t != null; t = t.getCause()) {
            messages.add(t.getClass().getSimpleName() + ": " + t.getMessage());
        }
        return String.join("\n caused by ", messages);
    }
}
