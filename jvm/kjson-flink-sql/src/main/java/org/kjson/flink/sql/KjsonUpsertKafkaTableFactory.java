package org.kjson.flink.sql;

import org.apache.flink.streaming.connectors.kafka.table.UpsertKafkaDynamicTableFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;

/**
 * {@code 'connector' = 'kjson-upsert-kafka'}: Flink's {@code upsert-kafka} table sink and source with the
 * {@code json} formats (keys from the primary key, tombstones for deletions), same options and
 * bytes, encoded and decoded natively by kjson.
 */
public final class KjsonUpsertKafkaTableFactory extends KjsonTableFactory {
    public static final String IDENTIFIER = "kjson-upsert-kafka";

    public KjsonUpsertKafkaTableFactory() {
        super(IDENTIFIER, UpsertKafkaDynamicTableFactory.IDENTIFIER);
    }

    @Override
    DynamicTableSinkFactory stockFactory() {
        return new UpsertKafkaDynamicTableFactory();
    }

    @Override
    DynamicTableSourceFactory stockSourceFactory() {
        return new UpsertKafkaDynamicTableFactory();
    }
}
