package org.kjson.flink;

import java.io.IOException;
import java.util.Objects;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.RowData;

/**
 * Flink's serializer for {@link KafkaEncodedRecord}: the key and then the value, each as a length
 * (-1 for null) and its bytes, then one byte saying what else the record carries: its
 * {@link RecordMetadata} ({@link RecordMetadataFormat}) and its row (by the row serializer that
 * a sink with a custom partitioner gives its record type). The record is immutable, so
 * {@code copy} returns it as it is: with object reuse off (Flink's default) a chained operator
 * boundary would otherwise copy both arrays of every record, as the POJO serializer did.
 *
 * <p>Releases before metadata wrote the key and the value only; their checkpoints restore through
 * {@link #KEY_VALUE_ONLY} and migrate ({@link Snapshot}).
 */
public final class KafkaEncodedRecordSerializer extends TypeSerializer<KafkaEncodedRecord> {
    private static final long serialVersionUID = 2L;

    /** Records with or without metadata, never with a row. */
    public static final KafkaEncodedRecordSerializer INSTANCE = new KafkaEncodedRecordSerializer(null, false);

    /** The format before metadata: key and value only (reads the state of older releases). */
    static final KafkaEncodedRecordSerializer KEY_VALUE_ONLY = new KafkaEncodedRecordSerializer(null, true);

    private static final int NULL_LENGTH = -1;
    private static final int HAS_METADATA = 1;
    private static final int HAS_ROW = 2;

    /** Null: the records carry no rows. */
    private final TypeSerializer<RowData> rowSerializer;
    private final boolean keyValueOnly;

    private KafkaEncodedRecordSerializer(TypeSerializer<RowData> rowSerializer, boolean keyValueOnly) {
        this.rowSerializer = rowSerializer;
        this.keyValueOnly = keyValueOnly;
    }

    /** Records that may carry a row of the type {@code rowSerializer} serializes. */
    public static KafkaEncodedRecordSerializer withRows(TypeSerializer<RowData> rowSerializer) {
        return new KafkaEncodedRecordSerializer(Objects.requireNonNull(rowSerializer, "rowSerializer"), false);
    }

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<KafkaEncodedRecord> duplicate() {
        if (rowSerializer == null) {
            return this;
        }
        TypeSerializer<RowData> rows = rowSerializer.duplicate();
        return rows == rowSerializer ? this : new KafkaEncodedRecordSerializer(rows, keyValueOnly);
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
        if (keyValueOnly) {
            return;
        }
        if (record.getRow() != null && rowSerializer == null) {
            throw new IllegalStateException("a KafkaEncodedRecord carries a row, but its type has no row serializer"
                    + " (KafkaEncodedRecordTypeInfo.withRows)");
        }
        target.writeByte((record.getMetadata() != null ? HAS_METADATA : 0) | (record.getRow() != null ? HAS_ROW : 0));
        if (record.getMetadata() != null) {
            RecordMetadataFormat.write(record.getMetadata(), target);
        }
        if (record.getRow() != null) {
            rowSerializer.serialize(record.getRow(), target);
        }
    }

    @Override
    public KafkaEncodedRecord deserialize(DataInputView source) throws IOException {
        byte[] key = readBytes(source);
        byte[] value = readBytes(source);
        if (keyValueOnly) {
            return new KafkaEncodedRecord(key, value);
        }
        int carries = source.readUnsignedByte();
        if ((carries & ~(HAS_METADATA | HAS_ROW)) != 0 || ((carries & HAS_ROW) != 0 && rowSerializer == null)) {
            throw new IOException("corrupt KafkaEncodedRecord: flags " + carries);
        }
        RecordMetadata metadata = (carries & HAS_METADATA) != 0 ? RecordMetadataFormat.read(source) : null;
        RowData row = (carries & HAS_ROW) != 0 ? rowSerializer.deserialize(source) : null;
        return new KafkaEncodedRecord(key, value, metadata, row);
    }

    @Override
    public KafkaEncodedRecord deserialize(KafkaEncodedRecord reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KafkaEncodedRecordSerializer s && keyValueOnly == s.keyValueOnly
                && Objects.equals(rowSerializer, s.rowSerializer);
    }

    @Override
    public int hashCode() {
        return Objects.hash(keyValueOnly, rowSerializer);
    }

    @Override
    public TypeSerializerSnapshot<KafkaEncodedRecord> snapshotConfiguration() {
        return new Snapshot(rowSerializer == null ? null : rowSerializer.snapshotConfiguration());
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

    /**
     * Checkpoints that hold records (e.g. in a buffering operator) restore with this. Version 3
     * is what releases before metadata wrote (Flink's {@code SimpleTypeSerializerSnapshot}, no
     * body): those records are key and value only and migrate. Version 4 says whether the records
     * carry rows and, if so, holds the row serializer's snapshot.
     */
    public static final class Snapshot implements TypeSerializerSnapshot<KafkaEncodedRecord> {
        private static final int KEY_VALUE_ONLY_VERSION = 3;
        private static final int CURRENT_VERSION = 4;

        private boolean keyValueOnly;
        /** Null: no rows. */
        private TypeSerializerSnapshot<RowData> rowSnapshot;

        /** For Flink, which reads the snapshot into it. */
        public Snapshot() {}

        Snapshot(TypeSerializerSnapshot<RowData> rowSnapshot) {
            this.rowSnapshot = rowSnapshot;
        }

        @Override
        public int getCurrentVersion() {
            return CURRENT_VERSION;
        }

        @Override
        public void writeSnapshot(DataOutputView out) throws IOException {
            out.writeBoolean(rowSnapshot != null);
            if (rowSnapshot != null) {
                TypeSerializerSnapshot.writeVersionedSnapshot(out, rowSnapshot);
            }
        }

        @Override
        public void readSnapshot(int readVersion, DataInputView in, ClassLoader classLoader) throws IOException {
            if (readVersion < KEY_VALUE_ONLY_VERSION - 1 || readVersion > CURRENT_VERSION) {
                throw new IOException("unknown KafkaEncodedRecordSerializer snapshot version " + readVersion);
            }
            keyValueOnly = readVersion <= KEY_VALUE_ONLY_VERSION;
            if (readVersion < KEY_VALUE_ONLY_VERSION) {
                in.readUTF(); // version 2 of Flink's simple snapshot named the serializer class
            }
            if (!keyValueOnly && in.readBoolean()) {
                rowSnapshot = TypeSerializerSnapshot.readVersionedSnapshot(in, classLoader);
            }
        }

        @Override
        public TypeSerializer<KafkaEncodedRecord> restoreSerializer() {
            if (keyValueOnly) {
                return KEY_VALUE_ONLY;
            }
            return rowSnapshot == null ? INSTANCE : withRows(rowSnapshot.restoreSerializer());
        }

        @Override
        public TypeSerializerSchemaCompatibility<KafkaEncodedRecord> resolveSchemaCompatibility(
                TypeSerializerSnapshot<KafkaEncodedRecord> oldSnapshot) {
            if (!(oldSnapshot instanceof Snapshot old) || (old.rowSnapshot == null) != (rowSnapshot == null)) {
                return TypeSerializerSchemaCompatibility.incompatible();
            }
            if (old.keyValueOnly) {
                return TypeSerializerSchemaCompatibility.compatibleAfterMigration();
            }
            if (rowSnapshot == null) {
                return TypeSerializerSchemaCompatibility.compatibleAsIs();
            }
            TypeSerializerSchemaCompatibility<RowData> rows = rowSnapshot.resolveSchemaCompatibility(old.rowSnapshot);
            if (rows.isCompatibleAsIs()) {
                return TypeSerializerSchemaCompatibility.compatibleAsIs();
            }
            return rows.isCompatibleAfterMigration() ? TypeSerializerSchemaCompatibility.compatibleAfterMigration()
                    : TypeSerializerSchemaCompatibility.incompatible();
        }
    }
}
