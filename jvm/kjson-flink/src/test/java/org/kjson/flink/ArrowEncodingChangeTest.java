package org.kjson.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.kjson.flink.arrow.ArrowSchemas;

/**
 * An Arrow engine may carry a column as Utf8 in one batch and as Utf8View or LargeUtf8 in the
 * next (or as kjson's own WTF-8 Binary, which the RowData writer produces, or BinaryView with
 * the same mark), or change a field's nullability, while the logical types stay the same. One native
 * encoder fed such batches in turn writes exactly what a fresh encoder writes for each batch, and
 * still refuses a batch whose Arrow type does not fit the sink's logical type.
 */
class ArrowEncodingChangeTest {
    static final RowType ROW = (RowType) LogicalTypeParser.parse("ROW<id BIGINT NOT NULL, name STRING>",
            ArrowEncodingChangeTest.class.getClassLoader());
    static final Compatibility TARGET = new Compatibility("2.2", "jdk17");
    static final String[] NAMES = {"a\"b", null, "é☃", "a\"b"};

    private BufferAllocator allocator;

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void tearDown() {
        allocator.close(); // throws on leaked Arrow memory
    }

    private static SinkDescription sink() {
        return SinkDescription.of(ROW, List.of("id"),
                Map.of("connector", "upsert-kafka", "key.format", "json", "value.format", "json"));
    }

    private NativeJsonEncoder open() {
        return NativeJsonEncoder.open(sink(), TARGET, allocator, NativeJsonEncoder.Handoff.ARRAYS);
    }

    /** The same four rows, with `name` carried by {@code type} and `id` declared nullable or not. */
    private VectorSchemaRoot batch(ArrowType type, boolean idNullable) {
        BigIntVector id = new BigIntVector("id", new FieldType(idNullable, new ArrowType.Int(64, true), null), allocator);
        FieldVector name = new FieldType(true, type, null, stringMetadata(type)).createNewSingleVector("name", allocator, null);
        id.allocateNew(NAMES.length);
        name.allocateNew();
        for (int i = 0; i < NAMES.length; i++) {
            id.set(i, i + 1);
            if (NAMES[i] == null) {
                name.setNull(i);
                if (name instanceof BaseVariableWidthViewVector v) {
                    unwrittenView(v, i);
                }
                continue;
            }
            byte[] bytes = NAMES[i].getBytes(StandardCharsets.UTF_8);
            if (name instanceof BaseVariableWidthVector v) {
                v.setSafe(i, bytes);
            } else if (name instanceof BaseVariableWidthViewVector v) {
                v.setSafe(i, bytes);
            } else if (name instanceof BaseLargeVariableWidthVector v) {
                v.setSafe(i, bytes);
            }
        }
        List<FieldVector> vectors = List.of(id, name);
        vectors.forEach(v -> v.setValueCount(NAMES.length));
        return new VectorSchemaRoot(vectors);
    }

    /**
     * Java's allocation leaves the 16-byte view of a null slot unwritten: it holds whatever the
     * memory held. Fill it with a view that is not valid UTF-8, so the native import must not
     * read the views of null slots as strings.
     */
    private static void unwrittenView(BaseVariableWidthViewVector vector, int index) {
        long at = (long) index * BaseVariableWidthViewVector.ELEMENT_SIZE;
        vector.getDataBuffer().setInt(at, 5);
        for (int b = 4; b < 9; b++) {
            vector.getDataBuffer().setByte(at + b, 0xFF);
        }
    }

    /** Binary strings say they are WTF-8, as {@code ArrowSchemas} marks them. */
    private static Map<String, String> stringMetadata(ArrowType type) {
        boolean binary = type instanceof ArrowType.Binary || type instanceof ArrowType.BinaryView;
        return binary ? Map.of(ArrowSchemas.ENCODING_KEY, ArrowSchemas.WTF_8) : null;
    }

    private static final byte[] KINDS = {RowKind.INSERT.toByteValue(), RowKind.DELETE.toByteValue(),
            RowKind.UPDATE_AFTER.toByteValue(), RowKind.INSERT.toByteValue()};

    private static List<byte[]> records(EncodedBatch out) {
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            records.add(out.key(i));
            records.add(out.value(i));
        }
        return records;
    }

    private List<byte[]> fresh(VectorSchemaRoot root) {
        try (NativeJsonEncoder encoder = open()) {
            return records(encoder.encode(root, KINDS));
        }
    }

    private static void assertSame(List<byte[]> expected, List<byte[]> actual, String what) {
        assertEquals(expected.size(), actual.size(), what);
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), what + ", record " + i);
        }
    }

    @Test
    void oneEncoderReplansAcrossUtf8ViewLargeUtf8Wtf8BinaryAndNullability() {
        ArrowType[] types = {ArrowType.Utf8.INSTANCE, ArrowType.Utf8View.INSTANCE, ArrowType.LargeUtf8.INSTANCE,
                ArrowType.Binary.INSTANCE, ArrowType.Utf8.INSTANCE, ArrowType.BinaryView.INSTANCE,
                ArrowType.Utf8View.INSTANCE, ArrowType.Binary.INSTANCE};
        List<byte[]> first = null;
        try (NativeJsonEncoder encoder = open()) {
            for (int i = 0; i < types.length; i++) {
                try (VectorSchemaRoot root = batch(types[i], i % 2 == 0)) {
                    String what = "batch " + i + " (" + root.getSchema() + ")";
                    List<byte[]> expected = fresh(root);
                    assertSame(expected, records(encoder.encode(root, KINDS)), what);
                    if (first == null) {
                        first = expected;
                    }
                    assertSame(first, expected, what + " holds the same rows as batch 0");
                }
            }
        }
        assertEquals("{\"id\":1,\"name\":\"a\\\"b\"}", new String(first.get(1), StandardCharsets.UTF_8));
        assertEquals(null, first.get(3), "row 2 is a delete: a tombstone");
    }

    @Test
    void aTypeTheLogicalTypeRefusesIsStillAnError() {
        try (NativeJsonEncoder encoder = open();
                VectorSchemaRoot good = batch(ArrowType.Utf8.INSTANCE, true);
                VectorSchemaRoot view = batch(ArrowType.Utf8View.INSTANCE, false)) {
            List<byte[]> expected = records(encoder.encode(good, KINDS));
            BigIntVector id = new BigIntVector("id", allocator);
            IntVector name = new IntVector("name", allocator);
            id.allocateNew(1);
            name.allocateNew(1);
            id.set(0, 1);
            name.set(0, 7);
            id.setValueCount(1);
            name.setValueCount(1);
            try (VectorSchemaRoot wrong = new VectorSchemaRoot(List.<FieldVector>of(id, name))) {
                KjsonSchemaException error = assertThrows(KjsonSchemaException.class, () -> encoder.encode(wrong, null));
                assertTrue(error.getMessage().contains("`name`") && error.getMessage().contains("Int32"),
                        error.getMessage());
            }
            assertSame(expected, records(encoder.encode(view, KINDS)), "the next batch after the refused one");
        }
    }
}
