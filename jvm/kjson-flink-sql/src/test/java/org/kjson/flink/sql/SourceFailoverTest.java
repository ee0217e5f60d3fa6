package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.support.ReadRecord;
import org.kjson.flink.sql.support.ScanRun;
import org.kjson.flink.sql.support.SharedBroker;

/**
 * The source's offsets across a failure, on the real broker: a Kafka -> Kafka job (parallelism
 * 2, a checkpoint every 500 ms, exactly-once into the stock sink) reads a topic with
 * {@code kjson-kafka}, fails once after a completed checkpoint and restarts from it; the output
 * topic (read_committed) holds every input row exactly once, the same records as the same job
 * reading with {@code kafka}. A lost or repeated offset in the restored split state would show
 * as a missing or duplicated row.
 */
class SourceFailoverTest {
    static final int RECORDS = 30_000;

    static final String SOURCE = "CREATE TABLE t (id BIGINT, name STRING, amount DECIMAL(10, 3)) WITH (\n"
            + "  'connector' = '%1$s',\n  'topic' = '%2$s',\n  'properties.bootstrap.servers' = '%3$s',\n"
            + "  'properties.group.id' = 'failover-%1$s',\n  'properties.max.poll.records' = '200',\n"
            + "  'scan.startup.mode' = 'earliest-offset',\n  'scan.bounded.mode' = 'latest-offset',\n"
            + "  'format' = 'json'\n)";

    static final String SINK = "CREATE TABLE sink (id BIGINT, name STRING, amount DECIMAL(10, 3)) WITH (\n"
            + "  'connector' = 'kafka',\n  'topic' = '%1$s',\n  'properties.bootstrap.servers' = '%2$s',\n"
            + "  'properties.transaction.timeout.ms' = '60000',\n  'sink.delivery-guarantee' = 'exactly-once',\n"
            + "  'sink.transactional-id-prefix' = '%3$s',\n  'format' = 'json'\n)";

    @Test
    void exactlyOnceAcrossAFailureAsTheStockSource() throws Exception {
        String input = ScanRun.topic("failover-in", 2);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            records.add(new ProducerRecord<>(input, i % 2, null,
                    ScanRun.bytes("{\"id\":" + i + ",\"name\":\"n" + i + "\",\"amount\":" + i + ".5}")));
        }
        ScanRun.produceFast(records);
        List<String> stock = run("kafka", input);
        List<String> kjson = run("kjson-kafka", input);
        assertEquals(RECORDS, stock.size(), "the stock job wrote every row once");
        assertEquals(RECORDS, new HashSet<>(kjson).size(), "no duplicates in the kjson job's output");
        ReadRecord.assertSameRecords(stock, kjson);
    }

    /** The job with one injected failure after a checkpoint; the output topic's committed records. */
    private static List<String> run(String connector, String input) throws Exception {
        String runId = connector + "-" + System.nanoTime();
        String output = ScanRun.topic("failover-out-" + connector, 2);
        Configuration config = new Configuration();
        config.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(500));
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        config.set(StateRecoveryOptions.LOCAL_RECOVERY, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        String servers = SharedBroker.get().bootstrapServers();
        tableEnv.executeSql(String.format(SOURCE, connector, input, servers));
        tableEnv.executeSql(String.format(SINK, output, servers, "tx-" + runId));
        DataStream<Row> rows = tableEnv.toDataStream(tableEnv.from("t"));
        Table failing = tableEnv.fromDataStream(rows.map(new FailOnceAfterCheckpoint(runId)).returns(rows.getType()));
        tableEnv.createTemporaryView("failing", failing);
        tableEnv.executeSql("INSERT INTO sink SELECT * FROM failing").await(4, TimeUnit.MINUTES);
        assertTrue(FailOnceAfterCheckpoint.failed(runId), "the failure was injected after a checkpoint");
        // The output partition is the writing sink subtask's, which differs between runs: left out.
        return ReadRecord.readCommitted(servers, output, "out").stream().map(line -> line.replaceFirst(" p\\d+ ", " "))
                .sorted().toList();
    }

    /** Passes rows on slowly; once a checkpoint completed and 3,000 rows passed a subtask, fails once per run. */
    static final class FailOnceAfterCheckpoint extends RichMapFunction<Row, Row> implements CheckpointListener {
        private static final long serialVersionUID = 1L;
        private static final Map<String, AtomicBoolean> CHECKPOINTED = new ConcurrentHashMap<>();
        private static final Map<String, AtomicBoolean> FAILED = new ConcurrentHashMap<>();

        private final String runId;
        private transient AtomicInteger seen;

        FailOnceAfterCheckpoint(String runId) {
            this.runId = runId;
        }

        static boolean failed(String runId) {
            return FAILED.computeIfAbsent(runId, k -> new AtomicBoolean()).get();
        }

        @Override
        public Row map(Row row) throws Exception {
            if (seen == null) {
                seen = new AtomicInteger();
            }
            if (seen.incrementAndGet() % 10 == 0) {
                Thread.sleep(1); // about 10,000 rows a second per subtask: several checkpoints per run
            }
            boolean checkpointed = CHECKPOINTED.computeIfAbsent(runId, k -> new AtomicBoolean()).get();
            if (checkpointed && seen.get() >= 3_000
                    && FAILED.computeIfAbsent(runId, k -> new AtomicBoolean()).compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure after a completed checkpoint");
            }
            return row;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            CHECKPOINTED.computeIfAbsent(runId, k -> new AtomicBoolean()).set(true);
        }
    }
}
