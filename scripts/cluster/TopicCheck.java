import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.kjson.flink.sql.broker.TopicReader;

/**
 * The topic checks of scripts/cluster-test.sh, scripts/dist-flink-test.sh and scripts/quickstart.sh. It reads through
 * jvm/kjson-flink-sql's test class org.kjson.flink.sql.broker.TopicReader (the project's one
 * read_committed reader): cluster.sh compiles the two files against the broker's jars and runs
 * `java -cp <kafka jars>:<classes> TopicCheck`.
 *
 * <pre>
 * create BOOTSTRAP PARTITIONS TOPIC...          creates topics (replication factor 1)
 * count BOOTSTRAP TOPIC ROWS                    whether the topic holds at least ROWS committed records
 *                                               (exit 0) or fewer (exit 1, silently: the script polls it)
 * append BOOTSTRAP TOPIC REFERENCE_TOPIC ROWS   every id 1..ROWS exactly once, records equal the reference's
 *                                               (and differ once one value byte of one record is changed)
 * upsert BOOTSTRAP TOPIC REFERENCE_TOPIC ROWS   per key, the same records in the same order as the reference
 *                                               (at least ROWS records, tombstones among them)
 * metadata BOOTSTRAP TOPIC REFERENCE_TOPIC ROWS EVERY
 *                                               every id 1..ROWS with id % EVERY = 1 exactly once; each record
 *                                               (partition, key, value, timestamp and its type, headers in
 *                                               order) equals one of the reference's, record for record
 * show BOOTSTRAP TOPIC REFERENCE_TOPIC N        N records of each topic, whether the records (key, value) are
 *                                               the same multiset, and each topic's rows/s between its
 *                                               first and last record timestamp (the producer's send time)
 * </pre>
 *
 * Prints one summary line and exits 1 when a row is lost or duplicated or the bytes differ.
 */
public final class TopicCheck {
    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");

    public static void main(String[] args) throws Exception {
        if (args.length >= 4 && args[0].equals("create")) {
            createTopics(args[1], Integer.parseInt(args[2]), List.of(args).subList(3, args.length));
            return;
        }
        if (args.length == 4 && args[0].equals("count")) {
            long committed = TopicReader.forEachCommitted(args[1], args[2], Duration.ofMinutes(1), r -> {});
            System.exit(committed >= Long.parseLong(args[3]) ? 0 : 1);
        }
        if (args.length == 6 && args[0].equals("metadata")) {
            List<ConsumerRecord<byte[], byte[]>> records = readCommitted(args[1], args[2]);
            List<ConsumerRecord<byte[], byte[]>> reference = readCommitted(args[1], args[3]);
            System.exit(checkMetadata(args[2], records, reference, Long.parseLong(args[4]), Long.parseLong(args[5])) ? 0 : 1);
        }
        if (args.length == 5 && args[0].equals("show")) {
            System.exit(show(args[1], args[2], args[3], Integer.parseInt(args[4])) ? 0 : 1);
        }
        if (args.length != 5) {
            throw new IllegalArgumentException("usage: append|upsert BOOTSTRAP TOPIC REFERENCE_TOPIC ROWS"
                    + " | count BOOTSTRAP TOPIC ROWS | metadata BOOTSTRAP TOPIC REFERENCE_TOPIC ROWS EVERY | show BOOTSTRAP TOPIC REFERENCE_TOPIC N");
        }
        String bootstrap = args[1];
        long rows = Long.parseLong(args[4]);
        List<ConsumerRecord<byte[], byte[]>> records = readCommitted(bootstrap, args[2]);
        List<ConsumerRecord<byte[], byte[]>> reference = readCommitted(bootstrap, args[3]);
        boolean ok = switch (args[0]) {
            case "append" -> checkAppend(args[2], records, reference, rows);
            case "upsert" -> checkUpsert(args[2], records, reference, rows);
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        };
        System.exit(ok ? 0 : 1);
    }

    /**
     * Every id in 1..rows once; the multiset of (key, value) equals the reference topic's. The
     * comparison then proves it can fail: with one value byte of one record changed it must differ.
     */
    private static boolean checkAppend(String topic, List<ConsumerRecord<byte[], byte[]>> records,
            List<ConsumerRecord<byte[], byte[]>> reference, long rows) {
        int[] seen = new int[Math.toIntExact(rows + 1)];
        long outOfRange = 0;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            long id = idOf(record.value());
            if (id < 1 || id > rows) {
                outOfRange++;
            } else {
                seen[(int) id]++;
            }
        }
        long lost = 0;
        long duplicated = outOfRange;
        for (int id = 1; id <= rows; id++) {
            lost += seen[id] == 0 ? 1 : 0;
            duplicated += Math.max(0, seen[id] - 1);
        }
        List<String> want = sortedRecords(reference);
        boolean identical = sortedRecords(records).equals(want);
        boolean changedByteCaught = !records.isEmpty() && !sortedRecords(records, records.get(0)).equals(want);
        System.out.printf("%s: records=%d expected=%d lost=%d duplicated=%d reference_records=%d bytes_identical=%s"
                + " changed_byte_caught=%s%n", topic, records.size(), rows, lost, duplicated, reference.size(), identical,
                changedByteCaught);
        return lost == 0 && duplicated == 0 && identical && records.size() == rows && changedByteCaught;
    }

    /** Per key, the same sequence of records (tombstones included) as the reference. */
    private static boolean checkUpsert(String topic, List<ConsumerRecord<byte[], byte[]>> records,
            List<ConsumerRecord<byte[], byte[]>> reference, long rows) {
        Map<String, List<String>> byKey = recordsByKey(records);
        Map<String, List<String>> referenceByKey = recordsByKey(reference);
        long tombstones = records.stream().filter(r -> r.value() == null).count();
        long differingKeys = 0;
        long missing = 0;
        long extra = 0;
        for (String key : union(byKey, referenceByKey)) {
            List<String> got = byKey.getOrDefault(key, List.of());
            List<String> want = referenceByKey.getOrDefault(key, List.of());
            if (!got.equals(want)) {
                differingKeys++;
                missing += Math.max(0, want.size() - got.size());
                extra += Math.max(0, got.size() - want.size());
            }
        }
        System.out.printf("%s: records=%d input_rows=%d tombstones=%d keys=%d differing_keys=%d lost=%d duplicated=%d"
                + " reference_records=%d bytes_identical=%s%n", topic, records.size(), rows, tombstones, byKey.size(),
                differingKeys, missing, extra, reference.size(), differingKeys == 0);
        // Each input row changes its key once; an update that the filter turns into a delete of the old
        // row also writes a tombstone, so there are at least ROWS records, as many as the reference has.
        return differingKeys == 0 && records.size() == reference.size() && records.size() >= rows && tombstones > 0;
    }

    /**
     * The metadata sink: every id 1..rows with id % every == 1 once, and the records, compared whole
     * (partition, key, value, timestamp type and value, every header's key and bytes in order), the same
     * multiset as the reference's. The comparison then proves it can fail: the first record with
     * headers, once with one header byte changed and once with its timestamp moved by 1 ms, must
     * make the multisets differ.
     */
    private static boolean checkMetadata(String topic, List<ConsumerRecord<byte[], byte[]>> records,
            List<ConsumerRecord<byte[], byte[]>> reference, long rows, long every) {
        Map<Long, Integer> seen = new HashMap<>();
        records.forEach(r -> seen.merge(idOf(r.value()), 1, Integer::sum));
        long expected = 0;
        long lost = 0;
        for (long id = 1; id <= rows; id += every) {
            expected++;
            lost += seen.getOrDefault(id, 0) == 0 ? 1 : 0;
        }
        long duplicated = seen.values().stream().mapToLong(n -> n - 1).sum()
                + seen.keySet().stream().filter(id -> id < 1 || id > rows || id % every != 1 % every).count();
        List<String> got = sortedWhole(records, null, "");
        List<String> want = sortedWhole(reference, null, "");
        boolean identical = got.equals(want);
        long withHeaders = records.stream().filter(r -> r.headers().toArray().length > 0).count();
        ConsumerRecord<byte[], byte[]> probe = records.stream().filter(r -> r.headers().toArray().length > 0)
                .findFirst().orElse(null);
        boolean headerCaught = probe != null && !sortedWhole(records, probe, "header").equals(want);
        boolean timestampCaught = probe != null && !sortedWhole(records, probe, "timestamp").equals(want);
        System.out.printf("%s: records=%d expected=%d lost=%d duplicated=%d with_headers=%d reference_records=%d"
                + " identical(partition,key,value,timestamp,headers)=%s changed_header_caught=%s changed_timestamp_caught=%s%n",
                topic, records.size(), expected, lost, duplicated, withHeaders, reference.size(), identical,
                headerCaught, timestampCaught);
        return lost == 0 && duplicated == 0 && identical && records.size() == expected && withHeaders > 0
                && headerCaught && timestampCaught;
    }

    /** Every record as one string; the record MUTATED gets one header byte or its timestamp changed. */
    private static List<String> sortedWhole(List<ConsumerRecord<byte[], byte[]>> records,
            ConsumerRecord<byte[], byte[]> mutated, String change) {
        return records.stream().map(r -> whole(r, r == mutated ? change : "")).sorted().collect(Collectors.toList());
    }

    private static String whole(ConsumerRecord<byte[], byte[]> r, String change) {
        StringBuilder s = new StringBuilder();
        long timestamp = r.timestamp() + (change.equals("timestamp") ? 1 : 0);
        s.append(r.partition()).append(' ').append(text(r.key())).append(' ').append(text(r.value()))
                .append(' ').append(r.timestampType()).append(' ').append(timestamp);
        boolean first = true;
        for (Header h : r.headers()) {
            byte[] value = h.value() == null ? null : h.value().clone();
            if (first && change.equals("header")) {
                value = value == null || value.length == 0 ? new byte[] {1} : value;
                value[0] ^= 1;
            }
            first = false;
            s.append(' ').append(h.key()).append('=').append(text(value));
        }
        return s.toString();
    }

    /** The quickstart's view of two topics: a few records of each, same or not, and rows/s. */
    private static boolean show(String bootstrap, String topic, String reference, int n) {
        List<ConsumerRecord<byte[], byte[]>> records = readCommitted(bootstrap, topic);
        List<ConsumerRecord<byte[], byte[]>> referenceRecords = readCommitted(bootstrap, reference);
        double referenceRate = sendRate(reference, referenceRecords);
        double rate = sendRate(topic, records);
        for (String name : List.of(reference, topic)) {
            System.out.printf("first %d records of %s:%n", n, name);
            (name.equals(topic) ? records : referenceRecords).stream().limit(n)
                    .forEach(r -> System.out.printf("  key %s  value %s%n", utf8(r.key()), utf8(r.value())));
        }
        boolean identical = sortedRecords(records).equals(sortedRecords(referenceRecords));
        System.out.printf("records of %s and %s (key and value bytes, as multisets): %s%n", reference, topic,
                identical ? "identical" : "DIFFERENT");
        System.out.printf("rows/s between first and last record timestamp: %s %.0f, %s %.0f, ratio %.2f%n",
                reference, referenceRate, topic, rate, referenceRate > 0 ? rate / referenceRate : 0);
        return identical;
    }

    /** Prints and returns the rows per second between the first and the last record timestamp (send time). */
    private static double sendRate(String topic, List<ConsumerRecord<byte[], byte[]>> records) {
        long first = records.stream().mapToLong(ConsumerRecord::timestamp).min().orElse(0);
        long last = records.stream().mapToLong(ConsumerRecord::timestamp).max().orElse(0);
        double rate = last > first ? records.size() * 1000.0 / (last - first) : 0;
        System.out.printf("%s: %d records sent in %.1f s (record timestamps), %.0f rows/s%n", topic, records.size(),
                (last - first) / 1000.0, rate);
        return rate;
    }

    private static String utf8(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }

    private static List<String> union(Map<String, ?> a, Map<String, ?> b) {
        TreeMap<String, Boolean> keys = new TreeMap<>();
        a.keySet().forEach(k -> keys.put(k, true));
        b.keySet().forEach(k -> keys.put(k, true));
        return new ArrayList<>(keys.keySet());
    }

    private static Map<String, List<String>> recordsByKey(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, List<String>> byKey = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            byKey.computeIfAbsent(text(record.key()), k -> new ArrayList<>()).add(text(record.value()));
        }
        return byKey;
    }

    private static List<String> sortedRecords(List<ConsumerRecord<byte[], byte[]>> records) {
        return sortedRecords(records, null);
    }

    /** (key, value) of every record, sorted; the record MUTATED gets the last byte of its value flipped. */
    private static List<String> sortedRecords(List<ConsumerRecord<byte[], byte[]>> records,
            ConsumerRecord<byte[], byte[]> mutated) {
        return records.stream().map(r -> text(r.key()) + " " + text(r == mutated ? flipLastByte(r.value()) : r.value()))
                .sorted().collect(Collectors.toList());
    }

    private static byte[] flipLastByte(byte[] value) {
        byte[] changed = value == null || value.length == 0 ? new byte[1] : value.clone();
        changed[changed.length - 1] ^= 1;
        return changed;
    }

    /** Base64, so that bytes (not a decoding of them) are compared; null stays distinct. */
    private static String text(byte[] bytes) {
        return bytes == null ? "<null>" : Base64.getEncoder().encodeToString(bytes);
    }

    private static long idOf(byte[] value) {
        Matcher m = ID.matcher(value == null ? "" : new String(value, StandardCharsets.UTF_8));
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static void createTopics(String bootstrap, int partitions, List<String> topics) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            List<NewTopic> newTopics = topics.stream().map(t -> new NewTopic(t, partitions, (short) 1)).toList();
            admin.createTopics(newTopics).all().get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** All records below the last stable offset of every partition, read_committed (the tests' reader). */
    private static List<ConsumerRecord<byte[], byte[]>> readCommitted(String bootstrap, String topic) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        TopicReader.forEachCommitted(bootstrap, topic, Duration.ofMinutes(5), records::add);
        return records;
    }

    private TopicCheck() {}
}
