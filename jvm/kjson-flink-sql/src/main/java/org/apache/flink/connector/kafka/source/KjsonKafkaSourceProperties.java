package org.apache.flink.connector.kafka.source;

import java.util.Properties;

/**
 * The consumer properties of a built {@link KafkaSource} (its builder completed them: byte array
 * deserializers, auto commit off, the reset strategy of the starting offsets, the client id
 * prefix, partition discovery off when bounded). kjson's reader opens its consumers with exactly
 * these, as the stock reader does; the source exposes them only to its own package, hence this
 * class in it.
 */
public final class KjsonKafkaSourceProperties {
    private KjsonKafkaSourceProperties() {}

    public static Properties of(KafkaSource<?> source) {
        Properties properties = new Properties();
        properties.putAll(source.getConfiguration().toMap());
        return properties;
    }
}
