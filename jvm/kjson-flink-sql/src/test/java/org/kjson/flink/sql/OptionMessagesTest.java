package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Planning messages a user gets for mistakes in a kjson table: kjson's own options are named with
 * 'kjson-kafka' and listed, every bad kjson option is reported at once, Flink's list of supported
 * options is completed with kjson's, a memory limit too small for one row is refused before the
 * job runs, and the refusals that remain name the stock connector to use.
 */
class OptionMessagesTest {
    private static final String COLUMNS = "(id BIGINT, name STRING, ts TIMESTAMP(3))";
    private static TableEnvironment tableEnv;
    private static int tables;

    @BeforeAll
    static void createSource() {
        tableEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tableEnv.executeSql("CREATE TABLE src " + COLUMNS + " WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    }

    @Test
    void aTypoInAKjsonOptionNamesKjsonKafkaAndListsKjsonsOptions() {
        String message = planningError("'format' = 'json', 'kjson.batch-row' = '512'");
        assertTrue(message.contains("with 'connector' = 'kjson-kafka' has 1 invalid kjson option:"), message);
        assertTrue(message.contains("unknown option 'kjson.batch-row'"), message);
        assertTrue(message.contains("The kjson options of 'kjson-kafka' are: kjson.arrow-memory-limit,"
                + " kjson.batch-interval, kjson.batch-rows, kjson.native."), message);
        assertFalse(message.contains("for 'kafka'"), message);
    }

    @Test
    void everyBadKjsonOptionIsReportedAtOnce() {
        String message = planningError("'format' = 'json', 'kjson.batch-rows' = '0', 'kjson.native' = 'maybe',"
                + " 'kjson.batchrows' = '5', 'kjson.batch-interval' = 'soon'");
        assertTrue(message.contains("has 4 invalid kjson options:"), message);
        for (String bad : List.of("'kjson.batchrows'", "'kjson.batch-rows'", "'kjson.native'", "'kjson.batch-interval'")) {
            assertTrue(message.contains(bad), bad + " in " + message);
        }
    }

    @Test
    void flinksUnsupportedOptionsMessageListsKjsonsOptionsToo() {
        String message = planningError("'format' = 'json', 'sink.flush-everything' = 'true'");
        assertTrue(message.contains("Unsupported options") && message.contains("sink.flush-everything"), message);
        assertTrue(message.contains("Besides these, 'kjson-kafka' takes kjson's own options: kjson.arrow-memory-limit,"),
                message);
    }

    @Test
    void aMemoryLimitTooSmallForOneRowIsRefusedAtPlanning() {
        String message = planningError("'format' = 'json', 'kjson.arrow-memory-limit' = '1 kb'");
        assertTrue(message.contains("option 'kjson.arrow-memory-limit' = 1024 bytes is too small for the Arrow buffers"
                + " of one row"), message);
    }

    @Test
    void theRemainingRefusalsNameTheStockConnector() {
        String message = planningError("'format' = 'csv'");
        assertTrue(message.contains("'format' = 'csv'") && message.contains("use 'connector' = 'kafka'"), message);
    }

    private static String planningError(String options) {
        String name = "sink_" + (++tables);
        tableEnv.executeSql("CREATE TABLE " + name + " " + COLUMNS + " WITH ('connector' = 'kjson-kafka', 'topic' = 't',"
                + " 'properties.bootstrap.servers' = '127.0.0.1:9', " + options + ")");
        ValidationException error = assertThrows(ValidationException.class,
                () -> tableEnv.explainSql("INSERT INTO " + name + " SELECT * FROM src"));
        List<String> messages = new ArrayList<>();
        for (Throwable t = error; t != null; t = t.getCause()) {
            messages.add(t.getClass().getSimpleName() + ": " + t.getMessage());
        }
        return String.join("\n caused by ", messages);
    }
}
