package org.kjson.flink.sql.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.support.SharedBroker;

/** The embedded broker (the tests' shared one) honours transactions: read_committed sees committed records only. */
class KafkaBrokerTest {

    @Test
    void readCommittedSkipsAbortedTransactions() throws Exception {
        KafkaBroker broker = SharedBroker.get();
        broker.createTopic("smoke", 1);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "smoke-tx",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("smoke", bytes("k1"), bytes("committed")));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("smoke", bytes("k2"), bytes("aborted")));
            producer.flush();
            producer.abortTransaction();
        }
        List<TopicRecord> records = TopicReader.readCommitted(broker.bootstrapServers(), "smoke");
        assertEquals(1, records.size(), records::toString);
        assertEquals("committed", new String(records.get(0).value(), StandardCharsets.UTF_8));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
