package org.kjson.flink.sql.support;

/** What the Flink line on the test classpath has (the same tests run on 1.20 and 2.2). */
public final class FlinkLine {
    private FlinkLine() {}

    /** {@code sink.transaction-naming-strategy}: Kafka connector 4.0 (Flink 2.x) and later. */
    public static boolean hasTransactionNaming() {
        return exists("org.apache.flink.connector.kafka.sink.TransactionNamingStrategy");
    }

    /** The {@code VARIANT} type: Flink 2.1 and later. */
    public static boolean hasVariantType() {
        return exists("org.apache.flink.table.types.logical.VariantType");
    }

    /** The json formats' {@code decode.json-parser.enabled} option: Flink 2.x. */
    public static boolean hasJsonParserOption() {
        return !org.apache.flink.runtime.util.EnvironmentInformation.getVersion().startsWith("1.");
    }

    /** The json format reads a top-level array as one row per element: Flink 2.x. */
    public static boolean readsTopLevelJsonArrays() {
        return !org.apache.flink.runtime.util.EnvironmentInformation.getVersion().startsWith("1.");
    }

    private static boolean exists(String className) {
        try {
            Class.forName(className, false, FlinkLine.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
