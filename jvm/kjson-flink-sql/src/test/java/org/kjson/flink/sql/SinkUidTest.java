package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.Test;

/**
 * With {@code table.exec.uid.generation = ALWAYS} (or a compiled plan) the planner names the stock
 * Kafka sink {@code <node id>_sink}; its writer takes that uid and its committer
 * {@code Sink Committer: <node id>_sink}. The kjson sink's writer and committer follow the same
 * scheme, so a savepoint's writer and committer state maps across kafka <-> kjson-kafka when the
 * sink's node id is the same (see docs/operations-cluster.md).
 */
class SinkUidTest {
    private static final Pattern SINK_UID = Pattern.compile("(\\d+)_sink");

    @Test
    void writerAndCommitterUidsFollowTheStockScheme() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        tableEnv.getConfig().set("table.exec.uid.generation", "ALWAYS");
        tableEnv.executeSql("CREATE TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '10')");
        for (String connector : new String[] {"kafka", "kjson-kafka"}) {
            tableEnv.executeSql("CREATE TABLE `" + connector + "_out` (id BIGINT) WITH ('connector' = '" + connector
                    + "', 'topic' = 't', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'json',"
                    + " 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'p')");
        }
        StreamStatementSet inserts = tableEnv.createStatementSet();
        inserts.addInsertSql("INSERT INTO kafka_out SELECT id FROM numbers");
        inserts.addInsertSql("INSERT INTO `kjson-kafka_out` SELECT id FROM numbers");
        inserts.attachAsDataStream();
        StreamGraph graph = env.getStreamGraph();

        Map<String, String> uidsByName = new HashMap<>();
        for (StreamNode node : graph.getStreamNodes()) {
            uidsByName.put(node.getOperatorName(), node.getTransformationUID());
        }
        assertSinkUids(uidsByName, "kafka_out[", "stock");
        assertSinkUids(uidsByName, "kjson-kafka_out:", "kjson");
        assertTrue(uidsByName.values().stream().anyMatch(uid -> uid != null && uid.matches("\\d+_kjson-encode")),
                uidsByName::toString);
        assertEquals(1, uidsByName.keySet().stream().filter("kjson-kafka_out: kjson-encode"::equals).count(),
                uidsByName::toString);
    }

    /** The writer's uid is {@code <id>_sink}, the committer's {@code Sink Committer: <id>_sink}. */
    private static void assertSinkUids(Map<String, String> uidsByName, String namePrefix, String which) {
        String writer = uidOf(uidsByName, namePrefix, "Writer");
        String committer = uidOf(uidsByName, namePrefix, "Committer");
        Matcher matcher = SINK_UID.matcher(writer);
        assertTrue(matcher.matches(), which + " writer uid " + writer + " in " + uidsByName);
        assertEquals("Sink Committer: " + writer, committer, which + " committer uid in " + uidsByName);
    }

    private static String uidOf(Map<String, String> uidsByName, String namePrefix, String part) {
        return uidsByName.entrySet().stream()
                .filter(e -> e.getKey().startsWith(namePrefix) && e.getKey().endsWith(part))
                .map(Map.Entry::getValue).findFirst()
                .orElseThrow(() -> new AssertionError("no " + part + " of " + namePrefix + " in " + uidsByName));
    }
}
