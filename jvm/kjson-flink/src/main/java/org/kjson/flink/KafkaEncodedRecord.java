package org.kjson.flink;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * One encoded Kafka record: the key and value bytes exactly as Flink's Kafka table sink would
 * write them. A null key means the sink has no key format; a null value is an upsert-kafka
 * tombstone. The arrays are owned by this record (copies out of the encoder's slabs) and must not
 * be modified: the record is immutable, so Flink hands it from the encode operator to the Kafka
 * writer without copying it ({@link KafkaEncodedRecordSerializer}).
 */
@TypeInfo(KafkaEncodedRecordTypeInfo.Factory.class)
public final class KafkaEncodedRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    private final byte[] key;
    private final byte[] value;

    public KafkaEncodedRecord(byte[] key, byte[] value) {
        this.key = key;
        this.value = value;
    }

    public byte[] getKey() {
        return key;
    }

    public byte[] getValue() {
        return value;
    }

    public boolean isTombstone() {
        return value == null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KafkaEncodedRecord r && Arrays.equals(key, r.key) && Arrays.equals(value, r.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(key), Arrays.hashCode(value));
    }

    @Override
    public String toString() {
        return "KafkaEncodedRecord{key=" + text(key) + ", value=" + text(value) + "}";
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }
}
