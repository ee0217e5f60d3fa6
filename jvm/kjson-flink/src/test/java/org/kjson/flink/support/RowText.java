package org.kjson.flink.support;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * A generic row as text for a failure message, exact where toString() is not: a string shows
 * its UTF-16 units escaped and, when it was made from bytes that are not its UTF-8 form, those
 * bytes in hex; a timestamp shows its epoch millis and nano-of-milli; binaries are hex.
 */
public final class RowText {
    private RowText() {}

    public static String of(GenericRowData row) {
        return row.getRowKind().shortString() + value(row);
    }

    private static String value(Object value) {
        if (value instanceof GenericRowData row) {
            List<String> fields = new ArrayList<>();
            for (int f = 0; f < row.getArity(); f++) {
                fields.add(value(row.getField(f)));
            }
            return "(" + String.join(", ", fields) + ")";
        }
        if (value instanceof GenericArrayData array) {
            List<String> items = new ArrayList<>();
            for (Object item : array.toObjectArray()) {
                items.add(value(item));
            }
            return "[" + String.join(", ", items) + "]";
        }
        if (value instanceof GenericMapData map) {
            List<String> entries = new ArrayList<>();
            Object[] keys = ((GenericArrayData) map.keyArray()).toObjectArray();
            for (Object key : keys) {
                entries.add(value(key) + "=" + value(map.get(key)));
            }
            return "{" + String.join(", ", entries) + "}";
        }
        if (value instanceof StringData string) {
            return string(string);
        }
        if (value instanceof byte[] bytes) {
            return "x'" + HexFormat.of().formatHex(bytes) + "'";
        }
        if (value instanceof TimestampData ts) {
            return ts + " (millis " + ts.getMillisecond() + ", nanos " + ts.getNanoOfMillisecond() + ")";
        }
        return String.valueOf(value);
    }

    private static String string(StringData string) {
        byte[] bytes = string.toBytes();
        String decoded = string.toString();
        StringBuilder out = new StringBuilder("\"");
        for (char c : decoded.toCharArray()) {
            out.append(c >= 0x20 && c < 0x7F && c != '"' && c != '\\' ? String.valueOf(c) : String.format("\\u%04X", (int) c));
        }
        out.append('"');
        if (!Arrays.equals(bytes, decoded.getBytes(StandardCharsets.UTF_8))) {
            out.append(" (bytes x'").append(HexFormat.of().formatHex(bytes)).append("')");
        }
        return out.toString();
    }
}
