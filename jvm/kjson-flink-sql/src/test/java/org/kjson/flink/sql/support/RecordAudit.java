package org.kjson.flink.sql.support;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import org.kjson.flink.sql.broker.TopicRecord;

/**
 * Expected records (stock Flink's bytes) against what a read_committed consumer saw: records
 * missing, records seen more often than expected, records never expected (bytes that differ
 * from stock land here), and per key, whether the records came in the expected order.
 */
public final class RecordAudit {
    public final int expected;
    public final int seen;
    public final List<String> missing = new ArrayList<>();
    public final List<String> duplicated = new ArrayList<>();
    public final List<String> unexpected = new ArrayList<>();
    /** Extra copies in total (a record seen 3 times where expected once counts 2). */
    public long duplicateCopies;

    private final Map<String, List<String>> expectedByKey;
    private final Map<String, List<String>> seenByKey;

    private RecordAudit(List<TopicRecord> expected, List<TopicRecord> seen) {
        this.expected = expected.size();
        this.seen = seen.size();
        Map<String, Integer> expectedCounts = counts(expected);
        Map<String, Integer> seenCounts = counts(seen);
        Map<String, TopicRecord> examples = new HashMap<>();
        seen.forEach(r -> examples.putIfAbsent(r.content(), r));
        expected.forEach(r -> examples.putIfAbsent(r.content(), r));
        expectedCounts.forEach((content, count) -> {
            int actual = seenCounts.getOrDefault(content, 0);
            if (actual < count) {
                missing.add(examples.get(content).toString());
            } else if (actual > count) {
                duplicated.add(examples.get(content).toString());
                duplicateCopies += actual - count;
            }
        });
        seenCounts.keySet().stream().filter(c -> !expectedCounts.containsKey(c))
                .forEach(c -> unexpected.add(examples.get(c).toString()));
        this.expectedByKey = byKey(expected);
        this.seenByKey = byKey(seen);
    }

    public static RecordAudit of(List<TopicRecord> expected, List<TopicRecord> seen) {
        return new RecordAudit(expected, seen);
    }

    public boolean exactlyOnce() {
        return missing.isEmpty() && duplicated.isEmpty() && unexpected.isEmpty() && expected == seen;
    }

    /** Keys whose records (in offset order) differ from the expected sequence. */
    public List<String> keysOutOfOrder() {
        return expectedByKey.entrySet().stream()
                .filter(e -> !Objects.equals(e.getValue(), seenByKey.get(e.getKey())))
                .map(Map.Entry::getKey).limit(10).collect(Collectors.toList());
    }

    @Override
    public String toString() {
        return String.format("expected %d records, read %d; missing %d %s; duplicated %d (%d extra copies) %s;"
                + " never expected %d %s", expected, seen, missing.size(), head(missing), duplicated.size(),
                duplicateCopies, head(duplicated), unexpected.size(), head(unexpected));
    }

    private static List<String> head(List<String> list) {
        return list.subList(0, Math.min(3, list.size()));
    }

    private static Map<String, Integer> counts(List<TopicRecord> records) {
        Map<String, Integer> counts = new HashMap<>();
        records.forEach(r -> counts.merge(r.content(), 1, Integer::sum));
        return counts;
    }

    /** Per key (by content), the record contents in read order (offset order within a partition). */
    private static Map<String, List<String>> byKey(List<TopicRecord> records) {
        Map<String, List<String>> byKey = new LinkedHashMap<>();
        for (TopicRecord r : records) {
            String key = r.content().substring(0, r.content().indexOf('/'));
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(r.content());
        }
        return byKey;
    }
}
