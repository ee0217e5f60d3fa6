package org.kjson.flink.sql.support;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A metric reporter for MiniCluster tests: keeps every metric whose name starts with
 * {@code kjson} (kept after the task ends, so counters can be read once the job is done), keyed
 * by its full identifier. Registered under {@link #NAME} by {@link #configure}.
 */
public final class CollectingReporter implements MetricReporter {
    public static final String NAME = "kjson-collecting";

    private static final Map<String, Metric> METRICS = new ConcurrentHashMap<>();

    /** The configuration entries that make a MiniCluster load this reporter. */
    public static Map<String, String> configuration() {
        return Map.of("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
    }

    /** kjson metrics registered so far, by identifier ({@code ...<operator>.<name>}). */
    public static Map<String, Metric> metrics() {
        return Map.copyOf(METRICS);
    }

    /** The metric called {@code name} of the one operator whose identifier contains {@code operator}. */
    public static Metric only(String operator, String name) {
        var matches = METRICS.entrySet().stream()
                .filter(e -> e.getKey().contains(operator) && e.getKey().endsWith("." + name)).toList();
        if (matches.size() != 1) {
            throw new AssertionError("expected one metric " + name + " of " + operator + ", found " + matches.size()
                    + " among " + METRICS.keySet());
        }
        return matches.get(0).getValue();
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        if (metricName.startsWith("kjson")) {
            METRICS.put(group.getMetricIdentifier(metricName), metric);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        // kept: the test reads the final values after the job
    }

    /** Found by Flink through {@code META-INF/services}. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new CollectingReporter();
        }
    }
}
