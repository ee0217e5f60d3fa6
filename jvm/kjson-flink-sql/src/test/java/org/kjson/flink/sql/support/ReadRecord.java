package org.kjson.flink.sql.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.StringJoiner;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.kjson.flink.sql.broker.TopicReader;

/**
 * Everything of a Kafka record a sink decides, as one comparable line: topic (as the test names
 * it), partition, key, value, timestamp (or "stamped" when the producer chose it) and the headers
 * in order with their bytes. Read with read_committed.
 */
public final class ReadRecord {
    private ReadRecord() {}

    /** The records of {@code topic}, named {@code name} in the lines, sorted (a multiset). */
    public static List<String> readCommitted(String bootstrapServers, String topic, String name) {
        List<String> lines = new ArrayList<>();
        TopicReader.forEachCommitted(bootstrapServers, topic, Duration.ofSeconds(120), r -> lines.add(line(name, r)));
        lines.sort(null);
        return lines;
    }

    /** The records of {@code topic} partition by partition, each in offset order. */
    public static List<String> readCommittedInOrder(String bootstrapServers, String topic, String name) {
        List<String> lines = new ArrayList<>();
        TopicReader.forEachCommitted(bootstrapServers, topic, Duration.ofSeconds(120), r -> lines.add(line(name, r)));
        lines.sort(java.util.Comparator.comparing(line -> line.split(" ")[1]));
        return lines;
    }

    /** Fails unless both runs read the same records; the message shows records only one of them has. */
    public static void assertSameRecords(List<String> stock, List<String> kjson) {
        if (!stock.equals(kjson)) {
            List<String> onlyStock = new ArrayList<>(stock);
            kjson.forEach(onlyStock::remove);
            List<String> onlyKjson = new ArrayList<>(kjson);
            stock.forEach(onlyKjson::remove);
            throw new AssertionError(String.format("stock read %d records, kjson %d; only in stock (%d): %s; only in kjson"
                    + " (%d): %s", stock.size(), kjson.size(), onlyStock.size(), head(onlyStock), onlyKjson.size(),
                    head(onlyKjson)));
        }
    }

    private static List<String> head(List<String> lines) {
        return lines.subList(0, Math.min(4, lines.size()));
    }

    private static String line(String topic, ConsumerRecord<byte[], byte[]> r) {
        StringJoiner headers = new StringJoiner(",", "[", "]");
        for (Header header : r.headers()) {
            headers.add(header.key() + "=" + base64(header.value()));
        }
        String timestamp = r.timestamp() > MetadataRows.LATEST_ROW_TIMESTAMP ? "stamped" : Long.toString(r.timestamp());
        return topic + " p" + r.partition() + " key=" + text(r.key()) + " value=" + text(r.value()) + " ts="
                + timestamp + " " + r.timestampType() + " headers=" + headers;
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static String base64(byte[] bytes) {
        return bytes == null ? "null" : Base64.getEncoder().encodeToString(bytes);
    }
}
