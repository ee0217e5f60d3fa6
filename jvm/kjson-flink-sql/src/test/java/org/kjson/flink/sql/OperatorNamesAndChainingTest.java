package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.Test;

/**
 * Two kjson sinks and a stock one in one job, as the job graph a cluster would run: each kjson
 * sink's operators are named after its table (so their metrics stay apart), each encode operator
 * is chained to its input (no network edge before it, on every Flink line), and its Kafka writer
 * is chained to it exactly when the stock writer is chained to the same input.
 */
class OperatorNamesAndChainingTest {
    private static final String[] KJSON_TABLES = {"orders_out", "payments_out"};
    private static final String STOCK_TABLE = "stock_out";

    @Test
    void eachSinkIsNamedAfterItsTableAndChainedToItsInput() {
        List<String> tasks = jobGraphTasks();
        boolean stockWriterChained = taskWith(tasks, STOCK_TABLE + "[").matches(".*Calc\\[\\d+\\] -> " + STOCK_TABLE
                + "\\[\\d+\\]: Writer.*");
        for (String table : KJSON_TABLES) {
            String encoder = table + ": kjson-encode";
            String task = taskWith(tasks, encoder);
            assertTrue(task.matches(".*Calc\\[\\d+\\] -> " + encoder + ".*"), "chained to its input: " + tasks);
            assertEquals(stockWriterChained, task.contains(encoder + " -> " + table + ": Writer"),
                    "writer chained as the stock one (" + stockWriterChained + "): " + tasks);
        }
    }

    /** The names of the job graph's vertices: one per task, "a -> b -> c" for a chain. */
    private static List<String> jobGraphTasks() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        StreamStatementSet inserts = tableEnv.createStatementSet();
        List<String> tables = new ArrayList<>(List.of(KJSON_TABLES));
        tables.add(STOCK_TABLE);
        for (String table : tables) {
            // A source per sink: each task is then one straight chain, named operator by operator.
            tableEnv.executeSql("CREATE TABLE " + table + "_in (id BIGINT, name STRING) WITH ('connector' = 'datagen',"
                    + " 'number-of-rows' = '10')");
            String connector = table.equals(STOCK_TABLE) ? "kafka" : "kjson-kafka";
            tableEnv.executeSql("CREATE TABLE " + table + " (id BIGINT, name STRING) WITH ('connector' = '" + connector
                    + "', 'topic' = 't', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'json')");
            inserts.addInsertSql("INSERT INTO " + table + " SELECT id, UPPER(name) FROM " + table + "_in");
        }
        inserts.attachAsDataStream();
        List<String> tasks = new ArrayList<>();
        for (JobVertex vertex : env.getStreamGraph().getJobGraph().getVertices()) {
            tasks.add(vertex.getName());
        }
        return tasks;
    }

    private static String taskWith(List<String> tasks, String operator) {
        List<String> matching = tasks.stream().filter(name -> name.contains(operator)).toList();
        assertEquals(1, matching.size(), "one task holds " + operator + ": " + tasks);
        return matching.get(0);
    }
}
