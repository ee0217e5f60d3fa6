package org.kjson.flink;

import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.RowType;
import org.kjson.flink.arrow.RowDataArrowWriter;
import org.kjson.testkit.RandomRows;

/**
 * Drives every native method through its success and error paths; {@link CheckJniTest} runs it
 * in a JVM with {@code -Xcheck:jni}, which reports JNI misuse (calls with a pending exception,
 * bad references) on the console.
 */
public final class JniExercise {
    public static void main(String[] args) {
        RowType type = NativeJsonEncoderContractTest.ROW;
        SinkDescription sink = NativeJsonEncoderContractTest.upsertSink(Map.of("value.json.map-null-key.mode", "LITERAL"));
        SinkDescription failing = NativeJsonEncoderContractTest.upsertSink(Map.of());
        RandomRows random = new RandomRows(1, 0.2, true);
        int records = 0;
        int errors = 0;
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            for (int i = 0; i < 300; i++) {
                writer.append(random.row(type, random.kind()));
            }
            writer.finish();
            for (NativeJsonEncoder.Handoff handoff : NativeJsonEncoder.Handoff.values()) {
                try (NativeJsonEncoder encoder = NativeJsonEncoder.open(sink, NativeJsonEncoderContractTest.TARGET, allocator, handoff)) {
                    for (int round = 0; round < 3; round++) {
                        EncodedBatch batch = encoder.encode(writer.root(), writer.rowKinds());
                        for (int i = 0; i < batch.size(); i++) {
                            records += batch.key(i).length + (batch.isTombstone(i) ? 0 : batch.value(i).length) > 0 ? 1 : 0;
                        }
                    }
                    errors += expectThrows(() -> encoder.encode(writer.root(), new byte[] {5}));
                    errors += expectThrows(() -> encoder.encode(0, 0, null));
                    if (encoder.kind() != NativeJsonEncoder.Kind.DYNAMIC || encoder.kindDescription().isEmpty()
                            || NativeJsonEncoder.nativeVersion().isEmpty()) {
                        throw new AssertionError("kind or version missing: " + encoder.kindDescription());
                    }
                }
                try (NativeJsonEncoder encoder = NativeJsonEncoder.open(failing, NativeJsonEncoderContractTest.TARGET, allocator, handoff);
                        RowDataArrowWriter nullKey = new RowDataArrowWriter(type, allocator)) {
                    java.util.HashMap<Object, Object> map = new java.util.HashMap<>();
                    map.put(null, 1);
                    nullKey.append(GenericRowData.of(1L, null, null, new GenericMapData(map)));
                    errors += expectThrows(() -> encoder.encode(nullKey.finish(), null));
                }
            }
            errors += expectThrows(() -> NativeJsonEncoder.open(NativeJsonEncoderContractTest.upsertSink(
                    Map.of("value.json.encode.ignore-null-fields", "maybe")), NativeJsonEncoderContractTest.TARGET, allocator,
                    NativeJsonEncoder.Handoff.ARRAYS));
            errors += expectThrows(() -> NativeJsonEncoder.close(0));
            errors += expectThrows(() -> NativeJsonEncoder.kindDescription0(-1));
            errors += expectThrows(() -> NativeJsonEncoder.encodeToDirect(-1, 0, 0, null, new Object[6]));
            errors += expectThrows(() -> NativeJsonEncoder.open("", new String[] {null}, new String[] {"INT"}, new String[0],
                    new String[] {"connector", "kafka", "format", "json"}, "2.2", "jdk17"));
            errors += expectThrows(() -> NativeJsonEncoder.open("", new String[] {"a"}, new String[] {"INT"}, null,
                    new String[] {"connector", "kafka", "format", "json"}, "2.2", "jdk17"));
            errors += expectThrows(() -> NativeJsonEncoder.open(SinkDescription.of(type, List.of(), Map.of("connector", "kafka")),
                    NativeJsonEncoderContractTest.TARGET, allocator, NativeJsonEncoder.Handoff.ARRAYS));
            errors += exerciseBinaryRows(allocator);
        }
        System.out.println("JniExercise OK: " + records + " records, " + errors + " expected errors, open handles "
                + NativeJsonEncoder.openHandleCount());
    }

    /** The binary-row decode: a batch (the array written in a critical section), then its error paths. */
    private static int exerciseBinaryRows(BufferAllocator allocator) {
        List<byte[]> values = List.of("{\"id\":1,\"name\":\"a name longer than seven\"}".getBytes(), "{".getBytes());
        int errors = 0;
        try (NativeJsonDecoder decoder = NativeJsonDecoder.open(NativeJsonDecoderTest.FLAT,
                NativeJsonEncoderContractTest.TARGET, allocator)) {
            decoder.timestampLayout(NativeJsonDecoder.TimestampLayout.AS_FLINK_ROWS).onError(NativeJsonDecoder.OnError.COLLECT);
            BinaryRowBatch batch = decoder.decodeBinaryRows(null, values);
            if (batch.rowCount() != 1 || batch.errors().size() != 1 || batch.row(0).getLong(0) != 1) {
                throw new AssertionError("binary rows: " + batch.rowCount() + " rows, " + batch.errors());
            }
            errors += expectThrows(() -> decoder.decodeBinaryRows(null, null, null, new byte[2], new int[] {0},
                    new int[] {5}));
            errors += expectThrows(() -> NativeJsonDecoder.decodeBinaryRows(decoder.handle(), null, null, null,
                    new byte[0], new int[0], new int[0], new Object[1], null));
        }
        try (NativeJsonDecoder nested = NativeJsonDecoder.open(NativeJsonDecoderTest.NESTED,
                NativeJsonEncoderContractTest.TARGET, allocator)) {
            nested.timestampLayout(NativeJsonDecoder.TimestampLayout.AS_FLINK_ROWS);
            List<byte[]> nestedValues = List.of(("{\"id\":1,\"r\":{\"a\":2,\"b\":\"a string of more than 7\"},"
                    + "\"tags\":[\"t\",null],\"m\":{\"k\":3},\"items\":[{\"x\":1.5,\"y\":[1,null]},null]}").getBytes());
            BinaryRowBatch batch = nested.decodeBinaryRows(null, nestedValues);
            if (batch.rowCount() != 1 || batch.row(0).getArray(4).getRow(0, 2).getArray(1).getInt(0) != 1) {
                throw new AssertionError("nested binary rows: " + batch.rowCount() + " rows");
            }
        }
        try (NativeJsonDecoder byPrecision = NativeJsonDecoder.open(NativeJsonDecoderTest.FLAT,
                NativeJsonEncoderContractTest.TARGET, allocator)) {
            errors += expectThrows(() -> byPrecision.decodeBinaryRows(null, values));
        }
        errors += expectThrows(() -> NativeJsonDecoder.binaryRowsRefusal(-1));
        return errors;
    }

    private static int expectThrows(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException expected) {
            return 1;
        }
        throw new AssertionError("expected an exception");
    }

}
