package org.kjson.flink.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.api.Test;

/**
 * The staged leaves against what Arrow reads back: nulls between values, strings inside arrays
 * and rows, and a second, smaller batch in the same writer (nothing of the first may show); the
 * WTF-8 string and (millis, nanos) timestamp carriages.
 */
class RowDataArrowWriterTest {
    private static final RowType TYPE = (RowType) LogicalTypeParser.parse(
            "ROW<id BIGINT, name STRING, at TIMESTAMP(3), score DOUBLE, tags ARRAY<STRING>, inner ROW<n INT, s STRING>>",
            RowDataArrowWriterTest.class.getClassLoader());

    private static RowData row(Long id, String name, Long millis, Double score, String[] tags, RowData inner) {
        return GenericRowData.of(id, name == null ? null : StringData.fromString(name),
                millis == null ? null : TimestampData.fromEpochMillis(millis), score,
                tags == null ? null : new GenericArrayData(strings(tags)), inner);
    }

    private static Object[] strings(String[] values) {
        Object[] out = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i] == null ? null : StringData.fromString(values[i]);
        }
        return out;
    }

    /** Every cell of the batch as Arrow's getObject shows it, row by row, Binary strings as quoted UTF-8. */
    private static List<String> cells(VectorSchemaRoot root) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < root.getRowCount(); r++) {
            StringBuilder line = new StringBuilder();
            for (FieldVector vector : root.getFieldVectors()) {
                line.append(show(vector.getObject(r))).append(" | ");
            }
            out.add(line.toString());
        }
        return out;
    }

    private static String show(Object cell) {
        if (cell instanceof byte[] bytes) {
            return "\"" + new String(bytes, StandardCharsets.UTF_8) + "\"";
        } else if (cell instanceof List<?> list) {
            return list.stream().map(RowDataArrowWriterTest::show).collect(Collectors.joining(",", "[", "]"));
        } else if (cell instanceof Map<?, ?> map) {
            return map.entrySet().stream().map(e -> e.getKey() + "=" + show(e.getValue()))
                    .collect(Collectors.joining(",", "{", "}"));
        }
        return String.valueOf(cell);
    }

    @Test
    void batchesReadBackAsWrittenAcrossResets() {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(TYPE, allocator)) {
            writer.append(row(1L, "a long first name", 1_000L, 1.5, new String[] {"x", null, "yz"}, GenericRowData.of(7,
                    StringData.fromString("in"))));
            writer.append(row(null, null, null, null, null, null));
            writer.append(row(3L, "", -1L, -0.0, new String[] {}, GenericRowData.of(null, null)));
            assertEquals(List.of(
                    "1 | \"a long first name\" | {epoch_millis=1000,nano_of_milli=0} | 1.5 | [\"x\",null,\"yz\"] | {n=7,s=\"in\"} | ",
                    "null | null | null | null | null | null | ",
                    "3 | \"\" | {epoch_millis=-1,nano_of_milli=0} | -0.0 | [] | {} | "), cells(writer.finish()));
            writer.reset();
            writer.append(row(null, "b", 2L, null, new String[] {null}, null));
            assertEquals(List.of("null | \"b\" | {epoch_millis=2,nano_of_milli=0} | null | [null] | null | "), cells(writer.finish()));
        }
    }

    /**
     * Strings reach Arrow as WTF-8: from a Java string, its UTF-8 with each unpaired surrogate as
     * its own 3-byte sequence (not the JDK's {@code ?}); from bytes (Flink's binary form, where
     * Flink already wrote {@code ?}), the bytes as they are.
     */
    @Test
    void stringsCarryWtf8Bytes() {
        String[] texts = {"plain", "", "\u00e9\u4e2d", "\uD83D\uDE00", "a\uD800b", "\uDC00", "x\uD83D",
                "\uD83D\uD83D\uDE00\uDE00", "0123456789?abcdef\uDFFF"};
        byte[][] wtf8 = {utf8("plain"), utf8(""), utf8("\u00e9\u4e2d"), utf8("\uD83D\uDE00"),
                bytes(0x61, 0xED, 0xA0, 0x80, 0x62), bytes(0xED, 0xB0, 0x80), bytes(0x78, 0xED, 0xA0, 0xBD),
                bytes(0xED, 0xA0, 0xBD, 0xF0, 0x9F, 0x98, 0x80, 0xED, 0xB8, 0x80),
                concat(utf8("0123456789?abcdef"), bytes(0xED, 0xBF, 0xBF))};
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(STRING, allocator)) {
            for (String text : texts) {
                writer.append(GenericRowData.of(StringData.fromString(text)));
                writer.append(GenericRowData.of(StringData.fromBytes(flinkUtf8(text))));
            }
            VarBinaryVector strings = (VarBinaryVector) writer.finish().getVector(0);
            for (int i = 0; i < texts.length; i++) {
                assertArrayEquals(wtf8[i], strings.get(2 * i), "from the Java string, text " + i);
                assertArrayEquals(flinkUtf8(texts[i]), strings.get(2 * i + 1), "from bytes, text " + i);
            }
        }
    }

    /**
     * Bytes that are not UTF-8 pass as they are (the native side reads them as Java's decoder
     * does), except an encoded surrogate, which WTF-8 would read as a surrogate: it becomes what
     * the JDK decodes it to, U+FFFD, whether or not toString() ran before.
     */
    @Test
    void invalidBytesPassExceptEncodedSurrogates() {
        byte[][] inputs = {bytes(0x61, 0xC3, 0x28), bytes(0xED, 0xA0, 0x80), bytes(0xED, 0x9F, 0xBF),
                bytes(0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0xED, 0xBF, 0xBF, 0x38), bytes(0x61, 0xED)};
        byte[][] carried = {inputs[0], utf8("\uFFFD"), inputs[2], utf8("0123456\uFFFD8"), inputs[4]};
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(STRING, allocator)) {
            for (byte[] input : inputs) {
                writer.append(GenericRowData.of(StringData.fromBytes(input)));
                StringData decoded = StringData.fromBytes(input);
                decoded.toString();
                writer.append(GenericRowData.of(decoded));
            }
            VarBinaryVector strings = (VarBinaryVector) writer.finish().getVector(0);
            for (int i = 0; i < inputs.length; i++) {
                assertArrayEquals(carried[i], strings.get(2 * i), "bytes " + i);
                assertArrayEquals(new String(inputs[i], StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8),
                        strings.get(2 * i + 1), "bytes " + i + " after toString()");
            }
        }
    }

    /** A TIMESTAMP is the struct of Flink's two fields, null slots under the struct's validity. */
    @Test
    void preciseTimestampsCarryMillisAndNanos() {
        RowType type = (RowType) LogicalTypeParser.parse("ROW<ts TIMESTAMP(9), a ARRAY<TIMESTAMP_LTZ(7)>>",
                RowDataArrowWriterTest.class.getClassLoader());
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            TimestampData year1 = TimestampData.fromEpochMillis(-62135596800000L, 0);
            TimestampData year9999 = TimestampData.fromEpochMillis(253402300799999L, 999_900);
            writer.append(GenericRowData.of(year9999, new GenericArrayData(new Object[] {year1, null})));
            writer.append(GenericRowData.of(null, null));
            assertEquals(List.of("{epoch_millis=253402300799999,nano_of_milli=999900} | "
                    + "[{epoch_millis=-62135596800000,nano_of_milli=0},null] | ", "null | null | "), cells(writer.finish()));
        }
    }

    /** Strings are Binary marked WTF-8 at every depth, and the nullable-key relabelling keeps the mark. */
    @Test
    void schemaMarksStringsAsWtf8() {
        RowType type = (RowType) LogicalTypeParser.parse("ROW<s STRING, m MAP<VARCHAR(3), ARRAY<CHAR(2)>>, ms MULTISET<STRING>>",
                RowDataArrowWriterTest.class.getClassLoader());
        Schema schema = ArrowSchemas.withNullableMapKeys(ArrowSchemas.toArrowSchema(type));
        Field m = schema.findField("m");
        List<Field> strings = List.of(schema.findField("s"), m.getChildren().get(0).getChildren().get(0),
                m.getChildren().get(0).getChildren().get(1).getChildren().get(0),
                schema.findField("ms").getChildren().get(0).getChildren().get(0));
        for (Field string : strings) {
            assertEquals(ArrowType.Binary.INSTANCE, string.getType(), string.toString());
            assertEquals(Map.of(ArrowSchemas.ENCODING_KEY, ArrowSchemas.WTF_8), string.getMetadata(), string.toString());
        }
        assertTrue(m.getChildren().get(0).getChildren().get(0).isNullable(), "map keys are nullable after relabelling");
    }

    private static final RowType STRING = (RowType) LogicalTypeParser.parse("ROW<s STRING>",
            RowDataArrowWriterTest.class.getClassLoader());

    /** Flink's encoding: a binary string materialized from the Java string. */
    private static byte[] flinkUtf8(String text) {
        return BinaryStringData.fromString(text).toBytes();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
