package org.kjson.flink.sql.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A topic read back with read_committed: record count, the producer timestamps of the first and
 * last record, and an order-independent digest of the records (sum and xor of a 64-bit FNV-1a
 * hash of key and value), so two runs' outputs compare without holding them in memory.
 */
final class TopicStats {
    final long records;
    final long firstTimestamp;
    final long lastTimestamp;
    final long digestSum;
    final long digestXor;

    private TopicStats(long records, long firstTimestamp, long lastTimestamp, long digestSum, long digestXor) {
        this.records = records;
        this.firstTimestamp = firstTimestamp;
        this.lastTimestamp = lastTimestamp;
        this.digestSum = digestSum;
        this.digestXor = digestXor;
    }

    double spanSeconds() {
        return (lastTimestamp - firstTimestamp) / 1000.0;
    }

    boolean sameRecords(TopicStats other) {
        return records == other.records && digestSum == other.digestSum && digestXor == other.digestXor;
    }

    static TopicStats read(String bootstrapServers, String topic) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 20_000);
        config.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 << 20);
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 << 20);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(60)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(60));
            long records = 0;
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            long sum = 0;
            long xor = 0;
            while (!end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    records++;
                    first = Math.min(first, r.timestamp());
                    last = Math.max(last, r.timestamp());
                    long hash = fnv1a(fnv1a(0xcbf29ce484222325L, r.key()), r.value());
                    sum += hash;
                    xor ^= hash;
                }
            }
            return new TopicStats(records, first, last, sum, xor);
        }
    }

    /** FNV-1a over the bytes, with a length marker so that null, empty and the key/value split differ. */
    private static long fnv1a(long hash, byte[] bytes) {
        long h = hash ^ (bytes == null ? -1 : bytes.length);
        h *= 0x100000001b3L;
        if (bytes != null) {
            for (byte b : bytes) {
                h ^= b & 0xff;
                h *= 0x100000001b3L;
            }
        }
        return h;
    }

    @Override
    public String toString() {
        return records + " records, digest " + Long.toHexString(digestSum) + "/" + Long.toHexString(digestXor);
    }
}
