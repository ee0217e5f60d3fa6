package org.kjson.flink.sql.support;

import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.table.data.RowData;

/**
 * A custom {@code sink.partitioner} whose choice depends on everything a Kafka table sink hands a
 * partitioner: the consumed row (its first column, its arity with the metadata columns, its row
 * kind, whether its last column is null), the key and value bytes, the topic (its last character: the tests' runs name their topics
 * apart by a prefix) and its partitions.
 * It fails if it was not opened first. Deterministic, so a stock and a kjson run must agree on
 * every record's partition.
 */
public final class RowAwarePartitioner implements KafkaPartitioner<RowData> {
    private static final long serialVersionUID = 1L;

    private int parallelInstances = -1;

    @Override
    public void open(int parallelInstanceId, int parallelInstances) {
        this.parallelInstances = parallelInstances;
    }

    @Override
    public int partition(RowData row, byte[] key, byte[] value, String topic, int[] partitions) {
        if (parallelInstances < 1) {
            throw new IllegalStateException("partition() before open()");
        }
        long hash = row.getLong(0) * 31 + row.getArity() * 7L + row.getRowKind().ordinal()
                + (row.isNullAt(row.getArity() - 1) ? 13 : 0) + (key == null ? -1 : key.length * 3L)
                + (value == null ? -5 : value.length) + topicSuffix(topic);
        return partitions[(int) Math.floorMod(hash, (long) partitions.length)];
    }

    /** The tests' topics differ per run in their prefix only ({@code <run prefix>a}, {@code <run prefix>b}). */
    private static int topicSuffix(String topic) {
        return topic.charAt(topic.length() - 1) * 11;
    }
}
