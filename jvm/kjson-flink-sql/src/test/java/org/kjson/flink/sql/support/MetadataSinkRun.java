package org.kjson.flink.sql.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;
import org.kjson.flink.sql.broker.KafkaBroker;

/**
 * One bounded SQL job (parallelism 2, a checkpoint every second) that inserts the
 * {@link MetadataRows} (view {@code metadata_rows}) into a sink table on two fresh topics
 * {@code <prefix>a} and {@code <prefix>b}, then reads both with read_committed
 * ({@link ReadRecord}, topics named "a" and "b").
 */
public final class MetadataSinkRun {
    private static final int COMMIT_VISIBILITY_ATTEMPTS = 15;

    private MetadataSinkRun() {}

    /**
     * {@code ddl} has {@code %1$s} for the connector, {@code %2$s} the topic option (made by
     * {@code topicOption} from the prefix), {@code %3$s} the bootstrap servers and {@code %4$s}
     * the transactional id prefix; {@code insert} has {@code %s} for the topic prefix.
     */
    public static List<String> run(String connector, String runId, String ddl, String insert,
            Function<String, String> topicOption, long rows, int partitions) throws Exception {
        KafkaBroker broker = SharedBroker.get();
        String prefix = "meta-" + runId + "-";
        broker.createTopic(prefix + "a", partitions);
        broker.createTopic(prefix + "b", partitions);
        Configuration config = new Configuration();
        config.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(1));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        DataGeneratorSource<Row> source = new DataGeneratorSource<>(MetadataRows::row, rows, ExternalTypeInfo.of(rowType()));
        tableEnv.createTemporaryView("metadata_rows",
                tableEnv.fromDataStream(env.fromSource(source, WatermarkStrategy.noWatermarks(), "metadata rows")));
        tableEnv.executeSql(String.format(ddl, connector, topicOption.apply(prefix), broker.bootstrapServers(), "tx-" + runId));
        tableEnv.executeSql(String.format(insert, prefix)).await(4, TimeUnit.MINUTES);
        return readBoth(broker.bootstrapServers(), prefix, rows);
    }

    /**
     * Both topics; read again (a few times) while fewer than {@code rows} records are committed:
     * a bounded job may end before the committer's last commit is visible to a new consumer.
     */
    private static List<String> readBoth(String bootstrapServers, String prefix, long rows) throws InterruptedException {
        List<String> records = List.of();
        for (int attempt = 0; attempt < COMMIT_VISIBILITY_ATTEMPTS && records.size() < rows; attempt++) {
            if (attempt > 0) {
                Thread.sleep(2_000);
            }
            records = new ArrayList<>(ReadRecord.readCommitted(bootstrapServers, prefix + "a", "a"));
            records.addAll(ReadRecord.readCommitted(bootstrapServers, prefix + "b", "b"));
        }
        return records;
    }

    private static DataType rowType() {
        return DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT()), DataTypes.FIELD("name", DataTypes.STRING()),
                DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3)),
                DataTypes.FIELD("headers", DataTypes.MAP(DataTypes.STRING(), DataTypes.BYTES())),
                DataTypes.FIELD("topic_suffix", DataTypes.STRING()));
    }
}
