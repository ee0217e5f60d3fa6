package org.kjson.flink.sql.support;

import org.kjson.flink.sql.broker.KafkaBroker;

/** One broker for the whole test JVM (startup costs seconds); stopped when the JVM exits. */
public final class SharedBroker {
    private static KafkaBroker broker;

    private SharedBroker() {}

    public static synchronized KafkaBroker get() throws Exception {
        if (broker == null) {
            broker = KafkaBroker.start();
            KafkaBroker started = broker;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "shared-kafka-broker-close"));
        }
        return broker;
    }
}
