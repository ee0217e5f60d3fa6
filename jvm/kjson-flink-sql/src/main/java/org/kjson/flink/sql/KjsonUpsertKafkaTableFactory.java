package org.kjson.flink.sql;

import org.apache.flink.streaming.connectors.kafka.table.UpsertKafkaDynamicTableFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;

/**
 * {@code 'connector' = 'kjson-upsert-kafka'}: Flink's {@code upsert-kafka} table sink with the
 * {@code json} formats (keys from the primary key, tombstones for deletions), same options and
 * bytes, encoded natively by kjson.
 */
public final class KjsonUpsertKafkaTableFactory extends KjsonTableSinkFactory {
    public static final String IDENTIFIER = "kjson-upsert-kafka";

    public KjsonUpsertKafkaTableFactory() {
        super(IDENTIFIER, UpsertKafkaDynamicTableFactory.IDENTIFIER);
    }

    @Override
    DynamicTableSinkFactory stockFactory() {
        return new UpsertKafkaDynamicTableFactory();
    }
}
