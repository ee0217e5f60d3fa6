package org.kjson.flink.sql;

import java.util.List;
import java.util.Map;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedSchema;

/**
 * Options and columns that Flink's Kafka connectors accept but the native path would not
 * reproduce record for record. Each is rejected at planning with a message naming it; nothing is
 * silently dropped or changed. (Writable metadata, topic lists and {@code topic-pattern} are
 * written as the stock sink writes them.)
 */
final class NativeSinkRestrictions {
    /** {@code sink.partitioner} values whose partition choice does not look at the row. */
    static final List<String> PARTITIONERS = List.of("default", "round-robin", "fixed");

    private NativeSinkRestrictions() {}

    /** {@code options} are the stock connector's (connector already renamed). */
    static void check(String identifier, ResolvedSchema schema, Map<String, String> options) {
        Configuration config = Configuration.fromMap(options);
        checkPartitioner(identifier, config);
        checkBufferFlush(identifier, config);
    }

    /** A custom partitioner is handed the RowData, which the native path no longer has. */
    private static void checkPartitioner(String identifier, Configuration config) {
        config.getOptional(KafkaConnectorOptions.SINK_PARTITIONER).ifPresent(partitioner -> {
            if (!PARTITIONERS.contains(partitioner)) {
                throw new ValidationException(String.format("'%s' supports option '%s' = %s only (a custom partitioner"
                        + " class sees the row, which is encoded natively), found '%s'.", identifier,
                        KafkaConnectorOptions.SINK_PARTITIONER.key(), PARTITIONERS, partitioner));
            }
        });
    }

    /** upsert-kafka's reducing buffer drops and reorders records by key; not reproduced. */
    private static void checkBufferFlush(String identifier, Configuration config) {
        int maxRows = config.get(KafkaConnectorOptions.SINK_BUFFER_FLUSH_MAX_ROWS);
        long intervalMs = config.get(KafkaConnectorOptions.SINK_BUFFER_FLUSH_INTERVAL).toMillis();
        if (maxRows > 0 || intervalMs > 0) {
            throw new ValidationException(String.format("'%s' does not support the upsert buffer: options '%s' and"
                    + " '%s' must be left unset (or 0).", identifier, KafkaConnectorOptions.SINK_BUFFER_FLUSH_MAX_ROWS.key(),
                    KafkaConnectorOptions.SINK_BUFFER_FLUSH_INTERVAL.key()));
        }
    }
}
