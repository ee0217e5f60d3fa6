package org.kjson.flink;

import java.io.Serializable;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetIdentifier;

/**
 * The topics a Kafka table sink may write, and the topic of each record, by the {@code kafka}
 * connector's rules: with one topic every record goes there (the table has no writable
 * {@code topic} column then); with a topic list or a {@code topic-pattern} each row names its
 * topic in its {@code topic} metadata column, and a row whose topic is null, not in the list or
 * not matching the pattern fails the write.
 */
public final class SinkTopics implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Null when a pattern is given. */
    private final List<String> topics;
    private final Set<String> topicSet;
    /** Null when topics are listed. */
    private final Pattern pattern;
    private transient Map<String, Boolean> patternMatches;

    private SinkTopics(List<String> topics, Pattern pattern) {
        this.topics = topics == null ? null : List.copyOf(topics);
        this.topicSet = topics == null ? null : new LinkedHashSet<>(topics);
        this.pattern = pattern;
    }

    public static SinkTopics of(String topic) {
        return listed(List.of(topic));
    }

    public static SinkTopics listed(List<String> topics) {
        if (topics.isEmpty()) {
            throw new IllegalArgumentException("no topic");
        }
        return new SinkTopics(topics, null);
    }

    public static SinkTopics matching(Pattern pattern) {
        return new SinkTopics(null, Objects.requireNonNull(pattern, "pattern"));
    }

    /** One topic: rows carry none. */
    public boolean isSingle() {
        return topics != null && topics.size() == 1;
    }

    /** The listed topics, or null for a pattern. */
    public List<String> topics() {
        return topics;
    }

    /** What lineage reports: the listed topics or the pattern. */
    DefaultKafkaDatasetIdentifier datasetIdentifier() {
        return topics != null ? DefaultKafkaDatasetIdentifier.ofTopics(topics) : DefaultKafkaDatasetIdentifier.ofPattern(pattern);
    }

    /** The topic of a record whose row has {@code metadata} (null: no metadata columns). */
    public String topicOf(RecordMetadata metadata) {
        if (isSingle()) {
            return topics.get(0);
        }
        String topic = metadata == null ? null : metadata.topic();
        if (topic == null) {
            throw new IllegalArgumentException("Cannot write a row without a topic: its 'topic' metadata column is null"
                    + " or missing, and the sink writes to " + this + ".");
        }
        if (topicSet != null && !topicSet.contains(topic)) {
            throw new IllegalArgumentException("Cannot write a row to topic '" + topic + "' (its 'topic' metadata"
                    + " column): the sink writes to " + this + " only.");
        }
        if (pattern != null && !matches(topic)) {
            throw new IllegalArgumentException("Cannot write a row to topic '" + topic + "' (its 'topic' metadata"
                    + " column): it does not match " + this + ".");
        }
        return topic;
    }

    private boolean matches(String topic) {
        if (patternMatches == null) {
            patternMatches = new HashMap<>();
        }
        return patternMatches.computeIfAbsent(topic, t -> pattern.matcher(t).matches());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SinkTopics t && Objects.equals(topics, t.topics)
                && Objects.equals(String.valueOf(pattern), String.valueOf(t.pattern));
    }

    @Override
    public int hashCode() {
        return Objects.hash(topics, String.valueOf(pattern));
    }

    @Override
    public String toString() {
        return topics != null ? (isSingle() ? "topic '" + topics.get(0) + "'" : "topics " + topics)
                : "topic-pattern '" + pattern.pattern() + "'";
    }
}
