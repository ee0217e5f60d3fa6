package org.kjson.flink;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

import org.apache.flink.api.common.typeinfo.TypeInfo;
import org.apache.flink.table.data.RowData;

/**
 * One encoded Kafka record: the key and value bytes exactly as Flink's Kafka table sink would
 * write them. A null key means the sink has no key format; a null value is an upsert-kafka
 * tombstone. The arrays are owned by this record (copies out of the encoder's slabs) and must not
 * be modified: the record is immutable, so Flink hands it from the encode operator to the Kafka
 * writer without copying it ({@link KafkaEncodedRecordSerializer}).
 *
 * <p>Beside the bytes a record may carry the row's Kafka metadata ({@link RecordMetadata}: record
 * timestamp, headers, topic) and, for a custom partitioner only, a copy of the row the sink
 * consumed (Flink's internal format), which the partitioner is handed as the stock sink hands it.
 */
@TypeInfo(KafkaEncodedRecordTypeInfo.Factory.class)
public final class KafkaEncodedRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    private final byte[] key;
    private final byte[] value;
    /** Null: no metadata columns. */
    private final RecordMetadata metadata;
    /** Null unless a custom partitioner needs the consumed row. */
    private final transient RowData row;

    public KafkaEncodedRecord(byte[] key, byte[] value) {
        this(key, value, null, null);
    }

    public KafkaEncodedRecord(byte[] key, byte[] value, RecordMetadata metadata, RowData row) {
        this.key = key;
        this.value = value;
        this.metadata = metadata;
        this.row = row;
    }

    public byte[] getKey() {
        return key;
    }

    public byte[] getValue() {
        return value;
    }

    public RecordMetadata getMetadata() {
        return metadata;
    }

    public RowData getRow() {
        return row;
    }

    public boolean isTombstone() {
        return value == null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KafkaEncodedRecord r && Arrays.equals(key, r.key) && Arrays.equals(value, r.value)
                && Objects.equals(metadata, r.metadata) && Objects.equals(row, r.row);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(key), Arrays.hashCode(value), metadata);
    }

    @Override
    public String toString() {
        return "KafkaEncodedRecord{key=" + text(key) + ", value=" + text(value)
                + (metadata == null ? "" : ", metadata=" + metadata) + (row == null ? "" : ", row=" + row) + "}";
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }
}
