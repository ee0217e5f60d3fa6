package org.kjson.flink.sql.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.kjson.flink.sql.broker.KafkaBroker;

/**
 * Reading a topic of the shared broker through a table, once per connector: the same DDL (with
 * {@code %1$s} for the connector, {@code %2$s} the topic and {@code %3$s} the bootstrap servers)
 * and the same query, on a MiniCluster at parallelism 1, bounded by the DDL's own
 * {@code scan.bounded.mode}. The stock connector's rows (or failure) are the expected ones.
 */
public final class ScanRun {
    /**
     * How long a test waits for the broker to acknowledge a record it wrote: beyond the producer's
     * own delivery timeout (120 s), so a broker slowed by a loaded machine fails the send with
     * Kafka's error, or not at all, rather than the test giving up first.
     */
    private static final long ACK_WAIT_SECONDS = 150;

    private ScanRun() {}

    /** What one read gave: every row (with its RowKind) until the end or the failure, and the failure. */
    public record Result(List<Row> rows, Throwable failure) {
        public List<String> lines() {
            return rows.stream().map(Row::toString).toList();
        }

        public List<String> sortedLines() {
            return rows.stream().map(Row::toString).sorted().toList();
        }
    }

    /** Every message of a failure's causal chain, one per line (for assertion messages). */
    public static String causes(Throwable failure) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            out.append("\n  ").append(t);
        }
        return out.toString();
    }

    /** The kjson source's count of records decoded natively, over every reader of every job so far. */
    public static long recordsDecoded() {
        return CollectingReporter.metrics().entrySet().stream().filter(e -> e.getKey().endsWith(".kjsonRecordsDecoded"))
                .mapToLong(e -> ((org.apache.flink.metrics.Counter) e.getValue()).getCount()).sum();
    }

    /** A new topic of the shared broker. */
    public static String topic(String name, int partitions) throws Exception {
        KafkaBroker broker = SharedBroker.get();
        String topic = name + "-" + System.nanoTime();
        broker.createTopic(topic, partitions);
        return topic;
    }

    /** Writes the records as they are (key, value, partition, timestamp, headers), acknowledged. */
    public static void produce(List<ProducerRecord<byte[], byte[]>> records) throws Exception {
        Properties properties = new Properties();
        properties.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedBroker.get().bootstrapServers());
        properties.setProperty(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.setProperty(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties)) {
            for (ProducerRecord<byte[], byte[]> record : records) {
                awaitAck(producer.send(record));
            }
        }
    }

    /**
     * Writes the records with batching (sent in order per partition, all acknowledged before this
     * returns). One request in flight with large batches: a fresh topic's partition may refuse the
     * first write while the broker still opens its log, and a single request is retried plainly
     * where several in flight, each with its sequence, have twice outlived the delivery timeout.
     */
    public static void produceFast(List<ProducerRecord<byte[], byte[]>> records) throws Exception {
        Properties properties = new Properties();
        properties.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedBroker.get().bootstrapServers());
        properties.setProperty(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.setProperty(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        properties.setProperty(ProducerConfig.LINGER_MS_CONFIG, "5");
        properties.setProperty(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        properties.setProperty(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties)) {
            List<Future<?>> sent = new ArrayList<>();
            for (ProducerRecord<byte[], byte[]> record : records) {
                sent.add(producer.send(record));
            }
            for (Future<?> future : sent) {
                awaitAck(future);
            }
        }
    }

    /** Waits for one acknowledgement; a failure carries the broker's log, which says why. */
    private static void awaitAck(Future<?> future) throws Exception {
        try {
            future.get(ACK_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("the broker did not acknowledge a record; its log ends:\n"
                    + SharedBroker.get().logTail(), e);
        }
    }

    /** A record on partition 0 with a text key (or null) and value (or null for a tombstone). */
    public static ProducerRecord<byte[], byte[]> text(String topic, String key, String value) {
        return new ProducerRecord<>(topic, 0, bytes(key), bytes(value));
    }

    public static byte[] bytes(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Declares table {@code t} of {@code connector} over the topic, runs {@code statements} and
     * waits for the job of the last one (an INSERT).
     */
    public static void run(String ddl, String connector, String topic, String... statements) throws Exception {
        TableEnvironment tableEnv = tableEnv();
        tableEnv.executeSql(String.format(ddl, connector, topic, SharedBroker.get().bootstrapServers()));
        for (int i = 0; i < statements.length - 1; i++) {
            tableEnv.executeSql(statements[i]);
        }
        tableEnv.executeSql(statements[statements.length - 1]).await(3, TimeUnit.MINUTES);
    }

    /** The rows {@code query} reads from table {@code t} declared by {@code ddl} with {@code connector}. */
    public static Result read(String ddl, String connector, String topic, String query) throws Exception {
        TableEnvironment tableEnv = tableEnv();
        tableEnv.executeSql(String.format(ddl, connector, topic, SharedBroker.get().bootstrapServers()));
        return collect(tableEnv, query);
    }

    /** The rows {@code query} returns, up to a failure, and that failure. */
    public static Result collect(TableEnvironment tableEnv, String query) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tableEnv.executeSql(query).collect()) {
            while (it.hasNext()) {
                rows.add(it.next());
            }
        } catch (RuntimeException e) {
            return new Result(rows, e);
        }
        return new Result(rows, null);
    }

    private static TableEnvironment tableEnv() {
        Configuration config = Configuration.fromMap(CollectingReporter.configuration());
        config.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        return TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().withConfiguration(config)
                .build());
    }
}
