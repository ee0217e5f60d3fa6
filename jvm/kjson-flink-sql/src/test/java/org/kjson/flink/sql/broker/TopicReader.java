package org.kjson.flink.sql.broker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a whole topic with {@code isolation.level = read_committed}: every partition from the
 * beginning up to its last stable offset (so an open transaction would hide what follows it,
 * which the checks report as missing records). The one read_committed reader of the project: the
 * connector tests, the end-to-end benchmark ({@code TopicStats}) and the cluster scripts'
 * {@code scripts/cluster/TopicCheck.java} (compiled with this file against the broker's jars) all
 * read through {@link #forEachCommitted}. Needs kafka-clients only.
 */
public final class TopicReader {
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    private TopicReader() {}

    public static List<TopicRecord> readCommitted(String bootstrapServers, String topic) {
        List<TopicRecord> records = new ArrayList<>();
        forEachCommitted(bootstrapServers, topic, DEADLINE,
                r -> records.add(new TopicRecord(r.partition(), r.offset(), r.key(), r.value())));
        return records;
    }

    /**
     * Hands every committed record of the topic to {@code sink}, partition by partition in offset
     * order within each, and returns how many; fails when the end offsets are not reached within
     * {@code deadline}.
     */
    public static long forEachCommitted(String bootstrapServers, String topic, Duration deadline,
            Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        config.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 << 20);
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 << 20);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, deadline).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, deadline);
            long count = 0;
            long stop = System.nanoTime() + deadline.toNanos();
            while (!reachedEnd(consumer, end)) {
                if (System.nanoTime() > stop) {
                    throw new IllegalStateException("topic " + topic + " not read to its end offsets " + end + " in " + deadline);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    sink.accept(r);
                    count++;
                }
            }
            return count;
        }
    }

    private static boolean reachedEnd(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }
}
