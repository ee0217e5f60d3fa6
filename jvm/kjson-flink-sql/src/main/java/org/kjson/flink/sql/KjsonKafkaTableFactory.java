package org.kjson.flink.sql;

import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicTableFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;

/**
 * {@code 'connector' = 'kjson-kafka'}: Flink's {@code kafka} table sink and source with the {@code json}
 * format, same options and bytes, encoded and decoded natively by kjson.
 */
public final class KjsonKafkaTableFactory extends KjsonTableFactory {
    public static final String IDENTIFIER = "kjson-kafka";

    public KjsonKafkaTableFactory() {
        super(IDENTIFIER, KafkaDynamicTableFactory.IDENTIFIER);
    }

    @Override
    DynamicTableSinkFactory stockFactory() {
        return new KafkaDynamicTableFactory();
    }

    @Override
    DynamicTableSourceFactory stockSourceFactory() {
        return new KafkaDynamicTableFactory();
    }
}
