package org.kjson.flink.sql;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;

/**
 * Flink 1.20 line: Kafka connector 3.4 names transactions one way only (no
 * {@code sink.transaction-naming-strategy}, which its factory refuses as an unknown option).
 */
final class TransactionNaming {
    private TransactionNaming() {}

    static String of(Configuration config) {
        return null;
    }

    static void apply(KafkaSinkBuilder<?> builder, String strategy) {
        // the builder has no strategy to set
    }
}
