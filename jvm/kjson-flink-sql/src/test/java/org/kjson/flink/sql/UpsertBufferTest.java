package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.broker.KafkaBroker;
import org.kjson.flink.sql.support.FailingRows;
import org.kjson.flink.sql.support.ReadRecord;
import org.kjson.flink.sql.support.SharedBroker;
import org.kjson.flink.sql.support.TestRows;

/**
 * upsert-kafka's reducing buffer ({@code sink.buffer-flush.max-rows} / {@code .interval}) on a
 * real broker, the same changelog (+I, -U/+U, -D per key) into stock {@code upsert-kafka} and
 * into {@code kjson-upsert-kafka}:
 * <ul>
 *   <li>at parallelism 1 without checkpoints the buffer is emitted by size and at the end of
 *       input only, at the same rows in both runs: the topics must hold the same records in the
 *       same order, fewer than the rows written (keys were reduced);</li>
 *   <li>exactly-once with a checkpoint every second (each barrier emits the buffer) and, in the
 *       kjson run, a failure injected after the first completed checkpoint: per key, the last
 *       record must be the stock run's (nothing lost or left behind across the restore).</li>
 * </ul>
 */
class UpsertBufferTest {
    static final long GROUPS = 3_000;
    /** Enough rows for the injected failure: it comes after a completed checkpoint and 6,000 rows past a barrier. */
    static final long FAILOVER_GROUPS = 24_000;
    static final double GROUPS_PER_SECOND = 6_000;

    static final String DDL = "CREATE TABLE sink (\n  " + TestRows.COLUMNS + ",\n  PRIMARY KEY (id, region) NOT ENFORCED\n"
            + ") WITH (\n"
            + "  'connector' = '%s',\n"
            + "  'topic' = '%s',\n"
            + "  'properties.bootstrap.servers' = '%s',\n"
            + "  'key.format' = 'json',\n"
            + "  'value.format' = 'json',\n"
            + "  'sink.buffer-flush.max-rows' = '%d',\n"
            + "  'sink.buffer-flush.interval' = '%s',\n"
            + "  'sink.delivery-guarantee' = '%s',\n"
            + "  'sink.transactional-id-prefix' = 'tx-%2$s'\n"
            + ")";

    @Test
    void flushesBySizeAndAtTheEndAsTheStockBuffer() throws Exception {
        List<String> stock = run("upsert-kafka", "buffer-size-stock", 1, null, 7, "1 h", "at-least-once", GROUPS, false);
        List<String> kjson = run("kjson-upsert-kafka", "buffer-size-kjson", 1, null, 7, "1 h", "at-least-once", GROUPS, false);
        long rows = TestRows.changelogRowCount(GROUPS);
        assertTrue(stock.size() > GROUPS && stock.size() < rows, "records " + stock.size() + " of " + rows + " rows");
        assertEquals(stock, kjson);
    }

    @Test
    void keepsTheLastRecordOfEveryKeyAcrossAFailoverExactlyOnce() throws Exception {
        Map<String, String> stock = lastByKey(run("upsert-kafka", "buffer-eo-stock", 2, Duration.ofSeconds(1), 50, "100 ms",
                "exactly-once", FAILOVER_GROUPS, false));
        FailingRows.Run failover = FailingRows.start("buffer-eo-kjson");
        Map<String, String> kjson = lastByKey(run("kjson-upsert-kafka", "buffer-eo-kjson", 2, Duration.ofSeconds(1), 50,
                "100 ms", "exactly-once", FAILOVER_GROUPS, true));
        assertTrue(failover.failed.get(), "the failure was not injected");
        assertEquals(FAILOVER_GROUPS, stock.size(), "keys");
        assertEquals(stock, kjson);
    }

    /** Per key (the record's key text), the last record read. */
    private static Map<String, String> lastByKey(List<String> records) {
        Map<String, String> last = new LinkedHashMap<>();
        for (String record : records) {
            String key = record.substring(record.indexOf(" key=") + 5, record.indexOf(" value="));
            last.put(key, record.substring(record.indexOf(" value=")));
        }
        return last;
    }

    private static List<String> run(String connector, String runId, int parallelism, Duration checkpoints, int maxRows,
            String interval, String guarantee, long groups, boolean injectFailure) throws Exception {
        KafkaBroker broker = SharedBroker.get();
        String topic = "topic-" + runId;
        broker.createTopic(topic, 2);
        Configuration config = new Configuration();
        config.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        if (checkpoints != null) {
            config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, checkpoints);
            config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
            config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        tableEnv.getConfig().set("table.exec.sink.upsert-materialize", "NONE");
        tableEnv.executeSql(String.format(DDL, connector, topic, broker.bootstrapServers(), maxRows, interval, guarantee));
        DataType rowType = tableEnv.from("sink").getResolvedSchema().toPhysicalRowDataType();
        if (!injectFailure) {
            FailingRows.start(runId);
        }
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(s -> s, groups,
                RateLimiterStrategy.perSecond(GROUPS_PER_SECOND), Types.LONG);
        DataStream<Row> rows = env.fromSource(source, WatermarkStrategy.noWatermarks(), "groups")
                .flatMap(new FailingRows(FailingRows.Shape.CHANGELOG, runId, injectFailure))
                .returns(ExternalTypeInfo.of(rowType));
        tableEnv.createTemporaryView("changelog_rows", tableEnv.fromChangelogStream(rows,
                Schema.newBuilder().primaryKey("id", "region").build(), ChangelogMode.all()));
        tableEnv.executeSql("INSERT INTO sink SELECT * FROM changelog_rows").await(4, TimeUnit.MINUTES);
        return ReadRecord.readCommittedInOrder(broker.bootstrapServers(), topic, "t");
    }
}
