package org.kjson.flink.sql.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.kjson.flink.sql.broker.KafkaBroker;
import org.kjson.flink.sql.broker.TopicReader;
import org.kjson.flink.sql.broker.TopicRecord;

/**
 * One failover run end to end: a fresh topic (2 partitions), the sink table from a DDL template,
 * the job, a read_committed read of the topic, and the records stock Flink would have written
 * for the rows the sink was given.
 */
public final class FailoverScenario {
    /** How the rows reach the sink. */
    public enum Path {
        /** {@code INSERT INTO}: the planner drops {@code -U} rows for upsert sinks, as for the stock one. */
        SQL,
        /** The sink's runtime provider directly: every row kind reaches the encoder. */
        RUNTIME_PROVIDER
    }

    public final String runId;
    public final FailingRows.Run run;
    public final RecordAudit audit;
    /** What the read_committed consumer read, in read order. */
    public final List<TopicRecord> seen;
    public final long sourceRows;
    public final long millis;

    private FailoverScenario(String runId, FailingRows.Run run, RecordAudit audit, List<TopicRecord> seen, long sourceRows,
            long millis) {
        this.runId = runId;
        this.run = run;
        this.audit = audit;
        this.seen = seen;
        this.sourceRows = sourceRows;
        this.millis = millis;
    }

    /**
     * {@code ddlTemplate} has {@code %1$s} for the connector, {@code %2$s} the topic,
     * {@code %3$s} the bootstrap servers, {@code %4$s} the delivery guarantee and {@code %5$s}
     * the transactional id prefix.
     */
    public static FailoverScenario run(String runId, String ddlTemplate, String connector, String stockConnector,
            String guarantee, FailingRows.Shape shape, long sequences, double sequencesPerSecond, Path path,
            boolean injectFailure) throws Exception {
        return run(runId, ddlTemplate, connector, stockConnector, guarantee, shape, sequences, sequencesPerSecond, path,
                injectFailure, Map.of());
    }

    /** The same run, on a MiniCluster with {@code jobConfig} added to its configuration. */
    public static FailoverScenario run(String runId, String ddlTemplate, String connector, String stockConnector,
            String guarantee, FailingRows.Shape shape, long sequences, double sequencesPerSecond, Path path,
            boolean injectFailure, Map<String, String> jobConfig) throws Exception {
        KafkaBroker broker = SharedBroker.get();
        String topic = "topic-" + runId;
        broker.createTopic(topic, 2);
        SinkJob job = SinkJob.create(jobConfig);
        String ddl = String.format(ddlTemplate, connector, topic, broker.bootstrapServers(), guarantee, "tx-" + runId);
        ResolvedCatalogTable table = job.createTable(ddl, "sink");
        FailingRows.Run run = FailingRows.start(runId);
        long started = System.nanoTime();
        if (path == Path.SQL) {
            job.insertRows(table, "sink", shape, sequences, sequencesPerSecond, runId, injectFailure);
        } else {
            job.sinkRowData(table, shape, sequences, sequencesPerSecond, runId, injectFailure);
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        List<TopicRecord> seen = TopicReader.readCommitted(broker.bootstrapServers(), topic);
        Predicate<Row> reachesSink = path == Path.SQL && shape == FailingRows.Shape.CHANGELOG
                ? row -> row.getKind() != RowKind.UPDATE_BEFORE
                : row -> true;
        List<TopicRecord> expected = expected(StockSerializer.of(table, stockConnector), shape, sequences, reachesSink);
        long sourceRows = shape == FailingRows.Shape.APPEND ? sequences : TestRows.changelogRowCount(sequences);
        return new FailoverScenario(runId, run, RecordAudit.of(expected, seen), seen, sourceRows, millis);
    }

    private static List<TopicRecord> expected(StockSerializer stock, FailingRows.Shape shape, long sequences,
            Predicate<Row> reachesSink) {
        List<TopicRecord> expected = new ArrayList<>();
        for (long s = 0; s < sequences; s++) {
            for (Row row : FailingRows.rows(shape, s)) {
                if (reachesSink.test(row)) {
                    ProducerRecord<byte[], byte[]> record = stock.serialize(row);
                    expected.add(new TopicRecord(-1, -1, record.key(), record.value()));
                }
            }
        }
        return expected;
    }

    @Override
    public String toString() {
        return runId + ": " + sourceRows + " source rows in " + millis + " ms, failure injected " + run.failed.get()
                + " after " + run.completedCheckpoints.get() + " completed checkpoint notifications; " + audit;
    }
}
