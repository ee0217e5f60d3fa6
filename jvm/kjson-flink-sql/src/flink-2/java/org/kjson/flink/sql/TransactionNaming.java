package org.kjson.flink.sql;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions;

/**
 * Flink 2.x line: the Kafka connector's {@code sink.transaction-naming-strategy} (connector 4.0
 * and later). The 1.20 line has its own version of this class, without the option.
 */
final class TransactionNaming {
    private TransactionNaming() {}

    /** The strategy's name, as the table's options set it. */
    static String of(Configuration config) {
        return config.get(KafkaConnectorOptions.TRANSACTION_NAMING_STRATEGY).name();
    }

    static void apply(KafkaSinkBuilder<?> builder, String strategy) {
        builder.setTransactionNamingStrategy(TransactionNamingStrategy.valueOf(strategy));
    }
}
