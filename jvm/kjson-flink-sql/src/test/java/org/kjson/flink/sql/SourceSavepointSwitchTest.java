package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.broker.TopicReader;
import org.kjson.flink.sql.support.CollectingReporter;
import org.kjson.flink.sql.support.ScanRun;
import org.kjson.flink.sql.support.SharedBroker;

/**
 * The source switched between {@code kafka} and {@code kjson-kafka} through stop-with-savepoint,
 * both ways ({@code kafka} -> {@code kjson-kafka} -> {@code kafka}), each job reading the records
 * written since the last savepoint into an exactly-once stock sink: the output holds every input
 * row exactly once. The split and enumerator state are the stock source's, and the job's
 * topology is the same with either connector, so the default operator ids (hashes of the
 * topology) map every state, the source's included.
 */
class SourceSavepointSwitchTest {
    static final String SOURCE = "CREATE TABLE t (id BIGINT, name STRING) WITH (\n"
            + "  'connector' = '%1$s',\n  'topic' = '%2$s',\n  'properties.bootstrap.servers' = '%3$s',\n"
            + "  'properties.group.id' = 'switch',\n  'scan.startup.mode' = 'earliest-offset',\n"
            + "  'format' = 'json'\n)";
    static final String SINK = "CREATE TABLE sink (id BIGINT, name STRING) WITH (\n"
            + "  'connector' = 'kafka',\n  'topic' = '%1$s',\n  'properties.bootstrap.servers' = '%2$s',\n"
            + "  'properties.transaction.timeout.ms' = '60000',\n  'sink.delivery-guarantee' = 'exactly-once',\n"
            + "  'sink.transactional-id-prefix' = '%3$s',\n  'format' = 'json'\n)";
    static final int PER_PHASE = 5_000;

    @Test
    void switchingTheSourceBothWaysKeepsEveryRowExactlyOnce() throws Exception {
        String input = ScanRun.topic("switch-in", 2);
        String output = ScanRun.topic("switch-out", 2);
        Path savepoints = Files.createTempDirectory("kjson-source-switch");
        String savepoint = null;
        String[] connectors = {"kafka", "kjson-kafka", "kafka"};
        for (int phase = 0; phase < connectors.length; phase++) {
            produce(input, phase);
            long decodedBefore = ScanRun.recordsDecoded();
            savepoint = runUntilAndStop(connectors[phase], input, output, savepoint, (phase + 1) * PER_PHASE,
                    savepoints, "tx-switch-" + System.nanoTime());
            long decoded = ScanRun.recordsDecoded() - decodedBefore;
            if (connectors[phase].startsWith("kjson")) {
                // Restored from the stock job's savepoint: only this phase's records are read (natively).
                assertEquals(PER_PHASE, decoded, "records the kjson job decoded");
            } else {
                assertEquals(0, decoded, "the stock job decodes nothing natively");
            }
        }
        Map<String, Integer> copies = new HashMap<>();
        TopicReader.forEachCommitted(SharedBroker.get().bootstrapServers(), output, Duration.ofSeconds(60),
                r -> copies.merge(new String(r.value(), StandardCharsets.UTF_8), 1, Integer::sum));
        assertEquals(connectors.length * PER_PHASE, copies.size(), "every input row is in the output");
        assertTrue(copies.values().stream().allMatch(n -> n == 1), "no row is in the output twice");
    }

    private static void produce(String topic, int phase) throws Exception {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = phase * PER_PHASE; i < (phase + 1) * PER_PHASE; i++) {
            records.add(new ProducerRecord<>(topic, i % 2, null, ScanRun.bytes("{\"id\":" + i + ",\"name\":\"n" + i + "\"}")));
        }
        ScanRun.produceFast(records);
    }

    /** Starts the job (from {@code savepoint} if given), waits for {@code committed} output records, stops it with a savepoint. */
    private static String runUntilAndStop(String connector, String input, String output, String savepoint,
            long committed, Path savepoints, String transactionalIdPrefix) throws Exception {
        Configuration config = Configuration.fromMap(CollectingReporter.configuration());
        config.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(500));
        if (savepoint != null) {
            config.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        String servers = SharedBroker.get().bootstrapServers();
        tableEnv.executeSql(String.format(SOURCE, connector, input, servers));
        tableEnv.executeSql(String.format(SINK, output, servers, transactionalIdPrefix));
        TableResult result = tableEnv.executeSql("INSERT INTO sink SELECT * FROM t");
        JobClient job = result.getJobClient().orElseThrow();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (count(output) < committed) {
            assertTrue(System.nanoTime() < deadline, connector + ": the output did not reach " + committed + " rows");
            Thread.sleep(500);
        }
        return job.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                .get(2, TimeUnit.MINUTES);
    }

    private static long count(String topic) throws Exception {
        return TopicReader.forEachCommitted(SharedBroker.get().bootstrapServers(), topic, Duration.ofSeconds(60), r -> {});
    }
}
