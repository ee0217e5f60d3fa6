package org.kjson.flink.sql.source;

import java.util.List;

import org.apache.flink.table.data.RowData;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A Kafka record after the fetcher thread decoded it: its coordinates, timestamp and headers
 * (the key and value bytes are dropped once decoded), and either the rows it gives, metadata
 * columns included (none, one, or several), or Flink's message for a record Flink's
 * deserializer throws on. It travels through Flink's own fetcher queue, whose element type is
 * the consumer record, so the reader, its split states and offset commits stay Flink's.
 */
final class DecodedRecord extends ConsumerRecord<byte[], byte[]> {
    private final List<RowData> rows;
    private final String failure;

    DecodedRecord(ConsumerRecord<byte[], byte[]> record, List<RowData> rows, String failure) {
        super(record.topic(), record.partition(), record.offset(), record.timestamp(), record.timestampType(),
                record.serializedKeySize(), record.serializedValueSize(), null, null, record.headers(),
                record.leaderEpoch());
        this.rows = rows;
        this.failure = failure;
    }

    List<RowData> rows() {
        return rows;
    }

    /** Flink's message for this record, or null when it decoded. */
    String failure() {
        return failure;
    }
}
