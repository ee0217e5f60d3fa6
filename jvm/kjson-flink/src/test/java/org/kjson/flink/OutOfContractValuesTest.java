package org.kjson.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.kjson.flink.arrow.RowDataArrowWriter;
import org.kjson.flink.support.EveryRowDataPath;
import org.kjson.flink.support.RowDataPaths.Outcome;
import org.kjson.flink.support.RowDataPaths.Path;
import org.kjson.flink.support.StockKafkaSink;

/**
 * Values a DataStream program can hand over that Flink's planner never produces for the declared
 * type. Where the carriage holds them, kjson writes Flink's bytes; otherwise it fails with a
 * {@link KjsonValueException} naming the column path, on the writer and in the operator, and the
 * writer is usable again after a reset.
 */
class OutOfContractValuesTest {
    private static EveryRowDataPath paths;
    private static RowType rowType;

    @BeforeAll
    static void createSink() throws Exception {
        StockKafkaSink stock = StockKafkaSink.create("CREATE TABLE odd_values (p7 TIMESTAMP(7), t3 TIMESTAMP(3),"
                + " t0 TIMESTAMP_LTZ(0), t6 TIMESTAMP(6), d DECIMAL(11, 0), d18 DECIMAL(18, 18), d20 DECIMAL(20, 2),"
                + " b BINARY(3), r ROW<items ARRAY<ROW<ts TIMESTAMP(3)>>>, m MAP<STRING, BINARY(2)>,"
                + " n ARRAY<TIMESTAMP_LTZ(8)>) WITH ('connector' = 'kafka', 'topic' = 't',"
                + " 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json')");
        paths = new EveryRowDataPath(stock);
        rowType = stock.physicalRowType();
    }

    /** A row of nulls with {@code value} at field {@code field}. */
    private static GenericRowData with(int field, Object value) {
        GenericRowData row = new GenericRowData(rowType.getFieldCount());
        row.setField(field, value);
        return row;
    }

    /** Refused on every path (the writer, and so the operator), naming the column path and the problem. */
    private static void assertRefused(RowData row, String path, String problem) throws Exception {
        for (Map.Entry<Path, Outcome> outcome : paths.encode(List.of(row)).entrySet()) {
            Exception error = outcome.getValue().error();
            String where = outcome.getKey() + ": " + error;
            assertInstanceOf(KjsonValueException.class, error, where);
            assertTrue(error.getMessage().startsWith("column `" + path + "`: "), where);
            assertTrue(error.getMessage().contains(problem), where);
        }
    }

    /**
     * Timestamps carry Flink's value whole, at every precision: more digits than the precision,
     * and micros or nanos past a long, are written as Flink writes them.
     */
    @Test
    void timestampsWithMoreDigitsThanTheirPrecisionMatchFlink() throws Exception {
        paths.assertMatchesStock(() -> List.of(
                with(0, TimestampData.fromEpochMillis(253402300799999L, 999999)),
                with(0, TimestampData.fromEpochMillis(-1, 1)),
                with(10, new GenericArrayData(new Object[] {TimestampData.fromEpochMillis(-62135596800000L, 7)}))));
        paths.assertMatchesStock(() -> List.of(
                with(1, TimestampData.fromEpochMillis(1, 5)),
                with(2, TimestampData.fromEpochMillis(1500)),
                with(2, TimestampData.fromEpochMillis(-1500)),
                with(3, TimestampData.fromEpochMillis(0, 1)),
                with(3, TimestampData.fromEpochMillis(Long.MAX_VALUE / 100)),
                with(3, TimestampData.fromEpochMillis(Long.MIN_VALUE / 999, 999_999)),
                with(8, GenericRowData.of(new GenericArrayData(new Object[] {null,
                        GenericRowData.of(TimestampData.fromEpochMillis(0, 999))})))), false);
    }

    /** A binary row keeps only the millis of a TIMESTAMP(3): Flink and kjson then write the same value. */
    @Test
    void binaryRowsDropTheFinerDigitsForBothSides() throws Exception {
        paths.assertMatchesStock(() -> List.of(with(1, TimestampData.fromEpochMillis(1, 5)),
                with(8, GenericRowData.of(new GenericArrayData(new Object[] {GenericRowData.of(
                        TimestampData.fromEpochMillis(-1, 999999))})))), true);
    }

    @Test
    void decimalOfAnotherScaleOrMoreDigitsFails() throws Exception {
        assertRefused(with(4, DecimalData.fromBigDecimal(new BigDecimal("0.1"), 2, 1)), "d", "0.1 has scale 1");
        assertRefused(with(4, DecimalData.fromBigDecimal(new BigDecimal("123456789012"), 12, 0)), "d", "more than 11 digits");
        assertRefused(with(5, DecimalData.fromBigDecimal(new BigDecimal("9.999999999999999999"), 19, 18)), "d18", "more than 18 digits");
        assertRefused(with(5, DecimalData.fromBigDecimal(new BigDecimal("1.000000000000000000"), 19, 18)), "d18", "more than 18 digits");
        assertRefused(with(6, DecimalData.fromBigDecimal(new BigDecimal("1234567890123456789.01"), 38, 2)), "d20", "more than 20 digits");
        assertRefused(with(6, DecimalData.fromBigDecimal(new BigDecimal("1.5"), 38, 1)), "d20", "has scale 1");
    }

    /**
     * A DecimalData built at a wider precision than declared, whose digits fit, is written as
     * Flink writes it (GenericRowData only: Flink's binary row writer asserts the precision).
     */
    @Test
    void decimalOfWiderPrecisionThatFitsMatchesFlink() throws Exception {
        paths.assertMatchesStock(() -> List.of(
                with(4, DecimalData.fromBigDecimal(new BigDecimal("-99999999999"), 38, 0)),
                with(5, DecimalData.fromBigDecimal(new BigDecimal("0.123456789012345678"), 30, 18)),
                with(6, DecimalData.fromBigDecimal(new BigDecimal("-12345678.90"), 12, 2))), false);
    }

    @Test
    void binaryOfAnotherLengthFails() throws Exception {
        assertRefused(with(7, new byte[] {1, 2, 3, 4, 5}), "b", "BINARY(3) value holds 5 bytes");
        assertRefused(with(7, new byte[] {1, 2}), "b", "holds 2 bytes");
        assertRefused(with(9, new GenericMapData(Map.of(StringData.fromString("k"), new byte[] {1}))), "m{value}", "BINARY(2) value holds 1 bytes");
    }

    /**
     * Null in a NOT NULL field, at the top, in a row, an array and a map value: Flink writes null,
     * so does kjson. Flink 1.20's serializer itself fails on such a row (its field getters of NOT
     * NULL fields do not check for null), so there is no Flink output to match on that line.
     */
    @Test
    void nullsInNotNullFieldsMatchFlink() throws Exception {
        // Flink's own serializer takes these rows from 2.1 on; 1.20's and 2.0's throw on the row itself.
        String flink = org.apache.flink.runtime.util.EnvironmentInformation.getVersion();
        assumeFalse(flink.startsWith("1.") || flink.startsWith("2.0."), "Flink " + flink + " fails on the row itself");
        EveryRowDataPath notNull = new EveryRowDataPath(StockKafkaSink.create("CREATE TABLE not_null_values ("
                + " i INT NOT NULL, s STRING NOT NULL, m MAP<STRING, DECIMAL(1, 0) NOT NULL>, a ARRAY<STRING NOT NULL>,"
                + " r ROW<x TIMESTAMP(9) NOT NULL, y INT NOT NULL> NOT NULL) WITH ('connector' = 'kafka', 'topic' = 't',"
                + " 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json')"));
        Map<Object, Object> nullValue = new java.util.LinkedHashMap<>();
        nullValue.put(StringData.fromString("a"), null);
        notNull.assertMatchesStock(() -> List.of(
                GenericRowData.of(null, null, new GenericMapData(nullValue), new GenericArrayData(new Object[] {null}),
                        GenericRowData.of(null, null)),
                GenericRowData.of(1, StringData.fromString("s"), null, null, null)));
    }

    @Test
    void theWriterTakesRowsAgainAfterAResetOnly() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(rowType, allocator)) {
            writer.append(with(7, new byte[] {1, 2, 3}));
            assertThrows(KjsonValueException.class, () -> writer.append(with(7, new byte[] {1})));
            assertThrows(IllegalStateException.class, () -> writer.append(with(7, new byte[] {1, 2, 3})));
            assertEquals(1, writer.finish().getRowCount(), "the rows before the failed one stay whole");
            writer.reset();
            writer.append(with(7, new byte[] {4, 5, 6}));
            assertEquals(1, writer.finish().getRowCount());
        }
        paths.assertMatchesStock(() -> List.of(with(7, new byte[] {4, 5, 6})));
    }
}
