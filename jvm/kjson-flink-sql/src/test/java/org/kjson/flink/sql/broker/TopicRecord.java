package org.kjson.flink.sql.broker;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/** One record as a consumer read it: where it is, and its key and value bytes (null allowed). */
public record TopicRecord(int partition, long offset, byte[] key, byte[] value) {

    /** Key and value only, comparable by content (for multisets of records). */
    public String content() {
        return encode(key) + "/" + encode(value);
    }

    private static String encode(byte[] bytes) {
        return bytes == null ? "-" : Base64.getEncoder().encodeToString(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TopicRecord r && r.partition == partition && r.offset == offset && Arrays.equals(r.key, key)
                && Arrays.equals(r.value, value);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return partition + "@" + offset + " " + text(key) + " -> " + text(value);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }
}
