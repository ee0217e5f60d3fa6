package org.kjson.flink.sql;

import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.kjson.flink.EncodedRecordSerializationSchema;
import org.kjson.flink.KafkaEncodedRecord;
import org.kjson.flink.SinkTopics;

/**
 * The Kafka side of a sink table, read with the connector's own option definitions and built
 * into Flink's stock {@link KafkaSink} the way the {@code kafka} table sink builds it: all
 * {@code properties.*} as the producer configuration, the delivery guarantee (or the deprecated
 * {@code sink.semantic}), the transactional id prefix and naming strategy.
 */
final class KafkaSinkSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final String PROPERTIES_PREFIX = "properties.";
    /** Deprecated spelling of the delivery guarantee that the kafka connector still honours. */
    private static final ConfigOption<String> SINK_SEMANTIC = ConfigOptions.key("sink.semantic").stringType().noDefaultValue();

    private final SinkTopics topics;
    private final Properties producerConfig;
    private final DeliveryGuarantee deliveryGuarantee;
    private final String transactionalIdPrefix;
    /** Null on the 1.20 line, which has one naming only ({@link TransactionNaming}). */
    private final String transactionNamingStrategy;
    private final SinkPartitioner partitioner;
    private final Integer parallelism;

    private KafkaSinkSettings(SinkTopics topics, Properties producerConfig, DeliveryGuarantee deliveryGuarantee,
            String transactionalIdPrefix, String transactionNamingStrategy, SinkPartitioner partitioner,
            Integer parallelism) {
        this.topics = topics;
        this.producerConfig = producerConfig;
        this.deliveryGuarantee = deliveryGuarantee;
        this.transactionalIdPrefix = transactionalIdPrefix;
        this.transactionNamingStrategy = transactionNamingStrategy;
        this.partitioner = partitioner;
        this.parallelism = parallelism;
    }

    /**
     * From options already validated by the stock factory and {@link NativeSinkRestrictions};
     * {@code classLoader} loads a custom {@code sink.partitioner} class.
     */
    static KafkaSinkSettings of(Map<String, String> options, ClassLoader classLoader) {
        Configuration config = Configuration.fromMap(options);
        Properties producerConfig = new Properties();
        options.forEach((key, value) -> {
            if (key.startsWith(PROPERTIES_PREFIX)) {
                producerConfig.put(key.substring(PROPERTIES_PREFIX.length()), value);
            }
        });
        DeliveryGuarantee guarantee = config.getOptional(SINK_SEMANTIC)
                .map(semantic -> DeliveryGuarantee.valueOf(semantic.toUpperCase(Locale.ROOT).replace('-', '_')))
                .orElseGet(() -> config.get(KafkaConnectorOptions.DELIVERY_GUARANTEE));
        SinkTopics topics = config.getOptional(KafkaConnectorOptions.TOPIC_PATTERN)
                .map(pattern -> SinkTopics.matching(Pattern.compile(pattern)))
                .orElseGet(() -> SinkTopics.listed(config.get(KafkaConnectorOptions.TOPIC)));
        return new KafkaSinkSettings(topics, producerConfig, guarantee,
                config.getOptional(KafkaConnectorOptions.TRANSACTIONAL_ID_PREFIX).orElse(null),
                TransactionNaming.of(config),
                SinkPartitioner.of(config, classLoader),
                config.getOptional(KafkaConnectorOptions.SINK_PARALLELISM).orElse(null));
    }

    /** The stock KafkaSink, fed with records whose bytes are already encoded. */
    KafkaSink<KafkaEncodedRecord> buildSink() {
        KafkaSinkBuilder<KafkaEncodedRecord> builder = KafkaSink.builder();
        if (transactionalIdPrefix != null) {
            builder.setTransactionalIdPrefix(transactionalIdPrefix);
        }
        TransactionNaming.apply(builder, transactionNamingStrategy);
        return builder.setDeliveryGuarantee(deliveryGuarantee)
                .setBootstrapServers(producerConfig.getProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG))
                .setKafkaProducerConfig(producerConfig)
                .setRecordSerializer(recordSerializer())
                .build();
    }

    private EncodedRecordSerializationSchema recordSerializer() {
        EncodedRecordSerializationSchema toTopic = EncodedRecordSerializationSchema.to(topics);
        return partitioner.applyTo(toTopic);
    }

    /** The topic, topics or pattern, as the sink's name shows them. */
    String topic() {
        return topics.topics() != null ? String.join(",", topics.topics()) : topics.toString();
    }

    SinkTopics topics() {
        return topics;
    }

    /** A custom partitioner class: the records carry the consumed rows. */
    boolean partitionerReadsRows() {
        return partitioner.readsRows();
    }

    DeliveryGuarantee deliveryGuarantee() {
        return deliveryGuarantee;
    }

    /** Null: the planner's default (the input's parallelism). */
    Integer parallelism() {
        return parallelism;
    }

    @Override
    public String toString() {
        return "KafkaSinkSettings{" + topics + ", guarantee=" + deliveryGuarantee + ", transactionalIdPrefix="
                + transactionalIdPrefix + ", naming=" + transactionNamingStrategy + ", partitioner="
                + partitioner + ", parallelism=" + parallelism + ", producer=" + producerConfig + "}";
    }
}
