package org.kjson.flink;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The Kafka metadata a table row writes beside its key and value, as the {@code kafka} table
 * sink reads it from the row's writable metadata columns ({@link MetadataColumns}): the record
 * timestamp (epoch milliseconds; null lets the producer stamp it), the headers in the map's order
 * (null or empty: none), and the topic (null: the table's single topic). Immutable.
 */
public final class RecordMetadata implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Long timestamp;
    /** Header keys and values, in order; no nulls inside. */
    private final String[] headerKeys;
    private final byte[][] headerValues;
    private final String topic;

    public RecordMetadata(Long timestamp, String[] headerKeys, byte[][] headerValues, String topic) {
        if ((headerKeys == null) != (headerValues == null)
                || (headerKeys != null && headerKeys.length != headerValues.length)) {
            throw new IllegalArgumentException("header keys and values must pair up");
        }
        this.timestamp = timestamp;
        this.headerKeys = headerKeys;
        this.headerValues = headerValues;
        this.topic = topic;
    }

    public Long timestamp() {
        return timestamp;
    }

    public String topic() {
        return topic;
    }

    /** Number of headers (0 when the row has none). */
    public int headerCount() {
        return headerKeys == null ? 0 : headerKeys.length;
    }

    public String headerKey(int i) {
        return headerKeys[i];
    }

    public byte[] headerValue(int i) {
        return headerValues[i];
    }

    /** The headers as the producer takes them; null when there are none (Kafka writes none either way). */
    public List<Header> kafkaHeaders() {
        if (headerKeys == null) {
            return null;
        }
        List<Header> headers = new ArrayList<>(headerKeys.length);
        for (int i = 0; i < headerKeys.length; i++) {
            headers.add(new RecordHeader(headerKeys[i], headerValues[i]));
        }
        return Collections.unmodifiableList(headers);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecordMetadata m && Objects.equals(timestamp, m.timestamp) && Objects.equals(topic, m.topic)
                && Arrays.equals(headerKeys, m.headerKeys) && Arrays.deepEquals(headerValues, m.headerValues);
    }

    @Override
    public int hashCode() {
        return Objects.hash(timestamp, topic, Arrays.hashCode(headerKeys), Arrays.deepHashCode(headerValues));
    }

    @Override
    public String toString() {
        return "RecordMetadata{timestamp=" + timestamp + ", headers=" + (headerKeys == null ? "[]" : Arrays.toString(headerKeys))
                + ", topic=" + topic + "}";
    }
}
