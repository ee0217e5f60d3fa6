package org.kjson.flink.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.kjson.flink.SinkDescription;
import org.kjson.flink.support.RowDataPaths.Outcome;
import org.kjson.flink.support.RowDataPaths.Path;
import org.kjson.flink.support.RowDataPaths.Record;

/**
 * Encodes rows on every path a RowData takes into kjson ({@link RowDataPaths}) and compares each
 * record, byte for byte, with the stock Flink sink, for the rows as GenericRowData and as
 * BinaryRowData (the form after a shuffle).
 *
 * <p>The rows come from a supplier called once per form and once for the stock sink, so that a
 * side that reads a string (the stock serializer calls {@code toString()}, which caches the Java
 * string) cannot change what the other sees.
 */
public final class EveryRowDataPath {
    /** The operator's own batches: rows of one call span several. */
    private static final int OPERATOR_BATCH_ROWS = 3;

    private final StockKafkaSink stock;
    private final SinkDescription sink;
    private final RowDataSerializer binary;

    public EveryRowDataPath(StockKafkaSink stock) {
        this.stock = stock;
        this.sink = SinkDescription.of(stock.table().getResolvedSchema(), stock.options());
        this.binary = new RowDataSerializer(stock.physicalRowType());
    }

    /** The rows as GenericRowData (as supplied) or as BinaryRowData. */
    public List<RowData> rows(Supplier<List<RowData>> rows, boolean binaryRows) {
        List<RowData> out = new ArrayList<>();
        for (RowData row : rows.get()) {
            out.add(binaryRows ? binary.toBinaryRow(row).copy() : row);
        }
        return out;
    }

    /** Asserts that every path writes the stock sink's records for the supplied rows. */
    public void assertMatchesStock(Supplier<List<RowData>> rows) throws Exception {
        assertMatchesStock(rows, false);
        assertMatchesStock(rows, true);
    }

    /** The same for one form of the rows: GenericRowData as supplied, or BinaryRowData. */
    public void assertMatchesStock(Supplier<List<RowData>> rows, boolean binaryRows) throws Exception {
        String form = binaryRows ? "BinaryRowData" : "GenericRowData";
        List<RowData> kjsonRows = rows(rows, binaryRows);
        List<RowData> stockRows = rows(rows, binaryRows);
        Map<Path, Outcome> outcomes = encode(kjsonRows);
        List<ProducerRecord<byte[], byte[]>> expected = new ArrayList<>();
        for (RowData row : stockRows) {
            expected.add(stock.serialize(row));
        }
        for (Map.Entry<Path, Outcome> outcome : outcomes.entrySet()) {
            if (outcome.getValue().error() != null) {
                throw new AssertionError(form + " via " + outcome.getKey() + " failed", outcome.getValue().error());
            }
            compare(form + " via " + outcome.getKey(), stockRows, expected, outcome.getValue().records());
        }
    }

    /** The records (or the error) of every path for one batch of rows. */
    public Map<Path, Outcome> encode(List<RowData> rows) throws Exception {
        try (RowDataPaths paths = RowDataPaths.open(sink, OPERATOR_BATCH_ROWS)) {
            return paths.encode(rows);
        }
    }

    private static void compare(String path, List<RowData> rows, List<ProducerRecord<byte[], byte[]>> expected,
            List<Record> actual) {
        assertEquals(expected.size(), actual.size(), path);
        for (int i = 0; i < expected.size(); i++) {
            ProducerRecord<byte[], byte[]> stockRecord = expected.get(i);
            Record record = actual.get(i);
            if (!Arrays.equals(stockRecord.key(), record.key()) || !Arrays.equals(stockRecord.value(), record.value())) {
                fail(String.format("%s, row %d %s:%n  stock  key   %s%n  kjson  key   %s%n  stock  value %s%n"
                        + "  kjson  value %s", path, i, rows.get(i), text(stockRecord.key()), text(record.key()),
                        text(stockRecord.value()), text(record.value())));
            }
        }
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }
}
