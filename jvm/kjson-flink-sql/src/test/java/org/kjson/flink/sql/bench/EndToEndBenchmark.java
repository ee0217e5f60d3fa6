package org.kjson.flink.sql.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.kjson.flink.sql.broker.KafkaBroker;

/**
 * End-to-end Nexmark benchmark on a real broker: the same SQL job twice, once into the stock
 * {@code kafka} / {@code upsert-kafka} connector with {@code json}, once into
 * {@code kjson-kafka} / {@code kjson-upsert-kafka}; same deterministic bid source, parallelism,
 * checkpoint interval, exactly-once, and the producer settings of schemas/q0.sql and q19.sql
 * ({@code batch.size} 512 KiB, {@code linger.ms} 20).
 *
 * <p>Throughput is input rows over the span between the first and the last record the sink
 * sent (the producer stamps each record: startup and the final checkpoint wait are left out);
 * the job's wall time is reported too. Both runs' topics are read back (read_committed) and
 * their record multisets compared by digest. A JFR recording of each measured run gives the
 * sink task thread's profile.
 *
 * <p>Run with scripts/e2e-bench.sh. Properties: {@code bench.q0.rows} (default 3,000,000),
 * {@code bench.q19.rows} (1,000,000), {@code bench.parallelism} (1), {@code bench.passes} (3),
 * {@code bench.checkpoint.ms} (5000), {@code bench.warmup.rows} (300,000 per connector, q0),
 * {@code bench.object-reuse} (false, Flink's default), {@code bench.producer} ({@code tuned}: the DDLs'
 * batch.size and linger.ms; {@code default}: Kafka's), {@code kjson.schemas} (the schemas/ folder),
 * {@code bench.out} (folder for JFR files).
 */
public final class EndToEndBenchmark {
    private static final int PARTITIONS = 2;

    private final KafkaBroker broker;
    private final Path schemas;
    private final Path out;
    private final int parallelism = Integer.getInteger("bench.parallelism", 1);
    private final long checkpointMillis = Long.getLong("bench.checkpoint.ms", 5000);
    private final boolean objectReuse = Boolean.getBoolean("bench.object-reuse");
    /** "tuned": the DDLs' batch.size 512 KiB and linger.ms 20; "default": Kafka's defaults (16 KiB, 5 ms). */
    private final String producer = System.getProperty("bench.producer", "tuned");
    private int runs;

    private EndToEndBenchmark(KafkaBroker broker, Path schemas, Path out) {
        this.broker = broker;
        this.schemas = schemas;
        this.out = out;
    }

    /** One Nexmark query: its sink DDL file, the INSERT, and the two connectors compared. */
    record Query(String name, String stockConnector, String kjsonConnector, String insert) {}

    static final Query Q0 = new Query("q0", "kafka", "kjson-kafka",
            "INSERT INTO nexmark_q0 SELECT auction, bidder, price, `dateTime`, extra FROM bid");
    static final Query Q19 = new Query("q19", "upsert-kafka", "kjson-upsert-kafka",
            "INSERT INTO nexmark_q19 SELECT auction, bidder, price, channel, url, `dateTime`, extra, rank_number FROM ("
                    + "SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid)"
                    + " WHERE rank_number <= 10");

    public static void main(String[] args) throws Exception {
        Path schemas = Paths.get(System.getProperty("kjson.schemas", "../../schemas"));
        Path out = Paths.get(System.getProperty("bench.out", "target/e2e-bench"));
        Files.createDirectories(out);
        long q0Rows = Long.getLong("bench.q0.rows", 3_000_000);
        long q19Rows = Long.getLong("bench.q19.rows", 1_000_000);
        int passes = Integer.getInteger("bench.passes", 3);
        try (KafkaBroker broker = KafkaBroker.start()) {
            EndToEndBenchmark bench = new EndToEndBenchmark(broker, schemas, out);
            System.out.printf("JVM %s, %d cores; parallelism %d, checkpoint every %d ms, exactly-once, %d partitions,"
                    + " object reuse %s, producer settings %s; broker %s (KRaft, child JVM)%n", Runtime.version(),
                    Runtime.getRuntime().availableProcessors(), bench.parallelism, bench.checkpointMillis, PARTITIONS,
                    bench.objectReuse, bench.producer, broker.bootstrapServers());
            // Warm-up: JIT, the planner, the native library; not reported.
            long warmupRows = Long.getLong("bench.warmup.rows", 300_000);
            bench.run(Q0, Q0.stockConnector, warmupRows, false);
            bench.run(Q0, Q0.kjsonConnector, warmupRows, false);
            List<String> table = new ArrayList<>();
            List<String> profiles = new ArrayList<>();
            table.add("| query | connector | rows in | records out | rows/s, median | rows/s, each pass | job wall s |"
                    + " ratio |");
            table.add("|---|---|---:|---:|---:|---:|---:|---:|");
            bench.compare(Q0, q0Rows, passes, table, profiles);
            bench.compare(Q19, q19Rows, passes, table, profiles);
            System.out.println();
            table.forEach(System.out::println);
            System.out.println();
            profiles.forEach(System.out::println);
        }
    }

    /**
     * Alternating passes (stock, kjson, stock, kjson, ...) so that both see the same machine load;
     * the median pass of each is reported (and every pass's rows/s), the last pass is profiled.
     */
    private void compare(Query query, long rows, int passes, List<String> table, List<String> profiles) throws Exception {
        List<RunResult> stock = new ArrayList<>();
        List<RunResult> kjson = new ArrayList<>();
        for (int pass = 0; pass < passes; pass++) {
            boolean profile = pass == passes - 1;
            stock.add(run(query, query.stockConnector, rows, profile));
            kjson.add(run(query, query.kjsonConnector, rows, profile));
        }
        RunResult stockMedian = median(stock);
        RunResult kjsonMedian = median(kjson);
        boolean identical = stock.stream().allMatch(r -> r.stats.sameRecords(kjson.get(0).stats))
                && kjson.stream().allMatch(r -> r.stats.sameRecords(kjson.get(0).stats));
        table.add(stockMedian.row(query, "1.00", stock));
        table.add(kjsonMedian.row(query, String.format(Locale.ROOT, "%.2f",
                kjsonMedian.rowsPerSecond() / stockMedian.rowsPerSecond()), kjson));
        profiles.add(String.format("%s: every run's topic holds the same records (count and digest): %s", query.name,
                identical ? "yes" : "NO"));
        for (RunResult r : List.of(stock.get(passes - 1), kjson.get(passes - 1))) {
            profiles.add(String.format(Locale.ROOT, "%s %s (last pass, %,.0f rows/s, JFR):", query.name, r.connector,
                    r.rowsPerSecond()));
            profiles.addAll(r.profile.summary(6));
        }
    }

    private static RunResult median(List<RunResult> runs) {
        List<RunResult> sorted = new ArrayList<>(runs);
        sorted.sort(java.util.Comparator.comparingDouble(RunResult::rowsPerSecond));
        return sorted.get(sorted.size() / 2);
    }

    private RunResult run(Query query, String connector, long rows, boolean profile) throws Exception {
        String runId = query.name + "-" + connector + "-" + (++runs);
        String topic = "bench-" + runId;
        broker.createTopic(topic, PARTITIONS);
        StreamTableEnvironment tableEnv = tableEnvironment(rows);
        tableEnv.executeSql(sinkDdl(query, connector, topic, runId));
        Recording recording = profile ? startRecording() : null;
        long started = System.nanoTime();
        tableEnv.executeSql(query.insert).await(30, TimeUnit.MINUTES);
        double wallSeconds = (System.nanoTime() - started) / 1e9;
        SinkProfile sinkProfile = null;
        if (recording != null) {
            Path file = out.resolve(runId + ".jfr");
            recording.stop();
            recording.dump(file);
            recording.close();
            sinkProfile = SinkProfile.read(file);
        }
        TopicStats stats = TopicStats.read(broker.bootstrapServers(), topic);
        RunResult result = new RunResult(connector, rows, stats, wallSeconds, sinkProfile);
        System.out.printf(Locale.ROOT, "%-22s %,d rows -> %,d records, %,.0f rows/s, wall %.1f s%n", runId, rows,
                stats.records, result.rowsPerSecond(), wallSeconds);
        return result;
    }

    private StreamTableEnvironment tableEnvironment(long rows) {
        org.apache.flink.configuration.Configuration config = new org.apache.flink.configuration.Configuration();
        config.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        config.set(PipelineOptions.OBJECT_REUSE, objectReuse);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(checkpointMillis));
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        // q19's rank state outgrows the JobManager's in-memory checkpoint storage.
        config.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        config.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, out.resolve("checkpoints").toUri().toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        DataStream<RowData> bids = env.fromSource(new DataGeneratorSource<>(new NexmarkBids(), rows,
                InternalTypeInfo.of(NexmarkBids.ROW_TYPE)), WatermarkStrategy.noWatermarks(), "nexmark-bids");
        tableEnv.createTemporaryView("bid", tableEnv.fromDataStream(bids));
        return tableEnv;
    }

    /** The repository's sink DDL with the connector, topic, broker and transactional id prefix of this run. */
    private String sinkDdl(Query query, String connector, String topic, String runId) throws Exception {
        String ddl = Files.readString(schemas.resolve(query.name + ".sql"), StandardCharsets.UTF_8)
                .replaceAll("(?m)^--.*$", "").replace(";", "");
        Map<String, String> replacements = Map.of(
                "'connector' = '" + query.stockConnector + "'", "'connector' = '" + connector + "'",
                "'topic' = 'nexmark_" + query.name + "'", "'topic' = '" + topic + "'",
                "'localhost:9092'", "'" + broker.bootstrapServers() + "'",
                "'sink.transactional-id-prefix' = 'nexmark-" + query.name + "'", "'sink.transactional-id-prefix' = '" + runId + "'");
        for (Map.Entry<String, String> e : replacements.entrySet()) {
            if (!ddl.contains(e.getKey())) {
                throw new IllegalStateException(query.name + ".sql has no " + e.getKey());
            }
            ddl = ddl.replace(e.getKey(), e.getValue());
        }
        if (producer.equals("default")) {
            ddl = ddl.replaceAll("(?m)^\\s*'properties\\.(batch\\.size|linger\\.ms)' = '[0-9]+',\\s*$", "");
        }
        return ddl;
    }

    private static Recording startRecording() throws Exception {
        Recording recording = new Recording(Configuration.getConfiguration("profile"));
        recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
        recording.enable("jdk.NativeMethodSample").withPeriod(Duration.ofMillis(10));
        recording.enable("jdk.ThreadPark").withThreshold(Duration.ofMillis(1)).withStackTrace();
        recording.start();
        return recording;
    }

    private static final class RunResult {
        final String connector;
        final long rows;
        final TopicStats stats;
        final double wallSeconds;
        final SinkProfile profile;

        RunResult(String connector, long rows, TopicStats stats, double wallSeconds, SinkProfile profile) {
            this.connector = connector;
            this.rows = rows;
            this.stats = stats;
            this.wallSeconds = wallSeconds;
            this.profile = profile;
        }

        double rowsPerSecond() {
            return rows / Math.max(0.001, stats.spanSeconds());
        }

        String row(Query query, String ratio, List<RunResult> passes) {
            String each = passes.stream().map(r -> String.format(Locale.ROOT, "%,.0f", r.rowsPerSecond()))
                    .collect(java.util.stream.Collectors.joining(" / "));
            return String.format(Locale.ROOT, "| %s | %s | %,d | %,d | %,.0f | %s | %.1f | %s |", query.name, connector,
                    rows, stats.records, rowsPerSecond(), each, wallSeconds, ratio);
        }
    }
}
