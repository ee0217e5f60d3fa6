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
 * <p>With {@code bench.input=kafka} the bids are first written once as json to an input topic
 * (two partitions, by the stock sink), and each job reads them back with a bounded table:
 * stock source and sink, the {@code kjson-kafka} source with the stock sink, and kjson on both
 * sides. {@code bench.input=both} runs the generator jobs and then these.
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

    /** Where a job reads the bids ({@link #GENERATOR}, or a Kafka connector) and the sink connector it writes with. */
    record Pair(String source, String sink) {
        static final String GENERATOR = "generator";

        String label() {
            return source + " -> " + sink;
        }
    }

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
            String input = System.getProperty("bench.input", "generator");
            boolean generator = input.equals("generator") || input.equals("both");
            boolean kafka = input.equals("kafka") || input.equals("both");
            if (!generator && !kafka) {
                throw new IllegalArgumentException("bench.input is 'generator', 'kafka' or 'both', not '" + input + "'");
            }
            // Warm-up: JIT, the planner, the native library; not reported.
            long warmupRows = Long.getLong("bench.warmup.rows", 300_000);
            for (Pair pair : bench.pairs(Q0, kafka && !generator)) {
                bench.run(Q0, pair, warmupRows, false);
            }
            List<String> table = new ArrayList<>();
            List<String> profiles = new ArrayList<>();
            table.add("| query | source -> sink | rows in | records out | rows/s, median | rows/s, each pass | job wall s |"
                    + " ratio |");
            table.add("|---|---|---:|---:|---:|---:|---:|---:|");
            for (boolean fromKafka : kafka && generator ? List.of(false, true) : List.of(kafka)) {
                bench.compare(Q0, bench.pairs(Q0, fromKafka), q0Rows, passes, table, profiles);
                bench.compare(Q19, bench.pairs(Q19, fromKafka), q19Rows, passes, table, profiles);
            }
            System.out.println();
            table.forEach(System.out::println);
            System.out.println();
            profiles.forEach(System.out::println);
        }
    }

    /** The jobs compared: the first is the baseline of the ratios. */
    private List<Pair> pairs(Query query, boolean fromKafka) {
        if (!fromKafka) {
            return List.of(new Pair(Pair.GENERATOR, query.stockConnector), new Pair(Pair.GENERATOR, query.kjsonConnector));
        }
        return List.of(new Pair("kafka", query.stockConnector), new Pair("kjson-kafka", query.stockConnector),
                new Pair("kjson-kafka", query.kjsonConnector));
    }

    /**
     * Alternating passes (each pair once per pass) so that all see the same machine load; the
     * median pass of each is reported (and every pass's rows/s), the last pass is profiled.
     */
    private void compare(Query query, List<Pair> pairs, long rows, int passes, List<String> table,
            List<String> profiles) throws Exception {
        List<List<RunResult>> results = new ArrayList<>();
        pairs.forEach(pair -> results.add(new ArrayList<>()));
        for (int pass = 0; pass < passes; pass++) {
            for (int p = 0; p < pairs.size(); p++) {
                results.get(p).add(run(query, pairs.get(p), rows, pass == passes - 1));
            }
        }
        RunResult baseline = median(results.get(0));
        TopicStats first = results.get(0).get(0).stats;
        boolean identical = results.stream().flatMap(List::stream).allMatch(r -> r.stats.sameRecords(first));
        for (List<RunResult> runs : results) {
            RunResult median = median(runs);
            table.add(median.row(query, String.format(Locale.ROOT, "%.2f",
                    median.rowsPerSecond() / baseline.rowsPerSecond()), runs));
        }
        profiles.add(String.format("%s: every run's topic holds the same records (count and digest): %s", query.name,
                identical ? "yes" : "NO"));
        for (List<RunResult> runs : results) {
            RunResult r = runs.get(passes - 1);
            profiles.add(String.format(Locale.ROOT, "%s %s (last pass, %,.0f rows/s, JFR):", query.name,
                    r.pair.label(), r.rowsPerSecond()));
            profiles.addAll(r.profile.summary(6));
        }
    }

    private static RunResult median(List<RunResult> runs) {
        List<RunResult> sorted = new ArrayList<>(runs);
        sorted.sort(java.util.Comparator.comparingDouble(RunResult::rowsPerSecond));
        return sorted.get(sorted.size() / 2);
    }

    private RunResult run(Query query, Pair pair, long rows, boolean profile) throws Exception {
        String from = pair.source.equals(Pair.GENERATOR) ? "" : pair.source + "-";
        String runId = query.name + "-" + from + pair.sink + "-" + (++runs);
        String topic = "bench-" + runId;
        broker.createTopic(topic, PARTITIONS);
        StreamTableEnvironment tableEnv = tableEnvironment(rows);
        if (!pair.source.equals(Pair.GENERATOR)) {
            tableEnv.executeSql(inputTable("bid", pair.source, inputTopic(rows)));
        }
        tableEnv.executeSql(sinkDdl(query, pair.sink, topic, runId));
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
        RunResult result = new RunResult(pair, rows, stats, wallSeconds, sinkProfile);
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
        tableEnv.createTemporaryView(GENERATED, tableEnv.fromDataStream(bids));
        tableEnv.createTemporaryView("bid", tableEnv.from(GENERATED));
        return tableEnv;
    }

    private static final String GENERATED = "generated_bid";
    /** The input topic of each row count, written once. */
    private final Map<Long, String> inputTopics = new java.util.HashMap<>();

    /** The topic holding {@code rows} generated bids as json (written by the stock sink on first use). */
    private String inputTopic(long rows) throws Exception {
        String known = inputTopics.get(rows);
        if (known != null) {
            return known;
        }
        String topic = "bench-input-" + rows;
        broker.createTopic(topic, PARTITIONS);
        StreamTableEnvironment tableEnv = tableEnvironment(rows);
        tableEnv.executeSql(inputTable("bid_in", "kafka", topic));
        long started = System.nanoTime();
        tableEnv.executeSql("INSERT INTO bid_in SELECT * FROM " + GENERATED).await(30, TimeUnit.MINUTES);
        System.out.printf(Locale.ROOT, "input topic %s: %,d bids written in %.1f s%n", topic, rows,
                (System.nanoTime() - started) / 1e9);
        inputTopics.put(rows, topic);
        return topic;
    }

    /** The bids as a json table on {@code topic}, read from the start to the end offsets of the job's start. */
    private String inputTable(String name, String connector, String topic) {
        return "CREATE TABLE " + name + " (" + NexmarkBids.COLUMNS + ") WITH ('connector' = '" + connector
                + "', 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '" + broker.bootstrapServers()
                + "', 'properties.group.id' = 'bench', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')";
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
        final Pair pair;
        final long rows;
        final TopicStats stats;
        final double wallSeconds;
        final SinkProfile profile;

        RunResult(Pair pair, long rows, TopicStats stats, double wallSeconds, SinkProfile profile) {
            this.pair = pair;
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
            return String.format(Locale.ROOT, "| %s | %s | %,d | %,d | %,.0f | %s | %.1f | %s |", query.name,
                    pair.label(), rows, stats.records, rowsPerSecond(), each, wallSeconds, ratio);
        }
    }
}
