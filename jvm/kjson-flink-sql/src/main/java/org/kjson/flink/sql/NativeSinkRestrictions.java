package org.kjson.flink.sql;

import java.util.Map;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedSchema;

/**
 * Options and columns that Flink's Kafka connectors accept but the native path would not
 * reproduce record for record. Each is rejected at planning with a message naming it; nothing is
 * silently dropped or changed. (Writable metadata, topic lists, {@code topic-pattern} and
 * custom {@code sink.partitioner} classes are written as the stock sink writes them.)
 */
final class NativeSinkRestrictions {
    private NativeSinkRestrictions() {}

    /** {@code options} are the stock connector's (connector already renamed). */
    static void check(String identifier, ResolvedSchema schema, Map<String, String> options) {
        Configuration config = Configuration.fromMap(options);
        checkBufferFlush(identifier, config);
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
