package org.kjson.flink.sql.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.support.ScanRun;
import org.kjson.flink.sql.support.SharedBroker;

/**
 * A first measure of the source: Nexmark-like bid records (json, about 200 bytes) on a
 * two-partition topic of the embedded broker, read to the end by a bounded table with
 * {@code kafka} and with {@code kjson-kafka}, alternately, into a {@code blackhole} table
 * (parallelism 1): job time and rows/s per pass, and the ratio of the medians. The job time
 * includes the job's start (about a second); the rows are the same in both runs
 * (ScanParityTest checks that, this does not).
 * Not part of the test runs (the name is not a test's): run it with
 * {@code mvn -f jvm/pom.xml -pl kjson-flink-sql -am verify -Dtest=SourceReadBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false -Dbench.source.records=1000000 -Dbench.source.passes=3}.
 */
class SourceReadBenchmark {
    private static final String DDL = "CREATE TABLE t (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING,"
            + " url STRING, `dateTime` TIMESTAMP(3), extra STRING) WITH ('connector' = '%1$s', 'topic' = '%2$s',"
            + " 'properties.bootstrap.servers' = '%3$s', 'scan.startup.mode' = 'earliest-offset',"
            + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')";

    @Test
    void measure() throws Exception {
        int records = Integer.getInteger("bench.source.records", 1_000_000);
        int passes = Integer.getInteger("bench.source.passes", 3);
        String topic = ScanRun.topic("bench-read", 2);
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            batch.add(new ProducerRecord<>(topic, i % 2, null, ScanRun.bytes(bid(i))));
            if (batch.size() == 100_000) {
                ScanRun.produceFast(batch);
                batch.clear();
            }
        }
        ScanRun.produceFast(batch);
        List<Double> stock = new ArrayList<>();
        List<Double> kjson = new ArrayList<>();
        for (int pass = 0; pass < passes; pass++) {
            stock.add(read("kafka", topic, records));
            kjson.add(read("kjson-kafka", topic, records));
        }
        double stockMedian = median(stock);
        double kjsonMedian = median(kjson);
        System.out.printf("source read, %d records, parallelism 1: kafka %.0f rows/s %s, kjson-kafka %.0f rows/s %s,"
                + " ratio %.2f%n", records, stockMedian, stock, kjsonMedian, kjson, kjsonMedian / stockMedian);
    }

    private static String bid(int i) {
        return "{\"auction\":" + (1000 + i % 977) + ",\"bidder\":" + (2000 + i % 3001) + ",\"price\":" + (i % 10_000)
                + ",\"channel\":\"channel-" + (i % 7) + "\",\"url\":\"https://www.nexmark.com/item.htm?query=" + i
                + "\",\"dateTime\":\"2026-01-01 00:00:" + String.format("%02d.%03d", (i / 1000) % 60, i % 1000)
                + "\",\"extra\":\"bid " + i + " \\\"extra\\\" abcdefghijklmnopqrstuvwxyz\"}";
    }

    /** Rows/s of one bounded read of the whole topic. */
    private static double read(String connector, String topic, int records) throws Exception {
        Configuration config = new Configuration();
        config.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        TableEnvironment tableEnv = TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode()
                .withConfiguration(config).build());
        tableEnv.executeSql(String.format(DDL, connector, topic, SharedBroker.get().bootstrapServers()));
        tableEnv.executeSql("CREATE TABLE drained WITH ('connector' = 'blackhole') LIKE t (EXCLUDING OPTIONS)");
        long start = System.nanoTime();
        tableEnv.executeSql("INSERT INTO drained SELECT * FROM t").await(10, TimeUnit.MINUTES);
        double seconds = (System.nanoTime() - start) / 1e9;
        double rate = records / seconds;
        System.out.printf("%s: %d records in %.1f s, %.0f rows/s%n", connector, records, seconds, rate);
        return Math.round(rate);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }
}
