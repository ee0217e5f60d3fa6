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
import org.kjson.flink.sql.broker.TopicReader;

/**
 * The topic checks of scripts/cluster-test.sh and scripts/dist-flink-test.sh. It reads through
 * jvm/kjson-flink-sql's test class org.kjson.flink.sql.broker.TopicReader (the project's one
 * read_committed reader): cluster.sh compiles the two files against the broker's jars and runs
 * `java -cp <kafka jars>:<classes> TopicCheck`.
 *
 * <pre>
 * create BOOTSTRAP PARTITIONS TOPIC...          creates topics (replication factor 1)
 * append BOOTSTRAP TOPIC REFERENCE_TOPIC ROWS   every id 1..ROWS exactly once, records equal the reference's
 * upsert BOOTSTRAP TOPIC REFERENCE_TOPIC ROWS   per key, the same records in the same order as the reference
 *                                               (at least ROWS records, tombstones among them)
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
        if (args.length != 5) {
            throw new IllegalArgumentException("usage: append|upsert BOOTSTRAP TOPIC REFERENCE_TOPIC ROWS");
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

    /** Every id in 1..rows once; the multiset of (key, value) equals the reference topic's. */
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
        boolean identical = sortedRecords(records).equals(sortedRecords(reference));
        System.out.printf("%s: records=%d expected=%d lost=%d duplicated=%d reference_records=%d bytes_identical=%s%n",
                topic, records.size(), rows, lost, duplicated, reference.size(), identical);
        return lost == 0 && duplicated == 0 && identical && records.size() == rows;
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
        return records.stream().map(r -> text(r.key()) + " " + text(r.value())).sorted().collect(Collectors.toList());
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
