package org.kjson.flink.sql;

import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicTableFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;

/**
 * {@code 'connector' = 'kjson-kafka'}: Flink's {@code kafka} table sink with the {@code json}
 * format, same options and bytes, encoded natively by kjson.
 */
public final class KjsonKafkaTableFactory extends KjsonTableSinkFactory {
    public static final String IDENTIFIER = "kjson-kafka";

    public KjsonKafkaTableFactory() {
        super(IDENTIFIER, KafkaDynamicTableFactory.IDENTIFIER);
    }

    @Override
    DynamicTableSinkFactory stockFactory() {
        return new KafkaDynamicTableFactory();
    }
}
