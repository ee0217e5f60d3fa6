package org.kjson.flink.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
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
 * and rows, and a second, smaller batch in the same writer (nothing of the first may show).
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

    /** Every cell of the batch as Arrow's getObject shows it, row by row. */
    private static List<String> cells(VectorSchemaRoot root) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < root.getRowCount(); r++) {
            StringBuilder line = new StringBuilder();
            for (FieldVector vector : root.getFieldVectors()) {
                line.append(vector.getObject(r)).append(" | ");
            }
            out.add(line.toString());
        }
        return out;
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
                    "1 | a long first name | 1970-01-01T00:00:01 | 1.5 | [\"x\",null,\"yz\"] | {\"n\":7,\"s\":\"in\"} | ",
                    "null | null | null | null | null | null | ",
                    "3 |  | 1969-12-31T23:59:59.999 | -0.0 | [] | {} | "), cells(writer.finish()));
            writer.reset();
            writer.append(row(null, "b", 2L, null, new String[] {null}, null));
            assertEquals(List.of("null | b | 1970-01-01T00:00:00.002 | null | [null] | null | "), cells(writer.finish()));
        }
    }

    /**
     * Strings built from Java strings (encoded by the JDK) and from bytes (copied) reach Arrow as
     * Flink's own UTF-8 encoding of the text, unpaired surrogates included.
     */
    @Test
    void stringsCarryFlinksUtf8Bytes() {
        String[] texts = {"plain", "", "\u00e9\u4e2d", "\uD83D\uDE00", "a\uD800b", "\uDC00", "x\uD83D", "\uD83D\uD83D\uDE00\uDE00"};
        RowType type = (RowType) LogicalTypeParser.parse("ROW<s STRING>", RowDataArrowWriterTest.class.getClassLoader());
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            for (String text : texts) {
                writer.append(GenericRowData.of(StringData.fromString(text)));
                writer.append(GenericRowData.of(StringData.fromBytes(flinkUtf8(text))));
            }
            VarCharVector strings = (VarCharVector) writer.finish().getVector(0);
            for (int i = 0; i < texts.length; i++) {
                assertArrayEquals(flinkUtf8(texts[i]), strings.get(2 * i), "from the Java string, text " + i);
                assertArrayEquals(flinkUtf8(texts[i]), strings.get(2 * i + 1), "from bytes, text " + i);
            }
        }
    }

    /** Flink's encoding: a binary string materialized from the Java string. */
    private static byte[] flinkUtf8(String text) {
        return BinaryStringData.fromString(text).toBytes();
    }
}
