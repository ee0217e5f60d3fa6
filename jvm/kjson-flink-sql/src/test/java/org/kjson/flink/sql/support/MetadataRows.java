package org.kjson.flink.sql.support;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.flink.types.Row;

/**
 * Deterministic rows for the writable metadata tests: {@code (id, name, ts, headers, topic_suffix)}
 * with every case the stock sink distinguishes: a null timestamp (the producer stamps the record),
 * null, empty and ordered headers maps with null keys and null values (left out) and binary
 * values, and a topic chosen per row ({@code topic_suffix} 'a' or 'b', null for some rows when
 * asked).
 */
public final class MetadataRows {
    /** Record timestamps the rows write are before this; the producer's own stamps are after it. */
    public static final long LATEST_ROW_TIMESTAMP = Instant.parse("2010-01-01T00:00:00Z").toEpochMilli();

    private static final long FIRST_TIMESTAMP = Instant.parse("2001-01-01T00:00:00Z").toEpochMilli();
    private static final String[] NAMES = {"plain", "quote\"d", "new\nline", "\u00e9t\u00e9", "emoji \ud83d\ude00", ""};

    private MetadataRows() {}

    /** The columns of {@link #row} in SQL. */
    public static final String COLUMNS = "id BIGINT, name STRING, ts TIMESTAMP_LTZ(3), headers MAP<STRING, BYTES>,"
            + " topic_suffix STRING";

    public static Row row(long id) {
        return Row.of(id, id % 11 == 0 ? null : NAMES[(int) (id % NAMES.length)] + id, timestamp(id), headers(id),
                id % 3 == 0 ? "a" : "b");
    }

    private static Instant timestamp(long id) {
        return id % 7 == 0 ? null : Instant.ofEpochMilli(FIRST_TIMESTAMP + id * 997 + id % 1000);
    }

    private static Map<String, byte[]> headers(long id) {
        switch ((int) (id % 5)) {
            case 0:
                return null;
            case 1:
                return Map.of();
            default:
                Map<String, byte[]> headers = new LinkedHashMap<>();
                headers.put("trace-id", ("trace-" + id).getBytes(StandardCharsets.UTF_8));
                if (id % 2 == 0) {
                    headers.put("dropped", null);
                }
                if (id % 4 == 3) {
                    headers.put(null, new byte[] {1});
                }
                headers.put("bin\u00e9", new byte[] {(byte) 0xff, 0, (byte) id});
                headers.put("", new byte[0]);
                return headers;
        }
    }
}
