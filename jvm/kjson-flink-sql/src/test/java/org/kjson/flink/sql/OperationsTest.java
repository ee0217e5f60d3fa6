package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.broker.KafkaBroker;
import org.kjson.flink.sql.support.CollectingReporter;
import org.kjson.flink.sql.support.SharedBroker;

/**
 * What an operator of a slow, checkpoint-less {@code kjson-kafka} job sees: a source of one row
 * per second, no checkpoints, a batch far larger than the whole input, and
 * {@code kjson.batch-interval} = 500 ms. Every row must reach the broker within the interval plus
 * a margin (without the timer the first rows would wait for the end of input, ~11 s), and the
 * operator's metrics must describe what was encoded, checked against the bytes on the topic.
 *
 * <p>At-least-once delivery: records are visible to a read_uncommitted consumer as soon as the
 * producer sends them. Under exactly-once nothing would be visible before a checkpoint commits
 * the transaction, and there are no checkpoints here.
 */
class OperationsTest {
    static final int ROWS = 12;
    static final long INTERVAL_MILLIS = 500;
    /** Generous for a loaded 2-core machine, far below the ~11 s the first row waits without the timer. */
    static final long MARGIN_MILLIS = 4_000;

    static final String DDL = "CREATE TABLE slow_sink (id BIGINT, emitted_ms BIGINT, note STRING) WITH (\n"
            + "  'connector' = 'kjson-kafka',\n"
            + "  'topic' = '%s',\n"
            + "  'properties.bootstrap.servers' = '%s',\n"
            + "  'properties.linger.ms' = '5',\n"
            + "  'key.format' = 'json',\n"
            + "  'key.fields' = 'id',\n"
            + "  'value.format' = 'json',\n"
            + "  'sink.delivery-guarantee' = 'at-least-once',\n"
            + "  'kjson.batch-rows' = '10000',\n"
            + "  'kjson.batch-interval' = '" + INTERVAL_MILLIS + " ms'\n"
            + ")";

    /** Per row id: when the consumer received it, and the record. */
    private static final Map<Long, Long> receivedMillis = new ConcurrentHashMap<>();
    private static final Map<Long, ConsumerRecord<byte[], byte[]>> records = new ConcurrentHashMap<>();
    private static final Pattern ID_AND_TIME = Pattern.compile("\"id\":(\\d+),\"emitted_ms\":(\\d+)");

    @BeforeAll
    static void runSlowJob() throws Exception {
        KafkaBroker broker = SharedBroker.get();
        String topic = "slow-" + System.nanoTime();
        broker.createTopic(topic, 1);
        Thread consumer = new Thread(() -> consume(broker.bootstrapServers(), topic), "slow-topic-consumer");
        consumer.setDaemon(true);
        consumer.start();

        Configuration config = Configuration.fromMap(CollectingReporter.configuration());
        config.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        GeneratorFunction<Long, Row> rows = index -> Row.of(index, System.currentTimeMillis(), "row " + index);
        DataGeneratorSource<Row> source = new DataGeneratorSource<>(rows, ROWS, RateLimiterStrategy.perSecond(1),
                Types.ROW_NAMED(new String[] {"id", "emitted_ms", "note"}, Types.LONG, Types.LONG, Types.STRING));
        tableEnv.createTemporaryView("slow_rows",
                tableEnv.fromDataStream(env.fromSource(source, WatermarkStrategy.noWatermarks(), "one row per second")));
        tableEnv.executeSql(String.format(DDL, topic, broker.bootstrapServers()));
        tableEnv.executeSql("INSERT INTO slow_sink SELECT * FROM slow_rows").await(4, TimeUnit.MINUTES);
        consumer.join(TimeUnit.SECONDS.toMillis(60));
    }

    /** read_uncommitted, from the beginning, until every row arrived (or a minute after the job). */
    private static void consume(String bootstrapServers, String topic) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            while (records.size() < ROWS && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                    long now = System.currentTimeMillis();
                    Matcher m = ID_AND_TIME.matcher(new String(record.value(), java.nio.charset.StandardCharsets.UTF_8));
                    if (m.find()) {
                        long id = Long.parseLong(m.group(1));
                        receivedMillis.putIfAbsent(id, now - Long.parseLong(m.group(2)));
                        records.putIfAbsent(id, record);
                    }
                }
            }
        }
    }

    @Test
    void everyRowReachesTheBrokerWithinTheBatchInterval() {
        Map<Long, Long> latencies = new TreeMap<>(receivedMillis);
        System.out.println("latency per row id (ms, emitted -> consumed): " + latencies);
        assertEquals(ROWS, latencies.size(), "rows received: " + latencies);
        for (Map.Entry<Long, Long> row : latencies.entrySet()) {
            assertTrue(row.getValue() <= INTERVAL_MILLIS + MARGIN_MILLIS,
                    "row " + row.getKey() + " took " + row.getValue() + " ms; all: " + latencies);
        }
    }

    @Test
    void metricsDescribeTheEncoding() {
        long keyBytes = records.values().stream().mapToLong(r -> r.key().length).sum();
        long valueBytes = records.values().stream().mapToLong(r -> r.value().length).sum();
        System.out.println("kjson metrics: " + CollectingReporter.metrics().keySet());
        assertEquals(ROWS, counter("kjsonRowsEncoded"));
        assertEquals(keyBytes, counter("kjsonKeyBytesEncoded"), "the key bytes on the topic");
        assertEquals(valueBytes, counter("kjsonValueBytesEncoded"), "the value bytes on the topic");
        long nanos = counter("kjsonEncodeNanos");
        assertTrue(nanos > 0 && nanos < TimeUnit.SECONDS.toNanos(10), "encode time " + nanos);
        Histogram perBatch = (Histogram) CollectingReporter.only("kjson-encode", "kjsonRowsPerBatch");
        // One row a second and a 500 ms interval: the timer sends almost every row alone.
        assertTrue(perBatch.getCount() >= ROWS / 2 && perBatch.getCount() <= ROWS, "batches " + perBatch.getCount());
        assertTrue(perBatch.getStatistics().getMax() <= 3, "rows per batch max " + perBatch.getStatistics().getMax());
        assertEquals(ROWS, Math.round(perBatch.getStatistics().getMean() * perBatch.getCount()));
        assertEquals(0, gauge("kjsonBufferedRows"), "nothing is left buffered after the job");
        assertEquals("dynamic", gauge("kjsonEncoderKind"));
        assertEquals(0, gauge("kjsonEncoderGenerated"));
        assertTrue(String.valueOf(gauge("kjsonNativeVersion")).matches("\\d+\\.\\d+\\.\\d+\\S* \\w+-\\w+"),
                String.valueOf(gauge("kjsonNativeVersion")));
        assertTrue(CollectingReporter.metrics().keySet().stream().anyMatch(k -> k.endsWith(".kjsonArrowAllocatedBytes")));
    }

    private static long counter(String name) {
        return ((Counter) CollectingReporter.only("kjson-encode", name)).getCount();
    }

    private static Object gauge(String name) {
        return ((Gauge<?>) CollectingReporter.only("kjson-encode", name)).getValue();
    }
}
