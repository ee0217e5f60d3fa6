package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.support.MetadataSinkRun;
import org.kjson.flink.sql.support.ReadRecord;
import org.kjson.flink.sql.support.RowAwarePartitioner;

/**
 * {@code 'sink.partitioner'} = a partitioner class on a real broker: the partitioner reads the
 * consumed row (metadata columns included), the key and value bytes, the topic and its
 * partitions ({@link RowAwarePartitioner}), so a record lands in the same partition as with the
 * stock {@code kafka} sink only if kjson hands it exactly what Flink does. Compared with a stock
 * run of the same DDL: topic, partition, key, value, timestamp and headers of every record.
 */
class CustomPartitionerTest {
    static final long ROWS = 2_000;
    static final int PARTITIONS = 4;
    static final String PARTITIONER = "  'sink.partitioner' = '" + RowAwarePartitioner.class.getName() + "',\n";

    /** Keyed, with timestamp, headers and topic columns (the consumed row is longer than the physical one). */
    static final String KEYED_DDL = WritableMetadataTest.APPEND_DDL.replace("  'sink.delivery-guarantee'",
            PARTITIONER + "  'sink.delivery-guarantee'");

    /** No key, no metadata: the partitioner gets a null key and the physical row. */
    static final String VALUE_ONLY_DDL = "CREATE TABLE sink (id BIGINT, name STRING) WITH (\n"
            + "  'connector' = '%1$s',\n"
            + "  %2$s,\n"
            + "  'properties.bootstrap.servers' = '%3$s',\n"
            + "  'format' = 'json',\n"
            + PARTITIONER
            + "  'sink.delivery-guarantee' = 'exactly-once',\n"
            + "  'sink.transactional-id-prefix' = '%4$s'\n"
            + ")";

    @Test
    void keyedRowsWithMetadataLandInTheStockSinksPartitions() throws Exception {
        List<String> stock = MetadataSinkRun.run("kafka", "partitioner-stock", KEYED_DDL, WritableMetadataTest.APPEND_INSERT,
                prefix -> "'topic' = '" + prefix + "a;" + prefix + "b'", ROWS, PARTITIONS);
        List<String> kjson = MetadataSinkRun.run("kjson-kafka", "partitioner-kjson", KEYED_DDL,
                WritableMetadataTest.APPEND_INSERT, prefix -> "'topic' = '" + prefix + "a;" + prefix + "b'", ROWS, PARTITIONS);
        assertSpreadOverEveryPartition(stock);
        ReadRecord.assertSameRecords(stock, kjson);
    }

    @Test
    void valueOnlyRowsLandInTheStockSinksPartitions() throws Exception {
        String insert = "INSERT INTO sink SELECT id, name FROM metadata_rows";
        List<String> stock = MetadataSinkRun.run("kafka", "partitioner-value-stock", VALUE_ONLY_DDL, insert,
                prefix -> "'topic' = '" + prefix + "b'", ROWS, PARTITIONS);
        List<String> kjson = MetadataSinkRun.run("kjson-kafka", "partitioner-value-kjson", VALUE_ONLY_DDL, insert,
                prefix -> "'topic' = '" + prefix + "b'", ROWS, PARTITIONS);
        assertSpreadOverEveryPartition(stock);
        ReadRecord.assertSameRecords(stock, kjson);
    }

    /** The partitioner chose (every partition is used), and every row was written. */
    private static void assertSpreadOverEveryPartition(List<String> records) {
        assertEquals(ROWS, records.size(), "records read");
        Set<String> partitions = records.stream().map(r -> r.split(" ")[1]).collect(Collectors.toSet());
        assertTrue(partitions.size() == PARTITIONS, "partitions used: " + partitions);
    }
}
