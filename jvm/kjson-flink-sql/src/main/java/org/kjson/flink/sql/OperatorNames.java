package org.kjson.flink.sql;

/**
 * The names of a kjson sink's operators, after its table as the stock sink's are: the encode
 * operator {@code <table>: kjson-encode} (after {@code <table>: kjson-upsert-buffer} where the
 * upsert buffer is on), the Kafka writer and committer {@code <table>: Writer}
 * and {@code <table>: Committer}. Operator metrics are keyed by these names, so several kjson
 * sinks in one job keep theirs apart.
 */
final class OperatorNames {
    /** The planner's uid of the encode operator is {@code <node id>_kjson-encode}. */
    static final String ENCODER_UID = "kjson-encode";
    static final String ENCODER_SUFFIX = ": kjson-encode";
    /** The planner's uid of the upsert buffer is {@code <node id>_kjson-upsert-buffer}. */
    static final String BUFFER_UID = "kjson-upsert-buffer";

    private final String table;

    private OperatorNames(String table) {
        this.table = table;
    }

    /** {@code table}: the table's name in its database, as the stock sink's operator names use it. */
    static OperatorNames of(String table) {
        return new OperatorNames(table);
    }

    String encoder() {
        return table + ENCODER_SUFFIX;
    }

    String buffer() {
        return table + ": " + BUFFER_UID;
    }

    /** Flink appends {@code : Writer} and {@code : Committer} to a sink's name. */
    String sink() {
        return table;
    }
}
