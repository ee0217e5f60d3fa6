package org.kjson.flink.sql.source;

import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitState;
import org.apache.flink.table.data.RowData;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Emits a {@link DecodedRecord}'s rows with the record's timestamp, then moves its split to the
 * next offset, as Flink's {@code KafkaRecordEmitter} does after deserializing a record: a
 * checkpoint between two records holds exactly the offset after the last record whose rows were
 * emitted. A record Flink's deserializer throws on fails the task here, at its place in the
 * split, with the stock source's messages ({@link DeserializeFailure}, per Flink line).
 */
final class DecodedRecordEmitter implements RecordEmitter<ConsumerRecord<byte[], byte[]>, RowData, KafkaPartitionSplitState> {

    @Override
    public void emitRecord(ConsumerRecord<byte[], byte[]> record, SourceOutput<RowData> output,
            KafkaPartitionSplitState split) throws Exception {
        DecodedRecord decoded = (DecodedRecord) record;
        if (decoded.failure() != null) {
            throw DeserializeFailure.of(decoded, decoded.failure());
        }
        try {
            for (RowData row : decoded.rows()) {
                output.collect(row, record.timestamp());
            }
        } catch (Exception e) {
            // Flink's rows go downstream inside the deserializer's call, so the stock emitter wraps a
            // chained operator's failure (a NOT NULL column's enforcer) as a record's.
            throw DeserializeFailure.of(decoded, e);
        }
        split.setCurrentOffset(record.offset() + 1);
    }
}
