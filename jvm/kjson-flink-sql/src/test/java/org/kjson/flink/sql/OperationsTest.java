package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
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
 * What an operator of a slow, checkpoint-less {@code kjson-kafka} job sees: no checkpoints, a batch
 * far larger than the whole input, and {@code kjson.batch-interval} = 500 ms. The source makes row
 * i only once row i - 1 is on the topic, so with the input unfinished and the batch far from full
 * only the interval's timer can send a row: without it the job stalls on its first row. The
 * operator's metrics must describe what was encoded, checked against the bytes on the topic.
 *
 * <p>At-least-once delivery: records are visible to a read_uncommitted consumer as soon as the
 * producer sends them. Under exactly-once nothing would be visible before a checkpoint commits
 * the transaction, and there are no checkpoints here.
 */
class OperationsTest {
    static final int ROWS = 12;
    static final long INTERVAL_MILLIS = 500;
    /** How long the source waits for the previous row: far beyond the interval, so only a stall ends it. */
    static final long STALL_SECONDS = 60;

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
    /** Counted down when row id i is on the topic. */
    private static final CountDownLatch[] onTopic = new CountDownLatch[ROWS];
    /** Rows whose predecessor was not on the topic within STALL_SECONDS of being made. */
    private static final List<Long> stalledAfter = new CopyOnWriteArrayList<>();
    private static final Pattern ID_AND_TIME = Pattern.compile("\"id\":(\\d+),\"emitted_ms\":(\\d+)");

    @BeforeAll
    static void runSlowJob() throws Exception {
        for (int i = 0; i < ROWS; i++) {
            onTopic[i] = new CountDownLatch(1);
        }
        KafkaBroker broker = SharedBroker.get();
        String topic = "slow-" + System.nanoTime();
        broker.createTopic(topic, 1);
        Thread consumer = new Thread(() -> consume(broker.bootstrapServers(), topic), "slow-topic-consumer");
        consumer.setDaemon(true);
        consumer.start();

        Configuration config = Configuration.fromMap(CollectingReporter.configuration());
        config.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        // The source waits inside its task: the sink, with its timer, must be in another task.
        env.disableOperatorChaining();
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        GeneratorFunction<Long, Row> rows = OperationsTest::rowAfterThePreviousIsOnTheTopic;
        DataGeneratorSource<Row> source = new DataGeneratorSource<>(rows, ROWS,
                Types.ROW_NAMED(new String[] {"id", "emitted_ms", "note"}, Types.LONG, Types.LONG, Types.STRING));
        tableEnv.createTemporaryView("slow_rows",
                tableEnv.fromDataStream(env.fromSource(source, WatermarkStrategy.noWatermarks(), "one row per second")));
        tableEnv.executeSql(String.format(DDL, topic, broker.bootstrapServers()));
        tableEnv.executeSql("INSERT INTO slow_sink SELECT * FROM slow_rows").await(4, TimeUnit.MINUTES);
        consumer.join(TimeUnit.SECONDS.toMillis(60));
    }

    private static Row rowAfterThePreviousIsOnTheTopic(long index) throws InterruptedException {
        if (index > 0 && !onTopic[(int) index - 1].await(STALL_SECONDS, TimeUnit.SECONDS)) {
            stalledAfter.add(index - 1);
        }
        return Row.of(index, System.currentTimeMillis(), "row " + index);
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
                        onTopic[(int) id].countDown();
                    }
                }
            }
        }
    }

    @Test
    void theTimerSendsEveryRowBeforeTheInputEnds() {
        Map<Long, Long> latencies = new TreeMap<>(receivedMillis);
        System.out.println("latency per row id (ms, emitted -> consumed, shown only): " + latencies);
        assertEquals(ROWS, latencies.size(), "rows received: " + latencies);
        assertEquals(List.of(), stalledAfter, "rows not sent while the source waited for them");
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
        // A row is made only once the one before is on the topic: every batch holds one row.
        assertEquals(ROWS, perBatch.getCount(), "batches");
        assertEquals(1, perBatch.getStatistics().getMax(), "rows per batch max");
        assertEquals(1, perBatch.getStatistics().getMin(), "rows per batch min");
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
