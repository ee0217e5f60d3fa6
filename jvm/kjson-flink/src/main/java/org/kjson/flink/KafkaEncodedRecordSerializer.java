package org.kjson.flink;

import java.io.IOException;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink's serializer for {@link KafkaEncodedRecord}: the key and then the value, each as a length
 * (-1 for null) and its bytes. The record is immutable, so {@code copy} returns it as it is:
 * with object reuse off (Flink's default) a chained operator boundary would otherwise copy both
 * arrays of every record, as the POJO serializer did.
 */
public final class KafkaEncodedRecordSerializer extends TypeSerializerSingleton<KafkaEncodedRecord> {
    private static final long serialVersionUID = 1L;

    public static final KafkaEncodedRecordSerializer INSTANCE = new KafkaEncodedRecordSerializer();

    private static final int NULL_LENGTH = -1;

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public KafkaEncodedRecord createInstance() {
        return new KafkaEncodedRecord(null, new byte[0]);
    }

    @Override
    public KafkaEncodedRecord copy(KafkaEncodedRecord from) {
        return from;
    }

    @Override
    public KafkaEncodedRecord copy(KafkaEncodedRecord from, KafkaEncodedRecord reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(KafkaEncodedRecord record, DataOutputView target) throws IOException {
        writeBytes(record.getKey(), target);
        writeBytes(record.getValue(), target);
    }

    @Override
    public KafkaEncodedRecord deserialize(DataInputView source) throws IOException {
        byte[] key = readBytes(source);
        return new KafkaEncodedRecord(key, readBytes(source));
    }

    @Override
    public KafkaEncodedRecord deserialize(KafkaEncodedRecord reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        copyBytes(source, target);
        copyBytes(source, target);
    }

    @Override
    public TypeSerializerSnapshot<KafkaEncodedRecord> snapshotConfiguration() {
        return new Snapshot();
    }

    private static void writeBytes(byte[] bytes, DataOutputView target) throws IOException {
        if (bytes == null) {
            target.writeInt(NULL_LENGTH);
        } else {
            target.writeInt(bytes.length);
            target.write(bytes);
        }
    }

    private static byte[] readBytes(DataInputView source) throws IOException {
        int length = source.readInt();
        if (length == NULL_LENGTH) {
            return null;
        }
        if (length < 0) {
            throw new IOException("corrupt KafkaEncodedRecord: length " + length);
        }
        byte[] bytes = new byte[length];
        source.readFully(bytes);
        return bytes;
    }

    private static void copyBytes(DataInputView source, DataOutputView target) throws IOException {
        int length = source.readInt();
        target.writeInt(length);
        if (length > 0) {
            target.write(source, length);
        }
    }

    /** Checkpoints that hold records (e.g. in a buffering operator) restore with this serializer. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<KafkaEncodedRecord> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
