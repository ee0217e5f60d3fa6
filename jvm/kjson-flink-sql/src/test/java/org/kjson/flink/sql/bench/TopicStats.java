package org.kjson.flink.sql.bench;

import java.time.Duration;

import org.kjson.flink.sql.broker.TopicReader;

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
        long[] acc = {0, Long.MAX_VALUE, Long.MIN_VALUE, 0, 0}; // records, first, last, sum, xor
        TopicReader.forEachCommitted(bootstrapServers, topic, Duration.ofMinutes(10), r -> {
            acc[0]++;
            acc[1] = Math.min(acc[1], r.timestamp());
            acc[2] = Math.max(acc[2], r.timestamp());
            long hash = fnv1a(fnv1a(0xcbf29ce484222325L, r.key()), r.value());
            acc[3] += hash;
            acc[4] ^= hash;
        });
        return new TopicStats(acc[0], acc[1], acc[2], acc[3], acc[4]);
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
