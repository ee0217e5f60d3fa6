package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;

/**
 * Planning {@code SELECT} from kjson tables (no job runs): what kjson's source refuses, and that
 * Flink's own rules and messages apply to the scan options as for {@code kafka}.
 */
class ScanPlanningTest {
    private static final String COLUMNS = "id BIGINT, name STRING";
    private static final String BASE = "'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092'";

    private static String plan(String connector, String columns, String options) {
        TableEnvironment tableEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tableEnv.executeSql("CREATE TABLE t (" + columns + ") WITH ('connector' = '" + connector + "', " + BASE + ", "
                + options + ")");
        return tableEnv.explainSql("SELECT * FROM t", ExplainDetail.JSON_EXECUTION_PLAN);
    }

    private static String refusal(String connector, String columns, String options) {
        ValidationException e = assertThrows(ValidationException.class, () -> plan(connector, columns, options));
        StringBuilder messages = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        return messages.toString();
    }

    @Test
    void validTablesPlanAsTheStockConnectorsDo() {
        String options = "'format' = 'json', 'scan.startup.mode' = 'earliest-offset'";
        assertEquals(optimized(plan("kafka", COLUMNS, options)), optimized(plan("kjson-kafka", COLUMNS, options)));
        String upsertColumns = COLUMNS + ", PRIMARY KEY (id) NOT ENFORCED";
        String upsertOptions = "'key.format' = 'json', 'value.format' = 'json'";
        assertEquals(optimized(plan("upsert-kafka", upsertColumns, upsertOptions)),
                optimized(plan("kjson-upsert-kafka", upsertColumns, upsertOptions)));
    }

    /** The optimized execution plan of an explanation (the planner's ids left out). */
    private static String optimized(String explanation) {
        int start = explanation.indexOf("== Optimized Execution Plan ==");
        int end = explanation.indexOf("== Physical Execution Plan ==");
        assertTrue(start >= 0 && end > start, explanation);
        return explanation.substring(start, end);
    }

    @Test
    void aValueFormatKjsonDoesNotDecodeIsRefusedByName() {
        String message = refusal("kjson-kafka", COLUMNS, "'format' = 'csv'");
        assertTrue(message.contains("option 'format' = 'csv' is not a format kjson decodes")
                && message.contains("use 'connector' = 'kafka'"), message);
    }

    @Test
    void aKeyFormatOtherThanJsonIsRefusedByName() {
        String message = refusal("kjson-kafka", COLUMNS,
                "'key.format' = 'raw', 'key.fields' = 'name', 'value.format' = 'json'");
        assertTrue(message.contains("option 'key.format' = 'raw' is not a format kjson decodes"), message);
        String upsert = refusal("kjson-upsert-kafka", COLUMNS + ", PRIMARY KEY (id) NOT ENFORCED",
                "'key.format' = 'raw', 'value.format' = 'json'");
        assertTrue(upsert.contains("use 'connector' = 'upsert-kafka'"), upsert);
    }

    @Test
    void oggJsonTimestampMetadataPlansAsTheStockConnectorDoes() {
        String columns = COLUMNS + ", op_ts TIMESTAMP_LTZ(6) METADATA FROM 'value.event-timestamp' VIRTUAL,"
                + " cur TIMESTAMP_LTZ(3) METADATA FROM 'value.ingestion-timestamp' VIRTUAL";
        String options = "'format' = 'ogg-json', 'scan.startup.mode' = 'earliest-offset'";
        assertEquals(optimized(plan("kafka", columns, options)), optimized(plan("kjson-kafka", columns, options)));
    }

    @Test
    void valueFormatMetadataPlansAsTheStockConnectorDoes() {
        String columns = COLUMNS + ", src_ts TIMESTAMP_LTZ(3) METADATA FROM 'value.source.timestamp' VIRTUAL,"
                + " part INT METADATA FROM 'partition' VIRTUAL, db STRING METADATA FROM 'value.source.database' VIRTUAL";
        String options = "'format' = 'debezium-json', 'scan.startup.mode' = 'earliest-offset'";
        assertEquals(optimized(plan("kafka", columns, options)), optimized(plan("kjson-kafka", columns, options)));
    }

    @Test
    void theReadmeSourceExamplePlansAsTheStockConnectorDoes() throws IOException {
        assertEquals(optimized(planReadmeSource("kafka")), optimized(planReadmeSource("kjson-kafka")));
    }

    /** The README's {@code CREATE TABLE orders} and the query after it, planned with {@code connector}. */
    private static String planReadmeSource(String connector) throws IOException {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.exists(root.resolve("Cargo.toml"))) {
            root = root.getParent();
        }
        String readme = Files.readString(root.resolve("README.md"));
        int start = readme.indexOf("CREATE TABLE orders");
        int end = readme.indexOf(");", start) + 1;
        int query = readme.indexOf("SELECT ", end);
        assertTrue(start >= 0 && end > start && query > end, "README.md has no source example");
        TableEnvironment tableEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tableEnv.executeSql(readme.substring(start, end).replace("'kjson-kafka'", "'" + connector + "'"));
        return tableEnv.explainSql(readme.substring(query, readme.indexOf(';', query)),
                ExplainDetail.JSON_EXECUTION_PLAN);
    }

    @Test
    void everyTimestampPrecisionPlans() {
        plan("kjson-kafka", COLUMNS + ", a TIMESTAMP(0), b TIMESTAMP_LTZ(9), c TIMESTAMP(6), d ARRAY<ROW<t TIMESTAMP(5)>>",
                "'format' = 'json', 'scan.startup.mode' = 'earliest-offset'");
    }

    @Test
    void scanOptionsGetFlinksMessages() {
        String stock = refusal("kafka", COLUMNS, "'format' = 'json', 'scan.startup.mode' = 'sometime'");
        String kjson = refusal("kjson-kafka", COLUMNS, "'format' = 'json', 'scan.startup.mode' = 'sometime'");
        String flinkMessage = stock.lines().filter(line -> line.contains("sometime")).findFirst().orElseThrow();
        assertTrue(kjson.contains(flinkMessage), "kjson:\n" + kjson + "\nstock:\n" + stock);
        assertTrue(kjson.contains("with 'connector' = 'kjson-kafka' takes the options of 'kafka'"), kjson);
    }

    @Test
    void unknownMetadataKeysGetFlinksMessage() {
        String stock = refusal("kafka", COLUMNS + ", x STRING METADATA FROM 'nope'", "'format' = 'json'");
        String kjson = refusal("kjson-kafka", COLUMNS + ", x STRING METADATA FROM 'nope'", "'format' = 'json'");
        // Flink's message, naming the source class and the keys it reads: the stock source's keys.
        assertEquals(stock.lines().findFirst().orElseThrow().replace(
                "org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource",
                "org.kjson.flink.sql.source.KjsonKafkaDynamicSource"), kjson.lines().findFirst().orElseThrow());
        assertEquals(stock.lines().skip(1).toList(), kjson.lines().skip(1).toList());
    }
}
