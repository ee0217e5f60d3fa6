package org.kjson.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

class KafkaEncodedRecordSerializerTest {
    private static final KafkaEncodedRecordSerializer SERIALIZER = KafkaEncodedRecordSerializer.INSTANCE;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static final List<KafkaEncodedRecord> RECORDS = List.of(
            new KafkaEncodedRecord(utf8("{\"id\":1}"), utf8("{\"id\":1,\"name\":\"é\"}")),
            new KafkaEncodedRecord(null, utf8("{}")),
            new KafkaEncodedRecord(utf8("{\"id\":2}"), null),
            new KafkaEncodedRecord(new byte[0], new byte[0]),
            new KafkaEncodedRecord(null, null),
            new KafkaEncodedRecord(utf8("{\"id\":3}"), utf8("{}"), new RecordMetadata(-5L, null, null, null), null),
            new KafkaEncodedRecord(null, null, new RecordMetadata(null, new String[] {"b", "", "é"},
                    new byte[][] {{(byte) 0xff, 0}, {}, utf8("x")}, "orders-eu"), null),
            new KafkaEncodedRecord(utf8("{}"), utf8("{}"), new RecordMetadata(null, null, null, null), null));

    @Test
    void typeInformationOfTheClassIsTheDedicatedType() {
        assertSame(KafkaEncodedRecordTypeInfo.INSTANCE, TypeInformation.of(KafkaEncodedRecord.class));
        assertSame(KjsonStreams.recordType(), TypeInformation.of(KafkaEncodedRecord.class));
    }

    @Test
    void copyHandsTheImmutableRecordOn() {
        KafkaEncodedRecord record = RECORDS.get(0);
        assertSame(record, SERIALIZER.copy(record));
        assertSame(record, SERIALIZER.copy(record, RECORDS.get(1)));
    }

    @Test
    void serializeRoundTripsNullKeysTombstonesAndEmptyValues() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        for (KafkaEncodedRecord record : RECORDS) {
            SERIALIZER.serialize(record, out);
        }
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        for (KafkaEncodedRecord record : RECORDS) {
            assertEquals(record, SERIALIZER.deserialize(in));
        }
        assertEquals(0, in.available());
    }

    @Test
    void copyBetweenViewsKeepsTheBytes() throws IOException {
        DataOutputSerializer first = new DataOutputSerializer(64);
        for (KafkaEncodedRecord record : RECORDS) {
            SERIALIZER.serialize(record, first);
        }
        DataInputDeserializer in = new DataInputDeserializer(first.getCopyOfBuffer());
        DataOutputSerializer second = new DataOutputSerializer(64);
        for (int i = 0; i < RECORDS.size(); i++) {
            SERIALIZER.copy(in, second);
        }
        assertEquals(first.length(), second.length());
        DataInputDeserializer again = new DataInputDeserializer(second.getCopyOfBuffer());
        for (KafkaEncodedRecord record : RECORDS) {
            assertEquals(record, SERIALIZER.deserialize(again));
        }
    }

    @Test
    void corruptLengthIsAnError() {
        DataOutputSerializer out = new DataOutputSerializer(8);
        assertThrows(IOException.class, () -> {
            out.writeInt(-7);
            SERIALIZER.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        });
    }

    /** Records of a sink with a custom partitioner carry the consumed row, kind included. */
    @Test
    void rowsRoundTripWithTheRowSerializerAndItsSnapshot() throws IOException {
        RowType rowType = RowType.of(new BigIntType(), VarCharType.STRING_TYPE);
        KafkaEncodedRecordSerializer serializer = KafkaEncodedRecordSerializer.withRows(new RowDataSerializer(rowType));
        GenericRowData row = GenericRowData.ofKind(RowKind.UPDATE_AFTER, 7L, StringData.fromString("é"));
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(new KafkaEncodedRecord(utf8("{}"), null, null, row), out);
        serializer.serialize(RECORDS.get(6), out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        RowData restored = serializer.deserialize(in).getRow();
        assertEquals(RowKind.UPDATE_AFTER, restored.getRowKind());
        assertEquals(7L, restored.getLong(0));
        assertEquals("é", restored.getString(1).toString());
        assertEquals(RECORDS.get(6), serializer.deserialize(in));

        TypeSerializerSnapshot<KafkaEncodedRecord> snapshot = serializer.snapshotConfiguration();
        DataOutputSerializer config = new DataOutputSerializer(64);
        snapshot.writeSnapshot(config);
        TypeSerializerSnapshot<KafkaEncodedRecord> read = new KafkaEncodedRecordSerializer.Snapshot();
        read.readSnapshot(snapshot.getCurrentVersion(), new DataInputDeserializer(config.getCopyOfBuffer()),
                getClass().getClassLoader());
        assertEquals(serializer, read.restoreSerializer());
        assertEquals(true, snapshot.resolveSchemaCompatibility(read).isCompatibleAsIs());
        assertEquals(true, SERIALIZER.snapshotConfiguration().resolveSchemaCompatibility(read).isIncompatible());
        assertThrows(IllegalStateException.class,
                () -> SERIALIZER.serialize(new KafkaEncodedRecord(null, null, null, row), new DataOutputSerializer(8)));
    }

    /** What releases before metadata checkpointed (key and value only) restores and migrates. */
    @Test
    void keyValueOnlyStateOfEarlierReleasesRestoresAndMigrates() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeInt(2);
        out.write(utf8("{}"));
        out.writeInt(-1);
        TypeSerializerSnapshot<KafkaEncodedRecord> old = new KafkaEncodedRecordSerializer.Snapshot();
        // Version 3, no body: Flink's SimpleTypeSerializerSnapshot, which those releases used.
        old.readSnapshot(3, new DataInputDeserializer(new byte[0]), getClass().getClassLoader());
        KafkaEncodedRecord restored = old.restoreSerializer().deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertEquals(new KafkaEncodedRecord(utf8("{}"), null), restored);
        assertEquals(true, SERIALIZER.snapshotConfiguration().resolveSchemaCompatibility(old).isCompatibleAfterMigration());
    }

    @Test
    void snapshotRestoresTheSameSerializer() throws IOException {
        TypeSerializerSnapshot<KafkaEncodedRecord> snapshot = SERIALIZER.snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(16);
        snapshot.writeSnapshot(out);
        TypeSerializerSnapshot<KafkaEncodedRecord> restored = new KafkaEncodedRecordSerializer.Snapshot();
        restored.readSnapshot(snapshot.getCurrentVersion(), new DataInputDeserializer(out.getCopyOfBuffer()),
                getClass().getClassLoader());
        TypeSerializer<KafkaEncodedRecord> serializer = restored.restoreSerializer();
        assertSame(SERIALIZER, serializer);
        assertEquals(true, restored.resolveSchemaCompatibility(snapshot).isCompatibleAsIs());
    }
}
