package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.kjson.flink.NativeJsonEncoder;
import org.kjson.flink.sql.support.FlinkLine;

/**
 * A SQL client on a machine where the native library cannot load (a laptop of another
 * platform) still plans kjson tables: Flink's and kjson's Java checks run, the native ones move
 * to the task. Runs in its own surefire execution with {@code -Dkjson.native.path} pointing at
 * a file that is not a library.
 */
class PlanningWithoutNativeLibraryTest {
    private static TableEnvironment tableEnv;

    @BeforeAll
    static void createSource() {
        Configuration config = new Configuration();
        config.setString("restart-strategy.type", "none");
        tableEnv = TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().withConfiguration(config).build());
        tableEnv.executeSql("CREATE TABLE src (id BIGINT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3')");
        tableEnv.executeSql("CREATE TABLE append_sink (id BIGINT, name STRING) WITH ('connector' = 'kjson-kafka',"
                + " 'topic' = 'events', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'debezium-json')");
        tableEnv.executeSql("CREATE TABLE upsert_sink (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ("
                + " 'connector' = 'kjson-upsert-kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '127.0.0.1:9',"
                + " 'key.format' = 'json', 'value.format' = 'json')");
        tableEnv.executeSql("CREATE TABLE csv_sink (id BIGINT, name STRING) WITH ('connector' = 'kjson-kafka',"
                + " 'topic' = 'events', 'properties.bootstrap.servers' = '127.0.0.1:9', 'value.format' = 'csv')");
    }

    @Test
    void theNativeLibraryReallyCannotLoadHere() {
        UnsatisfiedLinkError error = assertThrows(UnsatisfiedLinkError.class, NativeJsonEncoder::openHandleCount);
        assertTrue(error.getMessage().startsWith("cannot load the kjson native library from "), error.getMessage());
    }

    @Test
    void tablesPlanWithTheJavaChecks() {
        String append = tableEnv.explainSql("INSERT INTO append_sink SELECT * FROM src");
        String upsert = tableEnv.explainSql("INSERT INTO upsert_sink SELECT * FROM src");
        assertTrue(append.contains("append_sink"), append);
        assertTrue(upsert.contains("upsert_sink"), upsert);
    }

    @Test
    void javaChecksStillRefuseAtPlanning() {
        ValidationException error = assertThrows(ValidationException.class,
                () -> tableEnv.explainSql("INSERT INTO csv_sink SELECT * FROM src"));
        assertTrue(messages(error).contains("option 'value.format' = 'csv' is not a format kjson encodes"), messages(error));
    }

    /** The Arrow carriage is checked in Java: a type kjson cannot carry is refused while planning, library or not. */
    @Test
    void typeKjsonCannotCarryIsRefusedAtPlanning() {
        assumeTrue(FlinkLine.hasVariantType(), "VARIANT exists from Flink 2.1 on");
        tableEnv.executeSql("CREATE TABLE variant_sink (id BIGINT, doc VARIANT) WITH ('connector' = 'kjson-kafka',"
                + " 'topic' = 'events', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'json')");
        ValidationException error = assertThrows(ValidationException.class,
                () -> tableEnv.explainSql("INSERT INTO variant_sink SELECT id, PARSE_JSON(name) FROM src"));
        assertTrue(messages(error).contains("column 'doc' has type VARIANT, which kjson cannot carry"), messages(error));
    }

    @Test
    void memoryLimitTooSmallForOneRowIsRefusedAtPlanning() {
        tableEnv.executeSql("CREATE TABLE tiny_sink (id BIGINT, name STRING) WITH ('connector' = 'kjson-kafka',"
                + " 'topic' = 'events', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'json',"
                + " 'kjson.arrow-memory-limit' = '64 b')");
        ValidationException error = assertThrows(ValidationException.class,
                () -> tableEnv.explainSql("INSERT INTO tiny_sink SELECT * FROM src"));
        assertTrue(messages(error).contains("'kjson.arrow-memory-limit' = 64 bytes is too small"), messages(error));
    }

    /** 'kjson.native' = 'required' is the default: the same failure when it is written out. */
    @Test
    void explicitRequiredFailsAtOpenWithTheLoaderMessage() {
        tableEnv.executeSql("CREATE TABLE required_sink (id BIGINT, name STRING) WITH ('connector' = 'kjson-kafka',"
                + " 'topic' = 'events', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'json',"
                + " 'kjson.native' = 'required')");
        Exception error = assertThrows(Exception.class,
                () -> tableEnv.executeSql("INSERT INTO required_sink SELECT * FROM src").await());
        assertTrue(messages(error).contains("cannot load the kjson native library from "), messages(error));
    }

    @Test
    void theJobFailsWhenTheSinkTaskOpensWithTheLoaderMessage() {
        Exception error = assertThrows(Exception.class,
                () -> tableEnv.executeSql("INSERT INTO append_sink SELECT * FROM src").await());
        String messages = messages(error);
        assertTrue(messages.contains("cannot load the kjson native library from "), messages);
    }

    private static String messages(Throwable error) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = error; t != null; t = t.getCause()) {
            messages.add(t.getClass().getSimpleName() + ": " + t.getMessage());
        }
        return String.join("\n caused by ", messages);
    }
}
