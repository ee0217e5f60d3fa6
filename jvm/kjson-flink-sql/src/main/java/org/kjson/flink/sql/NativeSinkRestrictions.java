package org.kjson.flink.sql;

import java.util.Map;

import org.apache.flink.table.catalog.ResolvedSchema;

/**
 * Options and columns that Flink's Kafka connectors accept but the native path would not
 * reproduce record for record, rejected at planning with a message naming them (nothing is
 * silently dropped or changed). None is left here: writable metadata, topic lists,
 * {@code topic-pattern}, custom {@code sink.partitioner} classes and upsert-kafka's reducing
 * buffer are all written as the stock sink writes them; formats are checked by
 * {@link EncodedFormats}, format options and column types by the native encoder.
 */
final class NativeSinkRestrictions {
    private NativeSinkRestrictions() {}

    /** {@code options} are the stock connector's (connector already renamed). */
    static void check(String identifier, ResolvedSchema schema, Map<String, String> options) {
        // Every option and column the stock factory accepts is written as the stock sink writes it.
    }
}
