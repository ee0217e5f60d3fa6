package org.kjson.flink;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.kjson.flink.support.EveryRowDataPath;
import org.kjson.flink.support.StockKafkaSink;

/**
 * Strings that are not valid Unicode: a Java string with unpaired surrogates (Jackson writes each
 * surrogate as an escape) and bytes that are not UTF-8 (Flink decodes them as the JDK does).
 * Each is written as the stock sink writes it, in the key, at the top level, in arrays, map keys
 * and values, MULTISET elements and nested rows, on every RowData path, whether or not
 * {@code toString()} ran on the string before (it caches the decoded Java string).
 */
class StringCarriageTest {
    private static EveryRowDataPath paths;

    /** Unpaired high and low surrogates at the start, the end, the middle, doubled, around a pair, past a word. */
    static final String[] TEXTS = {"a\uD800b", "\uD800start", "end\uD800", "\uDC00start", "end\uDFFF", "\uD800",
            "\uD800\uD800\uDC00", "\uD83D\uDE00", "\uDE00\uD83D", "x\uDBFF\uDBFF", "?\uD800?", "0123456789abcdef\uDC01",
            "\u00e9\u4e2d\uD800", "plain", "", "?", "\u00e9\u4e2d\uD83D\uDE00"};

    /** Invalid UTF-8: a bad continuation, encoded surrogates (alone, at a word edge, a CESU pair), truncations. */
    static final byte[][] BYTES = {{'a', (byte) 0xC3, '('}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            {'x', (byte) 0xED, (byte) 0xBF, (byte) 0xBF, 'y'}, {(byte) 0xED, (byte) 0x9F, (byte) 0xBF},
            {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xFF}, {'a', (byte) 0xED},
            {'0', '1', '2', '3', '4', '5', '6', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '8', '9', 'a', 'b', 'c', 'd'},
            {(byte) 0xED, (byte) 0xA0, (byte) 0xBD, (byte) 0xED, (byte) 0xB8, (byte) 0x80},
            {'?', (byte) 0xE2, (byte) 0x82}, "\u00e9\uD83D\uDE00".getBytes(StandardCharsets.UTF_8)};

    @BeforeAll
    static void createSink() throws Exception {
        paths = new EveryRowDataPath(StockKafkaSink.create("CREATE TABLE odd_strings (s STRING, v VARCHAR(40),"
                + " a ARRAY<STRING>, m MAP<STRING, STRING>, ms MULTISET<STRING>,"
                + " r ROW<x STRING, y ARRAY<MAP<VARCHAR(20), INT>>>) WITH ('connector' = 'kafka', 'topic' = 't',"
                + " 'properties.bootstrap.servers' = 'localhost:9092', 'key.format' = 'json', 'key.fields' = 's',"
                + " 'value.format' = 'json')"));
    }

    /** One row with the string everywhere; {@code string} makes a fresh StringData each call. */
    static RowData row(Supplier<StringData> string, RowKind kind) {
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(string.get(), string.get());
        m.put(StringData.fromString("k"), string.get());
        Map<Object, Object> keysOnly = new LinkedHashMap<>();
        keysOnly.put(string.get(), 1);
        Map<Object, Object> multiset = new LinkedHashMap<>();
        multiset.put(string.get(), 2);
        GenericRowData row = GenericRowData.of(string.get(), string.get(), new GenericArrayData(new Object[] {string.get(),
                null, string.get()}), new GenericMapData(m), new GenericMapData(multiset), GenericRowData.of(string.get(),
                new GenericArrayData(new Object[] {new GenericMapData(keysOnly)})));
        row.setRowKind(kind);
        return row;
    }

    private static List<RowData> rows(boolean fromBytes, boolean decodedBefore) {
        List<Supplier<StringData>> strings = new ArrayList<>();
        if (fromBytes) {
            for (byte[] bytes : BYTES) {
                strings.add(() -> StringData.fromBytes(bytes.clone()));
            }
        } else {
            for (String text : TEXTS) {
                strings.add(() -> StringData.fromString(text));
            }
        }
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < strings.size(); i++) {
            Supplier<StringData> string = strings.get(i);
            Supplier<StringData> maybeDecoded = decodedBefore ? () -> decoded(string.get()) : string;
            rows.add(row(maybeDecoded, i % 3 == 0 ? RowKind.UPDATE_AFTER : RowKind.INSERT));
        }
        return rows;
    }

    /** The string after {@code toString()} ran on it, as Flink's own operators may have done. */
    private static StringData decoded(StringData string) {
        string.toString();
        return string;
    }

    @Test
    void unpairedSurrogatesInJavaStrings() throws Exception {
        paths.assertMatchesStock(() -> rows(false, false));
    }

    @Test
    void invalidUtf8Bytes() throws Exception {
        paths.assertMatchesStock(() -> rows(true, false));
    }

    @Test
    void invalidUtf8BytesDecodedBefore() throws Exception {
        paths.assertMatchesStock(() -> rows(true, true));
    }
}
